/*-------------------------------------------------------------------------
 * strategy.c
 *    A GpugbGroupBySpec as the heuristics' workload, and the strategy for it
 *    (see strategy.h).
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <string.h>

#include "strategy.h"

/* Aggregate operations (GpugbAggOp) there are. */
#define N_AGG_OPS (GPUGB_AGG_SUM_SHIFTED_SQ + 1)

int
gpugb_spec_state_columns(const GpugbGroupBySpec *spec)
{
	/* index 0: COUNT_STAR's "every row"; 1 + i: input i */
	bool		counted[GPUGB_MAX_INPUTS + 1];
	bool		valued[N_AGG_OPS][GPUGB_MAX_INPUTS + 1];
	int			columns = 0;

	memset(counted, 0, sizeof(counted));
	memset(valued, 0, sizeof(valued));
	/* The device always keeps "rows of the group" (its other counts are NULLs). */
	counted[0] = true;
	columns = 1;
	for (int a = 0; a < spec->n_aggs; a++)
	{
		GpugbAggOp	op = spec->aggs[a].op;
		int			slot = op == GPUGB_AGG_COUNT_STAR ? 0 : 1 + spec->aggs[a].input;

		if (slot < 0 || slot > GPUGB_MAX_INPUTS || (int) op < 0 || (int) op >= N_AGG_OPS)
			continue;			/* not a valid spec: gpugb_groupby_create refuses it */
		if (!counted[slot])
		{
			counted[slot] = true;
			columns++;
		}
		if (op == GPUGB_AGG_COUNT_STAR || op == GPUGB_AGG_COUNT || valued[op][slot])
			continue;
		valued[op][slot] = true;
		/* a second (high or low) word: as cuda/groupby.cu's build_layout */
		columns += op == GPUGB_AGG_SUM_INT || op == GPUGB_AGG_SUM_SHIFTED ||
			op == GPUGB_AGG_SUM_SHIFTED_SQ ? 2 : 1;
	}
	return columns;
}

/*
 * Whether the spec's aggregates are COUNT and integer SUM only, of at most
 * GPUGB_LEAN_MAX_SUMS value columns, and its keys fit a block key cache:
 * the launches SHARED_HASH's lean kernel takes (cuda/lean_kernel.cuh's
 * gpugb_lean_launch_ok).  *columns_out: the generic 8-byte state columns
 * its block states take in a launch without NULL inputs, 8 bytes a sum and
 * 4 the row count, as cuda/launch.cu plans them; a launch with NULLs adds
 * 4 bytes for each input that has some, and may then get a partial table
 * (gpugb_plan_lean_table), which is still exact.  *sums_fit_int32: every
 * summed input is declared in spec.inputs_fit_int32.
 */
static bool
spec_lean_aggs(const GpugbGroupBySpec *spec, int *columns_out, bool *sums_fit_int32)
{
	bool		summed[GPUGB_MAX_INPUTS];
	int			sums = 0;

	*columns_out = 0;
	*sums_fit_int32 = false;
	if (spec->n_keys > GPUGB_KEY_CACHE_MAX_KEYS)
		return false;
	memset(summed, 0, sizeof(summed));
	for (int a = 0; a < spec->n_aggs; a++)
	{
		GpugbAggOp	op = spec->aggs[a].op;
		int			in = spec->aggs[a].input;

		if (op == GPUGB_AGG_COUNT_STAR)
			continue;
		if ((op != GPUGB_AGG_SUM_INT && op != GPUGB_AGG_COUNT) || in < 0 || in >= GPUGB_MAX_INPUTS)
			return false;
		if (op == GPUGB_AGG_SUM_INT && !summed[in])
			sums++;
		summed[in] |= op == GPUGB_AGG_SUM_INT;
	}
	*columns_out = sums + 1;
	*sums_fit_int32 = true;
	for (int in = 0; in < GPUGB_MAX_INPUTS; in++)
		if (summed[in] && (spec->inputs_fit_int32 >> in & 1) == 0)
			*sums_fit_int32 = false;
	return sums <= GPUGB_LEAN_MAX_SUMS;
}

void
gpugb_spec_workload(const GpugbGroupBySpec *spec, GpugbWorkload *w)
{
	double		stride = spec->stride_rows > 0 ? (double) spec->stride_rows : 1.0;

	memset(w, 0, sizeof(*w));
	w->rows = spec->estimated_rows > 0 ? spec->estimated_rows : stride;
	w->rows_per_launch = w->rows < stride ? w->rows : stride;
	w->groups = spec->n_keys == 0 ? 1.0 :
		(spec->estimated_groups > 0 ? (double) spec->estimated_groups : 1.0);
	w->key_words = spec->n_keys;
	w->key_fits_int32 = spec->n_keys == 1 && spec->key_fits_int32;
	w->slot_bytes = gpugb_spec_slot_bytes(spec);
	w->state_columns = gpugb_spec_state_columns(spec);
	w->lean_aggs = spec_lean_aggs(spec, &w->lean_columns, &w->sums_fit_int32);
	w->lean_gid_off = spec->lean_gid_off;
	w->tagged_slots_only = spec->tagged_slots_only;
	w->hot_share = spec->n_keys == 0 ? 0 : spec->estimated_hot_share;
	w->nulls_expected = spec->estimated_nulls;
}

void
gpugb_spec_choose(const GpugbGroupBySpec *spec, int forced, GpugbStrategyChoice *choice)
{
	GpugbWorkload w;
	GpugbDeviceProps props;

	gpugb_spec_workload(spec, &w);
	gpugb_device_properties(&props);
	gpugb_choose_strategy(&w, &props, choice);
	if (forced >= 0 && forced < GPUGB_N_STRATEGIES)
	{
		GpugbStrategy chosen = choice->strategy;

		choice->strategy = (GpugbStrategy) forced;
		snprintf(choice->reason, sizeof(choice->reason),
				 "forced by gpugb.strategy (auto would choose %s)",
				 gpugb_strategy_name(chosen));
	}
}

void
gpugb_spec_recheck(const GpugbGroupBySpec *spec, double rows_seen, double groups_seen,
				   double hot_share, double seen_once, double seen_twice, GpugbStrategyChoice *choice)
{
	GpugbWorkload planned;
	GpugbWorkload observed;
	GpugbDeviceProps props;

	gpugb_spec_workload(spec, &planned);
	planned.hot_share = hot_share;	/* the sample's skew: gpugb_workload_observed reads it */
	if (!spec->observed_uniform_only)
	{
		planned.sample_once = seen_once;
		planned.sample_twice = seen_twice;
	}
	gpugb_workload_observed(&planned, rows_seen, groups_seen, &observed);
	/* More rows than planned make longer launches too. */
	if (spec->stride_rows > 0)
		observed.rows_per_launch = observed.rows < (double) spec->stride_rows ?
			observed.rows : (double) spec->stride_rows;
	gpugb_device_properties(&props);
	gpugb_choose_strategy(&observed, &props, choice);
}

GpugbStrategy
gpugb_spec_runnable(const GpugbGroupBySpec *spec, GpugbStrategy strategy)
{
	GpugbDeviceProps props;

	gpugb_device_properties(&props);
	if (strategy == GPUGB_STRATEGY_PRIVATE_HASH &&
		gpugb_private_groups_for(gpugb_spec_state_columns(spec), &props) == 0)
		strategy = GPUGB_STRATEGY_SHARED_HASH;	/* states too wide for a thread's slice */
	if (strategy == GPUGB_STRATEGY_SHARED_HASH &&
		gpugb_shared_slots_for(gpugb_spec_state_columns(spec), &props) == 0)
		return GPUGB_STRATEGY_GLOBAL_HASH;	/* states too wide for shared memory */
	if ((strategy == GPUGB_STRATEGY_SORT || strategy == GPUGB_STRATEGY_PARTITION) &&
		spec->n_keys == 0)
		return GPUGB_STRATEGY_GLOBAL_HASH;	/* one group: nothing to sort or partition by */
	return strategy;
}

GpugbStrategy
gpugb_spec_first_runnable(const GpugbGroupBySpec *spec, GpugbStrategy strategy)
{
	GpugbStrategy runnable = gpugb_spec_runnable(spec, strategy);

	if (runnable == GPUGB_STRATEGY_PARTITION && spec->allow_switch && spec->n_keys > 0)
	{
		if (spec->partition_sort_probe)
			return GPUGB_STRATEGY_SORT;
		if (!spec->partition_own_probe)
			return GPUGB_STRATEGY_GLOBAL_HASH;
	}
	return runnable;
}
