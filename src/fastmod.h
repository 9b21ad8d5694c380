/*-------------------------------------------------------------------------
 * fastmod.h
 *    C's % by a divisor fixed for the whole query, without a division
 *    instruction: Lemire, Kaser and Kurz, "Faster remainder by direct
 *    computation" (Software: Practice and Experience, 2019).  For 32-bit
 *    unsigned n and d >= 1, with m = floor((2^64 - 1) / d) + 1 (mod 2^64),
 *    n % d = ((m * n mod 2^64) * d) >> 64, exactly.
 *
 * Query B's GROUP BY mod(col1, g) computes one remainder per row in the
 * filler; a 32-bit idiv was the largest single cost of its batched fill
 * (perf, a third of gpugb_fill_stride).  Two multiplications replace it.
 * Plain C, no PostgreSQL: test/unit checks it against %.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_FASTMOD_H
#define GPUGB_FASTMOD_H

#include <stdbool.h>
#include <stdint.h>

/* A divisor prepared once: its magic number and its magnitude. */
typedef struct GpugbFastMod
{
	uint64_t	magic;
	uint32_t	divisor;		/* |d|; 0: not prepared (d does not fit int32, or is 0) */
} GpugbFastMod;

static inline GpugbFastMod
gpugb_fastmod_prepare(int64_t d)
{
	GpugbFastMod f = {0, 0};

	if (d != 0 && d >= INT32_MIN && d <= INT32_MAX)
	{
		f.divisor = (uint32_t) (d < 0 ? -d : d);
		f.magic = UINT64_MAX / f.divisor + 1;	/* wraps to 0 for 1: every remainder is 0 */
	}
	return f;
}

/* n % |d| for unsigned 32-bit n. */
static inline uint32_t
gpugb_fastmod_u32(uint32_t n, const GpugbFastMod *f)
{
	uint64_t	low = f->magic * n;

	return (uint32_t) (((unsigned __int128) low * f->divisor) >> 64);
}

/*
 * C's x % d (the sign of x; d's sign does not matter) for x within int32,
 * f prepared from d.  |INT32_MIN| = 2^31 still fits the unsigned form.
 */
static inline int64_t
gpugb_fastmod_s32(int64_t x, const GpugbFastMod *f)
{
	return x < 0 ? -(int64_t) gpugb_fastmod_u32((uint32_t) -x, f) :
		(int64_t) gpugb_fastmod_u32((uint32_t) x, f);
}

#endif							/* GPUGB_FASTMOD_H */
