/*-------------------------------------------------------------------------
 * finalize.c
 *    Device results -> PostgreSQL datums, exactly as PostgreSQL computes them.
 *
 * See DESIGN.md's table.  Integer sums arrive as exact int128 values; the
 * numeric results (sum(int8), avg of integers) are built and divided with
 * PostgreSQL's own numeric functions, as int8_avg / numeric_poly_avg do.
 * Floating-point sums are added in a different order than a serial Agg (as
 * in PostgreSQL's own parallel aggregation); where that order could turn a
 * finite result into PostgreSQL's overflow ERROR or vice versa, the whole
 * query falls back (gpugb_float_sums_unsafe) rather than risk a different
 * answer.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"
#include "utils/uuid.h"

#include "exec.h"
#include "gpugb_fsum.h"
#include "numeric_free.h"
#include "numeric_words.h"
#include "textdict.h"

/* The key's bytes (trailing spaces dropped) followed by `blanks` spaces. */
Datum
gpugb_bpchar_with_blanks(Datum stripped, int64 blanks)
{
	text	   *t = DatumGetTextPP(stripped);
	int			len = VARSIZE_ANY_EXHDR(t);
	BpChar	   *result;

	if (blanks <= 0)
		return stripped;
	if (blanks > MaxAllocSize - VARHDRSZ - len)
		elog(ERROR, "gpugb: a char key's trailing spaces (" INT64_FORMAT ") out of range", blanks);
	result = (BpChar *) palloc(VARHDRSZ + len + blanks);
	SET_VARSIZE(result, VARHDRSZ + len + blanks);
	memcpy(VARDATA(result), VARDATA_ANY(t), len);
	memset(VARDATA(result) + len, ' ', blanks);
	return PointerGetDatum(result);
}

/*
 * A key's Datum from its device word(s): value, and value2 for a key of
 * two words.
 */
Datum
gpugb_key_datum(GpugbColumnType type, int64 value, int64 value2, struct GpugbTextDict *dict)
{
	switch (type.kind)
	{
		case GPUGB_VALUE_INT16:
		case GPUGB_VALUE_INT32:
		case GPUGB_VALUE_INT64:
		case GPUGB_VALUE_BOOL:
			return gpugb_int_key_datum(type.kind, value);
		case GPUGB_VALUE_NUMERIC:
			return gpugb_word_to_numeric(value, type.scale);
		case GPUGB_VALUE_FLOAT4:
			return Float4GetDatum((float4) gpugb_word_to_double(value));
		case GPUGB_VALUE_FLOAT8:
			return Float8GetDatum(gpugb_word_to_double(value));
		case GPUGB_VALUE_UUID:
			{
				pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));

				memcpy(uuid->data, &value, sizeof(int64));
				memcpy(uuid->data + sizeof(int64), &value2, sizeof(int64));
				return UUIDPGetDatum(uuid);
			}
		case GPUGB_VALUE_SHORT_TEXT:
		case GPUGB_VALUE_SHORT_BPCHAR:
			{
				char		bytes[2 * sizeof(int64)];
				int			len = 0;
				Datum		text;

				memcpy(bytes, &value, sizeof(int64));
				memcpy(bytes + sizeof(int64), &value2, sizeof(int64));
				while (len < type.words * (int) sizeof(int64) && bytes[len] != '\0')
					len++;
				if (value == 0 && value2 != 0 && type.words == 2)
				{
					/* (0, id): a long key from the dictionary (textdict.c) */
					if (dict == NULL)
						elog(ERROR, "gpugb: a dictionary-encoded text key without its dictionary");
					text = PointerGetDatum(gpugb_textdict_text(dict, value2));
				}
				else
					text = PointerGetDatum(cstring_to_text_with_len(bytes, len));
				if (type.kind == GPUGB_VALUE_SHORT_TEXT)
					return text;
				/* char(n) as stored: padded with spaces to n characters */
				return DirectFunctionCall3(bpchar, text, Int32GetDatum(type.typmod),
										   BoolGetDatum(false));
			}
		default:
			elog(ERROR, "gpugb: unexpected key value kind %d", (int) type.kind);
	}
	return (Datum) 0;
}

static Datum
minmax_datum(GpugbColumnType type, int64 value)
{
	switch (type.kind)
	{
		case GPUGB_VALUE_FLOAT4:
			return Float4GetDatum((float4) gpugb_word_to_double(value));
		case GPUGB_VALUE_FLOAT8:
			return Float8GetDatum(gpugb_word_to_double(value));
		case GPUGB_VALUE_NUMERIC_FREE:
			/* the packed word: the least (greatest) value, with a member's dscale */
			return gpugb_free_value_to_numeric(gpugb_free_word_value(value), type.scale,
											   value == GPUGB_NUMERIC_NAN_WORD ? 0 :
											   gpugb_free_word_dscale(value));
		default:
			return gpugb_key_datum(type, value, 0, NULL);
	}
}

static int64
int128_to_int8(int64 hi, int64 lo)
{
	int128		v = ((int128) hi << 64) | (uint64) lo;

	if (v < PG_INT64_MIN || v > PG_INT64_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("bigint out of range")));
	return (int64) v;
}

/*
 * An exact int128 sum of words at scale `scale` as a numeric with display
 * scale `dscale` (the inputs' largest, for a free numeric), or `scale`
 * where dscale < 0: PostgreSQL's numeric sum either way.
 */
static Datum
sum_numeric(int64 hi, int64 lo, int scale, int dscale)
{
	int128		v = ((int128) hi << 64) | (uint64) lo;
	Datum		sum;

	if (dscale < 0)
		dscale = scale;
	if (v >= PG_INT64_MIN && v <= PG_INT64_MAX)
		return gpugb_scaled_to_numeric((int64) v, scale, dscale);
	sum = gpugb_int128_to_numeric(hi, lo, scale);
	return dscale == scale ? sum : gpugb_numeric_with_dscale(sum, dscale);
}

Datum
gpugb_agg_datum(GpugbFinish finish, GpugbColumnType input_type,
				int64 count, int64 value, int64 value_hi, int dscale, bool *isnull)
{
	*isnull = false;
	if (finish == GPUGB_FINISH_COUNT)
		return Int64GetDatum(count);

	/* Every other aggregate of no non-null input is NULL. */
	if (count == 0)
	{
		*isnull = true;
		return (Datum) 0;
	}

	switch (finish)
	{
		case GPUGB_FINISH_SUM_TO_INT8:
			return Int64GetDatum(int128_to_int8(value_hi, value));
		case GPUGB_FINISH_SUM_TO_NUMERIC:
			return sum_numeric(value_hi, value, input_type.scale, dscale);
		case GPUGB_FINISH_AVG_TO_NUMERIC:
			/* as numeric_avg and int8_avg: the exact sum, numeric_div by N */
			return DirectFunctionCall2(numeric_div,
									   sum_numeric(value_hi, value, input_type.scale, dscale),
									   NumericGetDatum(int64_to_numeric(count)));
		case GPUGB_FINISH_SUM_FLOAT4:
			return Float4GetDatum((float4) gpugb_word_to_double(value));
		case GPUGB_FINISH_SUM_FLOAT8:
			return Float8GetDatum(gpugb_word_to_double(value));
		case GPUGB_FINISH_AVG_FLOAT8:
			/* float8_accum starts from +0, so a sum of -0s averages to +0 */
			return Float8GetDatum((gpugb_word_to_double(value) + 0.0) / (double) count);
		case GPUGB_FINISH_MINMAX:
			return minmax_datum(input_type, value);
		case GPUGB_FINISH_SUM_INTERVAL:
		case GPUGB_FINISH_AVG_INTERVAL:
		case GPUGB_FINISH_MIN_INTERVAL:
		case GPUGB_FINISH_MAX_INTERVAL:
			break;				/* gpugb_interval_agg_datum */
		case GPUGB_FINISH_COUNT:
		case GPUGB_FINISH_VAR_SAMP:
		case GPUGB_FINISH_VAR_POP:
		case GPUGB_FINISH_STDDEV_SAMP:
		case GPUGB_FINISH_STDDEV_POP:
			break;				/* gpugb_variance_datum */
		case GPUGB_FINISH_FVAR_SAMP:
		case GPUGB_FINISH_FVAR_POP:
		case GPUGB_FINISH_FSTDDEV_SAMP:
		case GPUGB_FINISH_FSTDDEV_POP:
			break;				/* gpugb_float_variance_datum */
	}
	elog(ERROR, "gpugb: unexpected finish kind %d", (int) finish);
	return (Datum) 0;
}

/*
 * Could the order of float additions decide between a result and an
 * overflow ERROR here?  PostgreSQL raises "value out of range: overflow"
 * when finite inputs give an infinite running sum (and, for avg, an
 * infinite sum of squares in float8_accum), also on the way to a sum that
 * infinite or NaN inputs make infinite or NaN anyway.  A hidden max over
 * each float sum's finite |x| (exec.c) bounds every partial sum of its
 * finite inputs; if that bound comes near the type's range, we cannot
 * promise PostgreSQL's answer and fall back.  Returns a reason, or NULL
 * when the chunk's groups are safe.
 *
 * float8_accum (avg, variance) also raises when Sxx or its update
 * tmp * tmp, tmp = x * N - Sx, becomes infinite from finite inputs; |tmp|
 * <= 2 n max|x|, so tmp^2 and Sxx stay below DBL_MAX in every order when
 * 8 n^2 max|x|^2 <= DBL_MAX (a factor 2 of margin for roundings).  Our
 * shifted sums of a variance then stay finite too (|x - K| <= 2 max|x|).
 */
const char *
gpugb_float_sums_unsafe(GpugbScanState *st, int64 first, int64 count)
{
	for (int a = 0; a < st->info.n_aggs; a++)
	{
		const GpugbAggEntry *entry = st->aggs[a];
		int			bound = st->float_bound_agg[a];

		if (bound < 0)
			continue;
		for (int64 g = 0; g < count; g++)
		{
			int64		n = st->chunk.agg_count[bound][g];	/* finite inputs */
			double		maxabs = gpugb_word_to_double(st->chunk.agg_value[bound][g]);
			double		limit = entry->finish == GPUGB_FINISH_SUM_FLOAT4 ? FLT_MAX : DBL_MAX;

			if (n == 0)
				continue;
			if (maxabs > limit / 2.0 / (double) n)
				return "a floating-point sum comes near the overflow limit";
			if (entry->finish == GPUGB_FINISH_AVG_FLOAT8 &&
				maxabs > sqrt(DBL_MAX / 8.0) / (double) n)
				return "a floating-point sum of squares (for avg) comes near the overflow limit";
			if (gpugb_finish_is_float_variance(entry->finish) &&
				maxabs > sqrt(DBL_MAX / 8.0) / (double) n)
				return "a floating-point sum of squares (for a variance) comes near the overflow limit";
		}
	}
	return NULL;
}

/*
 * float8_var_samp, float8_var_pop, float8_stddev_samp, float8_stddev_pop
 * (also of float4 input, which float4_accum widens to double) from N
 * non-null inputs, `finite` of them finite, and the shifted double-double
 * sums S1 = sum(x - K), S2 = sum((x - K)^2) of the finite ones.  As in
 * PostgreSQL: NULL for N = 0 (and N = 1 for the sample forms, whatever the
 * input), NaN once any input is NaN or infinite (float8_accum makes Sxx
 * NaN), else Sxx / (N - 1) or Sxx / N, and the square root of that.  Sxx
 * comes from gpugb_fsum_sxx, accurate to about 1e-16 relative
 * (gpugb_fsum.h); PostgreSQL's own Sxx differs from the exact one by its
 * Youngs-Cramer roundings, as its parallel plan's does.  (The overflow
 * cases PostgreSQL raises for never get here: gpugb_float_sums_unsafe.)
 */
Datum
gpugb_float_variance_datum(GpugbFinish finish, int64 count, int64 finite,
						   double s1_hi, double s1_lo, double s2_hi, double s2_lo, bool *isnull)
{
	bool		sample = finish == GPUGB_FINISH_FVAR_SAMP || finish == GPUGB_FINISH_FSTDDEV_SAMP;
	bool		root = finish == GPUGB_FINISH_FSTDDEV_SAMP || finish == GPUGB_FINISH_FSTDDEV_POP;
	double		n = (double) count;
	double		sxx;
	double		result;

	*isnull = count == 0 || (sample && count <= 1);
	if (*isnull)
		return (Datum) 0;
	if (finite < count)
		return Float8GetDatum(get_float8_nan());
	sxx = gpugb_fsum_sxx(n, s1_hi, s1_lo, s2_hi, s2_lo);
	result = sxx / (sample ? n - 1.0 : n);
	return Float8GetDatum(root ? sqrt(result) : result);
}

/*
 * round_half_up(sqrt(x), rscale) for x > 0, exactly as PostgreSQL's
 * sqrt_var rounds (it truncates one digit beyond rscale, then rounds half
 * up, which is the same thing).  numeric_sqrt picks its own scale, so take
 * it with two extra digits, round, and correct the possible one-unit error
 * of that double rounding by comparing exact squares.
 */
static Datum
numeric_sqrt_at_scale(Datum x, int rscale)
{
	Datum		padded = DirectFunctionCall2(numeric_round, x, Int32GetDatum(rscale + 2));
	Datum		root = DirectFunctionCall2(numeric_round,
										   DirectFunctionCall1(numeric_sqrt, padded),
										   Int32GetDatum(rscale));
	Datum		unit = NumericGetDatum(int64_div_fast_to_numeric(1, rscale));
	Datum		half = NumericGetDatum(int64_div_fast_to_numeric(5, rscale + 1));
	Datum		below = DirectFunctionCall2(numeric_sub, root, half);
	Datum		above = DirectFunctionCall2(numeric_add, root, half);

	/* sqrt(x) < root - half: one unit too high */
	if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, below, NumericGetDatum(int64_to_numeric(0)))) >= 0 &&
		DatumGetInt32(DirectFunctionCall2(numeric_cmp,
										  DirectFunctionCall2(numeric_mul, below, below), x)) > 0)
		return DirectFunctionCall2(numeric_sub, root, unit);
	/* sqrt(x) >= root + half: one unit too low (a half rounds up) */
	if (DatumGetInt32(DirectFunctionCall2(numeric_cmp,
										  DirectFunctionCall2(numeric_mul, above, above), x)) <= 0)
		return DirectFunctionCall2(numeric_add, root, unit);
	return root;
}

/* Sample variance needs two inputs, population variance one (NaNs count). */
bool
gpugb_variance_is_null(GpugbFinish finish, int64 count)
{
	bool		sample = finish == GPUGB_FINISH_VAR_SAMP || finish == GPUGB_FINISH_STDDEV_SAMP;

	return count == 0 || (sample && count <= 1);
}

/*
 * var_samp, var_pop, stddev_samp, stddev_pop of integer or numeric(p, s)
 * input, from the exact count N, sum(x) (int128, scaled by 10^scale) and
 * sum(x^2) = sq_hi * 2^64 + sq_lo + N * 2^63 (scaled by 10^(2 scale)).
 * A free numeric's sums come at its planned scale and are shown with the
 * inputs' largest dscale (and twice it), which is where PostgreSQL's
 * rscale = 2 * dscale(sumX) starts from; dscale < 0 elsewhere.
 * The arithmetic is numeric_stddev_internal's, step by step, through the
 * SQL-callable numeric functions, which give the same scales.
 */
Datum
gpugb_variance_datum(GpugbFinish finish, int scale, int dscale, int64 count,
					 int64 sum_lo, int64 sum_hi,
					 int64 sq_hi_lo, int64 sq_hi_hi,
					 int64 sq_lo_lo, int64 sq_lo_hi, bool *isnull)
{
	bool		sample = finish == GPUGB_FINISH_VAR_SAMP || finish == GPUGB_FINISH_STDDEV_SAMP;
	bool		variance = finish == GPUGB_FINISH_VAR_SAMP || finish == GPUGB_FINISH_VAR_POP;
	Datum		n,
				sum_x,
				sum_x2,
				numerator,
				denominator,
				quotient;

	*isnull = gpugb_variance_is_null(finish, count);
	if (*isnull)
		return (Datum) 0;

	n = NumericGetDatum(int64_to_numeric(count));
	sum_x = sum_numeric(sum_hi, sum_lo, scale, dscale);
	{
		/* sum(lo) + N * 2^63 < 2^127: add them in int128, then hi's share */
		int128		low = (((int128) sq_lo_hi << 64) | (uint64) sq_lo_lo) + ((int128) count << 63);

		sum_x2 = DirectFunctionCall2(numeric_mul,
									 gpugb_int128_to_numeric(sq_hi_hi, sq_hi_lo, 0),
									 gpugb_int128_to_numeric(1, 0, 0));	/* 2^64 */
		sum_x2 = DirectFunctionCall2(numeric_add, sum_x2,
									 gpugb_int128_to_numeric((int64) (low >> 64), (int64) low, 0));
	}
	if (scale > 0)
		sum_x2 = DirectFunctionCall2(numeric_mul, sum_x2,
									 NumericGetDatum(int64_div_fast_to_numeric(1, 2 * scale)));
	/* a free numeric: sum(x^2) has twice the largest dscale, as do_numeric_accum's */
	if (dscale >= 0 && dscale != scale)
		sum_x2 = gpugb_numeric_with_dscale(sum_x2, 2 * dscale);

	/* N * sumX2 - sumX * sumX, at scale 2 * scale */
	numerator = DirectFunctionCall2(numeric_sub,
									DirectFunctionCall2(numeric_mul, n, sum_x2),
									DirectFunctionCall2(numeric_mul, sum_x, sum_x));
	if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, numerator,
										  NumericGetDatum(int64_to_numeric(0)))) <= 0)
		return NumericGetDatum(int64_to_numeric(0));

	denominator = DirectFunctionCall2(numeric_mul, n,
									  sample ? DirectFunctionCall2(numeric_sub, n,
																   NumericGetDatum(int64_to_numeric(1))) : n);
	quotient = DirectFunctionCall2(numeric_div, numerator, denominator);
	if (variance)
		return quotient;
	return numeric_sqrt_at_scale(quotient,
								 DatumGetInt32(DirectFunctionCall1(numeric_scale, quotient)));
}
