/*-------------------------------------------------------------------------
 * heuristics.c
 *    The strategy rules (see heuristics.h).  The thresholds are the
 *    papers' rules restated in terms of the device's own sizes, so they move
 *    with the GPU; test/kernelbench measured where they hold on the H200
 *    (docs/kernelbench-*.md).
 *
 *  0. Private placement (Karnagel et al. §5.1): when every thread can keep
 *     all groups' states of its own in shared memory (a handful of groups),
 *     rows are folded with no atomic and no exchange between threads; a
 *     block combines its threads' states once.  The shared table below
 *     still pays a shared-memory atomic per row and aggregate, and a warp
 *     whose rows fall into a few groups combines them with shuffles first:
 *     at tiny g that is the cost of every row.
 *  1. Shared placement (Karnagel et al. §5.1, Wu et al. HGB): when a block's
 *     shared-memory table has a slot per group (it claims at most half;
 *     rows of the others go to the global states), rows are
 *     folded on the SM and each block touches the global states once per
 *     group.  This removes the atomic contention that ruins tiny g.  One
 *     group (no GROUP BY) is the extreme case.
 *  2. Sort (Wu et al. SGB): once the global table is well beyond L2,
 *     every probe and update is a DRAM miss; if a launch holds many rows per
 *     group, sorting the launch first turns them into runs that need one
 *     lookup and one combined update each.  With few rows per group in a
 *     launch the sort is pure overhead, so the global table stays.
 *     Wu et al.'s partitioning (PGB-TR for g > 2^18, low skew) does the
 *     same with two or three radix passes over 4-byte partition numbers
 *     and a shared-memory table per partition; on the H200 it beats sort
 *     where a launch has many rows per group and the key is not one int32
 *     (PARTITION_MIN_ROWS_PER_GROUP), and sort wins the rest of the band.
 *  3. Skew, known only at run time (the share of the largest group after
 *     the first launch): a hot group makes global atomics contend, so
 *     blocks absorb it in shared memory, unless the table is beyond L2 and
 *     the skew short of extreme, or the states are wide: then sorted runs
 *     fold rows before any atomic (kernel benchmark, Zipf 1.0 and 1.5).
 *  4. Otherwise the global table, sized for the estimate at Karnagel's fill
 *     factor: 50 %, or 83 % once the table passes 2 GB (memory, not probe
 *     length, is then what limits).  While an L2-sized table would be less
 *     than half full, it is L2-sized (Karnagel): the spare slots shorten
 *     probes and spread the groups' states at no cost in DRAM traffic.
 *     Only for GLOBAL_HASH: the other strategies' rows do not probe the
 *     global table per row (sort, partition) or find few groups in L1
 *     (private, shared).
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "heuristics.h"

/*
 * A launch with fewer rows per group than this gains nothing from sorting.
 * Measured: at 4 rows per group (2^26 groups in 2^28 rows) sort beat the
 * global table by 30 % (docs/kernelbench-2026-11-21c.md).  The boundary
 * sits below 4 because the run-time estimate of g, from a probe whose rows
 * are nearly all distinct, is off either way (a few tenths of a percent
 * from the 4M rows the kernel benchmark's probe had then, about 1 % from
 * the 2^20 of a stride now): at exactly 4 it flipped that point to the
 * global table (3.99 rows per group).
 */
#define SORT_MIN_ROWS_PER_GROUP 3.5
/*
 * ...and a table within a few L2s of size still serves the hash probes well
 * enough.  On the H200 sort won from 3.6 x L2 on (2^22 groups with one
 * payload, 52 bytes a group: 22.3 ms against the global table's 31.8 and
 * partition's 28.4), and the global table up to 2.2 x L2 (2^20 groups with
 * four payloads, 42.4 against 42.0: even); session 20's full grid,
 * docs/kernelbench-2026-11-27b.md.  It was 4 x L2 until sort's run heads
 * stopped stalling on their lookups (that session), when partition still
 * took the band from 3 x L2.
 *
 * In that grid sort matched or beat partition at every point partition
 * used to take (best for partition: 8-byte keys, one payload, 2^22, 28.4
 * against sort's 29.7 ms; worst: 4-byte keys, 2^24, 44.6 against 26.8), and
 * under skew partition was 7-70x slower than either, so auto left it to
 * gpugb.strategy until partition's blocks took tiles (session 22,
 * PARTITION_MIN_ROWS_PER_GROUP).
 */
#define SORT_MIN_L2_MULTIPLE 3.0

/*
 * A partial lean table for a group of 5 % or more (GPUGB_PARTIAL_LEAN_HOT_SHARE)
 * still beats sort while the global table is within this many times L2.
 * H200, 2^28 rows, Zipf 1.0, forced strategies, 512-thread partial blocks
 * (session 28, call 3 grid): 2^22 groups (largest group about 6 %; global
 * table 4.0-5.1 x L2 with one payload, 8.8-9.9 x with four) shared_hash
 * 21.9-22.1 ms against sort's 23.7-29.9 with one payload, 46.1-46.2 against
 * 45.8-53.3 with four; 2^24 (16 x L2 and more) 41.6 against 27.4-33.7.
 */
#define PARTIAL_LEAN_MAX_L2_MULTIPLE 12.0
/*
 * ...unless PARTITION's lean kernel pays (partition_lean_pays: one key
 * word, COUNT and integer sums, GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY rows a key) and
 * the largest group is under this share: Zipf 1.0, 2^22 groups (6.3 %),
 * one payload (session 34, call 4): 4-byte keys 16.2 ms against the
 * partial table's 21.1, 8-byte keys 22.1 against 21.7; at Zipf 1.5 (38 %)
 * the partial table takes 3.7 against 9.5.  Between 6.3 and 38 % nothing
 * was measured, and the partial table's lead grows with the skew, so the
 * line stays near the measured share.
 */
#define LEAN_PARTITION_MAX_HOT_SHARE 0.10
/*
 * ...and, for counts only of one int32 key (the packed rows' case), from
 * this many times L2 rather than SORT_MIN_L2_MULTIPLE.  Counts only,
 * 4-byte keys, 2^22 groups (a table of 144 MB, 2.4 x L2; session 34, call
 * 4): PARTITION 12.3 ms against global_hash's 15.8 (uniform and Zipf 0.5),
 * 13.1 against the partial table's 15.6 (Zipf 1.0).  At about 1 x L2 (one
 * payload, 2^20 groups, session 33's grid) global_hash took 9.4 against
 * PARTITION's 14.1.  Between the two nothing was measured, nor a sum or an
 * 8-byte key between 2 and 3 x L2 (packed too since session 36, but not
 * measured there), which keep the 3.
 */
#define LEAN_PARTITION_MIN_L2_MULTIPLE 2.0
/*
 * ...and for two to four sums over packed rows (one key word, int32 words)
 * from this many times L2.  H200, 2^28 rows, 4-byte keys, 2^20 groups
 * (session 35, call 5): two sums (a table of 84 MB, 1.4 x L2) global_hash
 * 14.4 ms against PARTITION's 17.8; three (108 MB, 1.8 x) PARTITION 18.7
 * against 26.7; four (132 MB, 2.2 x) 29.0 against 42.2.  At 2^18 (within
 * L2) global_hash throughout (four sums 17.9 against 22.3).  8-byte keys
 * pack too since session 36 (their global table is no smaller): four sums
 * at 2^20, uniform, PARTITION about 26.8 ms against global_hash's 44.9
 * (session 36, call 1, against session 35's grid).
 *
 * Skewed (a largest group of GPUGB_PARTIAL_LEAN_HOT_SHARE or more), the
 * partial lean table keeps the workload up to SORT_MIN_L2_MULTIPLE x L2
 * instead: Zipf 1.0, 2^20 groups (largest 7 %; session 36, call 2, forced
 * strategies in one run) shared_hash 21.8 ms against PARTITION's 28.2 with
 * 8-byte keys and three sums (24-byte rows with a pad word), 17.9 against
 * 18.1 with two; four sums 32.1 against 30.1 and 4-byte keys 20.8 against
 * 19.5 (three) and 31.4 against 29.3 (four), within 7 % either way.  At
 * 2^22 (over 5 x L2) PARTITION throughout (8-byte keys, four sums: 35.0
 * against 45.0).
 */
#define LEAN_PARTITION_PACKED_SUMS_MIN_L2_MULTIPLE 1.6
/*
 * Since PARTITION scatters its rows in one pass at 2^9-2^11 partitions
 * (cuda/partition_scatter.cuh, session 37), it is 1.13-1.28x faster at
 * 2^20 groups, and the skewed lines above moved.  Zipf 1.0 (largest group
 * 6.9-7.6 %), H200, 2^28 rows, forced strategies in one run (session 37,
 * call 5's grid):
 *  - one sum, from this many times L2 (of the partial lean table's share
 *    and under LEAN_PARTITION_MAX_HOT_SHARE): 2^18 groups (a table of
 *    0.26 x L2 with 4-byte keys, 0.33 x with 8-byte ones) PARTITION 8.9
 *    and 10.2 ms against shared_hash's 10.9 and 11.4; 2^20 10.0 and 12.8
 *    against 14.0 and 14.4; at 2^16 (0.07-0.08 x) shared_hash 9.1 and 9.5
 *    against 9.3 and 9.9.  (Session 36's grid, before the scatter: 2^18 9.7
 *    and 11.0 against 10.8 and 11.4.)  Counts only were not measured, and
 *    keep their line;
 *  - four sums, from LEAN_PARTITION_PACKED_SUMS_MIN_L2_MULTIPLE, as without
 *    skew (since sessions 60 and 61 the lines of four sums over an 8-byte
 *    and over an int32 key, below): 2^20 (2.3-2.5 x L2) PARTITION 25.8 ms against shared_hash's
 *    30.9 and 31.4 with 4- and 8-byte keys; at 2^18 (0.6 x) shared_hash
 *    19.7 and 20.6 against 20.9 and 21.2.  Two and three sums keep
 *    SORT_MIN_L2_MULTIPLE: session 36's lead of the partial table there (up
 *    to 1.29x, 8-byte keys and three sums) is more than the scatter's gain.
 */
/*
 * Session 61 lowered the one-sum line from 0.2 to 0.1 x L2: the forced
 * strategies at 2^17 groups, Zipf 1.0 (largest group 8 %; a table of 0.13
 * x L2 with 4-byte keys, 0.16 x with 8-byte ones; H200, 2^28 rows, one
 * payload, session 57's runs, docs/session57-2026-12-02/others-s57m.csv and
 * grid-s57r2.csv) ran PARTITION 7.7 and 8.5 ms against the partial table's
 * 9.8 and 10.7 (auto took it: 10.2 and 10.8).  At 2^16 (0.07-0.08 x) the
 * group-id table runs first (5.4-5.9 ms).
 */
#define LEAN_PARTITION_SKEWED_ONE_SUM_MIN_L2_MULTIPLE 0.1
/*
 * ...and one int32 sum without skew, from this many times L2.  H200, 2^28
 * rows, one payload, uniform (session 59, call 5, forced strategies in one
 * run): 2^21 groups with 4-byte keys (a table of 120 MB, 2.0 x L2)
 * PARTITION 9.0 ms against global_hash's 19.6, which auto kept under
 * SORT_MIN_L2_MULTIPLE; at 2^20 (session 57's grid) 4-byte keys 9.1
 * against 9.7 (an L2-sized table) and 8-byte keys 11.4 against 11.0 (76
 * MB, 1.27 x L2): even.  The line lies between the two measured sizes.
 */
#define LEAN_PARTITION_ONE_SUM_MIN_L2_MULTIPLE 1.5
/*
 * ...and four int32 sums over an 8-byte key, from this many times L2, since
 * PARTITION sorts such rows as hashed pairs (GPUGB_HASHED_KEY_WORDS,
 * cuda/gpugb_device.h).  H200, 2^28 rows, four payloads, forced PARTITION
 * against session 57's grid (session 60, call 4): 2^16 groups (a table of
 * 9 MB, 0.15 x L2) 15.2 ms uniform and 14.8 Zipf 0.5 against global_hash's
 * 18.0 and 18.4, and 15.0 against shared_hash's 15.0 at Zipf 1.0; 2^18 (37
 * MB, 0.62 x L2) 16.1, 15.7 and 16.1 against 18.7, 18.7 and shared_hash's
 * 22.2.  Below 2^16 the lean tables go first (5.3 ms at 2^14 against
 * PARTITION's 15.2).  Two or three sums were not measured, and keep
 * LEAN_PARTITION_PACKED_SUMS_MIN_L2_MULTIPLE.
 */
#define LEAN_PARTITION_HASHED_SUMS_MIN_L2_MULTIPLE 0.1
/*
 * ...and four int32 sums over an int32 key, skewed or not, from this many
 * times L2.  H200, 2^28 rows, four payloads, forced strategies in one run
 * (session 61, call 1; every result verified): 2^19 groups (a table of 66
 * MB, 1.1 x L2) PARTITION 17.5, 17.9 and 17.9 ms (uniform, Zipf 0.5, Zipf
 * 1.0) against global_hash's 19.3 and 19.4 and shared_hash's 25.2 at Zipf
 * 1.0, which auto took from LEAN_PARTITION_PACKED_SUMS_MIN_L2_MULTIPLE;
 * 2^18 (33 MB, 0.55 x) global_hash 18.0 and 18.2 against 20.2, and
 * shared_hash 19.8 against 20.4 at Zipf 1.0.  Two or three sums were not
 * measured there, and keep LEAN_PARTITION_PACKED_SUMS_MIN_L2_MULTIPLE.
 */
#define LEAN_PARTITION_INT32_FOUR_SUMS_MIN_L2_MULTIPLE 0.8
/*
 * Auto takes PARTITION's lean kernel from this many rows a key expected in
 * a launch, at least the launch's own GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY,
 * so that auto never plans the lean kernel for launches that would not run
 * it.  Until session 43 it was 12: Zipf 1.0 over 2^26 (29.8 million
 * groups, 9 rows a key; session 36, call 2) had sort at 33.1 ms against
 * PARTITION's 37.4 (4-byte keys, one payload).  With group ids looked up at
 * the flush (cuda/partition_deferred.cuh) PARTITION took 25.6 there, and
 * auto's sort 34.9 missed the best by more than 20 % (session 43, call 3's
 * grid, and 8-byte keys: 41.1 against 29.9); at 4 rows a key (2^26 groups,
 * uniform) the lean kernel beats sort too (gpugb_partition_lean_rows_pay
 * has the numbers).  So the launch's line, for launches whose rows stay
 * packed (partition_lean_pays).
 */
#define LEAN_PARTITION_AUTO_MIN_ROWS_PER_KEY 3
/*
 * ...where the rows do not stay packed (a sum of words wider than int32:
 * the key cache's kernel, cuda/partition_lean_kernel.cuh, over the moved
 * columns), the line of sessions 36-42, and its measurements above.
 */
#define LEAN_PARTITION_UNPACKED_AUTO_MIN_ROWS_PER_KEY 12
#if LEAN_PARTITION_AUTO_MIN_ROWS_PER_KEY < GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY || \
	LEAN_PARTITION_UNPACKED_AUTO_MIN_ROWS_PER_KEY < GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY
#error "auto's rows-a-key line for the lean partition is below the launch's"
#endif
/*
 * Wide states (GPUGB_WIDE_STATES) with a group of this share of the rows,
 * more groups than a block table holds: sort, whose runs fold the rows of a
 * group before any atomic, where the hash placements' warp combines of wide
 * states and their contended atomics lose.  Same grid, four payloads (13
 * columns), Zipf 1.0 (largest group 13 % at 2^10 groups, 5.4 % at 2^26):
 * sort 33.7-56.0 ms against the best hash placement's 40.1-104.8 from 2^10
 * to 2^26 groups; Zipf 0.5 over 2^10 groups (largest 1.6 %) still went to
 * the global table (31.2 against sort's 36.8).
 */
#define WIDE_SORT_HOT_SHARE 0.04
/*
 * Beyond SORT_MIN_L2_MULTIPLE x L2, partition rather than sort with at
 * least this many rows per group in a launch, unless the key is one int32,
 * which sort sorts by itself.  H200 grid, session 22
 * (docs/session22-2026-11-28), once partition's blocks took tiles: 2^22
 * groups (64 rows per group), 8-byte keys, partition 24.5-26.6 ms against
 * sort's 28.6-29.1 with one payload (uniform, Zipf 0.5 and 1.0) and 47.0-47.2
 * against 49.7-53.2 with four; 4-byte keys, sort 22.5 against 24.7 (one
 * payload) and even with four (47.0, 46.6).  At 2^24 groups (16 rows per
 * group) sort won throughout: 8-byte keys 33.0 against 36.8.
 */
#define PARTITION_MIN_ROWS_PER_GROUP 48.0
/*
 * The run-time count corrects the planner's estimate only when it refutes
 * it by more than this factor: skew makes a sample show fewer groups than
 * the uniform-draw model expects (Zipf 0.5 over 2^26 groups: 2^22 rows
 * show 93 % distinct, which that model reads as 2.9e7 groups, 0.44 of the
 * truth), while a wrong estimate is off by orders of magnitude (mod(x,
 * 1000) estimated at 1e8).
 */
#define OBSERVED_REFUTES_FACTOR 4.0
/*
 * ...and it does not refute it at all from a skewed sample (its largest
 * group GPUGB_HOT_SHARE of the rows or more) that saw its groups fewer than
 * this many times each on average: Zipf hides most groups in a tail seen
 * once or never, while a plan that is wrong shows its few groups again and
 * again (mod(x, 1000): 1000 groups, 1000 rows each in 1M rows).  Zipf 1.0
 * over 2^24 groups shows about 1.3e6 of them in 2^22 rows (3.3 rows a
 * group, largest 5.8 %), which the uniform model reads as 1.35e6 groups,
 * 12x below the truth; auto then left sort for shared_hash, 1.25-1.9x
 * slower at 2^24-2^26 groups (docs/session20-2026-11-27/run-f-h100-heuristics.md).
 */
#define SKEWED_SAMPLE_MIN_ROWS_PER_GROUP 8.0
/* Do not trust estimates beyond this for the first table: it grows instead. */
#define MAX_INITIAL_GROUPS (4.0 * 1024 * 1024)
#define MIN_TABLE_SLOTS 1024

static const char *const strategy_names[GPUGB_N_STRATEGIES] = {
	"global_hash", "shared_hash", "sort", "partition", "private_hash"
};

int
gpugb_strategy_from_name(const char *name)
{
	for (int s = 0; s < GPUGB_N_STRATEGIES; s++)
		if (strcmp(name, strategy_names[s]) == 0)
			return s;
	return -1;
}

/* Shared memory one block may have: with opt-in where the device gives more that way. */
static int64_t
block_shared_room(const GpugbDeviceProps *props)
{
	return props->shared_bytes_per_block_optin > 0 ? props->shared_bytes_per_block_optin :
		props->shared_bytes_per_block;
}

/*
 * Slots of one block's shared table: a power of two that fits in a quarter
 * of an SM's shared memory (so several blocks stay resident to hide
 * latency) and in what a block may have without opting in.
 */
static int64_t
block_table_slots(int64_t slot_bytes, const GpugbDeviceProps *props)
{
	int64_t		budget = props->shared_bytes_per_sm / 4;
	int64_t		slots = 1;

	if (budget > props->shared_bytes_per_block)
		budget = props->shared_bytes_per_block;
	/* The 16 bytes: the claimed-slot counter, padded. */
	while (slots * 2 * slot_bytes + 16 <= budget)
		slots *= 2;
	return slots >= GPUGB_MIN_SHARED_SLOTS ? slots : 0;
}

int64_t
gpugb_shared_slots_for(int state_columns, const GpugbDeviceProps *props)
{
	return block_table_slots(GPUGB_SHARED_SLOT_BYTES(state_columns), props);
}

/*
 * The block table of a SHARED_HASH launch with `planned_slots` (the
 * strategy's choice), n_keys key columns, the groups expected and the
 * largest group's share of the rows (0 before the run-time check).  Keyed
 * (cuda/shared_kernel.cuh) where the keys fit a key cache entry, no group
 * has GPUGB_KEYED_MAX_HOT_SHARE of the rows, and either
 *  - the groups fit in half the planned slots: the table then shrinks to
 *    4x the groups (a quarter full where the estimate holds; more blocks an
 *    SM, less to reset and flush), not below GPUGB_MIN_KEYED_SLOTS (an
 *    estimate far too low would leave most groups' rows to the global
 *    states until the run-time check) unless the plan has fewer; or
 *  - a table of twice the groups still lets two blocks share an SM (kernel
 *    benchmark, same run, 2^28 rows: 4 payloads, 2^8 groups: 19.0 ms
 *    against 28.7, Zipf 1.0 20.8 against 54.5; 1 payload, 2^10 groups: 15.6
 *    against 19.8).
 * A keyed table larger than a block may have falls back to the planned
 * gid-keyed one.
 */
void
gpugb_plan_shared_table(int64_t planned_slots, int state_columns, int n_keys,
						double groups_expected, double hot_share,
						const GpugbDeviceProps *props, GpugbSharedTablePlan *plan)
{
	int64_t		block_limit = props->shared_bytes_per_block_optin > props->shared_bytes_per_block ?
		props->shared_bytes_per_block_optin : props->shared_bytes_per_block;
	bool		keyable = n_keys >= 1 && n_keys <= GPUGB_KEY_CACHE_MAX_KEYS &&
		hot_share < GPUGB_KEYED_MAX_HOT_SHARE;
	int64_t		slots = planned_slots;
	bool		keyed = false;

	if (keyable && groups_expected <= (double) (planned_slots / 2))
	{
		int64_t		fit = GPUGB_MIN_KEYED_SLOTS;

		while (fit < planned_slots && (double) fit < 4 * groups_expected)
			fit *= 2;
		slots = fit < planned_slots ? fit : planned_slots;
		keyed = true;
	}
	else if (keyable)
	{
		int64_t		wide = planned_slots;

		while (wide > 0 && (double) wide < 2 * groups_expected && wide < (1 << 20))
			wide *= 2;
		if (wide > 0 &&
			2 * (GPUGB_SHARED_KEYED_TABLE_BYTES(state_columns, n_keys, wide) + 1024) <=
			props->shared_bytes_per_sm)
		{
			slots = wide;
			keyed = true;
		}
	}
	if (keyed && GPUGB_SHARED_KEYED_TABLE_BYTES(state_columns, n_keys, slots) > block_limit)
	{
		keyed = false;
		slots = planned_slots;
	}
	plan->keyed = keyed;
	plan->partial = false;
	plan->slots = slots;
	plan->bytes = keyed ? GPUGB_SHARED_KEYED_TABLE_BYTES(state_columns, n_keys, slots) :
		GPUGB_SHARED_TABLE_BYTES(state_columns, slots);
}

/* The largest keyed table two blocks an SM hold, if any (gpugb_plan_lean_table). */
static void
plan_partial_lean_table(int columns, int n_keys, const GpugbDeviceProps *props,
						GpugbSharedTablePlan *plan)
{
	int64_t		block_limit = props->shared_bytes_per_block_optin > props->shared_bytes_per_block ?
		props->shared_bytes_per_block_optin : props->shared_bytes_per_block;
	int64_t		slots = 0;

	for (int64_t s = GPUGB_MIN_KEYED_SLOTS; s <= (1 << 20); s *= 2)
	{
		int64_t		bytes = GPUGB_SHARED_KEYED_TABLE_BYTES(columns, n_keys, s);

		if (bytes > block_limit || 2 * (bytes + 1024) > props->shared_bytes_per_sm)
			break;
		slots = s;
	}
	if (slots == 0)
		return;
	plan->keyed = true;
	plan->partial = true;
	plan->slots = slots;
	plan->bytes = GPUGB_SHARED_KEYED_TABLE_BYTES(columns, n_keys, slots);
}

/*
 * Whether a SHARED_HASH launch whose lean table is partial (too small for
 * all the groups) takes the lean kernel rather than the generic one, given
 * the largest group's share of the rows as the handle knows it: the
 * planner's statistics' estimate (src/skew_estimate.c), then what the
 * run-time check saw; 0 when neither says (no statistics, and no check yet
 * or none at all, as under a forced strategy).  The partial table pays
 * under skew (GPUGB_PARTIAL_LEAN_HOT_SHARE), since its blocks defer their
 * cold rows (cuda/lean_kernel.cuh): H200, 2^28 rows, one payload, 2^12-
 * 2^20 groups (session 26, call 2), Zipf 1.0 (largest group 7-11 %):
 * partial lean table 9.4-18.5 ms against the generic kernel's 12.9-22.2
 * (run-time switch); uniform: 15.5-28.1 against 13-20 (session 25).
 * Before the deferral (session 25) it took 22-30 ms at Zipf 1.0 and paid
 * only from a group of 25 % on.  The launch does not ask whether the table
 * is beyond L2 (auto then plans sort): a forced SHARED_HASH at Zipf 1.0,
 * 2^22-2^26 groups, took 25.0-58.2 ms with the partial table (session 26),
 * the generic kernel 30.4-69.1 (the older grid of the sort rule below).
 * Unknown skew keeps the partial table: a forced SHARED_HASH without
 * statistics then runs what auto takes for hot groups (the self-test's
 * partial cases prove that kernel this way).  So do groups_expected of at
 * most GPUGB_PARTIAL_LEAN_MAX_GROUPS_PER_SLOT times the table's slots,
 * whatever the skew: once its blocks ran 512 threads (session 28, call 1),
 * the partial table of 2048 slots took 19.1 ms for 2^12 uniform groups and
 * four payloads where GLOBAL_HASH took 21.9 (the generic shared kernel
 * 30.5), and 12.7 against 12.1 with one payload; at 2^16 groups it lost
 * (26.6 against 17.7, 14.5 against 7.9).
 */
static bool
partial_table_holds_enough(double groups_expected, int64_t slots)
{
	return groups_expected <= (double) GPUGB_PARTIAL_LEAN_MAX_GROUPS_PER_SLOT * (double) slots;
}

bool
gpugb_lean_partial_pays(double hot_share, double groups_expected, int64_t slots)
{
	return hot_share <= 0 || hot_share >= GPUGB_PARTIAL_LEAN_HOT_SHARE ||
		partial_table_holds_enough(groups_expected, slots);
}

/*
 * The block table of a launch SHARED_HASH's lean kernel may take
 * (cuda/lean_kernel.cuh), and whether it can: planned as
 * gpugb_plan_shared_table plans, for its own states as `columns` generic
 * 8-byte columns (at most: 8 bytes a sum, 4 a count column), with the
 * skew ignored (a one-slot warp reduces, its atomics are 32-bit, so hot
 * groups cost it nothing).  It can where that table is keyed; without
 * keys the one group is one slot.  The launch (cuda/launch.cu) and auto
 * (gpugb_choose_strategy) both ask here.
 *
 * Where the groups are too many for a keyed table, the plan is `partial`:
 * the largest keyed table two blocks an SM still hold.  Each block then
 * keeps the first slots/2 keys it meets, which under skew are the hot
 * ones, and defers its other rows, which it then adds to the global
 * states 32 a warp (cuda/lean_kernel.cuh, gpugb_lean_defer).  Auto takes
 * SHARED_HASH for a partial table for hot groups (gpugb_choose_strategy:
 * GPUGB_PARTIAL_LEAN_HOT_SHARE up to PARTIAL_LEAN_MAX_L2_MULTIPLE x L2, or
 * GPUGB_VERY_HOT_SHARE), or for at most twice its slots of groups at any
 * skew; a launch takes the partial table only where it pays or the skew is
 * unknown (gpugb_lean_partial_pays).
 */
bool
gpugb_plan_lean_table(int columns, int n_keys, double groups_expected,
					  const GpugbDeviceProps *props, GpugbSharedTablePlan *plan)
{
	int64_t		planned = gpugb_shared_slots_for(columns > 0 ? columns : 1, props);

	memset(plan, 0, sizeof(*plan));
	if (planned <= 0)
		return false;
	if (n_keys == 0)
	{
		plan->keyed = true;
		plan->slots = 1;
		return true;
	}
	gpugb_plan_shared_table(planned, columns, n_keys, groups_expected, 0.0, props, plan);
	if (!plan->keyed && n_keys >= 1 && n_keys <= GPUGB_KEY_CACHE_MAX_KEYS)
		plan_partial_lean_table(columns, n_keys, props, plan);
	return plan->keyed;
}

/*
 * The most slots (a power of two) of a lean table of n_sums sums, one count
 * column (no NULL input) and n_keys key words that one block an SM holds,
 * by exact bytes; 0 if none.
 */
int64_t
gpugb_lean_one_block_max_slots(int n_sums, int n_keys, const GpugbDeviceProps *props)
{
	return gpugb_lean_one_block_slots_leaving(n_sums, n_keys, 0, props);
}

/*
 * The same, leaving `reserve` bytes of the SM's shared memory unused, to
 * L1.  For GPUGB_PARTITION_L1_RESERVE_BYTES (heuristics.h):
 * the group-id table ran 1.40-1.59x faster at 2^14 groups once it left L1
 * 32 KB (session 55, gpugb_lean_gid_launch_slots), and PARTITION's table
 * takes as much of the SM as a power of two of slots allows (229,392 of
 * 233,472 bytes for one sum on the H200).  A reserve of 32 KB halves it.
 */
int64_t
gpugb_lean_one_block_slots_leaving(int n_sums, int n_keys, int64_t reserve, const GpugbDeviceProps *props)
{
	int64_t		slots = 0;

	for (int64_t s = GPUGB_MIN_KEYED_SLOTS; s <= (1 << 20); s *= 2)
	{
		int64_t		bytes = GPUGB_LEAN_TABLE_BYTES(n_sums, 1, n_keys, s);

		if (bytes > props->shared_bytes_per_block_optin || bytes + 1024 + reserve > props->shared_bytes_per_sm)
			break;
		slots = s;
	}
	return slots;
}

/*
 * Session 56's measurement (heuristics.h, GPUGB_PARTITION_L1_RESERVE_BYTES)
 * as a rule: only where it won.  With four sums over an int32 key word,
 * halving the table made whole PARTITION launches 1.07-1.27x faster from
 * 2^22 groups (session 59: 1.20-1.25x at 2^21 too); at 2^20 the
 * partitions' extra bit changed the move's plan (0.62x in session 56,
 * 0.91x in session 59).  8-byte keys (pair slots), one sum and a very hot
 * group lost.  Nsight Compute (session 59, 2^22 uniform) puts the whole
 * gain in the lean kernel (13.09 -> 9.59 ms; the sort and move unchanged);
 * why L1 helps that kernel with four sums and not with one is not measured.
 */
bool
gpugb_partition_l1_reserve_pays(int n_sums, bool key_int32, double groups_expected, double hot_share)
{
	return key_int32 && n_sums >= GPUGB_PARTITION_L1_RESERVE_MIN_SUMS &&
		groups_expected >= GPUGB_PARTITION_L1_RESERVE_MIN_GROUPS && hot_share < GPUGB_VERY_HOT_SHARE;
}

/*
 * The one-block lean table: where a whole keyed lean table for
 * groups_expected groups (at most half its slots claimed) does not fit two
 * blocks an SM, as gpugb_plan_lean_table requires, it may still fit one
 * block an SM, of 1024 threads (cuda/lean_kernel.cuh,
 * GPUGB_LEAN_ONE_BLOCK_THREADS): one key, at most one sum and no NULL
 * input (so one count column), by exact bytes.  On the H200 2^12 groups
 * take 8192 slots, 229,392 of a block's 232,448 bytes.  There the
 * partial table or GLOBAL_HASH took 10-17 ms for 2^28 rows and one
 * payload, the one-block table 2.5-4.9 ms at 2^11-2^12 groups, uniform to
 * Zipf 1.5 (kernel benchmark, session 28, call 1: 3.0-3.8x faster than
 * the partial table uniform, 1.6-1.8x at Zipf 1.5).  Returns the slots, 0
 * where it does not apply; the launch (cuda/launch.cu) also requires a
 * launch without NULL inputs.
 */
int64_t
gpugb_lean_one_block_slots(int n_sums, int n_keys, double groups_expected,
						   const GpugbDeviceProps *props)
{
	int64_t		slots = GPUGB_MIN_KEYED_SLOTS;

	if (n_keys != 1 || n_sums < 0 || n_sums > 1)
		return 0;
	while ((double) slots < 2 * groups_expected && slots < (1 << 20))
		slots *= 2;
	return slots <= gpugb_lean_one_block_max_slots(n_sums, n_keys, props) ? slots : 0;
}

/*
 * The table indexed by group id keeps no keys: a row's group id comes from
 * the global table (one lookup a row), and indexes a count and a 64-bit sum
 * a sum in shared memory, 8 * n_sums + 4 bytes a group (no NULL inputs: one
 * count column), in one block an SM with 1 KB of slack.  On the H200 that
 * is 19,370 groups of one sum and 6,456 of four, where the keyed lean
 * tables hold 4,096 and fewer.
 */
int64_t
gpugb_lean_gid_max_groups(int n_sums, const GpugbDeviceProps *props)
{
	int64_t		room = block_shared_room(props);

	if (n_sums < 1 || n_sums > GPUGB_LEAN_GID_MAX_SUMS)
		return 0;
	if (room > props->shared_bytes_per_sm - 1024)
		room = props->shared_bytes_per_sm - 1024;
	return room / GPUGB_LEAN_GID_TABLE_BYTES(n_sums, 1);
}

/* Slots of the group-id table of n_sums sums that leave GPUGB_GID_L1_RESERVE_BYTES of an SM to L1. */
static int64_t
gid_l1_room_slots(int n_sums, const GpugbDeviceProps *props)
{
	return (props->shared_bytes_per_sm - GPUGB_GID_L1_RESERVE_BYTES - 1024) / GPUGB_LEAN_GID_TABLE_BYTES(n_sums, 1);
}

/*
 * The slots a launch of the table indexed by group id takes, of at most
 * `most` (what its sums' table holds, or the global table's ids if fewer):
 * no more than twice the groups expected, nor more than leave
 * GPUGB_GID_L1_RESERVE_BYTES of the SM's shared memory to L1 where the
 * groups expected fit so (on the H200, 16640 slots of one sum and 5546 of
 * four leave 60 KB of L1 where 19370 and 6456 left 28 KB).
 *
 * Why: the kernel streams its rows through L1 (__ldg, two steps ahead), and
 * its shared memory comes out of the same 256 KB.  At 2^13 groups, 8-byte
 * keys, Zipf 1.0, auto's launch took all 19370 slots (232,440 bytes) and
 * ran 3.01 ms, a forced SHARED_HASH's 16384 slots (196,608 bytes) 2.58-2.60
 * ms, with the same instructions, shared atomics and L2 sectors (Nsight
 * Compute, session 55 call 4).  With the 32 KB reserve against none (H200,
 * 2^28 rows, 3 reps, two rounds, each order once; session 55 call 5): one
 * payload at 2^14 groups 1.40-1.42x faster with 4-byte keys uniform and
 * Zipf 0.5 (3.3 to 2.3 ms), 1.54-1.59x with 8-byte keys, 1.13-1.32x at Zipf
 * 1.0-1.5; auto at 2^13 and Zipf 1.0-1.5 0.97-1.46x; four payloads at
 * 2^11-2^12 1.05-1.10x; elsewhere within noise.
 */
int64_t
gpugb_lean_gid_launch_slots(int n_sums, double groups_expected, int64_t most, const GpugbDeviceProps *props)
{
	int64_t		slots = most;

	if (GPUGB_GID_L1_RESERVE_BYTES > 0 && n_sums >= 1)
	{
		int64_t		need = groups_expected < 1 ? 1 : (int64_t) ceil(groups_expected);
		int64_t		l1_room = gid_l1_room_slots(n_sums, props);
		int64_t		wanted = 2 * need < l1_room ? 2 * need : l1_room;

		if (wanted < need)
			wanted = need;
		if (wanted < slots)
			slots = wanted;
	}
	return slots;
}

/*
 * Whether a launch whose groups no keyed lean table holds (the caller's
 * test) takes the table indexed by group id: every group expected fits it
 * and no group has GPUGB_VERY_HOT_SHARE of the rows.  Against the keyed
 * tables, with the L2-sized global table its plan takes (H200, 2^28 rows,
 * 3 reps, 4- and 8-byte keys; session 45 call 6,
 * docs/session45-2026-11-30/next/call6.sh): auto 2.3-2.7x as fast at
 * 2^13-2^14 groups with one payload, uniform and Zipf 0.5 (4.1-4.4 ms),
 * 1.6-1.9x at Zipf 1.0; with four payloads 3.1-3.8x at 2^12, 1.9x at Zipf
 * 1.0, 1.1-1.3x at 2^11, and 0.94-0.96x at 2^11 with Zipf 1.0.  A forced
 * SHARED_HASH at Zipf 1.5 (largest group about 38 %, which auto sees at its
 * check) took it at 0.78-0.90x.  Beyond its groups the rows of ids past the
 * table take the generic update: at Zipf 1.0 four sums over 2^14 groups
 * took 45 ms against 11 (call 1), so it is never planned there.  Counts
 * only were not measured.
 *
 * A very hot group no longer keeps a launch from the table (and in the
 * partial keyed table) where the kernel looks each row up by its key word
 * loaded a step ahead (one sum, one key word without NULLs: word_key): at
 * Zipf 1.5 and 2^14 groups it took 2.47-2.59 ms forced, where auto's
 * partial keyed table took 3.30-3.35 (H200, 2^28 rows, 3 reps, 4- and
 * 8-byte keys; session 54 call 1); at Zipf 2.0 and 3.0 auto took what it
 * took before (0.99-1.01x, call 2).  Measured at 2^14 groups only, and
 * with sums declared int32 (a wider value takes the generic update).
 */
bool
gpugb_lean_gid_pays(int n_sums, bool word_key, double groups_expected, double hot_share,
					const GpugbDeviceProps *props)
{
	int64_t		groups = gpugb_lean_gid_max_groups(n_sums, props);
	bool		hot_ok = hot_share < GPUGB_VERY_HOT_SHARE || (word_key && n_sums == 1);

	return groups > 0 && groups_expected <= (double) groups && hot_ok;
}

/*
 * Whether a launch takes the group-id table once a sum
 * (gpugb_lean_gid_split_ranges > 0, below; cuda/launch.cu,
 * lean_gid_split_plan).  Two to four sums looked up by one key word, whose
 * groups expected the group-id table holds with one sum but not with all
 * of them (6456 of four, 19370 of one on the H200), take it once a sum,
 * without a very hot group (past one sum's table, by group range too): the
 * first launch adds the counts and sum 0 with the word loop and writes each
 * row's group id to a column (-1: the row was retried), each later one adds
 * one more sum from that column, with no lookup (cuda/lean_gid_kernel.cuh,
 * gpugb_lean_gid_sum_kernel).
 *
 * Why: four payloads at 2^13-2^14 groups ran 11.6-18.4 ms (GLOBAL_HASH,
 * PARTITION, the partial keyed table), 4.9-7.7x the floor.  Measured
 * (H200, 2^28 rows, four payloads, 3 reps, session 56 call 1), against
 * the tables taken before: uniform and Zipf 0.5 at 2^13-2^14 3.2-3.9x
 * faster, forced SHARED_HASH and auto (5.1-5.8 ms, 2.1-2.4x the floor),
 * Zipf 1.0 1.9-2.3x; at Zipf 1.5, where no estimate of the hot group
 * reached the plan, 0.90-0.96x forced and 0.97-1.01x auto (4.7-5.1 ms,
 * about 2x the floor either way).  Nsight Compute at 2^14 uniform: the
 * first launch 3.43 ms, each later one 0.78 ms.  2^12 and 2^15 unchanged
 * (the table of four sums holds 2^12; one sum's does not hold 2^15).
 */
bool
gpugb_lean_gid_split_pays(int n_sums, bool word_key, double groups_expected, double hot_share,
						  const GpugbDeviceProps *props)
{
	return gpugb_lean_gid_split_ranges(n_sums, word_key, groups_expected, hot_share, props) > 0;
}

/*
 * The split's group ranges: 1 where one sum's table holds the groups
 * expected and all sums' does not (two to four sums: once a sum, above);
 * where not even one sum's table holds them, one to four sums take the
 * table once a sum and group range: the first launch looks every row up
 * and writes its id, adding the counts and sum 0 of the ids of its
 * table's range (0 .. slots - 1); each later launch reads the ids and adds
 * one sum (the counts with sum 0) over one range, the last range also the
 * ids past it (to the global states: an estimate too low costs time, never
 * a row).  Ranges: the groups expected over the slots that leave L1 its
 * reserve (16640 of one sum on the H200: 2 ranges at 2^15 groups, 4 at
 * 2^16), so that ranges x sums launches each read an int32 id and an
 * 8-byte value a row, one of them the lookup.
 *
 * Why: 2^15-2^16 groups ran GLOBAL_HASH at 7.7-8.8 ms with one payload
 * and 17.8-18.8 with four (8.5x and 7.3x the floor).  Measured (H200, 2^28
 * rows, 3 reps, forced SHARED_HASH and auto, 4- and 8-byte keys; session
 * 57 call 1), the launches of 2^28 rows take about 2.7 ms for the first
 * and 0.95 for each later one (ranges x sums of them in all):
 *   - one payload, uniform and Zipf 0.5: 2^15 (2 ranges) 3.6-3.7 ms where
 *     auto took 8.2-9.4 (2.2-2.5x), 2^16 (4) 5.5-5.7 where it took 8.1-8.6
 *     (1.4-1.5x), but 2^17 (8) 9.1-9.4 against GLOBAL_HASH's 7.7-8.2;
 *   - Zipf 1.0: 2^15 3.5-4.3 (1.7-2.4x), 2^16 5.2-5.9 (1.5-1.7x);
 *   - four payloads: 2^15 (8 launches) 9.3-9.8 ms where auto took 13.4-19.2
 *     (1.4-1.9x), 2^16 (16) 15.8-17.3 against 17.8-18.9 (1.0-1.1x);
 *   - Zipf 1.5 (auto, which sees the hot group, keeps the partial keyed
 *     table): a forced SHARED_HASH took 5.0 ms at 2^16 with one payload
 *     where the partial table took 3.4.
 * Hence at most 4 ranges and 8 launches.
 */
int
gpugb_lean_gid_split_ranges(int n_sums, bool word_key, double groups_expected, double hot_share,
							const GpugbDeviceProps *props)
{
	int64_t		room;
	double		ranges;

	if (n_sums < 1 || n_sums > GPUGB_LEAN_GID_MAX_SUMS || !word_key || hot_share >= GPUGB_VERY_HOT_SHARE ||
		gpugb_lean_gid_pays(n_sums, word_key, groups_expected, hot_share, props))
		return 0;
	if (gpugb_lean_gid_pays(1, word_key, groups_expected, 0, props))
		return n_sums >= 2 ? 1 : 0;
	room = gid_l1_room_slots(1, props);
	if (room < 1)
		return 0;
	ranges = ceil(groups_expected / (double) room);
	if (ranges > GPUGB_GID_MAX_RANGES || ranges * n_sums > GPUGB_GID_MAX_RANGE_PASSES)
		return 0;
	return (int) ranges;
}

/*
 * Whether a launch of one sum looked up by key word takes the table indexed
 * by group id even where a keyed lean table holds its groups: from 2048
 * groups expected, without a group of 5 % of the rows.  Against the keyed
 * tables (the one-block table from 2^11 groups), both in the group-id
 * plan's L2-sized global table, H200, 2^28 rows, 3 reps, forced
 * SHARED_HASH (session 54 call 5): 4-byte keys 1.87x at 2^11-2^12 groups
 * uniform, 1.66-1.78x at Zipf 0.5 (largest group about 1 %), 1.40x at
 * 2^13; 8-byte keys 1.55-1.67x at 2^11-2^13; but at 2^10 0.84-0.96x, and at
 * Zipf 1.0 (largest group 11-12 %) 0.55-0.92x with 4-byte keys at
 * 2^10-2^12, at Zipf 1.5 0.42-0.91x.  Between 2^10 and 2^11 groups, and
 * hot shares between 1 and 11 %, not measured.  In the keyed plan's
 * smaller global table the same kernel took 0.43-0.55x at 2^11-2^12
 * (call 4).
 */
bool
gpugb_lean_gid_first(int n_sums, bool word_key, double groups_expected, double hot_share,
					 const GpugbDeviceProps *props)
{
	return n_sums == 1 && word_key && groups_expected >= GPUGB_GID_FIRST_MIN_GROUPS &&
		hot_share < GPUGB_GID_FIRST_MAX_HOT_SHARE &&
		gpugb_lean_gid_pays(n_sums, word_key, groups_expected, hot_share, props);
}

/*
 * Whether a whole lean table of n_sums sums that can run the fast lean
 * kernel (one key, no NULLs: cuda/launch.cu, fast_wide_slots) takes it in
 * one block of 1024 threads an SM with the most slots that block holds
 * (gpugb_lean_one_block_max_slots: 8192 for one sum on the H200) rather
 * than the slots for the groups expected, in five blocks an SM.
 *
 * Two to four sums: always.  The five-blocks-an-SM instance of the fast
 * kernel spills with four sums, and the generic lean kernel ran those
 * tables until now.  H200, 2^28 rows, forced SHARED_HASH, one round each
 * (session 31, calls 4-6): two payloads 1.15-2.20x faster at 2^2-2^12
 * groups, four payloads 1.09-3.23x, 4- and 8-byte keys, uniform and Zipf
 * 0.5, 1.0 and 1.5.
 *
 * One sum or counts only: from GPUGB_LEAN_FAST_WIDE_MIN_GROUPS groups.
 * Counts only, same calls: 0.84-0.88x at 2^2-2^4, 1.07-1.37x at 2^6-2^10,
 * even at 2^12.  One sum, below.  In a table a quarter full the
 * warp's probe loop runs as long as the longest of its 32 lanes' probes
 * (2.8 times a row at 2^8 groups, Nsight Compute, session 30 call 2); a
 * table 1/32 full finds most keys at their home slot.  H200, 2^28 rows,
 * one payload, forced SHARED_HASH, 4- and 8-byte keys, uniform and Zipf
 * 1.0, two rounds (session 30, call 4): 1.02-1.18x faster at 2^6 groups,
 * 1.08-1.26x at 2^8, 1.36-1.61x at 2^10, even at 2^12 (one block already);
 * 0.88-0.96x at 2^2-2^4, where a warp's rows mostly share a group and five
 * blocks' tables an SM spread those atomics.
 */
bool
gpugb_lean_fast_wide_pays(int n_sums, double groups_expected)
{
	return n_sums >= 2 || groups_expected >= GPUGB_LEAN_FAST_WIDE_MIN_GROUPS;
}

int64_t
gpugb_partition_slots_for(int state_columns, const GpugbDeviceProps *props)
{
	return block_table_slots(GPUGB_PARTITION_SLOT_BYTES(state_columns), props);
}

/*
 * A partition may hold up to this much more than a quarter of the table's
 * slots before it takes one more bit.  The run-time check's estimate of the
 * groups (gpugb_workload_observed) is a few per mille off the truth, so at
 * 2^22 groups a quarter exactly gave auto 12 bits half the time where the
 * true count gives 11: CUB's two passes instead of the scatter
 * (gpugb_partition_scatter_pays), 13.5 ms against forced PARTITION's 11.9
 * with one payload, 29.1 against 23.4 at 2^20 with four (H200, 2^28 rows,
 * session 38, call 1).  A table 5/16 full probes about as fast as one a
 * quarter full ((1 + 1/(1 - fill)) / 2 slots a key found: 1.23 against
 * 1.17), and the keys of a partition stay well within the half it may take.
 */
#define PARTITION_FILL_SLACK 1.25

/*
 * Partition bits for a PARTITION launch of `rows` rows expected to hold
 * `distinct` keys (cuda/partition_strategy.cu): enough partitions that each
 * holds about a quarter of a block table's `slots` of distinct keys (at most
 * PARTITION_FILL_SLACK times that; the table takes at most half), and at
 * least min_parts; at most GPUGB_PARTITION_MAX_BITS (three radix passes), no
 * more partitions than rows (the boundaries reuse the rows' key buffer), and
 * no more than max_bits (the global table's slot bits, at least 1).
 */
int
gpugb_partition_bits(double distinct, int64_t rows, int64_t slots, int64_t min_parts, int max_bits)
{
	double		per_part = (slots > 0 ? (double) slots / 4 : 1024) * PARTITION_FILL_SLACK;
	int			bits = 1;

	while (bits < GPUGB_PARTITION_MAX_BITS &&
		   ((1ll << bits) < min_parts || distinct / (double) (1ll << bits) > per_part))
		bits++;
	while (bits > 1 && (1ll << bits) > rows)
		bits--;
	return bits < max_bits ? bits : max_bits;
}

/*
 * The scatter wants at least four rows of a tile a partition on average:
 * with one or two (2^12 partitions of 24-byte rows in 4096-row tiles, 2^11
 * of 12-byte ones) it was 0.88-0.97x as fast as CUB's sort; with four (2^11
 * of 8-byte rows in 8192-row tiles, 2^10 of 24-byte ones) 1.07-1.16x.  And
 * from 2^9 partitions, where CUB takes two 8-bit passes: with one pass
 * (2^5-2^8) it was 0.82-1.03x with 8- and 24-byte rows.  12-byte rows (an
 * 8-byte key and one sum), which CUB moves in 4-byte words, scattered
 * 1.08-1.32x faster there.  H200, 2^28 rows, 2^16-2^22 groups, forced
 * PARTITION (session 37, call 4).
 */
#define SCATTER_MIN_ROWS_PER_PARTITION 4
#define SCATTER_MIN_BITS 9
#define SCATTER_ANY_BITS_ROW_BYTES 12

bool
gpugb_partition_scatter_pays(int row_bytes, int bits, int64_t tile_rows)
{
	if (bits < 0 || bits > 62 || (tile_rows >> bits) < SCATTER_MIN_ROWS_PER_PARTITION)
		return false;
	return bits >= SCATTER_MIN_BITS || row_bytes == SCATTER_ANY_BITS_ROW_BYTES;
}

/*
 * Whether a launch of `rows` rows holding `distinct` keys repeats them
 * enough for PARTITION's lean kernel (cuda/partition_lean_kernel.cuh): at
 * least GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY rows a key.  A key's first
 * row in a stretch takes the slow path (the global table, in a 1024-thread
 * block that waits at every stretch's end), and with few rows a key those
 * are most rows.  H200, 2^28 rows, one payload, 4- and 8-byte keys, forced
 * PARTITION (session 32, call 2, against the generic kernel over row
 * numbers in the same run): 64 rows a key and more (2^18-2^22 groups)
 * 1.03-2.18x faster, where the rows' move alone gave 1.08-1.32x (session
 * 31); 16 rows a key (2^24) 0.93-1.02x; 4 (2^26) 0.63-0.78x.  Since the
 * lean kernel's claims and loads got faster (session 33) and it reads
 * packed rows (session 34), it wins at 16 rows a key too: against the
 * generic kernel over moved rows, 0 and 1 payloads (session 34, call 3,
 * kernelbench --partition-lean-rows 4 against the then default 32), 2^24 groups
 * 1.08-1.57x faster with 4-byte keys (one payload, uniform: 27.6 -> 17.5
 * ms, where sort takes 30.1) and 0.98-1.30x with 8-byte keys; 2^26 (4 rows
 * a key) 1.03-1.08x, but sort is faster still there (uniform, one payload:
 * 50.4 ms against 53.5), so auto, which applies a line at least as strict
 * (partition_lean_pays: this rule until session 36, then
 * LEAN_PARTITION_AUTO_MIN_ROWS_PER_KEY), should not take PARTITION at 4 rows a key.  The
 * rule says 8, not 16: at 2^24 groups the launches hold 16 rows a key, and
 * at 16 the run-time check's estimate of a few more groups than 2^24 left
 * auto on sort (uniform) or PARTITION's generic kernel (Zipf 0.5), 1.7x
 * slower than the lean kernel (session 34, call 4).
 *
 * Since the kernel looks group ids up at the flush (session 43,
 * cuda/partition_deferred.cuh), a key's first row costs no more than the
 * others, and the lean kernel beats both the generic kernel and sort at 4
 * rows a key: 2^26 groups, 2^28 rows, H200, --partition-lean-rows 2 (session
 * 43, call 3), 4-byte keys, one payload, uniform 42.3 ms against sort's 50.7
 * and the generic kernel's 58.8 (call 3's grid); four payloads 78.8 against
 * 89.3; 8-byte keys 47.4 against 58.9 (one) and 80.3 against 97.1 (four);
 * Zipf 1.0 (9 rows a key) 25.5 against 37.3.  So the line is 3: below the
 * measured 4, so that a run-time estimate a little over 2^26 groups keeps
 * the lean kernel; 2 rows a key (2^27 groups) was not measured.
 */
bool
gpugb_partition_lean_rows_pay(double rows, double distinct)
{
	return rows >= GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY * distinct;
}

/*
 * Most groups PRIVATE_HASH can keep per thread: as many as fit when two
 * blocks share an SM (16 warps, the fewest that still keep enough loads in
 * flight), within what a block may have with opt-in, together with the
 * block's key cache; 1 kB of each block's shared memory is the system's.  A
 * launch sizes its slices for the groups it expects
 * (gpugb_private_groups_needed), so fewer groups leave room for more blocks.
 */
int64_t
gpugb_private_groups_for(int state_columns, const GpugbDeviceProps *props)
{
	int64_t		budget = props->shared_bytes_per_sm / 2 - 1024;
	int64_t		per_block = block_shared_room(props);
	int64_t		groups;

	if (state_columns < 1)
		state_columns = 1;
	if (budget > per_block)
		budget = per_block;
	groups = budget / GPUGB_PRIVATE_TABLE_BYTES(state_columns, 1);
	if (groups > GPUGB_PRIVATE_MAX_GROUPS)
		groups = GPUGB_PRIVATE_MAX_GROUPS;
	/* The block's key cache follows the slices. */
	while (groups > 0 &&
		   GPUGB_PRIVATE_TABLE_BYTES(state_columns, groups) + gpugb_private_cache_bytes(groups) > budget)
		groups--;
	return groups > 0 ? groups : 0;
}

/*
 * Private groups for an expected g: g with a quarter more room (estimates
 * and first strides undercount a little), within the capacity.
 */
int64_t
gpugb_private_groups_needed(double groups, int64_t capacity)
{
	double		want = ceil(groups * 1.25);

	if (want < 1)
		want = 1;
	return want < (double) capacity ? (int64_t) want : capacity;
}

/* Device bytes of one group in a global table at fill %: its share of the slots, keys, states. */
static double
group_bytes(const GpugbWorkload *w, int fill_percent)
{
	double		slot_bytes = w->slot_bytes > 0 ? w->slot_bytes : 8;

	return slot_bytes * 100.0 / fill_percent + 8.0 * (w->key_words + w->state_columns) + 4;
}

static void
size_global_table(const GpugbWorkload *w, GpugbStrategyChoice *c)
{
	double		groups = w->groups < 1 ? 1 : w->groups;
	int64_t		slots = MIN_TABLE_SLOTS;

	/*
	 * Do not trust a huge estimate (GROUP BY x % 1000 over 1e8 rows is
	 * estimated at 1e8 groups) beyond what growth makes cheap: one launch
	 * creates at most rows_per_launch groups, and a grow re-runs only the
	 * rows of one launch; so launches of 1M rows start at <= 4M groups,
	 * while one huge launch of device-resident rows trusts its estimate.
	 */
	double		cap = w->rows_per_launch > MAX_INITIAL_GROUPS ? w->rows_per_launch : MAX_INITIAL_GROUPS;

	if (groups > cap)
		groups = cap;
	c->fill_percent = 50;
	while (slots * (double) c->fill_percent / 100.0 < groups)
		slots *= 2;
	/* Slot word plus dense keys, null mask and states. */
	if (w->groups * group_bytes(w, c->fill_percent) > (double) GPUGB_DENSE_TABLE_BYTES)
		c->fill_percent = 83;
	c->table_slots = slots;
}

/*
 * Karnagel's L2 rule: the largest power-of-two table whose slots and (at
 * the table's fill) dense group storage fit in L2, when it would hold the
 * groups at under 50 % fill and is larger than the table sized for them.
 */
static bool
size_table_to_l2(const GpugbWorkload *w, const GpugbDeviceProps *props, GpugbStrategyChoice *c)
{
	double		groups = w->groups < 1 ? 1 : w->groups;
	double		bytes_per_slot = group_bytes(w, c->fill_percent) * c->fill_percent / 100.0;
	int64_t		slots = c->table_slots;

	while ((double) (slots * 2) * bytes_per_slot <= (double) props->l2_bytes)
		slots *= 2;
	if (slots == c->table_slots || groups >= 0.5 * (double) slots)
		return false;
	c->table_slots = slots;
	return true;
}

/*
 * The share of the rows the largest group must have for blocks to absorb
 * hot groups in shared memory: GPUGB_HOT_SHARE while the groups fit the
 * block table, rising with how far they overflow it (up to 4x), since
 * then fewer of the hot groups find a slot.  Kernel benchmark: Zipf 0.5
 * over 2^10 groups (largest 1.6 %) with four payloads and a 256-slot table
 * took 52 ms in shared_hash against global_hash's 37; with one payload and
 * 1024 slots, 15.5 against 20.5; Zipf 1.0 (13 %) kept shared_hash ahead of
 * the global table (with four payloads sort now beats both:
 * WIDE_SORT_HOT_SHARE).
 */
static double
hot_share_for_shared(double groups, int64_t shared_slots)
{
	double		overflow = groups / (double) shared_slots;

	return GPUGB_HOT_SHARE * (overflow < 1 ? 1 : overflow > 4 ? 4 : overflow);
}

/*
 * Whether PARTITION's lean kernel (cuda/partition_lean_kernel.cuh) would
 * take the workload's launches, and beat sort: one key word, COUNT and at
 * most one integer sum (or up to four, below), and at least GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY
 * rows a group in a launch (the executor's launch takes the lean kernel by
 * the same rule; it also needs no NULL key or input: with NULLs the rows
 * do not move, and PARTITION runs its generic kernel, about even with sort
 * at 2^22 groups and, with fewer rows a key, behind it.  So not where the
 * planner expects NULLs (nulls_expected, since session 43); where it cannot
 * tell, the caller also wants the generic kernel's block table to fit).
 * Auto asks for as many rows a key as the launch does where the rows stay
 * packed (LEAN_PARTITION_AUTO_MIN_ROWS_PER_KEY), more where they do not.  H200, 2^28 rows,
 * one payload, 2^22 groups (64 rows a group; session 32, call 2): 4-byte
 * keys 16.3 ms uniform and 19.2 Zipf 1.0 against sort's 23.7 and 23.7;
 * 8-byte keys 20.9 and 23.7 against 31.0 and 31.4.  At 2^24 (16 rows a
 * group; session 34, call 3, the lean kernel there): 4-byte keys 17.5 ms
 * uniform and 23.1 Zipf 1.0 against sort's 30.1 and 28.2, counts only 15.7
 * and 18.0 against 20.5 and 20.0; 8-byte keys 25.5 and 30.8 against 37.2
 * and 35.4.  At 2^26 (4 rows a group) sort stayed until session 43, when
 * the kernel over packed rows began to look group ids up at the flush
 * (LEAN_PARTITION_AUTO_MIN_ROWS_PER_KEY); a sum of wider words does not
 * pack, and its launch keeps the key cache's kernel, so the line of
 * LEAN_PARTITION_UNPACKED_AUTO_MIN_ROWS_PER_KEY.  Two to four sums only
 * over packed rows, int32 words in every summed input (cuda/
 * partition_move.cu; an int32 key since session 35, an 8-byte one since
 * session 36): the same rows-a-key rule, with the L2 line of
 * LEAN_PARTITION_PACKED_SUMS_MIN_L2_MULTIPLE (session 35, calls 5 and 6).
 */
static bool
partition_lean_pays(const GpugbWorkload *w, double groups)
{
	int			sums = w->lean_columns - 1;
	/* Counts only, or int32 words in every sum: the rows stay packed for the deferred lookups. */
	bool		packed = sums == 0 || w->sums_fit_int32;
	int			min_rows_per_key = packed ? LEAN_PARTITION_AUTO_MIN_ROWS_PER_KEY :
		LEAN_PARTITION_UNPACKED_AUTO_MIN_ROWS_PER_KEY;

	return w->lean_aggs && w->key_words == 1 && !w->nulls_expected &&
		(sums <= 1 || (sums <= GPUGB_PARTITION_LEAN_MAX_SUMS && w->sums_fit_int32)) &&
		w->rows_per_launch >= min_rows_per_key * groups;
}

/*
 * The table, in multiples of L2, beyond which PARTITION's lean kernel goes
 * before the global table or the partial lean table where it pays:
 * LEAN_PARTITION_MIN_L2_MULTIPLE for counts of an int32 key,
 * LEAN_PARTITION_PACKED_SUMS_MIN_L2_MULTIPLE for two or three sums
 * (partition_lean_pays holds: over packed rows) without skew, LEAN_PARTITION_SKEWED_ONE_SUM_MIN_L2_MULTIPLE for one sum with
 * skew, LEAN_PARTITION_ONE_SUM_MIN_L2_MULTIPLE for one int32 sum without,
 * LEAN_PARTITION_HASHED_SUMS_MIN_L2_MULTIPLE for four over an 8-byte key,
 * LEAN_PARTITION_INT32_FOUR_SUMS_MIN_L2_MULTIPLE for four over an int32
 * one, else SORT_MIN_L2_MULTIPLE, where sort pays too.
 */
static double
lean_partition_min_l2_multiple(const GpugbWorkload *w)
{
	int			sums = w->lean_columns - 1;
	bool		skewed = w->hot_share >= GPUGB_PARTIAL_LEAN_HOT_SHARE;

	if (sums == 1 && skewed)
		return LEAN_PARTITION_SKEWED_ONE_SUM_MIN_L2_MULTIPLE;
	if (sums == 1 && w->sums_fit_int32)
		return LEAN_PARTITION_ONE_SUM_MIN_L2_MULTIPLE;
	if (sums == 0 && w->key_fits_int32)
		return LEAN_PARTITION_MIN_L2_MULTIPLE;
	if (sums == GPUGB_PARTITION_LEAN_MAX_SUMS && !w->key_fits_int32 && w->sums_fit_int32)
		return LEAN_PARTITION_HASHED_SUMS_MIN_L2_MULTIPLE;
	if (sums == GPUGB_PARTITION_LEAN_MAX_SUMS && w->key_fits_int32 && w->sums_fit_int32)
		return LEAN_PARTITION_INT32_FOUR_SUMS_MIN_L2_MULTIPLE;
	if (sums >= 2 && (!skewed || sums == GPUGB_PARTITION_LEAN_MAX_SUMS))
		return LEAN_PARTITION_PACKED_SUMS_MIN_L2_MULTIPLE;
	return SORT_MIN_L2_MULTIPLE;
}

/* One key word in the global table's slots: the group-id table may look it up by the word (gpugb_lean_gid_pays). */
static bool
gid_word_key(const GpugbWorkload *w)
{
	return w->key_words == 1 && !w->tagged_slots_only;
}

/*
 * Too many groups for a keyed lean table (or one sum looked up by key word
 * from 2048 groups: gpugb_lean_gid_first), but counts and one to four
 * integer sums of as many as a table indexed by group id holds, without a
 * very hot group where rows are looked up by row (gpugb_lean_gid_pays) or
 * NULLs expected (the launch takes it only without NULL inputs), every
 * summed input declared int32 (a wider value takes the generic update, in
 * one block an SM: never measured, so not planned; a review's point): 4.2
 * ms at 2^14 groups with one payload, uniform, where auto took 9.8 before
 * (global_hash), and 5.2 at 2^12 with four, where it took 19.8 (session 45
 * call 6).  Fills *c and returns true where it plans that table.
 */
static bool
plan_gid_table(const GpugbWorkload *w, const GpugbDeviceProps *props, double groups, GpugbStrategyChoice *c)
{
	int			ranges = gpugb_lean_gid_split_ranges(w->lean_columns - 1, gid_word_key(w), groups, w->hot_share,
													 props);
	char		ranges_note[32] = "";

	if (!(w->lean_aggs && w->sums_fit_int32 && w->key_words > 0 && !w->lean_gid_off &&
		  !w->nulls_expected &&
		  (gpugb_lean_gid_pays(w->lean_columns - 1, gid_word_key(w), groups, w->hot_share, props) || ranges > 0)))
		return false;
	c->strategy = GPUGB_STRATEGY_SHARED_HASH;
	/*
	 * Every row looks its group id up in the global table: an L2-sized
	 * one, as GLOBAL_HASH's, spreads the keys over L2's lines.  In a
	 * table sized for the groups the kernel took 11.3 ms at 2^13-2^14
	 * groups with one payload, in GLOBAL_HASH's plan's 4.1 at 2^14
	 * (session 45 calls 5 and 1).
	 */
	(void) size_table_to_l2(w, props, c);
	if (ranges > 1)
		snprintf(ranges_note, sizeof(ranges_note), ", in %d group ranges", ranges);
	snprintf(c->reason, sizeof(c->reason),
			 "%.0f groups of counts and integer sums: each SM adds them in a shared-memory "
			 "table indexed by group id%s", groups, ranges_note);
	return true;
}

/*
 * SORT, or PARTITION (PARTITION_MIN_ROWS_PER_GROUP, partition_lean_pays), for a table beyond
 * SORT_MIN_L2_MULTIPLE x L2 (lean_partition_min_l2_multiple where the lean kernel pays: then
 * always PARTITION), and the reason.
 */
static void
choose_sort_beyond_l2(const GpugbWorkload *w, const GpugbDeviceProps *props, double groups,
					  double table_bytes, GpugbStrategyChoice *c)
{
	bool		lean = c->partition_slots > 0 && partition_lean_pays(w, groups);
	bool		partition = lean || (!w->key_fits_int32 && c->partition_slots > 0 &&
									 w->rows_per_launch / groups >= PARTITION_MIN_ROWS_PER_GROUP);

	c->strategy = partition ? GPUGB_STRATEGY_PARTITION : GPUGB_STRATEGY_SORT;
	snprintf(c->reason, sizeof(c->reason),
			 "table of %.0f MB exceeds L2 (%.0f MB) and a launch has %.0f rows per group%s",
			 table_bytes / 1048576.0, props->l2_bytes / 1048576.0, w->rows_per_launch / groups,
			 lean ? ", enough for the lean block table per partition" :
			 partition ? ", enough for a block table per partition" : "");
}

void
gpugb_choose_strategy(const GpugbWorkload *w, const GpugbDeviceProps *props,
					  GpugbStrategyChoice *c)
{
	double		groups = w->groups < 1 ? 1 : w->groups;
	double		table_bytes;
	bool		sort_pays;
	bool		lean_partition_first;
	GpugbSharedTablePlan lean;

	memset(c, 0, sizeof(*c));
	c->groups = groups;
	c->shared_slots = gpugb_shared_slots_for(w->state_columns, props);
	c->partition_slots = gpugb_partition_slots_for(w->state_columns, props);
	c->private_groups = gpugb_private_groups_for(w->state_columns, props);
	size_global_table(w, c);
	table_bytes = groups * group_bytes(w, c->fill_percent);

	/* What PRIVATE_HASH would keep per thread, chosen or forced (gpugb.strategy). */
	if (c->private_groups > 0 && groups <= c->private_groups)
		c->private_groups = gpugb_private_groups_needed(groups, c->private_groups);

	/* One sum looked up by key word, from 2048 groups: the table indexed by group id first. */
	if (w->lean_aggs &&
		gpugb_lean_gid_first(w->lean_columns - 1, gid_word_key(w), groups, w->hot_share, props) &&
		plan_gid_table(w, props, groups, c))
	{
		c->lean_gid_first = true;
		return;
	}
	/*
	 * Counts and integer sums only, groups a keyed lean table holds
	 * (gpugb_plan_lean_table, as the launch plans it): SHARED_HASH's lean
	 * kernel (cuda/lean_kernel.cuh) beats private states from one group on
	 * (kernel benchmark, H200, session 23, 2^28 rows: one group 2.3
	 * against 3.3 ms with one payload, 4.2 against 7.3 with four; four
	 * groups 2.1 against 4.0 and 4.5 against 12.2), and at 2^10 groups with
	 * four payloads global_hash's 33-102 ms and sort's 29-37 (grid at
	 * d2631ec: 8.9-12.4 ms forced).
	 */
	if (w->lean_aggs && gpugb_plan_lean_table(w->lean_columns, w->key_words, groups, props, &lean) &&
		!lean.partial)
	{
		c->strategy = GPUGB_STRATEGY_SHARED_HASH;
		if (w->key_words == 0 || groups <= 1)
			snprintf(c->reason, sizeof(c->reason),
					 "one group of counts and integer sums: each warp adds its rows with warp "
					 "reductions, each block in shared memory");
		else
			snprintf(c->reason, sizeof(c->reason),
					 "%.0f groups of counts and integer sums fit a block's shared-memory table",
					 groups);
		return;
	}
	/*
	 * Too many groups for two blocks' lean tables, but one key, at most one
	 * sum: the lean table of one block an SM (gpugb_lean_one_block_slots),
	 * 2.5-4.9 ms at 2^11-2^12 groups where global_hash took 13-17.
	 */
	if (w->lean_aggs && gpugb_lean_one_block_slots(w->lean_columns - 1, w->key_words, groups, props) > 0)
	{
		c->strategy = GPUGB_STRATEGY_SHARED_HASH;
		snprintf(c->reason, sizeof(c->reason),
				 "%.0f groups of counts and one integer sum fit one block's shared-memory table "
				 "an SM", groups);
		return;
	}
	/* Too many groups for a keyed lean table: one indexed by group id? */
	if (plan_gid_table(w, props, groups, c))
		return;
	if (c->private_groups > 0 && groups <= c->private_groups)
	{
		c->strategy = GPUGB_STRATEGY_PRIVATE_HASH;
		if (w->key_words == 0)
			snprintf(c->reason, sizeof(c->reason),
					 "one group: each thread folds its rows into private states");
		else
			snprintf(c->reason, sizeof(c->reason),
					 "%.0f groups: each thread keeps private states for up to %lld groups",
					 groups, (long long) c->private_groups);
		return;
	}
	/*
	 * Up to as many groups as the block table has slots: a block claims
	 * slots for at most half of them, and the others' rows update the
	 * global states directly, which still beat every row doing so (kernel
	 * benchmark, docs/kernelbench-2026-11-21e.md: 2^8 groups with four
	 * payloads in a 256-slot table, 61 ms against global_hash's 91; 2^10
	 * with one payload in 1024 slots, 15.6 against 17.8).
	 */
	if (c->shared_slots > 0 && groups <= c->shared_slots)
	{
		c->strategy = GPUGB_STRATEGY_SHARED_HASH;
		if (w->key_words == 0)
			snprintf(c->reason, sizeof(c->reason),
					 "one group: each block combines its rows in shared memory");
		else
			snprintf(c->reason, sizeof(c->reason),
					 "%.0f groups fit a block's shared-memory table of %lld slots",
					 groups, (long long) c->shared_slots);
		return;
	}
	/*
	 * Counts and integer sums, too many groups for a whole lean table, and
	 * skew: SHARED_HASH's partial lean table (gpugb_plan_lean_table), whose
	 * blocks keep the first keys they meet, the hot ones, and defer the
	 * others' rows to the global table.  Where the table is beyond
	 * PARTIAL_LEAN_MAX_L2_MULTIPLE x L2 and sort would pay, only for a group
	 * of GPUGB_VERY_HOT_SHARE or more; beyond SORT_MIN_L2_MULTIPLE x L2
	 * (lean_partition_min_l2_multiple), where
	 * PARTITION's lean kernel pays, only for a group of
	 * LEAN_PARTITION_MAX_HOT_SHARE or more (lean_partition_first).
	 * Sort does not pay while the global table is within SORT_MIN_L2_MULTIPLE
	 * times L2 or a group has few rows; the 5-25 % data below is all within
	 * L2 (up to 2^20 groups), none between one and three times L2.
	 * H200, 2^28 rows, 4-byte keys, medians of two runs (session 26, call 2):
	 *  - Zipf 1.5 (largest group 38 %), 2^12-2^26 groups: one payload
	 *    4.4-5.5 ms against sort's 19.0-20.9; four payloads 7.5-9.7
	 *    against 29.5-31.8;
	 *  - Zipf 1.0 (7-11 %), 2^12-2^20 (table within L2): one payload
	 *    9.4-18.5 ms against sort's 19.0-21.0 and the generic shared
	 *    kernel's 12.9-22.2; four payloads 16.9-45.4 against sort's
	 *    37.7-43.6 (the last, 2^20, 4 % slower);
	 *  - Zipf 1.0 beyond L2 (2^22-2^26), sort: 24.0-34.5 against 25.0-58.2;
	 *    since the partial blocks run 512 threads (session 28) the partial
	 *    table wins at 2^22 again, up to PARTIAL_LEAN_MAX_L2_MULTIPLE x L2;
	 *  - uniform, 2^12-2^20: global_hash 7.9-10.1 ms against 15.5-28.1.
	 */
	sort_pays = table_bytes > SORT_MIN_L2_MULTIPLE * props->l2_bytes &&
		w->rows_per_launch / groups >= SORT_MIN_ROWS_PER_GROUP && w->key_words > 0;

	/* LEAN_PARTITION_MAX_HOT_SHARE and lean_partition_min_l2_multiple say why. */
	lean_partition_first = w->hot_share < LEAN_PARTITION_MAX_HOT_SHARE && c->partition_slots > 0 &&
		partition_lean_pays(w, groups) &&
		(sort_pays || table_bytes > lean_partition_min_l2_multiple(w) * props->l2_bytes);

	if (w->lean_aggs && w->key_words > 0 &&
		(w->hot_share >= GPUGB_VERY_HOT_SHARE ||
		 (w->hot_share >= GPUGB_PARTIAL_LEAN_HOT_SHARE && !lean_partition_first &&
		  (!sort_pays || table_bytes <= PARTIAL_LEAN_MAX_L2_MULTIPLE * props->l2_bytes))) &&
		gpugb_plan_lean_table(w->lean_columns, w->key_words, groups, props, &lean))
	{
		c->strategy = GPUGB_STRATEGY_SHARED_HASH;
		snprintf(c->reason, sizeof(c->reason),
				 "the largest group has %.1f %% of the rows: blocks keep the hot groups in "
				 "%lld shared-memory slots, other rows use the global table",
				 100.0 * w->hot_share, (long long) lean.slots);
		return;
	}
	/* Any skew, few groups more than a lean table holds (gpugb_lean_partial_pays). */
	if (w->lean_aggs && w->key_words > 0 &&
		gpugb_plan_lean_table(w->lean_columns, w->key_words, groups, props, &lean) &&
		partial_table_holds_enough(groups, lean.slots))
	{
		c->strategy = GPUGB_STRATEGY_SHARED_HASH;
		snprintf(c->reason, sizeof(c->reason),
				 "%.0f groups of counts and integer sums: blocks keep a quarter of them or more in "
				 "%lld shared-memory slots, other rows use the global table",
				 groups, (long long) lean.slots);
		return;
	}
	/*
	 * ...unless PARTITION's lean kernel goes first over packed sums: four,
	 * Zipf 1.0 (largest group 6.3 %), 2^22 groups (session 35, call 5):
	 * 34.8 ms against sort's 46.0; three 23.2 against 38.3.  Other wide
	 * states (counts of many inputs) were not measured, and keep sort.
	 */
	if (w->hot_share >= WIDE_SORT_HOT_SHARE && w->state_columns >= GPUGB_WIDE_STATES &&
		w->key_words > 0 && !(lean_partition_first && w->lean_columns - 1 >= 2))
	{
		c->strategy = GPUGB_STRATEGY_SORT;
		snprintf(c->reason, sizeof(c->reason),
				 "the largest group has %.1f %% of the rows and %d state columns are too wide "
				 "to combine per row: sorted runs fold them first",
				 100.0 * w->hot_share, w->state_columns);
		return;
	}

	/*
	 * Sort also goes before hot groups in shared memory, unless the skew is
	 * extreme: beyond L2 the blocks' tables keep only the hot groups, and
	 * every other row still pays a DRAM miss.  Grid as above, one payload,
	 * Zipf 1.0 (largest group 6 % at 2^22): sort 23.2-32.8 ms against
	 * shared_hash's 30.4-69.1 from 2^22 to 2^26 groups; Zipf 1.5 (38 %)
	 * stays in shared_hash, 15.1 against sort's 20.6.  (Lean aggregates
	 * with a group of 5 % keep the partial table up to
	 * PARTIAL_LEAN_MAX_L2_MULTIPLE x L2 since session 28, unless PARTITION's
	 * lean kernel pays, since session 34: above.)
	 */
	if (lean_partition_first || (sort_pays && w->hot_share < GPUGB_VERY_HOT_SHARE))
	{
		choose_sort_beyond_l2(w, props, groups, table_bytes, c);
		return;
	}
	if (c->shared_slots > 0 &&
		w->hot_share >= hot_share_for_shared(groups, c->shared_slots))
	{
		c->strategy = GPUGB_STRATEGY_SHARED_HASH;
		snprintf(c->reason, sizeof(c->reason),
				 "the largest group has %.1f %% of the rows: blocks absorb hot groups in "
				 "shared memory rather than contend on global atomics",
				 100.0 * w->hot_share);
		return;
	}
	if (sort_pays)
	{
		choose_sort_beyond_l2(w, props, groups, table_bytes, c);
		return;
	}
	c->strategy = GPUGB_STRATEGY_GLOBAL_HASH;
	if (w->key_words > 0 && size_table_to_l2(w, props, c))
		snprintf(c->reason, sizeof(c->reason),
				 "%.0f groups: too many for shared memory, an L2-sized table of %lld slots "
				 "holds them at %.1f %% fill",
				 groups, (long long) c->table_slots, 100.0 * groups / (double) c->table_slots);
	else if (table_bytes <= (double) props->l2_bytes)
		snprintf(c->reason, sizeof(c->reason),
				 "%.0f groups: too many for shared memory, table of %.1f MB fits L2",
				 groups, table_bytes / 1048576.0);
	else if (table_bytes <= SORT_MIN_L2_MULTIPLE * props->l2_bytes)
		snprintf(c->reason, sizeof(c->reason),
				 "%.0f groups: table of %.1f MB, within %.0f x L2, still serves hash probes well",
				 groups, table_bytes / 1048576.0, SORT_MIN_L2_MULTIPLE);
	else
		snprintf(c->reason, sizeof(c->reason),
				 "%.0f groups, %.1f rows per group per launch: too few to gain from sorting",
				 groups, w->rows_per_launch / groups);
}

void
gpugb_workload_observed(const GpugbWorkload *planned, double rows_seen, double groups_seen,
						GpugbWorkload *observed)
{
	double		total_rows = planned->rows > rows_seen ? planned->rows : rows_seen;

	double		lo,
				hi;

	*observed = *planned;
	observed->rows = total_rows;
	if (rows_seen <= 0)
		return;
	if (groups_seen >= rows_seen)
	{
		observed->groups = total_rows;	/* all distinct so far: no bound but the rows */
		return;
	}

	/*
	 * n rows drawn evenly from G groups show G (1 - e^(-n/G)) of them: solve
	 * for G (increasing in G) by bisection.  Many repeats give G ~ what was
	 * seen; few repeats a G well beyond it, never beyond the rows.
	 */
	lo = groups_seen;
	/* G (1 - e^(-n/G)) >= n - n^2 / 2G bounds G by n^2 / 2 (n - seen). */
	hi = rows_seen * rows_seen / (2 * (rows_seen - groups_seen));
	if (hi > total_rows)
		hi = total_rows;
	if (hi < lo)
		hi = lo;
	for (int i = 0; i < 100 && hi - lo > 0.5; i++)
	{
		double		mid = (lo + hi) / 2;

		if (mid * -expm1(-rows_seen / mid) < groups_seen)
			lo = mid;
		else
			hi = mid;
	}
	/*
	 * Whole groups, never fewer than seen: the bisection's half-group
	 * tolerance must not turn 4 groups seen into 4.25 (and a 4-group
	 * private slice into too small a one).
	 */
	observed->groups = floor((lo + hi) / 2 + 0.5);
	if (observed->groups < groups_seen)
		observed->groups = groups_seen;

	/*
	 * Chao1 (d + f1^2 / 2 f2; f2 = 0: d + f1 (f1 - 1) / 2), a lower bound
	 * on the groups from how many were seen once and twice.  The model
	 * above assumes rows drawn evenly; a skewed sample's hot groups soak up
	 * its rows, and it reads a tail of singletons as a small domain: 2^20
	 * rows of Zipf 1.0 over 2^22 keys (4.18e6 in 2^28 rows) show 3.04e5
	 * groups, which it reads as 3.15e5 and Chao1 as 1.16e6; uniform ones
	 * both read as 4.2e6 (a simulation, session 38).  Auto's one PARTITION
	 * launch after such a check overflowed its table for 51 s (H200).
	 */
	if (planned->sample_once > 0)
	{
		double		f1 = planned->sample_once,
					f2 = planned->sample_twice;
		double		chao1 = groups_seen + (f2 > 0 ? f1 * f1 / (2 * f2) : f1 * (f1 - 1) / 2);

		if (chao1 > total_rows)
			chao1 = total_rows;
		if (chao1 > observed->groups)
			observed->groups = floor(chao1 + 0.5);
	}

	/*
	 * Fewer than planned, but not by much, or from a skewed sample that has
	 * not seen its groups repeat: skew explains that as well as a high
	 * estimate does, so the plan stands (OBSERVED_REFUTES_FACTOR,
	 * SKEWED_SAMPLE_MIN_ROWS_PER_GROUP).
	 */
	if (observed->groups < planned->groups &&
		(observed->groups * OBSERVED_REFUTES_FACTOR >= planned->groups ||
		 (planned->hot_share >= GPUGB_HOT_SHARE &&
		  rows_seen < SKEWED_SAMPLE_MIN_ROWS_PER_GROUP * groups_seen)))
		observed->groups = planned->groups;
}

const char *
gpugb_strategy_name(GpugbStrategy strategy)
{
	if ((int) strategy < 0 || strategy >= GPUGB_N_STRATEGIES)
		return "unknown";
	return strategy_names[strategy];
}
