/*
 * lean_deferred_kernel.cuh
 *    SHARED_HASH's one-block table (one key word without NULLs, no NULL
 *    input, sums of inputs declared int32) with its group ids looked up at
 *    the flush, as PARTITION's deferred kernel does (partition_deferred.cuh),
 *    where the groups expected fit the table between flushes
 *    (cuda/launch.cu, lean_deferred_chunk_rows).  An experiment, off unless
 *    spec.lean_deferred: it was slower than the fast kernel (below).
 *
 * Why: the fast kernel (lean_fast_kernel.cuh) publishes a key in a block's
 * cache only with its group id, so each block looks every key up in the
 * global table at the key's first row, one lane at a time while the warp's
 * other lanes wait.  At 2^12 groups each of the 132 blocks meets all 4096
 * keys, and the kernel took 3.46 ms for 2^28 rows with one payload (H200,
 * uniform, session 46's grid) where test/kernelbench/shared_bound.cu's
 * block table, with the key looked up, took 1.52 (session 29): the floor
 * target is 2.86.  Here a row claims its key's slot with a shared-memory
 * CAS of the key word and adds itself there, and the block looks its keys
 * up once, all lanes busy, when its rows are done.
 *
 * Measured (H200, 2^28 rows, forced SHARED_HASH and auto, 3 reps, both key
 * widths, uniform and Zipf 0.5-1.5; session 47 call 4,
 * docs/session47-2026-11-30/next/call4.sh): with one payload it took
 * 2.5-7.3 ms where the fast kernel took 1.8-3.7, 0.44-0.72x as fast at
 * 2^11 and 2^12 groups (4-byte keys, uniform: 6.39 against 3.34 ms at
 * 2^11, 5.48 against 3.42 at 2^12); results equal (96 verified each way,
 * and the self-test's cases).  Four payloads never took it there (their
 * one-block table is the gid table's or the partial one at these groups),
 * so it takes at most one sum (GPUGB_LEAN_DEFERRED_MAX_SUMS).  Why its row
 * loop is slower was not measured (no device time was left); PARTITION's
 * lean kernel runs the same loop, about 5 ms for 2^28 rows at 2^18-2^22
 * groups, so the answer matters there too.
 *
 * Each block takes one contiguous share of the launch's rows (one stretch
 * of gpugb_deferred_stretch), not the fast kernel's grid stride: the
 * stretch's chunks and flushes are the block's own.  The launch has no
 * overflow flag (GpugbAggParams.overflow is PARTITION's), so a lookup that
 * gets no id (a full global table) marks its slot FAILED, and the slot's
 * rows go to the retry list, as in PARTITION (partition_deferred.cuh's
 * invariants).
 */
#ifndef GPUGB_LEAN_DEFERRED_KERNEL_CUH
#define GPUGB_LEAN_DEFERRED_KERNEL_CUH

#include "partition_deferred.cuh"

/*
 * The launch's own columns as the deferred table's rows: the key word
 * (KW 1: an int32 key in keyed slots, 2: an 8-byte key in pair slots) and
 * the inputs' words.  A row with a value beyond int32 takes no slot (the
 * table's sums add int32 words, as packed rows hold), nor does an 8-byte
 * key equal to GPUGB_DEFERRED_EMPTY_KEY: both go to the retry list as they
 * come.  The host takes this table only where every summed input is
 * declared to fit int32 (GpugbAggParams.lean_deferred), so those rows are
 * few or none.
 */
template <int NV, int KW>
struct GpugbDeferredColumnRows
{
	const GpugbAggParams &p;

	static constexpr bool may_be_unslotted = NV > 0 || KW == 2;
	static constexpr bool staged = false;	/* gpugb_deferred_stretch's plain loads */

	__device__ __forceinline__ GpugbLeanRowInputs<NV> load(int64_t i, int64_t end) const
	{
		return gpugb_lean_fast_load<NV>(p, (const long long *) p.key_values[0], i, end);
	}
	__device__ __forceinline__ bool unslotted(const GpugbLeanRowInputs<NV> &in) const
	{
		bool		unslotted = KW == 2 && in.key == GPUGB_DEFERRED_EMPTY_KEY;

#pragma unroll
		for (int a = 0; a < NV; a++)
			unslotted = unslotted || (long long) (int) in.w[a] != in.w[a];
		return unslotted;
	}
};

/*
 * One block of GPUGB_LEAN_ONE_BLOCK_THREADS an SM, persistent; `slots`
 * slots (a power of two), the stretch's chunks of `chunk_rows` rows
 * (gpugb_lean_deferred_chunk_rows).
 */
template <int NV, int KW>
__global__ void __launch_bounds__(GPUGB_LEAN_ONE_BLOCK_THREADS, 1)
gpugb_lean_deferred_kernel(const __grid_constant__ GpugbAggParams p, int slots, int chunk_rows)
{
	const GpugbLeanTable table = gpugb_lean_table_at<NV>(gpugb_lean_smem, p, 1, slots);
	/* The claim counters and the flush's list in the key cache's mask column (partition_lean_kernel.cuh). */
	GpugbDeferredCount count = {(unsigned *) table.cache.masks, 0u, 0u, 0u, 0u, false};

	for (int s = threadIdx.x; s < slots; s += blockDim.x)
		gpugb_deferred_empty_slot<NV>(table, s);
	if (threadIdx.x <= GPUGB_DEFERRED_LIST_COUNT)
		count.counters[threadIdx.x] = 0u;
	__syncthreads();

	const int64_t share = (p.nrows + gridDim.x - 1) / gridDim.x;
	const int64_t begin = min((int64_t) blockIdx.x * share, p.nrows);
	const int64_t end = min(begin + share, p.nrows);

	gpugb_deferred_stretch<NV, KW>(p, table, GpugbDeferredColumnRows<NV, KW> {p}, begin, end, count, chunk_rows);
}

#endif							/* GPUGB_LEAN_DEFERRED_KERNEL_CUH */
