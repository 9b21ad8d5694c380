/*-------------------------------------------------------------------------
 * keyexpr.c
 *    Recognizes integer GROUP BY keys  column OP constant, and
 *    date_trunc('unit', timestamp column), that the stride filler computes
 *    (see keyexpr.h).
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pg_list.h"
#include "nodes/value.h"
#include "parser/scansup.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
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

/*
 * date_trunc('unit', timestamp column) with a unit the filler computes:
 * the unit string is parsed as timestamp_trunc parses it (lower-cased,
 * DecodeUnits), once, here.
 */
static Var *
date_trunc_transform(FuncExpr *func, GpugbKeyTransform *t)
{
	Node	   *unit = linitial(func->args);
	Node	   *column = lsecond(func->args);
	text	   *units;
	char	   *lowunits;
	int			val;

	if (list_length(func->args) != 2 || !IsA(unit, Const) || ((Const *) unit)->constisnull ||
		exprType(unit) != TEXTOID || !IsA(column, Var) ||
		((Var *) column)->varlevelsup != 0 || exprType(column) != TIMESTAMPOID)
		return NULL;
	units = DatumGetTextPP(((Const *) unit)->constvalue);
	lowunits = downcase_truncate_identifier(VARDATA_ANY(units), VARSIZE_ANY_EXHDR(units), false);
	if (DecodeUnits(0, lowunits, &val) != UNITS)
		return NULL;			/* the input plan raises PostgreSQL's error */
	t->op = GPUGB_KEY_TRUNC;
	t->offset = 0;				/* 2000-01-01 00:00, a day boundary */
	switch (val)
	{
		case DTK_MICROSEC:
			t->operand = 1;
			break;
		case DTK_MILLISEC:
			t->operand = 1000;
			break;
		case DTK_SECOND:
			t->operand = USECS_PER_SEC;
			break;
		case DTK_MINUTE:
			t->operand = USECS_PER_MINUTE;
			break;
		case DTK_HOUR:
			t->operand = USECS_PER_HOUR;
			break;
		case DTK_DAY:
			t->operand = USECS_PER_DAY;
			break;
		case DTK_WEEK:
			/* ISO weeks start on Monday; 2000-01-03 was one */
			t->operand = 7 * USECS_PER_DAY;
			t->offset = 2 * USECS_PER_DAY;
			break;
		case DTK_MONTH:
		case DTK_QUARTER:
		case DTK_YEAR:
			t->op = GPUGB_KEY_TRUNC_MONTHS;
			t->operand = val == DTK_MONTH ? 1 : val == DTK_QUARTER ? 3 : MONTHS_PER_YEAR;
			break;
		default:
			/* decade, century, millennium: the input plan computes them */
			t->op = GPUGB_KEY_PLAIN;
			return NULL;
	}
	t->min = MIN_TIMESTAMP;
	t->max = END_TIMESTAMP - 1;
	return (Var *) column;
}

/*
 * A month, quarter or year: the first day of the block of operand months
 * holding the timestamp's calendar day (the day floored, as timestamp2tm).
 */
bool
gpugb_key_trunc_months(const GpugbKeyTransform *t, int64 *word)
{
	int64		x = *word;
	int64		days;
	int64		r;
	int			year,
				month,
				day;

	if (x == PG_INT64_MIN || x == PG_INT64_MAX)
		return true;			/* infinities: unchanged */
	if (x < t->min || x > t->max)
		return false;
	days = x / USECS_PER_DAY;
	if (x % USECS_PER_DAY < 0)
		days--;
	j2date((int) (days + POSTGRES_EPOCH_JDATE), &year, &month, &day);
	month = (month - 1) / (int) t->operand * (int) t->operand + 1;
	r = ((int64) date2j(year, month, 1) - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY;
	if (r < t->min || r > t->max)
		return false;
	*word = r;
	return true;
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
	else if (IsA(key, FuncExpr) && ((FuncExpr *) key)->funcid == F_DATE_TRUNC_TEXT_TIMESTAMP)
		return date_trunc_transform((FuncExpr *) key, t);
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
	return list_make5(makeInteger(t->op),
					  makeString(psprintf(INT64_FORMAT, t->operand)),
					  makeString(psprintf(INT64_FORMAT, t->offset)),
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
	t->offset = string_int64(lthird(list));
	t->min = string_int64(lfourth(list));
	t->max = string_int64(list_nth(list, 4));
}
