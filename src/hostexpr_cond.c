/*-------------------------------------------------------------------------
 * hostexpr_cond.c
 *    Conditions of FILTERs and CASE tests compiled to truth steps for the
 *    stride filler (hostexpr.c compiles the programs they are part of).
 *
 * A CASE WHEN or a FILTER asks only whether its condition is
 * true, so a condition compiles to truth steps (1 true, 0 false or NULL)
 * where every part is one of: a plain column compared with a constant or
 * with another column of integer words (integers, dates, timestamps), a
 * numeric(p, s) column compared with a numeric constant, a float column
 * compared with a float constant or column, a column IN (or
 * NOT IN) a list of constants, a column IS [NOT] NULL, a bool column, a
 * bool constant; under AND and OR.  None of these can raise an error, so
 * computing every part for every row gives PostgreSQL's answer although
 * it stops at an AND's first false.  Any other condition is one bool
 * leaf, which the child computes whole (its own AND and OR short-circuit
 * as PostgreSQL's do).
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "common/int.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "utils/array.h"
#include "utils/date.h"
#include "utils/timestamp.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

#include "hostexpr_compiler.h"
#include "numeric_words.h"

/*
 * Comparison functions by what they compute: each row lists one type's (or
 * type pair's) <, <=, =, >=, > and <>, in GpugbHostExprCmp's order.
 */
typedef Oid ComparisonRow[6];

/* date's, time's, timestamp's and timestamptz's own: integer words */
static const ComparisonRow word_comparisons[] = {
	{F_DATE_LT, F_DATE_LE, F_DATE_EQ, F_DATE_GE, F_DATE_GT, F_DATE_NE},
	{F_TIME_LT, F_TIME_LE, F_TIME_EQ, F_TIME_GE, F_TIME_GT, F_TIME_NE},
	{F_TIMESTAMP_LT, F_TIMESTAMP_LE, F_TIMESTAMP_EQ, F_TIMESTAMP_GE, F_TIMESTAMP_GT,
	F_TIMESTAMP_NE},
	{F_TIMESTAMPTZ_LT, F_TIMESTAMPTZ_LE, F_TIMESTAMPTZ_EQ, F_TIMESTAMPTZ_GE, F_TIMESTAMPTZ_GT,
	F_TIMESTAMPTZ_NE},
};

static const ComparisonRow numeric_comparisons[] = {
	{F_NUMERIC_LT, F_NUMERIC_LE, F_NUMERIC_EQ, F_NUMERIC_GE, F_NUMERIC_GT, F_NUMERIC_NE},
};

/* float4/float8, any pairing */
static const ComparisonRow float_comparisons[] = {
	{F_FLOAT4LT, F_FLOAT4LE, F_FLOAT4EQ, F_FLOAT4GE, F_FLOAT4GT, F_FLOAT4NE},
	{F_FLOAT8LT, F_FLOAT8LE, F_FLOAT8EQ, F_FLOAT8GE, F_FLOAT8GT, F_FLOAT8NE},
	{F_FLOAT48LT, F_FLOAT48LE, F_FLOAT48EQ, F_FLOAT48GE, F_FLOAT48GT, F_FLOAT48NE},
	{F_FLOAT84LT, F_FLOAT84LE, F_FLOAT84EQ, F_FLOAT84GE, F_FLOAT84GT, F_FLOAT84NE},
};

/* date against timestamp and timestamp against date */
static const ComparisonRow date_timestamp_comparisons[] = {
	{F_DATE_LT_TIMESTAMP, F_DATE_LE_TIMESTAMP, F_DATE_EQ_TIMESTAMP, F_DATE_GE_TIMESTAMP,
	F_DATE_GT_TIMESTAMP, F_DATE_NE_TIMESTAMP},
	{F_TIMESTAMP_LT_DATE, F_TIMESTAMP_LE_DATE, F_TIMESTAMP_EQ_DATE, F_TIMESTAMP_GE_DATE,
	F_TIMESTAMP_GT_DATE, F_TIMESTAMP_NE_DATE},
};

/* The comparison funcid makes, if it is one of the rows'. */
static bool
comparison_of(Oid funcid, const ComparisonRow *rows, int n_rows, GpugbHostExprCmp *cmp)
{
	for (int r = 0; r < n_rows; r++)
		for (int k = 0; k < 6; k++)
			if (rows[r][k] == funcid)
			{
				*cmp = (GpugbHostExprCmp) k;
				return true;
			}
	return false;
}

/*
 * The comparison a two-argument operator makes of integer words, if it
 * is one: the integer btree family's (every int2/int4/int8 pairing) and
 * its negator for <>, or date's, time's, timestamp's and timestamptz's own.
 */
static bool
word_comparison(Oid opno, Oid left, Oid right, GpugbHostExprCmp *cmp)
{
	static const GpugbHostExprCmp by_strategy[] = {
		GPUGB_HX_LT, GPUGB_HX_LE, GPUGB_HX_EQ, GPUGB_HX_GE, GPUGB_HX_GT
	};
	int			strategy;

	if (is_integer_type(left) && is_integer_type(right))
	{
		Oid			negator = get_negator(opno);

		strategy = get_op_opfamily_strategy(opno, INTEGER_BTREE_FAM_OID);
		if (strategy >= BTLessStrategyNumber && strategy <= BTGreaterStrategyNumber)
		{
			*cmp = by_strategy[strategy - 1];
			return true;
		}
		if (OidIsValid(negator) &&
			get_op_opfamily_strategy(negator, INTEGER_BTREE_FAM_OID) == BTEqualStrategyNumber)
		{
			*cmp = GPUGB_HX_NE;
			return true;
		}
		return false;
	}
	if (left != right || !is_integer_word_type(left))
		return false;
	return comparison_of(get_opcode(opno), word_comparisons, lengthof(word_comparisons), cmp);
}

/* a < b is b > a */
static GpugbHostExprCmp
commuted(GpugbHostExprCmp cmp)
{
	switch (cmp)
	{
		case GPUGB_HX_LT:
			return GPUGB_HX_GT;
		case GPUGB_HX_LE:
			return GPUGB_HX_GE;
		case GPUGB_HX_GE:
			return GPUGB_HX_LE;
		case GPUGB_HX_GT:
			return GPUGB_HX_LT;
		default:
			return cmp;
	}
}

/* The plain column of a comparison with a constant; the comparison turned to column OP const. */
static bool
column_and_const(Expr *left, Expr *right, GpugbHostExprCmp *cmp, Var **column, Const **cst)
{
	if (IsA(left, Const) && IsA(right, Var))
	{
		Expr	   *swap = left;

		left = right;
		right = swap;
		*cmp = commuted(*cmp);
	}
	if (!IsA(left, Var) || !IsA(right, Const))
		return false;
	*column = (Var *) left;
	*cst = (Const *) right;
	return true;
}

static bool compile_truth(Compiler *c, Expr *cond);

/*
 * column OP c where the column's word x stands for x * unit and c for the
 * integer word: x < c / unit iff x < ceil(c / unit), x <= c / unit iff x <=
 * floor(c / unit), and so on; x = c / unit is false and x <> c / unit true
 * (for non-NULL x) where unit does not divide c.  step: the truth step
 * that compares x (TRUTH_CMP, or TRUTH_NUMERIC_CMP with its NaN).
 */
static bool
compile_scaled_comparison(Compiler *c, Var *column, GpugbHostExprCmp cmp, int64 word,
						  int64 unit, GpugbHostExprOp step)
{
	int64		rest = word % unit;
	int64		floor_bound = word / unit - (rest < 0 ? 1 : 0);
	int64		ceil_bound = word / unit + (rest > 0 ? 1 : 0);
	int			index;

	if (rest != 0 && cmp == GPUGB_HX_EQ)
	{
		emit(c, GPUGB_HX_CONST, 0, 0, 0);
		return true;
	}
	if (!leaf_column(c, (Expr *) column, &index))
		return false;
	if (rest != 0 && cmp == GPUGB_HX_NE)
		emit(c, GPUGB_HX_TRUTH_NULL, index, 0, 0);
	else
		emit(c, step, index, cmp,
			 (cmp == GPUGB_HX_LT || cmp == GPUGB_HX_GE) ? ceil_bound : floor_bound);
	return true;
}

/*
 * numeric(p, s) column OP numeric constant.  The column's word is its
 * value times 10^s exactly; the constant c, at its own scale, becomes a
 * bound at scale s: x < c iff x < ceil(c), x <= c iff x <= floor(c), and
 * so on; x = c is false and x <> c true (for non-NULL x) when c has
 * digits beyond s.  A NaN column is above every number (numeric_cmp).
 */
static bool
compile_numeric_comparison(Compiler *c, Var *column, GpugbHostExprCmp cmp, Const *cst)
{
	Numeric		num;
	int			column_scale;
	int			const_scale;
	int64		word,
				bound;
	int			index;

	/*
	 * Up to 18 digits: every value has a word (numeric(p, s) holds no
	 * infinity), so the condition adds no reason to fall back; wider
	 * columns are compared by the child.
	 */
	if (gpugb_column_type(NUMERICOID, column->vartypmod, false).kind != GPUGB_VALUE_NUMERIC ||
		column->vartypmod < (int32) VARHDRSZ ||
		((column->vartypmod - VARHDRSZ) >> 16) > GPUGB_HOSTEXPR_MAX_SCALE ||
		cst->consttype != NUMERICOID || cst->constisnull)
		return false;
	num = DatumGetNumeric(cst->constvalue);
	if (numeric_is_nan(num) || numeric_is_inf(num))
		return false;
	column_scale = gpugb_numeric_scale(column->vartypmod);
	const_scale = DatumGetInt32(DirectFunctionCall1(numeric_scale, cst->constvalue));
	if (const_scale > GPUGB_HOSTEXPR_MAX_SCALE ||
		!gpugb_numeric_to_word(cst->constvalue, const_scale, &word) ||
		word == GPUGB_NUMERIC_NAN_WORD)
		return false;
	if (const_scale <= column_scale)
	{
		if (pg_mul_s64_overflow(word, gpugb_pow10[column_scale - const_scale], &bound))
			return false;
		if (!leaf_column(c, (Expr *) column, &index))
			return false;
		emit(c, GPUGB_HX_TRUTH_NUMERIC_CMP, index, cmp, bound);
		return true;
	}
	return compile_scaled_comparison(c, column, cmp, word, gpugb_pow10[const_scale - column_scale],
									 GPUGB_HX_TRUTH_NUMERIC_CMP);
}

/*
 * date column OP timestamp constant (date_lt_timestamp and kin): the date
 * d is compared as d * USECS_PER_DAY, so against the constant's day
 * bounds; a timestamp column OP date constant compares with the date's
 * midnight.  An infinite constant is left to the child; an infinite date
 * (the int32 extremes) falls beyond every finite bound, where PostgreSQL
 * puts it too.  timestamptz pairs depend on TimeZone: not here.
 */
static bool
compile_date_timestamp_comparison(Compiler *c, Var *column, GpugbHostExprCmp cmp, Const *cst)
{
	int			index;

	if (cst->constisnull)
	{
		emit(c, GPUGB_HX_CONST, 0, 0, 0);	/* NULL: never true */
		return true;
	}
	if (column->vartype == DATEOID && cst->consttype == TIMESTAMPOID)
	{
		Timestamp	t = DatumGetTimestamp(cst->constvalue);

		if (TIMESTAMP_NOT_FINITE(t))
			return false;
		return compile_scaled_comparison(c, column, cmp, t, USECS_PER_DAY, GPUGB_HX_TRUTH_CMP);
	}
	if (column->vartype == TIMESTAMPOID && cst->consttype == DATEOID)
	{
		DateADT		d = DatumGetDateADT(cst->constvalue);

		/* beyond the last timestamp: date2timestamp would not give its midnight */
		if (DATE_NOT_FINITE(d) || d >= TIMESTAMP_END_JULIAN - POSTGRES_EPOCH_JDATE)
			return false;
		if (!leaf_column(c, (Expr *) column, &index))
			return false;
		emit(c, GPUGB_HX_TRUTH_CMP, index, cmp, (int64) d * USECS_PER_DAY);
		return true;
	}
	return false;
}

/*
 * column OP column or column OP constant (either way round), by the truth
 * step for each (columns_step, const_step); the constant's word by
 * word_of.  A NULL constant is never true.
 */
static bool
compile_column_comparison(Compiler *c, Expr *left, Expr *right, GpugbHostExprCmp cmp,
						  GpugbHostExprOp columns_step, GpugbHostExprOp const_step,
						  int64 (*word_of) (Const *))
{
	Var		   *column;
	Const	   *cst;
	int			index,
				other;

	if (IsA(left, Var) && IsA(right, Var))
	{
		if (!leaf_column(c, left, &index) || !leaf_column(c, right, &other))
			return false;
		emit(c, columns_step, index, cmp, other);
		return true;
	}
	if (!column_and_const(left, right, &cmp, &column, &cst))
		return false;
	if (cst->constisnull)
	{
		emit(c, GPUGB_HX_CONST, 0, 0, 0);
		return true;
	}
	if (!leaf_column(c, (Expr *) column, &index))
		return false;
	emit(c, const_step, index, cmp, word_of(cst));
	return true;
}

/* A two-argument comparison operator's truth steps. */
static bool
compile_comparison(Compiler *c, OpExpr *op)
{
	Expr	   *left = linitial(op->args);
	Expr	   *right = lsecond(op->args);
	GpugbHostExprCmp cmp;
	Var		   *column;
	Const	   *cst;

	set_opfuncid(op);
	if (comparison_of(op->opfuncid, date_timestamp_comparisons,
					  lengthof(date_timestamp_comparisons), &cmp))
		return column_and_const(left, right, &cmp, &column, &cst) &&
			compile_date_timestamp_comparison(c, column, cmp, cst);
	if (comparison_of(op->opfuncid, numeric_comparisons, lengthof(numeric_comparisons), &cmp))
		return column_and_const(left, right, &cmp, &column, &cst) &&
			compile_numeric_comparison(c, column, cmp, cst);
	/*
	 * float: compared as doubles, which hold every float4 exactly (float48lt
	 * widens its float4 the same way), in float8_cmp_internal's order
	 */
	if (comparison_of(op->opfuncid, float_comparisons, lengthof(float_comparisons), &cmp))
		return compile_column_comparison(c, left, right, cmp, GPUGB_HX_TRUTH_FLOAT_CMP_COLUMNS,
										 GPUGB_HX_TRUTH_FLOAT_CMP, float_word_of);
	if (!word_comparison(op->opno, exprType((Node *) left), exprType((Node *) right), &cmp))
		return false;
	return compile_column_comparison(c, left, right, cmp, GPUGB_HX_TRUTH_CMP_COLUMNS,
									 GPUGB_HX_TRUTH_CMP, integer_word_of);
}

/*
 * column = ANY (constants) is an OR of equalities (a NULL element is never
 * the one that makes it true); column <> ALL (constants) an AND of
 * inequalities, never true with a NULL element.  Any comparison works
 * likewise.
 */
static bool
compile_array_comparison(Compiler *c, ScalarArrayOpExpr *sa)
{
	Expr	   *left = linitial(sa->args);
	Const	   *array = lsecond(sa->args);
	Oid			element_type;
	GpugbHostExprCmp cmp;
	ArrayType  *arr;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *elements;
	bool	   *element_nulls;
	int			n;
	int			index;
	int			emitted = 0;

	if (!IsA(left, Var) || !IsA(array, Const) || array->constisnull)
		return false;
	element_type = get_element_type(array->consttype);
	if (!OidIsValid(element_type) ||
		!word_comparison(sa->opno, exprType((Node *) left), element_type, &cmp))
		return false;
	arr = DatumGetArrayTypeP(array->constvalue);
	if (ARR_NDIM(arr) > 1)
		return false;
	get_typlenbyvalalign(element_type, &typlen, &typbyval, &typalign);
	deconstruct_array(arr, element_type, typlen, typbyval, typalign,
					  &elements, &element_nulls, &n);
	if (n > GPUGB_HOSTEXPR_MAX_STEPS)
		return false;
	for (int i = 0; i < n; i++)
		if (element_nulls[i] && !sa->useOr)
		{
			emit(c, GPUGB_HX_CONST, 0, 0, 0);	/* x <> ALL (..., NULL, ...) is never true */
			return true;
		}
	if (!leaf_column(c, left, &index))
		return false;
	for (int i = 0; i < n; i++)
	{
		Const	   *element;

		if (element_nulls[i])
			continue;			/* x = NULL is never true */
		element = makeConst(element_type, -1, InvalidOid, typlen, elements[i], false, typbyval);
		emit(c, GPUGB_HX_TRUTH_CMP, index, cmp, integer_word_of(element));
		emitted++;
	}
	if (emitted == 0)
		emit(c, GPUGB_HX_CONST, 0, 0, sa->useOr ? 0 : 1);	/* = ANY ('{}'): false */
	else if (emitted > 1)
		emit(c, sa->useOr ? GPUGB_HX_OR : GPUGB_HX_AND, 0, emitted, 0);
	return true;
}

/* Types a NULL test reads only the nullness of, whose words cost nothing. */
static bool
null_testable_type(Oid type)
{
	return is_integer_word_type(type) || type == BOOLOID || type == FLOAT4OID ||
		type == FLOAT8OID || type == TIMEOID;
}

/* Truth steps of cond (see above); false if it is not made of those parts. */
static bool
compile_truth(Compiler *c, Expr *cond)
{
	ListCell   *lc;

	if (c->nsteps >= GPUGB_HOSTEXPR_MAX_STEPS)
		return false;
	if (IsA(cond, BoolExpr))
	{
		BoolExpr   *b = (BoolExpr *) cond;

		if (b->boolop == NOT_EXPR)
			return false;		/* NOT NULL is NULL: a truth value cannot tell */
		foreach(lc, b->args)
			if (!compile_truth(c, lfirst(lc)))
				return false;
		emit(c, b->boolop == AND_EXPR ? GPUGB_HX_AND : GPUGB_HX_OR, 0, list_length(b->args), 0);
		return true;
	}
	if (IsA(cond, OpExpr) && list_length(((OpExpr *) cond)->args) == 2)
		return compile_comparison(c, (OpExpr *) cond);
	if (IsA(cond, ScalarArrayOpExpr))
		return compile_array_comparison(c, (ScalarArrayOpExpr *) cond);
	if (IsA(cond, NullTest))
	{
		NullTest   *nt = (NullTest *) cond;
		int			index;

		if (nt->argisrow || !IsA(nt->arg, Var) || !null_testable_type(exprType((Node *) nt->arg)) ||
			!leaf_column(c, nt->arg, &index))
			return false;
		emit(c, GPUGB_HX_TRUTH_NULL, index, nt->nulltesttype == IS_NULL ? 1 : 0, 0);
		return true;
	}
	if (IsA(cond, Var) && exprType((Node *) cond) == BOOLOID)
	{
		int			index;

		if (!leaf_column(c, cond, &index))
			return false;
		emit(c, GPUGB_HX_TRUTH_BOOL, index, 0, 0);
		return true;
	}
	if (IsA(cond, Const) && exprType((Node *) cond) == BOOLOID)
	{
		Const	   *cst = (Const *) cond;

		emit(c, GPUGB_HX_CONST, 0, 0, !cst->constisnull && DatumGetBool(cst->constvalue));
		return true;
	}
	return false;
}

/* Does cond compile to truth steps?  (A trial that emits nothing.) */
static bool
truth_compilable(Compiler *c, Expr *cond)
{
	Compiler	trial = *c;

	trial.collecting = true;
	trial.leaves = NIL;
	trial.program = NIL;
	return compile_truth(&trial, cond) && trial.nsteps <= GPUGB_HOSTEXPR_MAX_STEPS;
}

/*
 * A condition as one truth value: its truth steps, or a bool leaf the
 * child computes (only where PostgreSQL computes it for every row too).
 */
bool
gpugb_hx_compile_condition(Compiler *c, Expr *cond)
{
	int			index;

	if (truth_compilable(c, cond))
		return compile_truth(c, cond);
	if (!leaf_column(c, cond, &index))
		return false;
	emit(c, GPUGB_HX_TRUTH_BOOL, index, 0, 0);
	return true;
}

/*
 * A FILTER's condition: WHERE steps, which end the evaluation with NULL
 * where it is not true; an AND's parts each get their own, so the first
 * false one ends it.
 */
bool
gpugb_hx_compile_where(Compiler *c, Expr *cond)
{
	ListCell   *lc;

	if (IsA(cond, BoolExpr) && ((BoolExpr *) cond)->boolop == AND_EXPR &&
		truth_compilable(c, cond))
	{
		foreach(lc, ((BoolExpr *) cond)->args)
			if (!gpugb_hx_compile_where(c, lfirst(lc)))
				return false;
		return true;
	}
	if (!gpugb_hx_compile_condition(c, cond))
		return false;
	emit(c, GPUGB_HX_WHERE, 0, 0, 0);
	return true;
}

/*
 * A scan's quals (an implicit AND) as truth programs, one per qual in the
 * quals' order, over their columns (*columns, the plain Vars the programs'
 * column indexes refer to), for the heap reader to check each row without
 * the executor's expression interpreter, stopping at the first false as
 * ExecQual does; NIL unless every qual is made of truth steps (then none
 * of them can raise an error).
 */
List *
gpugb_hostexpr_compile_quals(List *quals, List **columns)
{
	Compiler	collect = {0};
	List	   *programs = NIL;
	ListCell   *lc;

	collect.collecting = true;
	collect.integer = true;
	foreach(lc, quals)
	{
		collect.nsteps = 0;		/* each qual is a program of its own */
		if (!truth_compilable(&collect, lfirst(lc)) || !compile_truth(&collect, lfirst(lc)))
			return NIL;
	}
	if (collect.leaves == NIL)
		return NIL;
	foreach(lc, quals)
	{
		Compiler	c = {0};

		c.child_columns = collect.leaves;
		c.integer = true;
		if (!compile_truth(&c, lfirst(lc)) || c.nsteps > GPUGB_HOSTEXPR_MAX_STEPS)
			return NIL;
		programs = lappend(programs, c.program);
	}
	*columns = collect.leaves;
	return programs;
}
