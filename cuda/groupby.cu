/*
 * groupby.cu
 *    Handle lifecycle and the stride pipeline: spec validation, aggregate
 *    layout, allocation of the stride buffer sets (pinned host + device,
 *    one stream and three timing events each), double buffering of
 *    next_stride/submit, the remap of min/max states between strides,
 *    finish, stats and destroy.
 *
 * Pipeline: each stride set has its own stream, so the copy of one set
 * overlaps the kernel of the other on the device while the host fills the
 * set it was just handed.  Kernels of both sets may run concurrently on the
 * shared table: inserts and updates are atomic and the table only changes
 * size with all streams drained (table.cu).
 *
 * Invariants:
 *  - create either returns a complete handle or frees everything it got
 *    (destroy is written to accept any half-built handle).
 *  - Stats of a stride (event times) are accumulated exactly once, when its
 *    ev_done has completed, in complete_set().
 */
#include <chrono>
#include <new>
#include <string.h>

#include "groupby_internal.cuh"
#include "../src/strategy.h"

GpugbStatus
gpugb_fail(GpugbGroupBy *gb, GpugbStatus st)
{
	if (st != GPUGB_OK && !gb->failed)
	{
		gb->failed = true;
		gb->failed_status = st;
	}
	return st;
}

static GpugbStatus
invalid(const char *what)
{
	gpugb_set_error("invalid argument: %s", what);
	return GPUGB_INVALID_ARGUMENT;
}

static GpugbStatus
validate_spec(const GpugbGroupBySpec *spec)
{
	if (spec->n_keys < 0 || spec->n_keys > GPUGB_MAX_KEYS)
		return invalid("n_keys out of range");
	if (spec->n_inputs < 0 || spec->n_inputs > GPUGB_MAX_INPUTS)
		return invalid("n_inputs out of range");
	if (spec->n_aggs < 1 || spec->n_aggs > GPUGB_MAX_AGGS)
		return invalid("n_aggs out of range");
	/* Row indices travel as uint32 in retry lists. */
	if (spec->stride_rows < 1 || spec->stride_rows > INT32_MAX)
		return invalid("stride_rows out of range");
	if (spec->device_memory_limit < 0)
		return invalid("negative device_memory_limit");
	if ((int) spec->strategy < 0 || spec->strategy >= GPUGB_N_STRATEGIES)
		return invalid("unknown strategy");
	if (spec->n_order < 0 || spec->n_order > GPUGB_MAX_KEYS ||
		(spec->n_order > 0 && spec->n_keys == 0))
		return invalid("n_order out of range");
	for (int o = 0; o < spec->n_order; o++)
	{
		const GpugbOrderKey *key = &spec->order[o];

		if (key->by_count || key->by_value ?
			key->agg < 0 || key->agg >= spec->n_aggs || (key->by_count && key->by_value) ||
			(key->by_count && spec->aggs[key->agg].op != GPUGB_AGG_COUNT_STAR &&
			 spec->aggs[key->agg].op != GPUGB_AGG_COUNT) ||
			(key->by_value && spec->aggs[key->agg].op != GPUGB_AGG_SUM_INT &&
			 spec->aggs[key->agg].op != GPUGB_AGG_MIN_INT &&
			 spec->aggs[key->agg].op != GPUGB_AGG_MAX_INT) :
			key->key < 0 || key->key >= spec->n_keys ||
			(key->kind != GPUGB_ORDER_INT && key->kind != GPUGB_ORDER_FLOAT))
			return invalid("order key out of range");
	}
	for (int a = 0; a < spec->n_aggs; a++)
	{
		const GpugbAggSpec *ag = &spec->aggs[a];

		if (ag->op < GPUGB_AGG_COUNT_STAR || ag->op > GPUGB_AGG_SUM_SHIFTED_SQ)
			return invalid("unknown aggregate operation");
		if (ag->op != GPUGB_AGG_COUNT_STAR && (ag->input < 0 || ag->input >= spec->n_inputs))
			return invalid("aggregate input column out of range");
		if (ag->op == GPUGB_AGG_SUM_SHIFTED || ag->op == GPUGB_AGG_SUM_SHIFTED_SQ)
		{
			int			b;

			for (b = 0; b < spec->n_aggs; b++)
				if (spec->aggs[b].op == GPUGB_AGG_SHIFT_FLOAT && spec->aggs[b].input == ag->input)
					break;
			if (b == spec->n_aggs)
				return invalid("a shifted sum without a SHIFT_FLOAT over its input");
		}
	}
	return GPUGB_OK;
}

static GpugbStatus complete_set(GpugbGroupBy *gb, GpugbStrideSet *set, bool more_to_come);

/*
 * Rows of the probe launch before the run-time check over device-resident
 * rows: the executor's first stride (gpugb.stride_rows' default), which is
 * what its check learns from.  Enough to estimate any number of groups up
 * to billions from the keys that repeat (gpugb_workload_observed), and small
 * because what it does not fit costs the rest: SORT's probe claims group
 * ids in key order, so where PARTITION follows, the states of the groups it
 * met are updated out of order.  H200, 2^28 rows, 2^24 groups, one payload
 * (session 35, calls 1-2): a probe of 1/64 of the rows (4M) met 22 % of the
 * groups, the lean partition kernel after it took 10.5-13.1 ms against
 * 8.8 ms without, and auto 25.8 ms against forced PARTITION's 18.6.
 */
#define GPUGB_DEVICE_PROBE_ROWS (INT64_C(1) << 20)

/*
 * Run-time correction (issue: planner estimates off by 1e5): after the
 * first launch, re-decide from the groups the table really holds.
 */
static GpugbStatus
check_strategy(GpugbGroupBy *gb, GpugbStrideSet *set)
{
	int64_t		groups_seen;
	GpugbStrategyChoice choice;

	gb->strategy_checked = true;
	/*
	 * Complete the other set too, retries included: then the groups and the
	 * rows seen are of the same strides (all submitted so far), whatever the
	 * timing.  Waiting alone is not enough: rows whose claim failed in a full
	 * table are in no group until their retry, and the group counter stops
	 * at the table's capacity, so a table that overflowed read as a few
	 * groups with many repeats (an estimate of 200 against 120,000 distinct
	 * keys kept shared_hash).
	 */
	for (int s = 0; s < GPUGB_N_SETS; s++)
		if (&gb->sets[s] != set && gb->sets[s].state == GPUGB_SET_INFLIGHT)
			GPUGB_TRY(complete_set(gb, &gb->sets[s], false));
	GPUGB_TRY(gpugb_sync_all(gb));
	GPUGB_TRY(gpugb_group_count(gb, set->stream, &groups_seen));

	/*
	 * Skew: the rows of the largest group (count column 0) so far; and the
	 * groups seen once and twice, for Chao1's estimate.
	 */
	unsigned long long *summary = (unsigned long long *) gb->scalar_host.ptr;
	cudaStream_t stream = set->stream;

	GPUGB_TRY(GPUGB_CUDA(cudaMemsetAsync(gb->probe_scalar.ptr, 0, 24, stream)));
	GPUGB_TRY(gpugb_launch_count_summary((const unsigned long long *) gb->table.counts.ptr, groups_seen,
										 (unsigned long long *) gb->probe_scalar.ptr, stream));
	GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(summary, gb->probe_scalar.ptr, 24,
										 cudaMemcpyDeviceToHost, stream)));
	GPUGB_TRY(gpugb_sync_stream(gb, stream));

	double		rows_seen = (double) gb->stats.rows;
	double		hot_share = rows_seen > 0 ? (double) summary[0] / rows_seen : 0;

	gpugb_spec_recheck(&gb->spec, rows_seen, (double) groups_seen,
					   hot_share > 1 ? 1 : hot_share, (double) summary[1], (double) summary[2], &choice);
	gb->stats.groups_at_switch_check = groups_seen;
	gb->hot_share = hot_share;
	gb->groups_hint = choice.groups > (double) groups_seen ? choice.groups : (double) groups_seen;

	GpugbStrategy next = gpugb_spec_runnable(&gb->spec, choice.strategy);

	/* PRIVATE_HASH's slices: for the groups seen (or the most that fit). */
	gb->private_groups = choice.private_groups;

	if (next != gb->strategy)
	{
		/* Every stream is idle: SORT's or PARTITION's scratch can go (table growth may need it). */
		if (gpugb_strategy_uses_scratch(gb->strategy))
			for (int s = 0; s < GPUGB_N_SETS; s++)
				gpugb_sort_bufs_free(gb, &gb->sets[s].sort);
		/* ...and SHARED_HASH's column of group ids (the group-id table once a sum) */
		for (int s = 0; s < GPUGB_N_SETS; s++)
			gpugb_dev_free(&gb->acct, &gb->sets[s].gid_column);
		gb->strategy = next;
		gb->stats.strategy_switches++;
	}
	/* The groups the check expects: a table for them now, not by overflow in the launches to come. */
	GPUGB_TRY(gpugb_table_reserve(gb, (int64_t) gb->groups_hint, stream));
	/* The group-id table first only where the re-plan chose it and the table is as large as it planned. */
	gb->lean_gid_first = choice.lean_gid_first && gb->table.capacity >= choice.table_slots;
	return GPUGB_OK;
}

/* Shares count columns per input and value columns per (op, input). */
static void
build_layout(GpugbGroupBy *gb)
{
	const GpugbGroupBySpec *spec = &gb->spec;

	/* Count column 0 is always "rows of the group": the others count NULLs. */
	gb->count_input[gb->n_counts++] = -1;

	for (int a = 0; a < spec->n_aggs; a++)
	{
		int			op = spec->aggs[a].op;
		int			in = op == GPUGB_AGG_COUNT_STAR ? -1 : spec->aggs[a].input;
		int			c;

		for (c = 0; c < gb->n_counts && gb->count_input[c] != in; c++)
			;
		if (c == gb->n_counts)
			gb->count_input[gb->n_counts++] = in;
		gb->agg_count_col[a] = c;

		gb->agg_value_col[a] = -1;
		if (op == GPUGB_AGG_COUNT_STAR || op == GPUGB_AGG_COUNT)
			continue;
		int			v;

		for (v = 0; v < gb->n_values &&
			 !(gb->value_cols[v].op == op && gb->value_cols[v].input == in); v++)
			;
		if (v == gb->n_values)
		{
			gb->value_cols[v].op = op;
			gb->value_cols[v].input = in;
			gb->value_cols[v].hi_col = op == GPUGB_AGG_SUM_INT || op == GPUGB_AGG_SUM_SHIFTED ||
				op == GPUGB_AGG_SUM_SHIFTED_SQ ? gb->n_his++ : -1;
			gb->value_cols[v].shift_col = -1;
			gb->n_values++;
		}
		gb->agg_value_col[a] = v;
	}
	/* A shifted sum's K: the SHIFT_FLOAT column of its input (validate_spec). */
	for (int v = 0; v < gb->n_values; v++)
		if (gb->value_cols[v].op == GPUGB_AGG_SUM_SHIFTED ||
			gb->value_cols[v].op == GPUGB_AGG_SUM_SHIFTED_SQ)
			for (int u = 0; u < gb->n_values; u++)
				if (gb->value_cols[u].op == GPUGB_AGG_SHIFT_FLOAT &&
					gb->value_cols[u].input == gb->value_cols[v].input)
					gb->value_cols[v].shift_col = u;
}

static GpugbStatus
create_set(GpugbGroupBy *gb, GpugbStrideSet *set)
{
	const GpugbGroupBySpec *spec = &gb->spec;
	size_t		rows = (size_t) spec->stride_rows;
	int			ncols = spec->n_keys + spec->n_inputs;
	size_t		bytes = (size_t) ncols * rows * 9;

	GPUGB_TRY(gpugb_stream_create(&gb->acct, &set->stream));
	GPUGB_TRY(gpugb_event_create(&gb->acct, &set->ev_start));
	GPUGB_TRY(gpugb_event_create(&gb->acct, &set->ev_copied));
	GPUGB_TRY(gpugb_event_create(&gb->acct, &set->ev_done));
	if (!spec->device_resident)
	{
		if (!spec->appends_only)
			GPUGB_TRY(gpugb_host_alloc(&gb->acct, &set->host, bytes, "stride buffers"));
		GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &set->dev, bytes, "stride buffers"));
	}
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &set->retry_list, rows * 4, "retry list"));
	/* The count, and the launch's overflow flag after it (GpugbAggParams.overflow). */
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &set->retry_count, 8, "retry count"));
	GPUGB_TRY(gpugb_host_alloc(&gb->acct, &set->retry_count_host, 8, "retry count"));

	/* Layout: all value columns (8 bytes/row), then all null columns (1 byte/row). */
	char	   *hv = (char *) set->host.ptr;
	char	   *dv = (char *) set->dev.ptr;
	size_t		nulls_at = (size_t) ncols * rows * 8;

	memset(&set->stride, 0, sizeof(set->stride));
	for (int c = 0; c < ncols && !spec->device_resident; c++)
	{
		/* no host buffers (appends_only): the caller gets NULL columns */
		int64_t    *hval = hv ? (int64_t *) (hv + (size_t) c * rows * 8) : nullptr;
		uint8_t    *hnul = hv ? (uint8_t *) (hv + nulls_at + (size_t) c * rows) : nullptr;
		int64_t    *dval = (int64_t *) (dv + (size_t) c * rows * 8);
		uint8_t    *dnul = (uint8_t *) (dv + nulls_at + (size_t) c * rows);

		if (c < spec->n_keys)
		{
			set->stride.key_values[c] = hval;
			set->stride.key_nulls[c] = hnul;
			set->d_key_values[c] = dval;
			set->d_key_nulls[c] = dnul;
		}
		else
		{
			int			i = c - spec->n_keys;

			set->stride.input_values[i] = hval;
			set->stride.input_nulls[i] = hnul;
			set->d_input_values[i] = dval;
			set->d_input_nulls[i] = dnul;
		}
	}
	set->state = GPUGB_SET_FREE;
	return GPUGB_OK;
}

static GpugbStatus
create_all(GpugbGroupBy *gb)
{
	GpugbWorkload workload;

	build_layout(gb);
	gpugb_spec_workload(&gb->spec, &workload);
	gb->lean_deferred = gb->spec.lean_deferred && workload.sums_fit_int32;
	gb->acct.device_limit = gb->spec.device_memory_limit;

	GPUGB_TRY(gpugb_event_create(&gb->acct, &gb->ev_a));
	GPUGB_TRY(gpugb_event_create(&gb->acct, &gb->ev_b));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &gb->group_counter, GPUGB_GROUP_COUNTER_BYTES, "group counter"));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &gb->probe_scalar, 24, "largest group"));
	GPUGB_TRY(gpugb_host_alloc(&gb->acct, &gb->scalar_host, 24, "staging"));
	for (int s = 0; s < GPUGB_N_SETS; s++)
		GPUGB_TRY(create_set(gb, &gb->sets[s]));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &gb->spare_retry, (size_t) gb->spec.stride_rows * 4,
							  "retry list"));

	/* The strategy to start with and Karnagel's table size (heuristics.c). */
	GpugbStrategyChoice choice;

	gpugb_spec_choose(&gb->spec, -1, &choice);
	gb->shared_slots = choice.shared_slots;
	gb->partition_slots = choice.partition_slots;
	gb->private_groups = choice.private_groups;
	gb->fill_percent = choice.fill_percent;
	gb->groups_hint = (double) (gb->spec.estimated_groups > 0 ? gb->spec.estimated_groups : 1);
	/* Until the run-time check measures it: the planner's statistics' skew (0: unknown). */
	gb->hot_share = gb->spec.estimated_hot_share;
	gb->strategy = gpugb_spec_first_runnable(&gb->spec, gb->spec.strategy);
	gb->stats.strategy_planned = gb->spec.strategy;
	gb->stats.strategy_used = gb->strategy;
	gb->stats.groups_at_switch_check = -1;

	int64_t		capacity = choice.table_slots;

	cudaStream_t stream = gb->sets[0].stream;
	GpugbStatus st;

	/*
	 * Estimates can be wildly high: under a memory limit, start smaller
	 * rather than refuse, since the table grows when the groups are real.
	 */
	while ((st = gpugb_table_create(gb, capacity, stream)) == GPUGB_OUT_OF_MEMORY &&
		   capacity > GPUGB_MIN_SLOTS)
		capacity /= 2;
	GPUGB_TRY(st);
	/* The group-id table first where the plan chose it and got its table (not halved under a limit). */
	gb->lean_gid_first = choice.lean_gid_first && capacity >= choice.table_slots;
	GPUGB_TRY(GPUGB_CUDA(cudaMemsetAsync(gb->group_counter.ptr, 0, GPUGB_GROUP_COUNTER_BYTES, stream)));
	/* The other set's stream must see an initialised table. */
	return gpugb_sync_stream(gb, stream);
}

GPUGB_API GpugbStatus
gpugb_groupby_create(const GpugbGroupBySpec *spec, GpugbGroupBy **out)
{
	if (out == NULL)
		return invalid("NULL handle pointer");
	*out = NULL;
	if (spec == NULL)
		return invalid("NULL spec");
	GPUGB_TRY(validate_spec(spec));
	if (gpugb_device_probe() != GPUGB_OK)
	{
		/* The probe's own message may have been overwritten since. */
		gpugb_set_error("gpugb_groupby_create: %s", gpugb_device_description());
		return gpugb_device_probe();
	}

	GpugbGroupBy *gb = new (std::nothrow) GpugbGroupBy();

	if (gb == NULL)
	{
		gpugb_set_error("out of host memory for a group-by handle");
		return GPUGB_OUT_OF_MEMORY;
	}
	gpugb_handles_adjust(1);
	gb->spec = *spec;
	memset(&gb->stats, 0, sizeof(gb->stats));

	GpugbStatus st = create_all(gb);

	if (st != GPUGB_OK)
	{
		gpugb_groupby_destroy(gb);
		return st;
	}
	*out = gb;
	return GPUGB_OK;
}

/* Waits for a set's queued work, books its times, and re-runs its overflow rows. */
static GpugbStatus
complete_set(GpugbGroupBy *gb, GpugbStrideSet *set, bool more_to_come)
{
	auto		t0 = std::chrono::steady_clock::now();
	GpugbStatus st = GPUGB_CUDA(cudaEventSynchronize(set->ev_done));

	gb->stats.wait_ms += std::chrono::duration<double, std::milli>(
		std::chrono::steady_clock::now() - t0).count();
	if (st != GPUGB_OK)
		return st;
	gb->stats.transfer_ms += gpugb_elapsed_ms(set->ev_start, set->ev_copied);
	gb->stats.kernel_ms += gpugb_elapsed_ms(set->ev_copied, set->ev_done);
	set->state = GPUGB_SET_FREE;

	uint32_t	n_retry = ((const uint32_t *) set->retry_count_host.ptr)[0];

	if (((const uint32_t *) set->retry_count_host.ptr)[1] != 0)
		gb->stats.partition_overflow_aborts++;
	GPUGB_TRY(gpugb_partition_unpack_for_retries(gb, set, n_retry));
	if (n_retry > 0)
		GPUGB_TRY(gpugb_run_retries(gb, set, n_retry));
	/* Moved columns and packed rows kept only for those retries (gpugb_scratch_unavailable): done with. */
	if (set->sort.rows == 0)
	{
		gpugb_dev_free(&gb->acct, &set->sort.moved_cols);
		gpugb_dev_free(&gb->acct, &set->sort.moved_out);
	}
	/* Re-decide once, and only while launches are still to come. */
	if (more_to_come && gb->spec.allow_switch && !gb->strategy_checked && gb->spec.n_keys > 0)
		GPUGB_TRY(check_strategy(gb, set));
	return GPUGB_OK;
}

GPUGB_API GpugbStatus
gpugb_groupby_next_stride(GpugbGroupBy *gb, GpugbStride **stride)
{
	if (stride != NULL)
		*stride = NULL;
	if (gb == NULL || stride == NULL)
		return invalid("NULL handle or stride pointer");
	if (gb->failed)
		return gb->failed_status;
	if (gb->finished)
		return invalid("next_stride after finish");

	GpugbStrideSet *set = &gb->sets[gb->next_set];

	gb->next_set = (gb->next_set + 1) % GPUGB_N_SETS;
	if (set->state == GPUGB_SET_INFLIGHT)
		GPUGB_TRY(gpugb_fail(gb, complete_set(gb, set, true)));
	set->state = GPUGB_SET_FILLING;
	set->appended = false;
	set->stride.nrows = 0;
	memset(set->stride.key_has_nulls, 0, sizeof(set->stride.key_has_nulls));
	memset(set->stride.input_has_nulls, 0, sizeof(set->stride.input_has_nulls));
	*stride = &set->stride;
	return GPUGB_OK;
}

/* Queues one column copy; counts its bytes. */
static GpugbStatus
copy_in(GpugbGroupBy *gb, void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
	gb->stats.bytes_to_device += (int64_t) bytes;
	return GPUGB_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
}

/*
 * The aggregation part of a launch's parameters: count and value columns
 * over the device input columns (NULL null columns: no nulls there).
 */
static void
set_agg_params(const GpugbGroupBy *gb, GpugbAggParams *p, const int64_t *const *input_values,
			   const uint8_t *const *input_nulls)
{
	p->n_keys = gb->spec.n_keys;
	p->n_counts = gb->n_counts;
	p->n_values = gb->n_values;
	p->lean_fast_key = gb->spec.lean_fast_key ? 1 : 0;
	p->lean_fast_wide = gb->spec.lean_fast_wide ? 1 : 0;
	p->lean_gid_off = gb->spec.lean_gid_off ? 1 : 0;
	p->lean_deferred = gb->lean_deferred ? 1 : 0;
	p->lean_gid_first = gb->lean_gid_first ? 1 : 0;
	for (int c = 0; c < gb->n_counts; c++)
	{
		int			in = gb->count_input[c];

		p->count_nulls[c] = in >= 0 ? input_nulls[in] : nullptr;
	}
	for (int v = 0; v < gb->n_values; v++)
	{
		int			in = gb->value_cols[v].input;

		p->vals[v].values = input_values[in];
		p->vals[v].nulls = input_nulls[in];
		p->vals[v].op = gb->value_cols[v].op;
		p->vals[v].value_col = v;
		p->vals[v].hi_col = gb->value_cols[v].hi_col;
		p->vals[v].shift_col = gb->value_cols[v].shift_col;
	}
	gpugb_table_params(gb, p);
}

/*
 * Whether a launch before the run-time check probes with the lean kernel's
 * partial table (gpugb_launch_lean_probe) instead of the planned
 * GLOBAL_HASH: only where the skew is unknown (the planner had no
 * statistics of the keys) and the check follows with most rows still to
 * come (check_follows: see launch_set's callers).  A hot group makes GLOBAL_HASH's probe the
 * query's slowest part: at Zipf 1.5 the probe (then 1/64 of the rows) took about 1.4 ms of
 * auto's 6.9 against 5.4 for SHARED_HASH throughout (2^28 rows, H200,
 * session 27), 20-30 % over the best at 26 grid points.  The partial
 * table takes any skew at speed; without skew it costs the probe launch
 * about 1.3-3.5x GLOBAL_HASH's time, 0-4 % of the query's.  Both leave the
 * same global states, which the check reads.  A query of one or two
 * strides has no check after its launches to profit from the probe, and
 * would run all its rows in the partial table.
 */
static bool
probes_with_lean(const GpugbGroupBy *gb, bool check_follows)
{
	return check_follows && gb->strategy == GPUGB_STRATEGY_GLOBAL_HASH &&
		gb->spec.allow_switch && !gb->strategy_checked && gb->spec.n_keys > 0 &&
		gb->hot_share <= 0;
}

/* Adds what a launch ran of the lean kernel to the handle's statistics. */
static void
count_lean_launch(GpugbStats *stats, const GpugbLeanLaunch &ran)
{
	stats->lean_launches += ran.lean ? 1 : 0;
	stats->partial_lean_launches += ran.partial ? 1 : 0;
	stats->one_block_lean_launches += ran.one_block ? 1 : 0;
	stats->one_block_partial_lean_launches += ran.one_block_partial ? 1 : 0;
	stats->fast_key_lean_launches += ran.lean && ran.fast_key ? 1 : 0;
	stats->fast_lean_kernel_launches += ran.lean && ran.fast_kernel ? 1 : 0;
	stats->gid_lean_launches += ran.lean && ran.gid ? 1 : 0;
	stats->gid_word_lean_launches += ran.lean && ran.gid && ran.gid_word ? 1 : 0;
	stats->deferred_lean_launches += ran.lean && ran.deferred ? 1 : 0;
	stats->gid_split_lean_launches += ran.lean && ran.gid_split ? 1 : 0;
	stats->gid_range_lean_launches += ran.lean && ran.gid_split && ran.gid_ranges ? 1 : 0;
}

/*
 * The set's column of launch p's group ids for the group-id table once a
 * sum (src/heuristics.c, gpugb_lean_gid_split_pays), allocated the first time a launch wants it
 * (gpugb_lean_gid_split_wanted); nullptr where none does, or where the
 * device memory is not there: the launch then takes the tables it took
 * before.
 */
static int32_t *
split_gid_column(GpugbGroupBy *gb, GpugbStrideSet *set, const GpugbAggParams &p)
{
	size_t		bytes = (size_t) p.nrows * 4;

	if (!gpugb_lean_gid_split_wanted(p, gb->groups_hint, gb->hot_share))
		return nullptr;
	if (set->gid_column.ptr != nullptr && set->gid_column.bytes >= bytes)
		return (int32_t *) set->gid_column.ptr;
	gpugb_dev_free(&gb->acct, &set->gid_column);
	if (gpugb_dev_alloc(&gb->acct, &set->gid_column, bytes, "group-id column") != GPUGB_OK)
		return nullptr;
	return (int32_t *) set->gid_column.ptr;
}

/* Queues the aggregation of launch p with the handle's current strategy. */
static GpugbStatus
launch_strategy(GpugbGroupBy *gb, GpugbStrideSet *set, GpugbAggParams &p)
{
	cudaStream_t stream = set->stream;

	switch (gb->strategy)
	{
		case GPUGB_STRATEGY_SHARED_HASH:
			{
				GpugbLeanLaunch ran = {};

				GPUGB_TRY(gpugb_launch_shared(p, gb->shared_slots,
											  gb->n_counts + gb->n_values + gb->n_his,
											  gb->groups_hint, gb->hot_share, stream, &ran,
											  split_gid_column(gb, set, p)));
				count_lean_launch(&gb->stats, ran);
				break;
			}
		case GPUGB_STRATEGY_PRIVATE_HASH:
			GPUGB_TRY(gpugb_launch_private(p, gb->private_groups,
										   gb->n_counts + gb->n_values + gb->n_his, stream));
			break;
		case GPUGB_STRATEGY_SORT:
			GPUGB_TRY(gpugb_launch_sorted(gb, set, p));
			break;
		case GPUGB_STRATEGY_PARTITION:
			GPUGB_TRY(gpugb_launch_partition(gb, set, p));
			break;
		default:
			GPUGB_TRY(gpugb_launch_agg(p, stream));
			break;
	}
	return GPUGB_OK;
}

GpugbStatus
gpugb_publish_pending(GpugbGroupBy *gb, cudaStream_t stream, bool insert)
{
	GpugbAggParams p;

	if (!gb->publish_pending)
		return GPUGB_OK;
	gb->publish_pending = false;
	gpugb_table_params(gb, &p);
	return gpugb_launch_publish_groups(p, insert, stream);
}

/*
 * A streamed handle's launch that numbered groups without lookups puts them
 * in the slot table before its ev_done (partition_strategy.cu); until then
 * a lookup of their keys would number them again.  Its own set's
 * later launches follow it on the stream; another set's stream waits for
 * that ev_done once, before its first launch after it.
 */
static GpugbStatus
wait_for_direct_launch(GpugbGroupBy *gb, GpugbStrideSet *set)
{
	const int	s = (int) (set - gb->sets);

	if ((gb->direct_waits & (1u << s)) == 0)
		return GPUGB_OK;
	gb->direct_waits &= ~(1u << s);
	return GPUGB_CUDA(cudaStreamWaitEvent(set->stream, gb->sets[gb->direct_set].ev_done, 0));
}

/*
 * Queues the aggregation of a set's rows (already on the device), then the
 * copy-back of its retry count and ev_done.  The set's params keep the
 * plain row view for retries.  check_follows: the run-time check is
 * expected after this launch, with most rows still to come (the launch may
 * probe, probes_with_lean).
 */
static GpugbStatus
launch_set(GpugbGroupBy *gb, GpugbStrideSet *set, GpugbAggParams &p, bool check_follows)
{
	cudaStream_t stream = set->stream;
	GpugbLeanLaunch probe = {};

	p.retry_out = (uint32_t *) set->retry_list.ptr;
	p.retry_count = (unsigned int *) set->retry_count.ptr;
	set->params = p;
	set->retry_unpack = GpugbPackedRows();
	GPUGB_TRY(wait_for_direct_launch(gb, set));
	GPUGB_TRY(gpugb_publish_pending(gb, stream, true));
	GPUGB_TRY(GPUGB_CUDA(cudaMemsetAsync(set->retry_count.ptr, 0, 8, stream)));
	if (probes_with_lean(gb, check_follows))
		GPUGB_TRY(gpugb_launch_lean_probe(p, gb->groups_hint, stream, &probe));
	if (probe.lean)
	{
		count_lean_launch(&gb->stats, probe);
		gb->stats.lean_probe_launches++;
	}
	else
		GPUGB_TRY(launch_strategy(gb, set, p));
	gb->launches_queued++;
	gb->stats.strategy_used = gb->strategy;
	/* The retry count and the overflow flag (GpugbAggParams.overflow). */
	GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(set->retry_count_host.ptr, set->retry_count.ptr, 8,
										 cudaMemcpyDeviceToHost, stream)));
	GPUGB_TRY(GPUGB_CUDA(cudaEventRecord(set->ev_done, stream)));
	gb->stats.bytes_from_device += 8;
	return GPUGB_OK;
}

void
gpugb_needed_inputs(const GpugbGroupBy *gb, bool *need_values, bool *need_nulls)
{
	for (int i = 0; i < gb->spec.n_inputs; i++)
		need_values[i] = need_nulls[i] = false;
	/* COUNT(x) needs just the nulls; every value aggregate both. */
	for (int c = 0; c < gb->n_counts; c++)
		if (gb->count_input[c] >= 0)
			need_nulls[gb->count_input[c]] = true;
	for (int v = 0; v < gb->n_values; v++)
		need_values[gb->value_cols[v].input] = need_nulls[gb->value_cols[v].input] = true;
}

GpugbStrideSet *
gpugb_set_of(GpugbGroupBy *gb, const GpugbStride *stride)
{
	for (int s = 0; s < GPUGB_N_SETS; s++)
		if (&gb->sets[s].stride == stride)
			return &gb->sets[s];
	return NULL;
}

/*
 * Queues a filled set's copies (none when its rows were appended: they are
 * on the device already) and its aggregation.
 */
static GpugbStatus
submit_set(GpugbGroupBy *gb, GpugbStrideSet *set)
{
	const GpugbGroupBySpec *spec = &gb->spec;
	const GpugbStride *s = &set->stride;
	size_t		n = (size_t) s->nrows;
	cudaStream_t stream = set->stream;
	bool		copy = !set->appended;
	GpugbAggParams p;
	bool		need_values[GPUGB_MAX_INPUTS];
	bool		need_nulls[GPUGB_MAX_INPUTS];
	const uint8_t *input_nulls[GPUGB_MAX_INPUTS] = {nullptr};

	memset(&p, 0, sizeof(p));
	GPUGB_TRY(GPUGB_CUDA(cudaEventRecord(set->ev_start, stream)));

	/* Keys: values always; null bytes only when the stride has any. */
	for (int k = 0; k < spec->n_keys; k++)
	{
		if (copy)
			GPUGB_TRY(copy_in(gb, set->d_key_values[k], s->key_values[k], n * 8, stream));
		p.key_values[k] = set->d_key_values[k];
		if (s->key_has_nulls[k])
		{
			if (copy)
				GPUGB_TRY(copy_in(gb, set->d_key_nulls[k], s->key_nulls[k], n, stream));
			p.key_nulls[k] = set->d_key_nulls[k];
		}
	}

	/* Inputs: only what some aggregate reads. */
	gpugb_needed_inputs(gb, need_values, need_nulls);
	for (int i = 0; i < spec->n_inputs; i++)
	{
		if (need_values[i] && copy)
			GPUGB_TRY(copy_in(gb, set->d_input_values[i], s->input_values[i], n * 8, stream));
		if (need_nulls[i] && s->input_has_nulls[i])
		{
			if (copy)
				GPUGB_TRY(copy_in(gb, set->d_input_nulls[i], s->input_nulls[i], n, stream));
			input_nulls[i] = set->d_input_nulls[i];
		}
	}
	GPUGB_TRY(GPUGB_CUDA(cudaEventRecord(set->ev_copied, stream)));

	p.nrows = (int64_t) n;
	p.row_list = nullptr;
	set_agg_params(gb, &p, set->d_input_values, input_nulls);
	/* The check follows the first stride where more than two are expected (or their number is unknown). */
	return launch_set(gb, set, p, spec->estimated_rows <= 0 ||
					  spec->estimated_rows > 2.0 * (double) spec->stride_rows);
}

GPUGB_API GpugbStatus
gpugb_groupby_submit(GpugbGroupBy *gb, GpugbStride *stride)
{
	if (gb == NULL || stride == NULL)
		return invalid("NULL handle or stride");
	if (gb->failed)
		return gb->failed_status;

	GpugbStrideSet *set = gpugb_set_of(gb, stride);

	if (set == NULL || set->state != GPUGB_SET_FILLING)
		return invalid("stride was not handed out by next_stride");
	if (stride->nrows < 0 || stride->nrows > gb->spec.stride_rows)
		return invalid("stride nrows out of range");
	if (stride->nrows == 0)
	{
		set->state = GPUGB_SET_FREE;
		return GPUGB_OK;
	}
	if (gb->spec.appends_only && !set->appended)
		return invalid("a stride filled on the host of an appends_only handle");
	GPUGB_TRY(gpugb_fail(gb, submit_set(gb, set)));
	set->state = GPUGB_SET_INFLIGHT;
	gb->stats.strides++;
	gb->stats.rows += stride->nrows;
	return GPUGB_OK;
}

/* One launch over device-resident rows [first, first + n) of cols, waited for. */
static GpugbStatus
aggregate_device_rows(GpugbGroupBy *gb, const GpugbDeviceColumns *cols, int64_t first, int64_t n,
					  bool check_follows, bool more_to_come)
{
	GpugbStrideSet *set = &gb->sets[0];
	GpugbAggParams p;
	const int64_t *inputs[GPUGB_MAX_INPUTS] = {nullptr};
	const uint8_t *no_nulls[GPUGB_MAX_INPUTS] = {nullptr};

	memset(&p, 0, sizeof(p));
	p.nrows = n;
	for (int k = 0; k < gb->spec.n_keys; k++)
		p.key_values[k] = cols->key_values[k] + first;
	for (int i = 0; i < gb->spec.n_inputs; i++)
		inputs[i] = cols->input_values[i] != nullptr ? cols->input_values[i] + first : nullptr;
	set_agg_params(gb, &p, inputs, no_nulls);
	GPUGB_TRY(GPUGB_CUDA(cudaEventRecord(set->ev_start, set->stream)));
	GPUGB_TRY(GPUGB_CUDA(cudaEventRecord(set->ev_copied, set->stream)));
	GPUGB_TRY(launch_set(gb, set, p, check_follows));
	set->state = GPUGB_SET_INFLIGHT;
	gb->stats.strides++;
	gb->stats.rows += n;
	return complete_set(gb, set, more_to_come);
}

/*
 * Whether the rows of a device-resident probe run again once the check
 * chose PARTITION for many groups: the table forgets the probe's groups
 * (gpugb_table_clear), so PARTITION's first launch finds it empty and may
 * number whole partitions' groups without lookups (partition_strategy.cu,
 * direct_gids_apply), and no group's states are updated out of partition
 * order (GPUGB_DEVICE_PROBE_ROWS says what that cost).  From
 * GPUGB_DIRECT_MIN_GROUPS expected, where numbering without lookups made
 * forced PARTITION 1.02-1.39x as fast (H200, 2^28 rows, session 48 call 2);
 * the probe's 2^20 rows cost about 0.3 ms again (session 47 call 3).
 * 2^21 since session 51: a Zipf 1.0 probe of 2^22 groups led auto to
 * expect fewer than 2^22, so it ran on without the restart, and with four
 * payloads without gathered rows (partition_move.cu).  Against 2^22, auto
 * was 1.04-1.22x as fast at 7 points (1.22x: 4-byte keys, four payloads,
 * Zipf 1.0, 2^22) and 0.97-1.03x at the rest; 2^20 lost 0.95x at three
 * points of 8-byte keys at 2^26 (H200, 2^28 rows, both key widths, one and
 * four payloads, four distributions, 2^14-2^26, 3 reps, kernelbench
 * --direct-min-groups, session 51 call 5).
 * 0.9 x 2^21 since session 60: a Zipf 1.0 draw of 2^21 keys holds
 * 2,097,109 of them, 43 short of 2^21, so auto ran on without the restart
 * and took 29.7 ms with four payloads against forced PARTITION's 19.3;
 * the lower line made auto 1.46x as fast there and changed no other point
 * beyond the run's noise (0.94-1.05x, as forced PARTITION's own times moved;
 * both key widths, one and four payloads, four distributions, 2^20-2^22
 * and 8-byte keys at 2^26, session 60 call 2).
 */
#define GPUGB_DIRECT_MIN_GROUPS ((int64_t) (0.9 * (INT64_C(1) << 21)))

static bool
restarts_after_probe(const GpugbGroupBy *gb)
{
	const int64_t min_groups = gb->spec.device_direct_min_groups > 0 ? gb->spec.device_direct_min_groups :
		GPUGB_DIRECT_MIN_GROUPS;

	return !gb->spec.partition_lookup_all && gb->strategy == GPUGB_STRATEGY_PARTITION &&
		gb->groups_hint >= (double) min_groups;
}

GPUGB_API GpugbStatus
gpugb_groupby_aggregate_device(GpugbGroupBy *gb, const GpugbDeviceColumns *cols)
{
	if (gb == NULL || cols == NULL)
		return invalid("NULL handle or columns");
	if (gb->failed)
		return gb->failed_status;
	if (!gb->spec.device_resident || gb->finished)
		return invalid("aggregate_device needs a device_resident handle before finish");
	if (cols->nrows < 0 || cols->nrows > gb->spec.stride_rows)
		return invalid("nrows out of range");
	if (cols->nrows == 0)
		return GPUGB_OK;

	/*
	 * The run-time correction needs a first launch to learn from: when it
	 * is still to come, a probe launch of GPUGB_DEVICE_PROBE_ROWS (or
	 * spec.device_probe_rows) goes first and the strategy chosen after it
	 * runs the rest.
	 */
	const int64_t probe_rows = gb->spec.device_probe_rows > 0 ? gb->spec.device_probe_rows : GPUGB_DEVICE_PROBE_ROWS;
	int64_t		probe = 0;

	if (gb->spec.allow_switch && !gb->strategy_checked && gb->spec.n_keys > 0 &&
		cols->nrows >= 2 * probe_rows)
		probe = probe_rows;
	if (probe > 0)
	{
		GPUGB_TRY(gpugb_fail(gb, aggregate_device_rows(gb, cols, 0, probe, true, true)));
		if (restarts_after_probe(gb))
		{
			GPUGB_TRY(gpugb_fail(gb, gpugb_table_clear(gb, gb->sets[0].stream)));
			gb->launches_queued = 0;
			gb->stats.rows -= probe;
			gb->stats.probe_restarts++;
			probe = 0;
		}
	}
	/* Later calls may follow (the caller decides): they may still switch. */
	return gpugb_fail(gb, aggregate_device_rows(gb, cols, probe, cols->nrows - probe, false, true));
}

GPUGB_API GpugbStatus
gpugb_groupby_finish(GpugbGroupBy *gb, int64_t *n_groups)
{
	if (gb == NULL || n_groups == NULL)
		return invalid("NULL handle or result pointer");
	*n_groups = 0;
	if (gb->failed)
		return gb->failed_status;
	if (!gb->finished)
	{
		/* Oldest submission first: next_set points at the least recent set. */
		for (int i = 0; i < GPUGB_N_SETS; i++)
		{
			GpugbStrideSet *set = &gb->sets[(gb->next_set + i) % GPUGB_N_SETS];

			if (set->state == GPUGB_SET_INFLIGHT)
				GPUGB_TRY(gpugb_fail(gb, complete_set(gb, set, false)));
			set->state = GPUGB_SET_FREE;
		}
		GPUGB_TRY(gpugb_fail(gb, gpugb_sync_all(gb)));
		/* No lookup is to come: groups numbered without one need only their marks off (fetch, order read them). */
		GPUGB_TRY(gpugb_fail(gb, gpugb_publish_pending(gb, gb->sets[0].stream, false)));
		GPUGB_TRY(gpugb_fail(gb, gpugb_group_count(gb, gb->sets[0].stream, &gb->n_groups)));
		if (gb->stats.partition_direct_launches > 0)
			GPUGB_TRY(gpugb_fail(gb, gpugb_direct_group_count(gb, gb->sets[0].stream,
															  &gb->stats.partition_direct_groups)));
		/* Ordered output: the dense groups are permuted in place (order.cu). */
		GPUGB_TRY(gpugb_fail(gb, gpugb_order_groups(gb, gb->sets[0].stream)));
		gb->finished = true;
	}
	*n_groups = gb->n_groups;
	return GPUGB_OK;
}

/*
 * Rewrites the value columns of the listed aggregates through map, each
 * column once (aggregates of one op and input share it), on sets[0]'s
 * stream, and waits: the map's device copy is freed before returning, and
 * the other set's stream, which does not wait for this one, must see the
 * new values when the next stride is launched on it.
 */
static GpugbStatus
remap_columns(GpugbGroupBy *gb, const int *aggs, int n_aggs, const int64_t *map,
			  int64_t map_len)
{
	cudaStream_t stream = gb->sets[0].stream;
	int64_t		m = gb->table.max_groups;
	bool		done[GPUGB_MAX_AGGS] = {false};
	DevBuf		d_map;
	GpugbStatus st;

	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &d_map, (size_t) map_len * 8, "value map"));
	gb->stats.bytes_to_device += map_len * 8;
	st = GPUGB_CUDA(cudaEventRecord(gb->ev_a, stream));
	if (st == GPUGB_OK)
		st = GPUGB_CUDA(cudaMemcpyAsync(d_map.ptr, map, (size_t) map_len * 8,
										cudaMemcpyHostToDevice, stream));
	for (int i = 0; i < n_aggs && st == GPUGB_OK; i++)
	{
		int			v = gb->agg_value_col[aggs[i]];

		if (done[v])
			continue;
		done[v] = true;
		st = gpugb_launch_remap((int64_t *) gb->table.values.ptr + (size_t) v * m, m,
								(const int64_t *) d_map.ptr, map_len, stream);
	}
	if (st == GPUGB_OK)
		st = GPUGB_CUDA(cudaEventRecord(gb->ev_b, stream));
	if (st == GPUGB_OK)
		st = gpugb_sync_stream(gb, stream);
	if (st == GPUGB_OK)
		gb->stats.kernel_ms += gpugb_elapsed_ms(gb->ev_a, gb->ev_b);
	else
	{
		/* Wait before freeing what queued work may still read. */
		(void) cudaStreamSynchronize(stream);
		(void) cudaGetLastError();
	}
	gpugb_dev_free(&gb->acct, &d_map);
	return st;
}

/*
 * Sets still FILLING are left alone: their rows are submitted after this
 * call, so the caller writes them in the new values.  device_resident
 * handles need nothing special: aggregate_device waits for its launches,
 * so their sets are never INFLIGHT here.
 */
GPUGB_API GpugbStatus
gpugb_groupby_remap_values(GpugbGroupBy *gb, const int *aggs, int n_aggs,
						   const int64_t *map, int64_t map_len)
{
	if (gb == NULL)
		return invalid("NULL handle");
	if (gb->failed)
		return gb->failed_status;
	if (gb->finished)
		return invalid("remap_values after finish");
	if (n_aggs < 0 || n_aggs > GPUGB_MAX_AGGS || map_len < 0 || map_len > INT64_MAX / 8 ||
		(n_aggs > 0 && aggs == NULL) || (map_len > 0 && map == NULL))
		return invalid("remap_values: bad aggregate list or map");
	for (int i = 0; i < n_aggs; i++)
	{
		if (aggs[i] < 0 || aggs[i] >= gb->spec.n_aggs)
			return invalid("remap_values: aggregate index out of range");
		if (gb->spec.aggs[aggs[i]].op != GPUGB_AGG_MIN_INT &&
			gb->spec.aggs[aggs[i]].op != GPUGB_AGG_MAX_INT)
			return invalid("remap_values: aggregate is not MIN_INT or MAX_INT");
	}
	if (n_aggs == 0 || map_len == 0)
		return GPUGB_OK;

	/*
	 * Every stride submitted so far, with its retries, is in the old values:
	 * aggregate all of it first, oldest first as finish does.
	 */
	for (int i = 0; i < GPUGB_N_SETS; i++)
	{
		GpugbStrideSet *set = &gb->sets[(gb->next_set + i) % GPUGB_N_SETS];

		if (set->state == GPUGB_SET_INFLIGHT)
			GPUGB_TRY(gpugb_fail(gb, complete_set(gb, set, true)));
	}
	GPUGB_TRY(gpugb_fail(gb, gpugb_sync_all(gb)));
	/* Half-remapped states (or none, after an OOM) mix two orders: fail. */
	return gpugb_fail(gb, remap_columns(gb, aggs, n_aggs, map, map_len));
}

GPUGB_API void
gpugb_groupby_stats(const GpugbGroupBy *gb, GpugbStats *stats)
{
	if (stats == NULL)
		return;
	if (gb == NULL)
	{
		memset(stats, 0, sizeof(*stats));
		return;
	}
	*stats = gb->stats;
	stats->peak_device_bytes = gb->acct.peak_device_bytes;
	stats->device_alloc_ms = gb->acct.alloc_ms;
}

GPUGB_API void
gpugb_groupby_destroy(GpugbGroupBy *gb)
{
	if (gb == NULL)
		return;
	/* Drain first: queued copies and kernels may still use what we free. */
	for (int s = 0; s < GPUGB_N_SETS; s++)
		if (gb->sets[s].stream != nullptr)
			(void) cudaStreamSynchronize(gb->sets[s].stream);
	(void) cudaGetLastError();

	gpugb_table_free(gb, &gb->table);
	gpugb_dev_free(&gb->acct, &gb->group_counter);
	gpugb_dev_free(&gb->acct, &gb->probe_scalar);
	gpugb_host_free(&gb->acct, &gb->scalar_host);
	gpugb_host_free(&gb->acct, &gb->fetch_staging);
	gpugb_dev_free(&gb->acct, &gb->spare_retry);
	gpugb_event_destroy(&gb->acct, &gb->ev_a);
	gpugb_event_destroy(&gb->acct, &gb->ev_b);
	gpugb_append_events_free(gb);
	for (int s = 0; s < GPUGB_N_SETS; s++)
	{
		GpugbStrideSet *set = &gb->sets[s];

		gpugb_host_free(&gb->acct, &set->host);
		gpugb_dev_free(&gb->acct, &set->dev);
		gpugb_dev_free(&gb->acct, &set->retry_list);
		gpugb_dev_free(&gb->acct, &set->gid_column);
		gpugb_dev_free(&gb->acct, &set->retry_count);
		gpugb_host_free(&gb->acct, &set->retry_count_host);
		gpugb_sort_bufs_free(gb, &set->sort);
		gpugb_event_destroy(&gb->acct, &set->ev_start);
		gpugb_event_destroy(&gb->acct, &set->ev_copied);
		gpugb_event_destroy(&gb->acct, &set->ev_done);
		gpugb_stream_destroy(&gb->acct, &set->stream);
	}
	gpugb_handles_adjust(-1);
	delete gb;
}
