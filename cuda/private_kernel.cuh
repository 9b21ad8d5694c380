/*
 * private_kernel.cuh
 *    PRIVATE_HASH: every thread folds its rows into states of its own, for
 *    the first `groups` group ids, with plain (non-atomic) updates; at the
 *    end each warp reduces its lanes' states with shuffles and one lane
 *    adds them to the global states (Karnagel et al. §5.1, "private"
 *    placement).  At tiny g every row of the other placements meets the
 *    same few addresses (atomics serialize) or the same few warp groups
 *    (the warp combine pays shuffles per row); here a row costs its group
 *    lookup and a few shared-memory read-modify-writes of its own thread's
 *    words.
 *
 * Rows of groups beyond the private ones (the estimate was too low) go to
 * the global states through the warp combine: always correct, only slower,
 * and the run-time check re-sizes or switches after the first launch.
 *
 * Shared memory: state column c (counts, then values, then high words) of
 * private group j of thread t is word (c * groups + j) * blockDim.x + t, so
 * a warp's 32 lanes touch 32 consecutive words: no bank conflicts.  After
 * the states, when cache_slots > 0, the block's key cache (key_cache.cuh):
 * rows find their group id there rather than in the global table.
 */
#ifndef GPUGB_PRIVATE_KERNEL_CUH
#define GPUGB_PRIVATE_KERNEL_CUH

#include "agg_kernels.cuh"
#include "key_cache.cuh"
#include "../src/heuristics.h"

/*
 * Folds the pair (word, hi) of one value aggregate into a thread's own
 * state: gpugb_apply_value without atomics (nobody else writes it).
 */
__device__ __forceinline__ void
gpugb_fold_value(unsigned long long *dst, unsigned long long *hi_dst, int op, uint64_t word,
				 long long hi)
{
	switch (op)
	{
		case GPUGB_AGG_SUM_INT:
			{
				unsigned long long old = *dst;
				unsigned long long lo = old + word;

				*hi_dst += (unsigned long long) hi + (lo < old ? 1ull : 0ull);
				*dst = lo;
				break;
			}
		case GPUGB_AGG_SUM_FLOAT:
			*dst = (unsigned long long) __double_as_longlong(
				__longlong_as_double((long long) *dst) + __longlong_as_double((long long) word));
			break;
		case GPUGB_AGG_MIN_INT:
			if ((long long) word < (long long) *dst)
				*dst = word;
			break;
		case GPUGB_AGG_MAX_INT:
			if ((long long) word > (long long) *dst)
				*dst = word;
			break;
		case GPUGB_AGG_MIN_FLOAT:
			if (word < *dst)
				*dst = word;
			break;
		case GPUGB_AGG_MAX_FLOAT:
			if (word > *dst)
				*dst = word;
			break;
		case GPUGB_AGG_SUM_SHIFTED:
		case GPUGB_AGG_SUM_SHIFTED_SQ:
			{
				double		sh = __longlong_as_double((long long) *dst);
				double		sl = __longlong_as_double((long long) *hi_dst);

				gpugb_fsum_add(&sh, &sl, __longlong_as_double((long long) word),
							   __longlong_as_double(hi));
				*dst = (unsigned long long) __double_as_longlong(sh);
				*hi_dst = (unsigned long long) __double_as_longlong(sl);
				break;
			}
		default:				/* SHIFT_FLOAT: the row claimed K, nothing to fold */
			break;
	}
}

/* A thread's private states: word (c * groups + j) * threads of its slice. */
struct GpugbPrivate
{
	unsigned long long *base;	/* the thread's first word */
	int			groups;
	int			threads;

	__device__ unsigned long long *at(int column, int j) const
	{
		return base + ((int64_t) column * groups + j) * threads;
	}
};

/* Every private state of the thread at its identity. */
__device__ __forceinline__ void
gpugb_private_reset(const GpugbAggParams &p, const GpugbPrivate &mine, int n_his)
{
	for (int j = 0; j < mine.groups; j++)
	{
		for (int c = 0; c < p.n_counts; c++)
			*mine.at(c, j) = 0;
		for (int a = 0; a < p.n_values; a++)
			*mine.at(p.n_counts + p.vals[a].value_col, j) = gpugb_value_identity(p.vals[a].op);
		for (int h = 0; h < n_his; h++)
			*mine.at(p.n_counts + p.n_values + h, j) = 0;
	}
}

/*
 * Input words of the first `preload` value aggregates of a row, loaded
 * before the row's group lookup so that their latency overlaps it (the
 * lookup's loads and the fold's shared-memory writes would otherwise stand
 * between them).  The inputs are read-only during a launch: __ldg.
 *
 * Kernel benchmark (H200, 2^28 rows, g = 1 and 4): with 4 payloads 8.9
 * against 9.5 ms and 16.1 against 17.4; with one payload the registers
 * cost more than the overlap gains (4.4 against 4.0 ms), so launches of
 * one value aggregate take the kernel without it.
 */
#define GPUGB_PRELOAD 4

template <int preload>
__device__ __forceinline__ void
gpugb_preload(const GpugbAggParams &p, uint32_t row, uint64_t *pre)
{
#pragma unroll
	for (int a = 0; a < preload; a++)
		if (a < p.n_values)
			pre[a] = (uint64_t) __ldg((const long long *) &p.vals[a].values[row]);
}

/* Folds value aggregate a's input word raw of a row of private group j. */
__device__ __forceinline__ void
gpugb_private_fold(const GpugbAggParams &p, const GpugbPrivate &mine, uint32_t row, int j, int a,
				   uint64_t raw)
{
	const GpugbValueAgg &va = p.vals[a];
	uint64_t	w;
	long long	hi;

	if (gpugb_row_pair(p, va, row, raw, j, &w, &hi))
		gpugb_fold_value(mine.at(p.n_counts + va.value_col, j),
						 va.hi_col >= 0 ? mine.at(p.n_counts + p.n_values + va.hi_col, j) : nullptr,
						 va.op, w, hi);
}

/* Folds one row of private group j (its global gid is j) into the thread's states. */
template <int preload>
__device__ __forceinline__ void
gpugb_private_row(const GpugbAggParams &p, const GpugbPrivate &mine, uint32_t row, int j,
				  const uint64_t *pre)
{
	*mine.at(0, j) += 1;		/* column 0: every row */
	for (int c = 1; c < p.n_counts; c++)
		if (gpugb_is_null(p.count_nulls[c], row))
			*mine.at(c, j) += 1;
	/*
	 * The preloaded words by constant indices, so that pre[] stays in
	 * registers (a runtime index puts it in local memory, and its stores
	 * wait for the loads before the lookup can start).
	 */
#pragma unroll
	for (int a = 0; a < preload; a++)
		if (a < p.n_values)
			gpugb_private_fold(p, mine, row, j, a, pre[a]);
	for (int a = preload; a < p.n_values; a++)
		gpugb_private_fold(p, mine, row, j, a, (uint64_t) p.vals[a].values[row]);
}

/*
 * Adds the warp's private states to the global states: per group and
 * column one warp reduction and one atomic.  Warp-collective.
 */
__device__ __forceinline__ void
gpugb_private_flush(const GpugbAggParams &p, const GpugbPrivate &mine, unsigned lane)
{
	const GpugbStates global = gpugb_global_states(p);

	for (int j = 0; j < mine.groups; j++)
	{
		unsigned long long rows = gpugb_warp_allreduce(*mine.at(0, j), GpugbAdd());

		if (rows == 0)
			continue;			/* no lane met group j (warp-uniform) */
		for (int c = 0; c < p.n_counts; c++)
		{
			unsigned long long n = c == 0 ? rows : gpugb_warp_allreduce(*mine.at(c, j), GpugbAdd());

			if (lane == 0 && n != 0)
				atomicAdd(&global.counts[c * global.pitch + j], n);
		}
		for (int a = 0; a < p.n_values; a++)
		{
			const GpugbValueAgg &va = p.vals[a];

			if (va.op == GPUGB_AGG_SHIFT_FLOAT)
				continue;		/* K lives in the global states */

			uint64_t	w = *mine.at(p.n_counts + va.value_col, j);
			long long	hi = va.hi_col >= 0 ?
				(long long) *mine.at(p.n_counts + p.n_values + va.hi_col, j) : 0;

			gpugb_warp_reduce_pair(va.op, &w, &hi);
			if (lane == 0 && !(w == gpugb_value_identity(va.op) && hi == 0))
				gpugb_apply_value(global, va.op, va.value_col, va.hi_col, j, w, hi);
		}
	}
}

template <int preload>
__global__ void __launch_bounds__(GPUGB_PRIVATE_THREADS)
gpugb_private_agg_kernel(const GpugbAggParams p, int groups, int state_columns, int cache_slots)
{
	extern __shared__ unsigned long long gpugb_private_smem[];
	const int	n_his = gpugb_launch_his(p);
	const GpugbPrivate mine = {gpugb_private_smem + threadIdx.x, groups, (int) blockDim.x};
	const GpugbStates global = gpugb_global_states(p);
	const unsigned lane = threadIdx.x & 31u;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;
	const bool	cached = cache_slots > 0;	/* uniform over the launch */
	GpugbKeyCache cache = {};

	if (cached)
	{
		/* after the slices the launch sized: state_columns of them */
		size_t		state_words = (size_t) state_columns * groups * blockDim.x;

		cache = gpugb_key_cache_at(gpugb_private_smem + state_words, p.n_keys, cache_slots,
								   nullptr);
		gpugb_key_cache_reset(cache);
		__syncthreads();
	}
	gpugb_private_reset(p, mine, n_his);

	/*
	 * base is the warp's first row, so the loop is warp-uniform: rows of
	 * groups beyond the private ones (an estimate too low) take the warp
	 * combine into the global states, as GLOBAL_HASH's rows do.
	 */
	for (int64_t base = (int64_t) blockIdx.x * blockDim.x + (threadIdx.x & ~31u);
		 base < p.nrows; base += step)
	{
		int64_t		i = base + lane;
		uint32_t	row = 0;
		int			slot;
		uint64_t	pre[preload > 0 ? preload : 1];

		if (preload > 0 && i < p.nrows)
			gpugb_preload<preload>(p, p.row_list != nullptr ? p.row_list[i] : (uint32_t) i, pre);

		int64_t		gid = i >= p.nrows ? -1 :
			cached ? gpugb_cached_row_gid(p, cache, i, &row, &slot) :
			gpugb_launch_row_gid(p, i, &row);

		if (gid >= 0 && gid < groups)
			gpugb_private_row<preload>(p, mine, row, (int) gid, pre);
		if (__any_sync(GPUGB_FULL_MASK, gid >= groups))
			gpugb_aggregate_warp(p, global, row, gid >= groups ? gid : -1, gid, lane);
	}
	gpugb_private_flush(p, mine, lane);
}

#endif							/* GPUGB_PRIVATE_KERNEL_CUH */
