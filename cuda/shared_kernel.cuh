/*
 * shared_kernel.cuh
 *    SHARED_HASH: each thread block folds its rows into a table of group
 *    states in shared memory and adds that table to the global states once,
 *    at the end (Karnagel et al. §5.1 "shared" placement; Wu et al. HGB).
 *    For small g this replaces one global atomic per row and aggregate
 *    (warp-combined) by shared-memory atomics on the SM, and every block
 *    touches each group's global states once.
 *
 * Keyed launches (the keys fit a key cache entry, gpugb_key_cache_usable,
 * and the groups expected fit the table; launch.cu sizes it) key the block
 * table by the key itself: it is the block's key cache (key_cache.cuh), and
 * a row finds its group id and its local slot in one shared-memory probe;
 * only a key new to the block is looked up in the global table.  Otherwise
 * rows get their group id from the global table and the block table maps
 * group id -> local slot, open addressing on the gid: where most rows miss
 * the table anyway, the keys' columns would cost blocks per SM that are
 * worth more (kernel benchmark, 2^12 to 2^16 groups, 1 payload: 30-45 ms
 * keyed against 15-21 ms).  Either way at most slots/2 slots are claimed,
 * so probing ends; a row whose group finds no local slot (the block met too
 * many groups) updates the global states directly, which is always
 * correct, only slower.
 *
 * Shared memory, `slots` entries per column:
 *   n_counts + n_values + n_his columns of 8-byte states; keyed: the key
 *   cache's key columns and masks; then an int32 gid per slot (-1 = free),
 *   then the claimed-slot counter.
 */
#ifndef GPUGB_SHARED_KERNEL_CUH
#define GPUGB_SHARED_KERNEL_CUH

#include "agg_kernels.cuh"
#include "key_cache.cuh"
#include "../src/heuristics.h"

/* A free slot of the gid-keyed table: the key cache resets its gid words. */
#define GPUGB_LOCAL_FREE GPUGB_KEY_FREE

/* Local slot of global group gid in the block's table, or -1 when it is full. */
__device__ __forceinline__ int
gpugb_local_slot(int *local_gid, unsigned *claimed, int slots, int64_t gid)
{
	/*
	 * Multiply-shift: the product's high bits are the well-mixed ones
	 * (consecutive gids would share the low bits' patterns).
	 */
	uint32_t	mixed = (uint32_t) gid * 2654435761u;
	unsigned	idx = (unsigned) (((uint64_t) mixed * (unsigned) slots) >> 32);

	for (;;)
	{
		int			cur = ((volatile int *) local_gid)[idx];

		if (cur == (int) gid)
			return (int) idx;
		if (cur == GPUGB_LOCAL_FREE)
		{
			/*
			 * Reserve first: at most slots/2 claims keep every probe finite.
			 * A plain read first, so that once the table is full rows do not
			 * all queue on the counter's atomic.
			 */
			if (*(volatile unsigned *) claimed >= (unsigned) slots / 2)
				return -1;
			if (atomicAdd(claimed, 1u) >= (unsigned) slots / 2)
			{
				/*
				 * Over the limit: give it back too.  Kept, the counter ran
				 * ahead of the slots actually claimed (a warp's lanes all
				 * reserve at once for a new group), and for the rest of the
				 * launch the block's table took no more groups: auto's main
				 * launch (after its probe, all keys already in the global
				 * table, so a block's warps arrived together) took 47.9 ms
				 * against 22.0 forced at 64 Zipf 1.5 groups with 4 payloads
				 * (128 claims); 23.6 against 21.3 since
				 * (docs/kernelbench-2026-11-21s-shared-fix.log).
				 */
				atomicSub(claimed, 1u);
				return -1;
			}
			cur = atomicCAS(&local_gid[idx], GPUGB_LOCAL_FREE, (int) gid);
			if (cur == GPUGB_LOCAL_FREE)
				return (int) idx;
			/* Lost the slot: give the reservation back. */
			atomicSub(claimed, 1u);
			if (cur == (int) gid)
				return (int) idx;
		}
		idx = (idx + 1) & (unsigned) (slots - 1);
	}
}

/* Adds the block's local states of one slot to the global states of gid. */
__device__ __forceinline__ void
gpugb_flush_slot(const GpugbAggParams &p, const GpugbStates &local, int slot, int64_t gid)
{
	for (int c = 0; c < p.n_counts; c++)
	{
		unsigned long long n = local.counts[c * local.pitch + slot];

		if (n != 0)
			atomicAdd(&p.counts[c * p.max_groups + gid], n);
	}
	const GpugbStates global = gpugb_global_states(p);

	for (int a = 0; a < p.n_values; a++)
	{
		const GpugbValueAgg &va = p.vals[a];
		uint64_t	w = local.values[va.value_col * local.pitch + slot];
		long long	hi = va.hi_col >= 0 ? local.values_hi[va.hi_col * local.pitch + slot] : 0;

		/*
		 * An identity changes nothing; skip its atomic.  (SHIFT_FLOAT's
		 * local state stays the identity: K lives in the global states.)
		 */
		if (w == gpugb_value_identity(va.op) && hi == 0)
			continue;
		gpugb_apply_value(global, va.op, va.value_col, va.hi_col, gid, w, hi);
	}
}

/* Slot i of the block's local states back to identities. */
__device__ __forceinline__ void
gpugb_local_slot_reset(const GpugbAggParams &p, const GpugbStates &local, int i, int n_his)
{
	for (int c = 0; c < p.n_counts; c++)
		local.counts[c * local.pitch + i] = 0;
	for (int a = 0; a < p.n_values; a++)
		local.values[p.vals[a].value_col * local.pitch + i] = gpugb_value_identity(p.vals[a].op);
	for (int h = 0; h < n_his; h++)
		local.values_hi[h * local.pitch + i] = 0;
}

/* Sets the block's local states of slots [0, slots) to identities (block-strided). */
__device__ __forceinline__ void
gpugb_local_states_reset(const GpugbAggParams &p, const GpugbStates &local, int slots,
						 int n_his)
{
	for (int i = threadIdx.x; i < slots; i += blockDim.x)
		gpugb_local_slot_reset(p, local, i, n_his);
}

__global__ void __launch_bounds__(GPUGB_AGG_BLOCK)
gpugb_shared_agg_kernel(const GpugbAggParams p, int slots, bool keyed)
{
	extern __shared__ unsigned long long gpugb_smem[];
	const int	n_cols = p.n_counts + p.n_values;
	const int	n_his = gpugb_launch_his(p);

	GpugbStates local = {gpugb_smem, gpugb_smem + (size_t) p.n_counts * slots,
						 (long long *) (gpugb_smem + (size_t) n_cols * slots), slots};
	GpugbKeyCache cache = gpugb_key_cache_at(gpugb_smem + (size_t) (n_cols + n_his) * slots,
											 keyed ? p.n_keys : 0, slots, nullptr);
	int		   *local_gid = cache.gids;
	unsigned   *claimed = cache.claimed;

	/* Every local state starts at its identity, every slot free. */
	gpugb_local_states_reset(p, local, slots, n_his);
	gpugb_key_cache_reset(cache);
	__syncthreads();

	const unsigned lane = threadIdx.x & 31u;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;
	const GpugbStates global = gpugb_global_states(p);

	for (int64_t base = (int64_t) blockIdx.x * blockDim.x + (threadIdx.x & ~31u);
		 base < p.nrows; base += step)
	{
		int64_t		i = base + lane;
		uint32_t	row = 0;
		int			slot = -1;
		int64_t		gid = -1;

		if (i < p.nrows && keyed)
			gid = gpugb_cached_row_gid(p, cache, i, &row, &slot);
		else if (i < p.nrows)
		{
			gid = gpugb_launch_row_gid(p, i, &row);
			slot = gid >= 0 ? gpugb_local_slot(local_gid, claimed, slots, gid) : -1;
		}

		gpugb_aggregate_warp(p, local, row, slot, gid, lane);
		gpugb_aggregate_warp(p, global, row, slot < 0 ? gid : -1, gid, lane);
	}
	__syncthreads();

	for (int i = threadIdx.x; i < slots; i += blockDim.x)
		if (local_gid[i] >= 0)	/* not FREE (no entry is BUSY after the loop) */
			gpugb_flush_slot(p, local, i, local_gid[i]);
}

#endif							/* GPUGB_SHARED_KERNEL_CUH */
