/*-------------------------------------------------------------------------
 * strategy.h
 *    From a GpugbGroupBySpec to the heuristics' input (GpugbWorkload) and
 *    choice: the one place where the executor (the planned strategy, shown
 *    by EXPLAIN) and the CPU emulator (the run-time correction) build the
 *    workload, so they agree.  The CUDA module does the same from the same
 *    spec fields in its own code.
 *
 * Plain C with no PostgreSQL headers, like heuristics.c: the unit test
 * (test/unit/heuristics_test.c) links it too.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_STRATEGY_H
#define GPUGB_STRATEGY_H

#include "../cuda/gpugb_device.h"
#include "heuristics.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * 8-byte state columns the device keeps per group for spec's aggregates:
 * one count column per distinct input (COUNT_STAR's "every row" count is
 * one more input), one value column per distinct (op, input) of the other
 * aggregates, and one more per distinct (SUM_INT, input) for the high word
 * of its int128 sum.
 */
extern int	gpugb_spec_state_columns(const GpugbGroupBySpec *spec);

/*
 * The planned workload: rows = estimated_rows (stride_rows if unknown),
 * rows_per_launch = min(rows, stride_rows), groups = estimated_groups,
 * key_words = n_keys, state_columns as above, hot_share =
 * estimated_hot_share.
 */
extern void gpugb_spec_workload(const GpugbGroupBySpec *spec, GpugbWorkload *w);

/*
 * The strategy a query starts with: the heuristics' choice for the planned
 * workload, or forced (a GpugbStrategy; negative = auto), in which case the
 * table sizes are still the heuristics' and the reason says it was forced.
 */
extern void gpugb_spec_choose(const GpugbGroupBySpec *spec, int forced,
							  GpugbStrategyChoice *choice);

/*
 * Run-time correction: the choice for the workload as it looks after the
 * device saw rows_seen rows forming groups_seen groups
 * (gpugb_workload_observed of the planned workload), the largest of them
 * holding hot_share of the rows (0: unknown), seen_once and seen_twice of
 * them seen once and twice (ignored under spec->observed_uniform_only, an
 * experiment).  The device re-decides
 * once, before the third stride (never at finish), and only when
 * spec->allow_switch and the query has GROUP BY keys.
 */
extern void gpugb_spec_recheck(const GpugbGroupBySpec *spec, double rows_seen,
							   double groups_seen, double hot_share, double seen_once,
							   double seen_twice, GpugbStrategyChoice *choice);

/*
 * The strategy the device really runs for a wanted one: PRIVATE_HASH whose
 * states do not fit a thread's slice runs as SHARED_HASH, SHARED_HASH when
 * no shared table fits the states as GLOBAL_HASH, and SORT or PARTITION without GROUP BY
 * keys, run as GLOBAL_HASH (as the CUDA module does).  PARTITION with states
 * too wide for its block table still runs: its partitions then only keep
 * their lookups in one slice of the table.
 */
extern GpugbStrategy gpugb_spec_runnable(const GpugbGroupBySpec *spec, GpugbStrategy strategy);

/*
 * The strategy of the launches before the run-time check: the runnable one.
 * Until session 38 PARTITION waited for the check and SORT ran until then,
 * because a hot key costs PARTITION's generic kernel, one block a partition,
 * dearly (kernel benchmark, Zipf 1.5 over 2^22 groups: 2.5 s against sort's
 * 45 ms over 2^28 rows), and the skew is only known at the check.  But the
 * launches before the check are the probe's few (GPUGB_DEVICE_PROBE_ROWS
 * over resident rows, the executor's first strides), which bounds that cost
 * to their rows, and SORT's probe cost every PARTITION plan its own scratch
 * and groups claimed in key order: PARTITION's own probe was 1.00-1.08x as
 * fast at 20 of 24 points and 0.96-0.99x at four (H200, 2^28 rows, 2^20-2^24
 * groups, 4- and 8-byte keys, one and four payloads, uniform and Zipf 1.0;
 * session 38, call 1).  spec->partition_sort_probe (an experiment) keeps
 * SORT's probe, spec->partition_hash_probe (another) runs GLOBAL_HASH's.
 */
extern GpugbStrategy gpugb_spec_first_runnable(const GpugbGroupBySpec *spec,
											   GpugbStrategy strategy);

#ifdef __cplusplus
}
#endif

#endif							/* GPUGB_STRATEGY_H */
