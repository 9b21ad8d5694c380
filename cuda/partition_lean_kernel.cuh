/*
 * partition_lean_kernel.cuh
 *    PARTITION's aggregation for the commonest moved launch: one key word
 *    without NULLs, no NULL input, COUNT and at most one integer SUM, or
 *    up to four over packed rows (cuda/launch.cu, gpugb_partition_lean_slots).  The rows moved with the
 *    sort (partition_move.cu), so row i is sorted position i and a
 *    partition's rows are one run of the columns.
 *
 * Why: with the rows moved, PARTITION took 20.7 ms at 2^22 groups with one
 * payload (2^28 rows, 4-byte keys, H200, session 31, call 2), where the
 * pack, sort and unpack take about 8.5 and the generic partition kernel
 * (partition_kernels.cuh) about 12; test/kernelbench/partition_bound.cu's
 * region phase does the same partitions' work in 2.3-2.8 ms.  The generic
 * kernel hashes every row twice over (fmix64), claims slots through a
 * state word, compares keys against a representative row in global
 * memory, and adds each row with the generic warp combine (match_any,
 * int128 states, an op switch) twice.
 *
 * This kernel is SHARED_HASH's fast lean kernel (lean_fast_kernel.cuh)
 * run over each partition's stretch of a tile in turn: the block's lean
 * table (32-bit counts, 64-bit sums as two 32-bit words, the key cache
 * probed by the key word), the same hit path and slow path, in one block
 * of 1024 threads an SM with the most slots it holds (8192 for one sum on
 * the H200).  At the end of each stretch the block flushes its slots to
 * the global states and empties the table in one pass
 * (gpugb_lean_table_flush_reset), so the next partition's keys find a
 * free table.  The partitions are sized for a quarter of the table's slots
 * (up to 5/16: PARTITION_FILL_SLACK, src/heuristics.c; partition_strategy.cu),
 * and the key cache takes at most half: a
 * partition with more keys than that sends the rest to the global table,
 * correct and only slower.
 *
 * The lean table's bounds hold per launch as for SHARED_HASH (fewer than
 * 2^31 rows: gpugb_lean_launch_ok), whatever the number of stretches.
 * Rows whose key gets no group id go to the retry list by sorted position
 * (the fast kernel's slow path), which the caller's moved parameters
 * read.
 *
 * PACKED (the default since session 34; spec.partition_lean_unpacked turns
 * it off for A/B runs): the kernel reads the sorted packed rows themselves
 * (`packed`, 8 bytes a row with one value: the key's int32 word and the
 * value's; 16 with two or three values, 24 with four), not the int64
 * columns the unpack kernel writes from them (16 bytes a row with one), and
 * the unpack runs only where a row went to the retry list
 * (partition_move.cu, gpugb_partition_unpack_for_retries).  The unpack
 * took 1.67 ms of PARTITION's 15.6 at 2^22 groups with one payload (H200,
 * 2^28 rows, session 33, call 1).  The slow path then looks keys up by
 * their word (gpugb_lean_packed_slow_row).  KW = 2: rows of an 8-byte key
 * in pair slots (session 35's experiment, the default since session 36):
 * 12 bytes with one value, 8 without, 16 or 24 with more.
 */
#ifndef GPUGB_PARTITION_LEAN_KERNEL_CUH
#define GPUGB_PARTITION_LEAN_KERNEL_CUH

#include "lean_fast_kernel.cuh"
#include "partition_kernels.cuh"

/* Group ids looked up at the flush, over packed rows (partition_deferred_rule.cuh says where). */
#include "partition_deferred.cuh"

template <int NV, bool PACKED, int KW = 1>
__global__ void __launch_bounds__(GPUGB_LEAN_ONE_BLOCK_THREADS, 1)
gpugb_partition_lean_kernel(const __grid_constant__ GpugbAggParams p, const void *packed, const uint32_t *bounds,
							int64_t n_parts, int slots, int64_t tile_rows, int64_t split_rows, bool direct_gids)
{
	const GpugbLeanTable table = gpugb_lean_table_at<NV>(gpugb_lean_smem, p, 1, slots);

	if constexpr (PACKED && GPUGB_PARTITION_DEFERRED_GIDS)
	{
		if (gpugb_partition_deferred_applies(NV, KW, slots))
		{
			/*
			 * The claim counters in the key cache's mask column, which this
			 * table does not use.  Not static shared memory: the launch opts
			 * in to the most dynamic memory a block may have (launch.cu,
			 * opt_in_shared), and 16 static bytes made that opt-in invalid
			 * (H200, session 42 call 6).
			 */
			GpugbDeferredCount count = {(unsigned *) table.cache.masks, 0u, 0u, 0u, 0u, false};

			for (int s = threadIdx.x; s < slots; s += blockDim.x)
				gpugb_deferred_empty_slot<NV>(table, s);
			if (threadIdx.x <= GPUGB_DEFERRED_LIST_COUNT)
				count.counters[threadIdx.x] = 0u;	/* and the flush's list count */
			__syncthreads();
			gpugb_partition_for_each_stretch(bounds, n_parts, p.nrows, tile_rows, split_rows,
											 [&](int64_t begin, int64_t end, bool whole) {
				gpugb_deferred_stretch<NV, KW>(p, table, GpugbDeferredPackedRows<NV, KW> {packed, p.nrows}, begin, end, count,
											   gpugb_deferred_chunk_rows(slots), direct_gids && whole);
			});
			return;
		}
	}
	/* Mixed, gathered and hashed rows come only where the deferred path applies (partition_strategy.cu checks). */
	if constexpr (GPUGB_KEY_WORDS_MIXED(KW) || KW == GPUGB_HASHED_KEY_WORDS)
		__trap();
	gpugb_lean_table_reset<NV>(table);
	__syncthreads();

	/* The instance below never runs for those rows (above): any valid one compiles there. */
	constexpr int FAST_KW = GPUGB_KEY_WORDS_MIXED(KW) || KW == GPUGB_HASHED_KEY_WORDS ? 1 : KW;
	const unsigned lane = threadIdx.x & 31u;
	const long long *key_words = (const long long *) p.key_values[0];

	gpugb_partition_for_each_stretch(bounds, n_parts, p.nrows, tile_rows, split_rows,
									 [&](int64_t begin, int64_t end, bool) {
		gpugb_lean_fast_rows<NV, true, PACKED, FAST_KW>(p, table, key_words, packed, begin + (threadIdx.x & ~31u), end,
												   blockDim.x, lane);
		__syncthreads();
		gpugb_lean_table_flush_reset<NV>(p, gpugb_global_states(p), table);
		__syncthreads();
	});
}

#endif							/* GPUGB_PARTITION_LEAN_KERNEL_CUH */
