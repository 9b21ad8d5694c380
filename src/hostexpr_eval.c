/*-------------------------------------------------------------------------
 * hostexpr_eval.c
 *    The filler's side of host expressions (hostexpr.c compiles them at
 *    planning): a program decoded from the plan, its common step sequences
 *    fused, and evaluated once per row over the child's column words.
 *
 * The evaluator is a small stack machine.  Every stack entry carries its
 * own NULL flag: strict steps (arithmetic, RANGE) make NULL from NULL and
 * skip their work (PostgreSQL does not call a strict operator on NULL, so
 * it cannot raise an error there either), while SELECT (CASE ... ELSE) and
 * COALESCE pick an operand, NULL or not.  WHERE and the FILTER steps end
 * the evaluation with NULL at once; the compiler emits them only where
 * nothing else is left to compute.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "common/int.h"
#include "nodes/value.h"
#include "utils/builtins.h"

#include "hostexpr.h"
#include "numeric_free.h"
#include "numeric_words.h"

/* Does op read the word (or nullness) of child column `column`? */
static bool
step_reads_column(GpugbHostExprOp op)
{
	switch (op)
	{
		case GPUGB_HX_COLUMN:
		case GPUGB_HX_FILTER:
		case GPUGB_HX_FILTER_CMP:
		case GPUGB_HX_TRUTH_CMP:
		case GPUGB_HX_TRUTH_CMP_COLUMNS:
		case GPUGB_HX_TRUTH_NUMERIC_CMP:
		case GPUGB_HX_TRUTH_BOOL:
		case GPUGB_HX_TRUTH_NULL:
		case GPUGB_HX_TRUTH_FLOAT_CMP:
		case GPUGB_HX_TRUTH_FLOAT_CMP_COLUMNS:
			return true;
		default:
			return false;
	}
}

/*
 * Marks the child columns whose words the program (as planned: 4 nodes a
 * step, not yet fused) reads: they must travel as values, not nullness
 * alone.
 */
void
gpugb_hostexpr_mark_read(List *program, bool *column_read, int n_columns)
{
	for (int i = 0; i + 3 < list_length(program); i += 4)
	{
		GpugbHostExprOp op = intVal(list_nth(program, i));
		int			column = intVal(list_nth(program, i + 1));

		if (step_reads_column(op) && column >= 0 && column < n_columns)
			column_read[column] = true;
		if (op == GPUGB_HX_TRUTH_CMP_COLUMNS || op == GPUGB_HX_TRUTH_FLOAT_CMP_COLUMNS)
		{
			int64		other = pg_strtoint64(strVal(list_nth(program, i + 3)));

			if (other >= 0 && other < n_columns)
				column_read[other] = true;
		}
	}
}

/*
 * Rewrites the common step sequences into fused steps, in place: a
 * constant and a column combined (1 - l_discount: the constant scaled
 * once here), a product with a column, and a FILTER's comparison (or bool
 * column) with its WHERE.  Sequences whose constant would overflow when
 * scaled stay as they are.
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
		else if (i + 1 < hx->nsteps && s[1].op == GPUGB_HX_WHERE &&
				 (s[0].op == GPUGB_HX_TRUTH_CMP || s[0].op == GPUGB_HX_TRUTH_BOOL))
		{
			fused = s[0];
			fused.op = s[0].op == GPUGB_HX_TRUTH_CMP ? GPUGB_HX_FILTER_CMP : GPUGB_HX_FILTER;
			i += 1;
		}
		else
			fused = *s;
		hx->steps[out++] = fused;	/* out <= i: nothing unread is overwritten */
	}
	hx->nsteps = out;
}

void
gpugb_hostexpr_decode(List *program, int scale, Oid result_type, GpugbHostExpr *hx)
{
	hx->nsteps = list_length(program) / 4;
	hx->scale = scale;
	hx->integer = result_type != NUMERICOID;	/* any int64 word: no 18-digit bound */
	hx->floating = result_type == FLOAT4OID || result_type == FLOAT8OID;
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
	hx->packed = false;
	for (int i = 0; i < hx->nsteps; i++)
		if (hx->steps[i].op == GPUGB_HX_PACK)
		{
			hx->packed = true;
			if (hx->steps[i].scale < 0 || hx->steps[i].scale > scale)
				elog(ERROR, "gpugb: a packed numeric arm of scale %d in a program of scale %d",
					 hx->steps[i].scale, scale);
		}
	/*
	 * Float steps and integer divisions too: their checks must not see a
	 * NULL operand's 0 (a division by a NULL would read as one by zero).
	 */
	hx->strict = true;
	for (int i = 0; i < hx->nsteps; i++)
		if (hx->steps[i].op == GPUGB_HX_SELECT || hx->steps[i].op == GPUGB_HX_COALESCE ||
			hx->steps[i].op == GPUGB_HX_NULL || hx->steps[i].op == GPUGB_HX_DIV ||
			hx->steps[i].op == GPUGB_HX_MOD || hx->steps[i].op >= GPUGB_HX_FLOAT_ADD)
			hx->strict = false;
	hx->batchable = hx->strict;
	for (int i = 0; i < hx->nsteps; i++)
		switch (hx->steps[i].op)
		{
			case GPUGB_HX_COLUMN:
			case GPUGB_HX_CONST:
			case GPUGB_HX_CONST_ADD_COL:
			case GPUGB_HX_CONST_SUB_COL:
			case GPUGB_HX_MUL_COL:
			case GPUGB_HX_ADD:
			case GPUGB_HX_SUB:
			case GPUGB_HX_MUL:
			case GPUGB_HX_NEG:
			case GPUGB_HX_RANGE:
			case GPUGB_HX_FILTER:
			case GPUGB_HX_FILTER_CMP:
				break;
			default:
				hx->batchable = false;
		}
}


typedef enum EvalStatus
{
	EVAL_OK,
	EVAL_NULL,
	EVAL_OVERFLOW
} EvalStatus;

/*
 * A child column's word as an operand (0 for NULL: the caller marks the
 * entry NULL); NaN (of a numeric) marks the result NaN and counts as 0.
 */
static inline int64
column_word(int column, const int64 *words, const bool *nulls,
			const GpugbColumnType *column_types, bool *nan)
{
	int64		w = words[column];

	if (nulls[column])
		return 0;
	if (w == GPUGB_NUMERIC_NAN_WORD && column_types[column].kind == GPUGB_VALUE_NUMERIC)
	{
		*nan = true;
		w = 0;
	}
	return w;
}

/* A numeric word against a number at its scale: NaN is above every number (numeric_cmp). */
static inline bool
compare_numeric_words(int64 word, int64 value, int cmp)
{
	if (word == GPUGB_NUMERIC_NAN_WORD)
		return cmp == GPUGB_HX_GT || cmp == GPUGB_HX_GE || cmp == GPUGB_HX_NE;
	return gpugb_hostexpr_compare_words(word, value, cmp);
}

/* float8_cmp_internal's order: NaN equal to NaN and above every number; -0 = 0 */
static inline bool
compare_float_words(int64 aw, int64 bw, int cmp)
{
	double		a = gpugb_word_to_double(aw);
	double		b = gpugb_word_to_double(bw);
	int			order;

	if (isnan(a))
		order = isnan(b) ? 0 : 1;
	else if (isnan(b))
		order = -1;
	else
		order = a < b ? -1 : a > b ? 1 : 0;
	return gpugb_hostexpr_compare_words(order, 0, cmp);
}

/*
 * One float operator as float4_pl .. float8_div compute it (utils/float.h),
 * in T (float or double) on words; false where they raise an ERROR.
 * Float4 operands are float4 values held exactly in their double words.
 * A macro, so the two precisions cannot drift apart.
 */
#define DEFINE_FLOAT_ARITH(NAME, T) \
static inline bool \
NAME(GpugbHostExprOp op, T a, T b, int64 *result) \
{ \
	T			r; \
\
	switch (op) \
	{ \
		case GPUGB_HX_FLOAT_ADD: \
			r = a + b; \
			break; \
		case GPUGB_HX_FLOAT_SUB: \
			r = a - b; \
			break; \
		case GPUGB_HX_FLOAT_MUL: \
			r = a * b; \
			if (r == 0 && a != 0 && b != 0) \
				return false;	/* underflow */ \
			break; \
		default: \
			if (b == 0 && !isnan(a)) \
				return false;	/* division by zero */ \
			r = a / b; \
			if ((isinf(r) && !isinf(a)) || (r == 0 && a != 0 && !isinf(b))) \
				return false; \
			*result = gpugb_double_to_word((double) r); \
			return true; \
	} \
	if (isinf(r) && !isinf(a) && !isinf(b)) \
		return false;			/* overflow */ \
	*result = gpugb_double_to_word((double) r); \
	return true; \
}

DEFINE_FLOAT_ARITH(float4_arith, float)
DEFINE_FLOAT_ARITH(float8_arith, double)

static inline bool
float_arith(GpugbHostExprOp op, int precision, int64 aw, int64 bw, int64 *result)
{
	double		a = gpugb_word_to_double(aw);
	double		b = gpugb_word_to_double(bw);

	return precision == 4 ? float4_arith(op, (float) a, (float) b, result) :
		float8_arith(op, a, b, result);
}

/* float84: the double rounded to float4, checked as PostgreSQL checks it */
static inline bool
float8_to_float4(int64 w, int64 *result)
{
	double		d = gpugb_word_to_double(w);
	float		f = (float) d;

	if ((isinf(f) && !isinf(d)) || (f == 0.0f && d != 0.0))
		return false;
	*result = gpugb_double_to_word((double) f);
	return true;
}

/* int2/int4/int8 to float4 or float8: one C conversion, as PostgreSQL's casts */
static inline int64
int_to_float(int64 v, int precision)
{
	return gpugb_double_to_word(precision == 4 ? (double) (float) v : (double) v);
}

/*
 * The evaluator, once per integer type T: int64 first (fast; nearly every
 * row), int128 when an int64 step overflows.  A macro, so they cannot
 * drift apart.  With PER_VALUE_NULLS 0 (programs without SELECT, COALESCE
 * or NULL steps, such as TPC-H Q1's) one flag says whether any operand was
 * NULL, which for strict steps is the same answer, and the compiler drops
 * the per-entry bookkeeping: Q1's fill was about 5 % slower with it.  (Their
 * arithmetic then runs on a NULL operand's 0, and an overflow there only
 * stops the fill, as before.)  PUSH(v, n) pushes value v with NULL flag n.
 */
#define SET_NULL(idx, n) \
	do { \
		if (per_value_nulls) \
			isnull[idx] = (n); \
		else \
			any_null |= (n); \
	} while (0)
#define IS_NULL(idx) (per_value_nulls && isnull[idx])
#define PUSH(v, n) \
	do { \
		SET_NULL(top, n); \
		stack[top++] = (v); \
	} while (0)
#define DEFINE_EVAL(NAME, T, PER_VALUE_NULLS) \
static EvalStatus \
NAME(const GpugbHostExpr *hx, const int64 *words, const bool *nulls, \
	 const GpugbColumnType *column_types, T *result, bool *nan) \
{ \
	T			stack[GPUGB_HOSTEXPR_MAX_STEPS]; \
	bool		isnull[GPUGB_HOSTEXPR_MAX_STEPS]; \
	bool		any_null = false; \
	const bool	per_value_nulls = PER_VALUE_NULLS; \
	int			top = 0; \
\
	*nan = false; \
	for (int i = 0; i < hx->nsteps; i++) \
	{ \
		const GpugbHostExprStep *step = &hx->steps[i]; \
\
		switch (step->op) \
		{ \
			case GPUGB_HX_COLUMN: \
				PUSH(column_word(step->column, words, nulls, column_types, nan), \
					 nulls[step->column]); \
				break; \
			case GPUGB_HX_CONST_ADD_COL: \
			case GPUGB_HX_CONST_SUB_COL: \
			{ \
				T			b = column_word(step->column, words, nulls, column_types, nan); \
				T			a = step->value; \
\
				if (nulls[step->column]) \
				{ \
					PUSH(0, true); \
					break; \
				} \
				if ((step->scale > 0 && \
					 __builtin_mul_overflow(b, (T) gpugb_pow10[step->scale], &b)) || \
					(step->op == GPUGB_HX_CONST_ADD_COL ? __builtin_add_overflow(a, b, &a) : \
					 __builtin_sub_overflow(a, b, &a))) \
					return EVAL_OVERFLOW; \
				PUSH(a, false); \
				break; \
			} \
			case GPUGB_HX_MUL_COL: \
				if (nulls[step->column]) \
					SET_NULL(top - 1, true); \
				else if (!IS_NULL(top - 1) && \
						 __builtin_mul_overflow(stack[top - 1], \
												(T) column_word(step->column, words, nulls, \
																column_types, nan), \
												&stack[top - 1])) \
					return EVAL_OVERFLOW; \
				break; \
			case GPUGB_HX_CONST: \
				PUSH(step->value, false); \
				break; \
			case GPUGB_HX_NULL: \
				PUSH(0, true); \
				break; \
			case GPUGB_HX_NEG: \
				if (!IS_NULL(top - 1) && \
					__builtin_sub_overflow((T) 0, stack[top - 1], &stack[top - 1])) \
					return EVAL_OVERFLOW; \
				break; \
			case GPUGB_HX_ADD: \
			case GPUGB_HX_SUB: \
			{ \
				T			a = stack[top - 2]; \
				T			b = stack[top - 1]; \
\
				top--; \
				if (IS_NULL(top - 1) || IS_NULL(top)) \
				{ \
					SET_NULL(top - 1, true); \
					break; \
				} \
				/* align the scales: shifts fixed when compiled (at most 18) */ \
				if ((step->column > 0 && \
					 __builtin_mul_overflow(a, (T) gpugb_pow10[step->column], &a)) || \
					(step->scale > 0 && \
					 __builtin_mul_overflow(b, (T) gpugb_pow10[step->scale], &b))) \
					return EVAL_OVERFLOW; \
				if (step->op == GPUGB_HX_ADD ? __builtin_add_overflow(a, b, &a) : \
					__builtin_sub_overflow(a, b, &a)) \
					return EVAL_OVERFLOW; \
				stack[top - 1] = a; \
				break; \
			} \
			case GPUGB_HX_MUL: \
				top--; \
				if (IS_NULL(top - 1) || IS_NULL(top)) \
					SET_NULL(top - 1, true); \
				else if (__builtin_mul_overflow(stack[top - 1], stack[top], &stack[top - 1])) \
					return EVAL_OVERFLOW; \
				break; \
			case GPUGB_HX_PACKED_ADD: \
			case GPUGB_HX_PACKED_SUB: \
			case GPUGB_HX_PACKED_MUL: \
			{ \
				/* packed words always fit an int64 (gpugb_free_word_pack made them) */ \
				T			a = gpugb_free_word_value((int64) stack[top - 2]); \
				T			b = gpugb_free_word_value((int64) stack[top - 1]); \
				int			da = gpugb_free_word_dscale((int64) stack[top - 2]); \
				int			db = gpugb_free_word_dscale((int64) stack[top - 1]); \
				int64		packed; \
\
				top--; \
				if (IS_NULL(top - 1) || IS_NULL(top)) \
				{ \
					SET_NULL(top - 1, true); \
					break; \
				} \
				if (step->op == GPUGB_HX_PACKED_MUL) \
				{ \
					/* \
					 * (a / 10^S)(b / 10^S) at scale S: exact, as the compiler made \
					 * S at least the product's largest display scale \
					 */ \
					if (__builtin_mul_overflow(a, b, &a) || \
						a % (T) gpugb_pow10[hx->scale] != 0) \
						return EVAL_OVERFLOW; \
					a /= (T) gpugb_pow10[hx->scale]; \
					da += db; \
				} \
				else \
				{ \
					if (step->op == GPUGB_HX_PACKED_ADD ? __builtin_add_overflow(a, b, &a) : \
						__builtin_sub_overflow(a, b, &a)) \
						return EVAL_OVERFLOW; \
					da = Max(da, db); \
				} \
				if ((T) (int64) a != a || !gpugb_free_word_pack((int64) a, da, &packed)) \
					return EVAL_OVERFLOW; \
				stack[top - 1] = packed; \
				break; \
			} \
			case GPUGB_HX_PACKED_NEG: \
				/* -(v, d) is (-v, d): the value negated, the display scale kept */ \
				if (!IS_NULL(top - 1)) \
				{ \
					int64		packed = (int64) stack[top - 1]; \
\
					(void) gpugb_free_word_pack(-gpugb_free_word_value(packed), \
												gpugb_free_word_dscale(packed), &packed); \
					stack[top - 1] = packed; \
				} \
				break; \
			case GPUGB_HX_DIV: \
			case GPUGB_HX_MOD: \
				/* int4div, int4mod and their kin: strict, then by zero an ERROR */ \
				top--; \
				if (IS_NULL(top - 1) || IS_NULL(top)) \
					SET_NULL(top - 1, true); \
				else if (stack[top] == 0) \
					return EVAL_OVERFLOW; \
				else if (stack[top] == -1) \
				{ \
					/* x / -1 is -x (its RANGE step checks it); x % -1 is 0 */ \
					if (step->op == GPUGB_HX_MOD) \
						stack[top - 1] = 0; \
					else if (__builtin_sub_overflow((T) 0, stack[top - 1], &stack[top - 1])) \
						return EVAL_OVERFLOW; \
				} \
				else \
					stack[top - 1] = step->op == GPUGB_HX_DIV ? stack[top - 1] / stack[top] : \
						stack[top - 1] % stack[top]; \
				break; \
			case GPUGB_HX_PACK: \
				/* v * 10^s to the program's scale S, with s as its display scale */ \
				if (!IS_NULL(top - 1) && \
					(__builtin_mul_overflow(stack[top - 1], \
											(T) gpugb_pow10[hx->scale - step->scale], \
											&stack[top - 1]) || \
					 stack[top - 1] >= GPUGB_FREE_VALUE_LIMIT || \
					 stack[top - 1] <= -GPUGB_FREE_VALUE_LIMIT)) \
					return EVAL_OVERFLOW; \
				if (!IS_NULL(top - 1)) \
					stack[top - 1] = stack[top - 1] * (1 << GPUGB_FREE_DSCALE_BITS) + step->scale; \
				break; \
			case GPUGB_HX_FILTER: \
				/* CASE WHEN c THEN x END: NULL unless c is true */ \
				if (nulls[step->column] || words[step->column] == 0) \
					return EVAL_NULL; \
				break; \
			case GPUGB_HX_FILTER_CMP: \
				if (nulls[step->column] || \
					!gpugb_hostexpr_compare_words(words[step->column], step->value, step->scale)) \
					return EVAL_NULL; \
				break; \
			case GPUGB_HX_RANGE: \
				/* an integer operator's result type: PostgreSQL raises an ERROR beyond */ \
				if (!IS_NULL(top - 1) && step->scale < (int) (8 * sizeof(T)) && \
					(stack[top - 1] < -((T) 1 << (step->scale - 1)) || \
					 stack[top - 1] > ((T) 1 << (step->scale - 1)) - 1)) \
					return EVAL_OVERFLOW; \
				break; \
			case GPUGB_HX_TRUTH_CMP: \
				PUSH(!nulls[step->column] && \
					 gpugb_hostexpr_compare_words(words[step->column], step->value, step->scale), false); \
				break; \
			case GPUGB_HX_TRUTH_CMP_COLUMNS: \
				PUSH(!nulls[step->column] && !nulls[step->value] && \
					 gpugb_hostexpr_compare_words(words[step->column], words[step->value], step->scale), false); \
				break; \
			case GPUGB_HX_TRUTH_NUMERIC_CMP: \
				PUSH(!nulls[step->column] && \
					 compare_numeric_words(words[step->column], step->value, step->scale), \
					 false); \
				break; \
			case GPUGB_HX_TRUTH_BOOL: \
				PUSH(!nulls[step->column] && words[step->column] != 0, false); \
				break; \
			case GPUGB_HX_TRUTH_NULL: \
				PUSH(nulls[step->column] == (step->scale != 0), false); \
				break; \
			case GPUGB_HX_AND: \
			case GPUGB_HX_OR: \
			{ \
				bool		any = false, \
							all = true; \
\
				for (int k = 0; k < step->scale; k++) \
				{ \
					bool		t = stack[--top] != 0; \
\
					any |= t; \
					all &= t; \
				} \
				PUSH(step->op == GPUGB_HX_AND ? all : any, false); \
				break; \
			} \
			case GPUGB_HX_WHERE: \
				if (stack[--top] == 0) \
					return EVAL_NULL; \
				break; \
			case GPUGB_HX_SELECT: \
			{ \
				int			chosen = stack[top - 3] != 0 ? top - 2 : top - 1; \
\
				stack[top - 3] = stack[chosen]; \
				isnull[top - 3] = isnull[chosen]; \
				top -= 2; \
				break; \
			} \
			case GPUGB_HX_FLOAT_ADD: \
			case GPUGB_HX_FLOAT_SUB: \
			case GPUGB_HX_FLOAT_MUL: \
			case GPUGB_HX_FLOAT_DIV: \
			{ \
				int64		r; \
\
				top--; \
				if (IS_NULL(top - 1) || IS_NULL(top)) \
				{ \
					SET_NULL(top - 1, true); \
					break; \
				} \
				if (!float_arith(step->op, step->scale, (int64) stack[top - 1], \
								 (int64) stack[top], &r)) \
					return EVAL_OVERFLOW; \
				stack[top - 1] = r; \
				break; \
			} \
			case GPUGB_HX_FLOAT_NEG: \
				stack[top - 1] = gpugb_double_to_word(-gpugb_word_to_double((int64) stack[top - 1])); \
				break; \
			case GPUGB_HX_INT_TO_FLOAT: \
				if (!IS_NULL(top - 1)) \
					stack[top - 1] = int_to_float((int64) stack[top - 1], step->scale); \
				break; \
			case GPUGB_HX_FLOAT8_TO_FLOAT4: \
			{ \
				int64		r; \
\
				if (IS_NULL(top - 1)) \
					break; \
				if (!float8_to_float4((int64) stack[top - 1], &r)) \
					return EVAL_OVERFLOW; \
				stack[top - 1] = r; \
				break; \
			} \
			case GPUGB_HX_TRUTH_FLOAT_CMP: \
				PUSH(!nulls[step->column] && \
					 compare_float_words(words[step->column], step->value, step->scale), false); \
				break; \
			case GPUGB_HX_TRUTH_FLOAT_CMP_COLUMNS: \
				PUSH(!nulls[step->column] && !nulls[step->value] && \
					 compare_float_words(words[step->column], words[step->value], step->scale), \
					 false); \
				break; \
			case GPUGB_HX_COALESCE: \
			{ \
				int			first = top - step->scale; \
				int			chosen = top - 1;	/* all NULL: the last, NULL */ \
\
				for (int k = first; k < top; k++) \
					if (!isnull[k]) \
					{ \
						chosen = k; \
						break; \
					} \
				stack[first] = stack[chosen]; \
				isnull[first] = isnull[chosen]; \
				top = first + 1; \
				break; \
			} \
		} \
	} \
	Assert(top == 1); \
	*result = stack[0]; \
	return (per_value_nulls ? isnull[0] : any_null) ? EVAL_NULL : EVAL_OK; \
}

DEFINE_EVAL(eval_int64, int64, 1)
DEFINE_EVAL(eval_int128, int128, 1)
DEFINE_EVAL(eval_strict_int64, int64, 0)
DEFINE_EVAL(eval_strict_int128, int128, 0)

/*
 * A program's int64 result (not NULL) as its word: false where it has none
 * (a NaN in a packed program, a numeric beyond 18 digits).
 */
static inline bool
result_word(const GpugbHostExpr *hx, int64 v64, bool nan, int64 *word)
{
	if (nan)
	{
		/* NaN marks the whole row, whichever arm it was in: PostgreSQL's plan answers */
		if (hx->packed)
			return false;
		*word = GPUGB_NUMERIC_NAN_WORD;
		return true;
	}
	if (!hx->integer && !hx->packed && (v64 <= -gpugb_pow10[GPUGB_HOSTEXPR_MAX_SCALE] ||
						 v64 >= gpugb_pow10[GPUGB_HOSTEXPR_MAX_SCALE]))
		return false;
	*word = v64;
	return true;
}

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
	EvalStatus	status = hx->strict ?
		eval_strict_int64(hx, words, nulls, column_types, &v64, &nan) :
		eval_int64(hx, words, nulls, column_types, &v64, &nan);

	if (status == EVAL_OVERFLOW)
	{
		status = hx->strict ?
			eval_strict_int128(hx, words, nulls, column_types, &v128, &nan) :
			eval_int128(hx, words, nulls, column_types, &v128, &nan);
		if (status == EVAL_OVERFLOW)
			return false;		/* beyond int128 on the way: PostgreSQL's plan answers */
		if (status == EVAL_OK && !nan &&
			(hx->integer || hx->packed ? (v128 < PG_INT64_MIN || v128 > PG_INT64_MAX) :
			 (v128 <= -(int128) gpugb_pow10[GPUGB_HOSTEXPR_MAX_SCALE] ||
			  v128 >= (int128) gpugb_pow10[GPUGB_HOSTEXPR_MAX_SCALE])))
			return false;
		v64 = (int64) v128;
	}
	*result_isnull = status == EVAL_NULL;
	if (status == EVAL_NULL)
		return true;
	return result_word(hx, v64, nan, word);
}

/*
 * The batch evaluator: each step over all n rows before the next step, in
 * loops the compiler keeps tight (a row-by-row interpreter pays its
 * dispatch for every step of every row: TPC-H Q1's two products were about
 * 12 % of its fill in a local profile).  Only strict programs of the steps
 * `batchable` lists; a row that overflows on the way (or meets RANGE's
 * bound) is evaluated again by gpugb_hostexpr_eval, which then settles it
 * exactly as it always does (int128, or no word).  Without an overflow the
 * steps compute what eval_strict_int64 computes, so the results are the
 * same: NULL operands read as 0 (the row's result is NULL), a numeric NaN
 * reads as 0 and marks the row, FILTER makes the row's result NULL.
 */
#define ROW_NULL	0x01		/* an operand was NULL: the result is NULL */
#define ROW_NAN		0x02		/* an operand was NaN */
#define ROW_FILTERED 0x04		/* a FILTER's condition was not true: NULL */
#define ROW_AGAIN	0x08		/* overflowed: gpugb_hostexpr_eval decides */

void
gpugb_hostexpr_eval_rows(const GpugbHostExpr *hx, const int64 *words, const bool *nulls,
						 int row_stride, int n, const GpugbColumnType *column_types,
						 int64 *word, bool *result_isnull, bool *fits)
{
	int64		stack[GPUGB_HOSTEXPR_MAX_STEPS][GPUGB_HOSTEXPR_BATCH];
	uint8		state[GPUGB_HOSTEXPR_BATCH];
	int			top = 0;

	Assert(n <= GPUGB_HOSTEXPR_BATCH);
	if (!hx->batchable)
	{
		for (int r = 0; r < n; r++)
			fits[r] = gpugb_hostexpr_eval(hx, words + r * row_stride, nulls + r * row_stride,
										  column_types, &word[r], &result_isnull[r]);
		return;
	}
	memset(state, 0, n);
	for (int i = 0; i < hx->nsteps; i++)
	{
		const GpugbHostExprStep *step = &hx->steps[i];
		int			c = step->column;
		bool		numeric = (step->op == GPUGB_HX_COLUMN ||
							   step->op == GPUGB_HX_CONST_ADD_COL ||
							   step->op == GPUGB_HX_CONST_SUB_COL ||
							   step->op == GPUGB_HX_MUL_COL) &&
			column_types[c].kind == GPUGB_VALUE_NUMERIC;

/* column c of row r as column_word reads it, and its flags into state[r] */
#define ROW_COLUMN(r, w) \
	do { \
		bool		isnull_ = nulls[(r) * row_stride + c]; \
		bool		isnan_ = numeric && !isnull_ && \
			words[(r) * row_stride + c] == GPUGB_NUMERIC_NAN_WORD; \
\
		(w) = isnull_ || isnan_ ? 0 : words[(r) * row_stride + c]; \
		state[r] |= (isnull_ ? ROW_NULL : 0) | (isnan_ ? ROW_NAN : 0); \
	} while (0)

		switch (step->op)
		{
			case GPUGB_HX_COLUMN:
				for (int r = 0; r < n; r++)
					ROW_COLUMN(r, stack[top][r]);
				top++;
				break;
			case GPUGB_HX_CONST:
				for (int r = 0; r < n; r++)
					stack[top][r] = step->value;
				top++;
				break;
			case GPUGB_HX_CONST_ADD_COL:
			case GPUGB_HX_CONST_SUB_COL:
				{
					bool		add = step->op == GPUGB_HX_CONST_ADD_COL;
					int64		shift = gpugb_pow10[step->scale];

					for (int r = 0; r < n; r++)
					{
						int64		a = step->value;
						int64		b;
						bool		overflow;

						ROW_COLUMN(r, b);
						overflow = step->scale > 0 && __builtin_mul_overflow(b, shift, &b);
						overflow |= add ? __builtin_add_overflow(a, b, &a) :
							__builtin_sub_overflow(a, b, &a);
						/* a NULL column pushes 0 unchecked, as eval_strict_int64 does */
						stack[top][r] = nulls[r * row_stride + c] ? 0 : a;
						if (overflow && !nulls[r * row_stride + c])
							state[r] |= ROW_AGAIN;
					}
					top++;
					break;
				}
			case GPUGB_HX_MUL_COL:
				for (int r = 0; r < n; r++)
				{
					int64		b;

					ROW_COLUMN(r, b);
					/* a NULL column leaves the operand as it is */
					if (!nulls[r * row_stride + c] &&
						__builtin_mul_overflow(stack[top - 1][r], b, &stack[top - 1][r]))
						state[r] |= ROW_AGAIN;
				}
				break;
			case GPUGB_HX_ADD:
			case GPUGB_HX_SUB:
				{
					bool		add = step->op == GPUGB_HX_ADD;
					int64		left_shift = gpugb_pow10[step->column];
					int64		right_shift = gpugb_pow10[step->scale];

					top--;
					for (int r = 0; r < n; r++)
					{
						int64		a = stack[top - 1][r];
						int64		b = stack[top][r];
						bool		overflow;

						overflow = step->column > 0 && __builtin_mul_overflow(a, left_shift, &a);
						overflow |= step->scale > 0 && __builtin_mul_overflow(b, right_shift, &b);
						overflow |= add ? __builtin_add_overflow(a, b, &a) :
							__builtin_sub_overflow(a, b, &a);
						stack[top - 1][r] = a;
						if (overflow)
							state[r] |= ROW_AGAIN;
					}
					break;
				}
			case GPUGB_HX_MUL:
				top--;
				for (int r = 0; r < n; r++)
					if (__builtin_mul_overflow(stack[top - 1][r], stack[top][r],
											   &stack[top - 1][r]))
						state[r] |= ROW_AGAIN;
				break;
			case GPUGB_HX_NEG:
				for (int r = 0; r < n; r++)
					if (__builtin_sub_overflow((int64) 0, stack[top - 1][r], &stack[top - 1][r]))
						state[r] |= ROW_AGAIN;
				break;
			case GPUGB_HX_RANGE:
				if (step->scale < 64)
				{
					int64		bound = (int64) 1 << (step->scale - 1);

					for (int r = 0; r < n; r++)
						if (stack[top - 1][r] < -bound || stack[top - 1][r] > bound - 1)
							state[r] |= ROW_AGAIN;
				}
				break;
			case GPUGB_HX_FILTER:
				for (int r = 0; r < n; r++)
					if (nulls[r * row_stride + c] || words[r * row_stride + c] == 0)
						state[r] |= ROW_FILTERED;
				break;
			case GPUGB_HX_FILTER_CMP:
				for (int r = 0; r < n; r++)
					if (nulls[r * row_stride + c] ||
						!gpugb_hostexpr_compare_words(words[r * row_stride + c], step->value, step->scale))
						state[r] |= ROW_FILTERED;
				break;
			default:
				elog(ERROR, "gpugb: host expression step %d in a batch", (int) step->op);
		}
#undef ROW_COLUMN
	}
	Assert(top == 1);
	for (int r = 0; r < n; r++)
	{
		if (unlikely(state[r] & ROW_AGAIN))
			fits[r] = gpugb_hostexpr_eval(hx, words + r * row_stride, nulls + r * row_stride,
										  column_types, &word[r], &result_isnull[r]);
		else if (state[r] & (ROW_NULL | ROW_FILTERED))
		{
			result_isnull[r] = true;
			word[r] = 0;
			fits[r] = true;
		}
		else
		{
			result_isnull[r] = false;
			fits[r] = result_word(hx, stack[0][r], (state[r] & ROW_NAN) != 0, &word[r]);
		}
	}
}
