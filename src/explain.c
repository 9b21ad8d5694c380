/*-------------------------------------------------------------------------
 * explain.c
 *    EXPLAIN output of GpuGroupAgg.
 *
 * EXPLAIN: group keys, aggregates, the output order (when the plan relies on
 * it), estimated groups and the planned strategy (with COSTS, why).  EXPLAIN ANALYZE adds what happened: groups, the
 * strategy used and any run-time switch, strides, rows and bytes moved,
 * where the time went, and the fallback with its reason when there was one.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/explain.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/ruleutils.h"

#include "exec.h"
#include "heapread.h"

static List *
deparse_scan_columns(GpugbScanState *st, List *ancestors, ExplainState *es,
					 int first, int count)
{
	CustomScan *cscan = (CustomScan *) st->css.ss.ps.plan;
	List	   *context = set_deparse_context_plan(es->deparse_cxt,
												   (Plan *) cscan, ancestors);
	List	   *result = NIL;

	for (int i = first; i < first + count; i++)
	{
		TargetEntry *tle = list_nth(cscan->custom_scan_tlist, i);

		result = lappend(result, deparse_expression((Node *) tle->expr, context,
													es->verbose, false));
	}
	return result;
}

void
gpugb_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	GpugbScanState *st = (GpugbScanState *) node;

	if (st->info.n_query_keys > 0)
		ExplainPropertyList("Group Keys",
							deparse_scan_columns(st, ancestors, es, 0, st->info.n_query_keys), es);
	/* columns the output takes through a primary key: keys too, splitting no group */
	if (st->info.n_keys > st->info.n_query_keys)
		ExplainPropertyList("Dependent Keys",
							deparse_scan_columns(st, ancestors, es, st->info.n_query_keys,
												 st->info.n_keys - st->info.n_query_keys), es);
	if (st->info.n_aggs > 0)
		ExplainPropertyList("Aggregates",
							deparse_scan_columns(st, ancestors, es, st->info.n_keys,
												 st->info.n_aggs), es);
	if (st->info.n_order > 0)
	{
		List	   *keys = deparse_scan_columns(st, ancestors, es, 0, st->info.n_keys);
		List	   *aggs = deparse_scan_columns(st, ancestors, es, st->info.n_keys,
												st->info.n_aggs);
		List	   *order = NIL;

		/* as EXPLAIN shows a Sort Key: DESC, and NULLS where not the default */
		for (int o = 0; o < st->info.n_order; o++)
		{
			bool		desc = st->info.order_desc[o];
			bool		nulls_first = st->info.order_nulls_first[o];

			order = lappend(order,
							psprintf("%s%s%s",
									 (char *) list_nth(st->info.order_by_count[o] ||
													   st->info.order_by_value[o] ? aggs : keys,
													   st->info.order_keys[o]),
									 desc ? " DESC" : "",
									 nulls_first != desc ?
									 (nulls_first ? " NULLS FIRST" : " NULLS LAST") : ""));
		}
		ExplainPropertyList("Output Order", order, es);
	}
	ExplainPropertyText("Strategy", gpugb_strategy_name(st->spec.strategy), es);

	/*
	 * The reason restates the planner's estimates and the device's sizes (L2,
	 * shared memory: H200 defaults until this process probed a GPU, then the
	 * GPU's own), so, like Estimated Groups, it is shown only with COSTS:
	 * COSTS OFF output stays the same whatever the statistics, the GPU model
	 * or whether it was probed yet, which keeps the regression tests' plans
	 * identical in emulator and GPU mode.
	 */
	if (es->costs)
		ExplainPropertyText("Strategy Reason", st->strategy_choice.reason, es);
	if (st->info.parallel)
		ExplainPropertyText("Ingest", "parallel: workers fill strides in shared memory, the leader feeds the GPU", es);
	if (es->costs)
		ExplainPropertyFloat("Estimated Groups", NULL, st->info.estimated_groups, 0, es);
	/* the keys' statistics' skew (skew_estimate.c), which the planned strategy read */
	if (es->costs && st->info.estimated_hot_share > 0)
		ExplainPropertyFloat("Estimated Largest Group Share", "%",
							 100.0 * st->info.estimated_hot_share, 1, es);
	/* ...and NULLs in a key or an input, which keep the planned strategy off PARTITION's lean kernel */
	if (es->costs && st->info.estimated_nulls)
		ExplainPropertyBool("Estimated Nulls", true, es);

	if (!es->analyze || st->runs == 0)
		return;

	if (st->fallback_reason[0] != '\0')
	{
		ExplainPropertyText("Fallback", st->fallback_reason, es);
		if (es->verbose && st->fallback_detail[0] != '\0')
			ExplainPropertyText("Fallback Detail", st->fallback_detail, es);
	}
	if (!st->gpu_done)
		return;
	ExplainPropertyInteger("Groups", NULL, st->n_groups, es);
	ExplainPropertyText("Strategy Used", gpugb_strategy_name(st->stats.strategy_used), es);
	ExplainPropertyInteger("Strategy Switches", NULL, st->stats.strategy_switches, es);
	if (st->stats.groups_at_switch_check >= 0)
		ExplainPropertyInteger("Groups At Strategy Check", NULL,
							   st->stats.groups_at_switch_check, es);
	ExplainPropertyInteger("Rows", NULL, st->stats.rows, es);
	/* this process's rows read from the child SeqScan's pages (heapread.c) */
	if (st->layout.heap_reader != NULL)
		ExplainPropertyInteger("Heap Rows Read Directly", NULL,
							   gpugb_heap_reader_rows(st->layout.heap_reader), es);
	if (gpugb_heap_reader_checks_quals(st->layout.heap_reader))
		ExplainPropertyBool("Heap Quals Checked Directly", true, es);
	ExplainPropertyInteger("Strides", NULL, st->stats.strides, es);
	/* how workers' slots reached the device (feed_parallel.c) */
	if (st->info.parallel)
		ExplainPropertyText("Slot Copy", st->direct_copy ? "direct" : "staged", es);
	ExplainPropertyInteger("Bytes to Device", "bytes", st->stats.bytes_to_device, es);
	ExplainPropertyInteger("Hash Table Slots", NULL, st->stats.table_slots, es);
	ExplainPropertyInteger("Hash Table Grows", NULL, st->stats.table_grows, es);
	/* SHARED_HASH's launches of the block table indexed by group id (cuda/lean_gid_kernel.cuh) */
	if (st->stats.gid_lean_launches > 0)
		ExplainPropertyInteger("Shared Launches Indexed By Group Id", NULL,
							   st->stats.gid_lean_launches, es);
	/* ...of which looked rows up by their key word a step ahead (gpugb_lean_gid_rows_ahead) */
	if (st->stats.gid_word_lean_launches > 0)
		ExplainPropertyInteger("Shared Launches Looking Up Key Words", NULL,
							   st->stats.gid_word_lean_launches, es);
	/* ...of which took it once a sum (heuristics.c, gpugb_lean_gid_split_pays) */
	if (st->stats.gid_split_lean_launches > 0)
		ExplainPropertyInteger("Shared Launches Split By Sum", NULL,
							   st->stats.gid_split_lean_launches, es);
	/* ...of which in more than one group range (heuristics.c, gpugb_lean_gid_split_ranges) */
	if (st->stats.gid_range_lean_launches > 0)
		ExplainPropertyInteger("Shared Launches Split By Group Range", NULL,
							   st->stats.gid_range_lean_launches, es);
	/* PARTITION's launches whose rows moved with the sort (cuda/partition_move.cu) */
	if (st->stats.partition_moved_launches > 0)
		ExplainPropertyInteger("Partition Launches With Moved Rows", NULL,
							   st->stats.partition_moved_launches, es);
	if (st->stats.partition_lean_launches > 0)
		ExplainPropertyInteger("Partition Launches With Lean Kernel", NULL,
							   st->stats.partition_lean_launches, es);
	/* ...of which the lean kernel read the sorted packed rows (a key word and int32 value words) */
	if (st->stats.partition_packed_launches > 0)
		ExplainPropertyInteger("Partition Launches With Packed Rows", NULL,
							   st->stats.partition_packed_launches, es);
	/* ...of which the rows moved in one scatter pass, not CUB's sort (cuda/partition_scatter.cuh) */
	if (st->stats.partition_scattered_launches > 0)
		ExplainPropertyInteger("Partition Launches With Scattered Rows", NULL,
							   st->stats.partition_scattered_launches, es);
	/* ...of which CUB sorted the rows with 2-byte partitions (cuda/partition_move.cu) */
	if (st->stats.partition_narrow_sort_launches > 0)
		ExplainPropertyInteger("Partition Launches With 2-Byte Sort Keys", NULL,
							   st->stats.partition_narrow_sort_launches, es);
	/* ...of the packed launches, those whose CUB sort took int32 keys mixed above their one sum, keys only (GPUGB_PARTITION_MIXED_KEYS) */
	if (st->stats.partition_mixed_launches > st->stats.partition_gathered_launches)
		ExplainPropertyInteger("Partition Launches With Mixed Key Words", NULL,
							   st->stats.partition_mixed_launches - st->stats.partition_gathered_launches, es);
	/* ...and those whose CUB sort took mixed keys with row numbers, the values read through them (GPUGB_GATHERED_KEY_WORDS) */
	if (st->stats.partition_gathered_launches > st->stats.partition_carried_launches)
		ExplainPropertyInteger("Partition Launches With Gathered Values", NULL,
							   st->stats.partition_gathered_launches - st->stats.partition_carried_launches, es);
	/* ...or mixed keys with the values themselves, which it carried (GPUGB_CARRIED_KEY_WORDS) */
	if (st->stats.partition_carried_launches > 0)
		ExplainPropertyInteger("Partition Launches With Carried Values", NULL,
							   st->stats.partition_carried_launches, es);
	/* ...and those whose CUB sort took 8-byte keys' hashes with their sums (GPUGB_HASHED_KEY_WORDS) */
	if (st->stats.partition_hashed_launches > 0)
		ExplainPropertyInteger("Partition Launches With Hashed Keys", NULL,
							   st->stats.partition_hashed_launches, es);
	/* ...of which the lean kernel's table left L1 its reserve (src/heuristics.h, GPUGB_PARTITION_L1_RESERVE_BYTES) */
	if (st->stats.partition_l1_reserve_launches > 0)
		ExplainPropertyInteger("Partition Launches Leaving L1 Its Reserve", NULL,
							   st->stats.partition_l1_reserve_launches, es);
	/* ...of which the lean kernel looked group ids up at the flush (cuda/partition_deferred.cuh) */
	if (st->stats.partition_deferred_launches > 0)
		ExplainPropertyInteger("Partition Launches With Deferred Lookups", NULL,
							   st->stats.partition_deferred_launches, es);
	/* ...of which the first numbered whole partitions' groups without lookups (gpugb_deferred_flush_direct) */
	if (st->stats.partition_direct_launches > 0)
		ExplainPropertyInteger("Partition Launches With Direct Group Ids", NULL,
							   st->stats.partition_direct_launches, es);
	/* ...and the groups they numbered so, as the publish found them */
	if (st->stats.partition_direct_groups > 0)
		ExplainPropertyInteger("Groups Numbered Directly", NULL, st->stats.partition_direct_groups, es);
	/*
	 * Launches whose lookups outran their slice of the table (a group
	 * estimate far too low) and sent the rest of their rows to the retries
	 * (GpugbAggParams.overflow)
	 */
	if (st->stats.partition_overflow_aborts > 0)
		ExplainPropertyInteger("Partition Launches Overflowed", NULL,
							   st->stats.partition_overflow_aborts, es);
	/* Rows that found no group id in their launch and were added again in a retry round */
	if (st->stats.retried_rows > 0)
		ExplainPropertyInteger("Rows Retried", NULL, st->stats.retried_rows, es);
	if (es->timing)
	{
		/* Wall time of the three phases, then where the ingest's went. */
		ExplainPropertyFloat("Setup Time", "ms", st->setup_ms, 3, es);
		ExplainPropertyFloat("Ingest Time", "ms", st->ingest_ms, 3, es);
		ExplainPropertyFloat("Finish Time", "ms", st->finish_ms, 3, es);
		ExplainPropertyFloat("Fill Time", "ms", st->fill_ms, 3, es);
		if (st->info.parallel)
		{
			if (st->direct_copy)
				ExplainPropertyFloat("Slot Register Time", "ms", st->register_ms, 3, es);
			ExplainPropertyFloat("Leader Copy Time", "ms", st->copy_ms, 3, es);
			ExplainPropertyFloat("Leader Idle Time", "ms", st->idle_ms, 3, es);
			ExplainPropertyFloat("Workers Fill Time", "ms", st->workers_fill_ms, 3, es);
			ExplainPropertyFloat("Workers Stall Time", "ms", st->workers_stall_ms, 3, es);
		}
		ExplainPropertyFloat("Transfer Time", "ms", st->stats.transfer_ms, 3, es);
		ExplainPropertyFloat("Kernel Time", "ms", st->stats.kernel_ms, 3, es);
		ExplainPropertyFloat("Wait Time", "ms", st->stats.wait_ms, 3, es);
		ExplainPropertyFloat("Result Time", "ms", st->fetch_ms, 3, es);
	}
}
