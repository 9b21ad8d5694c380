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
#include "utils/fmgroids.h"

#include "aggcatalog.h"

static const GpugbAggEntry agg_table[] = {
	{F_COUNT_, "count(*)", GPUGB_AGG_COUNT_STAR, GPUGB_FINISH_COUNT},
	{F_COUNT_ANY, "count", GPUGB_AGG_COUNT, GPUGB_FINISH_COUNT},

	{F_SUM_INT2, "sum", GPUGB_AGG_SUM_INT, GPUGB_FINISH_SUM_TO_INT8},
	{F_SUM_INT4, "sum", GPUGB_AGG_SUM_INT, GPUGB_FINISH_SUM_TO_INT8},
	{F_SUM_INT8, "sum", GPUGB_AGG_SUM_INT, GPUGB_FINISH_SUM_TO_NUMERIC},
	{F_SUM_FLOAT4, "sum", GPUGB_AGG_SUM_FLOAT, GPUGB_FINISH_SUM_FLOAT4},
	{F_SUM_FLOAT8, "sum", GPUGB_AGG_SUM_FLOAT, GPUGB_FINISH_SUM_FLOAT8},

	{F_AVG_INT2, "avg", GPUGB_AGG_SUM_INT, GPUGB_FINISH_AVG_TO_NUMERIC},
	{F_AVG_INT4, "avg", GPUGB_AGG_SUM_INT, GPUGB_FINISH_AVG_TO_NUMERIC},
	{F_AVG_INT8, "avg", GPUGB_AGG_SUM_INT, GPUGB_FINISH_AVG_TO_NUMERIC},
	{F_AVG_FLOAT4, "avg", GPUGB_AGG_SUM_FLOAT, GPUGB_FINISH_AVG_FLOAT8},
	{F_AVG_FLOAT8, "avg", GPUGB_AGG_SUM_FLOAT, GPUGB_FINISH_AVG_FLOAT8},

	{F_MIN_INT2, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_INT4, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_INT8, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_DATE, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_TIMESTAMP, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_TIMESTAMPTZ, "min", GPUGB_AGG_MIN_INT, GPUGB_FINISH_MINMAX},
	{F_MIN_FLOAT4, "min", GPUGB_AGG_MIN_FLOAT, GPUGB_FINISH_MINMAX},
	{F_MIN_FLOAT8, "min", GPUGB_AGG_MIN_FLOAT, GPUGB_FINISH_MINMAX},

	{F_MAX_INT2, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_INT4, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_INT8, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_DATE, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_TIMESTAMP, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_TIMESTAMPTZ, "max", GPUGB_AGG_MAX_INT, GPUGB_FINISH_MINMAX},
	{F_MAX_FLOAT4, "max", GPUGB_AGG_MAX_FLOAT, GPUGB_FINISH_MINMAX},
	{F_MAX_FLOAT8, "max", GPUGB_AGG_MAX_FLOAT, GPUGB_FINISH_MINMAX},

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

bool
gpugb_key_type_supported(Oid typid)
{
	switch (typid)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case DATEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case BOOLOID:
			return true;
		default:
			return false;
	}
}

/*
 * The device representation of a value of type typid.  Types not listed are
 * only ever count(x) inputs, where nullness is all that matters.
 */
GpugbValueKind
gpugb_value_kind(Oid typid)
{
	switch (typid)
	{
		case INT2OID:
			return GPUGB_VALUE_INT16;
		case INT4OID:
		case DATEOID:
			return GPUGB_VALUE_INT32;
		case INT8OID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return GPUGB_VALUE_INT64;
		case BOOLOID:
			return GPUGB_VALUE_BOOL;
		case FLOAT4OID:
			return GPUGB_VALUE_FLOAT4;
		case FLOAT8OID:
			return GPUGB_VALUE_FLOAT8;
		default:
			return GPUGB_VALUE_NULL_ONLY;
	}
}
