/*-------------------------------------------------------------------------
 * hostexpr.c
 *    Exact numeric arithmetic on fixed-point words, evaluated while strides
 *    are filled.
 *
 * An aggregate argument such as TPC-H Q1's
 *     l_extendedprice * (1 - l_discount) * (1 + l_tax)
 * over numeric(15, 2) columns has type numeric without a type modifier, so
 * it has no fixed scale of its own and PostgreSQL would compute it row by
 * row with its numeric functions (several allocations each).  But +, - and
 * * of numerics are exact, and their display scales follow from their
 * operands' (max for + and -, the sum for *); with every leaf a numeric(p,
 * s) column, an integer or a constant, each row's result has the same,
 * static scale.  So the child projects only the leaves, and the filler
 * computes the expression from their fixed-point words in int128 with
 * overflow checks (a result that does not fit a word stops the fill, and
 * PostgreSQL's plan answers).  The result is the exact value PostgreSQL
 * computes, with its display scale, at a few nanoseconds a row, in every
 * parallel worker.  NULL and NaN propagate as in numeric's operators.
 *
 * `agg(x) FILTER (WHERE c)` arrives as CASE WHEN c THEN x END (see
 * gpugb_aggref_input).  Where c is a comparison of an integer, date or
 * timestamp column with a constant (or an AND of them), each becomes a
 * FILTER_CMP step; any other c becomes a bool leaf and a FILTER step.
 *
 * Integer aggregate arguments are compiled the same way (scale 0): +, -, *
 * and unary minus of int2/int4/int8 operands, integer casts, and FILTERs
 * (count(*) FILTER (WHERE c) is CASE WHEN c THEN true END).  Each operator
 * is followed by a RANGE step for its result type, so a value that
 * PostgreSQL's operator would reject ("integer out of range") stops the
 * fill and PostgreSQL's plan raises the error.  What this saves is the
 * child's projection: with every leaf a plain column, the heap reader
 * (heapread.c) takes rows straight from the pages.  Measured locally on
 * 1e7 rows, one process: a cast, a FILTER or CASE projected by the child
 * doubled the fill's time against a plain column.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "common/int.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

#include "hostexpr.h"
#include "numeric_words.h"

#define MAX_SCALE 18

typedef struct Compiler
{
	bool		collecting;		/* only collect the leaves (no child columns yet) */
	List	   *child_columns;
	List	   *leaves;
	List	   *program;		/* Integer/String nodes, 4 per step */
	int			nsteps;
	int			conditional;	/* inside a CASE result (a FILTER) */
	bool		integer;		/* an integer (or bool) result: integer operators */
	int			operands;		/* inside an integer operator's or cast's operands */
} Compiler;

static void
emit(Compiler *c, GpugbHostExprOp op, int column, int scale, int64 value)
{
	c->nsteps++;
	if (c->collecting)
		return;
	c->program = lappend(c->program, makeInteger(op));
	c->program = lappend(c->program, makeInteger(column));
	c->program = lappend(c->program, makeInteger(scale));
	c->program = lappend(c->program, makeString(psprintf(INT64_FORMAT, value)));
}

/*
 * Makes expr a leaf (a column the child projects); *column gets its index
 * among the child's columns (-1 while only collecting leaves).
 */
static bool
leaf_column(Compiler *c, Expr *expr, int *column)
{
	ListCell   *lc;

	/*
	 * The child computes every leaf for every row.  Under a CASE (FILTER),
	 * PostgreSQL computes the result only where the condition holds, so a
	 * leaf there must be one that cannot raise an error: a plain column.
	 */
	if (c->conditional > 0 && !IsA(expr, Var))
		return false;

	if (!list_member(c->leaves, expr))
		c->leaves = lappend(c->leaves, expr);
	*column = -1;
	if (c->collecting)
		return true;
	foreach(lc, c->child_columns)
		if (equal(lfirst(lc), expr))
		{
			*column = foreach_current_index(lc);
			return true;
		}
	return false;
}

static bool
leaf(Compiler *c, Expr *expr)
{
	int			column;

	if (!leaf_column(c, expr, &column))
		return false;
	emit(c, GPUGB_HX_COLUMN, column, 0, 0);
	return true;
}

/* The bits of an integer type's values, 0 for other types. */
static int
integer_bits(Oid typid)
{
	return typid == INT2OID ? 16 : typid == INT4OID ? 32 : typid == INT8OID ? 64 : 0;
}

static bool
is_integer_type(Oid typid)
{
	return integer_bits(typid) > 0;
}

/* Types whose device word is their value as an integer (datum_to_word). */
static bool
is_integer_word_type(Oid typid)
{
	return is_integer_type(typid) || typid == DATEOID || typid == TIMESTAMPOID ||
		typid == TIMESTAMPTZOID;
}

static int64
integer_word_of(Const *cst)
{
	switch (cst->consttype)
	{
		case INT2OID:
			return DatumGetInt16(cst->constvalue);
		case INT4OID:
		case DATEOID:
			return DatumGetInt32(cst->constvalue);
		default:
			return DatumGetInt64(cst->constvalue);
	}
}

/* The integer operator funcid computes, with its kind of step; false if none. */
static bool
integer_operator(Oid funcid, GpugbHostExprOp *op)
{
	switch (funcid)
	{
		case F_INT2PL:
		case F_INT4PL:
		case F_INT8PL:
		case F_INT24PL:
		case F_INT42PL:
		case F_INT28PL:
		case F_INT82PL:
		case F_INT48PL:
		case F_INT84PL:
			*op = GPUGB_HX_ADD;
			return true;
		case F_INT2MI:
		case F_INT4MI:
		case F_INT8MI:
		case F_INT24MI:
		case F_INT42MI:
		case F_INT28MI:
		case F_INT82MI:
		case F_INT48MI:
		case F_INT84MI:
			*op = GPUGB_HX_SUB;
			return true;
		case F_INT2MUL:
		case F_INT4MUL:
		case F_INT8MUL:
		case F_INT24MUL:
		case F_INT42MUL:
		case F_INT28MUL:
		case F_INT82MUL:
		case F_INT48MUL:
		case F_INT84MUL:
			*op = GPUGB_HX_MUL;
			return true;
		case F_INT2UM:
		case F_INT4UM:
		case F_INT8UM:
			*op = GPUGB_HX_NEG;
			return true;
		default:
			return false;
	}
}

/*
 * The comparison a two-argument operator makes of integer words, if it
 * is one: the integer btree family's (every int2/int4/int8 pairing) and
 * its negator for <>, or date's, timestamp's and timestamptz's own.
 */
static bool
word_comparison(OpExpr *op, GpugbHostExprCmp *cmp)
{
	static const GpugbHostExprCmp by_strategy[] = {
		GPUGB_HX_LT, GPUGB_HX_LE, GPUGB_HX_EQ, GPUGB_HX_GE, GPUGB_HX_GT
	};
	Oid			left = exprType(linitial(op->args));
	Oid			right = exprType(lsecond(op->args));
	int			strategy;

	if (is_integer_type(left) && is_integer_type(right))
	{
		Oid			negator = get_negator(op->opno);

		strategy = get_op_opfamily_strategy(op->opno, INTEGER_BTREE_FAM_OID);
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
	set_opfuncid(op);
	switch (op->opfuncid)
	{
		case F_DATE_LT:
		case F_TIMESTAMP_LT:
		case F_TIMESTAMPTZ_LT:
			*cmp = GPUGB_HX_LT;
			return true;
		case F_DATE_LE:
		case F_TIMESTAMP_LE:
		case F_TIMESTAMPTZ_LE:
			*cmp = GPUGB_HX_LE;
			return true;
		case F_DATE_EQ:
		case F_TIMESTAMP_EQ:
		case F_TIMESTAMPTZ_EQ:
			*cmp = GPUGB_HX_EQ;
			return true;
		case F_DATE_GE:
		case F_TIMESTAMP_GE:
		case F_TIMESTAMPTZ_GE:
			*cmp = GPUGB_HX_GE;
			return true;
		case F_DATE_GT:
		case F_TIMESTAMP_GT:
		case F_TIMESTAMPTZ_GT:
			*cmp = GPUGB_HX_GT;
			return true;
		case F_DATE_NE:
		case F_TIMESTAMP_NE:
		case F_TIMESTAMPTZ_NE:
			*cmp = GPUGB_HX_NE;
			return true;
		default:
			return false;
	}
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

/*
 * Is cond a comparison of a plain column with a non-null constant of
 * integer words, or an AND of such?  Then *column, *cmp and *value
 * describe its first (the caller walks an AND's arguments).  Nothing is
 * emitted: a condition that is not one stays a bool leaf whole.
 */
static bool
column_comparison(Expr *cond, Var **column, GpugbHostExprCmp *cmp, int64 *value)
{
	OpExpr	   *op;
	Expr	   *left,
			   *right;

	if (!IsA(cond, OpExpr) || list_length(((OpExpr *) cond)->args) != 2)
		return false;
	op = (OpExpr *) cond;
	if (!word_comparison(op, cmp))
		return false;
	left = linitial(op->args);
	right = lsecond(op->args);
	if (IsA(left, Const) && IsA(right, Var))
	{
		Expr	   *swap = left;

		left = right;
		right = swap;
		*cmp = commuted(*cmp);
	}
	if (!IsA(left, Var) || !IsA(right, Const) || ((Const *) right)->constisnull)
		return false;
	*column = (Var *) left;
	*value = integer_word_of((Const *) right);
	return true;
}

static bool
simple_condition(Expr *cond)
{
	Var		   *column;
	GpugbHostExprCmp cmp;
	int64		value;
	ListCell   *lc;

	if (IsA(cond, BoolExpr) && ((BoolExpr *) cond)->boolop == AND_EXPR)
	{
		foreach(lc, ((BoolExpr *) cond)->args)
			if (!simple_condition(lfirst(lc)))
				return false;
		return true;
	}
	return column_comparison(cond, &column, &cmp, &value);
}

/* FILTER_CMP steps for a simple_condition: NULL or false leaves the row out. */
static bool
emit_condition(Compiler *c, Expr *cond)
{
	Var		   *column;
	GpugbHostExprCmp cmp;
	int64		value;
	int			index;
	ListCell   *lc;

	if (IsA(cond, BoolExpr))
	{
		foreach(lc, ((BoolExpr *) cond)->args)
			if (!emit_condition(c, lfirst(lc)))
				return false;
		return true;
	}
	if (!column_comparison(cond, &column, &cmp, &value) ||
		!leaf_column(c, (Expr *) column, &index))
		return false;
	emit(c, GPUGB_HX_FILTER_CMP, index, cmp, value);
	return true;
}

/*
 * An integer operand or operator (Compiler.integer): false if not one this
 * file computes.
 */
static bool compile(Compiler *c, Expr *expr, int *scale);

static bool
compile_integer(Compiler *c, Expr *expr)
{
	Oid			type = exprType((Node *) expr);
	int			bits = integer_bits(type);
	int			scale;
	ListCell   *lc;

	if (IsA(expr, Var) && (bits > 0 || type == BOOLOID))
		return leaf(c, expr);
	if (IsA(expr, Const) && (bits > 0 || type == BOOLOID) && !((Const *) expr)->constisnull)
	{
		Const	   *cst = (Const *) expr;

		emit(c, GPUGB_HX_CONST, 0, 0,
			 type == BOOLOID ? (DatumGetBool(cst->constvalue) ? 1 : 0) : integer_word_of(cst));
		return true;
	}
	if (bits == 0)
		return false;
	if (IsA(expr, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) expr;
		GpugbHostExprOp step;

		set_opfuncid(op);
		if (list_length(op->args) == 1 &&
			(op->opfuncid == F_INT2UP || op->opfuncid == F_INT4UP || op->opfuncid == F_INT8UP))
			return compile(c, linitial(op->args), &scale);
		if (!integer_operator(op->opfuncid, &step) ||
			list_length(op->args) != (step == GPUGB_HX_NEG ? 1 : 2))
			return false;
		c->operands++;
		foreach(lc, op->args)
			if (!compile(c, lfirst(lc), &scale))
				return false;
		c->operands--;
		emit(c, step, 0, 0, 0);
		emit(c, GPUGB_HX_RANGE, 0, bits, 0);
		return true;
	}
	if (IsA(expr, FuncExpr) && list_length(((FuncExpr *) expr)->args) == 1)
	{
		FuncExpr   *func = (FuncExpr *) expr;
		bool		widening;
		bool		ok;

		switch (func->funcid)
		{
			case F_INT8_INT4:
			case F_INT8_INT2:
			case F_INT4_INT2:
				widening = true;	/* the value as it is */
				break;
			case F_INT4_INT8:
			case F_INT2_INT8:
			case F_INT2_INT4:
				widening = false;	/* checked against the narrower type */
				break;
			default:
				return false;
		}
		c->operands++;
		ok = compile(c, linitial(func->args), &scale);
		c->operands--;
		if (!ok)
			return false;
		if (!widening)
			emit(c, GPUGB_HX_RANGE, 0, bits, 0);
		return true;
	}
	return false;
}

/* Compiles expr; *scale gets its display scale.  False if not ours. */
static bool
compile(Compiler *c, Expr *expr, int *scale)
{
	if (c->nsteps >= GPUGB_HOSTEXPR_MAX_STEPS)
		return false;

	if (c->integer && !IsA(expr, CaseExpr))
	{
		*scale = 0;
		return compile_integer(c, expr);
	}
	/*
	 * A FILTER ends the evaluation with NULL at once.  PostgreSQL computes
	 * every operand of an integer operator before its strictness makes the
	 * result NULL, and an operand can raise "integer out of range": so a
	 * CASE only at the top of an integer argument, where nothing else is
	 * left to compute.
	 */
	if (c->integer && c->operands > 0)
		return false;

	/* a numeric(p <= 18, s) value: a leaf with a fixed scale */
	if (exprType((Node *) expr) == NUMERICOID &&
		gpugb_column_type(NUMERICOID, exprTypmod((Node *) expr), false).kind == GPUGB_VALUE_NUMERIC &&
		!IsA(expr, Const))
	{
		*scale = gpugb_numeric_scale(exprTypmod((Node *) expr));
		return leaf(c, expr);
	}

	if (IsA(expr, Const))
	{
		Const	   *cst = (Const *) expr;
		int64		word;

		if (cst->consttype != NUMERICOID || cst->constisnull ||
			numeric_is_nan(DatumGetNumeric(cst->constvalue)) ||
			numeric_is_inf(DatumGetNumeric(cst->constvalue)))
			return false;		/* (numeric_scale is NULL for them) */
		*scale = DatumGetInt32(DirectFunctionCall1(numeric_scale, cst->constvalue));
		if (*scale > MAX_SCALE ||
			!gpugb_numeric_to_word(cst->constvalue, *scale, &word) ||
			word == GPUGB_NUMERIC_NAN_WORD)
			return false;
		emit(c, GPUGB_HX_CONST, 0, *scale, word);
		return true;
	}

	if (IsA(expr, FuncExpr))
	{
		FuncExpr   *func = (FuncExpr *) expr;

		/* integer -> numeric: the integer is a leaf of scale 0 */
		if ((func->funcid == F_NUMERIC_INT2 || func->funcid == F_NUMERIC_INT4 ||
			 func->funcid == F_NUMERIC_INT8) && list_length(func->args) == 1 &&
			is_integer_type(exprType(linitial(func->args))))
		{
			*scale = 0;
			return leaf(c, linitial(func->args));
		}
		return false;
	}

	if (IsA(expr, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) expr;
		int			left,
					right;

		set_opfuncid(op);
		if (list_length(op->args) == 1)
		{
			if (op->opfuncid != F_NUMERIC_UMINUS && op->opfuncid != F_NUMERIC_UPLUS)
				return false;
			if (!compile(c, linitial(op->args), scale))
				return false;
			if (op->opfuncid == F_NUMERIC_UMINUS)
				emit(c, GPUGB_HX_NEG, 0, 0, 0);
			return true;
		}
		if (list_length(op->args) != 2 ||
			(op->opfuncid != F_NUMERIC_ADD && op->opfuncid != F_NUMERIC_SUB &&
			 op->opfuncid != F_NUMERIC_MUL))
			return false;
		if (!compile(c, linitial(op->args), &left) || !compile(c, lsecond(op->args), &right))
			return false;
		if (op->opfuncid == F_NUMERIC_MUL)
		{
			*scale = left + right;
			emit(c, GPUGB_HX_MUL, 0, 0, 0);
		}
		else
		{
			*scale = Max(left, right);
			/* the operands' scales are known here: align them by constant shifts */
			emit(c, op->opfuncid == F_NUMERIC_ADD ? GPUGB_HX_ADD : GPUGB_HX_SUB,
				 *scale - left, *scale - right, 0);
		}
		return *scale <= MAX_SCALE;
	}

	if (IsA(expr, CaseExpr))
	{
		CaseExpr   *cs = (CaseExpr *) expr;
		CaseWhen   *when;

		/* CASE WHEN cond THEN x END: a FILTER */
		if (cs->arg != NULL || list_length(cs->args) != 1 ||
			!IsA(cs->defresult, Const) || !((Const *) cs->defresult)->constisnull)
			return false;
		when = linitial_node(CaseWhen, cs->args);
		if (exprType((Node *) when->expr) != BOOLOID)
			return false;
		/*
		 * A column compared with constants: checked first, so that a row
		 * left out computes nothing (PostgreSQL does not compute the result
		 * either: no overflow to stop the fill for).
		 */
		if (simple_condition(when->expr))
		{
			if (!emit_condition(c, when->expr))
				return false;
			c->conditional++;
			if (!compile(c, when->result, scale))
				return false;
			c->conditional--;
			return true;
		}
		c->conditional++;
		if (!compile(c, when->result, scale))
			return false;
		c->conditional--;
		/* the condition itself is computed for every row, as PostgreSQL does */
		if (!leaf(c, when->expr))
			return false;
		/* leaf() emitted a COLUMN step for the condition: make it the FILTER */
		if (c->child_columns != NULL)
		{
			int			n = list_length(c->program);

			list_nth_cell(c->program, n - 4)->ptr_value = makeInteger(GPUGB_HX_FILTER);
		}
		return true;
	}
	return false;
}

/*
 * Is expr (an aggregate argument of type numeric without a usable type
 * modifier) exact fixed-point arithmetic over leaves the child can
 * project?  If so, appends the leaves to *leaves (once each).
 */
/* An integer result: integer (or count(*) FILTER's bool) arithmetic. */
static bool
integer_result(Expr *expr)
{
	Oid			type = exprType((Node *) expr);

	return is_integer_type(type) || type == BOOLOID;
}

bool
gpugb_hostexpr_leaves(Expr *expr, List **leaves)
{
	Compiler	c = {0};
	int			scale;
	ListCell   *lc;

	c.collecting = true;
	c.integer = integer_result(expr);
	if ((!c.integer && exprType((Node *) expr) != NUMERICOID) ||
		!compile(&c, expr, &scale) || c.nsteps > GPUGB_HOSTEXPR_MAX_STEPS)
		return false;
	/*
	 * One step: a lone leaf is a column the child projects anyway; only an
	 * integer program of a leaf under a cast, or of one constant, is worth it.
	 */
	if (c.nsteps < 2 && (!c.integer || list_member(c.leaves, expr)))
		return false;
	foreach(lc, c.leaves)
		if (!list_member(*leaves, lfirst(lc)))
			*leaves = lappend(*leaves, lfirst(lc));
	return true;
}

/* The program of expr over child_columns (4 nodes per step), or NIL. */
List *
gpugb_hostexpr_compile(Expr *expr, List *child_columns, int *scale)
{
	Compiler	c = {0};

	c.child_columns = child_columns;
	c.integer = integer_result(expr);
	if (!compile(&c, expr, scale))
		elog(ERROR, "gpugb: an aggregate argument's leaves are not among the input columns");
	return c.program;
}

/*
 * Rewrites the common step sequences into fused steps, in place: a
 * constant and a column combined (1 - l_discount: the constant scaled
 * once here), and a product with a column.  Sequences whose constant
 * would overflow when scaled stay as they are.
 */
static void
fuse_steps(GpugbHostExpr *hx)
{
	int			out = 0;

	for (int i = 0; i < hx->nsteps; i++)
	{
		const GpugbHostExprStep *s = &hx->steps[i];
		GpugbHostExprStep fused;
		int64		scaled;

		if (i + 2 < hx->nsteps && s[0].op == GPUGB_HX_CONST && s[1].op == GPUGB_HX_COLUMN &&
			(s[2].op == GPUGB_HX_ADD || s[2].op == GPUGB_HX_SUB) &&
			!pg_mul_s64_overflow(s[0].value, gpugb_pow10[s[2].column], &scaled))
		{
			fused.op = s[2].op == GPUGB_HX_ADD ? GPUGB_HX_CONST_ADD_COL : GPUGB_HX_CONST_SUB_COL;
			fused.column = s[1].column;
			fused.scale = s[2].scale;
			fused.value = scaled;
			i += 2;
		}
		else if (i + 1 < hx->nsteps && s[0].op == GPUGB_HX_COLUMN && s[1].op == GPUGB_HX_MUL)
		{
			fused.op = GPUGB_HX_MUL_COL;
			fused.column = s[0].column;
			fused.scale = 0;
			fused.value = 0;
			i += 1;
		}
		else
			fused = *s;
		hx->steps[out++] = fused;	/* out <= i: nothing unread is overwritten */
	}
	hx->nsteps = out;
}

void
gpugb_hostexpr_decode(List *program, int scale, bool integer, GpugbHostExpr *hx)
{
	hx->nsteps = list_length(program) / 4;
	hx->scale = scale;
	hx->integer = integer;
	if (hx->nsteps < 1 || hx->nsteps > GPUGB_HOSTEXPR_MAX_STEPS)
		elog(ERROR, "gpugb: host expression of %d steps", hx->nsteps);
	for (int i = 0; i < hx->nsteps; i++)
	{
		hx->steps[i].op = intVal(list_nth(program, 4 * i));
		hx->steps[i].column = intVal(list_nth(program, 4 * i + 1));
		hx->steps[i].scale = intVal(list_nth(program, 4 * i + 2));
		hx->steps[i].value = pg_strtoint64(strVal(list_nth(program, 4 * i + 3)));
	}
	fuse_steps(hx);
}


typedef enum EvalStatus
{
	EVAL_OK,
	EVAL_NULL,
	EVAL_OVERFLOW
} EvalStatus;

/*
 * A child column's word as an operand: NULL marks the result NULL (the
 * word is then unused), NaN (of a numeric) marks it NaN and counts as 0.
 */
static inline int64
column_word(int column, const int64 *words, const bool *nulls,
			const GpugbColumnType *column_types, bool *any_null, bool *nan)
{
	int64		w = words[column];

	if (nulls[column])
		*any_null = true;
	else if (w == GPUGB_NUMERIC_NAN_WORD && column_types[column].kind == GPUGB_VALUE_NUMERIC)
	{
		*nan = true;
		w = 0;
	}
	return w;
}

static inline bool
compare_words(int64 word, int64 value, int cmp)
{
	switch ((GpugbHostExprCmp) cmp)
	{
		case GPUGB_HX_LT:
			return word < value;
		case GPUGB_HX_LE:
			return word <= value;
		case GPUGB_HX_EQ:
			return word == value;
		case GPUGB_HX_GE:
			return word >= value;
		case GPUGB_HX_GT:
			return word > value;
		case GPUGB_HX_NE:
			return word != value;
	}
	return false;
}

/*
 * The evaluator, once per integer type T: int64 first (fast; nearly every
 * row), int128 when an int64 step overflows.  A macro, so the two cannot
 * drift apart.
 */
#define DEFINE_EVAL(NAME, T) \
static EvalStatus \
NAME(const GpugbHostExpr *hx, const int64 *words, const bool *nulls, \
	 const GpugbColumnType *column_types, T *result, bool *nan) \
{ \
	T			stack[GPUGB_HOSTEXPR_MAX_STEPS]; \
	int			top = 0; \
	bool		any_null = false; \
\
	*nan = false; \
	for (int i = 0; i < hx->nsteps; i++) \
	{ \
		const GpugbHostExprStep *step = &hx->steps[i]; \
\
		switch (step->op) \
		{ \
			case GPUGB_HX_COLUMN: \
				stack[top++] = column_word(step->column, words, nulls, column_types, \
										   &any_null, nan); \
				break; \
			case GPUGB_HX_CONST_ADD_COL: \
			case GPUGB_HX_CONST_SUB_COL: \
			{ \
				T			b = column_word(step->column, words, nulls, column_types, \
											&any_null, nan); \
				T			a = step->value; \
\
				if ((step->scale > 0 && \
					 __builtin_mul_overflow(b, (T) gpugb_pow10[step->scale], &b)) || \
					(step->op == GPUGB_HX_CONST_ADD_COL ? __builtin_add_overflow(a, b, &a) : \
					 __builtin_sub_overflow(a, b, &a))) \
					return EVAL_OVERFLOW; \
				stack[top++] = a; \
				break; \
			} \
			case GPUGB_HX_MUL_COL: \
				if (__builtin_mul_overflow(stack[top - 1], \
										   (T) column_word(step->column, words, nulls, \
														   column_types, &any_null, nan), \
										   &stack[top - 1])) \
					return EVAL_OVERFLOW; \
				break; \
			case GPUGB_HX_CONST: \
				stack[top++] = step->value; \
				break; \
			case GPUGB_HX_NEG: \
				if (__builtin_sub_overflow((T) 0, stack[top - 1], &stack[top - 1])) \
					return EVAL_OVERFLOW; \
				break; \
			case GPUGB_HX_ADD: \
			case GPUGB_HX_SUB: \
			{ \
				T			a = stack[top - 2]; \
				T			b = stack[top - 1]; \
\
				/* align the scales: shifts fixed when compiled (at most 18) */ \
				if ((step->column > 0 && \
					 __builtin_mul_overflow(a, (T) gpugb_pow10[step->column], &a)) || \
					(step->scale > 0 && \
					 __builtin_mul_overflow(b, (T) gpugb_pow10[step->scale], &b))) \
					return EVAL_OVERFLOW; \
				if (step->op == GPUGB_HX_ADD ? __builtin_add_overflow(a, b, &a) : \
					__builtin_sub_overflow(a, b, &a)) \
					return EVAL_OVERFLOW; \
				top--; \
				stack[top - 1] = a; \
				break; \
			} \
			case GPUGB_HX_MUL: \
				if (__builtin_mul_overflow(stack[top - 2], stack[top - 1], &stack[top - 2])) \
					return EVAL_OVERFLOW; \
				top--; \
				break; \
			case GPUGB_HX_FILTER: \
				/* CASE WHEN c THEN x END: NULL unless c is true */ \
				if (nulls[step->column] || words[step->column] == 0) \
					return EVAL_NULL; \
				break; \
			case GPUGB_HX_FILTER_CMP: \
				if (nulls[step->column] || \
					!compare_words(words[step->column], step->value, step->scale)) \
					return EVAL_NULL; \
				break; \
			case GPUGB_HX_RANGE: \
				/* an integer operator's result type: PostgreSQL raises an ERROR beyond */ \
				if (step->scale < (int) (8 * sizeof(T)) && \
					(stack[top - 1] < -((T) 1 << (step->scale - 1)) || \
					 stack[top - 1] > ((T) 1 << (step->scale - 1)) - 1)) \
					return EVAL_OVERFLOW; \
				break; \
		} \
	} \
	Assert(top == 1); \
	*result = stack[0]; \
	return any_null ? EVAL_NULL : EVAL_OK; \
}

DEFINE_EVAL(eval_int64, int64)
DEFINE_EVAL(eval_int128, int128)

/*
 * Evaluates the expression over one row of the child: words/nulls are its
 * columns after the keys, as device words.  Returns false if the result
 * does not fit a word; else *word or *result_isnull.  NULL and NaN
 * propagate as in numeric's operators (NULL first).
 */
bool
gpugb_hostexpr_eval(const GpugbHostExpr *hx, const int64 *words, const bool *nulls,
					const GpugbColumnType *column_types, int64 *word, bool *result_isnull)
{
	int64		v64;
	int128		v128;
	bool		nan;
	EvalStatus	status = eval_int64(hx, words, nulls, column_types, &v64, &nan);

	if (status == EVAL_OVERFLOW)
	{
		status = eval_int128(hx, words, nulls, column_types, &v128, &nan);
		if (status == EVAL_OVERFLOW)
			return false;		/* beyond int128 on the way: PostgreSQL's plan answers */
		if (status == EVAL_OK && !nan &&
			(hx->integer ? (v128 < PG_INT64_MIN || v128 > PG_INT64_MAX) :
			 (v128 <= -(int128) gpugb_pow10[MAX_SCALE] || v128 >= (int128) gpugb_pow10[MAX_SCALE])))
			return false;
		v64 = (int64) v128;
	}
	*result_isnull = status == EVAL_NULL;
	if (status == EVAL_NULL)
		return true;
	if (nan)
	{
		*word = GPUGB_NUMERIC_NAN_WORD;
		return true;
	}
	if (!hx->integer && (v64 <= -gpugb_pow10[MAX_SCALE] || v64 >= gpugb_pow10[MAX_SCALE]))
		return false;
	*word = v64;
	return true;
}

/*
 * Does this aggregate input need computing by the filler: a numeric with
 * no usable scale of its own that is fixed-point arithmetic over leaves,
 * or an integer (bool) expression over leaves that is not a leaf itself?
 */
bool
gpugb_input_needs_hostexpr(Expr *input)
{
	List	   *leaves = NIL;

	/* integer arithmetic, casts and FILTERs over plain columns */
	if (integer_result(input))
		return !IsA(input, Var) && gpugb_hostexpr_leaves(input, &leaves);
	/* without a fixed scale (free numerics travel too, but slower, via the child) */
	return exprType((Node *) input) == NUMERICOID &&
		gpugb_column_type(NUMERICOID, exprTypmod((Node *) input), false).kind !=
		GPUGB_VALUE_NUMERIC &&
		gpugb_hostexpr_leaves(input, &leaves);
}

/*
 * The columns the input child projects after the keys: each input itself,
 * or, for one the filler computes, its leaves; each once.
 */
List *
gpugb_child_columns(List *inputs)
{
	List	   *columns = NIL;
	ListCell   *lc;

	foreach(lc, inputs)
	{
		Expr	   *input = lfirst(lc);

		if (gpugb_input_needs_hostexpr(input))
			gpugb_hostexpr_leaves(input, &columns);
		else if (!list_member(columns, input))
			columns = lappend(columns, input);
	}
	return columns;
}
