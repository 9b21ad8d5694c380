/*
 * append.cu
 *    Rows appended to a stride straight from registered host memory
 *    (gpugb_groupby_append): parallel ingest's DSM slots go to the device
 *    without the leader first copying them into the stride's pinned
 *    buffers.  That copy, on the leader's one core, set the time of a
 *    5-aggregate Query B (about 600 ms of 100M rows x 5 columns x 9 bytes,
 *    docs/ingest-2026-11-22.md); a DMA from the slot costs the leader a few
 *    API calls.
 *
 * Each append queues, on the stride set's stream, the copies of its value
 * columns (runs of columns evenly spaced in both source and destination go
 * as one 2D copy) and of its null bytes, then records the ticket's event.
 *
 * Null bytes: a stride's device null column is valid only where the
 * stride says has_nulls.  An append with NULLs in a column the stride had
 * none in first zeroes the rows before it; an append without NULLs in a
 * column that has some zeroes its own rows; otherwise nothing is written.
 *
 * Invariants:
 *  - Copies of a set are ordered on its stream after the set's previous
 *    launch (next_stride completed it) and before its next one (submit).
 *  - A ticket's event is recorded after all of the ticket's copies, so
 *    when it has completed the source may be reused.
 */
#include <new>
#include <string.h>

#include "groupby_internal.cuh"

static GpugbStatus
invalid(const char *what)
{
	gpugb_set_error("invalid argument: %s", what);
	return GPUGB_INVALID_ARGUMENT;
}

/* A free ticket, with its event created on first use. */
static GpugbStatus
take_ticket(GpugbGroupBy *gb, int *ticket)
{
	size_t		t;

	for (t = 0; t < gb->append_busy.size(); t++)
		if (!gb->append_busy[t])
			break;
	if (t == gb->append_busy.size())
	{
		cudaEvent_t ev = nullptr;

		try
		{
			/* room first: no exception may cross into PostgreSQL */
			gb->append_events.reserve(t + 1);
			gb->append_busy.reserve(t + 1);
		}
		catch (const std::bad_alloc &)
		{
			gpugb_set_error("out of host memory for an append ticket");
			return GPUGB_OUT_OF_MEMORY;
		}
		/* Ordering only: no timing, the cheapest event to record and query. */
		GPUGB_TRY(GPUGB_CUDA(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming)));
		gb->acct.events++;
		gb->append_events.push_back(ev);
		gb->append_busy.push_back(false);
	}
	gb->append_busy[t] = true;
	*ticket = (int) t;
	return GPUGB_OK;
}

void
gpugb_append_events_free(GpugbGroupBy *gb)
{
	for (cudaEvent_t ev : gb->append_events)
	{
		(void) cudaEventDestroy(ev);
		gb->acct.events--;
	}
	(void) cudaGetLastError();
	gb->append_events.clear();
	gb->append_busy.clear();
}

/* One value column to copy: n rows of 8 bytes from src to dst. */
struct ColumnCopy
{
	int64_t    *dst;
	const int64_t *src;
};

/*
 * Copies the columns, n rows each: every maximal run of columns whose
 * sources and destinations are evenly spaced goes as one 2D copy (a DSM
 * slot and a device stride both keep their columns a fixed pitch apart).
 */
static GpugbStatus
copy_columns(GpugbGroupBy *gb, const ColumnCopy *cols, int ncols, int64_t n, cudaStream_t stream)
{
	size_t		width = (size_t) n * 8;

	for (int first = 0; first < ncols;)
	{
		int			last = first;
		ptrdiff_t	spitch = 0,
					dpitch = 0;

		if (first + 1 < ncols)
		{
			spitch = (const char *) cols[first + 1].src - (const char *) cols[first].src;
			dpitch = (char *) cols[first + 1].dst - (char *) cols[first].dst;
		}
		while (spitch >= (ptrdiff_t) width && dpitch >= (ptrdiff_t) width && last + 1 < ncols &&
			   (const char *) cols[last + 1].src - (const char *) cols[last].src == spitch &&
			   (char *) cols[last + 1].dst - (char *) cols[last].dst == dpitch)
			last++;
		if (last == first)
			GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(cols[first].dst, cols[first].src, width,
												 cudaMemcpyHostToDevice, stream)));
		else
			GPUGB_TRY(GPUGB_CUDA(cudaMemcpy2DAsync(cols[first].dst, (size_t) dpitch,
												   cols[first].src, (size_t) spitch, width,
												   (size_t) (last - first + 1),
												   cudaMemcpyHostToDevice, stream)));
		gb->stats.bytes_to_device += (int64_t) width * (last - first + 1);
		first = last + 1;
	}
	return GPUGB_OK;
}

/* The null bytes of one column, as the header says. */
static GpugbStatus
append_nulls(GpugbGroupBy *gb, uint8_t *d_nulls, bool *has_nulls, int64_t at,
			 const uint8_t *src, bool src_has_nulls, int64_t n, cudaStream_t stream)
{
	if (src_has_nulls)
	{
		if (!*has_nulls && at > 0)
			GPUGB_TRY(GPUGB_CUDA(cudaMemsetAsync(d_nulls, 0, (size_t) at, stream)));
		GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(d_nulls + at, src, (size_t) n,
											 cudaMemcpyHostToDevice, stream)));
		gb->stats.bytes_to_device += n;
		*has_nulls = true;
	}
	else if (*has_nulls)
		GPUGB_TRY(GPUGB_CUDA(cudaMemsetAsync(d_nulls + at, 0, (size_t) n, stream)));
	return GPUGB_OK;
}

static GpugbStatus
append_rows(GpugbGroupBy *gb, GpugbStrideSet *set, GpugbStride *stride, const GpugbStride *src)
{
	const GpugbGroupBySpec *spec = &gb->spec;
	cudaStream_t stream = set->stream;
	int64_t		at = stride->nrows;
	int64_t		n = src->nrows;
	ColumnCopy	cols[GPUGB_MAX_KEYS + GPUGB_MAX_INPUTS];
	int			ncols = 0;
	bool		need_values[GPUGB_MAX_INPUTS];
	bool		need_nulls[GPUGB_MAX_INPUTS];

	gpugb_needed_inputs(gb, need_values, need_nulls);
	/* Keys, then inputs: the order of both the slot's and the stride's columns. */
	for (int k = 0; k < spec->n_keys; k++)
		cols[ncols++] = {set->d_key_values[k] + at, src->key_values[k]};
	for (int i = 0; i < spec->n_inputs; i++)
		if (need_values[i])
			cols[ncols++] = {set->d_input_values[i] + at, src->input_values[i]};
	GPUGB_TRY(copy_columns(gb, cols, ncols, n, stream));

	for (int k = 0; k < spec->n_keys; k++)
		GPUGB_TRY(append_nulls(gb, set->d_key_nulls[k], &stride->key_has_nulls[k], at,
							   src->key_nulls[k], src->key_has_nulls[k], n, stream));
	for (int i = 0; i < spec->n_inputs; i++)
		if (need_nulls[i])
			GPUGB_TRY(append_nulls(gb, set->d_input_nulls[i], &stride->input_has_nulls[i], at,
								   src->input_nulls[i], src->input_has_nulls[i], n, stream));
	return GPUGB_OK;
}

GPUGB_API GpugbStatus
gpugb_groupby_append(GpugbGroupBy *gb, GpugbStride *stride, const GpugbStride *src, int *ticket)
{
	if (ticket != NULL)
		*ticket = -1;
	if (gb == NULL || stride == NULL || src == NULL || ticket == NULL)
		return invalid("NULL handle, stride, source or ticket");
	if (gb->failed)
		return gb->failed_status;
	if (gb->spec.device_resident)
		return invalid("append to a device-resident handle");

	GpugbStrideSet *set = gpugb_set_of(gb, stride);

	if (set == NULL || set->state != GPUGB_SET_FILLING)
		return invalid("stride was not handed out by next_stride");
	if (stride->nrows > 0 && !set->appended)
		return invalid("append to a stride filled on the host");
	if (src->nrows < 0 || src->nrows > gb->spec.stride_rows - stride->nrows)
		return invalid("appended rows beyond the stride");
	if (src->nrows == 0)
		return GPUGB_OK;

	set->appended = true;
	GPUGB_TRY(gpugb_fail(gb, append_rows(gb, set, stride, src)));
	GPUGB_TRY(gpugb_fail(gb, take_ticket(gb, ticket)));
	GPUGB_TRY(gpugb_fail(gb, GPUGB_CUDA(cudaEventRecord(gb->append_events[*ticket], set->stream))));
	stride->nrows += src->nrows;
	return GPUGB_OK;
}

GPUGB_API GpugbStatus
gpugb_groupby_append_done(GpugbGroupBy *gb, int ticket, bool wait, bool *done)
{
	if (done != NULL)
		*done = false;
	if (gb == NULL || done == NULL)
		return invalid("NULL handle or result pointer");
	if (ticket == -1)
	{
		*done = true;
		return GPUGB_OK;
	}
	if (ticket < 0 || (size_t) ticket >= gb->append_busy.size() || !gb->append_busy[ticket])
		return invalid("not a ticket in use");

	cudaEvent_t ev = gb->append_events[ticket];
	cudaError_t err = wait ? cudaEventSynchronize(ev) : cudaEventQuery(ev);

	if (err == cudaErrorNotReady)
	{
		(void) cudaGetLastError();
		return GPUGB_OK;
	}
	GPUGB_TRY(gpugb_fail(gb, GPUGB_CUDA(err)));
	gb->append_busy[ticket] = false;
	*done = true;
	return GPUGB_OK;
}
