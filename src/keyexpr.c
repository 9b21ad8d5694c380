/*-------------------------------------------------------------------------
 * keyexpr.c
 *    Recognizes integer GROUP BY keys  column OP constant  that the stride
 *    filler computes (see keyexpr.h).
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pg_list.h"
#include "nodes/value.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "keyexpr.h"

/* The operator's kind, and the one integer type of both arguments and result. */
static GpugbKeyOp
key_op_of(Oid funcid, Oid *type)
{
	switch (funcid)
	{
		case F_INT2MOD:
		case F_MOD_INT2_INT2:	/* mod(), the same function under its SQL name */
			*type = INT2OID;
			return GPUGB_KEY_MOD;
		case F_INT4MOD:
		case F_MOD_INT4_INT4:
			*type = INT4OID;
			return GPUGB_KEY_MOD;
		case F_INT8MOD:
		case F_MOD_INT8_INT8:
			*type = INT8OID;
			return GPUGB_KEY_MOD;
		case F_INT2PL:
			*type = INT2OID;
			return GPUGB_KEY_ADD;
		case F_INT4PL:
			*type = INT4OID;
			return GPUGB_KEY_ADD;
		case F_INT8PL:
			*type = INT8OID;
			return GPUGB_KEY_ADD;
		case F_INT2MI:
			*type = INT2OID;
			return GPUGB_KEY_SUB;
		case F_INT4MI:
			*type = INT4OID;
			return GPUGB_KEY_SUB;
		case F_INT8MI:
			*type = INT8OID;
			return GPUGB_KEY_SUB;
		case F_INT2MUL:
			*type = INT2OID;
			return GPUGB_KEY_MUL;
		case F_INT4MUL:
			*type = INT4OID;
			return GPUGB_KEY_MUL;
		case F_INT8MUL:
			*type = INT8OID;
			return GPUGB_KEY_MUL;
		default:
			return GPUGB_KEY_PLAIN;
	}
}

static int64
const_int(Const *c)
{
	switch (c->consttype)
	{
		case INT2OID:
			return DatumGetInt16(c->constvalue);
		case INT4OID:
			return DatumGetInt32(c->constvalue);
		default:
			return DatumGetInt64(c->constvalue);
	}
}

Var *
gpugb_key_transform(Expr *key, GpugbKeyTransform *t)
{
	Oid			funcid;
	List	   *args;
	Oid			type = InvalidOid;
	Node	   *left,
			   *right;
	GpugbKeyOp	op;

	memset(t, 0, sizeof(*t));
	t->op = GPUGB_KEY_PLAIN;
	if (IsA(key, OpExpr))
	{
		funcid = ((OpExpr *) key)->opfuncid;
		if (!OidIsValid(funcid))
			funcid = get_opcode(((OpExpr *) key)->opno);
		args = ((OpExpr *) key)->args;
	}
	else if (IsA(key, FuncExpr))
	{
		funcid = ((FuncExpr *) key)->funcid;
		args = ((FuncExpr *) key)->args;
	}
	else
		return NULL;
	op = key_op_of(funcid, &type);
	if (op == GPUGB_KEY_PLAIN || list_length(args) != 2 || exprType((Node *) key) != type)
		return NULL;
	left = linitial(args);
	right = lsecond(args);

	/* column OP constant, both of the operator's type */
	if (!IsA(left, Var) || ((Var *) left)->varlevelsup != 0 || exprType(left) != type)
		return NULL;
	if (!IsA(right, Const) || ((Const *) right)->constisnull || exprType(right) != type)
		return NULL;
	t->operand = const_int((Const *) right);
	/* mod(x, 0) raises "division by zero": the input plan computes it and raises */
	if (op == GPUGB_KEY_MOD && t->operand == 0)
		return NULL;
	t->op = op;
	t->min = type == INT2OID ? PG_INT16_MIN : type == INT4OID ? PG_INT32_MIN : PG_INT64_MIN;
	t->max = type == INT2OID ? PG_INT16_MAX : type == INT4OID ? PG_INT32_MAX : PG_INT64_MAX;
	return (Var *) left;
}

List *
gpugb_key_transform_to_list(const GpugbKeyTransform *t)
{
	/* int64s as Strings: an Integer node holds an int */
	return list_make4(makeInteger(t->op),
					  makeString(psprintf(INT64_FORMAT, t->operand)),
					  makeString(psprintf(INT64_FORMAT, t->min)),
					  makeString(psprintf(INT64_FORMAT, t->max)));
}

static int64
string_int64(Node *n)
{
	return strtoi64(strVal(n), NULL, 10);
}

void
gpugb_key_transform_from_list(List *list, GpugbKeyTransform *t)
{
	t->op = (GpugbKeyOp) intVal(linitial(list));
	t->operand = string_int64(lsecond(list));
	t->min = string_int64(lthird(list));
	t->max = string_int64(lfourth(list));
}
