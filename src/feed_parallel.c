/*-------------------------------------------------------------------------
 * feed_parallel.c
 *    The leader of parallel ingest: hands the slots workers filled in
 *    shared memory (parallel.c) to the device, fills slots from its own
 *    share of the input while none is waiting, and submits strides.
 *
 * Two ways take a slot's rows to the device:
 *  - direct (gpugb.direct_slot_copy, the default): the slot area of the
 *    DSM segment is registered with the device for the run, and each slot
 *    is appended to the stride by a copy the device makes from the segment
 *    itself (gpugb_groupby_append); the slot is freed once the copy has
 *    read it.  The leader spends a few API calls per slot instead of
 *    copying 9 bytes per row and column on its one core, which set the time
 *    of a 5-aggregate Query B (about 600 ms of 100M rows x 5 columns,
 *    docs/ingest-2026-11-22.md).
 *  - staged: the leader copies each slot into the stride's pinned buffers
 *    (gpugb_shared_take) and submits the stride.  Taken when the driver
 *    refuses to register, when text min/max ranks are rewritten on the host
 *    (textorder.c works on a stride in host memory), when the Gather has no
 *    DSM segment, and with gpugb.direct_slot_copy off.
 *
 * Registration: the pages are populated first (MADV_POPULATE_WRITE): the
 * driver pins pages already mapped about 8x faster than ones it must fault
 * in itself (test/bench/host_register.cu: 512 MB in 24 against 199 ms).
 * It is undone at the end of a run that finished; otherwise (an ERROR, a
 * fallback) by a callback when the segment is detached, which first
 * destroys the device handle, so no copy from the segment is still queued,
 * and which runs before the segment is unmapped.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/mman.h>
#include <unistd.h>

#include "access/parallel.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"

#include "device_ops.h"
#include "exec.h"
#include "gpugb.h"
#include "parallel.h"
#include "textorder.h"

/* Linux 5.14; older kernels answer EINVAL, and registration faults the pages in. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* A slot whose rows the device is still copying. */
typedef struct PendingSlot
{
	int			slot;
	int			ticket;
} PendingSlot;

/*
 * Before the leader waits for workers: all launched workers must have
 * started (WaitForParallelWorkersToAttach raises an error for one that
 * failed to), and one that has exited without reporting its input done
 * would otherwise be waited for forever.
 */
static void
wait_for_workers(GpugbScanState *st, int launched, bool *attached)
{
	int			stopped = 0;

	if (st->pcxt == NULL || launched == 0)
		return;
	if (!*attached)
	{
		WaitForParallelWorkersToAttach(st->pcxt);
		*attached = true;
	}
	for (int i = 0; i < launched; i++)
	{
		pid_t		pid;

		if (st->pcxt->worker[i].bgwhandle == NULL ||
			GetBackgroundWorkerPid(st->pcxt->worker[i].bgwhandle, &pid) == BGWH_STOPPED)
			stopped++;
	}
	/*
	 * A worker that failed sent its error, and signalled us, before it
	 * exited: rethrow that error (HandleParallelMessages, through
	 * CHECK_FOR_INTERRUPTS), as WaitForParallelWorkersToFinish does, rather
	 * than report the exit alone.  A race a bug hunt saw in the code, not in
	 * a run (session 24).
	 */
	CHECK_FOR_INTERRUPTS();
	if (stopped == launched && !gpugb_shared_all_done(st->shared, launched))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("gpugb: a parallel worker exited before it finished reading its share")));
}

/* Sleeps until a slot is ready or the workers are done; idle time. */
static void
wait_for_slots(GpugbScanState *st, int launched, bool *attached)
{
	instr_time	start;

	INSTR_TIME_SET_CURRENT(start);
	wait_for_workers(st, launched, attached);
	gpugb_shared_wait(st->shared, launched);
	st->idle_ms += gpugb_ms_since(start);
	CHECK_FOR_INTERRUPTS();
}

/*
 * The top of both loops: a stride to fill (a fresh one after a submit),
 * and the workers' report of a value without a device word.  NULL, or why
 * the run cannot finish.
 */
static const char *
next_round(GpugbScanState *st, GpugbStride **stride)
{
	if (*stride == NULL)
	{
		GpugbStatus status = st->ops->next_stride(st->gb, stride);

		if (status != GPUGB_OK)
			return gpugb_device_failure(st, "aggregating", status);
		gpugb_stride_begin(&st->layout, *stride);
	}
	return gpugb_shared_unfit(st->shared);
}

/* Submits the stride if it has rows; *stride is NULL after.  NULL, or why it failed. */
static const char *
submit_stride(GpugbScanState *st, GpugbStride **stride)
{
	GpugbStatus status = GPUGB_OK;

	if (*stride != NULL && (*stride)->nrows > 0)
		status = gpugb_submit_stride(st, *stride);
	*stride = NULL;
	return status == GPUGB_OK ? NULL : gpugb_device_failure(st, "aggregating", status);
}

/*
 * The leader, staged: appends the slots workers filled to its strides
 * (a copy into pinned memory) and feeds the device; reads its own share of
 * the input while no slot is waiting; sleeps only when it has nothing to do.
 */
static const char *
feed_staged(GpugbScanState *st)
{
	int			launched = st->pcxt ? st->pcxt->nworkers_launched : 0;
	int64		capacity = st->spec.stride_rows;
	int64		chunk = gpugb_shared_slot_rows(st->shared);
	bool		own_exhausted = false;
	bool		attached = false;
	const char *failure;
	GpugbStride *stride = NULL;

	for (;;)
	{
		bool		all_done;
		bool		needs_room;
		bool		submit = false;
		instr_time	start;

		failure = next_round(st, &stride);
		if (failure)
			return failure;
		INSTR_TIME_SET_CURRENT(start);
		if (gpugb_shared_take(st->shared, &st->layout, stride, capacity, launched,
							  &all_done, &needs_room))
		{
			st->copy_ms += gpugb_ms_since(start);
			st->input_touched = true;
			submit = stride->nrows == capacity;
		}
		else if (needs_room)
			submit = true;
		else if (!own_exhausted)
		{
			failure = gpugb_fill_from_input(st, stride, Min(capacity, stride->nrows + chunk),
										  &own_exhausted);
			if (failure)
				return failure;
			submit = stride->nrows == capacity;
		}
		else if (all_done)
			break;
		else if (stride->nrows > 0)
			submit = true;		/* keep the GPU busy while we wait */
		else
			wait_for_slots(st, launched, &attached);

		if (submit && (failure = submit_stride(st, &stride)) != NULL)
			return failure;
	}
	if ((failure = submit_stride(st, &stride)) != NULL)
		return failure;
	return NULL;
}

static void
unregister_slots(GpugbScanState *st)
{
	if (st->registered_bytes == 0)
		return;
	st->registered_ops->host_unregister(st->registered_at, st->registered_bytes);
	st->registered_at = NULL;
	st->registered_bytes = 0;
}

/* The segment is going away (end of query, ERROR): nothing may read it after. */
static void
on_slots_detach(dsm_segment *seg, Datum arg)
{
	GpugbScanState *st = (GpugbScanState *) DatumGetPointer(arg);

	gpugb_release_device(st);	/* waits for every copy queued from the slots */
	unregister_slots(st);
	st->registered_seg = NULL;
}

/* Undoes a registration and its callback, once nothing reads the slots. */
static void
unregister_slots_now(GpugbScanState *st)
{
	if (st->registered_seg != NULL)
		cancel_on_dsm_detach(st->registered_seg, on_slots_detach, PointerGetDatum(st));
	st->registered_seg = NULL;
	unregister_slots(st);
}

void
gpugb_feed_parallel_unregister(GpugbScanState *st)
{
	unregister_slots_now(st);
}

/* Registers the slot area with the device; false if it cannot be. */
static bool
register_slots(GpugbScanState *st)
{
	dsm_segment *seg = st->pcxt ? st->pcxt->seg : NULL;
	Size		page = (Size) sysconf(_SC_PAGESIZE);
	char	   *start;
	Size		bytes;
	char	   *begin;
	char	   *end;
	instr_time	t0;
	GpugbStatus status;

	/* Left by a run that failed: its handle is gone, so is any copy. */
	unregister_slots_now(st);
	if (seg == NULL)
		return false;			/* the slots are in private memory: no workers */

	/* Whole pages: the segment is page-aligned, its mapping whole pages. */
	gpugb_shared_slot_area(st->shared, &start, &bytes);
	begin = (char *) TYPEALIGN_DOWN(page, start);
	end = (char *) TYPEALIGN(page, start + bytes);

	/* First: should it fail (out of memory), nothing is registered yet. */
	on_dsm_detach(seg, on_slots_detach, PointerGetDatum(st));
	st->registered_seg = seg;

	INSTR_TIME_SET_CURRENT(t0);
	(void) madvise(begin, end - begin, MADV_POPULATE_WRITE);
	status = st->ops->host_register(begin, end - begin);
	st->register_ms = gpugb_ms_since(t0);
	if (status != GPUGB_OK)
	{
		unregister_slots_now(st);	/* the callback; nothing is registered */
		ereport(DEBUG1,
				(errmsg("gpugb: copying slots through pinned strides: %s",
						st->ops->last_error())));
		return false;
	}
	st->registered_at = begin;
	st->registered_bytes = end - begin;
	st->registered_ops = st->ops;
	return true;
}

/*
 * Frees the slots whose copies have finished; with wait_oldest, waits for
 * the oldest copy first.
 */
static GpugbStatus
release_copied(GpugbScanState *st, PendingSlot *pending, int *npending, bool wait_oldest)
{
	GpugbStatus status = GPUGB_OK;
	int			kept = 0;

	for (int p = 0; p < *npending; p++)
	{
		bool		done = false;

		if (status == GPUGB_OK)
			status = st->ops->append_done(st->gb, pending[p].ticket, wait_oldest && p == 0,
										  &done);
		if (done)
			gpugb_shared_release(st->shared, pending[p].slot);
		else
			pending[kept++] = pending[p];
	}
	*npending = kept;
	return status;
}

/*
 * The leader's own slots are an eighth of a worker's: while it fills one it
 * hands no ready slot to the device, and a worker with two slots waits for
 * that (Q1's fill takes about 400 ns a row: 26 ms for a whole slot).
 */
#define GPUGB_LEADER_SLOT_SHARE 8

/* Fills a free slot from the leader's own share; false when none is free. */
static bool
fill_own_slot(GpugbScanState *st, bool *exhausted, const char **unfit)
{
	instr_time	start;
	bool		filled;

	INSTR_TIME_SET_CURRENT(start);
	filled = gpugb_shared_fill_one(st->shared, &st->layout, st->input,
								   gpugb_shared_slot_rows(st->shared) / GPUGB_LEADER_SLOT_SHARE,
								   exhausted, unfit);
	if (filled)
	{
		st->input_touched = true;
		st->fill_ms += gpugb_ms_since(start);
	}
	return filled;
}

/*
 * The leader, direct: appends ready slots to the stride straight from the
 * segment, frees them as their copies finish, fills slots from its own
 * share when none is ready, and waits (for a copy, then for a slot) only
 * when it has nothing else to do.
 */
static const char *
feed_direct(GpugbScanState *st)
{
	int			launched = st->pcxt ? st->pcxt->nworkers_launched : 0;
	int64		capacity = st->spec.stride_rows;
	PendingSlot *pending = palloc(sizeof(PendingSlot) * gpugb_shared_slots(st->shared));
	int			npending = 0;
	bool		own_exhausted = false;
	bool		attached = false;
	const char *failure;
	GpugbStride *stride = NULL;
	GpugbStatus status;

	for (;;)
	{
		bool		all_done;
		bool		needs_room;
		bool		submit = false;
		int			slot;
		instr_time	start;

		failure = next_round(st, &stride);
		if (failure)
			return failure;
		status = release_copied(st, pending, &npending, false);
		if (status != GPUGB_OK)
			return gpugb_device_failure(st, "copying slots", status);

		INSTR_TIME_SET_CURRENT(start);
		slot = gpugb_shared_take_ready(st->shared, capacity - stride->nrows, launched,
									   &all_done, &needs_room);
		if (slot >= 0)
		{
			GpugbStride view;
			int			ticket;

			/*
			 * Its rows are the device's now: should the append fail, they
			 * cannot be given to a rerun (the emulator's), only re-read.
			 */
			st->input_touched = true;
			gpugb_shared_slot_view(st->shared, &st->layout, slot, &view);
			status = st->ops->append(st->gb, stride, &view, &ticket);
			if (status != GPUGB_OK)
				return gpugb_device_failure(st, "copying slots", status);
			pending[npending].slot = slot;
			pending[npending].ticket = ticket;
			npending++;
			st->copy_ms += gpugb_ms_since(start);
			submit = stride->nrows == capacity;
		}
		else if (needs_room)
			submit = true;
		else if (!own_exhausted && fill_own_slot(st, &own_exhausted, &failure))
		{
			if (failure)
				return failure;
		}
		else if (own_exhausted && all_done)
			break;
		else if (npending > 0)
		{
			/*
			 * A copy frees its slot within microseconds: wait for the
			 * oldest rather than send the device a part of a stride.
			 */
			INSTR_TIME_SET_CURRENT(start);
			status = release_copied(st, pending, &npending, true);
			st->idle_ms += gpugb_ms_since(start);
			if (status != GPUGB_OK)
				return gpugb_device_failure(st, "copying slots", status);
		}
		else if (stride->nrows > 0)
			submit = true;		/* keep the GPU busy while we wait */
		else
			wait_for_slots(st, launched, &attached);

		if (submit && (failure = submit_stride(st, &stride)) != NULL)
			return failure;
	}
	if ((failure = submit_stride(st, &stride)) != NULL)
		return failure;
	while (npending > 0)
	{
		status = release_copied(st, pending, &npending, true);
		if (status != GPUGB_OK)
			return gpugb_device_failure(st, "copying slots", status);
	}
	pfree(pending);
	return NULL;
}

bool
gpugb_feed_parallel_prepare(GpugbScanState *st)
{
	st->direct_copy = gpugb_direct_slot_copy && !gpugb_text_ranks_needed(&st->layout) &&
		register_slots(st);
	return st->direct_copy;
}

const char *
gpugb_feed_parallel(GpugbScanState *st)
{
	const char *failure;

	failure = st->direct_copy ? feed_direct(st) : feed_staged(st);
	/*
	 * The last worker may have met a value with no device word (and dropped
	 * its slot) after the loop's last look: its rows are missing then.
	 */
	if (failure == NULL)
		failure = gpugb_shared_unfit(st->shared);
	if (failure == NULL)
	{
		/* every copy from the slots has finished: feed_direct waited for them */
		unregister_slots_now(st);
		gpugb_shared_worker_times(st->shared, &st->workers_fill_ms, &st->workers_stall_ms);
	}
	return failure;
}
