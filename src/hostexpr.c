/*-------------------------------------------------------------------------
 * hostexpr.c
 *    Aggregate arguments the stride filler computes from plain columns:
 *    exact numeric and integer arithmetic, FILTER and CASE conditions,
 *    CASE ... ELSE and COALESCE.  This file compiles them to a program at
 *    planning; hostexpr_eval.c runs it once per row.
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
 * gpugb_aggref_input).  Where c is made of comparisons of plain columns
 * with constants or with each other, IN lists, IS NULL tests and bool
 * columns under AND and OR (hostexpr_cond.c), it becomes truth
 * steps and a WHERE that ends the evaluation with NULL; any other c is a
 * bool leaf the child computes.
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
 *
 * CASE ... ELSE and COALESCE of integer results compute every arm and
 * keep one (SELECT, COALESCE steps), so an arm PostgreSQL would not
 * compute must be one that cannot raise an error (Compiler.conditional).
 * Float results are computed as PostgreSQL's float operators compute them
 * (float4 in single precision), date, time and timestamp results passed
 * through: a column's word, FILTERed, or picked by CASE ... ELSE or
 * COALESCE among columns and constants.  A numeric CASE ... ELSE or
 * COALESCE that is a whole aggregate argument or GROUP BY key packs each
 * arm with its own display scale (compile_arm); inside numeric arithmetic
 * the operators then work on packed words (compile_packed_arithmetic), each
 * row's display scale carried through them as numeric_add and numeric_mul
 * compute it, so the result shows the scale of the arms the row took.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "common/int.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

#include "hostexpr_compiler.h"
#include "numeric_words.h"

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
		case F_INT2DIV:
		case F_INT4DIV:
		case F_INT8DIV:
		case F_INT24DIV:
		case F_INT42DIV:
		case F_INT28DIV:
		case F_INT82DIV:
		case F_INT48DIV:
		case F_INT84DIV:
			*op = GPUGB_HX_DIV;
			return true;
		case F_INT2MOD:
		case F_INT4MOD:
		case F_INT8MOD:
			*op = GPUGB_HX_MOD;
			return true;
		default:
			return false;
	}
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
		/*
		 * A division where PostgreSQL may not compute it (CASE WHEN y <> 0
		 * THEN x / y ELSE 0 END): computed for every row, its division by
		 * zero would stop the fill every time; the child computes it.
		 */
		if ((step == GPUGB_HX_DIV || step == GPUGB_HX_MOD) && c->conditional > 0)
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

static bool is_filter_case(CaseExpr *cs);
static bool compile_arm(Compiler *c, Expr *arm, int *scale);

/* numeric +, -, * and unary -, + (their functions' oids) */
static bool
is_numeric_arithmetic(Expr *expr)
{
	OpExpr	   *op = (OpExpr *) expr;

	if (!IsA(expr, OpExpr))
		return false;
	set_opfuncid(op);
	return op->opfuncid == F_NUMERIC_ADD || op->opfuncid == F_NUMERIC_SUB ||
		op->opfuncid == F_NUMERIC_MUL || op->opfuncid == F_NUMERIC_UMINUS ||
		op->opfuncid == F_NUMERIC_UPLUS;
}

/*
 * Does expr choose among numeric values per row (a CASE ... ELSE or
 * COALESCE without a type modifier), itself or under numeric arithmetic?
 * Each row's result then has the display scale of the arms it took, so it
 * is computed on packed words (GPUGB_HX_PACKED_*), which carry it.
 */
static bool
has_numeric_choice(Expr *expr)
{
	ListCell   *lc;

	if (exprType((Node *) expr) != NUMERICOID ||
		gpugb_column_type(NUMERICOID, exprTypmod((Node *) expr), false).kind !=
		GPUGB_VALUE_NUMERIC_FREE)
		return false;
	if ((IsA(expr, CaseExpr) && !is_filter_case((CaseExpr *) expr)) || IsA(expr, CoalesceExpr))
		return true;
	if (!is_numeric_arithmetic(expr))
		return false;
	foreach(lc, ((OpExpr *) expr)->args)
		if (has_numeric_choice(lfirst(lc)))
			return true;
	return false;
}

/*
 * Numeric arithmetic over a per-row choice, on packed words: every operand
 * packed with its display scale (compile_arm), then the packed operator.
 * *scale is the largest display scale a row can get; the program's scale
 * (packed_scale) is kept at least that, so a product stays exact.
 */
static bool
compile_packed_arithmetic(Compiler *c, OpExpr *op, int *scale)
{
	int			left,
				right = 0;

	if (!compile_arm(c, linitial(op->args), &left))
		return false;
	if (list_length(op->args) == 1)
	{
		*scale = left;
		if (op->opfuncid == F_NUMERIC_UMINUS)
			emit(c, GPUGB_HX_PACKED_NEG, 0, 0, 0);
	}
	else
	{
		if (!compile_arm(c, lsecond(op->args), &right))
			return false;
		*scale = op->opfuncid == F_NUMERIC_MUL ? left + right : Max(left, right);
		emit(c, op->opfuncid == F_NUMERIC_ADD ? GPUGB_HX_PACKED_ADD :
			 op->opfuncid == F_NUMERIC_SUB ? GPUGB_HX_PACKED_SUB : GPUGB_HX_PACKED_MUL,
			 0, 0, 0);
	}
	c->packed_scale = Max(c->packed_scale, *scale);
	return *scale <= GPUGB_HOSTEXPR_MAX_PACKED_SCALE;
}

/*
 * One result of a CASE ... ELSE or argument of a COALESCE.  Where the
 * Compiler packs (a numeric result whose arms may differ in scale), the
 * arm is fixed-point arithmetic of its own scale, then packed with it as
 * its display scale: the row's result carries the scale of the arm it
 * takes, as PostgreSQL's does.
 */
static bool
compile_arm(Compiler *c, Expr *arm, int *scale)
{
	bool		packing = c->packing;
	bool		ok;

	/* an arm with a CASE or COALESCE inside its arithmetic packs as it goes */
	if (packing && has_numeric_choice(arm))
		return compile(c, arm, scale);
	c->packing = false;
	ok = compile(c, arm, scale);
	c->packing = packing;
	if (!ok || !packing)
		return ok;
	emit(c, GPUGB_HX_PACK, 0, *scale, 0);
	c->packed_scale = Max(c->packed_scale, *scale);
	return true;
}

/*
 * CASE WHEN c1 THEN r1 [WHEN c2 THEN r2 ...] ELSE d END as nested SELECTs.
 * Every result is computed for every row (SELECT then keeps one), and so
 * is every condition after the first, which PostgreSQL computes only where
 * the ones before are not true: Compiler.conditional holds them to parts
 * that cannot raise an error.  *max_scale gets the results' largest scale.
 */
static bool
compile_case_arms(Compiler *c, List *arms, int i, Expr *defresult, int *max_scale)
{
	CaseWhen   *when = list_nth_node(CaseWhen, arms, i);
	int			scale = 0,
				else_scale = 0;
	bool		ok;

	if (!gpugb_hx_compile_condition(c, when->expr))
		return false;
	c->conditional++;
	c->nonstrict++;
	ok = compile_arm(c, when->result, &scale) &&
		(i + 1 < list_length(arms) ? compile_case_arms(c, arms, i + 1, defresult, &else_scale) :
		 compile_arm(c, defresult, &else_scale));
	*max_scale = Max(scale, else_scale);
	c->conditional--;
	c->nonstrict--;
	if (!ok)
		return false;
	emit(c, GPUGB_HX_SELECT, 0, 0, 0);
	return true;
}

/* CASE WHEN c THEN x END, what agg(x) FILTER (WHERE c) becomes */
static bool
is_filter_case(CaseExpr *cs)
{
	return cs->arg == NULL && list_length(cs->args) == 1 && IsA(cs->defresult, Const) &&
		((Const *) cs->defresult)->constisnull;
}

static bool
compile_case(Compiler *c, CaseExpr *cs, int *scale)
{
	bool		filter_form = is_filter_case(cs);

	if (cs->arg != NULL)
		return false;			/* CASE x WHEN v: its tests are equalities of any type */

	/*
	 * CASE WHEN c THEN x END (a FILTER): the condition first, ending the
	 * evaluation with NULL where it is not true, so a row left out computes
	 * nothing, as in PostgreSQL.  Not where NULL is a value (nonstrict), and
	 * not inside an integer operator: PostgreSQL computes every operand
	 * before its strictness makes the result NULL, and an operand can raise
	 * "integer out of range".  There the SELECT form serves.
	 */
	if (filter_form && c->nonstrict == 0 && !(c->integer && c->operands > 0))
	{
		CaseWhen   *when = linitial_node(CaseWhen, cs->args);
		bool		ok;

		if (!gpugb_hx_compile_where(c, when->expr))
			return false;
		c->conditional++;
		ok = compile(c, when->result, scale);
		c->conditional--;
		return ok;
	}
	/* a numeric result's display scale depends on the arm each row takes: packed */
	if (!c->integer && !OidIsValid(c->passthrough) && !c->packing)
		return false;
	return compile_case_arms(c, cs->args, 0, cs->defresult, scale);
}

/*
 * COALESCE(a, b, ...): every argument computed, the first not NULL kept.
 * PostgreSQL computes b only where a is NULL, so the arguments after the
 * first are conditional.  Integer and passed-through results, and numeric
 * ones where the Compiler packs (each argument with its own display scale);
 * *max_scale gets the arguments' largest scale.
 */
static bool
compile_coalesce(Compiler *c, CoalesceExpr *ce, int *max_scale)
{
	int			scale = 0;
	bool		ok = true;
	ListCell   *lc;

	if (!c->integer && !OidIsValid(c->passthrough) && !c->packing)
		return false;
	c->nonstrict++;
	foreach(lc, ce->args)
	{
		if (foreach_current_index(lc) == 1)
			c->conditional++;
		ok = ok && compile_arm(c, lfirst(lc), &scale);
		*max_scale = Max(*max_scale, scale);
	}
	if (list_length(ce->args) > 1)
		c->conditional--;
	c->nonstrict--;
	if (!ok)
		return false;
	emit(c, GPUGB_HX_COALESCE, 0, list_length(ce->args), 0);
	return true;
}

/* float operators: the step and the precision they compute in (4: float4) */
static bool
float_operator(Oid funcid, GpugbHostExprOp *op, int *precision)
{
	*precision = 8;
	switch (funcid)
	{
		case F_FLOAT4PL:
			*precision = 4;
			/* FALLTHROUGH */
		case F_FLOAT8PL:
		case F_FLOAT48PL:
		case F_FLOAT84PL:
			*op = GPUGB_HX_FLOAT_ADD;
			return true;
		case F_FLOAT4MI:
			*precision = 4;
			/* FALLTHROUGH */
		case F_FLOAT8MI:
		case F_FLOAT48MI:
		case F_FLOAT84MI:
			*op = GPUGB_HX_FLOAT_SUB;
			return true;
		case F_FLOAT4MUL:
			*precision = 4;
			/* FALLTHROUGH */
		case F_FLOAT8MUL:
		case F_FLOAT48MUL:
		case F_FLOAT84MUL:
			*op = GPUGB_HX_FLOAT_MUL;
			return true;
		case F_FLOAT4DIV:
			*precision = 4;
			/* FALLTHROUGH */
		case F_FLOAT8DIV:
		case F_FLOAT48DIV:
		case F_FLOAT84DIV:
			*op = GPUGB_HX_FLOAT_DIV;
			return true;
		case F_FLOAT4UM:
		case F_FLOAT8UM:
			*op = GPUGB_HX_FLOAT_NEG;
			return true;
		default:
			return false;
	}
}

/*
 * Float arithmetic: +, -, *, / and unary minus of float4/float8 columns and
 * constants, float casts, and integer columns or constants cast to float,
 * each step as PostgreSQL's operator or cast computes it.
 */
static bool
compile_float(Compiler *c, Expr *expr)
{
	Oid			type = exprType((Node *) expr);
	ListCell   *lc;

	if (c->nsteps >= GPUGB_HOSTEXPR_MAX_STEPS)
		return false;
	if (IsA(expr, Var) && is_float_type(type))
		return leaf(c, expr);
	if (IsA(expr, Const) && is_float_type(type) && !((Const *) expr)->constisnull)
	{
		emit(c, GPUGB_HX_CONST, 0, 0, float_word_of((Const *) expr));
		return true;
	}
	if (IsA(expr, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) expr;
		GpugbHostExprOp step;
		int			precision;

		set_opfuncid(op);
		if (list_length(op->args) == 1 &&
			(op->opfuncid == F_FLOAT4UP || op->opfuncid == F_FLOAT8UP))
			return compile_float(c, linitial(op->args));
		if (!float_operator(op->opfuncid, &step, &precision) ||
			list_length(op->args) != (step == GPUGB_HX_FLOAT_NEG ? 1 : 2))
			return false;
		/* as for an integer division (compile_integer) */
		if (step == GPUGB_HX_FLOAT_DIV && c->conditional > 0)
			return false;
		foreach(lc, op->args)
			if (!compile_float(c, lfirst(lc)))
				return false;
		emit(c, step, 0, precision, 0);
		return true;
	}
	if (IsA(expr, FuncExpr) && list_length(((FuncExpr *) expr)->args) == 1)
	{
		FuncExpr   *func = (FuncExpr *) expr;
		Expr	   *arg = linitial(func->args);

		switch (func->funcid)
		{
			case F_FLOAT8_FLOAT4:
				return compile_float(c, arg);	/* exact */
			case F_FLOAT4_FLOAT8:
				if (!compile_float(c, arg))
					return false;
				emit(c, GPUGB_HX_FLOAT8_TO_FLOAT4, 0, 0, 0);
				return true;
			case F_FLOAT8_INT2:
			case F_FLOAT8_INT4:
			case F_FLOAT8_INT8:
			case F_FLOAT4_INT2:
			case F_FLOAT4_INT4:
			case F_FLOAT4_INT8:
				if (IsA(arg, Var) && is_integer_type(exprType((Node *) arg)))
				{
					if (!leaf(c, arg))
						return false;
				}
				else if (IsA(arg, Const) && is_integer_type(exprType((Node *) arg)) &&
						 !((Const *) arg)->constisnull)
					emit(c, GPUGB_HX_CONST, 0, 0, integer_word_of((Const *) arg));
				else
					return false;
				emit(c, GPUGB_HX_INT_TO_FLOAT, 0, type == FLOAT4OID ? 4 : 8, 0);
				return true;
			default:
				return false;
		}
	}
	return false;
}

/*
 * A passed-through result's operand: float arithmetic for a float result;
 * else a column of the result's type (date, time, timestamps) or a
 * constant, whose word is what the child's column of that type carries.
 */
static bool
compile_passthrough(Compiler *c, Expr *expr)
{
	if (is_float_type(c->passthrough))
		return compile_float(c, expr);
	if (exprType((Node *) expr) != c->passthrough)
		return false;
	if (IsA(expr, Var))
		return leaf(c, expr);
	if (!IsA(expr, Const) || ((Const *) expr)->constisnull)
		return false;
	emit(c, GPUGB_HX_CONST, 0, 0, integer_word_of((Const *) expr));
	return true;
}

/* Compiles expr; *scale gets its display scale.  False if not ours. */
static bool
compile(Compiler *c, Expr *expr, int *scale)
{
	if (c->nsteps >= GPUGB_HOSTEXPR_MAX_STEPS)
		return false;

	*scale = 0;
	/*
	 * A numeric CASE ... ELSE or COALESCE is not computed here (see
	 * compile_case); where its type has a scale, it is a leaf (below).
	 */
	if (IsA(expr, CaseExpr) && (c->integer || OidIsValid(c->passthrough) || c->packing ||
								is_filter_case((CaseExpr *) expr)))
		return compile_case(c, (CaseExpr *) expr, scale);
	if (IsA(expr, CoalesceExpr) && (c->integer || OidIsValid(c->passthrough) || c->packing))
		return compile_coalesce(c, (CoalesceExpr *) expr, scale);
	if (c->packing && is_numeric_arithmetic(expr) && has_numeric_choice(expr))
		return compile_packed_arithmetic(c, (OpExpr *) expr, scale);
	/* a NULL where NULL is a value (an ELSE, a COALESCE argument) */
	if (IsA(expr, Const) && ((Const *) expr)->constisnull && c->nonstrict > 0)
	{
		emit(c, GPUGB_HX_NULL, 0, 0, 0);
		return true;
	}
	if (OidIsValid(c->passthrough))
		return compile_passthrough(c, expr);
	if (c->integer)
		return compile_integer(c, expr);

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
		if (*scale > GPUGB_HOSTEXPR_MAX_SCALE ||
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
		return *scale <= GPUGB_HOSTEXPR_MAX_SCALE;
	}

	return false;
}

/* An integer result: integer (or count(*) FILTER's bool) arithmetic. */
static bool
integer_result(Expr *expr)
{
	Oid			type = exprType((Node *) expr);

	return is_integer_type(type) || type == BOOLOID;
}

/*
 * A result whose word is a column's word as it is, filtered (sum(x)
 * FILTER (WHERE ...) of a float) or picked (COALESCE, CASE ... ELSE).
 */
static bool
passthrough_result(Expr *expr)
{
	Oid			type = exprType((Node *) expr);

	return type == FLOAT4OID || type == FLOAT8OID || type == DATEOID || type == TIMEOID ||
		type == TIMESTAMPOID || type == TIMESTAMPTZOID;
}

/*
 * Is expr a numeric CASE ... ELSE (not a FILTER's CASE WHEN c THEN x END)
 * or COALESCE without a type modifier, whose rows take the display scale
 * of their arm, or numeric arithmetic over one?  Its program's result is a
 * packed free numeric word.
 */
bool
gpugb_hostexpr_packs(Expr *expr)
{
	return has_numeric_choice(expr);
}

static void
compiler_init(Compiler *c, Expr *expr, List *child_columns)
{
	memset(c, 0, sizeof(*c));
	c->child_columns = child_columns;
	c->collecting = child_columns == NIL;
	c->integer = integer_result(expr);
	c->passthrough = passthrough_result(expr) ? exprType((Node *) expr) : InvalidOid;
	c->packing = gpugb_hostexpr_packs(expr);
}

/*
 * compile() at the top: a packed result's scale is its arms' largest.  A
 * free numeric key that is no CASE or COALESCE is one arm: fixed-point
 * arithmetic whose scale is PostgreSQL's display scale of its result (the
 * larger of an addition's operands', the sum of a product's), packed with
 * it.
 */
static bool
compile_top(Compiler *c, Expr *expr, int *scale)
{
	if (!compile(c, expr, scale))
		return false;
	if (c->pack_top && !c->packing)
	{
		emit(c, GPUGB_HX_PACK, 0, *scale, 0);
		c->packed_scale = *scale;
	}
	if (c->packing || c->pack_top) /* compile_arm restores packing */
	{
		*scale = c->packed_scale;
		if (*scale > GPUGB_HOSTEXPR_MAX_PACKED_SCALE)
			return false;
	}
	return true;
}

/*
 * gpugb_hostexpr_leaves, compiling as the program will be compiled: with
 * pack_top for a free numeric GROUP BY key (key_program_leaves).  *scale
 * gets the result's scale.
 */
static bool
collect_leaves(Expr *expr, bool pack_top, List **leaves, int *scale)
{
	Compiler	c;
	Oid			type = exprType((Node *) expr);
	int32		typmod = exprTypmod((Node *) expr);
	ListCell   *lc;

	compiler_init(&c, expr, NIL);
	c.pack_top = pack_top;
	*scale = 0;
	if ((!c.integer && !OidIsValid(c.passthrough) && type != NUMERICOID) ||
		!compile_top(&c, expr, scale) || c.nsteps > GPUGB_HOSTEXPR_MAX_STEPS)
		return false;
	/* a numeric(p, s) result travels at scale s: the program's must be it */
	if (type == NUMERICOID &&
		gpugb_column_type(NUMERICOID, typmod, false).kind == GPUGB_VALUE_NUMERIC &&
		*scale != gpugb_numeric_scale(typmod))
		return false;
	/*
	 * One step: a lone leaf is a column the child projects anyway; only a
	 * program of a leaf under a cast (v::int8, i::numeric: the scan would
	 * build a numeric per row for the filler to take apart again), or an
	 * integer program of one constant, is worth it.  (A packed key's PACK
	 * is a step: i::numeric is two.)
	 */
	if (c.nsteps < 2 &&
		(list_member(c.leaves, expr) || (!c.integer && !IsA(expr, FuncExpr))))
		return false;
	foreach(lc, c.leaves)
		if (!list_member(*leaves, lfirst(lc)))
			*leaves = lappend(*leaves, lfirst(lc));
	return true;
}

/*
 * Is expr an aggregate argument this file computes from leaves the child
 * can project: numeric fixed-point arithmetic (with the scale of its type,
 * where it has one), integer arithmetic, a FILTERed, picked or coalesced
 * value?  If so, appends the leaves to *leaves (once each).
 */
bool
gpugb_hostexpr_leaves(Expr *expr, List **leaves)
{
	int			scale;

	return collect_leaves(expr, false, leaves, &scale);
}

/* A numeric GROUP BY key without a type modifier: a free numeric word. */
static bool
free_numeric_key(Expr *key)
{
	return exprType((Node *) key) == NUMERICOID &&
		gpugb_column_type(NUMERICOID, exprTypmod((Node *) key), false).kind ==
		GPUGB_VALUE_NUMERIC_FREE;
}

static List *
compile_program(Expr *expr, List *child_columns, bool key, int *scale)
{
	Compiler	c;

	compiler_init(&c, expr, child_columns);
	c.collecting = false;
	c.pack_top = key && free_numeric_key(expr);
	if (!compile_top(&c, expr, scale))
		elog(ERROR, "gpugb: an expression's leaves are not among the input columns");
	return c.program;
}

/* The program of expr over child_columns (4 nodes per step), or NIL. */
List *
gpugb_hostexpr_compile(Expr *expr, List *child_columns, int *scale)
{
	return compile_program(expr, child_columns, false, scale);
}

/*
 * The program of a GROUP BY key (gpugb_key_placeholder's): a free numeric
 * key's result is a packed word, to be decoded at the key's planned scale.
 */
List *
gpugb_hostexpr_compile_key(Expr *key, List *child_columns, int *scale)
{
	return compile_program(key, child_columns, true, scale);
}

/*
 * Does this aggregate input need computing by the filler: an expression
 * (not a plain column) gpugb_hostexpr_leaves accepts?  A numeric one that
 * is not fixed-point arithmetic (division, a free numeric from a function)
 * travels via the child instead.
 */
bool
gpugb_input_needs_hostexpr(Expr *input)
{
	List	   *leaves = NIL;

	return !IsA(input, Var) && gpugb_hostexpr_leaves(input, &leaves);
}

/*
 * The leaves of key as a program key, appended to *leaves (once each);
 * false if it is none.  A free numeric key is compiled as its program will
 * be, packed at the top (one step and the PACK: i::numeric, +p), *scale
 * its display scale; other keys as gpugb_hostexpr_leaves compiles them.
 * gpugb_key_placeholder and gpugb_child_columns both ask this, so the
 * leaves a program key needs are the ones the child projects.
 */
static bool
key_program_leaves(Expr *key, List **leaves, int *scale)
{
	bool		numeric = exprType((Node *) key) == NUMERICOID;

	*scale = 0;
	/* a numeric(p, s) key (a typmod) is no program key */
	if (numeric && !free_numeric_key(key))
		return false;
	return collect_leaves(key, numeric, leaves, scale);
}

/*
 * A GROUP BY key the filler computes with a program is an expression
 * gpugb_hostexpr_leaves accepts whose result word is the key's own word
 * (integers, bool, floats, dates, times, timestamps), or numeric
 * arithmetic without a type modifier (numeric(p, s) * 2, a + b): a free
 * numeric, grouped by value with its display scale, whose program packs
 * the two (compile_top).  free_scale: the key's planned scale S
 * (gpugb_free_numeric_plan_scale); a numeric key whose display scale is
 * above it is left to the child (rows with digits beyond S would fall
 * back).  Returns the
 * column that holds its position in the child's output (the filler reads
 * the key's leaves after the keys): its first leaf that is a plain column,
 * so the child computes nothing for it.  NULL if the key is no program
 * key, or has no such leaf: a constant key ((1 + 6), qgen seed 1100027
 * q18) or one whose leaves are all expressions the child computes anyway,
 * as it then does the whole key.
 */
Expr *
gpugb_key_placeholder(Expr *key, int free_scale)
{
	List	   *leaves = NIL;
	int			scale;
	ListCell   *lc;

	if (IsA(key, Var) || !key_program_leaves(key, &leaves, &scale) ||
		(exprType((Node *) key) == NUMERICOID && scale > free_scale))
		return NULL;
	foreach(lc, leaves)
		if (IsA(lfirst(lc), Var))
			return lfirst(lc);
	return NULL;
}

/*
 * The columns the input child projects after the keys: the leaves of the
 * keys the filler computes (program_keys), then each input itself or, for
 * one the filler computes, its leaves; each once.
 */
List *
gpugb_child_columns(List *program_keys, List *inputs)
{
	List	   *columns = NIL;
	ListCell   *lc;

	foreach(lc, program_keys)
	{
		int			scale;

		key_program_leaves(lfirst(lc), &columns, &scale);
	}
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
