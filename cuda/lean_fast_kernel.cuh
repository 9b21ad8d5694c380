/*
 * lean_fast_kernel.cuh
 *    SHARED_HASH's lean kernel for a whole table of the commonest launch
 *    (one key, no NULLs, at most one sum: cuda/launch.cu,
 *    lean_fast_kernel_applies), whose row loop holds nothing but the work
 *    of a row whose key the block already knows.
 *
 * Why: Nsight Compute (session 29, call 7) found gpugb_lean_shared_kernel
 * issuing 257 warp instructions per 32 rows at 2^8 groups (366 at 2^12),
 * bound by issue, where test/kernelbench/shared_bound.cu's block table,
 * with the key looked up the same way, issues 59 and runs at the
 * device-memory floor (0.95 ms against 3.0 for 2^28 rows).  Its SASS
 * spends about 90 instructions a row before the first probe (a row list,
 * two key words' NULL arrays, kernel parameters reloaded from the constant
 * bank), and the inlined slow paths (the cache insert, the global table,
 * the generic warp combine) hold the registers.  This kernel issues 157 at
 * 2^8 (session 30, call 2) and is 1.26-1.55x faster with one sum at 2^2-
 * 2^12 groups; with four sums, which spill here, it is slower below 2^12.
 *
 * Here the launch has one key with no NULL among its values, no NULL input
 * and no row list (gpugb_lean_word_key, gpugb_lean_has_nulls), and the
 * table holds every group expected (not partial).  The row loop loads the
 * inputs and the key word, probes the block's cache by that word
 * (gpugb_key_cache_hit_word) and adds a hit with the lean kernel's
 * atomics; every other row (a key new to the block, a full cache, an input
 * wider than int32) goes to gpugb_lean_fast_slow_rows, a call that is not
 * inlined, which does what gpugb_lean_shared_kernel does for such rows.
 * The table, its layout and its flush are the lean kernel's (lean_kernel.cuh).
 */
#ifndef GPUGB_LEAN_FAST_KERNEL_CUH
#define GPUGB_LEAN_FAST_KERNEL_CUH

#include <type_traits>

#include "lean_kernel.cuh"

/*
 * The lean table (lean_kernel.cuh's layout) through helpers, so that the
 * non-inlined slow path can rebuild it from the one shared-memory
 * declaration rather than take a copy.  gpugb_lean_shared_kernel keeps
 * its own inline code: through these helpers ptxas spilled registers in
 * three of its instances that had none (review of session 29).
 */
/*
 * A block's lean table in shared memory, `slots` entries per column: per
 * sum a column of uint32 low words and one of int32 high words (sum a's
 * low words at [2a * slots], high words at [(2a + 1) * slots]); the count
 * columns (column k at [k * slots]: 0 the rows, k > 0 the k-th input with
 * NULLs, its NULLs); then the key cache.
 */
struct GpugbLeanTable
{
	unsigned   *sums;
	unsigned   *counts;
	int			count_columns;
	int			slots;
	GpugbKeyCache cache;
};

/* Every lean kernel's dynamic shared memory (one declaration, so device functions reach it too). */
extern __shared__ unsigned long long gpugb_lean_smem[];

template <int NV>
__device__ __forceinline__ GpugbLeanTable
gpugb_lean_table_at(unsigned long long *smem, const GpugbAggParams &p, int count_columns, int slots)
{
	GpugbLeanTable t;

	t.sums = (unsigned *) smem;
	t.counts = (unsigned *) (smem + (size_t) NV * slots);
	t.count_columns = count_columns;
	t.slots = slots;
	t.cache = gpugb_key_cache_at(smem + (size_t) NV * slots + gpugb_lean_count_words(count_columns, slots),
								 p.n_keys, slots, nullptr);
	return t;
}

/* Every count and sum 0 and the key cache empty (block-collective; __syncthreads after). */
template <int NV>
__device__ __forceinline__ void
gpugb_lean_table_reset(const GpugbLeanTable &t)
{
	for (int s = threadIdx.x; s < t.slots; s += blockDim.x)
	{
		for (int k = 0; k < t.count_columns; k++)
			t.counts[(size_t) k * t.slots + s] = 0;
#pragma unroll
		for (int a = 0; a < 2 * NV; a++)
			t.sums[(size_t) a * t.slots + s] = 0;
	}
	/*
	 * gpugb_key_cache_reset's work, but the counter is reached from gids
	 * (the cache's own gid array ends where the counter starts): through
	 * t.cache.claimed, nvcc 13.0 folded the counter's generic address to
	 * its offset from 0 and stored it with st.global (PTX "add.s64 %rd, 0,
	 * off"), an illegal address on the H200 (session 30, call 1).  The slow
	 * path's uses of the counter convert it with cvta.shared, as they should.
	 */
	for (int s = threadIdx.x; s < t.slots; s += blockDim.x)
		t.cache.gids[s] = GPUGB_KEY_FREE;
	if (threadIdx.x == 0)
		*(unsigned *) (t.cache.gids + t.slots) = 0;
}

/* Adds sum a's `sum` to group gid's global state with the generic int128 update (nothing for 0). */
__device__ __forceinline__ void
gpugb_lean_global_add_sum(const GpugbAggParams &p, const GpugbStates &global, int a, int64_t gid, long long sum)
{
	if (sum != 0)
		gpugb_apply_value(global, GPUGB_AGG_SUM_INT, p.vals[a].value_col, p.vals[a].hi_col, gid, (uint64_t) sum,
						  sum < 0 ? -1 : 0);
}

/* Sum a of slot s: its two 32-bit words as one int64. */
__device__ __forceinline__ long long
gpugb_lean_slot_sum(const GpugbLeanTable &t, int a, int s)
{
	return (long long) (((unsigned long long) t.sums[(size_t) (2 * a + 1) * t.slots + s] << 32) |
						t.sums[(size_t) 2 * a * t.slots + s]);
}

/*
 * Adds slot s's states, of group gid, to the global states with the
 * generic int128 update.
 */
template <int NV, bool NULLS>
__device__ __forceinline__ void
gpugb_lean_slot_flush(const GpugbAggParams &p, const GpugbStates &global, const GpugbLeanTable &t, int s,
					  int gid)
{
	atomicAdd(&p.counts[gid], (unsigned long long) t.counts[s]);	/* count column 0 */
	for (int c = 1, k = 1; NULLS && c < p.n_counts; c++)
	{
		if (p.count_nulls[c] == nullptr)
			continue;

		unsigned	nulls = t.counts[(size_t) k++ * t.slots + s];

		if (nulls != 0)
			atomicAdd(&p.counts[c * p.max_groups + gid], (unsigned long long) nulls);
	}
#pragma unroll
	for (int a = 0; a < NV; a++)
		gpugb_lean_global_add_sum(p, global, a, gid, gpugb_lean_slot_sum(t, a, s));
}

/*
 * Adds each slot's states to the global states (block-collective, after
 * __syncthreads: no entry is BUSY after the row loop, so a slot is FREE or
 * holds its group's id).
 */
template <int NV, bool NULLS>
__device__ __forceinline__ void
gpugb_lean_table_flush(const GpugbAggParams &p, const GpugbStates &global, const GpugbLeanTable &t)
{
	for (int s = threadIdx.x; s < t.slots; s += blockDim.x)
	{
		int			gid = p.n_keys == 0 ? 0 : t.cache.gids[s];

		if (gid >= 0 && t.counts[s] != 0)
			gpugb_lean_slot_flush<NV, NULLS>(p, global, t, s, gid);
	}
}

/*
 * gpugb_lean_table_flush for a table of one count column that is used
 * again (PARTITION's lean kernel, between the stretches of partitions):
 * each slot is flushed, then emptied, in one pass.  Only a slot that holds
 * a group id has states: a row is added to a slot only once its key is
 * published there, and a claim whose lookup found no group id leaves the
 * slot FREE and untouched.  Block-collective, after __syncthreads; another
 * __syncthreads before the table is used again.
 */
template <int NV>
__device__ __forceinline__ void
gpugb_lean_table_flush_reset(const GpugbAggParams &p, const GpugbStates &global, const GpugbLeanTable &t)
{
	for (int s = threadIdx.x; s < t.slots; s += blockDim.x)
	{
		int			gid = t.cache.gids[s];

		if (gid < 0)
			continue;
		if (t.counts[s] != 0)
			gpugb_lean_slot_flush<NV, false>(p, global, t, s, gid);
		t.counts[s] = 0;
#pragma unroll
		for (int a = 0; a < 2 * NV; a++)
			t.sums[(size_t) a * t.slots + s] = 0;
		t.cache.gids[s] = GPUGB_KEY_FREE;
	}
	/* The claimed counter, through gids (gpugb_lean_table_reset says why). */
	if (threadIdx.x == 0)
		*(unsigned *) (t.cache.gids + t.slots) = 0;
}

/*
 * The rows of a warp the hit path did not add (`slow`): look the key up
 * (inserting it into the cache, or the global table where the cache is
 * full), then add the row to its slot where it has one and its inputs fit
 * an int32, else to the global states.  A row whose key gets no group id
 * goes to the retry list (gpugb_cached_row_gid, gpugb_launch_row_gid).
 * Warp-collective: every lane calls, `slow` or not.
 */
template <int NV>
__device__ __noinline__ void
gpugb_lean_fast_slow_rows(const GpugbAggParams &p, int slots, int64_t i, bool slow, int slot, int64_t gid,
						  unsigned lane)
{
	/* The table from its shared memory: a copy passed in would sit in local memory. */
	const GpugbLeanTable t = gpugb_lean_table_at<NV>(gpugb_lean_smem, p, 1, slots);
	uint32_t	row = (uint32_t) i;
	int			v[NV > 0 ? NV : 1];
	bool		narrow = true;

	if (slow)
	{
		if (slot < 0)
		{
			/* Coalesced claims: the slow path's lanes diverge (gpugb_take_group_id). */
			if (!gpugb_key_cache_full(t.cache))
				gid = gpugb_cached_row_gid<true>(p, t.cache, i, &row, &slot);
			else
				gid = gpugb_launch_row_gid<true>(p, i, &row);
		}
#pragma unroll
		for (int a = 0; a < NV; a++)
		{
			long long	w = __ldg((const long long *) &p.vals[a].values[row]);

			v[a] = (int) w;
			narrow = narrow && (long long) v[a] == w;
		}
	}

	bool		local = slow && gid >= 0 && slot >= 0 && narrow;
	bool		generic = slow && gid >= 0 && !local;

	if (local)
	{
		atomicAdd(&t.counts[slot], 1u);
#pragma unroll
		for (int a = 0; a < NV; a++)
			gpugb_lean_add_sum(t.sums, t.slots, a, slot, v[a]);
	}
	if (__any_sync(GPUGB_FULL_MASK, generic))
		gpugb_aggregate_warp(p, gpugb_global_states(p), row, generic ? gid : -1, gid, lane);
}

/* A lane's inputs for one row (loaded a step ahead of its probe where gpugb_lean_fast_rows' AHEAD). */
template <int NV>
struct GpugbLeanRowInputs
{
	long long	key;
	long long	w[NV > 0 ? NV : 1];
};

/*
 * How gpugb_lean_packed_slow_row takes a lane's inputs: by value up to three
 * sums (ptxas, CUDA 13, sm_90: the partition kernel's registers and 16-byte
 * frame as with one sum), by reference with four, whose copy by value
 * spilled 24 bytes in the kernel's loop (a reference costs a 64-byte frame,
 * written only by the slow lanes).
 */
template <int NV>
using GpugbLeanRowArg = std::conditional_t<(NV >= 4), const GpugbLeanRowInputs<NV> &, GpugbLeanRowInputs<NV>>;

/*
 * gpugb_lean_fast_slow_rows over packed rows (PARTITION's lean kernel, unless
 * spec.partition_lean_unpacked), where no column holds the key or the values:
 * the lane's key word and value words come in (int32 values), the lookups
 * take the word (gpugb_key_cache_find's WORD, gpugb_find_or_insert_word),
 * and a row whose key has no slot (a full cache) adds itself to the global
 * states with one atomic a state, as a slot's flush does
 * (gpugb_lean_slot_flush).  A row whose key gets no group id goes to the
 * retry list by its sorted position i, which the caller unpacks the
 * columns for (partition_move.cu).  Not warp-collective: the global adds
 * are per row.
 */
template <int NV, int KW = 1>
__device__ __noinline__ void
gpugb_lean_packed_slow_row(const GpugbAggParams &p, int slots, int64_t i, int slot, int64_t gid,
						   GpugbLeanRowArg<NV> in)
{
	const GpugbLeanTable t = gpugb_lean_table_at<NV>(gpugb_lean_smem, p, 1, slots);

	if (slot < 0)
	{
		/* Coalesced claims: the slow path's lanes diverge (gpugb_take_group_id). */
		gid = !gpugb_key_cache_full(t.cache) ? gpugb_key_cache_find<true, KW>(p, t.cache, 0, &slot, in.key) :
			gpugb_find_or_insert_word<true, KW == 2>(p, (int64_t) in.key);
		if (gid < 0)
		{
			p.retry_out[atomicAdd(p.retry_count, 1u)] = (uint32_t) i;
			return;
		}
	}
	/* The values are int32 words: packed values are declared to fit. */
	if (slot >= 0)
	{
		atomicAdd(&t.counts[slot], 1u);
#pragma unroll
		for (int a = 0; a < NV; a++)
			gpugb_lean_add_sum(t.sums, t.slots, a, slot, (int) in.w[a]);
		return;
	}
	atomicAdd(&p.counts[gid], 1ull);	/* count column 0 */
#pragma unroll
	for (int a = 0; a < NV; a++)
		gpugb_lean_global_add_sum(p, gpugb_global_states(p), a, gid, (int) in.w[a]);
}

/* Lane's row i's key word and inputs, where i is below `end`. */
template <int NV>
__device__ __forceinline__ GpugbLeanRowInputs<NV>
gpugb_lean_fast_load(const GpugbAggParams &p, const long long *key_words, int64_t i, int64_t end)
{
	GpugbLeanRowInputs<NV> in = {};

	if (i < end)
	{
#pragma unroll
		for (int a = 0; a < NV; a++)
			in.w[a] = __ldg((const long long *) &p.vals[a].values[i]);
		in.key = __ldg(key_words + i);
	}
	return in;
}

/*
 * Lane's sorted position i's key word and inputs, where i is below `end`,
 * from PARTITION's packed rows (partition_move.cu's GpugbMovedRow of
 * gpugb_packed_row_words(KW, NV) words: the key's KW words (an int32, or
 * the low and high halves of an 8-byte key), then the values' int32 words,
 * then 0s): with an int32 key, 8 bytes a row with one value where the
 * unpacked columns are 16, 24 with four where they are 40.  One 8- or
 * 16-byte load a row, three 8-byte loads for six words, or three 4-byte
 * loads for the 12-byte rows of an 8-byte key and one value.
 */
template <int NV, int KW = 1>
__device__ __forceinline__ GpugbLeanRowInputs<NV>
gpugb_lean_packed_load(const void *rows, int64_t i, int64_t end)
{
	constexpr int W = gpugb_packed_row_words(KW, NV);
	GpugbLeanRowInputs<NV> in = {};

	static_assert(KW == 1 || KW == 2, "one key word, of 4 or 8 bytes");
	static_assert(W == 2 || W == 3 || W == 4 || W == 6, "packed rows of whole 8-byte words, or the 12-byte ones");
	if (i < end)
	{
		uint32_t	w[W];

		if constexpr (W == 3)
		{
#pragma unroll
			for (int j = 0; j < 3; j++)
				w[j] = __ldg((const uint32_t *) rows + (size_t) i * 3 + j);
		}
		else if constexpr (W == 4)
		{
			uint4		r = __ldg((const uint4 *) rows + i);

			w[0] = r.x;
			w[1] = r.y;
			w[2] = r.z;
			w[3] = r.w;
		}
		else
		{
#pragma unroll
			for (int j = 0; j < W / 2; j++)
			{
				uint2		r = __ldg((const uint2 *) rows + (size_t) i * (W / 2) + j);

				w[2 * j] = r.x;
				w[2 * j + 1] = r.y;
			}
		}
		in.key = KW == 1 ? (long long) (int32_t) w[0] : (long long) (((uint64_t) w[KW - 1] << 32) | w[0]);
#pragma unroll
		for (int a = 0; a < NV; a++)
			in.w[a] = (long long) (int32_t) w[KW + a];
	}
	return in;
}

/*
 * A warp step's rows added to their block-table slots: lane's row where
 * `add` (`slot`, int32 values v).  When all 32 rows are in one slot (a hot
 * key, or tiny g), one warp reduction and one atomic a state, not 32.
 * Warp-collective (all lanes call it).
 */
template <int NV>
__device__ __forceinline__ void
gpugb_lean_add_warp_rows(const GpugbLeanTable &table, const int (&v)[NV > 0 ? NV : 1], bool add, int slot,
						 unsigned lane)
{
	int			slot0 = __shfl_sync(GPUGB_FULL_MASK, slot, 0);

	if (__all_sync(GPUGB_FULL_MASK, add && slot == slot0))
	{
		long long	total[NV > 0 ? NV : 1];

#pragma unroll
		for (int a = 0; a < NV; a++)
			total[a] = gpugb_warp_sum_int32(v[a]);
		if (lane == 0)
		{
			atomicAdd(&table.counts[slot0], 32u);
#pragma unroll
			for (int a = 0; a < NV; a++)
				gpugb_lean_add_sum(table.sums, table.slots, a, slot0, total[a]);
		}
	}
	else if (add)
	{
		atomicAdd(&table.counts[slot], 1u);
#pragma unroll
		for (int a = 0; a < NV; a++)
			gpugb_lean_add_sum(table.sums, table.slots, a, slot, v[a]);
	}
}

/*
 * The fast kernel's work for one warp's rows (lane's row i, valid below
 * `end`, its inputs `in`): probe the block's cache by the key word
 * (gpugb_key_cache_hit_word) and add a hit with the lean kernel's atomics;
 * every other row goes to gpugb_lean_fast_slow_rows (PACKED: to
 * gpugb_lean_packed_slow_row, the inputs come from packed rows of a key of
 * KW words).  The
 * launch's rows are its columns' positions (no row list).
 * Warp-collective.
 */
template <int NV, bool PACKED = false, int KW = 1>
__device__ __forceinline__ void
gpugb_lean_fast_warp_rows(const GpugbAggParams &p, const GpugbLeanTable &table, const GpugbLeanRowInputs<NV> &in,
						  int64_t i, int64_t end, unsigned lane)
{
	const int	slots = table.slots;
	bool		valid = i < end;
	int			slot = -1;
	int64_t		gid = -1;
	int			v[NV > 0 ? NV : 1];
	bool		narrow = true;

	if (valid)
	{
		slot = gpugb_key_cache_hit_word(table.cache, in.key, &gid);
#pragma unroll
		for (int a = 0; a < NV; a++)
		{
			v[a] = (int) in.w[a];
			narrow = narrow && (long long) v[a] == in.w[a];
		}
	}

	bool		local = slot >= 0 && narrow;

	gpugb_lean_add_warp_rows<NV>(table, v, local, slot, lane);

	bool		slow = valid && !local;

	if constexpr (PACKED)
	{
		if (slow)
			gpugb_lean_packed_slow_row<NV, KW>(p, slots, i, slot, gid, in);
	}
	else if (__any_sync(GPUGB_FULL_MASK, slow))
		gpugb_lean_fast_slow_rows<NV>(p, slots, i, slow, slot, gid, lane);
}

/*
 * The launch's overflow flag (p.overflow; 0 where it has none): a volatile
 * read, every lane the same word.  Only the AHEAD loop reads it: p.overflow
 * is set only for PARTITION's lean launches, whose blocks are all AHEAD.
 * Read every step: every 8 steps was 1.02-1.07x at 2^18-2^22 groups but
 * 0.97-1.00x at 2^24 (H200, forced PARTITION, session 41 calls 1 and 4),
 * so it is not worth the kernel's extra state.
 */
__device__ __forceinline__ unsigned
gpugb_launch_overflow_flag(const GpugbAggParams &p)
{
	return p.overflow != nullptr ? *(volatile const unsigned int *) p.overflow : 0u;
}

/*
 * After the launch overflowed (p.overflow): the warp's rows base + lane,
 * base + step + lane, ... below `end`, none of them added yet, go to the
 * retry list by position, with one atomic a warp step.  Warp-collective.
 */
__device__ __forceinline__ void
gpugb_retry_warp_rest(const GpugbAggParams &p, int64_t base, int64_t end, int64_t step, unsigned lane)
{
	for (; base < end; base += step)
	{
		unsigned	n = end - base < 32 ? (unsigned) (end - base) : 32u;
		unsigned	first = 0;

		if (lane == 0)
			first = atomicAdd(p.retry_count, n);
		first = __shfl_sync(GPUGB_FULL_MASK, first, 0);
		if (lane < n)
			p.retry_out[first + lane] = (uint32_t) (base + lane);
	}
}

/*
 * gpugb_lean_fast_warp_rows over a warp's rows base, base + step, ...
 * below `end` (base the warp's first row: the loop and its collectives are
 * warp-uniform).  AHEAD: each row's inputs are loaded one step ahead, so
 * that their loads overlap the step before's probe and atomics.  Nsight
 * Compute of PARTITION's lean kernel (session 33, call 1) found its most
 * stalled instruction to be the key's hash waiting on the key's load: 14 %
 * of the samples at 2^22 groups, 24 % at 2^20, with 32 warps an SM.  Only
 * for blocks of 1024 threads (64 registers a thread): under the 256-thread
 * fast kernel's 48, the inputs held across a step spilled (ptxas, CUDA 13).
 * PACKED: the inputs come from `packed` (gpugb_lean_packed_load, rows of a
 * key of KW words), not the columns.
 */
template <int NV, bool AHEAD, bool PACKED = false, int KW = 1>
__device__ __forceinline__ void
gpugb_lean_fast_rows(const GpugbAggParams &p, const GpugbLeanTable &table, const long long *key_words,
					 const void *packed, int64_t base, int64_t end, int64_t step, unsigned lane)
{
	auto		load = [&](int64_t i) {
		if constexpr (PACKED)
			return gpugb_lean_packed_load<NV, KW>(packed, i, end);
		else
			return gpugb_lean_fast_load<NV>(p, key_words, i, end);
	};

	if constexpr (AHEAD)
	{
		if (base >= end)
			return;

		GpugbLeanRowInputs<NV> next = load(base + lane);
		/* Read a step ahead, as the inputs are: its load's latency overlaps the step's work. */
		unsigned	overflowed = gpugb_launch_overflow_flag(p);

		for (; base < end; base += step)
		{
			const GpugbLeanRowInputs<NV> cur = next;

			if (__any_sync(GPUGB_FULL_MASK, overflowed != 0))
			{
				gpugb_retry_warp_rest(p, base, end, step, lane);
				return;
			}
			overflowed = gpugb_launch_overflow_flag(p);
			if (base + step < end)
				next = load(base + step + lane);
			gpugb_lean_fast_warp_rows<NV, PACKED, KW>(p, table, cur, base + lane, end, lane);
		}
	}
	else
	{
		for (; base < end; base += step)
			gpugb_lean_fast_warp_rows<NV, PACKED, KW>(p, table, load(base + lane), base + lane, end, lane);
	}
}

/* BLOCK: 256 for a whole table (five blocks an SM), 1024 for the one-block table (cuda/launch.cu). */
template <int NV, int BLOCK>
__global__ void __launch_bounds__(BLOCK, BLOCK >= 1024 ? 1 : 5)
gpugb_lean_fast_kernel(const __grid_constant__ GpugbAggParams p, int slots)
{
	const GpugbLeanTable table = gpugb_lean_table_at<NV>(gpugb_lean_smem, p, 1, slots);

	gpugb_lean_table_reset<NV>(table);
	__syncthreads();

	const unsigned lane = threadIdx.x & 31u;
	const int64_t nrows = p.nrows;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;
	const long long *key_words = (const long long *) p.key_values[0];

	gpugb_lean_fast_rows<NV, (BLOCK >= 1024)>(p, table, key_words, nullptr,
											 (int64_t) blockIdx.x * blockDim.x + (threadIdx.x & ~31u), nrows,
											 step, lane);
	__syncthreads();
	gpugb_lean_table_flush<NV, false>(p, gpugb_global_states(p), table);
}

#endif							/* GPUGB_LEAN_FAST_KERNEL_CUH */
