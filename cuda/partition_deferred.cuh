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
 *  - Once the launch is overflowed (p.overflow), the table's keys get no
 *    lookup (all FAILED, as the lean kernel lists a warp's remaining rows,
 *    gpugb_retry_warp_rest), and the rest of the stretch goes to the retry
 *    list unadded.
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
 * Whether a table of `slots` slots has room for the chunks: a stretch's
 * partition is sized for a quarter of the slots (partition_strategy.cu),
 * which must stay below the flush threshold.
 */
__host__ __device__ __forceinline__ bool
gpugb_deferred_fits(int slots)
{
	return (int64_t) slots * 7 / 8 - GPUGB_DEFERRED_CHUNK_ROWS >= slots / 4;
}

/* The slot holding `key`, claiming an EMPTY one on the way (room is the caller's: see above). */
__device__ __forceinline__ int
gpugb_deferred_slot(const GpugbLeanTable &t, long long key, unsigned *claimed)
{
	unsigned	idx = gpugb_key_cache_home(t.cache, gpugb_key_cache_hash_step(GPUGB_KEY_CACHE_SEED, key), 0);

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
				atomicAdd(claimed, 1u);
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
	int			slot = valid ? gpugb_deferred_slot(t, in.key, claimed) : -1;
	int			slot0 = __shfl_sync(GPUGB_FULL_MASK, slot, 0);
	int			v[NV > 0 ? NV : 1];

#pragma unroll
	for (int a = 0; a < NV; a++)
		v[a] = valid ? (int) in.w[a] : 0;	/* packed values are int32 words */
	if (__all_sync(GPUGB_FULL_MASK, valid && slot == slot0))
	{
		/* The warp's 32 rows in one slot (a hot key): one warp reduction and one atomic a state. */
		long long	total[NV > 0 ? NV : 1];

#pragma unroll
		for (int a = 0; a < NV; a++)
			total[a] = gpugb_warp_sum_int32(v[a]);
		if (lane == 0)
		{
			atomicAdd(&t.counts[slot0], 32u);
#pragma unroll
			for (int a = 0; a < NV; a++)
				gpugb_lean_add_sum(t.sums, t.slots, a, slot0, total[a]);
		}
	}
	else if (valid)
	{
		atomicAdd(&t.counts[slot], 1u);
#pragma unroll
		for (int a = 0; a < NV; a++)
			gpugb_lean_add_sum(t.sums, t.slots, a, slot, v[a]);
	}
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
 * the launch was, so no lookups.  Block-collective, after __syncthreads,
 * with `failed` 0; leaves the table empty, `claimed` and `failed` 0.
 */
template <int NV>
__device__ __forceinline__ void
gpugb_deferred_flush(const GpugbAggParams &p, const GpugbLeanTable &t, const void *packed, int64_t first,
					 int64_t end, bool overflowed, unsigned *claimed, unsigned *failed, unsigned lane)
{
	const GpugbStates global = gpugb_global_states(p);

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
			*(volatile unsigned *) failed = 1u;
		}
	}
	__syncthreads();
	if (*(volatile unsigned *) failed != 0u)
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
	if (threadIdx.x == 0)
	{
		*claimed = 0u;
		*failed = 0u;
	}
	__syncthreads();
}

/*
 * One partition's stretch [begin, end) of packed rows, in chunks, with the
 * table empty before and after.  Block-collective.
 */
template <int NV>
__device__ __forceinline__ void
gpugb_deferred_stretch(const GpugbAggParams &p, const GpugbLeanTable &t, const void *packed, int64_t begin,
					   int64_t end, unsigned *claimed, unsigned *failed, unsigned *decision)
{
	const unsigned lane = threadIdx.x & 31u;
	const unsigned threshold = (unsigned) ((int64_t) t.slots * 7 / 8 - GPUGB_DEFERRED_CHUNK_ROWS);
	int64_t		first = begin;		/* the first row the table holds */

	for (int64_t chunk = begin; chunk < end; chunk += GPUGB_DEFERRED_CHUNK_ROWS)
	{
		const int64_t chunk_end = min(chunk + GPUGB_DEFERRED_CHUNK_ROWS, end);

		/*
		 * Block-uniform: thread 0 reads the room and the overflow flag after
		 * the chunk before (its closing barrier), every thread the decision
		 * after this barrier; thread 0 writes the next one only after the
		 * next chunk's closing barrier, which every thread reaches after its read.
		 */
		if (threadIdx.x == 0)
			*decision = (*(volatile unsigned *) claimed > threshold ? 1u : 0u) |
				(gpugb_launch_overflow_flag(p) != 0u ? 2u : 0u);
		__syncthreads();

		const unsigned d = *(volatile unsigned *) decision;

		if (d != 0u && first < chunk)
		{
			gpugb_deferred_flush<NV>(p, t, packed, first, chunk, (d & 2u) != 0u, claimed, failed, lane);
			first = chunk;
		}
		if (d & 2u)
		{
			gpugb_deferred_retry_rows(p, chunk, end, lane);
			__syncthreads();	/* every thread has read d before thread 0 writes the next stretch's */
			return;
		}
		for (int64_t base = chunk + (threadIdx.x & ~31u); base < chunk_end; base += blockDim.x)
			gpugb_deferred_warp_rows<NV>(t, gpugb_lean_packed_load<NV, 1>(packed, base + lane, chunk_end),
										 base + lane, chunk_end, claimed, lane);
		__syncthreads();
	}
	if (first < end)
		gpugb_deferred_flush<NV>(p, t, packed, first, end, gpugb_launch_overflow_flag(p) != 0u, claimed,
									  failed, lane);
}

#endif							/* GPUGB_PARTITION_DEFERRED_CUH */
