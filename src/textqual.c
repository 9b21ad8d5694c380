/*-------------------------------------------------------------------------
 * textqual.c
 *    Recognizing scan quals that compare a text, varchar or char(n) column
 *    with constants for equality, for the heap reader to check on the
 *    tuple's bytes (textqual.h).
 *
 * Only texteq, textne, bpchareq and bpcharne, under a deterministic
 * collation: there PostgreSQL's operators compare lengths and bytes
 * (bpchar's after bcTruelen drops trailing blanks) and raise no error, so
 * checking them before or after the scan's other quals gives the same
 * rows.  A nondeterministic collation, a missing collation (PostgreSQL's
 * "could not determine which collation" error), a NULL constant and any
 * other operator are left to ExecQual.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "gpugb.h"
#include "textqual.h"

/* Is funcid a comparison this module checks?  Sets *bpchar and *equal. */
static bool
text_equality_function(Oid funcid, bool *bpchar, bool *equal)
{
	switch (funcid)
	{
		case F_TEXTEQ:
			*bpchar = false;
			*equal = true;
			return true;
		case F_TEXTNE:
			*bpchar = false;
			*equal = false;
			return true;
		case F_BPCHAREQ:
			*bpchar = true;
			*equal = true;
			return true;
		case F_BPCHARNE:
			*bpchar = true;
			*equal = false;
			return true;
		default:
			return false;
	}
}

/* A column of the operator's own type family (varchar under texteq). */
static bool
column_type_fits(Oid type, bool bpchar)
{
	return bpchar ? type == BPCHAROID : (type == TEXTOID || type == VARCHAROID);
}

static bool
collation_fits(Oid collid)
{
	return OidIsValid(collid) && get_collation_isdeterministic(collid);
}

/* Appends one constant's bytes (char(n): without trailing blanks) to tq. */
static void
add_value(GpugbTextQual *tq, Datum value)
{
	struct varlena *v = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value));
	int			len = VARSIZE_ANY_EXHDR(v);
	char	   *bytes = palloc(len + 1);

	memcpy(bytes, VARDATA_ANY(v), len);
	if (tq->blank_padded)
		while (len > 0 && bytes[len - 1] == ' ')
			len--;
	tq->values[tq->n_values] = bytes;
	tq->lengths[tq->n_values] = len;
	tq->n_values++;
}

/* column op const, either way round */
static Var *
compile_opexpr(OpExpr *op, GpugbTextQual *tq)
{
	bool		bpchar;
	bool		equal;
	Node	   *left;
	Node	   *right;
	Var		   *var;
	Const	   *cst;

	if (list_length(op->args) != 2 ||
		!text_equality_function(get_opcode(op->opno), &bpchar, &equal) ||
		!collation_fits(op->inputcollid))
		return NULL;
	left = gpugb_strip_relabel(linitial(op->args));
	right = gpugb_strip_relabel(lsecond(op->args));
	if (IsA(left, Var) && IsA(right, Const))
	{
		var = (Var *) left;
		cst = (Const *) right;
	}
	else if (IsA(left, Const) && IsA(right, Var))
	{
		var = (Var *) right;
		cst = (Const *) left;
	}
	else
		return NULL;
	if (!column_type_fits(var->vartype, bpchar) || !column_type_fits(cst->consttype, bpchar) ||
		cst->constisnull)
		return NULL;
	tq->blank_padded = bpchar;
	tq->negate = !equal;
	tq->n_values = 0;
	tq->values = palloc(sizeof(char *));
	tq->lengths = palloc(sizeof(int));
	add_value(tq, cst->constvalue);
	return var;
}

/* column = ANY (consts) (IN) or column <> ALL (consts) (NOT IN) */
static Var *
compile_array(ScalarArrayOpExpr *saop, GpugbTextQual *tq)
{
	bool		bpchar;
	bool		equal;
	Node	   *scalar;
	Node	   *array;
	Var		   *var;
	Const	   *cst;
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	int			n;

	if (list_length(saop->args) != 2 ||
		!text_equality_function(get_opcode(saop->opno), &bpchar, &equal) ||
		saop->useOr != equal ||	/* = ALL and <> ANY: left to ExecQual */
		!collation_fits(saop->inputcollid))
		return NULL;
	scalar = gpugb_strip_relabel(linitial(saop->args));
	array = lsecond(saop->args);
	if (!IsA(scalar, Var) || !IsA(array, Const))
		return NULL;
	var = (Var *) scalar;
	cst = (Const *) array;
	if (!column_type_fits(var->vartype, bpchar) || cst->constisnull)
		return NULL;
	arr = DatumGetArrayTypeP(cst->constvalue);
	if (!column_type_fits(ARR_ELEMTYPE(arr), bpchar))
		return NULL;
	deconstruct_array(arr, ARR_ELEMTYPE(arr), -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	if (n == 0)
		return NULL;
	for (int i = 0; i < n; i++)
		if (nulls[i])
			return NULL;		/* IN (.., NULL): a NULL where none is equal */
	tq->blank_padded = bpchar;
	tq->negate = !equal;
	tq->n_values = 0;
	tq->values = palloc(sizeof(char *) * n);
	tq->lengths = palloc(sizeof(int) * n);
	for (int i = 0; i < n; i++)
		add_value(tq, elems[i]);
	return var;
}

Var *
gpugb_text_qual_compile(Expr *qual, GpugbTextQual *tq)
{
	memset(tq, 0, sizeof(*tq));
	if (IsA(qual, OpExpr))
		return compile_opexpr((OpExpr *) qual, tq);
	if (IsA(qual, ScalarArrayOpExpr))
		return compile_array((ScalarArrayOpExpr *) qual, tq);
	return NULL;
}
