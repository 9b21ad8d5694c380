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
 * a warp's 32 lanes touch 32 consecutive words: no bank conflicts.
 */
#ifndef GPUGB_PRIVATE_KERNEL_CUH
#define GPUGB_PRIVATE_KERNEL_CUH

#include "agg_kernels.cuh"
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

/* Folds one row of private group j (its global gid is j) into the thread's states. */
__device__ __forceinline__ void
gpugb_private_row(const GpugbAggParams &p, const GpugbPrivate &mine, uint32_t row, int j)
{
	*mine.at(0, j) += 1;		/* column 0: every row */
	for (int c = 1; c < p.n_counts; c++)
		if (gpugb_is_null(p.count_nulls[c], row))
			*mine.at(c, j) += 1;
	for (int a = 0; a < p.n_values; a++)
	{
		const GpugbValueAgg &va = p.vals[a];
		uint64_t	w;
		long long	hi;

		if (gpugb_row_pair(p, va, row, j, &w, &hi))
			gpugb_fold_value(mine.at(p.n_counts + va.value_col, j),
							 va.hi_col >= 0 ? mine.at(p.n_counts + p.n_values + va.hi_col, j) : nullptr,
							 va.op, w, hi);
	}
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

__global__ void __launch_bounds__(GPUGB_PRIVATE_THREADS)
gpugb_private_agg_kernel(const GpugbAggParams p, int groups)
{
	extern __shared__ unsigned long long gpugb_private_smem[];
	const int	n_his = gpugb_launch_his(p);
	const GpugbPrivate mine = {gpugb_private_smem + threadIdx.x, groups, (int) blockDim.x};
	const GpugbStates global = gpugb_global_states(p);
	const unsigned lane = threadIdx.x & 31u;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;

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
		int64_t		gid = i < p.nrows ? gpugb_launch_row_gid(p, i, &row) : -1;

		if (gid >= 0 && gid < groups)
			gpugb_private_row(p, mine, row, (int) gid);
		if (__any_sync(GPUGB_FULL_MASK, gid >= groups))
			gpugb_aggregate_warp(p, global, row, gid >= groups ? gid : -1, gid, lane);
	}
	gpugb_private_flush(p, mine, lane);
}

#endif							/* GPUGB_PRIVATE_KERNEL_CUH */
