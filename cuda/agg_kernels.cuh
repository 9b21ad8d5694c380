/*
 * agg_kernels.cuh
 *    Device code of the aggregation: per-row group lookup, warp-level
 *    combining of rows that hit the same group, and the atomic updates of
 *    the dense aggregate states; plus the kernels that initialise states to
 *    their identities and that remap MIN_INT/MAX_INT states.
 *
 * Invariants:
 *  - Every row of a launch is either aggregated exactly once (its group got
 *    an id) or appended exactly once to retry_out (no id left); never both.
 *  - Whole warps run the row loop together (the loop bound is uniform per
 *    warp, out-of-range lanes carry gid -1), because the combining step uses
 *    full-warp shuffles, ballots and __match_any_sync.
 *  - SUM_INT is exact int128 arithmetic under any interleaving: the low word
 *    is added as unsigned 64-bit, the adder that wraps it is the one that
 *    sees (old + lo) < old, and it adds the carry into the high word
 *    together with its own high part; both words are sums of commutative
 *    additions, so the final pair is the exact sum.
 *  - SUM_SHIFTED* (float variance, gpugb_fsum.h) are double-double sums
 *    compensated at every addition: a warp combines its pairs with TwoSum,
 *    and the thread that adds a pair's high double atomically gets the old
 *    value back, so it knows that addition's exact rounding error and adds
 *    it, with the pair's low double, to the low column.  Their terms use
 *    the group's shift K, which lives in the GLOBAL states (also when the
 *    states being updated are a block's shared table): the first row of
 *    the group to arrive claims it with atomicCAS, every other reads it.
 *  - NULL inputs never touch a state.  Count column 0 counts every row of
 *    the group; every other count column counts the NULL inputs of its
 *    input, so a column without NULLs in the launch (count_nulls NULL) costs
 *    no atomic at all; the fetch turns it into rows - NULLs (fetch.cu).
 */
#ifndef GPUGB_AGG_KERNELS_CUH
#define GPUGB_AGG_KERNELS_CUH

#include <cuda/std/cstdint>

#include "hash_table.cuh"

#define GPUGB_AGG_BLOCK 256
/*
 * A warp whose 32 rows fall into at most this many groups combines them with
 * shuffles and issues one atomic per group and aggregate; with more distinct
 * groups, per-lane atomics to different addresses are cheaper than the
 * repeated reductions.  Tiny g (the contention region of Karnagel et al.) is
 * exactly the case that needs combining.
 */
#define GPUGB_WARP_COMBINE_MAX 8

#define GPUGB_FULL_MASK 0xFFFFFFFFu

struct GpugbAdd
{
	template <typename T> __device__ T operator()(T x, T y) const { return x + y; }
};
struct GpugbMin
{
	template <typename T> __device__ T operator()(T x, T y) const { return y < x ? y : x; }
};
struct GpugbMax
{
	template <typename T> __device__ T operator()(T x, T y) const { return x < y ? y : x; }
};

template <typename T, typename Op>
__device__ __forceinline__ T
gpugb_warp_allreduce(T v, Op op)
{
	/* XOR butterfly: every lane ends with the reduction of all 32 lanes. */
	for (int off = 16; off > 0; off >>= 1)
		v = op(v, __shfl_xor_sync(GPUGB_FULL_MASK, v, off));
	return v;
}

/* int128 (lo unsigned, hi signed) sum over the full warp. */
__device__ __forceinline__ void
gpugb_warp_sum_i128(unsigned long long *lo, long long *hi)
{
	for (int off = 16; off > 0; off >>= 1)
	{
		unsigned long long olo = __shfl_xor_sync(GPUGB_FULL_MASK, *lo, off);
		long long	ohi = __shfl_xor_sync(GPUGB_FULL_MASK, *hi, off);
		unsigned long long nlo = *lo + olo;

		*hi = (long long) ((unsigned long long) *hi + (unsigned long long) ohi +
						   (nlo < *lo ? 1ull : 0ull));
		*lo = nlo;
	}
}

/* Double-double sum over the full warp: (hi, lo) of every lane, compensated. */
__device__ __forceinline__ void
gpugb_warp_sum_dd(double *hi, double *lo)
{
	for (int off = 16; off > 0; off >>= 1)
	{
		double		ohi = __shfl_xor_sync(GPUGB_FULL_MASK, *hi, off);
		double		olo = __shfl_xor_sync(GPUGB_FULL_MASK, *lo, off);
		double		err;

		*hi = gpugb_two_sum(*hi, ohi, &err);
		*lo = *lo + olo + err;
	}
}

/*
 * Adds the pair (hi, lo) to a double-double state: atomicAdd returns the
 * value it added to, so this thread knows the exact rounding error of its
 * addition (TwoSum of the same operands) and adds it to the low word.
 */
__device__ __forceinline__ void
gpugb_atomic_add_dd(double *hi_addr, double *lo_addr, double hi, double lo)
{
	double		old = atomicAdd(hi_addr, hi);
	double		err;

	(void) gpugb_two_sum(old, hi, &err);
	lo += err;
	if (lo != 0.0)
		atomicAdd(lo_addr, lo);
}

/*
 * The shift K of global group ggid for a finite input x: the group's first
 * input claims it once; it never changes after, so a plain read that finds
 * it set is enough.
 */
__device__ __forceinline__ double
gpugb_group_shift(const GpugbAggParams &p, int shift_col, int64_t ggid, double x)
{
	unsigned long long *addr = p.values + (int64_t) shift_col * p.max_groups + ggid;
	unsigned long long k = *(volatile unsigned long long *) addr;

	if (k == GPUGB_SHIFT_UNSET)
	{
		unsigned long long mine = (unsigned long long) __double_as_longlong(x);
		unsigned long long old = atomicCAS(addr, GPUGB_SHIFT_UNSET, mine);

		k = old == GPUGB_SHIFT_UNSET ? mine : old;
	}
	return __longlong_as_double((long long) k);
}

/*
 * A row's term of a SUM_SHIFTED* aggregate as a pair, in the shift of its
 * global group ggid; a SHIFT_FLOAT row only claims the shift.
 */
__device__ __forceinline__ void
gpugb_shifted_term_of(const GpugbAggParams &p, const GpugbValueAgg &va, uint64_t raw, int64_t ggid,
					  double *hi, double *lo)
{
	double		x = __longlong_as_double((long long) raw);

	if (va.op == GPUGB_AGG_SHIFT_FLOAT)
	{
		(void) gpugb_group_shift(p, va.value_col, ggid, x);
		*hi = *lo = 0.0;
		return;
	}
	gpugb_fsum_term(x, gpugb_group_shift(p, va.shift_col, ggid, x),
					va.op == GPUGB_AGG_SUM_SHIFTED_SQ, hi, lo);
}

/* The same, of the row's input word. */
__device__ __forceinline__ void
gpugb_shifted_term(const GpugbAggParams &p, const GpugbValueAgg &va, uint32_t row, int64_t ggid,
				   double *hi, double *lo)
{
	gpugb_shifted_term_of(p, va, (uint64_t) va.values[row], ggid, hi, lo);
}

__device__ __forceinline__ bool
gpugb_op_is_shifted(int op)
{
	return op == GPUGB_AGG_SHIFT_FLOAT || op == GPUGB_AGG_SUM_SHIFTED ||
		op == GPUGB_AGG_SUM_SHIFTED_SQ;
}

__device__ __forceinline__ void
gpugb_atomic_add_i128(unsigned long long *lo_addr, long long *hi_addr,
					  unsigned long long lo, long long hi)
{
	unsigned long long old = atomicAdd(lo_addr, lo);
	unsigned long long carry = (old + lo < old) ? 1ull : 0ull;
	unsigned long long add_hi = (unsigned long long) hi + carry;

	if (add_hi != 0)
		atomicAdd((unsigned long long *) hi_addr, add_hi);
}

__device__ __forceinline__ bool
gpugb_is_null(const uint8_t *nulls, uint32_t row)
{
	return nulls != nullptr && nulls[row] != 0;
}

/* Applies one (already combined) contribution of value aggregate v to group gid. */
__device__ __forceinline__ void
gpugb_apply_value(const GpugbStates &st, int op, int value_col, int hi_col, int64_t gid,
				  uint64_t word, long long hi)
{
	unsigned long long *dst = st.values + value_col * st.pitch + gid;

	switch (op)
	{
		case GPUGB_AGG_SUM_INT:
			gpugb_atomic_add_i128(dst, st.values_hi + hi_col * st.pitch + gid,
								  (unsigned long long) word, hi);
			break;
		case GPUGB_AGG_SUM_FLOAT:
			atomicAdd((double *) dst, __longlong_as_double((long long) word));
			break;
		case GPUGB_AGG_MIN_INT:
			atomicMin((long long *) dst, (long long) word);
			break;
		case GPUGB_AGG_MAX_INT:
			atomicMax((long long *) dst, (long long) word);
			break;
		case GPUGB_AGG_MIN_FLOAT:
			atomicMin(dst, (unsigned long long) word);
			break;
		case GPUGB_AGG_MAX_FLOAT:
			atomicMax(dst, (unsigned long long) word);
			break;
		case GPUGB_AGG_SUM_SHIFTED:
		case GPUGB_AGG_SUM_SHIFTED_SQ:
			/* hi: the pair's low double, as bits */
			gpugb_atomic_add_dd((double *) dst, (double *) (st.values_hi + hi_col * st.pitch + gid),
								__longlong_as_double((long long) word), __longlong_as_double(hi));
			break;
		default:				/* SHIFT_FLOAT: claimed by the row, never applied */
			break;
	}
}

/* An input word's contribution to a value aggregate, in the stored representation. */
__device__ __forceinline__ uint64_t
gpugb_value_word_of(const GpugbValueAgg &va, uint64_t raw)
{
	if (va.op == GPUGB_AGG_MIN_FLOAT || va.op == GPUGB_AGG_MAX_FLOAT)
		return gpugb_float_encode(raw);
	return raw;
}

/* A row's contribution to a value aggregate, in the stored representation. */
__device__ __forceinline__ uint64_t
gpugb_value_word(const GpugbValueAgg &va, uint32_t row)
{
	return gpugb_value_word_of(va, (uint64_t) va.values[row]);
}

/* The global dense columns of a launch. */
__device__ __forceinline__ GpugbStates
gpugb_global_states(const GpugbAggParams &p)
{
	GpugbStates st = {p.counts, p.values, p.values_hi, p.max_groups};

	return st;
}

/*
 * Reduces one aggregate's (word, hi) pair over the full warp, in the
 * representation gpugb_apply_value takes: SUM_INT an int128 (lo, hi), the
 * SUM_SHIFTED* ops a double-double (hi and lo doubles as bits), the others
 * a word with hi 0.  Lanes with nothing to add hold the op's identity.
 * Warp-collective; op must be uniform across the warp.
 */
__device__ __forceinline__ void
gpugb_warp_reduce_pair(int op, uint64_t *w, long long *hi)
{
	switch (op)
	{
		case GPUGB_AGG_SUM_INT:
			{
				unsigned long long lo = *w;

				gpugb_warp_sum_i128(&lo, hi);
				*w = lo;
				break;
			}
		case GPUGB_AGG_SUM_SHIFTED:
		case GPUGB_AGG_SUM_SHIFTED_SQ:
			{
				double		dh = __longlong_as_double((long long) *w);
				double		dl = __longlong_as_double(*hi);

				gpugb_warp_sum_dd(&dh, &dl);
				*w = (uint64_t) __double_as_longlong(dh);
				*hi = __double_as_longlong(dl);
				break;
			}
		case GPUGB_AGG_SUM_FLOAT:
			*w = (uint64_t) __double_as_longlong(gpugb_warp_allreduce(
				__longlong_as_double((long long) *w), GpugbAdd()));
			break;
		case GPUGB_AGG_MIN_INT:
			*w = (uint64_t) gpugb_warp_allreduce((long long) *w, GpugbMin());
			break;
		case GPUGB_AGG_MAX_INT:
			*w = (uint64_t) gpugb_warp_allreduce((long long) *w, GpugbMax());
			break;
		case GPUGB_AGG_MIN_FLOAT:
			*w = gpugb_warp_allreduce((unsigned long long) *w, GpugbMin());
			break;
		case GPUGB_AGG_MAX_FLOAT:
			*w = gpugb_warp_allreduce((unsigned long long) *w, GpugbMax());
			break;
		default:				/* SHIFT_FLOAT: no state to reduce */
			break;
	}
}

/*
 * A row's contribution to value aggregate va of global group ggid as the
 * (word, hi) pair gpugb_apply_value takes, from the row's input word raw
 * (va.values[row], loaded by the caller); false for a NULL input, and for
 * SHIFT_FLOAT, whose row only claims the group's shift.
 */
__device__ __forceinline__ bool
gpugb_row_pair(const GpugbAggParams &p, const GpugbValueAgg &va, uint32_t row, uint64_t raw,
			   int64_t ggid, uint64_t *w, long long *hi)
{
	if (gpugb_is_null(va.nulls, row))
		return false;
	if (gpugb_op_is_shifted(va.op))
	{
		double		dh,
					dl;

		gpugb_shifted_term_of(p, va, raw, ggid, &dh, &dl);
		*w = (uint64_t) __double_as_longlong(dh);
		*hi = __double_as_longlong(dl);
		return va.op != GPUGB_AGG_SHIFT_FLOAT;
	}
	*w = gpugb_value_word_of(va, raw);
	*hi = va.op == GPUGB_AGG_SUM_INT && (long long) *w < 0 ? -1 : 0;
	return true;
}

/*
 * Combines the lanes of group g (lanes with mine set) and lets lane `leader`
 * apply them.  ggid: the lane's global group id (g itself, unless st is a
 * block's table).
 *
 * Written out per op rather than through gpugb_row_pair and
 * gpugb_warp_reduce_pair: that shorter form measured up to 40 % slower in
 * the warp-combined region of the kernel benchmark (4 payloads, g <= 2^8).
 */
__device__ __forceinline__ void
gpugb_combine_group(const GpugbAggParams &p, const GpugbStates &st, uint32_t row, bool mine,
					int64_t g, int64_t ggid, bool is_leader)
{
	for (int c = 0; c < p.n_counts; c++)
	{
		if (c > 0 && p.count_nulls[c] == nullptr)
			continue;			/* no NULLs in this launch: nothing to count */

		bool		hit = mine && (c == 0 || gpugb_is_null(p.count_nulls[c], row));
		unsigned	n = __popc(__ballot_sync(GPUGB_FULL_MASK, hit));

		if (is_leader && n != 0)
			atomicAdd(&st.counts[c * st.pitch + g], (unsigned long long) n);
	}
	for (int a = 0; a < p.n_values; a++)
	{
		const GpugbValueAgg &va = p.vals[a];
		bool		has = mine && !gpugb_is_null(va.nulls, row);

		if (!__any_sync(GPUGB_FULL_MASK, has))
			continue;
		if (gpugb_op_is_shifted(va.op))		/* uniform across the warp */
		{
			double		dh = 0.0,
						dl = 0.0;

			if (has)
				gpugb_shifted_term(p, va, row, ggid, &dh, &dl);
			if (va.op == GPUGB_AGG_SHIFT_FLOAT)
				continue;
			gpugb_warp_sum_dd(&dh, &dl);
			if (is_leader)
				gpugb_apply_value(st, va.op, va.value_col, va.hi_col, g,
								  (uint64_t) __double_as_longlong(dh), __double_as_longlong(dl));
			continue;
		}
		uint64_t	w = has ? gpugb_value_word(va, row) : gpugb_value_identity(va.op);
		long long	hi = 0;

		switch (va.op)			/* uniform across the warp */
		{
			case GPUGB_AGG_SUM_INT:
				{
					unsigned long long lo = w;

					hi = has && (long long) w < 0 ? -1 : 0;
					gpugb_warp_sum_i128(&lo, &hi);
					w = lo;
					break;
				}
			case GPUGB_AGG_SUM_FLOAT:
				w = (uint64_t) __double_as_longlong(gpugb_warp_allreduce(
					__longlong_as_double((long long) w), GpugbAdd()));
				break;
			case GPUGB_AGG_MIN_INT:
				w = (uint64_t) gpugb_warp_allreduce((long long) w, GpugbMin());
				break;
			case GPUGB_AGG_MAX_INT:
				w = (uint64_t) gpugb_warp_allreduce((long long) w, GpugbMax());
				break;
			case GPUGB_AGG_MIN_FLOAT:
				w = gpugb_warp_allreduce((unsigned long long) w, GpugbMin());
				break;
			case GPUGB_AGG_MAX_FLOAT:
				w = gpugb_warp_allreduce((unsigned long long) w, GpugbMax());
				break;
			default:
				break;
		}
		if (is_leader)
			gpugb_apply_value(st, va.op, va.value_col, va.hi_col, g, w, hi);
	}
}

/*
 * Aggregates the warp's 32 rows into states `st` (gid < 0: the lane has
 * nothing to aggregate; ggid: the lane's global group id, which is gid
 * unless st is a block's table).  Warp-collective: all 32 lanes must call it.
 */
__device__ __forceinline__ void
gpugb_aggregate_warp(const GpugbAggParams &p, const GpugbStates &st, uint32_t row, int64_t gid,
					 int64_t ggid, unsigned lane)
{
	unsigned	peers = __match_any_sync(GPUGB_FULL_MASK, (unsigned long long) gid);
	bool		first_of_group = (unsigned) (__ffs(peers) - 1) == lane;
	unsigned	leaders = __ballot_sync(GPUGB_FULL_MASK, first_of_group && gid >= 0);

	if (__popc(leaders) <= GPUGB_WARP_COMBINE_MAX)
	{
		while (leaders != 0)	/* `leaders` is warp-uniform, so is this loop */
		{
			int			l = __ffs(leaders) - 1;

			leaders &= leaders - 1;
			int64_t		g = (int64_t) __shfl_sync(GPUGB_FULL_MASK, (long long) gid, l);

			gpugb_combine_group(p, st, row, gid == g, g, ggid, lane == (unsigned) l);
		}
		return;
	}
	if (gid < 0)
		return;
	atomicAdd(&st.counts[gid], 1ull);	/* column 0: every row */
	for (int c = 1; c < p.n_counts; c++)
		if (gpugb_is_null(p.count_nulls[c], row))
			atomicAdd(&st.counts[c * st.pitch + gid], 1ull);
	for (int a = 0; a < p.n_values; a++)
	{
		const GpugbValueAgg &va = p.vals[a];

		if (gpugb_is_null(va.nulls, row))
			continue;
		if (gpugb_op_is_shifted(va.op))
		{
			double		dh,
						dl;

			gpugb_shifted_term(p, va, row, ggid, &dh, &dl);
			if (va.op != GPUGB_AGG_SHIFT_FLOAT)
				gpugb_apply_value(st, va.op, va.value_col, va.hi_col, gid,
								  (uint64_t) __double_as_longlong(dh), __double_as_longlong(dl));
			continue;
		}
		uint64_t	w = gpugb_value_word(va, row);

		gpugb_apply_value(st, va.op, va.value_col, va.hi_col, gid, w,
						  va.op == GPUGB_AGG_SUM_INT && (long long) w < 0 ? -1 : 0);
	}
}

/*
 * Reduces one aggregate's (word, hi) pair, in gpugb_apply_value's
 * representation (as gpugb_warp_reduce_pair), over each lane's stretch:
 * an inclusive scan that never crosses a stretch's first lane (seg_start),
 * so the last lane of a stretch ends with the stretch's reduction.  Lanes
 * with nothing to add hold the op's identity.  Warp-collective; op uniform.
 */
__device__ __forceinline__ void
gpugb_stretch_scan_pair(int op, uint64_t *w, long long *hi, unsigned lane, unsigned seg_start)
{
	for (unsigned off = 1; off < 32; off <<= 1)
	{
		uint64_t	ow = __shfl_up_sync(GPUGB_FULL_MASK, *w, off);
		long long	ohi = __shfl_up_sync(GPUGB_FULL_MASK, *hi, off);

		if (lane < seg_start + off)
			continue;			/* lane - off is in an earlier stretch */
		switch (op)
		{
			case GPUGB_AGG_SUM_INT:
				{
					unsigned long long lo = *w + ow;

					*hi = (long long) ((unsigned long long) *hi + (unsigned long long) ohi +
									   (lo < *w ? 1ull : 0ull));
					*w = lo;
					break;
				}
			case GPUGB_AGG_SUM_FLOAT:
				*w = (uint64_t) __double_as_longlong(__longlong_as_double((long long) *w) +
													 __longlong_as_double((long long) ow));
				break;
			case GPUGB_AGG_MIN_INT:
				if ((long long) ow < (long long) *w)
					*w = ow;
				break;
			case GPUGB_AGG_MAX_INT:
				if ((long long) ow > (long long) *w)
					*w = ow;
				break;
			case GPUGB_AGG_MIN_FLOAT:	/* encoded: unsigned order */
				if (ow < *w)
					*w = ow;
				break;
			case GPUGB_AGG_MAX_FLOAT:
				if (ow > *w)
					*w = ow;
				break;
			case GPUGB_AGG_SUM_SHIFTED:
			case GPUGB_AGG_SUM_SHIFTED_SQ:
				{
					double		err;
					double		h = gpugb_two_sum(__longlong_as_double((long long) *w),
											  __longlong_as_double((long long) ow), &err);
					double		l = __longlong_as_double(*hi) + __longlong_as_double(ohi) + err;

					*w = (uint64_t) __double_as_longlong(h);
					*hi = __double_as_longlong(l);
					break;
				}
			default:			/* SHIFT_FLOAT: no state to reduce */
				break;
		}
	}
}

/*
 * Aggregates the warp's 32 rows into the global states where equal group
 * ids come in stretches of adjacent lanes (SORT: rows in sorted order, a
 * run's rows sharing its id).  Each count and aggregate is reduced over
 * every stretch at once (gpugb_stretch_scan_pair: five shuffle steps, however
 * many stretches) and applied once a stretch, by its last lane.
 * gpugb_aggregate_warp reduces over the whole warp once per group instead,
 * which repeats its shuffles for every run a warp meets (2 to 8 at 2^22 to
 * 2^26 groups of 2^28 rows), and beyond GPUGB_WARP_COMBINE_MAX groups falls
 * back to an atomic per row.  Right for any ids: a group in two stretches
 * gets two updates.  Warp-collective.
 */
__device__ __forceinline__ void
gpugb_aggregate_warp_stretches(const GpugbAggParams &p, const GpugbStates &st, uint32_t row,
							   int64_t gid, unsigned lane)
{
	int64_t		prev = __shfl_up_sync(GPUGB_FULL_MASK, (long long) gid, 1);
	unsigned	starts = __ballot_sync(GPUGB_FULL_MASK, lane == 0 || gid != prev);
	unsigned	upto = 0xFFFFFFFFu >> (31 - lane);	/* lanes 0..lane */
	unsigned	seg_start = 31 - __clz(starts & upto);
	unsigned	stretch = upto & ~((1u << seg_start) - 1);	/* lanes seg_start..lane */
	bool		applies = gid >= 0 && (lane == 31 || ((starts >> (lane + 1)) & 1u) != 0);

	for (int c = 0; c < p.n_counts; c++)
	{
		if (c > 0 && p.count_nulls[c] == nullptr)
			continue;			/* no NULLs in this launch: nothing to count */

		unsigned	hits = __ballot_sync(GPUGB_FULL_MASK, gid >= 0 &&
										 (c == 0 || gpugb_is_null(p.count_nulls[c], row)));
		unsigned	n = __popc(hits & stretch);

		if (applies && n != 0)
			atomicAdd(&st.counts[c * st.pitch + gid], (unsigned long long) n);
	}
	for (int a = 0; a < p.n_values; a++)
	{
		const GpugbValueAgg &va = p.vals[a];
		bool		has = gid >= 0 && !gpugb_is_null(va.nulls, row);
		unsigned	with = __ballot_sync(GPUGB_FULL_MASK, has);
		uint64_t	w = 0;
		long long	hi = 0;

		if (with == 0)
			continue;

		/* SHIFT_FLOAT rows claim their group's shift here and add nothing. */
		bool		adds = has && gpugb_row_pair(p, va, row, (uint64_t) va.values[row], gid, &w, &hi);

		if (va.op == GPUGB_AGG_SHIFT_FLOAT)
			continue;
		if (!adds)
		{
			w = gpugb_value_identity(va.op);
			hi = 0;
		}
		gpugb_stretch_scan_pair(va.op, &w, &hi, lane, seg_start);
		if (applies && (with & stretch) != 0)
			gpugb_apply_value(st, va.op, va.value_col, va.hi_col, gid, w, hi);
	}
}

/* High-word columns (SUM_INT, SUM_SHIFTED*) the launch's aggregates use. */
__device__ __forceinline__ int
gpugb_launch_his(const GpugbAggParams &p)
{
	int			n_his = 0;

	for (int a = 0; a < p.n_values; a++)
		if (p.vals[a].hi_col + 1 > n_his)
			n_his = p.vals[a].hi_col + 1;
	return n_his;
}

/*
 * Launch row i's row index and group id (-1: none left; the row is then
 * appended to the retry list).  n_keys == 0 means one global group 0.
 * COALESCED: gpugb_find_or_insert's.
 */
template <bool COALESCED = false>
__device__ __forceinline__ int64_t
gpugb_launch_row_gid(const GpugbAggParams &p, int64_t i, uint32_t *row_out)
{
	uint32_t	row = p.row_list != nullptr ? p.row_list[i] : (uint32_t) i;
	int64_t		gid;

	*row_out = row;
	if (p.n_keys == 0)
		return 0;
	if (p.run_gid != nullptr)
		gid = p.run_gid[p.run_start[i]];
	else
		gid = gpugb_find_or_insert<COALESCED>(p, row);
	if (gid < 0)
		p.retry_out[atomicAdd(p.retry_count, 1u)] = row;
	return gid;
}

/*
 * The aggregation kernel of GLOBAL_HASH and SORT: finds (or creates) each
 * row's group and folds the row into the group's global states.
 */
__global__ void __launch_bounds__(GPUGB_AGG_BLOCK)
gpugb_agg_kernel(const GpugbAggParams p)
{
	const unsigned lane = threadIdx.x & 31u;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;
	const GpugbStates global = gpugb_global_states(p);

	/* base is the warp's first row: the bound test is the same for all lanes. */
	for (int64_t base = (int64_t) blockIdx.x * blockDim.x + (threadIdx.x & ~31u);
		 base < p.nrows; base += step)
	{
		int64_t		i = base + lane;
		uint32_t	row = 0;
		int64_t		gid = i < p.nrows ? gpugb_launch_row_gid(p, i, &row) : -1;

		gpugb_aggregate_warp(p, global, row, gid, gid, lane);
	}
}

/*
 * SORT's aggregation kernel: the launch's rows in sorted order (p.row_list),
 * each with its run's group id (p.run_gid at p.run_start), folded into the
 * global states a stretch of equal ids at a time.
 */
__global__ void __launch_bounds__(GPUGB_AGG_BLOCK)
gpugb_sorted_agg_kernel(const GpugbAggParams p)
{
	const unsigned lane = threadIdx.x & 31u;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;
	const GpugbStates global = gpugb_global_states(p);

	for (int64_t base = (int64_t) blockIdx.x * blockDim.x + (threadIdx.x & ~31u);
		 base < p.nrows; base += step)
	{
		int64_t		i = base + lane;
		uint32_t	row = 0;
		int64_t		gid = i < p.nrows ? gpugb_launch_row_gid(p, i, &row) : -1;

		gpugb_aggregate_warp_stretches(p, global, row, gid, lane);
	}
}

/*
 * out[0] = max(col[0..n)), out[1] and out[2] = how many are 1 and 2 (the
 * groups seen once and twice, for Chao1's estimate); out must start at 0.
 */
__global__ void
gpugb_count_summary_kernel(const unsigned long long *col, int64_t n, unsigned long long *out)
{
	unsigned long long m = 0,
				ones = 0,
				twos = 0;

	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		unsigned long long c = col[i];

		m = c > m ? c : m;
		ones += c == 1;
		twos += c == 2;
	}
	m = gpugb_warp_allreduce(m, GpugbMax());
	ones = gpugb_warp_allreduce(ones, GpugbAdd());
	twos = gpugb_warp_allreduce(twos, GpugbAdd());
	if ((threadIdx.x & 31u) == 0)
	{
		if (m != 0)
			atomicMax(&out[0], m);
		if (ones != 0)
			atomicAdd(&out[1], ones);
		if (twos != 0)
			atomicAdd(&out[2], twos);
	}
}

/* Fills columns [from, to) of `ncols` columns `pitch` apart with per-column identities. */
struct GpugbFill
{
	uint64_t	identity[GPUGB_MAX_COUNTS];
};

__global__ void
gpugb_fill_kernel(unsigned long long *base, int64_t pitch, int ncols, int64_t from,
				  int64_t to, const GpugbFill fill)
{
	int64_t		n = to - from;

	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n * ncols;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		int64_t		col = i / n;

		base[col * pitch + from + (i - col * n)] = fill.identity[col];
	}
}

/*
 * col[i] = map[col[i]] for i < n where 0 <= col[i] < map_len: one MIN_INT or
 * MAX_INT column taken to a grown rank order (gpugb_groupby_remap_values).
 * Any other word, such as the identities of groups without input, stays.
 */
__global__ void
gpugb_remap_kernel(int64_t *col, int64_t n, const int64_t *map, int64_t map_len)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		int64_t		v = col[i];

		if (v >= 0 && v < map_len)
			col[i] = map[v];
	}
}

#endif							/* GPUGB_AGG_KERNELS_CUH */
