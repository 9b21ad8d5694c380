/*-------------------------------------------------------------------------
 * parallel.h
 *    Parallel ingest: workers fill column strides in dynamic shared memory,
 *    the leader alone feeds them to the GPU.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_PARALLEL_H
#define GPUGB_PARALLEL_H

#include "postgres.h"

#include "access/parallel.h"

#include "exec.h"

typedef struct GpugbShared GpugbShared;

extern Size gpugb_shared_size(const GpugbInputLayout *layout, int nworkers);
extern void gpugb_shared_init(GpugbShared *shared, const GpugbInputLayout *layout,
							  int nworkers);
extern void gpugb_shared_reset(GpugbShared *shared);
/* Where the query's shared text dictionary is found (textdict.c). */
extern struct GpugbSharedTextDict *gpugb_shared_text_dict(GpugbShared *shared);

/* Worker: fills slots from its share of the input until it is exhausted. */
extern void gpugb_shared_fill_all(GpugbShared *shared, const GpugbInputLayout *layout,
								  PlanState *input);

/*
 * Leader: appends the next filled slot to the stride (after its nrows rows)
 * and returns true; or returns false with *needs_room set (a slot is ready
 * but does not fit: submit the stride first), *all_done set (every launched
 * worker finished and no slot is left), or neither (nothing ready yet).
 */
extern bool gpugb_shared_take(GpugbShared *shared, const GpugbInputLayout *layout,
							  GpugbStride *stride, int64 capacity, int nworkers_launched,
							  bool *all_done, bool *needs_room);
/*
 * Leader, taking slots one by one (the direct copy, feed_parallel.c): a
 * READY slot of at most `room` rows, now TAKEN (or -1, with *all_done and
 * *needs_room as above); its rows as a stride view into the segment; and
 * back to FREE once the device has read it.
 */
extern int	gpugb_shared_take_ready(GpugbShared *shared, int64 room, int nworkers_launched,
									bool *all_done, bool *needs_room);
extern void gpugb_shared_slot_view(GpugbShared *shared, const GpugbInputLayout *layout, int i,
								   GpugbStride *view);
extern void gpugb_shared_release(GpugbShared *shared, int i);
/*
 * Leader: fills a free slot with up to max_rows rows of its own share of
 * the input and makes it READY; false when no slot is free.  *unfit: why a
 * value has no device word, or NULL.
 */
extern bool gpugb_shared_fill_one(GpugbShared *shared, const GpugbInputLayout *layout,
								  PlanState *input, int64 max_rows, bool *exhausted,
								  const char **unfit);
/* Where the slots lie (to register them with the device), and how many there are. */
extern void gpugb_shared_slot_area(GpugbShared *shared, char **start, Size *bytes);
extern int	gpugb_shared_slots(GpugbShared *shared);
extern bool gpugb_shared_all_done(GpugbShared *shared, int nworkers_launched);
/* Leader: tells the workers to stop filling (the GPU path was abandoned). */
extern void gpugb_shared_abandon(GpugbShared *shared);
/* Leader: sleeps until a slot is ready or every worker has finished (or 100 ms). */
extern void gpugb_shared_wait(GpugbShared *shared, int nworkers_launched);
extern int64 gpugb_shared_slot_rows(GpugbShared *shared);
extern const char *gpugb_shared_unfit(GpugbShared *shared);
/* Leader, after the workers are done: their summed fill and stall times. */
extern void gpugb_shared_worker_times(GpugbShared *shared, double *fill_ms,
									  double *stall_ms);

#endif							/* GPUGB_PARALLEL_H */
