/*-------------------------------------------------------------------------
 * heapread.h
 *    Reading a plain heap SeqScan's visible rows page by page, without the
 *    executor's per-row calls (heapread.c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_HEAPREAD_H
#define GPUGB_HEAPREAD_H

#include "postgres.h"

#include "nodes/execnodes.h"

typedef struct GpugbHeapReader GpugbHeapReader;

/*
 * A reader of input's rows, or NULL where input is not a SeqScan of a heap
 * table: then the filler calls
 * ExecProcNode.  n_columns: the columns of input's target list the filler
 * reads.  Allocated in the current memory context.
 */
extern GpugbHeapReader *gpugb_heap_reader_create(PlanState *input, int n_columns);

/*
 * The next visible row's columns (input's target list positions) into
 * values/isnull, or false at the end of the scan.  false also where the
 * scan cannot be read directly after all (a snapshot that is not MVCC);
 * gpugb_heap_reader_usable then says so, before the first row.
 * By-reference Datums point into the scan's current page (or into memory
 * reset per row) and are valid only until the next call: convert the row
 * before asking for another.
 */
extern bool gpugb_heap_reader_usable(GpugbHeapReader *reader);
extern bool gpugb_heap_reader_next(GpugbHeapReader *reader, Datum *values, bool *isnull);

/*
 * Up to max (at most GPUGB_HEAP_READ_BATCH) next visible rows, without a
 * call per row.  *end: the scan ended after the rows returned (and has
 * reset itself, as at the end of gpugb_heap_reader_next: do not call again
 * before a rescan).  Row i's column c is at
 * (*values)[i * n_columns + c], in the reader's own arrays, valid until
 * its next call.  Only for columns of by-value types, or whose Datum is
 * never read (count(x)'s nullness): a by-reference Datum of an earlier
 * row of the batch may point into a page the scan has let go of, or into
 * memory reset for the next row.
 */
#define GPUGB_HEAP_READ_BATCH 64
extern int	gpugb_heap_reader_next_batch(GpugbHeapReader *reader, int max,
										 const Datum **values, const bool **isnull,
										 bool *end);

/*
 * The same, with rows of one page only (the first row of a call may move
 * on to the next page), so by-reference Datums (pointers into the page,
 * which the scan keeps pinned until it moves on) stay valid until the
 * next call.  Not for a reader that projects (its values live in memory
 * reset per row).
 */
extern bool gpugb_heap_reader_projects(GpugbHeapReader *reader);
extern int	gpugb_heap_reader_next_page_batch(GpugbHeapReader *reader, int max,
											  const Datum **values, const bool **isnull,
											  bool *end);

/* Does the reader check the scan's quals itself (EXPLAIN ANALYZE)? */
extern bool gpugb_heap_reader_checks_quals(GpugbHeapReader *reader);

/* Rows read so far (EXPLAIN ANALYZE). */
extern int64 gpugb_heap_reader_rows(GpugbHeapReader *reader);

#endif							/* GPUGB_HEAPREAD_H */
