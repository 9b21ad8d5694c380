/*-------------------------------------------------------------------------
 * hostexpr_compiler.h
 *    The host expression compiler's state and helpers, shared by
 *    hostexpr.c (values: arithmetic, CASE, COALESCE) and hostexpr_cond.c
 *    (conditions).  Internal to those two files.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_HOSTEXPR_COMPILER_H
#define GPUGB_HOSTEXPR_COMPILER_H

#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/pg_list.h"
#include "nodes/primnodes.h"
#include "nodes/value.h"

#include "hostexpr.h"

typedef struct Compiler
{
	bool		collecting;		/* only collect the leaves (no child columns yet) */
	List	   *child_columns;
	List	   *leaves;
	List	   *program;		/* Integer/String nodes, 4 per step */
	int			nsteps;
	int			conditional;	/* where PostgreSQL may not compute it (a CASE result, a
								 * COALESCE argument after the first): leaves must be
								 * plain columns, which cannot raise an error */
	int			nonstrict;		/* inside a CASE ... ELSE or a COALESCE: a NULL is a value
								 * there, so no FILTER may end the evaluation */
	bool		integer;		/* an integer (or bool) result: integer operators */
	Oid			passthrough;	/* a result of this type is a column's word, filtered or
								 * picked (float, date, time, timestamp); else invalid */
	int			operands;		/* inside an integer operator's or cast's operands */
	bool		packing;		/* the arms of a numeric CASE ... ELSE or COALESCE at the
								 * top: each becomes a packed free numeric word */
	int			packed_scale;	/* the largest scale of those arms */
	bool		pack_top;		/* a free numeric GROUP BY key: its result is packed, with
								 * the scale of its arm or of the whole expression */
} Compiler;

static inline void
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
static inline bool
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
	/*
	 * Inside an integer operator's operands, the child would compute a leaf
	 * before the operands to its left, whose "integer out of range" then
	 * gives way to the leaf's own error (division by zero): plain columns.
	 */
	if (c->operands > 0 && !IsA(expr, Var))
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

static inline bool
leaf(Compiler *c, Expr *expr)
{
	int			column;

	if (!leaf_column(c, expr, &column))
		return false;
	emit(c, GPUGB_HX_COLUMN, column, 0, 0);
	return true;
}

/* The bits of an integer type's values, 0 for other types. */
static inline int
integer_bits(Oid typid)
{
	return typid == INT2OID ? 16 : typid == INT4OID ? 32 : typid == INT8OID ? 64 : 0;
}

static inline bool
is_integer_type(Oid typid)
{
	return integer_bits(typid) > 0;
}

/* Types whose device word is their value as an integer (datum_to_word). */
static inline bool
is_integer_word_type(Oid typid)
{
	return is_integer_type(typid) || typid == DATEOID || typid == TIMEOID ||
		typid == TIMESTAMPOID || typid == TIMESTAMPTZOID;
}

static inline int64
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

static inline bool
is_float_type(Oid type)
{
	return type == FLOAT4OID || type == FLOAT8OID;
}

/* A float constant's value as a double word (a float4 widens exactly). */
static inline int64
float_word_of(Const *cst)
{
	return gpugb_double_to_word(cst->consttype == FLOAT4OID ?
								(double) DatumGetFloat4(cst->constvalue) :
								DatumGetFloat8(cst->constvalue));
}

/* hostexpr_cond.c */
extern bool gpugb_hx_compile_condition(Compiler *c, Expr *cond);
extern bool gpugb_hx_compile_where(Compiler *c, Expr *cond);

#endif							/* GPUGB_HOSTEXPR_COMPILER_H */
