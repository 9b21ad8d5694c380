/*-------------------------------------------------------------------------
 * textqual.h
 *    A scan qual that compares a text, varchar or char(n) column with
 *    constants for equality (=, <>, IN, NOT IN), checked by the heap
 *    reader on the tuple's bytes instead of through the slot and ExecQual
 *    (textqual.c).
 *
 * Under a deterministic collation texteq and bpchareq compare bytes (after
 * dropping trailing blanks, for char(n)): no collation library, no error.
 * ClickBench's `WHERE SearchPhrase <> ''` and TPC-H Q12's
 * `l_shipmode IN ('MAIL', 'SHIP')` are such quals.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_TEXTQUAL_H
#define GPUGB_TEXTQUAL_H

#include "postgres.h"

#include "nodes/primnodes.h"

typedef struct GpugbTextQual
{
	AttrNumber	attno;			/* the column, in the scanned table */
	bool		blank_padded;	/* char(n): trailing blanks do not count */
	bool		negate;			/* <> or NOT IN: true where no constant is equal */
	int			n_values;
	const char **values;		/* the constants' bytes (char(n): without trailing blanks) */
	int		   *lengths;
} GpugbTextQual;

/*
 * If qual is  column = const,  column <> const,  column = ANY (consts)  or
 * column <> ALL (consts)  of text, varchar or char(n) under a deterministic
 * collation, with no NULL constant, fills *tq (attno left to the caller)
 * and returns the column's Var; else NULL.  Allocates in the current
 * memory context.
 */
extern Var *gpugb_text_qual_compile(Expr *qual, GpugbTextQual *tq);

/*
 * The qual's truth for a non-NULL value at p (a varlena as stored in a
 * tuple): 1 true, 0 false, -1 where the value is compressed or stored out
 * of line (the caller asks PostgreSQL's own operator).
 */
static inline int
gpugb_text_qual_check(const GpugbTextQual *tq, const char *p)
{
	const char *data;
	int			len;

	if (VARATT_IS_COMPRESSED(p) || VARATT_IS_EXTERNAL(p))
		return -1;
	data = VARDATA_ANY(p);
	len = VARSIZE_ANY_EXHDR(p);
	if (tq->blank_padded)
		while (len > 0 && data[len - 1] == ' ')
			len--;				/* as bcTruelen */
	for (int i = 0; i < tq->n_values; i++)
		if (len == tq->lengths[i] && memcmp(data, tq->values[i], len) == 0)
			return tq->negate ? 0 : 1;
	return tq->negate ? 1 : 0;
}

#endif							/* GPUGB_TEXTQUAL_H */
