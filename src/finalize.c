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
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

#include "exec.h"

Datum
gpugb_key_datum(GpugbValueKind kind, int64 value)
{
	switch (kind)
	{
		case GPUGB_VALUE_INT16:
			return Int16GetDatum((int16) value);
		case GPUGB_VALUE_INT32:
			return Int32GetDatum((int32) value);
		case GPUGB_VALUE_INT64:
			return Int64GetDatum(value);
		case GPUGB_VALUE_BOOL:
			return BoolGetDatum(value != 0);
		default:
			elog(ERROR, "gpugb: unexpected key value kind %d", (int) kind);
	}
	return (Datum) 0;
}

static Datum
int128_to_numeric_datum(int64 hi, int64 lo)
{
	int128		v = ((int128) hi << 64) | (uint64) lo;
	Datum		result;
	Datum		two32;
	uint64		ulo = (uint64) lo;

	if (v >= PG_INT64_MIN && v <= PG_INT64_MAX)
		return NumericGetDatum(int64_to_numeric((int64) v));

	/* hi * 2^64 + lo, with lo split in 32-bit halves to stay in int64. */
	two32 = NumericGetDatum(int64_to_numeric(INT64CONST(1) << 32));
	result = NumericGetDatum(int64_to_numeric(hi));
	result = DirectFunctionCall2(numeric_mul, result, two32);
	result = DirectFunctionCall2(numeric_add, result,
								 NumericGetDatum(int64_to_numeric((int64) (ulo >> 32))));
	result = DirectFunctionCall2(numeric_mul, result, two32);
	result = DirectFunctionCall2(numeric_add, result,
								 NumericGetDatum(int64_to_numeric((int64) (ulo & 0xFFFFFFFF))));
	return result;
}

static Datum
minmax_datum(GpugbValueKind kind, int64 value)
{
	switch (kind)
	{
		case GPUGB_VALUE_FLOAT4:
			return Float4GetDatum((float4) gpugb_word_to_double(value));
		case GPUGB_VALUE_FLOAT8:
			return Float8GetDatum(gpugb_word_to_double(value));
		default:
			return gpugb_key_datum(kind, value);
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

Datum
gpugb_agg_datum(GpugbFinish finish, GpugbValueKind input_kind,
				int64 count, int64 value, int64 value_hi, bool *isnull)
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
			return int128_to_numeric_datum(value_hi, value);
		case GPUGB_FINISH_AVG_TO_NUMERIC:
			return DirectFunctionCall2(numeric_div,
									   int128_to_numeric_datum(value_hi, value),
									   NumericGetDatum(int64_to_numeric(count)));
		case GPUGB_FINISH_SUM_FLOAT4:
			return Float4GetDatum((float4) gpugb_word_to_double(value));
		case GPUGB_FINISH_SUM_FLOAT8:
			return Float8GetDatum(gpugb_word_to_double(value));
		case GPUGB_FINISH_AVG_FLOAT8:
			/* float8_accum starts from +0, so a sum of -0s averages to +0 */
			return Float8GetDatum((gpugb_word_to_double(value) + 0.0) / (double) count);
		case GPUGB_FINISH_MINMAX:
			return minmax_datum(input_kind, value);
		case GPUGB_FINISH_COUNT:
			break;
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
				maxabs > sqrt(DBL_MAX / 8.0 / (double) n))
				return "a floating-point sum of squares (for avg) comes near the overflow limit";
		}
	}
	return NULL;
}
