/*-------------------------------------------------------------------------
 * aggcatalog.c
 *    Which aggregates and key types gpugb offloads, and how.
 *
 * Every supported aggregate is one row below, keyed by the aggregate's
 * pg_proc OID (fmgroids.h), so a user-defined aggregate that happens to be
 * named "sum" is never mistaken for the built-in one.  The result type of
 * each row is PostgreSQL's own (see DESIGN.md): sum(int8) and avg of
 * integers are exact numerics, built on the CPU from an int128 sum.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "mb/pg_wchar.h"
#include "utils/lsyscache.h"

#include "aggcatalog.h"
#include "hostexpr.h"
#include "interval_words.h"
#include "numeric_free.h"
#include "numeric_words.h"

static const GpugbAggEntry agg_table[] = {
	{F_COUNT_, "count(*)", GPUGB_AGG_COUNT_STAR, GPUGB_FINISH_COUNT},
	{F_COUNT_ANY, "count", GPUGB_AGG_COUNT, GPUGB_FINISH_COUNT},

	{F_SUM_INT2, "sum", GPUGB_AGG_SUM_INT, GPUGB_FINISH_SUM_TO_INT8},
	{F_SUM_INT4, "sum", GPUGB_AGG_SUM_INT, GPUGB_FINISH_SUM_TO_INT8},
	{F_SUM_INT8, "sum", GPUGB_AGG_SUM_INT, GPUGB_FINISH_SUM_TO_NUMERIC},
	{F_SUM_FLOAT4, "sum", GPUGB_AGG_SUM_FLOAT, GPUGB_FINISH_SUM_FLOAT4},
	{F_SUM_FLOAT8, "sum", GPUGB_AGG_SUM_FLOAT, GPUGB_FINISH_SUM_FLOAT8},
	{F_SUM_NUMERIC, "sum", GPUGB_AGG_SUM_INT, GPUGB_FINISH_SUM_TO_NUMERIC},

	{F_AVG_INT2, "avg", GPUGB_AGG_SUM_INT, GPUGB_FINISH_AVG_TO_NUMERIC},
	{F_AVG_INT4, "avg", GPUGB_AGG_SUM_INT, GPUGB_FINISH_AVG_TO_NUMERIC},
	{F_AVG_INT8, "avg", GPUGB_AGG_SUM_INT, GPUGB_FINISH_AVG_TO_NUMERIC},
	{F_AVG_FLOAT4, "avg", GPUGB_AGG_SUM_FLOAT, GPUGB_FINISH_AVG_FLOAT8},
	{F_AVG_FLOAT8, "avg", GPUGB_AGG_SUM_FLOAT, GPUGB_FINISH_AVG_FLOAT8},
	{F_AVG_NUMERIC, "avg", GPUGB_AGG_SUM_INT, GPUGB_FINISH_AVG_TO_NUMERIC},

	{F_MIN_INT2, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_INT4, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_INT8, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_DATE, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_TIMESTAMP, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_TIMESTAMPTZ, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_FLOAT4, "min", GPUGB_AGG_MIN_FLOAT, GPUGB_FINISH_MINMAX},
	{F_MIN_FLOAT8, "min", GPUGB_AGG_MIN_FLOAT, GPUGB_FINISH_MINMAX},
	{F_MIN_NUMERIC, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_TIME, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	/* text, varchar and char(n): the minimum rank in the collation's order (textorder.c) */
	{F_MIN_TEXT, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_BPCHAR, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},

	{F_MAX_INT2, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_INT4, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_INT8, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_DATE, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_TIMESTAMP, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_TIMESTAMPTZ, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_FLOAT4, "max", GPUGB_AGG_MAX_FLOAT, GPUGB_FINISH_MINMAX},
	{F_MAX_FLOAT8, "max", GPUGB_AGG_MAX_FLOAT, GPUGB_FINISH_MINMAX},
	{F_MAX_NUMERIC, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_TIME, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_TEXT, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_BPCHAR, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},

	/*
	 * Exact variance and standard deviation of integers and numeric(p, s):
	 * the sum of x, and hidden sums of x^2 (exec.c), all exact integers.
	 */
	{F_VARIANCE_INT2, "variance", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_SAMP},
	{F_VARIANCE_INT4, "variance", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_SAMP},
	{F_VARIANCE_INT8, "variance", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_SAMP},
	{F_VARIANCE_NUMERIC, "variance", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_SAMP},
	{F_VAR_SAMP_INT2, "var_samp", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_SAMP},
	{F_VAR_SAMP_INT4, "var_samp", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_SAMP},
	{F_VAR_SAMP_INT8, "var_samp", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_SAMP},
	{F_VAR_SAMP_NUMERIC, "var_samp", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_SAMP},
	{F_VAR_POP_INT2, "var_pop", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_POP},
	{F_VAR_POP_INT4, "var_pop", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_POP},
	{F_VAR_POP_INT8, "var_pop", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_POP},
	{F_VAR_POP_NUMERIC, "var_pop", GPUGB_AGG_SUM_INT, GPUGB_FINISH_VAR_POP},
	{F_STDDEV_INT2, "stddev", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_SAMP},
	{F_STDDEV_INT4, "stddev", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_SAMP},
	{F_STDDEV_INT8, "stddev", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_SAMP},
	{F_STDDEV_NUMERIC, "stddev", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_SAMP},
	{F_STDDEV_SAMP_INT2, "stddev_samp", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_SAMP},
	{F_STDDEV_SAMP_INT4, "stddev_samp", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_SAMP},
	{F_STDDEV_SAMP_INT8, "stddev_samp", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_SAMP},
	{F_STDDEV_SAMP_NUMERIC, "stddev_samp", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_SAMP},
	{F_STDDEV_POP_INT2, "stddev_pop", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_POP},
	{F_STDDEV_POP_INT4, "stddev_pop", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_POP},
	{F_STDDEV_POP_INT8, "stddev_pop", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_POP},
	{F_STDDEV_POP_NUMERIC, "stddev_pop", GPUGB_AGG_SUM_INT, GPUGB_FINISH_STDDEV_POP},

	/*
	 * Float variance and standard deviation: the query's own device
	 * aggregate counts the non-null inputs (PostgreSQL's N, NaN and
	 * infinities included); hidden ones over the finite inputs (exec.c)
	 * keep a per-group shift and compensated sums of x - K and (x - K)^2
	 * (gpugb_fsum.h), a count of the finite inputs (NaN or an infinity
	 * makes the result NaN, as in float8_accum) and their largest |x| (the
	 * overflow guard, gpugb_float_sums_unsafe).
	 */
	{F_VARIANCE_FLOAT4, "variance", GPUGB_AGG_COUNT, GPUGB_FINISH_FVAR_SAMP},
	{F_VARIANCE_FLOAT8, "variance", GPUGB_AGG_COUNT, GPUGB_FINISH_FVAR_SAMP},
	{F_VAR_SAMP_FLOAT4, "var_samp", GPUGB_AGG_COUNT, GPUGB_FINISH_FVAR_SAMP},
	{F_VAR_SAMP_FLOAT8, "var_samp", GPUGB_AGG_COUNT, GPUGB_FINISH_FVAR_SAMP},
	{F_VAR_POP_FLOAT4, "var_pop", GPUGB_AGG_COUNT, GPUGB_FINISH_FVAR_POP},
	{F_VAR_POP_FLOAT8, "var_pop", GPUGB_AGG_COUNT, GPUGB_FINISH_FVAR_POP},
	{F_STDDEV_FLOAT4, "stddev", GPUGB_AGG_COUNT, GPUGB_FINISH_FSTDDEV_SAMP},
	{F_STDDEV_FLOAT8, "stddev", GPUGB_AGG_COUNT, GPUGB_FINISH_FSTDDEV_SAMP},
	{F_STDDEV_SAMP_FLOAT4, "stddev_samp", GPUGB_AGG_COUNT, GPUGB_FINISH_FSTDDEV_SAMP},
	{F_STDDEV_SAMP_FLOAT8, "stddev_samp", GPUGB_AGG_COUNT, GPUGB_FINISH_FSTDDEV_SAMP},
	{F_STDDEV_POP_FLOAT4, "stddev_pop", GPUGB_AGG_COUNT, GPUGB_FINISH_FSTDDEV_POP},
	{F_STDDEV_POP_FLOAT8, "stddev_pop", GPUGB_AGG_COUNT, GPUGB_FINISH_FSTDDEV_POP},

	/* interval: words of its own, see interval_words.c */
	{F_SUM_INTERVAL, "sum", GPUGB_AGG_SUM_INT, GPUGB_FINISH_SUM_INTERVAL},
	{F_AVG_INTERVAL, "avg", GPUGB_AGG_SUM_INT, GPUGB_FINISH_AVG_INTERVAL},
	{F_MIN_INTERVAL, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MIN_INTERVAL},
	{F_MAX_INTERVAL, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MAX_INTERVAL},

	/* bool travels as 0/1: AND is the minimum, OR the maximum. */
	{F_BOOL_AND, "bool_and", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_EVERY, "every", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_BOOL_OR, "bool_or", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
};

/*
 * The expression whose values the device aggregates for this Aggref, or
 * NULL for a plain count(*).  FILTER (WHERE c) folds into it: every
 * supported aggregate but count(*) is strict, so agg(x) FILTER (WHERE c) is
 * agg(CASE WHEN c THEN x END), and count(*) FILTER (WHERE c) counts the
 * non-null values of CASE WHEN c THEN true END.  A NULL c skips the row in
 * both, as FILTER does.  The planner (input columns) and plan.c (which
 * column each aggregate reads) both call this, and match its results with
 * equal().
 */
Expr *
gpugb_aggref_input(Aggref *aggref)
{
	Expr	   *arg;
	CaseExpr   *filtered;
	CaseWhen   *when;

	if (aggref->aggstar)
		arg = aggref->aggfilter ? (Expr *) makeBoolConst(true, false) : NULL;
	else
		arg = ((TargetEntry *) linitial(aggref->args))->expr;
	if (aggref->aggfilter == NULL)
		return arg;

	when = makeNode(CaseWhen);
	when->expr = copyObject(aggref->aggfilter);
	when->result = copyObject(arg);
	when->location = -1;
	filtered = makeNode(CaseExpr);
	filtered->casetype = exprType((Node *) arg);
	filtered->casecollid = exprCollation((Node *) arg);
	filtered->arg = NULL;
	filtered->args = list_make1(when);
	filtered->defresult = (Expr *) makeNullConst(exprType((Node *) arg),
												 exprTypmod((Node *) arg),
												 exprCollation((Node *) arg));
	filtered->location = -1;
	return (Expr *) filtered;
}

const GpugbAggEntry *
gpugb_agg_lookup(Oid fnoid)
{
	for (int i = 0; i < lengthof(agg_table); i++)
		if (agg_table[i].fnoid == fnoid)
			return &agg_table[i];
	return NULL;
}

/*
 * The device representation of a value of type typid (typmod for numeric).
 * Types not listed, and numerics without a fixed scale that fits, are only
 * ever count(x) inputs, where nullness is all that matters.
 */
/*
 * A text key takes one word when its declared length guarantees at most 8
 * bytes (varchar(n)/char(n) of n characters in this database's encoding),
 * else two (values up to 16 bytes; a longer one falls back at run time).
 */
static int
text_key_words(int32 typmod)
{
	int32		chars = typmod >= (int32) VARHDRSZ ? typmod - (int32) VARHDRSZ : -1;

	return chars >= 0 && chars * pg_database_encoding_max_length() <= 8 ? 1 : 2;
}

GpugbColumnType
gpugb_column_type(Oid typid, int32 typmod, bool key)
{
	GpugbColumnType type = {GPUGB_VALUE_NULL_ONLY, 0, typmod, 1};

	switch (typid)
	{
		case INT2OID:
			type.kind = GPUGB_VALUE_INT16;
			break;
		case INT4OID:
		case DATEOID:
			type.kind = GPUGB_VALUE_INT32;
			break;
		case INT8OID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			type.kind = GPUGB_VALUE_INT64;
			break;
		case TEXTOID:
		case VARCHAROID:
			/* an input (of min/max) travels as its rank in the collation's order */
			type.kind = key ? GPUGB_VALUE_SHORT_TEXT : GPUGB_VALUE_TEXT_RANK;
			if (key)
				type.words = text_key_words(typmod);
			break;
		case BPCHAROID:
			/*
			 * char without a length keeps each value's trailing spaces in
			 * its output: a key carries them in a hidden aggregate (exec.c);
			 * a min/max input, which would need them per rank, declines.
			 */
			if (typmod >= 0 || key)
			{
				type.kind = key ? GPUGB_VALUE_SHORT_BPCHAR : GPUGB_VALUE_BPCHAR_RANK;
				if (key)
					type.words = text_key_words(typmod);
			}
			break;
		case UUIDOID:
			if (key)
			{
				type.kind = GPUGB_VALUE_UUID;
				type.words = 2;
			}
			break;
		case INTERVALOID:
			type.kind = key ? GPUGB_VALUE_INTERVAL_KEY : GPUGB_VALUE_INTERVAL;
			break;
		case BOOLOID:
			type.kind = GPUGB_VALUE_BOOL;
			break;
		case FLOAT4OID:
			type.kind = GPUGB_VALUE_FLOAT4;
			break;
		case FLOAT8OID:
			type.kind = GPUGB_VALUE_FLOAT8;
			break;
		case NUMERICOID:
			type.scale = gpugb_numeric_scale(typmod);
			if (type.scale >= 0)
				type.kind = GPUGB_VALUE_NUMERIC;
			else if (typmod < 0)
			{
				/* the executor puts the planned scale here (exec.c) */
				type.kind = GPUGB_VALUE_NUMERIC_FREE;
				type.scale = GPUGB_FREE_DEFAULT_SCALE;
			}
			else
				type.scale = 0;
			break;
		default:
			break;
	}
	return type;
}

/* A char key without a length (typmod -1): its trailing spaces travel apart. */
bool
gpugb_key_is_unpadded_bpchar(GpugbColumnType type)
{
	return type.kind == GPUGB_VALUE_SHORT_BPCHAR && type.typmod < 0;
}

static const char *
numeric_unsupported(const char *what)
{
	return psprintf("%s of type numeric with a negative scale or a scale above 18 "
					"is not supported", what);
}

/*
 * NULL if GROUP BY can use a key of this type, else why not.  Text keys
 * are compared byte by byte, which is equality only under a deterministic
 * collation.
 */
const char *
gpugb_key_type_unsupported(Oid typid, int32 typmod, Oid collation)
{
	switch (gpugb_column_type(typid, typmod, true).kind)
	{
		case GPUGB_VALUE_SHORT_TEXT:
		case GPUGB_VALUE_SHORT_BPCHAR:
			if (OidIsValid(collation) && !get_collation_isdeterministic(collation))
				return "GROUP BY keys under a nondeterministic collation are not supported";
			return NULL;
		case GPUGB_VALUE_NULL_ONLY:
			break;
		default:
			return NULL;
	}
	if (typid == NUMERICOID)
		return numeric_unsupported("a GROUP BY key");
	return psprintf("GROUP BY key of type %s is not supported", format_type_be(typid));
}

/* NULL if the aggregate can read an input of this type on the device. */
const char *
gpugb_agg_input_unsupported(const GpugbAggEntry *entry, Oid typid, int32 typmod)
{
	if (entry->op == GPUGB_AGG_COUNT || entry->op == GPUGB_AGG_COUNT_STAR)
		return NULL;
	if (gpugb_column_type(typid, typmod, false).kind != GPUGB_VALUE_NULL_ONLY)
		return NULL;
	if (typid == NUMERICOID)
		return numeric_unsupported("an aggregate input");
	return psprintf("aggregate input of type %s is not supported", format_type_be(typid));
}

/* Is this a min/max whose text input travels as ranks (textorder.c)? */
bool
gpugb_agg_ranks_text(const GpugbAggEntry *entry, Oid typid, int32 typmod)
{
	GpugbValueKind kind = gpugb_column_type(typid, typmod, false).kind;

	return entry != NULL && entry->finish == GPUGB_FINISH_MINMAX &&
		(kind == GPUGB_VALUE_TEXT_RANK || kind == GPUGB_VALUE_BPCHAR_RANK);
}

/*
 * Device aggregates this Aggref takes, with the hidden ones exec.c adds:
 * a bound for a float sum, a NaN check for a numeric sum (and a max dscale
 * for a free numeric's), two sums of squares for a variance, a bound, a
 * shift and two shifted sums for a float variance, and the parts of an
 * interval sum.  Only called for supported Aggrefs.
 */
int
gpugb_device_aggs_needed(Aggref *aggref)
{
	const GpugbAggEntry *entry = gpugb_agg_lookup(aggref->aggfnoid);
	Expr	   *arg = gpugb_aggref_input(aggref);
	int			needed = 1;

	if (entry == NULL || arg == NULL)
		return needed;
	if (entry->op == GPUGB_AGG_SUM_FLOAT)
		needed++;
	if (entry->op == GPUGB_AGG_SUM_INT && exprType((Node *) arg) == NUMERICOID &&
		gpugb_input_needs_hostexpr(arg))
		needed += gpugb_hostexpr_packs(arg) ? 2 : 1;	/* the NaN check (and max dscale) */
	else if (entry->op == GPUGB_AGG_SUM_INT)
	{
		GpugbValueKind kind = gpugb_column_type(exprType((Node *) arg),
												exprTypmod((Node *) arg), false).kind;

		if (kind == GPUGB_VALUE_NUMERIC)
			needed++;			/* the NaN check */
		else if (kind == GPUGB_VALUE_NUMERIC_FREE)
			needed += 2;		/* the NaN check and the max dscale */
	}
	if (gpugb_finish_is_variance(entry->finish))
		needed += 2;
	if (gpugb_finish_is_float_variance(entry->finish))
		needed += 4;
	return needed + gpugb_interval_hidden_aggs(aggref->aggfnoid);
}

/*
 * Does a key of this kind travel as one word whose order (order_kind, see
 * gpugb_device.h) is its type's default btree order, so the device can
 * order groups by it?  Integers, dates, times and timestamps (infinities
 * are their extremes), bool, numeric(p, s) and free numeric values (exact
 * v * 10^s; NaN, the greatest, is INT64_MAX), interval spans (the order of
 * interval_cmp), and floats (FLOAT order: NaN greatest, -0 = 0).  Text and
 * char(n) (packed bytes or dictionary ids, and collations) and uuid (bytes
 * in native-endian words) do not.
 */
bool
gpugb_key_kind_orders(GpugbValueKind kind, GpugbOrderKind *order_kind)
{
	*order_kind = GPUGB_ORDER_INT;
	switch (kind)
	{
		case GPUGB_VALUE_INT16:
		case GPUGB_VALUE_INT32:
		case GPUGB_VALUE_INT64:
		case GPUGB_VALUE_BOOL:
		case GPUGB_VALUE_NUMERIC:
		case GPUGB_VALUE_NUMERIC_FREE:
		case GPUGB_VALUE_INTERVAL_KEY:
			return true;
		case GPUGB_VALUE_FLOAT4:
		case GPUGB_VALUE_FLOAT8:
			*order_kind = GPUGB_ORDER_FLOAT;
			return true;
		case GPUGB_VALUE_SHORT_TEXT:
		case GPUGB_VALUE_SHORT_BPCHAR:
		case GPUGB_VALUE_TEXT_RANK:
		case GPUGB_VALUE_BPCHAR_RANK:
		case GPUGB_VALUE_UUID:
		case GPUGB_VALUE_INTERVAL:
		case GPUGB_VALUE_NULL_ONLY:
			break;
	}
	return false;
}
