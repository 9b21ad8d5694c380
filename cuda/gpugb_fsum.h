/*-------------------------------------------------------------------------
 * gpugb_fsum.h
 *    The arithmetic of float variance (GPUGB_AGG_SHIFT_FLOAT,
 *    GPUGB_AGG_SUM_SHIFTED, GPUGB_AGG_SUM_SHIFTED_SQ), shared by the CUDA
 *    kernels, the CPU emulator, the host finalization and the device
 *    self-test's reference.  Plain C (and CUDA C++): no PostgreSQL headers.
 *
 * Why not a plain sum of squares: var = (sum(x^2) - sum(x)^2 / n) / (n - 1)
 * cancels catastrophically when the mean is large against the spread
 * (1e9 + noise loses every digit).  PostgreSQL's float8_accum uses the
 * Youngs-Cramer update, which is order-dependent and needs the groups'
 * states combined one row at a time; neither fits atomics.
 *
 * The method: per group a shift K, the first finite input of the group to
 * arrive (claimed once, by compare-and-swap; any member will do), and
 *     S1 = sum(x - K),  S2 = sum((x - K)^2),
 *     Sxx = S2 - S1^2 / n,  var_samp = Sxx / (n - 1),  var_pop = Sxx / n.
 * Error argument:
 *  - Shift: S2 = Sxx + n (mean - K)^2 and, K being one of the inputs,
 *    (mean - K)^2 <= Sxx, so S2 <= (n + 1) Sxx: the final subtraction
 *    cancels at most a factor n + 1 (typically about 2), however large the
 *    mean is against the spread.
 *  - Terms: each x - K is kept exactly as a pair dh + dl (TwoSum), and
 *    (x - K)^2 as p + e with e = fma(dh, dh, -p) + 2 dh dl, exact to
 *    dl^2 <= 2^-106 (x - K)^2.
 *  - Sums: every addition into a sum is compensated: the adder knows both
 *    operands (an atomicAdd returns the old value), so TwoSum gives its
 *    rounding error exactly, and that error joins the low word.  The pair
 *    (hi, lo) then carries the sum with the error of the low word's own
 *    roundings only: the low word is at most about n * 2^-53 * S (S = the
 *    sum of |terms|), so its roundings add at most n^2 * 2^-106 * S, in
 *    any order of additions (typically, errors of random sign, far less).
 *  - Finish: S2 - S1^2 / n in double-double (gpugb_fsum_sxx), then one
 *    rounding to double.
 *  So Sxx has a relative error of at most about 2^-53 + (n + 1) n^2 2^-106
 *  (1e-16 + 1.2e-32 n^3: 1e-14 for a group of a million rows in the
 *  adversarial case, K an extreme outlier and every rounding one-sided;
 *  with K a typical member the factor n + 1 is about 2), independent of
 *  the strategy and of the order of rows.  PostgreSQL's own serial
 *  Youngs-Cramer result is the less accurate of the two when the mean is
 *  large against the spread (its running sum rounds at the mean's scale);
 *  PostgreSQL's parallel plan differs from its serial one the same way.
 *
 * Nothing here may be reassociated (no fast-math); contraction into FMAs
 * is harmless: the TwoSum steps are additions only, and products whose
 * exact error matters are taken apart with fma().
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_FSUM_H
#define GPUGB_FSUM_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define GPUGB_FSUM_FN static inline __host__ __device__
#else
#define GPUGB_FSUM_FN static inline
#endif

/* A group's K before any input claimed it: a NaN, which no input is. */
#define GPUGB_SHIFT_UNSET 0x7FF4A5A5A5A5A5A5ull

/* s = fl(a + b) and *err = (a + b) - s exactly (Knuth's TwoSum). */
GPUGB_FSUM_FN double
gpugb_two_sum(double a, double b, double *err)
{
	double		s = a + b;
	double		bb = s - a;

	*err = (a - (s - bb)) + (b - bb);
	return s;
}

/*
 * One input's term of SUM_SHIFTED (square = 0) or SUM_SHIFTED_SQ
 * (square = 1) as a pair hi + lo.
 */
GPUGB_FSUM_FN void
gpugb_fsum_term(double x, double k, int square, double *hi, double *lo)
{
	double		dl;
	double		dh = gpugb_two_sum(x, -k, &dl);
	double		p;

	if (!square)
	{
		*hi = dh;
		*lo = dl;
		return;
	}
	p = dh * dh;
	*hi = p;
	*lo = fma(dh, dh, -p) + 2.0 * dh * dl;
}

/* Adds the pair (hi, lo) to the sum (*sum_hi, *sum_lo), compensated. */
GPUGB_FSUM_FN void
gpugb_fsum_add(double *sum_hi, double *sum_lo, double hi, double lo)
{
	double		err;

	*sum_hi = gpugb_two_sum(*sum_hi, hi, &err);
	*sum_lo += lo + err;
}

/*
 * Sxx = S2 - S1^2 / n from the pairs S1 = s1h + s1l and S2 = s2h + s2l of
 * n inputs, in double-double, rounded once; never negative.
 */
GPUGB_FSUM_FN double
gpugb_fsum_sxx(double n, double s1h, double s1l, double s2h, double s2l)
{
	double		a_lo;
	double		a = gpugb_two_sum(s1h, s1l, &a_lo);	/* S1, normalized */
	double		sq = a * a;
	double		sq_lo = fma(a, a, -sq) + 2.0 * a * a_lo;	/* S1^2 = sq + sq_lo */
	double		q = sq / n;
	double		q_lo = (fma(-q, n, sq) + sq_lo) / n;	/* S1^2 / n = q + q_lo */
	double		t_lo;
	double		t = gpugb_two_sum(s2h, -q, &t_lo);
	double		sxx = t + (t_lo + (s2l - q_lo));

	return sxx > 0 ? sxx : 0.0;
}

#endif							/* GPUGB_FSUM_H */
