/*-------------------------------------------------------------------------
 * hostexpr.h
 *    Exact numeric and integer arithmetic on words, and FILTER conditions,
 *    evaluated while strides are filled (see hostexpr.c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_HOSTEXPR_H
#define GPUGB_HOSTEXPR_H

#include "postgres.h"

#include "nodes/pg_list.h"
#include "nodes/primnodes.h"

#include "aggcatalog.h"

#define GPUGB_HOSTEXPR_MAX_STEPS 32
/* digits a numeric program's words keep (their scale, and 10^18 bounds their values) */
#define GPUGB_HOSTEXPR_MAX_SCALE 18
/*
 * The largest scale of a packed numeric CASE/COALESCE (gpugb_hostexpr_packs):
 * a row's value must stay below 2^58 / 10^S (2.9e9 at 8), and S is the
 * largest scale its arms declare, not what their values need; beyond, the
 * child computes it and the free numeric's scale comes from statistics.
 */
#define GPUGB_HOSTEXPR_MAX_PACKED_SCALE 8

typedef enum GpugbHostExprOp
{
	GPUGB_HX_COLUMN,			/* push child column `column` */
	GPUGB_HX_CONST,				/* push value * 10^-scale */
	GPUGB_HX_ADD,
	GPUGB_HX_SUB,
	GPUGB_HX_MUL,
	GPUGB_HX_NEG,
	GPUGB_HX_FILTER,			/* NULL unless bool child column `column` is true */
	/*
	 * Fused by gpugb_hostexpr_decode (fewer dispatches per row: TPC-H Q1's
	 * two expressions take 8 steps instead of 14):
	 */
	GPUGB_HX_CONST_ADD_COL,		/* CONST, COLUMN, ADD: push value + column * 10^scale */
	GPUGB_HX_CONST_SUB_COL,		/* CONST, COLUMN, SUB: push value - column * 10^scale */
	GPUGB_HX_MUL_COL,			/* COLUMN, MUL: top *= column */
	/*
	 * Integer expressions (int2/int4/int8 arithmetic, as PostgreSQL's
	 * integer operators compute it) and FILTER conditions the filler
	 * evaluates itself, so the child projects only plain columns:
	 */
	GPUGB_HX_RANGE,				/* top must fit a signed integer of `scale` bits */
	GPUGB_HX_DIV,				/* integer division, truncating; by zero stops the fill */
	GPUGB_HX_MOD,				/* integer remainder (x % -1 is 0); by zero stops the fill */
	GPUGB_HX_PACK,				/* top, a numeric of scale `scale`, as a packed free numeric
								 * word (numeric_free.h) at the program's scale */
	GPUGB_HX_FILTER_CMP,		/* TRUTH_CMP, WHERE: NULL unless column `column` compares
								 * (GpugbHostExprCmp `scale`) true with `value` */
	/*
	 * Conditions as truth values: 1 where true, 0 where false or NULL,
	 * which is all a CASE WHEN or a FILTER asks of them.
	 */
	GPUGB_HX_TRUTH_CMP,			/* column `column` compares (`scale`) true with `value` */
	GPUGB_HX_TRUTH_CMP_COLUMNS, /* column `column` compares (`scale`) true with column `value` */
	GPUGB_HX_TRUTH_NUMERIC_CMP, /* numeric(p, s) column `column` compares (`scale`) true with
								 * `value` at its scale; NaN above every number */
	GPUGB_HX_TRUTH_BOOL,		/* bool column `column` is true */
	GPUGB_HX_TRUTH_NULL,		/* column `column` IS NULL (`scale` 1) or IS NOT NULL (0) */
	GPUGB_HX_AND,				/* pops `scale` truths: all true */
	GPUGB_HX_OR,				/* pops `scale` truths: any true */
	GPUGB_HX_WHERE,				/* pops a truth: false ends the evaluation with NULL */
	/* Non-strict: NULL is a value here, not the end of the evaluation */
	GPUGB_HX_NULL,				/* push NULL */
	GPUGB_HX_SELECT,			/* pops else, then, truth: then where true (CASE ... ELSE) */
	GPUGB_HX_COALESCE,			/* pops `scale` values: the first that is not NULL */
	/*
	 * Numeric arithmetic on packed free numeric words (numeric_free.h) at
	 * the program's scale, each operand carrying its row's display scale:
	 * a numeric CASE ... ELSE or COALESCE inside arithmetic.  The display
	 * scale of a sum or difference is the operands' larger, of a product
	 * their sum, as numeric_add and numeric_mul give.
	 */
	GPUGB_HX_PACKED_ADD,
	GPUGB_HX_PACKED_SUB,
	GPUGB_HX_PACKED_MUL,
	GPUGB_HX_PACKED_NEG,
	/*
	 * Float arithmetic on double words, in float4 (`scale` 4) or float8 (8)
	 * as PostgreSQL's operators compute it; where they raise an ERROR
	 * (overflow, underflow, division by zero) the fill stops instead.
	 */
	GPUGB_HX_FLOAT_ADD,
	GPUGB_HX_FLOAT_SUB,
	GPUGB_HX_FLOAT_MUL,
	GPUGB_HX_FLOAT_DIV,
	GPUGB_HX_FLOAT_NEG,
	GPUGB_HX_INT_TO_FLOAT,		/* top, an integer, to float4 (`scale` 4) or float8 (8) */
	GPUGB_HX_FLOAT8_TO_FLOAT4,	/* top rounded to float4, as float84 checks it */
	GPUGB_HX_TRUTH_FLOAT_CMP,	/* float column `column` compares (`scale`) true with double
								 * `value` (its bits); NaN equal to NaN, above every number */
	GPUGB_HX_TRUTH_FLOAT_CMP_COLUMNS	/* ... with float column `value` */
} GpugbHostExprOp;

/* Comparisons of integer words (integers, dates, timestamps) and numeric words */
typedef enum GpugbHostExprCmp
{
	GPUGB_HX_LT,
	GPUGB_HX_LE,
	GPUGB_HX_EQ,
	GPUGB_HX_GE,
	GPUGB_HX_GT,
	GPUGB_HX_NE
} GpugbHostExprCmp;

/* word compares (GpugbHostExprCmp cmp) true with value: TRUTH_CMP's integer order */
static inline bool
gpugb_hostexpr_compare_words(int64 word, int64 value, int cmp)
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

typedef struct GpugbHostExprStep
{
	GpugbHostExprOp op;
	/* COLUMN, FILTER: child column (after the keys); ADD, SUB: 10^column scales the left operand */
	int			column;
	int			scale;			/* CONST; ADD, SUB: 10^scale scales the right operand */
	int64		value;			/* CONST */
} GpugbHostExprStep;

typedef struct GpugbHostExpr
{
	int			nsteps;
	int			scale;			/* of the result */
	bool		integer;		/* an integer (or passed-through) word: any int64, no
								 * 18-digit bound */
	bool		strict;			/* no SELECT, COALESCE or NULL step: NULL in, NULL out */
	bool		floating;		/* a float4 or float8 result */
	bool		packed;			/* a packed free numeric word (a numeric CASE ... ELSE or
								 * COALESCE whose arms differ in scale): the input is a
								 * free numeric at the program's scale */
	bool		batchable;		/* strict, and every step one gpugb_hostexpr_eval_rows
								 * runs a batch of rows at a time */
	GpugbHostExprStep steps[GPUGB_HOSTEXPR_MAX_STEPS];
} GpugbHostExpr;

/* planner and plan.c */
extern bool gpugb_hostexpr_leaves(Expr *expr, List **leaves);
extern List *gpugb_hostexpr_compile(Expr *expr, List *child_columns, int *scale);
extern bool gpugb_input_needs_hostexpr(Expr *input);
extern List *gpugb_hostexpr_compile_key(Expr *key, List *child_columns, int *scale);
extern Expr *gpugb_key_placeholder(Expr *key, int free_scale);
extern bool gpugb_hostexpr_packs(Expr *expr);
extern List *gpugb_child_columns(List *program_keys, List *inputs);

/* heapread.c: a scan's quals as truth programs, one per qual (hostexpr_cond.c) */
extern List *gpugb_hostexpr_compile_quals(List *quals, List **columns);

/* executor (hostexpr_eval.c) */
extern void gpugb_hostexpr_mark_read(List *program, bool *column_read, int n_columns);
extern void gpugb_hostexpr_decode(List *program, int scale, Oid result_type, GpugbHostExpr *hx);
extern bool gpugb_hostexpr_eval(const GpugbHostExpr *hx, const int64 *words,
								const bool *nulls, const GpugbColumnType *column_types,
								int64 *word, bool *result_isnull);

/*
 * gpugb_hostexpr_eval over n (at most GPUGB_HOSTEXPR_BATCH) rows: row r's
 * columns at words + r * row_stride (and nulls likewise); row r's result in
 * word[r] / result_isnull[r], fits[r] false where gpugb_hostexpr_eval would
 * return false.  The same results, a step at a time over all the rows.
 */
#define GPUGB_HOSTEXPR_BATCH 64
extern void gpugb_hostexpr_eval_rows(const GpugbHostExpr *hx, const int64 *words,
									 const bool *nulls, int row_stride, int n,
									 const GpugbColumnType *column_types, int64 *word,
									 bool *result_isnull, bool *fits);

#endif							/* GPUGB_HOSTEXPR_H */
