/*-------------------------------------------------------------------------
 * numeric_words.c
 *    numeric(p, s) values as exact fixed-point device words.
 *
 * A numeric(p, s) with p <= 18 and 0 <= s always holds a value v with at
 * most s fractional digits and |v| < 10^(p - s), so v * 10^s is an integer
 * below 10^18: it fits one int64 word exactly, and the device can compare,
 * min/max and sum (into int128) such words as plain integers.  With p > 18
 * (and s <= 18) most values still fit; one that does not has no word, and
 * the query falls back at run time.  NaN, which
 * numeric(p, s) allows and which sorts above every number, becomes
 * INT64_MAX, above every such word, so min/max and GROUP BY treat it as
 * PostgreSQL does; sums check for it with a hidden max (exec.c).
 *
 * Reading a numeric Datum goes straight to its on-disk digits (base 10000,
 * see the format comment in PostgreSQL's numeric.c, which pg_upgrade keeps
 * stable): this runs once per row, where a call of numeric_mul plus
 * numeric_int8 would cost several allocations.  Results are built with
 * PostgreSQL's own functions, so their display scale is PostgreSQL's.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

#include "numeric_words.h"

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

#define MAX_PRECISION			18

const int64 gpugb_pow10[GPUGB_POW10_COUNT] = {
	INT64CONST(1), INT64CONST(10), INT64CONST(100), INT64CONST(1000),
	INT64CONST(10000), INT64CONST(100000), INT64CONST(1000000),
	INT64CONST(10000000), INT64CONST(100000000), INT64CONST(1000000000),
	INT64CONST(10000000000), INT64CONST(100000000000),
	INT64CONST(1000000000000), INT64CONST(10000000000000),
	INT64CONST(100000000000000), INT64CONST(1000000000000000),
	INT64CONST(10000000000000000), INT64CONST(100000000000000000),
	INT64CONST(1000000000000000000)
};

int
gpugb_numeric_scale(int32 typmod)
{
	int32		precision,
				scale;

	if (typmod < (int32) VARHDRSZ)
		return -1;				/* unconstrained numeric: no fixed scale */
	precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
	/* the 11-bit signed scale of PostgreSQL 15 (negative scales exist) */
	scale = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
	/*
	 * A declared scale fixes every value's display scale (numeric's typmod
	 * coercion rounds to it), whatever the precision: numeric(30, 10) travels
	 * as v * 10^10 like numeric(18, 10), and a value beyond 18 digits at that
	 * scale simply has no word (the query falls back at run time).
	 */
	if (precision < 1 || scale < 0 || scale > precision || scale > MAX_PRECISION)
		return -1;
	return scale;
}


/*
 * v / 10^e and its remainder.  The common exponents are constants, so the
 * compiler divides by multiplying: a 64-bit idiv per numeric value was
 * 40 % of this module's time in a local profile of TPC-H Q1's fill.
 */
static inline uint64
divide_by_pow10(uint64 v, int e, uint64 *remainder)
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
 * type modifier keeps each value's own (numeric_free.c).  Inlined into
 * both entry points: the filler calls gpugb_numeric_to_word once per value.
 */
static pg_attribute_always_inline bool
numeric_to_word(Datum datum, int scale, int64 *word, int *dscale)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(datum);
	struct varlena *detoasted = NULL;
	const char *data;
	uint16		header;
	const char *digits;
	int			ndigits;
	int			weight;
	bool		negative;
	int128		acc = 0;
	int			exponent;
	bool		ok = true;

	if (VARATT_IS_EXTENDED(raw) && !VARATT_IS_SHORT(raw))
		raw = detoasted = pg_detoast_datum(raw);	/* compressed or external: rare */
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
	if (ndigits <= 4 && exponent >= -MAX_PRECISION && exponent <= MAX_PRECISION)
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
			ok = v < gpugb_pow10[MAX_PRECISION - exponent];
			v *= ok ? gpugb_pow10[exponent] : 0;
		}
		else
		{
			uint64		remainder;

			v = (int64) divide_by_pow10((uint64) v, -exponent, &remainder);
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
		ok = acc < (int128) gpugb_pow10[MAX_PRECISION];
	}
	for (; ok && exponent < 0; exponent++)
	{
		ok = acc % 10 == 0;		/* a digit beyond the scale: not exact */
		acc /= 10;
	}
	ok = ok && acc < (int128) gpugb_pow10[MAX_PRECISION];
	*word = ok ? (int64) (negative ? -acc : acc) : 0;

done:
	if (detoasted)
		pfree(detoasted);
	return ok;
}

bool
gpugb_numeric_to_word(Datum datum, int scale, int64 *word)
{
	int			dscale;

	return numeric_to_word(datum, scale, word, &dscale);
}

bool
gpugb_numeric_to_word_dscale(Datum datum, int scale, int64 *word, int *dscale)
{
	return numeric_to_word(datum, scale, word, dscale);
}

/* The numeric v / 10^scale, with display scale `scale`, as numeric(p, s) shows it. */
Datum
gpugb_word_to_numeric(int64 word, int scale)
{
	if (word == GPUGB_NUMERIC_NAN_WORD)
		return DirectFunctionCall3(numeric_in, CStringGetDatum("NaN"),
								   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	return NumericGetDatum(int64_div_fast_to_numeric(word, scale));
}

/* An exact int128 (hi * 2^64 + lo) as numeric, with display scale 0. */
static Datum
int128_to_numeric(int128 v)
{
	Datum		result;
	Datum		two32;
	uint64		ulo = (uint64) v;
	int64		hi = (int64) (v >> 64);

	if (v >= PG_INT64_MIN && v <= PG_INT64_MAX)
		return NumericGetDatum(int64_to_numeric((int64) v));

	/* hi * 2^64 + lo, with lo split in 32-bit halves to stay in int64. */
	two32 = NumericGetDatum(int64_to_numeric(INT64CONST(1) << 32));
	result = NumericGetDatum(int64_to_numeric(hi));
	result = DirectFunctionCall2(numeric_mul, result, two32);
	result = DirectFunctionCall2(numeric_add, result,
								 NumericGetDatum(int64_to_numeric((int64) (ulo >> 32))));
	result = DirectFunctionCall2(numeric_mul, result, two32);
	return DirectFunctionCall2(numeric_add, result,
							   NumericGetDatum(int64_to_numeric((int64) (ulo & 0xFFFFFFFF))));
}

/*
 * An exact int128 sum of scaled words (hi * 2^64 + lo) as the numeric
 * sum / 10^scale with display scale `scale`: the max of the inputs' display
 * scales, which is what PostgreSQL's numeric sum gives.
 */
Datum
gpugb_int128_to_numeric(int64 hi, int64 lo, int scale)
{
	int128		v = ((int128) hi << 64) | (uint64) lo;
	Datum		integral;

	/*
	 * Most sums fit an int64: PostgreSQL's own int64_div_fast_to_numeric
	 * builds the same normalized numeric as the multiplication below, at a
	 * fifth of the cost (it was a fifth of the time spent emitting groups).
	 */
	if (v >= PG_INT64_MIN && v <= PG_INT64_MAX)
		return NumericGetDatum(int64_div_fast_to_numeric((int64) v, scale));
	integral = int128_to_numeric(v);
	if (scale == 0)
		return integral;
	return DirectFunctionCall2(numeric_mul, integral,
							   NumericGetDatum(int64_div_fast_to_numeric(1, scale)));
}
