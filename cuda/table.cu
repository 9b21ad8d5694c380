/*
 * table.cu
 *    The hash table and dense group storage of a handle: allocation and
 *    initialisation to identities, growth (double or more, rehash from the
 *    dense keys, copy of the states), and the re-run of rows that found no
 *    group id because the table was full.
 *
 * Retry protocol: a row whose insert finds no free group id is appended to
 * its stride set's retry list instead of being aggregated, so no row is lost
 * or counted twice.  When the set's work has completed and the pinned retry
 * count is non-zero, every stream is drained, the table grows, and the
 * aggregation kernel re-runs over just the listed rows (indirectly, reading
 * the set's device columns, which stay intact until the set is refilled);
 * rows that overflow again go to the spare list, which then becomes the
 * set's list, until none is left.
 *
 * Invariants:
 *  - Growth happens only with all streams of the handle idle, so no kernel
 *    ever sees a table being replaced.
 *  - Groups [0, used) are copied in place: group ids never change, only the
 *    slot array is rebuilt; [used, new max_groups) are fresh identities.
 *  - The group counter is reset to `used` after growth, discarding the
 *    increments of claims that failed.
 */
#include <chrono>
#include <utility>

#include "groupby_internal.cuh"
#include "../src/heuristics.h"

double
gpugb_elapsed_ms(cudaEvent_t a, cudaEvent_t b)
{
	float		ms = 0.0f;

	if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess)
	{
		(void) cudaGetLastError();	/* timing is best effort */
		return 0.0;
	}
	return ms;
}

GpugbStatus
gpugb_sync_stream(GpugbGroupBy *gb, cudaStream_t stream)
{
	auto		t0 = std::chrono::steady_clock::now();
	GpugbStatus st = GPUGB_CUDA(cudaStreamSynchronize(stream));

	gb->stats.wait_ms += std::chrono::duration<double, std::milli>(
		std::chrono::steady_clock::now() - t0).count();
	return st;
}

GpugbStatus
gpugb_sync_all(GpugbGroupBy *gb)
{
	for (int s = 0; s < GPUGB_N_SETS; s++)
		if (gb->sets[s].stream != nullptr)
			GPUGB_TRY(gpugb_sync_stream(gb, gb->sets[s].stream));
	return GPUGB_OK;
}

void
gpugb_table_free(GpugbGroupBy *gb, GpugbTable *t)
{
	gpugb_dev_free(&gb->acct, &t->slots);
	gpugb_dev_free(&gb->acct, &t->keys);
	gpugb_dev_free(&gb->acct, &t->nulls);
	gpugb_dev_free(&gb->acct, &t->counts);
	gpugb_dev_free(&gb->acct, &t->values);
	gpugb_dev_free(&gb->acct, &t->his);
	t->capacity = 0;
	t->max_groups = 0;
}

/*
 * Groups a table of `capacity` slots holds (Karnagel's fill factor): the
 * handle's choice, raised to 83 % once the table passes 2 GB, where memory
 * rather than probe length is what runs out.  Always < capacity, so
 * probing ends at an EMPTY slot.
 */
/*
 * The slot format of a table for this handle's key (hash_table.cuh): the
 * key in the slot words wherever it fits, so that a lookup reads only its
 * slot; tagged slots (the keys in the dense arrays) for several key words.
 */
static int
table_slot_format(const GpugbGroupBy *gb, int64_t max_groups)
{
	const GpugbGroupBySpec *spec = &gb->spec;

	if (spec->n_keys != 1 || spec->tagged_slots_only)
		return GPUGB_SLOTS_TAGGED;
	/*
	 * GPUGB_MAX_SLOTS keeps max_groups below what keyed slots can number
	 * today; the bound guards a larger GPUGB_MAX_SLOTS (pairs then).
	 */
	if (spec->key_fits_int32 && max_groups <= GPUGB_KEYED_SLOT_MAX_GROUPS)
		return GPUGB_SLOTS_KEYED32;
	return GPUGB_SLOTS_PAIR;
}

static int64_t
table_max_groups(const GpugbGroupBy *gb, int64_t capacity)
{
	int			fill = gb->fill_percent;
	double		bytes = (double) gpugb_spec_slot_bytes(&gb->spec) * capacity +
		capacity / 2.0 * (8.0 * (gb->spec.n_keys + gb->n_counts + gb->n_values + gb->n_his) + 4);

	if (bytes > (double) GPUGB_DENSE_TABLE_BYTES && fill < 83)
		fill = 83;
	return capacity / 100 * fill + capacity % 100 * fill / 100;
}

/* Allocates (does not initialise) a table of `capacity` slots. */
static GpugbStatus
table_alloc(GpugbGroupBy *gb, int64_t capacity, GpugbTable *t)
{
	int			n_keys = gb->spec.n_keys;
	int64_t		m;
	GpugbStatus st = GPUGB_OK;

	t->capacity = n_keys > 0 ? capacity : 0;
	t->max_groups = m = n_keys > 0 ? table_max_groups(gb, capacity) : 1;
	t->slot_format = table_slot_format(gb, m);
	if (n_keys > 0)
	{
		size_t		slot_bytes = t->slot_format == GPUGB_SLOTS_PAIR ? 16 : 8;

		if ((st = gpugb_dev_alloc(&gb->acct, &t->slots, (size_t) capacity * slot_bytes,
								  "hash slots")) != GPUGB_OK ||
			(st = gpugb_dev_alloc(&gb->acct, &t->keys, (size_t) (n_keys * m) * 8, "group keys")) != GPUGB_OK ||
			(st = gpugb_dev_alloc(&gb->acct, &t->nulls, (size_t) m * 4, "group null masks")) != GPUGB_OK)
			goto fail;
	}
	if ((st = gpugb_dev_alloc(&gb->acct, &t->counts, (size_t) (gb->n_counts * m) * 8, "counts")) != GPUGB_OK ||
		(st = gpugb_dev_alloc(&gb->acct, &t->values, (size_t) (gb->n_values * m) * 8, "values")) != GPUGB_OK ||
		(st = gpugb_dev_alloc(&gb->acct, &t->his, (size_t) (gb->n_his * m) * 8, "sum high words")) != GPUGB_OK)
		goto fail;
	return GPUGB_OK;
fail:
	gpugb_table_free(gb, t);
	return st;
}

/* Empties the slots and sets groups [from, to) to identities (null masks 0). */
static GpugbStatus
table_init(GpugbGroupBy *gb, GpugbTable *t, int64_t from, int64_t to, cudaStream_t stream)
{
	uint64_t	ident[GPUGB_MAX_COUNTS] = {0};
	int64_t		m = t->max_groups;

	if (t->slots.ptr != nullptr)
		GPUGB_TRY(GPUGB_CUDA(cudaMemsetAsync(t->slots.ptr, 0, t->slots.bytes, stream)));
	if (t->nulls.ptr != nullptr && to > from)
		GPUGB_TRY(GPUGB_CUDA(cudaMemsetAsync((uint32_t *) t->nulls.ptr + from, 0,
											 (size_t) (to - from) * 4, stream)));
	GPUGB_TRY(gpugb_launch_fill(t->counts.ptr, m, gb->n_counts, from, to, ident, stream));
	GPUGB_TRY(gpugb_launch_fill(t->his.ptr, m, gb->n_his, from, to, ident, stream));
	for (int v = 0; v < gb->n_values; v++)
		ident[v] = gpugb_value_identity(gb->value_cols[v].op);
	return gpugb_launch_fill(t->values.ptr, m, gb->n_values, from, to, ident, stream);
}

GpugbStatus
gpugb_table_clear(GpugbGroupBy *gb, cudaStream_t stream)
{
	int64_t		used;

	GPUGB_TRY(gpugb_group_count(gb, stream, &used));
	gb->publish_pending = false;	/* every group goes */
	/* Groups [used, max_groups) hold identities still: no launch claimed them. */
	GPUGB_TRY(table_init(gb, &gb->table, 0, used, stream));
	return GPUGB_CUDA(cudaMemsetAsync(gb->group_counter.ptr, 0, GPUGB_GROUP_COUNTER_BYTES, stream));
}

GpugbStatus
gpugb_table_create(GpugbGroupBy *gb, int64_t capacity, cudaStream_t stream)
{
	GPUGB_TRY(table_alloc(gb, capacity, &gb->table));
	GPUGB_TRY(table_init(gb, &gb->table, 0, gb->table.max_groups, stream));
	gb->stats.table_slots = gb->table.capacity;
	return GPUGB_OK;
}

void
gpugb_table_params(const GpugbGroupBy *gb, GpugbAggParams *p)
{
	const GpugbTable *t = &gb->table;

	p->slots = (unsigned long long *) t->slots.ptr;
	p->slot_mask = t->capacity > 0 ? (uint64_t) (t->capacity - 1) : 0;
	p->slot_format = t->slot_format;
	p->max_groups = t->max_groups;
	p->group_counter = (unsigned long long *) gb->group_counter.ptr;
	p->groups_exhausted = (unsigned int *) ((char *) gb->group_counter.ptr + GPUGB_GROUPS_EXHAUSTED_OFFSET);
	p->group_keys = (int64_t *) t->keys.ptr;
	p->group_nulls = (uint32_t *) t->nulls.ptr;
	p->counts = (unsigned long long *) t->counts.ptr;
	p->values = (unsigned long long *) t->values.ptr;
	p->values_hi = (long long *) t->his.ptr;
}

GpugbStatus
gpugb_group_count(GpugbGroupBy *gb, cudaStream_t stream, int64_t *n)
{
	uint64_t   *h = (uint64_t *) gb->scalar_host.ptr;

	if (gb->spec.n_keys == 0)
	{
		*n = 1;					/* the global group exists even without rows */
		return GPUGB_OK;
	}
	GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(h, gb->group_counter.ptr, 8,
										 cudaMemcpyDeviceToHost, stream)));
	GPUGB_TRY(gpugb_sync_stream(gb, stream));
	gb->stats.bytes_from_device += 8;
	/* Failed claims push the counter past max_groups. */
	*n = *h < (uint64_t) gb->table.max_groups ? (int64_t) *h : gb->table.max_groups;
	return GPUGB_OK;
}

/*
 * The groups the publish found numbered without lookups, in the table's
 * life (GPUGB_DIRECT_GROUPS_OFFSET): for the statistics, at finish.
 */
GpugbStatus
gpugb_direct_group_count(GpugbGroupBy *gb, cudaStream_t stream, int64_t *n)
{
	uint64_t   *h = (uint64_t *) gb->scalar_host.ptr;

	GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(h, (char *) gb->group_counter.ptr + GPUGB_DIRECT_GROUPS_OFFSET, 8,
										 cudaMemcpyDeviceToHost, stream)));
	GPUGB_TRY(gpugb_sync_stream(gb, stream));
	gb->stats.bytes_from_device += 8;
	*n = (int64_t) *h;
	return GPUGB_OK;
}

/* Copies `ncols` columns of `used` entries between tables of different pitch. */
static GpugbStatus
copy_columns(void *dst, int64_t dst_pitch, const void *src, int64_t src_pitch, int ncols,
			 int64_t used, size_t elem, cudaStream_t stream)
{
	/* Per column rather than cudaMemcpy2D: pitches can exceed the 2D pitch limit. */
	for (int c = 0; c < ncols; c++)
		GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync((char *) dst + (size_t) (c * dst_pitch) * elem,
											 (const char *) src + (size_t) (c * src_pitch) * elem,
											 (size_t) used * elem, cudaMemcpyDeviceToDevice,
											 stream)));
	return GPUGB_OK;
}

/* Grows the table so that `pending` more groups are likely to fit. */
static GpugbStatus
table_grow(GpugbGroupBy *gb, int64_t pending, cudaStream_t stream)
{
	GpugbTable *old = &gb->table;
	GpugbTable	nt;
	int64_t		used;
	GpugbStatus st;

	GPUGB_TRY(gpugb_sync_all(gb));
	GPUGB_TRY(gpugb_publish_pending(gb, stream, true));	/* the rehash reads the null masks */
	GPUGB_TRY(gpugb_group_count(gb, stream, &used));
	if (old->capacity >= GPUGB_MAX_SLOTS)
	{
		gpugb_set_error("hash table cannot grow beyond %lld slots (%lld groups)",
						(long long) old->capacity, (long long) used);
		return GPUGB_OUT_OF_MEMORY;
	}

	/*
	 * Double; grow further (bounded) when the pending rows could all be new
	 * groups, to save rounds when the estimate was far too low.  If the big
	 * step does not fit in memory, fall back towards a plain doubling.
	 */
	int64_t		cap = old->capacity * 2;

	while (table_max_groups(gb, cap) < used + pending && cap < old->capacity * GPUGB_MAX_GROW_FACTOR &&
		   cap < GPUGB_MAX_SLOTS)
		cap *= 2;
	while ((st = table_alloc(gb, cap, &nt)) == GPUGB_OUT_OF_MEMORY && cap > old->capacity * 2)
		cap /= 2;
	if (st != GPUGB_OK)
		return st;

	uint64_t   *h = (uint64_t *) gb->scalar_host.ptr;
	int64_t		om = old->max_groups,
				nm = nt.max_groups;

	*h = (uint64_t) used;
	if ((st = GPUGB_CUDA(cudaEventRecord(gb->ev_a, stream))) != GPUGB_OK ||
		(st = table_init(gb, &nt, used, nt.max_groups, stream)) != GPUGB_OK ||
		(st = copy_columns(nt.keys.ptr, nm, old->keys.ptr, om, gb->spec.n_keys, used, 8, stream)) != GPUGB_OK ||
		(st = copy_columns(nt.nulls.ptr, nm, old->nulls.ptr, om, 1, used, 4, stream)) != GPUGB_OK ||
		(st = copy_columns(nt.counts.ptr, nm, old->counts.ptr, om, gb->n_counts, used, 8, stream)) != GPUGB_OK ||
		(st = copy_columns(nt.values.ptr, nm, old->values.ptr, om, gb->n_values, used, 8, stream)) != GPUGB_OK ||
		(st = copy_columns(nt.his.ptr, nm, old->his.ptr, om, gb->n_his, used, 8, stream)) != GPUGB_OK ||
		(st = gpugb_launch_rehash(nt, gb->spec.n_keys, used, stream)) != GPUGB_OK ||
		(st = GPUGB_CUDA(cudaMemcpyAsync(gb->group_counter.ptr, h, 8, cudaMemcpyHostToDevice,
										 stream))) != GPUGB_OK ||
		(st = GPUGB_CUDA(cudaMemsetAsync((char *) gb->group_counter.ptr + GPUGB_GROUPS_EXHAUSTED_OFFSET,
										 0, 4, stream))) != GPUGB_OK ||
		(st = GPUGB_CUDA(cudaEventRecord(gb->ev_b, stream))) != GPUGB_OK ||
		(st = gpugb_sync_stream(gb, stream)) != GPUGB_OK)
	{
		/* Wait before freeing what queued work may still touch. */
		(void) cudaStreamSynchronize(stream);
		(void) cudaGetLastError();
		gpugb_table_free(gb, &nt);
		return st;
	}
	double		grow_ms = gpugb_elapsed_ms(gb->ev_a, gb->ev_b);

	gb->stats.kernel_ms += grow_ms;
	gb->stats.grow_ms += grow_ms;
	gb->stats.bytes_to_device += 8;
	gpugb_table_free(gb, old);
	gb->table = nt;
	gb->stats.table_grows++;
	gb->stats.table_slots = nt.capacity;
	return GPUGB_OK;
}

/*
 * A table for `groups` groups before the launches to come, where the run-time
 * check found more than the planner's table holds (check_strategy).  Else
 * the next launch overflows it: every row of a key with no id left goes to
 * the retry list, and the retries run over them after growth.  With 2^22
 * groups planned as 42 over 2^28 resident rows, auto's one PARTITION launch
 * after the check took 20-34 s where the right estimate took 13-15 ms
 * (H200, session 38, calls 2-3).  Growth is table_grow's (at most
 * GPUGB_MAX_GROW_FACTOR at once); where memory refuses it, the retries grow
 * the table as before.
 *
 * Only past RESERVE_SLACK times the table's groups, the noise of the check's
 * estimate: a table can hold exactly the groups the planner expected, and
 * where that was right the check reads them a few per mille either side
 * (uniform keys, a sample of 2^20 rows).  Doubling then costs every launch
 * to come its locality: 2^20 groups planned right, read as 1.0002 times
 * that, took GLOBAL_HASH 9.7 -> 12.1 ms and at 2^22 PARTITION 17.2 ->
 * 19.5 ms (2^28 rows; H200, session 39, grid of call 6).  No more than the
 * noise: a table that then runs out of group ids sends GLOBAL_HASH's rows
 * of the keys past it to the retries, but a lean PARTITION launch stops
 * there and sends all the rest of its rows (gpugb_probe's overflow flag).
 */
#define RESERVE_SLACK 1.01

GpugbStatus
gpugb_table_reserve(GpugbGroupBy *gb, int64_t groups, cudaStream_t stream)
{
	int64_t		used;
	GpugbStatus st;

	if (gb->spec.n_keys == 0 || (double) groups <= RESERVE_SLACK * (double) gb->table.max_groups ||
		gb->table.capacity >= GPUGB_MAX_SLOTS)
		return GPUGB_OK;
	GPUGB_TRY(gpugb_group_count(gb, stream, &used));
	st = table_grow(gb, groups > used ? groups - used : 0, stream);
	if (st == GPUGB_OUT_OF_MEMORY)
	{
		(void) cudaGetLastError();
		return GPUGB_OK;
	}
	return st;
}

/*
 * Grows the table for a retry round of n_retry rows, unless the launch did
 * not overflow (`overflowed`: GpugbAggParams.overflow, raised where a
 * lookup walked too far or, outside p.overflow_on_walks_only, found no id)
 * and the table still has an id to give.  Rows come to the retry list
 * without that flag in two ways only:
 *  - no id was left (p.overflow_on_walks_only, or a launch without
 *    p.overflow): then gpugb_group_count gives the table's whole
 *    max_groups, and the table grows;
 *  - PARTITION's deferred lookups list the rows of the one 8-byte key equal
 *    to the block table's empty word (GPUGB_DEFERRED_EMPTY_KEY): one key,
 *    so one id is all the round needs.
 * Growing for the second doubled the table at every launch that held that
 * key, until the device ran out of memory (session 43's review).  Counting
 * its rows as new groups (used + n_retry) still grew it once where the
 * table was planned close to the groups (self-test case 124, H200, session
 * 44 call 1).  Rows that find no id in the round come back for another,
 * which sees the table full and grows, so the retries still end.
 */
static GpugbStatus
grow_for_retries(GpugbGroupBy *gb, int64_t n_retry, bool overflowed, cudaStream_t stream)
{
	int64_t		used;

	if (!overflowed)
	{
		GPUGB_TRY(gpugb_group_count(gb, stream, &used));
		if (used < gb->table.max_groups)
			return GPUGB_OK;
	}
	return table_grow(gb, n_retry, stream);
}

/*
 * One retry round: the rows of the retry list, after growth, as GLOBAL_HASH
 * (or, under spec.partition_retry_repartition, as a PARTITION launch over
 * them gathered into `gathered`: gpugb_partition_retry_round, where
 * may_partition; *partitioned says whether it took that).  Those that
 * overflow again land in the spare list; *n_again says how many.
 */
static GpugbStatus
retry_round(GpugbGroupBy *gb, GpugbStrideSet *set, uint32_t n_retry, bool may_partition, DevBuf *gathered,
			bool *partitioned, uint32_t *n_again)
{
	uint32_t   *h_count = (uint32_t *) set->retry_count_host.ptr;
	GpugbAggParams p = set->params;

	*partitioned = false;
	gb->stats.retried_rows += n_retry;
	GPUGB_TRY(gpugb_publish_pending(gb, set->stream, true));	/* the retries look their keys up */
	/* h_count: the count and overflow flag of the launch, or of the last round, that listed these rows */
	GPUGB_TRY(grow_for_retries(gb, n_retry, h_count[1] != 0, set->stream));
	gpugb_table_params(gb, &p);
	p.nrows = n_retry;
	p.row_list = (const uint32_t *) set->retry_list.ptr;
	p.run_start = nullptr;	/* retries look every row up (GLOBAL_HASH) */
	p.run_gid = nullptr;
	p.retry_out = (uint32_t *) gb->spare_retry.ptr;
	p.retry_count = (unsigned int *) set->retry_count.ptr;
	p.overflow = nullptr;
	/* The count and the overflow flag after it (a PARTITION round's launch may raise it). */
	GPUGB_TRY(GPUGB_CUDA(cudaMemsetAsync(set->retry_count.ptr, 0, 8, set->stream)));
	GPUGB_TRY(GPUGB_CUDA(cudaEventRecord(gb->ev_a, set->stream)));
	if (may_partition)
		GPUGB_TRY(gpugb_partition_retry_round(gb, set, p, gathered, partitioned));
	if (!*partitioned)
		GPUGB_TRY(gpugb_launch_agg(p, set->stream));
	GPUGB_TRY(GPUGB_CUDA(cudaEventRecord(gb->ev_b, set->stream)));
	GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(h_count, set->retry_count.ptr, 8,
										 cudaMemcpyDeviceToHost, set->stream)));
	GPUGB_TRY(gpugb_sync_stream(gb, set->stream));
	double		retry_ms = gpugb_elapsed_ms(gb->ev_a, gb->ev_b);

	gb->stats.kernel_ms += retry_ms;
	gb->stats.retry_ms += retry_ms;
	gb->stats.retry_rounds++;
	gb->stats.bytes_from_device += 8;
	if (h_count[1] != 0)
		gb->stats.partition_overflow_aborts++;
	*n_again = h_count[0];
	return GPUGB_OK;
}

GpugbStatus
gpugb_run_retries(GpugbGroupBy *gb, GpugbStrideSet *set, uint32_t n_retry)
{
	/*
	 * The columns of the PARTITION round (gpugb_partition_retry_round; one
	 * a launch at most), while set->params reads them: later rounds' retry
	 * lists number rows of them.
	 */
	DevBuf		gathered = {};
	bool		partitioned_once = false;
	GpugbStatus st = GPUGB_OK;

	while (n_retry > 0)
	{
		uint32_t	n_again = 0;
		bool		partitioned = false;

		st = retry_round(gb, set, n_retry, !partitioned_once, &gathered, &partitioned, &n_again);
		/* A PARTITION round that left its rows packed: their columns for the next round. */
		if (st == GPUGB_OK)
			st = gpugb_partition_unpack_for_retries(gb, set, n_again);
		partitioned_once = partitioned_once || partitioned;
		if (st != GPUGB_OK)
		{
			/* Wait before freeing what queued work may still read. */
			(void) cudaStreamSynchronize(set->stream);
			(void) cudaGetLastError();
			break;
		}
		/* Where the round's sort moved its rows, set->params reads the moved columns instead. */
		if (gathered.ptr != nullptr && set->params.key_values[0] != (const int64_t *) gathered.ptr)
			gpugb_dev_free(&gb->acct, &gathered);
		/* Rows that overflowed again are in the spare list: it becomes ours. */
		std::swap(set->retry_list, gb->spare_retry);
		n_retry = n_again;
	}
	if (gathered.ptr != nullptr)
	{
		/* No launch is left to read them: set->params must not name them either. */
		memset(&set->params, 0, sizeof(set->params));
		gpugb_dev_free(&gb->acct, &gathered);
	}
	return st;
}
