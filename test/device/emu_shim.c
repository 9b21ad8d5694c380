/*
 * emu_shim.c
 *    Runs the device selftest against src/emulator.c instead of the CUDA
 *    module (make -C test/device run-emulator), on machines without a GPU:
 *    the device API's entry points forward to gpugb_emulator_ops, and the
 *    few PostgreSQL backend functions the emulator calls are stood in for
 *    with malloc (a memory context is a list of its chunks, so deleting it
 *    frees them all, as the emulator relies on).
 */
#define _GNU_SOURCE				/* qsort_r */
#include "postgres.h"

#include "utils/memutils.h"

#include "device_ops.h"
#include "gpugb.h"

/* ------------------------------------------------- memory contexts */

typedef struct Chunk
{
	struct Chunk *prev;
	struct Chunk *next;
	void	   *cxt;
	void	   *pad;			/* keeps the payload 16-byte aligned */
} Chunk;

typedef struct ShimContext
{
	Chunk		head;			/* circular list of the context's chunks */
} ShimContext;

MemoryContext CurrentMemoryContext = NULL;
MemoryContext TopMemoryContext = NULL;

MemoryContext
AllocSetContextCreateInternal(MemoryContext parent, const char *name, Size minContextSize,
							  Size initBlockSize, Size maxBlockSize)
{
	ShimContext *c = malloc(sizeof(ShimContext));

	if (c == NULL)
		abort();
	c->head.prev = c->head.next = &c->head;
	return (MemoryContext) c;
}

void
MemoryContextDelete(MemoryContext context)
{
	ShimContext *c = (ShimContext *) context;

	for (Chunk *ch = c->head.next; ch != &c->head;)
	{
		Chunk	   *next = ch->next;

		free(ch);
		ch = next;
	}
	free(c);
}

/* Points ch's neighbours at ch (a new chunk, or one realloc moved). */
static void *
relink_chunk(Chunk *ch)
{
	ch->prev->next = ch;
	ch->next->prev = ch;
	return ch + 1;
}

void *
palloc_extended(Size size, int flags)
{
	Chunk	   *ch;

	if (CurrentMemoryContext == NULL)
		CurrentMemoryContext = TopMemoryContext =
			AllocSetContextCreateInternal(NULL, "top", 0, 0, 0);
	ch = malloc(sizeof(Chunk) + size);
	if (ch == NULL)
		abort();
	if (flags & MCXT_ALLOC_ZERO)
		memset(ch + 1, 0, size);
	ch->cxt = CurrentMemoryContext;
	ch->prev = &((ShimContext *) CurrentMemoryContext)->head;
	ch->next = ch->prev->next;
	return relink_chunk(ch);
}

void *
palloc(Size size)
{
	return palloc_extended(size, 0);
}

void *
palloc0(Size size)
{
	return palloc_extended(size, MCXT_ALLOC_ZERO);
}

void *
repalloc_huge(void *pointer, Size size)
{
	Chunk	   *ch = realloc((Chunk *) pointer - 1, sizeof(Chunk) + size);

	if (ch == NULL)
		abort();
	return relink_chunk(ch);
}

void
pfree(void *pointer)
{
	Chunk	   *ch = (Chunk *) pointer - 1;

	ch->prev->next = ch->next;
	ch->next->prev = ch->prev;
	free(ch);
}

void
qsort_arg(void *base, size_t nel, size_t elsize, qsort_arg_comparator cmp, void *arg)
{
	qsort_r(base, nel, elsize, cmp, arg);
}

/* ------------------------------------------------- gpugb's host side */

bool		gpugb_emulate_device = true;

bool
gpugb_budget_reserve(int64 bytes)
{
	return true;
}

void
gpugb_budget_release(int64 bytes)
{
}

void
gpugb_device_properties(GpugbDeviceProps *props)
{
	/* what cuda/device.cu reports without a device: an H200 */
	static const GpugbDeviceProps h200 = {132, 60ll << 20, 48ll << 10, 228ll << 10, 141ll << 30, 227ll << 10};

	*props = h200;
}

void
gpugb_device_usage(GpugbUsage *usage)
{
	memset(usage, 0, sizeof(*usage));
	usage->handles = gpugb_emulator_live_handles();
	usage->pinned_bytes = gpugb_emulator_registered_bytes();
}

const char *
gpugb_status_name(GpugbStatus status)
{
	static const char *const names[] = {"ok", "no device", "out of memory", "CUDA error",
	"invalid argument"};

	return (unsigned) status < lengthof(names) ? names[status] : "unknown status";
}

/* ------------------------------------------------- the device API */

GpugbStatus
gpugb_device_probe(void)
{
	return gpugb_emulator_ops.probe();
}

const char *
gpugb_device_description(void)
{
	return gpugb_emulator_ops.description();
}

const char *
gpugb_last_error(void)
{
	return gpugb_emulator_ops.last_error();
}

GpugbStatus
gpugb_groupby_create(const GpugbGroupBySpec *spec, GpugbGroupBy **out)
{
	return gpugb_emulator_ops.create(spec, out);
}

GpugbStatus
gpugb_groupby_next_stride(GpugbGroupBy *gb, GpugbStride **stride)
{
	return gpugb_emulator_ops.next_stride(gb, stride);
}

GpugbStatus
gpugb_host_register(void *ptr, size_t bytes)
{
	return gpugb_emulator_ops.host_register(ptr, bytes);
}

void
gpugb_host_unregister(void *ptr, size_t bytes)
{
	gpugb_emulator_ops.host_unregister(ptr, bytes);
}

GpugbStatus
gpugb_groupby_append(GpugbGroupBy *gb, GpugbStride *stride, const GpugbStride *src, int *ticket)
{
	return gpugb_emulator_ops.append(gb, stride, src, ticket);
}

GpugbStatus
gpugb_groupby_append_done(GpugbGroupBy *gb, int ticket, bool wait, bool *done)
{
	return gpugb_emulator_ops.append_done(gb, ticket, wait, done);
}

GpugbStatus
gpugb_groupby_submit(GpugbGroupBy *gb, GpugbStride *stride)
{
	return gpugb_emulator_ops.submit(gb, stride);
}

GpugbStatus
gpugb_groupby_finish(GpugbGroupBy *gb, int64_t *n_groups)
{
	return gpugb_emulator_ops.finish(gb, n_groups);
}

GpugbStatus
gpugb_groupby_fetch(GpugbGroupBy *gb, int64_t first, int64_t count,
					const GpugbGroupResults *out)
{
	return gpugb_emulator_ops.fetch(gb, first, count, out);
}

GpugbStatus
gpugb_groupby_remap_values(GpugbGroupBy *gb, const int *aggs, int n_aggs,
						   const int64_t *map, int64_t map_len)
{
	return gpugb_emulator_ops.remap_values(gb, aggs, n_aggs, map, map_len);
}

void
gpugb_groupby_stats(const GpugbGroupBy *gb, GpugbStats *stats)
{
	if (gb == NULL)
		memset(stats, 0, sizeof(*stats));
	else
		gpugb_emulator_ops.stats(gb, stats);
}

void
gpugb_groupby_destroy(GpugbGroupBy *gb)
{
	gpugb_emulator_ops.destroy(gb);
}
