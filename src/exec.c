/*-------------------------------------------------------------------------
 * exec.c
 *    Executor callbacks of the GpuGroupAgg CustomScan.
 *
 * On the first call the node drains its input child into pinned column
 * strides, which the device module copies and aggregates while the next
 * stride is being filled (double buffering lives in cuda/).  Then it hands
 * out one scan tuple per group; ExecScan applies HAVING and the projection.
 * When the plan promised an order (pathkeys), the device sorts the groups
 * at finish and they come out in that order; the fallback plan is sorted
 * by the planner.
 *
 * Under a Gather (parallel ingest, see parallel.c) workers only fill strides
 * in shared memory; the leader feeds them, with its own share, to the GPU
 * and alone returns groups.
 *
 * If the GPU cannot finish (no device, out of memory, a CUDA error, or a
 * float result whose overflow behaviour we cannot promise), the device
 * handle is released and the node runs PostgreSQL's own grouping plan, its
 * second child, from the start (for parallel ingest a Gather-free plan, run
 * by the leader, after the workers are told to stop; or, if the GPU failed
 * before taking any row, the CPU emulator over the workers' strides).
 * gpugb.require_gpu turns any fallback into an ERROR.
 *
 * Device resources are released in EndCustomScan and, on ERROR or cancel,
 * by a reset callback on the query memory context.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "postmaster/bgworker.h"
#include "executor/executor.h"
#include "executor/nodeCustom.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "portability/instr_time.h"
#include "utils/memutils.h"

#include "device_ops.h"
#include "exec.h"
#include "heapread.h"
#include "hostexpr.h"
#include "textdict.h"
#include "textorder.h"
#include "numeric_free.h"
#include "numeric_words.h"
#include "parallel.h"
#include "strategy.h"

GpugbBackendStats gpugb_backend_stats;

void
gpugb_release_device(GpugbScanState *st)
{
	if (st->gb != NULL)
	{
		GpugbGroupBy *gb = st->gb;

		st->gb = NULL;
		st->ops->destroy(gb);
	}
}

static void
cleanup_callback(void *arg)
{
	gpugb_release_device((GpugbScanState *) arg);
}

/* The derived input of that kind from input source, added once. */
int
gpugb_derived_input(GpugbScanState *st, GpugbDerivedKind kind, int source)
{
	GpugbInputLayout *layout = &st->layout;

	for (int d = layout->n_child_inputs; d < layout->n_inputs; d++)
		if (layout->derived_kind[d] == kind && layout->derived_from[d] == source)
			return d;
	if (layout->n_inputs >= GPUGB_MAX_INPUTS)
		elog(ERROR, "gpugb: too many aggregate inputs");
	layout->derived_kind[layout->n_inputs] = kind;
	layout->derived_from[layout->n_inputs] = source;
	return layout->n_inputs++;
}

/* A hidden device aggregate; returns its index. */
int
gpugb_add_hidden_agg(GpugbScanState *st, int *n, GpugbAggOp op, int input)
{
	if (*n >= GPUGB_MAX_AGGS)
		elog(ERROR, "gpugb: too many aggregates");
	st->spec.aggs[*n].op = op;
	st->spec.aggs[*n].input = input;
	return (*n)++;
}

/* A free numeric's planned scale (plan.c), checked. */
static int
planned_free_scale(int scale)
{
	if (scale < 0 || scale > GPUGB_FREE_MAX_SCALE)
		elog(ERROR, "gpugb: a free numeric column without a planned scale");
	return scale;
}

/*
 * The child's columns after the keys.  A numeric column only count(x)
 * reads travels as its nullness alone: a value without a word (too many
 * digits) must not make a mere count fall back.  (The columns the filler's
 * programs read keep their words.)
 */
static void
set_child_types(GpugbScanState *st)
{
	GpugbPlanInfo *info = &st->info;
	bool		value_read[GPUGB_MAX_INPUTS] = {0};

	for (int a = 0; a < info->n_aggs; a++)
		if (info->agg_inputs[a] >= 0 && st->aggs[a]->op != GPUGB_AGG_COUNT &&
			st->aggs[a]->op != GPUGB_AGG_COUNT_STAR &&
			info->input_columns[info->agg_inputs[a]] >= 0)
			value_read[info->input_columns[info->agg_inputs[a]]] = true;
	for (int i = 0; i < info->n_inputs; i++)
		if (info->input_columns[i] < 0)
			gpugb_hostexpr_mark_read(info->input_programs[i], value_read,
									 Min(info->n_child_columns, GPUGB_MAX_INPUTS));
	for (int k = 0; k < info->n_keys; k++)
		if (info->key_programs[k] != NIL)
			gpugb_hostexpr_mark_read(info->key_programs[k], value_read,
									 Min(info->n_child_columns, GPUGB_MAX_INPUTS));
	for (int c = 0; c < info->n_child_columns; c++)
	{
		GpugbColumnType *type = &st->layout.child_types[c];

		*type = gpugb_column_type(info->child_types[c], info->child_typmods[c], false);
		if (type->kind == GPUGB_VALUE_NUMERIC_FREE)
			type->scale = planned_free_scale(info->child_free_scales[c]);
		if ((type->kind == GPUGB_VALUE_NUMERIC || type->kind == GPUGB_VALUE_NUMERIC_FREE) &&
			!value_read[c])
			*type = (GpugbColumnType) {GPUGB_VALUE_NULL_ONLY, 0, -1, 1};
		/* a text only count(x) reads needs no dictionary */
		if ((type->kind == GPUGB_VALUE_TEXT_RANK || type->kind == GPUGB_VALUE_BPCHAR_RANK) &&
			!value_read[c])
			*type = (GpugbColumnType) {GPUGB_VALUE_NULL_ONLY, 0, -1, 1};
	}
}

/*
 * Device aggregates: the query's own first (device index = scan column
 * index - n_keys), then hidden ones: a count(*) when the query has no
 * aggregate (plain GROUP BY), a max over each float sum's finite |x| for
 * gpugb_float_sums_unsafe, sums of squares for a variance, a shift and
 * shifted sums for a float variance, a NaN check for a numeric sum, and the words of interval keys and aggregates
 * (interval_words.c).
 */
static void
build_device_spec(GpugbScanState *st)
{
	GpugbPlanInfo *info = &st->info;
	GpugbGroupBySpec *spec = &st->spec;
	int			n = 0;

	memset(spec, 0, sizeof(*spec));
	for (int a = 0; a < info->n_aggs; a++)
	{
		const GpugbAggEntry *entry = gpugb_agg_lookup(info->agg_fnoids[a]);

		if (entry == NULL)
			elog(ERROR, "gpugb: aggregate %u is not in the catalog", info->agg_fnoids[a]);
		st->aggs[a] = entry;
		st->finish[a] = entry->finish;
		/* count(*) FILTER (...) counts the non-nulls of its CASE input */
		spec->aggs[n].op = (entry->op == GPUGB_AGG_COUNT_STAR && info->agg_inputs[a] >= 0) ?
			GPUGB_AGG_COUNT : entry->op;
		spec->aggs[n].input = info->agg_inputs[a];
		n++;
	}
	if (n == 0)
	{
		spec->aggs[n].op = GPUGB_AGG_COUNT_STAR;
		spec->aggs[n].input = -1;
		n++;
	}
	st->layout.n_sql_keys = info->n_keys;
	st->layout.n_key_exprs = 0;
	st->layout.zone_changed = false;
	st->layout.n_inputs = info->n_inputs;
	st->layout.n_child_inputs = info->n_inputs;
	st->layout.n_child_columns = info->n_child_columns;
	spec->n_keys = 0;				/* words: counted below */
	spec->estimated_groups = (int64) Max(1.0, Min(info->estimated_groups, 1e15));
	/* No need for strides much longer than the whole input is expected to be. */
	spec->stride_rows = (int64) Min((double) gpugb_stride_rows,
									Max(65536.0, linitial_node(Plan, ((CustomScan *) st->css.ss.ps.plan)->custom_plans)->plan_rows * 1.25));
	spec->device_memory_limit = (int64) gpugb_device_memory_limit_mb * 1024 * 1024;

	for (int k = 0; k < info->n_keys; k++)
	{
		st->layout.key_types[k] = gpugb_column_type(info->key_types[k], info->key_typmods[k],
													true);
		if (st->layout.key_types[k].kind == GPUGB_VALUE_NUMERIC_FREE)
			st->layout.key_types[k].scale = planned_free_scale(info->key_free_scales[k]);
		st->layout.key_transforms[k] = info->key_transforms[k];
		if (!gpugb_key_transform_zone_holds(&info->key_transforms[k]))
			st->layout.zone_changed = true;
		/* extract's words are free numerics at the key's planned scale */
		if (info->key_transforms[k].op == GPUGB_KEY_EXTRACT ||
			info->key_transforms[k].op == GPUGB_KEY_EXTRACT_DATE)
		{
			if (st->layout.key_types[k].kind != GPUGB_VALUE_NUMERIC_FREE)
				elog(ERROR, "gpugb: an extract GROUP BY key that is not a free numeric");
			st->layout.key_transforms[k].offset = gpugb_pow10[st->layout.key_types[k].scale];
		}
		st->layout.key_expr[k] = NULL;
		if (info->key_programs[k] != NIL)
		{
			st->layout.n_key_exprs++;
			st->layout.key_expr[k] = palloc(sizeof(GpugbHostExpr));
			/* a free numeric key's packed word is at its planned scale */
			gpugb_hostexpr_decode(info->key_programs[k],
								  st->layout.key_types[k].kind == GPUGB_VALUE_NUMERIC_FREE ?
								  st->layout.key_types[k].scale : 0,
								  info->key_types[k],
								  st->layout.key_expr[k]);
		}
		st->layout.key_word[k] = spec->n_keys;
		spec->n_keys += st->layout.key_types[k].words;
	}
	if (spec->n_keys > GPUGB_MAX_KEYS)
		elog(ERROR, "gpugb: too many GROUP BY key words");
	st->layout.n_keys = spec->n_keys;
	/*
	 * One int2, int4, date or bool key: its word is always an int32 value
	 * (key transforms keep the key's type and its range), so the device
	 * table may keep the key in its slots (cuda/hash_table.cuh).
	 */
	spec->key_fits_int32 = info->n_keys == 1 && spec->n_keys == 1 &&
		(st->layout.key_types[0].kind == GPUGB_VALUE_INT16 ||
		 st->layout.key_types[0].kind == GPUGB_VALUE_INT32 ||
		 st->layout.key_types[0].kind == GPUGB_VALUE_BOOL);
	/*
	 * Ordered output: the planner chose only keys whose word orders
	 * (aggcatalog.c) and counts of count(*) or count(x).
	 */
	spec->n_order = info->n_order;
	for (int o = 0; o < info->n_order; o++)
	{
		int			k = info->order_keys[o];
		GpugbOrderKind kind;

		spec->order[o].descending = info->order_desc[o];
		spec->order[o].nulls_first = info->order_nulls_first[o];
		if (info->order_by_count[o])
		{
			/* a count's result is the device's count (not a variance's, say) */
			if (st->finish[k] != GPUGB_FINISH_COUNT ||
				(spec->aggs[k].op != GPUGB_AGG_COUNT_STAR && spec->aggs[k].op != GPUGB_AGG_COUNT))
				elog(ERROR, "gpugb: aggregate %d cannot order the output", k + 1);
			spec->order[o].by_count = true;
			spec->order[o].agg = k;
			spec->order[o].kind = GPUGB_ORDER_INT;
			continue;
		}
		if (info->order_by_value[o])
		{
			/*
			 * an integer sum, min or max: its result is the device's value
			 * (a sum of int8 a numeric at scale 0), NULL without an input
			 */
			if ((st->finish[k] != GPUGB_FINISH_SUM_TO_INT8 &&
				 st->finish[k] != GPUGB_FINISH_SUM_TO_NUMERIC &&
				 st->finish[k] != GPUGB_FINISH_MINMAX) ||
				(spec->aggs[k].op != GPUGB_AGG_SUM_INT && spec->aggs[k].op != GPUGB_AGG_MIN_INT &&
				 spec->aggs[k].op != GPUGB_AGG_MAX_INT))
				elog(ERROR, "gpugb: aggregate %d cannot order the output", k + 1);
			spec->order[o].by_value = true;
			spec->order[o].agg = k;
			spec->order[o].kind = GPUGB_ORDER_INT;
			continue;
		}
		if (st->layout.key_types[k].words != 1 ||
			!gpugb_key_kind_orders(st->layout.key_types[k].kind, &kind))
			elog(ERROR, "gpugb: GROUP BY key %d cannot order the output", k + 1);
		spec->order[o].key = st->layout.key_word[k];
		spec->order[o].kind = kind;
	}
	set_child_types(st);
	for (int i = 0; i < info->n_inputs; i++)
	{
		st->layout.input_column[i] = info->input_columns[i];
		st->layout.input_expr[i] = NULL;
		if (info->input_columns[i] >= 0)
			st->layout.input_types[i] = st->layout.child_types[info->input_columns[i]];
		else
		{
			bool		integer = info->input_types[i] != NUMERICOID;

			/* an integer (bool, float, ...) result's word is as the type's column's */
			st->layout.input_types[i] = integer ?
				gpugb_column_type(info->input_types[i], -1, false) :
				(GpugbColumnType) {
				GPUGB_VALUE_NUMERIC, info->input_scales[i], -1
			};
			st->layout.input_expr[i] = palloc(sizeof(GpugbHostExpr));
			gpugb_hostexpr_decode(info->input_programs[i], info->input_scales[i],
								  info->input_types[i], st->layout.input_expr[i]);
			/* a numeric CASE or COALESCE: packed words of a free numeric (numeric_free.h) */
			if (st->layout.input_expr[i]->packed)
				st->layout.input_types[i] = (GpugbColumnType) {
					GPUGB_VALUE_NUMERIC_FREE, info->input_scales[i], -1, 1
				};
		}
	}

	/*
	 * Each float sum's input i gets a derived input column, |x| where x is
	 * finite and NULL elsewhere (strides.c fills it), and a hidden max over
	 * it: its count is the number of finite inputs and its value bounds
	 * every one of them, which is what gpugb_float_sums_unsafe needs.  A
	 * sum (avg, variance) of a free numeric adds up the value parts of its
	 * packed words (a derived input), and a hidden max over their dscale
	 * parts gives the sum's display scale (numeric_free.c).
	 */
	for (int a = 0; a < info->n_aggs; a++)
	{
		int			source = info->agg_inputs[a];

		st->float_bound_agg[a] = st->square_hi_agg[a] = st->square_lo_agg[a] = -1;
		st->shifted_sum_agg[a] = st->shifted_sq_agg[a] = -1;
		st->dscale_agg[a] = -1;
		if (st->aggs[a]->op == GPUGB_AGG_SUM_INT &&
			st->layout.input_types[source].kind == GPUGB_VALUE_NUMERIC_FREE)
		{
			int			value = gpugb_derived_input(st, GPUGB_DERIVED_FREE_VALUE, source);

			st->dscale_agg[a] =
				gpugb_add_hidden_agg(st, &n, GPUGB_AGG_MAX_INT,
							   gpugb_derived_input(st, GPUGB_DERIVED_FREE_DSCALE, source));
			spec->aggs[a].input = value;
			source = value;
		}
		if (st->aggs[a]->op == GPUGB_AGG_SUM_FLOAT || gpugb_finish_is_float_variance(st->finish[a]))
			st->float_bound_agg[a] =
				gpugb_add_hidden_agg(st, &n, GPUGB_AGG_MAX_FLOAT,
							   gpugb_derived_input(st, GPUGB_DERIVED_FINITE_ABS, source));
		if (gpugb_finish_is_float_variance(st->finish[a]))
		{
			/*
			 * Over the finite inputs only (NaN and infinities make the
			 * result NaN: the bound's count tells): a per-group shift K
			 * and compensated sums of x - K and (x - K)^2 (gpugb_fsum.h).
			 * Several variances of one input share them on the device.
			 */
			int			finite = gpugb_derived_input(st, GPUGB_DERIVED_FINITE, source);

			(void) gpugb_add_hidden_agg(st, &n, GPUGB_AGG_SHIFT_FLOAT, finite);
			st->shifted_sum_agg[a] = gpugb_add_hidden_agg(st, &n, GPUGB_AGG_SUM_SHIFTED, finite);
			st->shifted_sq_agg[a] = gpugb_add_hidden_agg(st, &n, GPUGB_AGG_SUM_SHIFTED_SQ, finite);
		}
		if (gpugb_finish_is_variance(st->finish[a]))
		{
			/* sum(x^2) = sum(hi) * 2^64 + sum(lo) + N * 2^63, exactly */
			st->square_hi_agg[a] =
				gpugb_add_hidden_agg(st, &n, GPUGB_AGG_SUM_INT,
							   gpugb_derived_input(st, GPUGB_DERIVED_SQUARE_HI, source));
			st->square_lo_agg[a] =
				gpugb_add_hidden_agg(st, &n, GPUGB_AGG_SUM_INT,
							   gpugb_derived_input(st, GPUGB_DERIVED_SQUARE_LO, source));
		}
	}
	/* A free numeric key prints with one member's dscale: a hidden min. */
	for (int k = 0; k < info->n_keys; k++)
		st->key_dscale_agg[k] = st->layout.key_types[k].kind != GPUGB_VALUE_NUMERIC_FREE ? -1 :
			gpugb_add_hidden_agg(st, &n, GPUGB_AGG_MIN_INT,
						   gpugb_derived_input(st, GPUGB_DERIVED_KEY_DSCALE, k));
	/*
	 * A char key without a length groups without its trailing spaces (as
	 * bpchareq compares) and prints with the most spaces of its members: a
	 * hidden max.  PostgreSQL prints whichever member its plan met first,
	 * so where members differ only in their spaces either answer is one
	 * PostgreSQL's own plans give; where they agree, the same.
	 */
	for (int k = 0; k < info->n_keys; k++)
		st->key_blanks_agg[k] = !gpugb_key_is_unpadded_bpchar(st->layout.key_types[k]) ? -1 :
			gpugb_add_hidden_agg(st, &n, GPUGB_AGG_MAX_INT,
						   gpugb_derived_input(st, GPUGB_DERIVED_KEY_BLANKS, k));
	/*
	 * A float key groups -0 with 0 and prints as -0 where every member was
	 * -0: a hidden min.  PostgreSQL prints the member its plan met first:
	 * a group of -0 alone as -0, a mixed one as either (mostly 0, where -0
	 * is the rare result of a computation).
	 */
	for (int k = 0; k < info->n_keys; k++)
		st->key_negzero_agg[k] = st->layout.key_types[k].kind != GPUGB_VALUE_FLOAT4 &&
			st->layout.key_types[k].kind != GPUGB_VALUE_FLOAT8 ? -1 :
			gpugb_add_hidden_agg(st, &n, GPUGB_AGG_MIN_INT,
								 gpugb_derived_input(st, GPUGB_DERIVED_KEY_NEGZERO, k));
	/* interval keys and aggregates: words and hidden aggregates of their own */
	gpugb_interval_build_spec(st, &n);
	spec->n_inputs = st->layout.n_inputs;
	/*
	 * A plain int2, int4, date or bool column's words are int32 values
	 * (datum_to_word): PARTITION may move them in 4 bytes
	 * (cuda/partition_move.cu).  Not an expression's: the host evaluates
	 * integer expressions in 64 bits.
	 */
	spec->inputs_fit_int32 = 0;
	for (int i = 0; i < info->n_inputs && i < 64; i++)
		if (info->input_columns[i] >= 0 &&
			(st->layout.input_types[i].kind == GPUGB_VALUE_INT16 ||
			 st->layout.input_types[i].kind == GPUGB_VALUE_INT32 ||
			 st->layout.input_types[i].kind == GPUGB_VALUE_BOOL))
			spec->inputs_fit_int32 |= UINT64CONST(1) << i;
	for (int d = info->n_inputs; d < st->layout.n_inputs; d++)
	{
		GpugbDerivedKind kind = st->layout.derived_kind[d];

		st->layout.input_types[d] = (GpugbColumnType) {
			kind == GPUGB_DERIVED_FINITE_ABS || kind == GPUGB_DERIVED_FINITE ?
			GPUGB_VALUE_FLOAT8 : GPUGB_VALUE_INT64, 0, -1
		};
		if (kind == GPUGB_DERIVED_FREE_VALUE)
			st->layout.input_types[d] = st->layout.input_types[st->layout.derived_from[d]];
	}

	/*
	 * A numeric sum or avg is NaN if any input is: a hidden max over the same
	 * input finds the NaN word, which sorts above every number.
	 */
	for (int a = 0; a < info->n_aggs; a++)
	{
		int			source = spec->aggs[a].input;

		st->nan_check_agg[a] = -1;
		if (st->aggs[a]->op != GPUGB_AGG_SUM_INT ||
			(st->layout.input_types[source].kind != GPUGB_VALUE_NUMERIC &&
			 st->layout.input_types[source].kind != GPUGB_VALUE_NUMERIC_FREE))
			continue;
		st->nan_check_agg[a] = gpugb_add_hidden_agg(st, &n, GPUGB_AGG_MAX_INT, source);
	}
	spec->n_aggs = n;
	/* an ordering value is the device's word: no NaN, no free numeric's scale */
	for (int o = 0; o < spec->n_order; o++)
		if (spec->order[o].by_value &&
			(st->nan_check_agg[spec->order[o].agg] >= 0 || st->dscale_agg[spec->order[o].agg] >= 0))
			elog(ERROR, "gpugb: aggregate %d cannot order the output", spec->order[o].agg + 1);

	/*
	 * The strategy to start with: forced by gpugb.strategy, or the
	 * heuristics' choice for the planner's estimates, which the device may
	 * then correct from what the first two strides show.
	 */
	spec->estimated_rows = Max(0.0, info->estimated_rows);
	spec->estimated_hot_share = Min(Max(info->estimated_hot_share, 0.0), 1.0);
	spec->estimated_nulls = info->estimated_nulls;
	st->strategy_forced = gpugb_strategy;
	gpugb_spec_choose(spec, st->strategy_forced, &st->strategy_choice);
	spec->strategy = st->strategy_choice.strategy;
	st->strategy_props_known = gpugb_device_properties_known();
	spec->allow_switch = st->strategy_forced == GPUGB_STRATEGY_AUTO;
}

/* Can a GROUP BY key be a text longer than its words (textdict.c)? */
static bool
has_long_text_key(const GpugbInputLayout *layout)
{
	for (int k = 0; k < layout->n_sql_keys; k++)
		if (layout->key_types[k].words == 2 &&
			(layout->key_types[k].kind == GPUGB_VALUE_SHORT_TEXT ||
			 layout->key_types[k].kind == GPUGB_VALUE_SHORT_BPCHAR))
			return true;
	return false;
}

/* A dictionary: long text keys, or a min/max of text (textorder.c). */
static bool
needs_text_dict(const GpugbInputLayout *layout)
{
	return has_long_text_key(layout) || gpugb_text_ranks_needed(layout);
}

static void
gpugb_begin(CustomScanState *node, EState *estate, int eflags)
{
	GpugbScanState *st = (GpugbScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;

	gpugb_plan_info_decode(cscan, &st->info);
	/*
	 * A plain EXPLAIN never runs the node, so it would show the strategy
	 * chosen for the default device if the session's start-up thread were
	 * still probing (the planner does not wait for it): wait for it here.
	 */
	if ((eflags & EXEC_FLAG_EXPLAIN_ONLY) && gpugb_device_starting())
		(void) gpugb_device_probe();
	build_device_spec(st);

	/*
	 * One dictionary serves every long text key and every min/max of text.
	 * The leader's (or a one-process plan's) starts here; under parallel
	 * ingest the DSM set-up makes it the query's shared one, and a worker
	 * attaches to that (a dictionary of its own would give other ids to
	 * the same texts).  The leader's orders of min/max texts rank its ids.
	 */
	st->layout.text_dict = NULL;
	if (needs_text_dict(&st->layout) && !IsParallelWorker())
		st->layout.text_dict = gpugb_textdict_create(estate->es_query_cxt);
	gpugb_text_ranks_begin(st, estate->es_query_cxt);

	st->input = ExecInitNode(linitial(cscan->custom_plans), estate, eflags);
	st->layout.heap_reader =
		gpugb_heap_reader_create(st->input, st->layout.n_sql_keys + st->layout.n_child_columns);
	st->layout.fills_plainly = gpugb_layout_fills_plainly(&st->layout);
	st->layout.fills_by_column = gpugb_layout_fills_by_column(&st->layout);
	st->layout.batches_programs = gpugb_layout_batches_programs(&st->layout);

	/*
	 * PostgreSQL's own plan runs only if the GPU cannot finish, and setting
	 * it up is not free: a HashAggregate builds its table at once, sized
	 * from the group estimate and work_mem (hundreds of MB to zero for a
	 * large estimate, measured at +0.15 s over 4M rows).  A worker never
	 * runs it (the leader falls back alone), and the leader sets it up
	 * when it falls back, except under EXPLAIN, whose output shows it.
	 */
	st->fallback = NULL;
	st->fallback_eflags = eflags;
	node->custom_ps = list_make1(st->input);	/* never a NULL member: walkers */
	if (!IsParallelWorker() &&
		((eflags & EXEC_FLAG_EXPLAIN_ONLY) || estate->es_instrument != 0))
	{
		st->fallback = ExecInitNode(lsecond(cscan->custom_plans), estate, eflags);
		node->custom_ps = lappend(node->custom_ps, st->fallback);
	}

	st->cleanup.func = cleanup_callback;
	st->cleanup.arg = st;
	MemoryContextRegisterResetCallback(estate->es_query_cxt, &st->cleanup);
	st->phase = GPUGB_PHASE_START;
}

static void
switch_to_fallback(GpugbScanState *st, const char *reason)
{
	gpugb_release_device(st);
	/* Parallel ingest: workers must not wait for slots nobody will take. */
	if (st->shared)
	{
		gpugb_shared_abandon(st->shared);
		/* no copy from the slots is left: they need not stay pinned */
		gpugb_feed_parallel_unregister(st);
	}
	strlcpy(st->fallback_reason, reason, sizeof(st->fallback_reason));
	strlcpy(gpugb_backend_stats.last_fallback_reason, reason,
			sizeof(gpugb_backend_stats.last_fallback_reason));
	gpugb_backend_stats.fallbacks++;

	if (gpugb_require_gpu)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("gpugb: GPU aggregation did not finish: %s", reason),
				 st->fallback_detail[0] ? errdetail("%s", st->fallback_detail) : 0,
				 errhint("gpugb.require_gpu is on, so the fallback to PostgreSQL's plan is an error.")));
	ereport(DEBUG1, (errmsg("gpugb: falling back to PostgreSQL's plan: %s", reason)));
	if (st->fallback == NULL)
	{
		CustomScan *cscan = (CustomScan *) st->css.ss.ps.plan;
		EState	   *estate = st->css.ss.ps.state;
		MemoryContext oldcxt = MemoryContextSwitchTo(estate->es_query_cxt);

		st->fallback = ExecInitNode(lsecond(cscan->custom_plans), estate, st->fallback_eflags);
		st->css.custom_ps = lappend(st->css.custom_ps, st->fallback);
		MemoryContextSwitchTo(oldcxt);
	}
	st->phase = GPUGB_PHASE_FALLBACK;
}

/*
 * A short, stable reason (EXPLAIN, errors, tests) and the device module's
 * own text as the detail.
 */
const char *
gpugb_device_failure(GpugbScanState *st, const char *what, GpugbStatus status)
{
	const char *problem;

	switch (status)
	{
		case GPUGB_NO_DEVICE:
			problem = "no usable GPU";
			break;
		case GPUGB_OUT_OF_MEMORY:
			problem = "out of device memory";
			break;
		case GPUGB_INVALID_ARGUMENT:
			problem = "query shape not supported by the device code";
			break;
		default:
			problem = "CUDA error";
			break;
	}
	strlcpy(st->fallback_detail, st->ops->name, sizeof(st->fallback_detail));
	strlcat(st->fallback_detail, ": ", sizeof(st->fallback_detail));
	strlcat(st->fallback_detail, st->ops->last_error(), sizeof(st->fallback_detail));
	return psprintf("%s while %s", problem, what);
}

/* Host arrays for one chunk of results, in the query's memory context. */
static void
allocate_chunk(GpugbScanState *st)
{
	int64		n = GPUGB_FETCH_CHUNK;

	if (st->chunk_allocated)
		return;					/* once per node, not per (re)scan */
	st->chunk_allocated = true;
	for (int k = 0; k < st->spec.n_keys; k++)
	{
		st->chunk.key_values[k] = palloc(n * sizeof(int64));
		st->chunk.key_nulls[k] = palloc(n * sizeof(uint8));
	}
	for (int a = 0; a < st->spec.n_aggs; a++)
	{
		st->chunk.agg_count[a] = palloc(n * sizeof(int64));
		st->chunk.agg_value[a] = palloc(n * sizeof(int64));
		st->chunk.agg_value_hi[a] = palloc(n * sizeof(int64));
	}
}

static GpugbStatus
fetch_chunk(GpugbScanState *st, int64 first)
{
	int64		count = Min((int64) GPUGB_FETCH_CHUNK, st->n_groups - first);
	instr_time	start,
				elapsed;
	GpugbStatus status;

	INSTR_TIME_SET_CURRENT(start);
	status = st->ops->fetch(st->gb, first, count, &st->chunk);
	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, start);
	st->fetch_ms += INSTR_TIME_GET_MILLISEC(elapsed);

	st->chunk_first = first;
	st->chunk_count = status == GPUGB_OK ? count : 0;
	return status;
}

static bool
has_float_sums(GpugbScanState *st)
{
	for (int a = 0; a < st->info.n_aggs; a++)
		if (st->float_bound_agg[a] >= 0)
			return true;
	return false;
}

/* Milliseconds since start. */
double
gpugb_ms_since(instr_time start)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, start);
	return INSTR_TIME_GET_MILLISEC(now);
}

/*
 * Appends rows from this process's own input to the stride; times it.
 * Returns NULL, or why a value has no device word.
 */
const char *
gpugb_fill_from_input(GpugbScanState *st, GpugbStride *stride, int64 capacity,
					  bool *exhausted)
{
	instr_time	start;
	const char *unfit;

	st->input_touched = true;
	INSTR_TIME_SET_CURRENT(start);
	gpugb_fill_stride(&st->layout, st->input, stride, capacity, exhausted, &unfit);
	st->fill_ms += gpugb_ms_since(start);
	return unfit;
}

/* Queues a filled stride: text min/max ranks first (textorder.c), then the device. */
GpugbStatus
gpugb_submit_stride(GpugbScanState *st, GpugbStride *stride)
{
	GpugbStatus status = gpugb_text_ranks_prepare(st, stride);

	if (status == GPUGB_OK)
		status = st->ops->submit(st->gb, stride);
	return status;
}

/* One process reads the whole input and feeds the device. */
static const char *
feed_serial(GpugbScanState *st)
{
	bool		exhausted = false;
	const char *unfit;

	while (!exhausted)
	{
		GpugbStride *stride;
		GpugbStatus status = st->ops->next_stride(st->gb, &stride);

		if (status != GPUGB_OK)
			return gpugb_device_failure(st, "aggregating", status);
		gpugb_stride_begin(&st->layout, stride);
		unfit = gpugb_fill_from_input(st, stride, st->spec.stride_rows, &exhausted);
		if (unfit)
			return unfit;
		if (stride->nrows > 0)
		{
			status = gpugb_submit_stride(st, stride);
			if (status != GPUGB_OK)
				return gpugb_device_failure(st, "aggregating", status);
		}
	}
	return NULL;
}

/*
 * Drains the input through the device behind ops.  Returns NULL, or why it
 * could not finish.
 */
static const char *
aggregate_on_device(GpugbScanState *st, const GpugbDeviceOps *ops)
{
	GpugbStatus status;
	const char *failure;
	instr_time	start;

	st->ops = ops;
	INSTR_TIME_SET_CURRENT(start);
	status = st->ops->probe();
	if (status != GPUGB_OK)
	{
		strlcpy(st->fallback_detail, st->ops->description(), sizeof(st->fallback_detail));
		return "no usable GPU";
	}
	if (ops == &gpugb_cuda_ops && !st->strategy_props_known && gpugb_device_properties_known())
	{
		/*
		 * The node began while the session's start-up thread was still
		 * probing (the planner does not wait for it), so the strategy was
		 * chosen for the default device: choose again for this one, with
		 * gpugb.strategy as it was then.
		 */
		gpugb_spec_choose(&st->spec, st->strategy_forced, &st->strategy_choice);
		st->spec.strategy = st->strategy_choice.strategy;
		st->strategy_props_known = true;
	}

	st->spec.appends_only = false;
	if (st->shared)
	{
		st->spec.stride_rows = Max(st->spec.stride_rows, gpugb_shared_slot_rows(st->shared));
		/* slots copied by the device: its strides need no pinned host buffers */
		st->spec.appends_only = gpugb_feed_parallel_prepare(st);
	}
	status = st->ops->create(&st->spec, &st->gb);
	if (status != GPUGB_OK)
		return gpugb_device_failure(st, "setting up the device", status);
	st->setup_ms = gpugb_ms_since(start);

	INSTR_TIME_SET_CURRENT(start);
	failure = st->shared ? gpugb_feed_parallel(st) : feed_serial(st);
	if (failure)
		return failure;
	st->ingest_ms = gpugb_ms_since(start);

	INSTR_TIME_SET_CURRENT(start);
	status = st->ops->finish(st->gb, &st->n_groups);
	if (status != GPUGB_OK)
		return gpugb_device_failure(st, "finishing", status);

	allocate_chunk(st);
	if (has_float_sums(st) || gpugb_interval_needs_check(st))
	{
		for (int64 first = 0; first < st->n_groups; first += GPUGB_FETCH_CHUNK)
		{
			const char *unsafe;

			status = fetch_chunk(st, first);
			if (status != GPUGB_OK)
				return gpugb_device_failure(st, "copying results", status);
			unsafe = gpugb_float_sums_unsafe(st, first, st->chunk_count);
			if (unsafe == NULL)
				unsafe = gpugb_interval_results_unsafe(st, first, st->chunk_count);
			if (unsafe)
				return unsafe;
		}
	}
	st->ops->stats(st->gb, &st->stats);
	st->finish_ms = gpugb_ms_since(start);
	return NULL;
}

/*
 * Parallel ingest: until the device has taken any row, the leader can
 * aggregate everything on the CPU instead (the emulator), still fed by the
 * workers.  After that, the workers' rows cannot be read again, so the
 * workers are told to stop and the leader runs the fallback child, a
 * Gather-free PostgreSQL plan that reads the input from scratch.
 */
static const char *
parallel_fallback(GpugbScanState *st, const char *failure)
{
	char		reason[256];
	int64		device_limit = st->spec.device_memory_limit;
	const char *cpu_failure;

	if (st->input_touched || gpugb_require_gpu)
		return failure;			/* switch_to_fallback: PostgreSQL's plan, or ERROR */
	gpugb_release_device(st);

	/*
	 * Host memory, not the device's: no gpugb.device_memory_limit for this
	 * run only (the handle keeps its own copy of the spec).  A rescan of
	 * the node takes the device again, under the limit.
	 */
	st->spec.device_memory_limit = 0;
	cpu_failure = aggregate_on_device(st, &gpugb_emulator_ops);
	st->spec.device_memory_limit = device_limit;
	if (cpu_failure != NULL)
		return cpu_failure;		/* switch_to_fallback counts the query's one fallback */

	snprintf(reason, sizeof(reason), "%s; aggregated on the CPU", failure);
	strlcpy(st->fallback_reason, reason, sizeof(st->fallback_reason));
	strlcpy(gpugb_backend_stats.last_fallback_reason, reason,
			sizeof(gpugb_backend_stats.last_fallback_reason));
	gpugb_backend_stats.fallbacks++;
	return NULL;
}

/*
 * Can next_group take its lean loop?  Keys of one integer or bool word
 * with none of the hidden helpers (interval, free numeric, char blanks,
 * float -0), aggregates that are counts or integer sums to int8 without a
 * NaN check: Query B's shape, and ClickBench's top-N counts by integer
 * keys.  At g = 1e8 its 63 million rows go through next_group.
 */
static bool
lean_emit_applies(const GpugbScanState *st)
{
	for (int k = 0; k < st->info.n_keys; k++)
	{
		GpugbValueKind kind = st->layout.key_types[k].kind;

		if ((kind != GPUGB_VALUE_INT16 && kind != GPUGB_VALUE_INT32 &&
			 kind != GPUGB_VALUE_INT64 && kind != GPUGB_VALUE_BOOL) ||
			st->layout.key_types[k].words != 1 || st->interval_key_agg[k] >= 0 ||
			st->key_dscale_agg[k] >= 0 || st->key_blanks_agg[k] >= 0 ||
			st->key_negzero_agg[k] >= 0)
			return false;
	}
	for (int a = 0; a < st->info.n_aggs; a++)
		if ((st->finish[a] != GPUGB_FINISH_COUNT && st->finish[a] != GPUGB_FINISH_SUM_TO_INT8) ||
			st->nan_check_agg[a] >= 0 || st->dscale_agg[a] >= 0)
			return false;
	return true;
}

/*
 * next_group's columns where lean_emit_applies: the same Datums as the
 * general loop (gpugb_int_key_datum, gpugb_agg_datum), without its
 * per-column tests for the kinds that cannot occur here.
 */
static pg_attribute_always_inline void
emit_lean(GpugbScanState *st, TupleTableSlot *slot, int64 g)
{
	int			n_keys = st->info.n_keys;

	for (int k = 0; k < n_keys; k++)
	{
		int			w = st->layout.key_word[k];
		int64		word = st->chunk.key_values[w][g];
		bool		isnull = st->chunk.key_nulls[w][g] != 0;

		slot->tts_isnull[k] = isnull;
		slot->tts_values[k] = isnull ? (Datum) 0 :
			gpugb_int_key_datum(st->layout.key_types[k].kind, word);
	}
	for (int a = 0; a < st->info.n_aggs; a++)
	{
		int64		count = st->chunk.agg_count[a][g];

		if (st->finish[a] == GPUGB_FINISH_COUNT)
		{
			slot->tts_isnull[n_keys + a] = false;
			slot->tts_values[n_keys + a] = Int64GetDatum(count);
		}
		else
			slot->tts_values[n_keys + a] =
				gpugb_agg_datum(st->finish[a], st->layout.input_types[st->info.agg_inputs[a]],
								count, st->chunk.agg_value[a][g], st->chunk.agg_value_hi[a][g],
								-1, &slot->tts_isnull[n_keys + a]);
	}
}

static void
run(GpugbScanState *st)
{
	const char *failure;

	st->runs++;
	st->n_groups = st->next_group = 0;
	st->chunk_first = st->chunk_count = 0;
	st->fill_ms = st->fetch_ms = 0;
	st->setup_ms = st->ingest_ms = st->finish_ms = 0;
	st->copy_ms = st->idle_ms = st->workers_fill_ms = st->workers_stall_ms = 0;
	st->fallback_reason[0] = '\0';
	st->fallback_detail[0] = '\0';
	memset(&st->stats, 0, sizeof(st->stats));

	/*
	 * The planner reads gpugb.enabled; a plan it made while on (a prepared
	 * statement's, a PL/pgSQL function's) still holds this node.  Turned
	 * off since, the node runs PostgreSQL's plan, its fallback child: "off"
	 * gives plain PostgreSQL back for cached plans too, and an
	 * administrator who turns it off (ALTER SYSTEM, reload) stops the GPU
	 * in every session from its next query.
	 */
	if (!gpugb_enabled)
	{
		switch_to_fallback(st, "gpugb.enabled is off");
		return;
	}
	st->input_touched = false;
	failure = aggregate_on_device(st, gpugb_current_device_ops());
	if (failure && st->info.parallel)
		failure = parallel_fallback(st, failure);
	if (failure)
	{
		switch_to_fallback(st, failure);
		return;
	}
	st->gpu_done = true;
	st->lean_emit = gpugb_lean_emit && lean_emit_applies(st);
	if (st->fallback_reason[0] == '\0')
		gpugb_backend_stats.gpu_runs++;
	st->phase = GPUGB_PHASE_EMIT;
}

/* ExecScan access method: the next group as a scan tuple, or an empty slot. */
static TupleTableSlot *
next_group(ScanState *ss)
{
	GpugbScanState *st = (GpugbScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	int64		g;
	int			n_keys = st->info.n_keys;
	MemoryContext oldcxt;

	/*
	 * No clock is read here, per row: at 1e8 groups two clock_gettime calls
	 * a row were a third of the time spent emitting them.
	 */
	ExecClearTuple(slot);
	if (st->next_group >= st->n_groups)
	{
		st->phase = GPUGB_PHASE_DONE;
		gpugb_release_device(st);
		return slot;
	}

	if (st->next_group < st->chunk_first ||
		st->next_group >= st->chunk_first + st->chunk_count)
	{
		GpugbStatus status = fetch_chunk(st, st->next_group);

		if (status != GPUGB_OK)
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("gpugb: copying results from the GPU failed: %s",
							st->ops->last_error())));
	}
	g = st->next_group - st->chunk_first;

	if (st->lean_emit)
	{
		emit_lean(st, slot, g);
		ExecStoreVirtualTuple(slot);
		st->next_group++;
		return slot;
	}

	/* Numerics are built in per-tuple memory, reset by ExecScan. */
	oldcxt = MemoryContextSwitchTo(ss->ps.ps_ExprContext->ecxt_per_tuple_memory);
	for (int k = 0; k < n_keys; k++)
	{
		int			w = st->layout.key_word[k];

		slot->tts_isnull[k] = st->chunk.key_nulls[w][g] != 0;
		if (slot->tts_isnull[k])
			slot->tts_values[k] = (Datum) 0;
		else if (st->interval_key_agg[k] >= 0)
			slot->tts_values[k] =
				gpugb_interval_key_datum(st->chunk.key_values[w][g],
										 st->chunk.agg_value[st->interval_key_agg[k]][g]);
		else if (st->key_dscale_agg[k] >= 0)
		{
			/* a free numeric: the value, with the least dscale of its members */
			int			d = st->key_dscale_agg[k];

			slot->tts_values[k] =
				gpugb_free_value_to_numeric(st->chunk.key_values[w][g],
											st->layout.key_types[k].scale,
											st->chunk.agg_count[d][g] > 0 ?
											(int) st->chunk.agg_value[d][g] : 0);
		}
		else
			slot->tts_values[k] =
				gpugb_key_datum(st->layout.key_types[k], st->chunk.key_values[w][g],
								st->layout.key_types[k].words > 1 ? st->chunk.key_values[w + 1][g] : 0,
								st->layout.text_dict);
		if (!slot->tts_isnull[k] && st->key_blanks_agg[k] >= 0)
			slot->tts_values[k] =
				gpugb_bpchar_with_blanks(slot->tts_values[k],
										 st->chunk.agg_value[st->key_blanks_agg[k]][g]);
		if (!slot->tts_isnull[k] && st->key_negzero_agg[k] >= 0 &&
			st->chunk.agg_value[st->key_negzero_agg[k]][g] == 1)
			slot->tts_values[k] = st->layout.key_types[k].kind == GPUGB_VALUE_FLOAT4 ?
				Float4GetDatum(-0.0f) : Float8GetDatum(-0.0);
	}
	for (int a = 0; a < st->info.n_aggs; a++)
	{
		int			input = st->info.agg_inputs[a];
		GpugbColumnType type = {GPUGB_VALUE_NULL_ONLY, 0, -1};
		int			nan_check = st->nan_check_agg[a];
		int			dscale_agg = st->dscale_agg[a];
		/* a free numeric sum's display scale: its inputs' largest */
		int			dscale = dscale_agg >= 0 && st->chunk.agg_count[dscale_agg][g] > 0 ?
			(int) st->chunk.agg_value[dscale_agg][g] : -1;

		if (input >= 0)
			type = st->layout.input_types[input];
		if (nan_check >= 0 && st->chunk.agg_count[nan_check][g] > 0 &&
			st->chunk.agg_value[nan_check][g] == GPUGB_NUMERIC_NAN_WORD &&
			!(gpugb_finish_is_variance(st->finish[a]) &&
			  gpugb_variance_is_null(st->finish[a], st->chunk.agg_count[a][g])))
		{
			slot->tts_isnull[n_keys + a] = false;
			slot->tts_values[n_keys + a] = gpugb_word_to_numeric(GPUGB_NUMERIC_NAN_WORD, 0);
			continue;
		}
		if ((type.kind == GPUGB_VALUE_TEXT_RANK || type.kind == GPUGB_VALUE_BPCHAR_RANK) &&
			st->finish[a] == GPUGB_FINISH_MINMAX)
		{
			/* min/max of text: the text of the rank (textorder.c) */
			slot->tts_isnull[n_keys + a] = st->chunk.agg_count[a][g] == 0;
			slot->tts_values[n_keys + a] = slot->tts_isnull[n_keys + a] ? (Datum) 0 :
				gpugb_textorder_datum(st->layout.child_order[st->layout.input_column[input]],
									  type, st->chunk.agg_value[a][g]);
			continue;
		}
		if (gpugb_finish_is_interval(st->finish[a]))
		{
			slot->tts_values[n_keys + a] =
				gpugb_interval_agg_datum(st, a, g, &slot->tts_isnull[n_keys + a]);
			continue;
		}
		if (gpugb_finish_is_float_variance(st->finish[a]))
		{
			int			s1 = st->shifted_sum_agg[a];
			int			s2 = st->shifted_sq_agg[a];

			slot->tts_values[n_keys + a] =
				gpugb_float_variance_datum(st->finish[a], st->chunk.agg_count[a][g],
										   st->chunk.agg_count[st->float_bound_agg[a]][g],
										   gpugb_word_to_double(st->chunk.agg_value[s1][g]),
										   gpugb_word_to_double(st->chunk.agg_value_hi[s1][g]),
										   gpugb_word_to_double(st->chunk.agg_value[s2][g]),
										   gpugb_word_to_double(st->chunk.agg_value_hi[s2][g]),
										   &slot->tts_isnull[n_keys + a]);
			continue;
		}
		if (gpugb_finish_is_variance(st->finish[a]))
		{
			int			hi = st->square_hi_agg[a];
			int			lo = st->square_lo_agg[a];

			slot->tts_values[n_keys + a] =
				gpugb_variance_datum(st->finish[a], type.scale, dscale, st->chunk.agg_count[a][g],
									 st->chunk.agg_value[a][g], st->chunk.agg_value_hi[a][g],
									 st->chunk.agg_value[hi][g], st->chunk.agg_value_hi[hi][g],
									 st->chunk.agg_value[lo][g], st->chunk.agg_value_hi[lo][g],
									 &slot->tts_isnull[n_keys + a]);
			continue;
		}
		slot->tts_values[n_keys + a] =
			gpugb_agg_datum(st->finish[a], type, st->chunk.agg_count[a][g],
							st->chunk.agg_value[a][g], st->chunk.agg_value_hi[a][g], dscale,
							&slot->tts_isnull[n_keys + a]);
	}
	MemoryContextSwitchTo(oldcxt);
	ExecStoreVirtualTuple(slot);
	st->next_group++;
	return slot;
}

static bool
recheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

static TupleTableSlot *
gpugb_exec(CustomScanState *node)
{
	GpugbScanState *st = (GpugbScanState *) node;

	if (IsParallelWorker())
	{
		/* A worker only fills strides; the leader returns every row. */
		if (st->phase == GPUGB_PHASE_START && st->shared != NULL)
			gpugb_shared_fill_all(st->shared, &st->layout, st->input);
		st->phase = GPUGB_PHASE_DONE;
		return ExecClearTuple(node->ss.ss_ScanTupleSlot);
	}
	if (st->phase == GPUGB_PHASE_START)
		run(st);
	if (st->phase == GPUGB_PHASE_FALLBACK)
	{
		/*
		 * Into this node's own result slot: a parent compiles its
		 * expressions for the kind of slot this node declared (a virtual
		 * one), and a Sort's minimal-tuple slot read as one was never
		 * deformed (a Result's projection above read garbage and crashed).
		 */
		TupleTableSlot *slot = ExecProcNode(st->fallback);

		if (TupIsNull(slot))
			return ExecClearTuple(node->ss.ps.ps_ResultTupleSlot);
		return ExecCopySlot(node->ss.ps.ps_ResultTupleSlot, slot);
	}
	if (st->phase == GPUGB_PHASE_DONE)
		return ExecClearTuple(node->ss.ss_ScanTupleSlot);
	return ExecScan(&node->ss, next_group, recheck);
}

static void
gpugb_end(CustomScanState *node)
{
	GpugbScanState *st = (GpugbScanState *) node;

	gpugb_release_device(st);
	ExecEndNode(st->input);
	if (st->fallback)
		ExecEndNode(st->fallback);
}

static void
rescan_child(PlanState *parent, PlanState *child)
{
	if (parent->chgParam != NULL)
		UpdateChangedParamSet(child, parent->chgParam);
	if (child->chgParam == NULL)
		ExecReScan(child);
}

static void
gpugb_rescan(CustomScanState *node)
{
	GpugbScanState *st = (GpugbScanState *) node;

	gpugb_release_device(st);
	rescan_child(&node->ss.ps, st->input);
	if (st->fallback)
		rescan_child(&node->ss.ps, st->fallback);
	st->gpu_done = false;
	st->phase = GPUGB_PHASE_START;
}

static Size
gpugb_estimate_dsm(CustomScanState *node, ParallelContext *pcxt)
{
	return gpugb_shared_size(&((GpugbScanState *) node)->layout, pcxt->nworkers);
}

/*
 * Leader: long text keys and min/max texts get the query's shared
 * dictionary, in the DSA the Gather just made (installed as es_query_dsa
 * only during this set-up).  The dictionary is a fresh one: after a Limit
 * shut the Gather down, a rescan sets the DSM up anew, and the old
 * dictionary's area is gone; the orders of min/max texts, which ranked the
 * old one's ids, start afresh over it.  Without a DSA (no DSM segment
 * could be made) no worker starts, and the leader's dictionary stays its
 * own.
 */
static void
share_text_dict(GpugbScanState *st)
{
	EState	   *estate = st->css.ss.ps.state;

	if (st->layout.text_dict == NULL || estate->es_query_dsa == NULL)
		return;
	gpugb_textdict_free(st->layout.text_dict);
	st->layout.text_dict = gpugb_textdict_create(estate->es_query_cxt);
	gpugb_textdict_share(st->layout.text_dict, estate->es_query_dsa,
						 gpugb_shared_text_dict(st->shared));
	gpugb_text_ranks_reset(st);
}

static void
gpugb_initialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	GpugbScanState *st = (GpugbScanState *) node;

	/*
	 * Only the leader feeds the GPU and returns groups.  A plan made with
	 * parallel_leader_participation on can be run (from the plan cache)
	 * after it was turned off; the Gather would then never run us here.
	 */
	if (!parallel_leader_participation)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpugb: this parallel GPU plan needs parallel_leader_participation = on"),
				 errhint("The plan was made with it on. Re-plan the statement (DISCARD PLANS), or SET gpugb.parallel = off before planning it.")));
	gpugb_shared_init(coordinate, &st->layout, pcxt->nworkers);
	st->shared = coordinate;
	st->pcxt = pcxt;
	share_text_dict(st);
}

static void
gpugb_reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	GpugbScanState *st = (GpugbScanState *) node;

	gpugb_shared_reset(coordinate);
	/*
	 * The last scan's groups are out: its ids need not survive, nor the
	 * ranks of those ids.
	 */
	if (st->layout.text_dict)
	{
		gpugb_textdict_reset(st->layout.text_dict);
		gpugb_text_ranks_reset(st);
	}
}

static void
gpugb_initialize_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	GpugbScanState *st = (GpugbScanState *) node;

	st->shared = coordinate;
	if (needs_text_dict(&st->layout))
		st->layout.text_dict =
			gpugb_textdict_attach(node->ss.ps.state->es_query_cxt,
								  node->ss.ps.state->es_query_dsa,
								  gpugb_shared_text_dict(st->shared));
}

static const CustomExecMethods gpugb_exec_methods = {
	.CustomName = GPUGB_NODE_NAME,
	.BeginCustomScan = gpugb_begin,
	.ExecCustomScan = gpugb_exec,
	.EndCustomScan = gpugb_end,
	.ReScanCustomScan = gpugb_rescan,
	.EstimateDSMCustomScan = gpugb_estimate_dsm,
	.InitializeDSMCustomScan = gpugb_initialize_dsm,
	.ReInitializeDSMCustomScan = gpugb_reinitialize_dsm,
	.InitializeWorkerCustomScan = gpugb_initialize_worker,
	.ExplainCustomScan = gpugb_explain,
};

Node *
gpugb_create_scan_state(CustomScan *cscan)
{
	GpugbScanState *st = (GpugbScanState *) newNode(sizeof(GpugbScanState),
													T_CustomScanState);

	st->css.methods = &gpugb_exec_methods;
	return (Node *) st;
}
