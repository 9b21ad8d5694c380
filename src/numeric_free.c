/*-------------------------------------------------------------------------
 * numeric_free.c
 *    numeric without a type modifier ("free" numeric) as device words.
 *
 * A column declared plain `numeric` has no fixed scale: every value keeps
 * its own display scale (dscale), and PostgreSQL's results depend on it
 * (sum's dscale is the largest of its inputs', avg divides that sum with a
 * scale chosen from it, variance works at twice it, min/max and GROUP BY
 * keys print one of the input values as it was written).  So a value
 * travels as two things packed in one word:
 *
 *     word = (v * 10^S) * 32 + dscale
 *
 * with S a scale the planner picks per column (below).  The word exists
 * only if v * 10^S is an integer (v has no non-zero digit beyond S; its
 * dscale may be larger, 1.50000 at S = 2 is fine), |v * 10^S| < 2^58 and
 * dscale <= 31; otherwise the row has no word and the query falls back to
 * PostgreSQL's plan at run time, as a too-long numeric(p, s) does.  The
 * packing keeps the order: min/max over packed words pick the least
 * (greatest) value and, among equal values, one member's dscale, which is
 * all PostgreSQL promises (its min/max return whichever equal value came
 * last).  NaN is the numeric NaN word, above every packed word.  Sums,
 * variance and keys take the value part, v * 10^S (exec.c adds the derived
 * inputs), plus a hidden max (sums) or min (keys) over the dscale part; the
 * results are then built at scale S and brought to PostgreSQL's dscale with
 * numeric_round, which is exact here (no digit beyond S is non-zero).
 *
 * Choosing S trades fractional digits against magnitude (10^S * |v| <
 * 2^58 = 2.9e17).  For a plain column with statistics, S is the largest
 * dscale among its most common values and histogram bounds (lowered while
 * the largest magnitude there would not fit with a factor 4 of room): the
 * sample says what the column holds.  Without statistics S = 4, which
 * covers money (2 digits) and 4-digit rates with magnitudes up to 2.9e13.
 * A row the guess does not cover is still answered exactly, by falling
 * back; it only costs the GPU's work.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/selfuncs.h"

#include "numeric_free.h"

bool
gpugb_free_numeric_to_word(Datum datum, int scale, int64 *word)
{
	int64		value;
	int			dscale;

	if (!gpugb_numeric_to_word_dscale(datum, scale, &value, &dscale))
		return false;
	if (value == GPUGB_NUMERIC_NAN_WORD)
	{
		*word = value;
		return true;
	}
	if (dscale > GPUGB_FREE_MAX_DSCALE || value >= GPUGB_FREE_VALUE_LIMIT ||
		value <= -GPUGB_FREE_VALUE_LIMIT)
		return false;
	*word = value * (1 << GPUGB_FREE_DSCALE_BITS) + dscale;
	return true;
}

/*
 * An exact numeric shown with display scale dscale: numeric_round to it
 * changes no digit when the value has no non-zero digit beyond dscale (the
 * caller knows), and round_var sets the display scale, also a larger one.
 */
Datum
gpugb_numeric_with_dscale(Datum num, int dscale)
{
	return DirectFunctionCall2(numeric_round, num, Int32GetDatum(dscale));
}

/* The numeric value / 10^scale with display scale dscale (NaN for the NaN word). */
Datum
gpugb_free_value_to_numeric(int64 value, int scale, int dscale)
{
	if (value == GPUGB_NUMERIC_NAN_WORD)
		return gpugb_word_to_numeric(value, 0);
	return gpugb_numeric_with_dscale(NumericGetDatum(int64_div_fast_to_numeric(value, scale)),
									 dscale);
}

/* numeric without a type modifier? (numeric(p, s) has a fixed scale) */
bool
gpugb_is_free_numeric(Node *expr)
{
	return exprType(expr) == NUMERICOID && exprTypmod(expr) < 0;
}

/* The largest dscale and |value| among a statistics slot's values. */
static void
scan_slot(HeapTuple stats, int kind, int *max_dscale, double *max_abs)
{
	AttStatsSlot sslot;

	if (!get_attstatsslot(&sslot, stats, kind, InvalidOid, ATTSTATSSLOT_VALUES))
		return;
	for (int i = 0; i < sslot.nvalues; i++)
	{
		Numeric		num = DatumGetNumeric(sslot.values[i]);

		if (numeric_is_nan(num) || numeric_is_inf(num))
			continue;
		*max_dscale = Max(*max_dscale,
						  DatumGetInt32(DirectFunctionCall1(numeric_scale, sslot.values[i])));
		*max_abs = Max(*max_abs,
					   fabs(DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow,
															   sslot.values[i]))));
	}
	free_attstatsslot(&sslot);
}

/* S for a free numeric key or input (see the header comment); -1 for others. */
int
gpugb_free_numeric_plan_scale(PlannerInfo *root, Node *expr)
{
	VariableStatData vardata;
	int			max_dscale = -1;
	double		max_abs = 0;
	int			scale;

	if (!gpugb_is_free_numeric(expr))
		return -1;
	examine_variable(root, expr, 0, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple))
	{
		max_dscale = 0;
		scan_slot(vardata.statsTuple, STATISTIC_KIND_MCV, &max_dscale, &max_abs);
		scan_slot(vardata.statsTuple, STATISTIC_KIND_HISTOGRAM, &max_dscale, &max_abs);
	}
	ReleaseVariableStats(vardata);
	if (max_dscale < 0)
		return GPUGB_FREE_DEFAULT_SCALE;
	scale = Min(max_dscale, GPUGB_FREE_MAX_SCALE);
	while (scale > 0 && max_abs * 4.0 * (double) gpugb_pow10[scale] >= (double) GPUGB_FREE_VALUE_LIMIT)
		scale--;
	return scale;
}

/*
 * Functions whose numeric results carry data-dependent display scales of
 * 16 digits and more (select_div_scale and friends): their values almost
 * never fit a planned scale, so every run would end in a fallback.
 */
static bool
long_scale_function(Oid funcid)
{
	switch (funcid)
	{
		case F_NUMERIC_DIV:
		case F_SQRT_NUMERIC:
		case F_NUMERIC_SQRT:
		case F_EXP_NUMERIC:
		case F_NUMERIC_EXP:
		case F_LN_NUMERIC:
		case F_NUMERIC_LN:
		case F_NUMERIC_LOG:
		case F_LOG_NUMERIC:
		case F_LOG10_NUMERIC:
		case F_NUMERIC_POWER:
			return true;
		default:
			return false;
	}
}

static bool
long_scale_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, OpExpr) && long_scale_function(((OpExpr *) node)->opfuncid))
		return true;
	if (IsA(node, FuncExpr) && long_scale_function(((FuncExpr *) node)->funcid))
		return true;
	return expression_tree_walker(node, long_scale_walker, context);
}

/* NULL if a free numeric key or input can travel, else why not. */
const char *
gpugb_free_numeric_unsupported(Node *expr)
{
	if (gpugb_is_free_numeric(expr) && long_scale_walker(expr, NULL))
		return "a numeric computed by division, sqrt, exp, ln, log or power has "
			"data-dependent display scales that no device scale covers";
	return NULL;
}
