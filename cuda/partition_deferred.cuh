/*
 * partition_deferred.cuh
 *    PARTITION's lean kernel over packed rows of an int32 key and at most
 *    one sum, with the block table keyed by the key word alone and every
 *    group id looked up at the flush, not when a key first comes.
 *
 * Why: the lean kernel's key cache (key_cache.cuh) publishes a key only
 * with its group id, so a key's first row in a stretch looks the key up in
 * the global table inside the row loop, one lane at a time while the
 * warp's other lanes wait: at 2^22 groups a warp had 18 of its 32 lanes
 * active on average, at 2^24 (16 rows a key) 14, and the kernel took 5.3
 * and 10.1 ms (H200, 2^28 rows, one payload, Nsight Compute, session 42
 * calls 3 and 5).  test/kernelbench/partition_bound.cu's region phase, whose
 * block table looks each group up once at the end of its region, does the
 * same partitions' work in 2.8 and 4.7 ms (its "global" design, call 5).
 *
 * Here a row claims its key's slot with a shared-memory CAS of the key word
 * and adds itself there; the flush, after the stretch (or a chunk of it, as
 * below), looks each claimed key up (gpugb_find_or_insert_word) and adds
 * the slot's states to its group, all lanes busy.
 *
 * Invariants:
 *  - Room: the table takes the stretch's rows in chunks of at most
 *    GPUGB_DEFERRED_CHUNK_ROWS; before a chunk whose new keys could take
 *    the table past 7/8 of its slots it is flushed and emptied.  So a
 *    probe always meets an EMPTY slot, and no row ever lacks a slot.
 *  - A lookup that gets no group id (a full global table) leaves its slot
 *    FAILED; then every row added to the table since it was last emptied
 *    is looked for in it again (the keys stay in place until then, so the
 *    probes find them), and the rows of FAILED slots go to the retry list
 *    by position.  Their states are dropped with the slot: nothing of those
 *    rows reached the global states, and the retries add them once.
 *  - Once the launch is overflowed (p.overflow, seen at a chunk's end),
 *    the table's keys get no lookup (all FAILED, as the lean kernel lists a
 *    warp's remaining rows, gpugb_retry_warp_rest), and the rest of the
 *    stretch, and every later stretch of the block, goes to the retry list
 *    unadded.
 *  - Every barrier is reached by every thread: the chunks, the flushes and
 *    the early return follow from the stretch's bounds and from values
 *    every thread reads alike after a barrier (GpugbDeferredCount,
 *    __syncthreads_or).
 */
#ifndef GPUGB_PARTITION_DEFERRED_CUH
#define GPUGB_PARTITION_DEFERRED_CUH

#include "lean_fast_kernel.cuh"

/* An empty slot's key word: below every int32 key (so never an 8-byte key's table: KW 1 only). */
#define GPUGB_DEFERRED_EMPTY (-0x7FFFFFFFFFFFFFFFll - 1)
/* A slot whose lookup got no group id (in the table's gid word; 0 otherwise). */
#define GPUGB_DEFERRED_FAILED 1
/* Rows a block adds between two checks of the table's room (four steps of 1024). */
#define GPUGB_DEFERRED_CHUNK_ROWS 4096

/*
 * Whether a table of `slots` slots takes the chunks: the flush threshold
 * (7/8 of the slots less a chunk) must be at least 0, so that probes end,
 * and, for speed, at least the quarter of the slots a stretch's partition
 * is sized for (partition_strategy.cu), so that a stretch whose keys were
 * estimated right is flushed once.
 */
__host__ __device__ __forceinline__ bool
gpugb_deferred_fits(int slots)
{
	return (int64_t) slots * 7 / 8 - GPUGB_DEFERRED_CHUNK_ROWS >= slots / 4;
}

/*
 * The slot holding `key`, claiming an EMPTY one on the way (room is the
 * caller's: see above); *won: this call claimed it.
 */
__device__ __forceinline__ int
gpugb_deferred_slot(const GpugbLeanTable &t, long long key, bool *won)
{
	unsigned	idx = gpugb_key_cache_home(t.cache, gpugb_key_cache_hash_step(GPUGB_KEY_CACHE_SEED, key), 0);

	*won = false;
	for (;;)
	{
		long long	k = *(volatile long long *) &t.cache.keys[idx];

		if (k == key)
			return (int) idx;
		if (k == GPUGB_DEFERRED_EMPTY)
		{
			k = (long long) atomicCAS((unsigned long long *) &t.cache.keys[idx],
									  (unsigned long long) GPUGB_DEFERRED_EMPTY, (unsigned long long) key);
			if (k == GPUGB_DEFERRED_EMPTY)
			{
				*won = true;
				return (int) idx;
			}
			if (k == key)
				return (int) idx;
		}
		idx = (idx + 1) & (unsigned) (t.slots - 1);
	}
}

/* The slot already holding `key` (every row added since the table was emptied has one). */
__device__ __forceinline__ int
gpugb_deferred_find(const GpugbLeanTable &t, long long key)
{
	unsigned	idx = gpugb_key_cache_home(t.cache, gpugb_key_cache_hash_step(GPUGB_KEY_CACHE_SEED, key), 0);

	for (;;)
	{
		long long	k = t.cache.keys[idx];

		if (k == key)
			return (int) idx;
		if (k == GPUGB_DEFERRED_EMPTY)
			__trap();			/* a row added to the table without its key: a bug */
		idx = (idx + 1) & (unsigned) (t.slots - 1);
	}
}

/* One warp step's rows (lane's row i below `end`) added to their slots. Warp-collective. */
template <int NV>
__device__ __forceinline__ void
gpugb_deferred_warp_rows(const GpugbLeanTable &t, const GpugbLeanRowInputs<NV> &in, int64_t i, int64_t end,
						 unsigned *claimed, unsigned lane)
{
	bool		valid = i < end;
	bool		won = false;
	int			slot = valid ? gpugb_deferred_slot(t, in.key, &won) : -1;
	unsigned	claims = __ballot_sync(GPUGB_FULL_MASK, won);

	if (lane == 0 && claims != 0u)
		atomicAdd(claimed, (unsigned) __popc(claims));	/* one atomic a warp step */
	int			v[NV > 0 ? NV : 1];

#pragma unroll
	for (int a = 0; a < NV; a++)
		v[a] = valid ? (int) in.w[a] : 0;	/* packed values are int32 words */
	gpugb_lean_add_warp_rows<NV>(t, v, valid, slot, lane);
}

/* Rows [begin, end) to the retry list by position, a warp's 32 at a time (block-collective loop). */
__device__ __forceinline__ void
gpugb_deferred_retry_rows(const GpugbAggParams &p, int64_t begin, int64_t end, unsigned lane)
{
	int64_t		base = begin + (threadIdx.x & ~31u);

	if (base < end)
		gpugb_retry_warp_rest(p, base, end, blockDim.x, lane);
}

/*
 * Adds every claimed slot's states to its group (looked up now), then
 * empties the table; where a lookup got no group id, first lists the rows
 * of [first, end) whose slot it was (the file comment).  `overflowed`:
 * the launch was, so no lookups (any thread's view: each slot is one
 * thread's).  Block-collective, after __syncthreads; leaves the table empty.
 */
template <int NV>
__device__ __forceinline__ void
gpugb_deferred_flush(const GpugbAggParams &p, const GpugbLeanTable &t, const void *packed, int64_t first,
					 int64_t end, bool overflowed, unsigned lane)
{
	const GpugbStates global = gpugb_global_states(p);
	bool		failed = false;

	for (int s = threadIdx.x; s < t.slots; s += blockDim.x)
	{
		long long	key = t.cache.keys[s];

		if (key == GPUGB_DEFERRED_EMPTY)
			continue;

		/* Coalesced claims: the lanes with a key here are any of the warp's. */
		int64_t		gid = overflowed ? -1 : gpugb_find_or_insert_word<true, false>(p, (int64_t) key);

		if (gid >= 0)
			gpugb_lean_slot_flush<NV, false>(p, global, t, s, (int) gid);
		else
		{
			t.cache.gids[s] = GPUGB_DEFERRED_FAILED;
			failed = true;
		}
	}
	if (__syncthreads_or(failed))
	{
		for (int64_t base = first + (threadIdx.x & ~31u); base < end; base += blockDim.x)
		{
			int64_t		i = base + lane;
			bool		retry = false;

			if (i < end)
			{
				GpugbLeanRowInputs<NV> in = gpugb_lean_packed_load<NV, 1>(packed, i, end);

				retry = t.cache.gids[gpugb_deferred_find(t, in.key)] == GPUGB_DEFERRED_FAILED;
			}

			unsigned	mask = __ballot_sync(GPUGB_FULL_MASK, retry);
			unsigned	at = 0;

			if (lane == 0 && mask != 0u)
				at = atomicAdd(p.retry_count, (unsigned) __popc(mask));
			at = __shfl_sync(GPUGB_FULL_MASK, at, 0);
			if (retry)
				p.retry_out[at + __popc(mask & ((1u << lane) - 1u))] = (uint32_t) i;
		}
		__syncthreads();
	}
	for (int s = threadIdx.x; s < t.slots; s += blockDim.x)
	{
		t.cache.keys[s] = GPUGB_DEFERRED_EMPTY;
		t.cache.gids[s] = 0;
		t.counts[s] = 0;
#pragma unroll
		for (int a = 0; a < 2 * NV; a++)
			t.sums[(size_t) a * t.slots + s] = 0;
	}
	__syncthreads();
}

/*
 * The block's claim counting across chunks, the same in every thread:
 * claims of chunk c go to counters[c & 1], which only grow; after the
 * barrier that ends chunk c every thread reads counters[c & 1], which
 * nobody adds to again before the barrier that ends chunk c + 1 (chunk
 * c + 2 adds to it only after that).  So one barrier a chunk, where a
 * decision word written by thread 0 between two barriers took two.
 */
struct GpugbDeferredCount
{
	unsigned   *counters;		/* two words in the table's mask column */
	unsigned	chunk;			/* chunks taken by the block */
	unsigned	seen0,			/* counters[0] and [1] when last read (scalars: */
				seen1;			/* an array indexed by parity sat in local memory) */
	unsigned	held;			/* keys claimed since the table was emptied */
	bool		overflowed;		/* the block saw the launch overflowed (it stays so) */
};

/*
 * One partition's stretch [begin, end) of packed rows, in chunks, with the
 * table empty before and after.  Each warp loads its next row a step ahead,
 * as the lean kernel's AHEAD loop does (gpugb_lean_fast_rows).  Thread 0
 * loads the launch's overflow flag as a chunk starts, and the chunk's
 * closing barrier (__syncthreads_or) hands it to every thread.
 * Block-collective.
 */
template <int NV>
__device__ __forceinline__ void
gpugb_deferred_stretch(const GpugbAggParams &p, const GpugbLeanTable &t, const void *packed, int64_t begin,
					   int64_t end, GpugbDeferredCount &count)
{
	const unsigned lane = threadIdx.x & 31u;
	const unsigned threshold = (unsigned) ((int64_t) t.slots * 7 / 8 - GPUGB_DEFERRED_CHUNK_ROWS);
	int64_t		first = begin;		/* the first row the table holds */

	/* Once overflowed, the rest goes to the retry list unadded (no shared memory, no barrier). */
	if (count.overflowed)
	{
		gpugb_deferred_retry_rows(p, begin, end, lane);
		return;
	}
	for (int64_t chunk = begin; chunk < end; chunk += GPUGB_DEFERRED_CHUNK_ROWS)
	{
		const int64_t chunk_end = min(chunk + GPUGB_DEFERRED_CHUNK_ROWS, end);
		const unsigned parity = count.chunk & 1u;
		unsigned	flag = threadIdx.x == 0 ? gpugb_launch_overflow_flag(p) : 0u;
		int64_t		base = chunk + (threadIdx.x & ~31u);

		if (base < chunk_end)
		{
			GpugbLeanRowInputs<NV> next = gpugb_lean_packed_load<NV, 1>(packed, base + lane, chunk_end);

			for (; base < chunk_end; base += blockDim.x)
			{
				const GpugbLeanRowInputs<NV> cur = next;

				if (base + blockDim.x < chunk_end)
					next = gpugb_lean_packed_load<NV, 1>(packed, base + blockDim.x + lane, chunk_end);
				gpugb_deferred_warp_rows<NV>(t, cur, base + lane, chunk_end, &count.counters[parity], lane);
			}
		}

		const bool	overflowed = __syncthreads_or(flag != 0u) != 0;
		const unsigned now = *(volatile unsigned *) &count.counters[parity];

		count.held += now - (parity ? count.seen1 : count.seen0);
		if (parity)
			count.seen1 = now;
		else
			count.seen0 = now;
		count.chunk++;
		if (overflowed)
		{
			count.overflowed = true;
			gpugb_deferred_flush<NV>(p, t, packed, first, chunk_end, true, lane);
			count.held = 0;
			gpugb_deferred_retry_rows(p, chunk_end, end, lane);
			return;
		}
		if (count.held > threshold && chunk_end < end)
		{
			gpugb_deferred_flush<NV>(p, t, packed, first, chunk_end, false, lane);
			count.held = 0;
			first = chunk_end;
		}
	}
	gpugb_deferred_flush<NV>(p, t, packed, first, end, gpugb_launch_overflow_flag(p) != 0u, lane);
	count.held = 0;
}

#endif							/* GPUGB_PARTITION_DEFERRED_CUH */
