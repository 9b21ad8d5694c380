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
 * The strategy of the launches before the run-time check: the runnable one,
 * except where PARTITION is planned.  Those launches are the probe's few
 * (GPUGB_DEVICE_PROBE_ROWS over resident rows, the executor's first strides),
 * and PARTITION's probe cost more than its rows are worth: a quarter of a row
 * a key is too few for its lean kernel, so the probe sorted, and its scratch
 * was allocated at the probe's size and again at full size.  Until session 38
 * SORT was that probe (it too claims scratch); sessions 38-44 ran PARTITION
 * itself; since session 45 GLOBAL_HASH runs it, which allocates no partition
 * scratch and copes with a hot key (the skew is only known at the check).
 * Auto with GLOBAL_HASH's probe was 0.99-1.19x as fast as with PARTITION's at
 * all 24 points (H200, 2^28 rows, 2^20-2^24 groups, 4- and 8-byte keys, one
 * and four payloads, uniform and Zipf 1.0, 3 reps; session 45, call 1:
 * docs/session44-2026-11-30/next/s45-call1.sh).  spec->partition_sort_probe
 * and spec->partition_own_probe (experiments) keep SORT's and PARTITION's.
 */
extern GpugbStrategy gpugb_spec_first_runnable(const GpugbGroupBySpec *spec,
											   GpugbStrategy strategy);

#ifdef __cplusplus
}
#endif

#endif							/* GPUGB_STRATEGY_H */
