/*
 * lean_gid_kernel.cuh
 *    SHARED_HASH's block table indexed by the group id itself, for the
 *    groups between what the lean kernel's keyed tables hold in shared
 *    memory and what a table of 32-bit states does (written in session 44,
 *    planned since session 45: src/heuristics.c, gpugb_lean_gid_pays).
 *
 * Why: the floor target misses at 2^12-2^16 groups, where the lean table
 * with its key cache (8-byte keys, ids and states: 24 bytes a slot with one
 * sum) no longer holds every group, and GLOBAL_HASH and PARTITION run at
 * 8-10x the floor (kernel benchmark, session 40's grid).  Group ids are
 * dense, 0 .. groups - 1, so a table indexed by them needs no keys: a
 * 32-bit count and a 64-bit sum (two words) a group, 12 bytes, and 2^14
 * groups fit in 192 KB.  Each row takes its id from the global table
 * (gpugb_launch_row_gid: a lookup, which claims new groups; with one key
 * word in the global table's slots, no NULL key, no row list and one sum,
 * gpugb_find_or_insert_word on the key word loaded a step ahead:
 * gpugb_lean_gid_rows_ahead, launch.cu's lean_gid_by_word), then adds itself with
 * shared-memory atomics; an id past the table, or an input wider than
 * int32, takes the generic warp update of the global states.
 * test/kernelbench/shared_bound.cu's global mode is this design's bound.
 *
 * cuda/launch.cu (lean_gid_slots) takes it for launches the lean kernel
 * takes (gpugb_lean_launch_ok) without NULL inputs, whose groups expected no
 * keyed lean table holds and this one does, without a very hot group
 * (unless looked up by key word: gpugb_lean_gid_pays), and, looked up by
 * key word with one sum, from 2048 groups before the keyed tables
 * (gpugb_lean_gid_first, src/heuristics.c, with the numbers): at
 * 2^14 groups and one sum it ran 3.2x as fast as the partial keyed table
 * uniform, within 2 % of shared_bound's global mode (its design's bound,
 * 4.1 ms for 2^28 rows); below 2^12 groups it is slower than the keyed
 * tables (no warp reduction for a hot key, each block zeroes and flushes
 * all its slots), and at Zipf 1.5 0.84-0.86x (H200, session 45 call 1).
 * Shared memory: per sum a column of uint32 low words and one of int32
 * high words, then the count column (uint32), `slots` entries each:
 * gpugb_lean_table_at's layout without the key cache.
 */
#ifndef GPUGB_LEAN_GID_KERNEL_CUH
#define GPUGB_LEAN_GID_KERNEL_CUH

#include "lean_fast_kernel.cuh"

/* Bytes of the table (src/heuristics.h, as the plan counts them). */
static inline size_t
gpugb_lean_gid_table_bytes(int n_sums, int64_t slots)
{
	return (size_t) GPUGB_LEAN_GID_TABLE_BYTES(n_sums, slots);
}

/*
 * The group ids a launch's block table adds, slot s holding id lo + s: a
 * launch of the table once a sum and group range (src/heuristics.c,
 * gpugb_lean_gid_split_ranges) adds only ids lo .. lo + slots - 1, each
 * other range being another launch's, except the last range's (open),
 * which also sends every id past it to the global states.  Every other
 * launch: {0, true}, every id.
 */
struct GpugbGidRange
{
	int64_t		lo;
	bool		open;
};

/*
 * Lane's row (-1 in gid where it has none) added to its group's
 * slot, or, for an id past the table (in an open range) or an input wider
 * than int32, to the global states (warp-collective: every lane calls it);
 * an id of another range, nowhere.  row: its row in the columns, for the
 * generic update.
 */
template <int NV>
__device__ __forceinline__ void
gpugb_lean_gid_add(const GpugbAggParams &p, const GpugbLeanTable &t, const GpugbStates &global, int64_t gid,
				   uint32_t row, const int (&v)[NV > 0 ? NV : 1], bool narrow, unsigned lane,
				   const GpugbGidRange &range)
{
	int64_t		s = gid - range.lo;
	bool		mine = gid >= 0 && s >= 0 && (s < t.slots || range.open);
	bool		local = mine && s < t.slots && narrow;
	bool		generic = mine && !local;

	if (local)
	{
		atomicAdd(&t.counts[s], 1u);
#pragma unroll
		for (int a = 0; a < NV; a++)
			gpugb_lean_add_sum(t.sums, t.slots, a, (int) s, v[a]);
	}
	if (__any_sync(GPUGB_FULL_MASK, generic))
		gpugb_aggregate_warp(p, global, row, generic ? gid : -1, gid, lane);
}

/* Pair slots: the home pair's key word and state, read together (the experiment GPUGB_GID_PAIR_HOME). */
struct GpugbLeanPairHome
{
	unsigned long long key_word;
	unsigned long long state;
};

/* Keyed slots: whether the home word holds the key with an id (*gid), as the probe's first step matches it. */
__device__ __forceinline__ bool
gpugb_lean_gid_home_hit(const GpugbAggParams &p, long long key, unsigned long long home, int64_t *gid)
{
	const GpugbKeyedSlots f = {p, gpugb_keyed_slot_key(key, false)};

	return f.match(0, home, gid) && *gid >= 0;
}

/*
 * Pair slots: the same, where the pair's key word was read written (not
 * GPUGB_PAIR_KEY_UNSET: an unwritten word, or a key equal to the salt,
 * takes the lookup) and the state published; a key word is written once,
 * before its state (GpugbPairSlots::match, given seen_key).
 */
__device__ __forceinline__ bool
gpugb_lean_gid_home_hit(const GpugbAggParams &p, long long key, const GpugbLeanPairHome &home, int64_t *gid)
{
	if (home.key_word == GPUGB_PAIR_KEY_UNSET)
		return false;

	GpugbPairSlots f = {p, (unsigned long long) key ^ GPUGB_PAIR_KEY_SALT, 0ull};

	/* seen_key is set, so match reads no slot: the index it takes (0) is never used. */
	f.seen_key = home.key_word;
	return f.match(0, home.state, gid) && *gid >= 0;
}

/* Where a row's group id goes besides the table: nowhere (every launch but the split's first)... */
struct GpugbGidNoColumn
{
	__device__ void put(int64_t, int64_t) const {}
};

/*
 * ...or, where the table is taken once a sum (src/heuristics.c,
 * gpugb_lean_gid_split_pays), to row i of a column that the launches of the later sums read (gpugb_lean_gid_sum_kernel):
 * the id, or -1 for a row sent to the retry list (the retry adds all of
 * its aggregates).
 */
struct GpugbGidColumn
{
	int32_t    *gids;

	__device__ void put(int64_t i, int64_t gid) const { gids[i] = (int32_t) gid; }
};

/*
 * Lane's row i (its inputs `in`) added: its id looked up by the key word
 * (gpugb_find_or_insert_word; PAIR: pair slots, else keyed ones), unless
 * `home`, its home slot's word (or pair) read a step before, already holds
 * its key with an id (a published slot never changes within a launch); a
 * row that gets no id goes to the retry list.  Warp-collective.
 */
template <int NV, bool PAIR, bool HOME, typename Home, typename Column>
__device__ __forceinline__ void
gpugb_lean_gid_row(const GpugbAggParams &p, const GpugbLeanTable &t, const GpugbStates &global,
				   const GpugbLeanRowInputs<NV> &in, const Home &home, int64_t i, unsigned lane,
				   const Column &column, const GpugbGidRange &range)
{
	int64_t		gid = -1;
	int			v[NV > 0 ? NV : 1];
	bool		narrow = true;

	if (i < p.nrows)
	{
		/* A declared int32 key outside int32 traps, as the row path's gpugb_row_key_int32 does. */
		if (!PAIR && in.key != (long long) (int32_t) in.key)
			__trap();
		/* The home word's id where it holds the key, as the probe's first step matches it (not EMPTY nor LOCKED). */
		bool		hit = false;

		if constexpr (HOME)
			hit = gpugb_lean_gid_home_hit(p, in.key, home, &gid);
		if (!hit)
			gid = gpugb_find_or_insert_word<false, PAIR>(p, (int64_t) in.key);
		if (gid < 0)
			p.retry_out[atomicAdd(p.retry_count, 1u)] = (uint32_t) i;
		column.put(i, gid);
#pragma unroll
		for (int a = 0; a < NV; a++)
		{
			v[a] = (int) in.w[a];
			narrow = narrow && (long long) v[a] == in.w[a];
		}
	}
	gpugb_lean_gid_add<NV>(p, t, global, gid, (uint32_t) i, v, narrow, lane, range);
}

/* Keyed slots: the word of key's home slot (relaxed, as GpugbKeyedSlots reads it). */
__device__ __forceinline__ unsigned long long
gpugb_lean_gid_home_word(const GpugbAggParams &p, long long key)
{
	return gpugb_slot_ref(p.slots[gpugb_hash_word(key) & p.slot_mask]).load(cuda::memory_order_relaxed);
}

/* Pair slots: key's home pair, both words in one relaxed 16-byte load (as GpugbPairSlots::load reads them). */
__device__ __forceinline__ GpugbLeanPairHome
gpugb_lean_gid_home_pair(const GpugbAggParams &p, long long key)
{
	GpugbLeanPairHome h;

	asm volatile ("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];"
				  : "=l" (h.key_word), "=l" (h.state)
				  : "l" (&p.slots[2 * (gpugb_hash_word(key) & p.slot_mask)]) : "memory");
	return h;
}

/* Key's home word (keyed slots) or pair (pair slots). */
template <bool PAIR>
__device__ __forceinline__ std::conditional_t<PAIR, GpugbLeanPairHome, unsigned long long>
gpugb_lean_gid_home(const GpugbAggParams &p, long long key)
{
	if constexpr (PAIR)
		return gpugb_lean_gid_home_pair(p, key);
	else
		return gpugb_lean_gid_home_word(p, key);
}

/*
 * A warp's rows base, base + step, ... of a launch of one key word without
 * NULLs and no row list (gpugb_lean_word_key), each row's key word and
 * inputs loaded a step ahead (gpugb_lean_fast_load, as gpugb_lean_fast_rows'
 * AHEAD loop) and its id looked up by the word.  Keyed slots (not PAIR;
 * pair slots too under the experiment GPUGB_GID_PAIR_HOME) and at most one
 * sum: the inputs two steps ahead and the home slot's word one step ahead,
 * so that a row whose key sits in its home slot waits on no load of its own
 * (three rows' inputs held: more sums would outgrow the 64 registers of a
 * 1024-thread block).
 *
 * Why: at 2^14 groups, 4-byte keys, one payload, the row loop's kernel took
 * 4.62 ms, with 52 % of its stall samples on long scoreboards: the key's
 * load 16.7 %, the value's 5.8 % (both used a few instructions after they
 * were issued), the global slot's 11 % (Nsight Compute, session 53 call 5).
 * This loop: 3.36 ms (session 54 call 1).  H200, 2^28 rows, forced
 * SHARED_HASH, 3 reps, against the row loop: one payload at 2^14 groups,
 * 4-byte keys 1.25-1.30x (1.47x at Zipf 1.5), 8-byte keys (pair slots, the
 * step-ahead inputs only) 1.15-1.17x (1.56x at Zipf 1.5).  The inputs a step
 * ahead with four payloads at 2^12 groups: 0.89-0.98x (the five inputs held
 * a step), so launch.cu takes this loop with one sum only.
 */
template <int NV, bool PAIR, typename Column>
__device__ __forceinline__ void
gpugb_lean_gid_rows_ahead(const GpugbAggParams &p, const GpugbLeanTable &t, const GpugbStates &global,
						  int64_t base, int64_t step, unsigned lane, const Column &column,
						  const GpugbGidRange &range)
{
	/* Pair slots' home pair only under the experiment GPUGB_GID_PAIR_HOME (gpugb_device.h). */
	constexpr bool HOME = NV <= 1 && (!PAIR || GPUGB_GID_PAIR_HOME != 0);
	const long long *key_words = (const long long *) p.key_values[0];
	const int64_t end = p.nrows;
	auto		load = [&](int64_t i) { return gpugb_lean_fast_load<NV>(p, key_words, i, end); };

	if (base >= end)
		return;

	GpugbLeanRowInputs<NV> next = load(base + lane);

	if constexpr (HOME)
	{
		GpugbLeanRowInputs<NV> after = load(base + step + lane);
		auto		next_home = gpugb_lean_gid_home<PAIR>(p, next.key);

		for (; base < end; base += step)
		{
			const GpugbLeanRowInputs<NV> cur = next;
			const auto	home = next_home;

			next = after;
			if (base + 2 * step < end)
				after = load(base + 2 * step + lane);
			if (base + step < end)
				next_home = gpugb_lean_gid_home<PAIR>(p, next.key);
			gpugb_lean_gid_row<NV, PAIR, true>(p, t, global, cur, home, base + lane, lane, column, range);
		}
	}
	else
	{
		for (; base < end; base += step)
		{
			const GpugbLeanRowInputs<NV> cur = next;

			if (base + step < end)
				next = load(base + step + lane);
			gpugb_lean_gid_row<NV, PAIR, false>(p, t, global, cur, 0ull, base + lane, lane, column, range);
		}
	}
}

/*
 * The kernel's work in a block.  WORD: 0, rows looked up by
 * gpugb_launch_row_gid; GPUGB_SLOTS_KEYED32 or GPUGB_SLOTS_PAIR, the
 * launch's slot format, where gpugb_lean_word_key holds:
 * gpugb_lean_gid_rows_ahead, each row's id also put to `column`.
 */
template <int NV, int WORD, typename Column>
__device__ __forceinline__ void
gpugb_lean_gid_block(const GpugbAggParams &p, int slots, const Column &column, const GpugbGidRange &range)
{
	GpugbLeanTable t;

	t.sums = (unsigned *) gpugb_lean_smem;
	t.counts = (unsigned *) (gpugb_lean_smem + (size_t) NV * slots);
	t.count_columns = 1;
	t.slots = slots;
	t.cache = GpugbKeyCache();	/* none: the id is the slot */

	for (int s = threadIdx.x; s < slots; s += blockDim.x)
	{
		t.counts[s] = 0;
#pragma unroll
		for (int a = 0; a < 2 * NV; a++)
			t.sums[(size_t) a * slots + s] = 0;
	}
	__syncthreads();

	const unsigned lane = threadIdx.x & 31u;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;
	const GpugbStates global = gpugb_global_states(p);

	if constexpr (WORD != 0)
		gpugb_lean_gid_rows_ahead<NV, WORD == GPUGB_SLOTS_PAIR>(p, t, global,
																(int64_t) blockIdx.x * blockDim.x +
																(threadIdx.x & ~31u), step, lane, column, range);
	else
		for (int64_t base = (int64_t) blockIdx.x * blockDim.x + (threadIdx.x & ~31u); base < p.nrows;
			 base += step)
		{
			int64_t		i = base + lane;
			uint32_t	row = 0;
			int64_t		gid = -1;
			int			v[NV > 0 ? NV : 1];
			bool		narrow = true;

			if (i < p.nrows)
			{
				gid = gpugb_launch_row_gid(p, i, &row);
#pragma unroll
				for (int a = 0; a < NV; a++)
				{
					long long	w = __ldg((const long long *) &p.vals[a].values[row]);

					v[a] = (int) w;
					narrow = narrow && (long long) v[a] == w;
				}
			}
			gpugb_lean_gid_add<NV>(p, t, global, gid, row, v, narrow, lane, range);
		}
	__syncthreads();
	for (int s = threadIdx.x; s < slots; s += blockDim.x)
		if (t.counts[s] != 0)
			gpugb_lean_slot_flush<NV, false>(p, global, t, s, (int) (range.lo + s));
}

template <int NV, int WORD = 0>
__global__ void __launch_bounds__(GPUGB_LEAN_ONE_BLOCK_THREADS, 1)
gpugb_lean_gid_kernel(const GpugbAggParams p, int slots)
{
	gpugb_lean_gid_block<NV, WORD>(p, slots, GpugbGidNoColumn(), GpugbGidRange{0, true});
}

/*
 * The split's first launch (the table once a sum): p as the caller
 * passes it, with one sum (the counts and sum 0 of the launch), looked up
 * by key word (WORD), each row's group id written to gids; its table holds
 * the first group range (RANGED), or every id (a constant range: the split
 * once a sum only ran 0.92x as fast with the range a kernel parameter,
 * four payloads at 2^14 groups, H200, session 57 call 1).
 */
template <int WORD, bool RANGED>
__global__ void __launch_bounds__(GPUGB_LEAN_ONE_BLOCK_THREADS, 1)
gpugb_lean_gid_split_first_kernel(const GpugbAggParams p, int slots, int32_t *gids)
{
	static_assert(WORD != 0, "the split's first launch looks rows up by key word");
	gpugb_lean_gid_block<1, WORD>(p, slots, GpugbGidColumn{gids}, GpugbGidRange{0, !RANGED});
}

/*
 * The split's later group ranges of the counts and sum 0 (p as the first
 * launch's: one sum): each row's group id read from gids (the first
 * launch's, -1 for a retried row), the rows of `range` added to a table
 * of `slots` counts and sums, then flushed, as the first launch's.  R rows
 * a lane a step, their loads issued before any add; the add is
 * warp-collective (a wide value's generic update), so every lane makes
 * each of its R calls.
 */
template <int R>
__global__ void __launch_bounds__(GPUGB_LEAN_ONE_BLOCK_THREADS, 1)
gpugb_lean_gid_range_count_kernel(const GpugbAggParams p, int slots, const int32_t *gids, GpugbGidRange range)
{
	GpugbLeanTable t;

	t.sums = (unsigned *) gpugb_lean_smem;
	t.counts = (unsigned *) (gpugb_lean_smem + (size_t) slots);
	t.count_columns = 1;
	t.slots = slots;
	t.cache = GpugbKeyCache();
	for (int s = threadIdx.x; s < 3 * slots; s += blockDim.x)
		t.sums[s] = 0;		/* the low words, the high words, the counts */
	__syncthreads();

	const unsigned lane = threadIdx.x & 31u;
	const GpugbStates global = gpugb_global_states(p);
	const long long *values = (const long long *) p.vals[0].values;
	const int64_t warp_base = (int64_t) blockIdx.x * blockDim.x * R + (threadIdx.x & ~31u) * R;
	const int64_t step = (int64_t) gridDim.x * blockDim.x * R;

	/* A warp's R * 32 consecutive rows a step: lane's rows base + lane, base + 32 + lane, ... */
	for (int64_t base = warp_base; base < p.nrows; base += step)
	{
		int32_t		gid[R];
		long long	w[R];

#pragma unroll
		for (int r = 0; r < R; r++)
		{
			int64_t		i = base + 32 * r + lane;

			gid[r] = i < p.nrows ? __ldg(gids + i) : -1;
			w[r] = i < p.nrows ? __ldg(values + i) : 0;
		}
#pragma unroll
		for (int r = 0; r < R; r++)
		{
			int			v[1] = {(int) w[r]};

			gpugb_lean_gid_add<1>(p, t, global, gid[r], (uint32_t) (base + 32 * r + lane), v,
								  (long long) v[0] == w[r], lane, range);
		}
	}
	__syncthreads();
	for (int s = threadIdx.x; s < slots; s += blockDim.x)
		if (t.counts[s] != 0)
			gpugb_lean_slot_flush<1, false>(p, global, t, s, (int) (range.lo + s));
}

/*
 * The split's later launches: sum a of launch p, over the ids of `range`,
 * each row's group id read from gids (the first launch's), not looked up.
 * A block table of `slots` sums (a column of uint32 low words and one of
 * int32 high words: gpugb_lean_add_sum's layout) in one block an SM; a row
 * of the range whose value does not fit int32, or (open range) whose id is
 * past the table, adds itself to the global state; a row of -1 (retried:
 * its retry adds every aggregate) or of another range, nothing.  RANGED:
 * the range is `ranged`, else every id.  R rows a
 * thread a step, their loads issued before any add, so that they are in
 * flight together.
 */
template <int R, bool RANGED>
__global__ void __launch_bounds__(GPUGB_LEAN_ONE_BLOCK_THREADS, 1)
gpugb_lean_gid_sum_kernel(const GpugbAggParams p, int a, int slots, const int32_t *gids, GpugbGidRange ranged)
{
	/* Not RANGED: every id, as a constant (the first launch's comment says why). */
	const GpugbGidRange range = RANGED ? ranged : GpugbGidRange{0, true};

	GpugbLeanTable t;

	t.sums = (unsigned *) gpugb_lean_smem;
	t.counts = nullptr;
	t.count_columns = 0;
	t.slots = slots;
	t.cache = GpugbKeyCache();
	for (int s = threadIdx.x; s < 2 * slots; s += blockDim.x)
		t.sums[s] = 0;
	__syncthreads();

	const GpugbStates global = gpugb_global_states(p);
	const long long *values = (const long long *) p.vals[a].values;
	const int64_t step = (int64_t) gridDim.x * blockDim.x * R;

	for (int64_t base = (int64_t) blockIdx.x * blockDim.x * R + threadIdx.x; base < p.nrows; base += step)
	{
		int32_t		gid[R];
		long long	w[R];

#pragma unroll
		for (int r = 0; r < R; r++)
		{
			int64_t		i = base + (int64_t) r * blockDim.x;

			gid[r] = i < p.nrows ? __ldg(gids + i) : -1;
			w[r] = i < p.nrows ? __ldg(values + i) : 0;
		}
#pragma unroll
		for (int r = 0; r < R; r++)
		{
			int			v = (int) w[r];
			int64_t		s = (int64_t) gid[r] - range.lo;

			if (gid[r] < 0 || s < 0 || (s >= slots && !range.open))
				continue;
			if (s < slots && (long long) v == w[r])
				gpugb_lean_add_sum(t.sums, slots, 0, (int) s, v);
			else
				gpugb_lean_global_add_sum(p, global, a, gid[r], w[r]);
		}
	}
	__syncthreads();
	for (int s = threadIdx.x; s < slots; s += blockDim.x)
		gpugb_lean_global_add_sum(p, global, a, range.lo + s, gpugb_lean_slot_sum(t, 0, s));	/* nothing for 0 */
}

#endif							/* GPUGB_LEAN_GID_KERNEL_CUH */
