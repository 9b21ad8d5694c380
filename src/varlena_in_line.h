/*
 * varlena_in_line.h
 *    A varlena Datum's bytes in line, for the readers that take text and
 *    numeric values apart themselves (src/strides.c, src/numeric_words.h).
 */
#ifndef GPUGB_VARLENA_IN_LINE_H
#define GPUGB_VARLENA_IN_LINE_H

#include "postgres.h"
#include "fmgr.h"

/*
 * Datum d's varlena with its bytes in line (pg_detoast_datum_packed): d
 * itself, or where d is compressed or stored out of line (TOAST), a
 * palloc'd copy, which *copy also returns (to pfree; NULL otherwise).  A
 * short (1-byte header) value in line is used as it is: read it with
 * VARDATA_ANY and VARSIZE_ANY_EXHDR.
 *
 * Not "VARATT_IS_EXTENDED && !VARATT_IS_SHORT": an out-of-line TOAST
 * pointer has a 1-byte header too, and VARATT_IS_SHORT (VARATT_IS_1B) is
 * true of it, so that test read the pointer's own bytes as the value: text
 * keys of more than about 2 kB were grouped by their TOAST pointers
 * (session 24).
 */
static inline struct varlena *
gpugb_varlena_in_line(Datum d, struct varlena **copy)
{
	struct varlena *stored = (struct varlena *) DatumGetPointer(d);
	struct varlena *raw = pg_detoast_datum_packed(stored);

	*copy = raw != stored ? raw : NULL;
	return raw;
}

#endif							/* GPUGB_VARLENA_IN_LINE_H */
