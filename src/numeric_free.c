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
 * dscale <= 30; otherwise the row has no word and the query falls back to
 * PostgreSQL's plan at run time, as a too-long numeric(p, s) does.  The
 * packing keeps the order: min/max over packed words pick the least
 * (greatest) value and, among equal values, one member's dscale, which is
 * all PostgreSQL promises (its min/max return whichever equal value came
 * last).  NaN is the numeric NaN word, above every packed word.  Sums,
 * variance and keys take the value part, v * 10^S (exec.c adds the derived
 * inputs), plus a hidden max (sums) or min (keys) over the dscale part; the
 * results are then built at scale S and brought to PostgreSQL's dscale with
 * numeric_round, which changes no digit: a value has no non-zero digit
 * beyond its own dscale, a sum none beyond its inputs' largest, a square
 * none beyond twice it.
 *
 * Choosing S trades fractional digits against magnitude (10^S * |v| <
 * 2^58 = 2.9e17); a larger S costs nothing else (sums are int128).  For a
 * column with statistics, the histogram's bounds include the sample's
 * extremes, so its magnitude is well known, its digits less so (a rare value
 * with one more digit is easily missed): S is as large as the largest
 * magnitude among the most common values and histogram bounds allows with a
 * factor 100 of room (at most 17), but never below the most significant
 * fractional digits seen there (min_scale, not dscale: 2.5000000000000000,
 * as avg writes it, needs one).  If the sample itself has values no S can
 * hold, the planner declines (every run would fall back).  +, - and * of
 * analyzed columns and constants get their bounds from their operands'.
 * Without statistics (unanalyzed tables, other expressions) S = 4, which
 * covers money (2 digits) and 4-digit rates with magnitudes up to 2.9e13.  A row the
 * choice does not cover is still answered exactly, by falling back; it only
 * costs the GPU's work.
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

#include "keyexpr.h"
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
	return gpugb_free_word_pack(value, dscale, word);
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
	return gpugb_scaled_to_numeric(value, scale, dscale);
}

/*
 * value / 10^scale as a numeric of display scale dscale.  Where the digits
 * below dscale are zeros (always, for a sum or a member of a free numeric
 * group), int64_div_fast_to_numeric builds the same normalized numeric as
 * numeric_round would, without the round trip through numeric arithmetic.
 */
Datum
gpugb_scaled_to_numeric(int64 value, int scale, int dscale)
{
	if (dscale >= 0 && dscale <= scale && scale - dscale < GPUGB_POW10_COUNT &&
		value % gpugb_pow10[scale - dscale] == 0)
		return NumericGetDatum(int64_div_fast_to_numeric(value / gpugb_pow10[scale - dscale],
														 dscale));
	return gpugb_numeric_with_dscale(NumericGetDatum(int64_div_fast_to_numeric(value, scale)),
									 dscale);
}

/* numeric without a type modifier? (numeric(p, s) has a fixed scale) */
bool
gpugb_is_free_numeric(Node *expr)
{
	return exprType(expr) == NUMERICOID && exprTypmod(expr) < 0;
}

/* What a column's statistics say about its values. */
typedef struct FreeStats
{
	bool		known;			/* there are statistics */
	int			max_digits;		/* most significant fractional digits (min_scale) */
	int			max_dscale;		/* largest display scale */
	double		max_abs;		/* largest |value| */
} FreeStats;

static void value_stats(Datum value, FreeStats *fs);

static void
scan_slot(HeapTuple stats, int kind, FreeStats *fs)
{
	AttStatsSlot sslot;

	if (!get_attstatsslot(&sslot, stats, kind, InvalidOid, ATTSTATSSLOT_VALUES))
		return;
	for (int i = 0; i < sslot.nvalues; i++)
		value_stats(sslot.values[i], fs);
	free_attstatsslot(&sslot);
}

static void collect_stats(PlannerInfo *root, Node *expr, FreeStats *fs);

/*
 * +, - and * of numerics are exact, and their operands' statistics bound
 * the result's: fractional digits and display scales are the larger of the
 * two (+, -) or their sum (*), as add_var and mul_var give them.  So
 * a * b + c over analyzed columns gets a device scale as good as a column's.
 * False if expr is no such operation.
 */
static bool
arithmetic_stats(PlannerInfo *root, Node *expr, FreeStats *fs)
{
	Oid			funcid;
	List	   *args;
	FreeStats	a = {0},
				b = {0};

	if (IsA(expr, OpExpr))
	{
		funcid = ((OpExpr *) expr)->opfuncid;
		args = ((OpExpr *) expr)->args;
	}
	else if (IsA(expr, FuncExpr))
	{
		funcid = ((FuncExpr *) expr)->funcid;
		args = ((FuncExpr *) expr)->args;
	}
	else
		return false;
	switch (funcid)
	{
		case F_NUMERIC_UMINUS:
		case F_NUMERIC_UPLUS:
		case F_NUMERIC_ABS:
		case F_ABS_NUMERIC:
			collect_stats(root, linitial(args), fs);
			return true;
		case F_NUMERIC_ADD:
		case F_NUMERIC_SUB:
		case F_NUMERIC_MUL:
			break;
		default:
			return false;
	}
	collect_stats(root, linitial(args), &a);
	collect_stats(root, lsecond(args), &b);
	if (!a.known || !b.known)
		return true;			/* unknown */
	fs->known = true;
	if (funcid == F_NUMERIC_MUL)
	{
		fs->max_digits = a.max_digits + b.max_digits;
		fs->max_dscale = a.max_dscale + b.max_dscale;
		fs->max_abs = a.max_abs * b.max_abs;
	}
	else
	{
		fs->max_digits = Max(a.max_digits, b.max_digits);
		fs->max_dscale = Max(a.max_dscale, b.max_dscale);
		fs->max_abs = a.max_abs + b.max_abs;
	}
	return true;
}

/* A numeric value's share of FreeStats (NaN and Infinity add nothing). */
static void
value_stats(Datum value, FreeStats *fs)
{
	Numeric		num = DatumGetNumeric(value);

	if (numeric_is_nan(num) || numeric_is_inf(num))
		return;
	fs->max_digits = Max(fs->max_digits,
						 DatumGetInt32(DirectFunctionCall1(numeric_min_scale, value)));
	fs->max_dscale = Max(fs->max_dscale,
						 DatumGetInt32(DirectFunctionCall1(numeric_scale, value)));
	fs->max_abs = Max(fs->max_abs,
					  fabs(DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, value))));
}

/*
 * Statistics of a free numeric expression: a column's (or an indexed
 * expression's) through examine_variable; a constant's own; exact
 * arithmetic's from its operands'; for a CASE (an aggregate's FILTER becomes
 * one, aggcatalog.c) those of its results together.
 */
static void
collect_stats(PlannerInfo *root, Node *expr, FreeStats *fs)
{
	VariableStatData vardata;

	if (IsA(expr, Const) && ((Const *) expr)->constisnull)
		return;
	if (IsA(expr, Const) && ((Const *) expr)->consttype == NUMERICOID)
	{
		fs->known = true;
		value_stats(((Const *) expr)->constvalue, fs);
		return;
	}
	if (arithmetic_stats(root, expr, fs))
		return;
	if (IsA(expr, CaseExpr))
	{
		CaseExpr   *ce = (CaseExpr *) expr;
		ListCell   *lc;
		FreeStats	all = {true, 0, 0, 0};

		foreach(lc, ce->args)
		{
			FreeStats	one = {0};

			collect_stats(root, (Node *) lfirst_node(CaseWhen, lc)->result, &one);
			if (!one.known)
				return;
			all.max_digits = Max(all.max_digits, one.max_digits);
			all.max_dscale = Max(all.max_dscale, one.max_dscale);
			all.max_abs = Max(all.max_abs, one.max_abs);
		}
		if (ce->defresult)
		{
			FreeStats	one = {0};

			collect_stats(root, (Node *) ce->defresult, &one);
			if (!one.known && !(IsA(ce->defresult, Const) && ((Const *) ce->defresult)->constisnull))
				return;
			all.max_digits = Max(all.max_digits, one.max_digits);
			all.max_dscale = Max(all.max_dscale, one.max_dscale);
			all.max_abs = Max(all.max_abs, one.max_abs);
		}
		*fs = all;
		return;
	}
	examine_variable(root, expr, 0, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple))
	{
		fs->known = true;
		scan_slot(vardata.statsTuple, STATISTIC_KIND_MCV, fs);
		scan_slot(vardata.statsTuple, STATISTIC_KIND_HISTOGRAM, fs);
	}
	ReleaseVariableStats(vardata);
}

/*
 * S for a free numeric (see the header comment), from what its statistics
 * show: as many fractional digits as the largest magnitude allows with a
 * factor 100 of room, but at least the most significant fractional digits
 * sampled (min_scale: 2.5000000000000000, as avg writes it, needs one).
 * *unfit says whether some sampled values would have no word even so.
 */
static int
plan_scale(PlannerInfo *root, Node *expr, bool *unfit)
{
	FreeStats	fs = {0};
	int			scale = GPUGB_FREE_MAX_SCALE;
	/* extract(second | milliseconds | epoch ...): its display scale, at least */
	int			least = Max(gpugb_extract_key_dscale(expr), 0);

	*unfit = false;
	collect_stats(root, expr, &fs);
	if (!fs.known)
		return Max(GPUGB_FREE_DEFAULT_SCALE, least);
	fs.max_digits = Max(fs.max_digits, least);
	while (scale > fs.max_digits &&
		   fs.max_abs * 100.0 * (double) gpugb_pow10[scale] >= (double) GPUGB_FREE_VALUE_LIMIT)
		scale--;
	*unfit = fs.max_digits > scale || fs.max_dscale > GPUGB_FREE_MAX_DSCALE ||
		fs.max_abs * (double) gpugb_pow10[scale] >= (double) GPUGB_FREE_VALUE_LIMIT;
	return scale;
}

/* S for a free numeric key or input; -1 for other expressions. */
int
gpugb_free_numeric_plan_scale(PlannerInfo *root, Node *expr)
{
	bool		unfit;

	return gpugb_is_free_numeric(expr) ? plan_scale(root, expr, &unfit) : -1;
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

/*
 * NULL if a free numeric key or input can travel, else why not: where every
 * run would end in a fallback, PostgreSQL's plan is better from the start.
 */
const char *
gpugb_free_numeric_unsupported(PlannerInfo *root, Node *expr)
{
	bool		unfit;

	if (!gpugb_is_free_numeric(expr))
		return NULL;
	if (long_scale_walker(expr, NULL))
		return "a numeric computed by division, sqrt, exp, ln, log or power has "
			"data-dependent display scales that no device scale covers";
	plan_scale(root, expr, &unfit);
	if (unfit)
		return "the statistics of a numeric without a precision show values that no "
			"device scale holds exactly (too many digits)";
	return NULL;
}
