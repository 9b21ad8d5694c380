/*-------------------------------------------------------------------------
 * keyexpr.h
 *    Integer GROUP BY keys of the form  column OP constant  (mod, %, +, -,
 *    *), computed by the stride filler from the column's word instead of by
 *    the input plan's projection.
 *
 * Query B's GROUP BY mod(col1, g) would otherwise make every row of the
 * scan go through an expression-interpreter function call in the
 * projection; reading the plain column is the executor's cheapest path
 * (a Var fetch), and the filler's arithmetic costs a nanosecond.  The
 * results are PostgreSQL's: its int2/int4/int8 operators' own rules
 * (C's truncating %, x % -1 = 0), and a value out of range stops the fill
 * so that PostgreSQL's plan runs and raises its "out of range" error.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_KEYEXPR_H
#define GPUGB_KEYEXPR_H

#include "postgres.h"

#include "common/int.h"
#include "nodes/primnodes.h"

typedef enum GpugbKeyOp
{
	GPUGB_KEY_PLAIN = 0,		/* the child computes the key */
	GPUGB_KEY_MOD,
	GPUGB_KEY_ADD,
	GPUGB_KEY_SUB,
	GPUGB_KEY_MUL
} GpugbKeyOp;

typedef struct GpugbKeyTransform
{
	GpugbKeyOp	op;
	int64		operand;		/* the constant (never 0 for MOD) */
	int64		min;			/* the key type's range */
	int64		max;
} GpugbKeyTransform;

/*
 * If key is  Var OP Const  of one integer type that the filler computes,
 * fills *t and returns the Var (what the input plan projects instead);
 * otherwise sets t->op = GPUGB_KEY_PLAIN and returns NULL.
 */
extern Var *gpugb_key_transform(Expr *key, GpugbKeyTransform *t);

/* custom_private form of a transform, and back. */
extern List *gpugb_key_transform_to_list(const GpugbKeyTransform *t);
extern void gpugb_key_transform_from_list(List *list, GpugbKeyTransform *t);

/* The key's word from its column's word; false if out of the type's range. */
static inline bool
gpugb_key_transform_apply(const GpugbKeyTransform *t, int64 *word)
{
	int64		x = *word;
	int64		r;

	switch (t->op)
	{
		case GPUGB_KEY_PLAIN:
			return true;
		case GPUGB_KEY_MOD:
			/* as int4mod: x % -1 is 0 (INT_MIN % -1 would trap) */
			*word = t->operand == -1 ? 0 : x % t->operand;
			return true;
		case GPUGB_KEY_ADD:
			if (pg_add_s64_overflow(x, t->operand, &r))
				return false;
			break;
		case GPUGB_KEY_SUB:
			if (pg_sub_s64_overflow(x, t->operand, &r))
				return false;
			break;
		case GPUGB_KEY_MUL:
			if (pg_mul_s64_overflow(x, t->operand, &r))
				return false;
			break;
		default:
			return false;
	}
	if (r < t->min || r > t->max)
		return false;
	*word = r;
	return true;
}

#endif							/* GPUGB_KEYEXPR_H */
