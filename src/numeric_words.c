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
	if (precision < 1 || scale < 0 || scale > precision || scale > GPUGB_NUMERIC_MAX_PRECISION)
		return -1;
	return scale;
}

/* gpugb_numeric_to_word_inline (numeric_words.h) without the display scale, out of line */
bool
gpugb_numeric_to_word(Datum datum, int scale, int64 *word)
{
	int			dscale;

	return gpugb_numeric_to_word_inline(datum, scale, word, &dscale);
}

bool
gpugb_numeric_to_word_dscale(Datum datum, int scale, int64 *word, int *dscale)
{
	return gpugb_numeric_to_word_inline(datum, scale, word, dscale);
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
