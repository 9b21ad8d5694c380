/*-------------------------------------------------------------------------
 * textorder.h
 *    min/max of text, varchar and char(n) on the device: dictionary ids
 *    ranked in the collation's order (see textorder.c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_TEXTORDER_H
#define GPUGB_TEXTORDER_H

#include "postgres.h"

#include "aggcatalog.h"
#include "textdict.h"

typedef struct GpugbTextOrder GpugbTextOrder;

extern GpugbTextOrder *gpugb_textorder_create(MemoryContext parent, GpugbTextDict *dict,
											  Oid collation);
extern void gpugb_textorder_reset(GpugbTextOrder *order, GpugbTextDict *dict);
extern void gpugb_textorder_note(GpugbTextOrder *order, const int64 *ids, const uint8 *nulls,
								 int64 nrows);
extern const int64 *gpugb_textorder_refresh(GpugbTextOrder *order, int64 *map_len);
extern int64 gpugb_textorder_rank(const GpugbTextOrder *order, int64 id);
extern Datum gpugb_textorder_datum(const GpugbTextOrder *order, GpugbColumnType type,
								   int64 rank);

/* The executor's side (exec.h's state). */
struct GpugbScanState;
struct GpugbStride;
struct GpugbInputLayout;
extern bool gpugb_text_ranks_needed(const struct GpugbInputLayout *layout);
extern void gpugb_text_ranks_begin(struct GpugbScanState *st, MemoryContext cxt);
extern void gpugb_text_ranks_reset(struct GpugbScanState *st);
extern GpugbStatus gpugb_text_ranks_prepare(struct GpugbScanState *st,
											struct GpugbStride *stride);

#endif							/* GPUGB_TEXTORDER_H */
