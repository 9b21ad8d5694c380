/*-------------------------------------------------------------------------
 * numeric_words.h
 *    numeric(p, s) values as exact fixed-point device words (see the .c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_NUMERIC_WORDS_H
#define GPUGB_NUMERIC_WORDS_H

#include "postgres.h"

#include "fmgr.h"
#include "varlena_in_line.h"

/* numeric's NaN: above every scaled value (those stay below 10^18). */
#define GPUGB_NUMERIC_NAN_WORD PG_INT64_MAX

/* 10^0 .. 10^18: every power of ten an int64 holds */
#define GPUGB_POW10_COUNT 19
extern const int64 gpugb_pow10[GPUGB_POW10_COUNT];

/* The on-disk header bits of numeric.c (stable: pg_upgrade relies on them). */
#define NUM_SIGN_MASK			0xC000
#define NUM_NEG					0x4000
#define NUM_SHORT				0x8000
#define NUM_SPECIAL				0xC000
#define NUM_EXT_SIGN_MASK		0xF000
#define NUM_NAN					0xC000
#define NUM_SHORT_SIGN_MASK		0x2000
#define NUM_SHORT_WEIGHT_SIGN	0x0040
#define NUM_SHORT_WEIGHT_MASK	0x003F
#define NUM_SHORT_DSCALE_MASK	0x1F80
#define NUM_SHORT_DSCALE_SHIFT	7
#define NUM_DSCALE_MASK			0x3FFF
#define NUM_DEC_DIGITS			4
#define NUM_NBASE				10000

#define GPUGB_NUMERIC_MAX_PRECISION 18

/* The scale s of numeric(p, s) if 0 <= s <= 18, else -1 (also for no typmod). */
extern int	gpugb_numeric_scale(int32 typmod);
extern bool gpugb_numeric_to_word(Datum datum, int scale, int64 *word);
extern bool gpugb_numeric_to_word_dscale(Datum datum, int scale, int64 *word, int *dscale);
extern Datum gpugb_word_to_numeric(int64 word, int scale);
extern Datum gpugb_int128_to_numeric(int64 hi, int64 lo, int scale);

/*
 * v / 10^e and its remainder.  The common exponents are constants, so the
 * compiler divides by multiplying: a 64-bit idiv per numeric value was
 * 40 % of this module's time in a local profile of TPC-H Q1's fill.
 */
static inline uint64
gpugb_divide_by_pow10(uint64 v, int e, uint64 *remainder)
{
	uint64		q;

	switch (e)
	{
		case 1:
			q = v / 10;
			break;
		case 2:
			q = v / 100;
			break;
		case 3:
			q = v / 1000;
			break;
		case 4:
			q = v / 10000;
			break;
		default:
			q = v / (uint64) gpugb_pow10[e];
			break;
	}
	*remainder = v - q * (uint64) gpugb_pow10[e];
	return q;
}

/*
 * v * 10^scale of a numeric Datum as an int64; false if v is not a number
 * or does not fit (more fractional digits than scale, or too large).  With
 * the value's display scale (0 for NaN): numeric without a
 * type modifier keeps each value's own (numeric_free.c).  Inline: the filler
 * converts every numeric value of every row (TPC-H Q1: four a row).
 */
static pg_attribute_always_inline bool
gpugb_numeric_to_word_inline(Datum datum, int scale, int64 *word, int *dscale)
{
	struct varlena *detoasted;
	struct varlena *raw = gpugb_varlena_in_line(datum, &detoasted);	/* compressed or external: rare */
	const char *data;
	uint16		header;
	const char *digits;
	int			ndigits;
	int			weight;
	bool		negative;
	int128		acc = 0;
	int			exponent;
	bool		ok = true;

	/* A short (1-byte) varlena header leaves the data unaligned: memcpy. */
	data = VARDATA_ANY(raw);
	memcpy(&header, data, sizeof(header));

	*dscale = 0;
	if ((header & NUM_SIGN_MASK) == NUM_SPECIAL)
	{
		ok = (header & NUM_EXT_SIGN_MASK) == NUM_NAN;	/* not +-Infinity */
		*word = GPUGB_NUMERIC_NAN_WORD;
		goto done;
	}
	if ((header & NUM_SIGN_MASK) == NUM_SHORT)
	{
		negative = (header & NUM_SHORT_SIGN_MASK) != 0;
		*dscale = (header & NUM_SHORT_DSCALE_MASK) >> NUM_SHORT_DSCALE_SHIFT;
		weight = (header & NUM_SHORT_WEIGHT_SIGN) ?
			(int) (~NUM_SHORT_WEIGHT_MASK | (header & NUM_SHORT_WEIGHT_MASK)) :
			(int) (header & NUM_SHORT_WEIGHT_MASK);
		digits = data + sizeof(uint16);
	}
	else
	{
		int16		long_weight;

		negative = (header & NUM_SIGN_MASK) == NUM_NEG;
		*dscale = header & NUM_DSCALE_MASK;
		memcpy(&long_weight, data + sizeof(uint16), sizeof(int16));
		weight = long_weight;
		digits = data + 2 * sizeof(uint16);
	}
	ndigits = (VARSIZE_ANY_EXHDR(raw) - (digits - data)) / sizeof(int16);

	/* value = digits as an integer * NBASE^(weight - ndigits + 1) */
	exponent = (weight - ndigits + 1) * NUM_DEC_DIGITS + scale;
	if (ndigits <= 4 && exponent >= -GPUGB_NUMERIC_MAX_PRECISION && exponent <= GPUGB_NUMERIC_MAX_PRECISION)
	{
		/* the common case, in int64: at most 16 digits, one scaling */
		int64		v = 0;

		for (int i = 0; i < ndigits; i++)
		{
			int16		digit;

			memcpy(&digit, digits + i * sizeof(int16), sizeof(digit));
			v = v * NUM_NBASE + digit;
		}
		if (exponent >= 0)
		{
			ok = v < gpugb_pow10[GPUGB_NUMERIC_MAX_PRECISION - exponent];
			v *= ok ? gpugb_pow10[exponent] : 0;
		}
		else
		{
			uint64		remainder;

			v = (int64) gpugb_divide_by_pow10((uint64) v, -exponent, &remainder);
			ok = remainder == 0;	/* a digit beyond the scale: not exact */
		}
		*word = ok ? (negative ? -v : v) : 0;
		goto done;
	}
	/*
	 * Up to 9 base-10000 digits (36 decimal ones, int128 holds 38): the
	 * value may carry padding zeros in its last digit that the scaling
	 * below divides away, so the bound is checked only after that.
	 */
	ok = ndigits <= 9;
	for (int i = 0; i < ndigits && ok; i++)
	{
		int16		digit;

		memcpy(&digit, digits + i * sizeof(int16), sizeof(digit));
		acc = acc * NUM_NBASE + digit;
	}
	for (; ok && exponent > 0; exponent--)
	{
		acc *= 10;
		ok = acc < (int128) gpugb_pow10[GPUGB_NUMERIC_MAX_PRECISION];
	}
	for (; ok && exponent < 0; exponent++)
	{
		ok = acc % 10 == 0;		/* a digit beyond the scale: not exact */
		acc /= 10;
	}
	ok = ok && acc < (int128) gpugb_pow10[GPUGB_NUMERIC_MAX_PRECISION];
	*word = ok ? (int64) (negative ? -acc : acc) : 0;

done:
	if (detoasted)
		pfree(detoasted);
	return ok;
}


#endif							/* GPUGB_NUMERIC_WORDS_H */
