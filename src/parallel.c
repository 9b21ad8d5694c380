/*-------------------------------------------------------------------------
 * parallel.c
 *    Parallel ingest through dynamic shared memory.
 *
 * Reading and deforming rows is the CPU's whole share of a GPU GROUP BY, so
 * it must scale like PostgreSQL's own parallel scan.  Under a Gather, every
 * worker pulls its share of a parallel input into fixed-size column slots
 * in the node's DSM segment; the leader hands ready slots to the device
 * (feed_parallel.c: straight from the registered segment, or copied into
 * its pinned strides) and fills slots from its own share when none is
 * waiting.  Only the leader ever touches CUDA: a CUDA context per worker
 * costs hundreds of milliseconds, and sixteen of them at once serialize in
 * the driver.
 *
 * Slot life cycle, under the spinlock: FREE -> FILLING (a worker, or the
 * leader) -> READY -> TAKEN (the leader, until the device has read it) ->
 * FREE.  Every change is broadcast on the condition variable, on which
 * workers wait for a free slot and the leader for a ready one.  The leader
 * is done when every launched worker has reported its input exhausted and
 * no slot is READY.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "portability/instr_time.h"
#include "storage/condition_variable.h"
#include "storage/spin.h"

#include "gpugb.h"
#include "parallel.h"
#include "textdict.h"

/*
 * Rows per slot, and slots per participant: four while the leader copies
 * each slot on its core (a worker fills ahead while it waits its turn);
 * two when the device copies them (feed_parallel.c's direct copy frees a
 * slot within a few hundred microseconds), which halves the area the
 * leader registers with the device (about 0.2 ms per MB).
 */
#define GPUGB_SLOT_ROWS 65536
#define GPUGB_SLOTS_PER_WORKER (gpugb_direct_slot_copy ? 2 : 4)
/* Bound on the DSM data of one node. */
#define GPUGB_SHARED_MAX_BYTES ((Size) 512 * 1024 * 1024)

typedef enum GpugbSlotState
{
	GPUGB_SLOT_FREE,
	GPUGB_SLOT_FILLING,
	GPUGB_SLOT_READY,
	GPUGB_SLOT_TAKEN
} GpugbSlotState;

typedef struct GpugbSlot
{
	GpugbSlotState state;
	int64		nrows;
	bool		has_nulls[GPUGB_MAX_KEYS + GPUGB_MAX_INPUTS];
} GpugbSlot;

struct GpugbShared
{
	slock_t		mutex;
	ConditionVariable cv;
	int			nslots;
	int			ncols;
	int64		slot_rows;
	Size		data_offset;	/* from the start of this struct */
	Size		slot_bytes;
	int			workers_done;
	/* EXPLAIN ANALYZE: workers' time filling slots and waiting for a free one */
	double		workers_fill_ms;
	double		workers_stall_ms;
	bool		abandoned;		/* the leader gave up on the GPU: stop filling */
	char		unfit[128];		/* why a worker met a value with no device word */
	/* long text keys: the query's one dictionary, which outlives a rescan */
	GpugbSharedTextDict text_dict;
	GpugbSlot	slots[FLEXIBLE_ARRAY_MEMBER];
};

static int
layout_columns(const GpugbInputLayout *layout)
{
	return layout->n_keys + layout->n_inputs;
}

static int
slot_count(int nworkers)
{
	return GPUGB_SLOTS_PER_WORKER * (Max(nworkers, 1) + 1);
}

static int64
slot_rows_for(const GpugbInputLayout *layout, int nslots)
{
	int64		per_row = 9 * Max(layout_columns(layout), 1);
	int64		rows = GPUGB_SLOT_ROWS;

	while (rows > 1024 && (Size) nslots * rows * per_row > GPUGB_SHARED_MAX_BYTES)
		rows /= 2;
	return rows;
}

Size
gpugb_shared_size(const GpugbInputLayout *layout, int nworkers)
{
	int			nslots = slot_count(nworkers);
	int64		rows = slot_rows_for(layout, nslots);
	Size		header = MAXALIGN(add_size(offsetof(GpugbShared, slots),
										   mul_size(nslots, sizeof(GpugbSlot))));
	Size		slot_bytes = MAXALIGN(rows * 9 * Max(layout_columns(layout), 1));

	return add_size(header, mul_size(nslots, slot_bytes));
}

void
gpugb_shared_init(GpugbShared *shared, const GpugbInputLayout *layout, int nworkers)
{
	int			nslots = slot_count(nworkers);

	SpinLockInit(&shared->mutex);
	ConditionVariableInit(&shared->cv);
	shared->nslots = nslots;
	shared->ncols = layout_columns(layout);
	shared->slot_rows = slot_rows_for(layout, nslots);
	shared->data_offset = MAXALIGN(offsetof(GpugbShared, slots) + nslots * sizeof(GpugbSlot));
	shared->slot_bytes = MAXALIGN(shared->slot_rows * 9 * Max(shared->ncols, 1));
	gpugb_textdict_shared_init(&shared->text_dict);
	gpugb_shared_reset(shared);
}

void
gpugb_shared_reset(GpugbShared *shared)
{
	shared->workers_done = 0;
	shared->workers_fill_ms = 0;
	shared->workers_stall_ms = 0;
	shared->abandoned = false;
	shared->unfit[0] = '\0';
	for (int i = 0; i < shared->nslots; i++)
	{
		shared->slots[i].state = GPUGB_SLOT_FREE;
		shared->slots[i].nrows = 0;
	}
}

struct GpugbSharedTextDict *
gpugb_shared_text_dict(GpugbShared *shared)
{
	return &shared->text_dict;
}

int64
gpugb_shared_slot_rows(GpugbShared *shared)
{
	return shared->slot_rows;
}

/* Column c of slot i: slot_rows values, then (after all values) slot_rows null bytes. */
static int64 *
slot_values(GpugbShared *shared, int i, int c)
{
	char	   *data = (char *) shared + shared->data_offset + i * shared->slot_bytes;

	return (int64 *) data + c * shared->slot_rows;
}

static uint8 *
slot_nulls(GpugbShared *shared, int i, int c)
{
	char	   *data = (char *) shared + shared->data_offset + i * shared->slot_bytes;

	return (uint8 *) (data + shared->ncols * shared->slot_rows * sizeof(int64)) +
		c * shared->slot_rows;
}

/* A stride view of slot i, for gpugb_fill_stride. */
static void
slot_stride(GpugbShared *shared, const GpugbInputLayout *layout, int i, GpugbStride *s)
{
	memset(s, 0, sizeof(*s));
	for (int k = 0; k < layout->n_keys; k++)
	{
		s->key_values[k] = slot_values(shared, i, k);
		s->key_nulls[k] = slot_nulls(shared, i, k);
	}
	for (int j = 0; j < layout->n_inputs; j++)
	{
		s->input_values[j] = slot_values(shared, i, layout->n_keys + j);
		s->input_nulls[j] = slot_nulls(shared, i, layout->n_keys + j);
	}
}

/*
 * A free slot, now FILLING; or -1 once the leader has abandoned the work,
 * or (without wait) when no slot is free.
 */
static int
acquire_free_slot(GpugbShared *shared, bool wait)
{
	int			found = -1;

	for (;;)
	{
		bool		abandoned;

		SpinLockAcquire(&shared->mutex);
		abandoned = shared->abandoned;
		for (int i = 0; i < shared->nslots && found < 0 && !abandoned; i++)
			if (shared->slots[i].state == GPUGB_SLOT_FREE)
			{
				shared->slots[i].state = GPUGB_SLOT_FILLING;
				found = i;
			}
		SpinLockRelease(&shared->mutex);
		if (found >= 0 || abandoned || !wait)
			break;
		ConditionVariableSleep(&shared->cv, PG_WAIT_EXTENSION);
	}
	if (wait)
		ConditionVariableCancelSleep();
	return found;
}

/*
 * Fills slot i (FILLING) from this process's input and makes it READY, or
 * FREE when it got no row.  A worker books its times in the shared totals
 * and reports its input done; the leader keeps its own books.  Returns
 * NULL, or why a value has no device word (the slot is then FREE).
 */
static const char *
fill_slot(GpugbShared *shared, const GpugbInputLayout *layout, PlanState *input, int i,
		  int64 max_rows, bool *exhausted, bool worker, double stall_ms)
{
	instr_time	start,
				filled;
	GpugbStride s;
	const char *unfit;

	INSTR_TIME_SET_CURRENT(start);
	slot_stride(shared, layout, i, &s);
	gpugb_stride_begin(layout, &s);
	gpugb_fill_stride(layout, input, &s, Min(max_rows, shared->slot_rows), exhausted, &unfit);
	INSTR_TIME_SET_CURRENT(filled);
	INSTR_TIME_SUBTRACT(filled, start);

	SpinLockAcquire(&shared->mutex);
	if (worker)
	{
		shared->workers_stall_ms += stall_ms;
		shared->workers_fill_ms += INSTR_TIME_GET_MILLISEC(filled);
		/* The leader falls back; this slot and the rest are of no use. */
		if (unfit)
			strlcpy(shared->unfit, unfit, sizeof(shared->unfit));
	}
	if (unfit)
	{
		s.nrows = 0;
		*exhausted = true;
	}
	shared->slots[i].nrows = s.nrows;
	for (int k = 0; k < layout->n_keys; k++)
		shared->slots[i].has_nulls[k] = s.key_has_nulls[k];
	for (int j = 0; j < layout->n_inputs; j++)
		shared->slots[i].has_nulls[layout->n_keys + j] = s.input_has_nulls[j];
	shared->slots[i].state = s.nrows > 0 ? GPUGB_SLOT_READY : GPUGB_SLOT_FREE;
	if (worker && *exhausted)
		shared->workers_done++;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->cv);
	return unfit;
}

void
gpugb_shared_fill_all(GpugbShared *shared, const GpugbInputLayout *layout, PlanState *input)
{
	bool		exhausted = false;

	while (!exhausted)
	{
		instr_time	start,
					acquired;
		int			i;

		INSTR_TIME_SET_CURRENT(start);
		i = acquire_free_slot(shared, true);
		INSTR_TIME_SET_CURRENT(acquired);
		INSTR_TIME_SUBTRACT(acquired, start);
		if (i < 0)
			break;
		(void) fill_slot(shared, layout, input, i, shared->slot_rows, &exhausted, true,
						 INSTR_TIME_GET_MILLISEC(acquired));
	}
}

bool
gpugb_shared_fill_one(GpugbShared *shared, const GpugbInputLayout *layout, PlanState *input,
					  int64 max_rows, bool *exhausted, const char **unfit)
{
	int			i = acquire_free_slot(shared, false);

	*unfit = NULL;
	if (i < 0)
		return false;
	*unfit = fill_slot(shared, layout, input, i, max_rows, exhausted, false, 0);
	return true;
}

int
gpugb_shared_take_ready(GpugbShared *shared, int64 room, int nworkers_launched,
						bool *all_done, bool *needs_room)
{
	int			found = -1;
	bool		any_ready = false;

	SpinLockAcquire(&shared->mutex);
	for (int i = 0; i < shared->nslots; i++)
	{
		if (shared->slots[i].state != GPUGB_SLOT_READY)
			continue;
		any_ready = true;
		if (found < 0 && shared->slots[i].nrows <= room)
		{
			shared->slots[i].state = GPUGB_SLOT_TAKEN;
			found = i;
		}
	}
	*all_done = !any_ready && shared->workers_done >= nworkers_launched;
	*needs_room = any_ready && found < 0;
	SpinLockRelease(&shared->mutex);
	return found;
}

void
gpugb_shared_slot_view(GpugbShared *shared, const GpugbInputLayout *layout, int i,
					   GpugbStride *view)
{
	slot_stride(shared, layout, i, view);
	view->nrows = shared->slots[i].nrows;
	for (int k = 0; k < layout->n_keys; k++)
		view->key_has_nulls[k] = shared->slots[i].has_nulls[k];
	for (int j = 0; j < layout->n_inputs; j++)
		view->input_has_nulls[j] = shared->slots[i].has_nulls[layout->n_keys + j];
}

void
gpugb_shared_release(GpugbShared *shared, int i)
{
	SpinLockAcquire(&shared->mutex);
	Assert(shared->slots[i].state == GPUGB_SLOT_TAKEN);
	shared->slots[i].state = GPUGB_SLOT_FREE;
	shared->slots[i].nrows = 0;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->cv);
}

void
gpugb_shared_slot_area(GpugbShared *shared, char **start, Size *bytes)
{
	*start = (char *) shared + shared->data_offset;
	*bytes = (Size) shared->nslots * shared->slot_bytes;
}

int
gpugb_shared_slots(GpugbShared *shared)
{
	return shared->nslots;
}

static void
append_column(int64 *dst_values, uint8 *dst_nulls, bool *dst_has_nulls, int64 at,
			  const int64 *values, const uint8 *nulls, bool has_nulls, int64 n)
{
	memcpy(dst_values + at, values, n * sizeof(int64));
	/* Every row's null byte is written: the stride may mix slots with and without. */
	if (has_nulls)
	{
		memcpy(dst_nulls + at, nulls, n);
		*dst_has_nulls = true;
	}
	else
		memset(dst_nulls + at, 0, n);
}

bool
gpugb_shared_take(GpugbShared *shared, const GpugbInputLayout *layout,
				  GpugbStride *stride, int64 capacity, int nworkers_launched,
				  bool *all_done, bool *needs_room)
{
	int			found = gpugb_shared_take_ready(shared, capacity - stride->nrows,
												nworkers_launched, all_done, needs_room);
	GpugbStride view;

	if (found < 0)
		return false;
	gpugb_shared_slot_view(shared, layout, found, &view);
	for (int k = 0; k < layout->n_keys; k++)
		append_column(stride->key_values[k], stride->key_nulls[k], &stride->key_has_nulls[k],
					  stride->nrows, view.key_values[k], view.key_nulls[k],
					  view.key_has_nulls[k], view.nrows);
	for (int j = 0; j < layout->n_inputs; j++)
		append_column(stride->input_values[j], stride->input_nulls[j],
					  &stride->input_has_nulls[j], stride->nrows,
					  view.input_values[j], view.input_nulls[j],
					  view.input_has_nulls[j], view.nrows);
	stride->nrows += view.nrows;
	gpugb_shared_release(shared, found);
	return true;
}

/* Leader: have all launched workers reported their input done? */
bool
gpugb_shared_all_done(GpugbShared *shared, int nworkers_launched)
{
	bool		done;

	SpinLockAcquire(&shared->mutex);
	done = shared->workers_done >= nworkers_launched;
	SpinLockRelease(&shared->mutex);
	return done;
}

/*
 * Leader: the GPU failed and PostgreSQL's plan runs instead; workers stop
 * filling (their rows are not needed any more).
 */
void
gpugb_shared_abandon(GpugbShared *shared)
{
	SpinLockAcquire(&shared->mutex);
	shared->abandoned = true;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->cv);
}

void
gpugb_shared_wait(GpugbShared *shared, int nworkers_launched)
{
	bool		wake;

	/* On the wait list before looking, so no broadcast can be missed. */
	ConditionVariablePrepareToSleep(&shared->cv);
	SpinLockAcquire(&shared->mutex);
	wake = shared->workers_done >= nworkers_launched;
	for (int i = 0; i < shared->nslots && !wake; i++)
		wake = shared->slots[i].state == GPUGB_SLOT_READY;
	SpinLockRelease(&shared->mutex);
	if (!wake)
		ConditionVariableTimedSleep(&shared->cv, 100, PG_WAIT_EXTENSION);
	ConditionVariableCancelSleep();
}

void
gpugb_shared_worker_times(GpugbShared *shared, double *fill_ms, double *stall_ms)
{
	SpinLockAcquire(&shared->mutex);
	*fill_ms = shared->workers_fill_ms;
	*stall_ms = shared->workers_stall_ms;
	SpinLockRelease(&shared->mutex);
}

/* Why a worker stopped at a value with no device word, or NULL. */
const char *
gpugb_shared_unfit(GpugbShared *shared)
{
	const char *unfit = NULL;

	SpinLockAcquire(&shared->mutex);
	if (shared->unfit[0] != '\0')
		unfit = pstrdup(shared->unfit);
	SpinLockRelease(&shared->mutex);
	return unfit;
}
