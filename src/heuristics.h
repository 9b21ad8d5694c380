/*-------------------------------------------------------------------------
 * heuristics.h
 *    Which device strategy groups a query's rows, and how big its tables
 *    start: a pure function of the workload (planner estimates, or what the
 *    device has seen so far) and the device's properties.
 *
 * Plain C with no PostgreSQL or CUDA headers: the planner (explain of the
 * planned strategy), the CUDA module (run-time correction, shared table
 * size) and the kernel benchmark all call the same code, and the unit test
 * (test/unit/heuristics_test.c) runs it in CI without a GPU.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_HEURISTICS_H
#define GPUGB_HEURISTICS_H

#include <stdbool.h>
#include <stdint.h>

#include "../cuda/gpugb_device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct GpugbWorkload
{
	double		rows;			/* input rows (estimated or seen) */
	double		rows_per_launch;	/* rows one kernel launch sees (a stride) */
	double		groups;			/* groups (estimated or seen) */
	int			key_words;		/* 8-byte words per key; 0 = no GROUP BY */
	int			state_columns;	/* 8-byte state columns per group */
	double		hot_share;		/* rows of the largest group / rows; 0 = unknown */
	int			slot_bytes;		/* of one global hash slot; 0 = 8 */
	bool		key_fits_int32;	/* one key, an int32: SORT sorts by the key itself */
	/*
	 * COUNT and integer SUM only (at most GPUGB_LEAN_MAX_SUMS sums), keys a
	 * block key cache holds or none: SHARED_HASH takes its lean kernel
	 * (cuda/lean_kernel.cuh).
	 */
	bool		lean_aggs;
	int			lean_columns;	/* generic state columns its block states take at most:
								 * the sums and one for the counts */
	/*
	 * Every summed input's words are int32 values (the executor declares
	 * int2, int4 and bool columns): with one key word (an int32 key in keyed
	 * slots or an 8-byte one in pair slots), PARTITION's lean kernel takes
	 * up to GPUGB_PARTITION_LEAN_MAX_SUMS sums, over packed rows.
	 */
	bool		sums_fit_int32;
	/* spec.lean_gid_off (an experiment): no block table indexed by group id (gpugb_lean_gid_pays) */
	bool		lean_gid_off;
	/* spec.tagged_slots_only (A/B runs): no key in the global table's slots, so no lookup by key word */
	bool		tagged_slots_only;
	/*
	 * NULLs expected in a key or an aggregate input (the planner's
	 * gpugb_estimate_nulls): a launch with some does not move its rows, and
	 * PARTITION runs its generic kernel, not the lean one.
	 */
	bool		nulls_expected;
	/*
	 * The run-time check's sample: its groups seen exactly once and twice,
	 * for Chao1's estimate (gpugb_workload_observed; 0: not counted, or
	 * spec.observed_uniform_only).
	 */
	double		sample_once;
	double		sample_twice;
} GpugbWorkload;

typedef struct GpugbStrategyChoice
{
	GpugbStrategy strategy;
	int64_t		shared_slots;	/* slots of one block's shared table (0 if none fits) */
	int64_t		partition_slots;	/* slots of PARTITION's per-block key table (0 if none fits) */
	int64_t		private_groups;	/* groups PRIVATE_HASH keeps per thread: those expected when
								 * it is the choice, else the most that fit (0: none) */
	int64_t		table_slots;	/* initial capacity of the global table */
	int			fill_percent;	/* groups the global table holds per 100 slots */
	double		groups;			/* the groups the choice was made for */
	/*
	 * SHARED_HASH planned the table indexed by group id first
	 * (gpugb_lean_gid_first), with its L2-sized global table: the launches
	 * may take it before the keyed tables (cuda/launch.cu) only then.
	 */
	bool		lean_gid_first;
	char		reason[160];	/* why, for EXPLAIN */
} GpugbStrategyChoice;

/* Bytes one shared-memory slot of a block's table takes. */
#define GPUGB_SHARED_SLOT_BYTES(state_columns) (4 + 8 * (int64_t) (state_columns))
/* Dynamic shared memory of a block's table: the slots and a claimed-slot counter. */
#define GPUGB_SHARED_TABLE_BYTES(state_columns, slots) \
	((int64_t) (slots) * GPUGB_SHARED_SLOT_BYTES(state_columns) + 16)
/*
 * PARTITION's block table is keyed by the key itself: per slot the states,
 * the 8-byte key hash, the global group id and a representative row, and
 * per two slots the number of one claimed slot (the flush's list).
 */
#define GPUGB_PARTITION_SLOT_BYTES(state_columns) (18 + 8 * (int64_t) (state_columns))
#define GPUGB_PARTITION_TABLE_BYTES(state_columns, slots) \
	((int64_t) (slots) * GPUGB_PARTITION_SLOT_BYTES(state_columns) + 16)
/*
 * PRIVATE_HASH: every thread of a block keeps `groups` groups' states of its
 * own in shared memory (cuda/private_kernel.cuh).
 */
#define GPUGB_PRIVATE_THREADS 256
#define GPUGB_PRIVATE_TABLE_BYTES(state_columns, groups) \
	((int64_t) (groups) * (state_columns) * 8 * GPUGB_PRIVATE_THREADS)
/*
 * More private groups than this cost each thread too much shared memory
 * per row's worth of work, and the shared table serves them well.
 */
#define GPUGB_PRIVATE_MAX_GROUPS 32
/* Most SUMs a launch may have and take SHARED_HASH's lean kernel (cuda/lean_kernel.cuh). */
#define GPUGB_LEAN_MAX_SUMS 4
/* Most key columns a block key cache entry holds (cuda/key_cache.cuh). */
#define GPUGB_KEY_CACHE_MAX_KEYS 2
/*
 * Bytes of a block key cache of `slots` entries (cuda/key_cache.cuh): a gid
 * word per slot and the counters; with keys, their words and a null mask.
 */
#define GPUGB_KEY_CACHE_BYTES(n_keys, slots) \
	((int64_t) (slots) * 4 + 16 + \
	 ((n_keys) > 0 ? (int64_t) (slots) * (8 * (int64_t) (n_keys) + 4) : 0))
/*
 * Shared memory of a lean block table (cuda/lean_kernel.cuh) of `slots`
 * slots: 8 bytes a sum, `count_columns` columns of uint32 counts rounded
 * up to 8-byte words, then the key cache.
 */
#define GPUGB_LEAN_TABLE_BYTES(n_sums, count_columns, n_keys, slots) \
	((int64_t) (slots) * 8 * (int64_t) (n_sums) + \
	 8 * (((int64_t) (slots) * 4 * (int64_t) (count_columns) + 7) / 8) + \
	 GPUGB_KEY_CACHE_BYTES(n_keys, slots))
/*
 * Shared memory of SHARED_HASH's table indexed by group id
 * (cuda/lean_gid_kernel.cuh) of `slots` ids: 8 bytes a sum and a uint32
 * count, no keys.
 */
#define GPUGB_LEAN_GID_TABLE_BYTES(n_sums, slots) \
	((int64_t) (slots) * (8 * (int64_t) (n_sums) + 4))
/*
 * PRIVATE_HASH's block key cache (cuda/key_cache.cuh): twice the slots of
 * the groups (a cache claims at most half), at least 32.
 */
static inline int64_t
gpugb_private_cache_slots(int64_t groups)
{
	int64_t		slots = 32;

	while (slots < 2 * groups)
		slots *= 2;
	return slots;
}

/* Its largest size: with as many key columns as an entry holds. */
static inline int64_t
gpugb_private_cache_bytes(int64_t groups)
{
	return GPUGB_KEY_CACHE_BYTES(GPUGB_KEY_CACHE_MAX_KEYS, gpugb_private_cache_slots(groups));
}
/* Smallest shared table worth having: fewer slots and blocks overflow at once. */
#define GPUGB_MIN_SHARED_SLOTS 64
/* Smallest keyed shared table (gpugb_plan_shared_table). */
#define GPUGB_MIN_KEYED_SLOTS 256
/* A keyed SHARED_HASH table: its states, then its key cache. */
#define GPUGB_SHARED_KEYED_TABLE_BYTES(state_columns, n_keys, slots) \
	((int64_t) (slots) * 8 * (int64_t) (state_columns) + GPUGB_KEY_CACHE_BYTES(n_keys, slots))
/*
 * A keyed shared table loses to the gid-keyed one where one group has this
 * share of the rows or more (kernel benchmark, same run, 2^28 rows: Zipf
 * 1.0 over 16 groups, 30 %: 0.75-0.94 of the gid-keyed speed; Zipf 1.5,
 * about 40 %: 0.57-0.99 from 2^6 groups on; Zipf 1.0 over 64-1024 groups,
 * 13-21 %: up to 2.7x faster).
 */
#define GPUGB_KEYED_MAX_HOT_SHARE 0.25
/*
 * Skew (measured after the first launch; the planner does not know it): a
 * group with this share of the rows makes every warp's atomics meet on the
 * same global address, which blocks absorb in shared memory instead.
 */
#define GPUGB_HOT_SHARE 0.01
/* ...unless the table is beyond L2 and the skew short of this (heuristics.c). */
#define GPUGB_VERY_HOT_SHARE 0.25
/*
 * A partial lean table (SHARED_HASH's lean kernel, more groups than it
 * holds) beats the generic kernels from a group of this share on; auto
 * takes it at this share while the global table is within 12 x L2
 * (heuristics.c, PARTIAL_LEAN_MAX_L2_MULTIPLE; sessions 26 and 28), and
 * beyond 3 x L2 only where PARTITION's lean kernel does not pay or the
 * group has 10 % or more (LEAN_PARTITION_MAX_HOT_SHARE, session 34).
 */
#define GPUGB_PARTIAL_LEAN_HOT_SHARE 0.05
/*
 * ...and at any skew while the groups are at most this many times its
 * slots (each block then keeps at least a quarter of the groups; session
 * 28, heuristics.c gpugb_lean_partial_pays).
 */
#define GPUGB_PARTIAL_LEAN_MAX_GROUPS_PER_SLOT 2
#define GPUGB_WIDE_STATES 8
/* Global tables beyond this size hold 83 % fill instead of 50 % (Karnagel). */
#define GPUGB_DENSE_TABLE_BYTES (2ll << 30)

extern int64_t gpugb_shared_slots_for(int state_columns, const GpugbDeviceProps *props);

/* What a SHARED_HASH launch's block table is (gpugb_plan_shared_table). */
typedef struct GpugbSharedTablePlan
{
	bool		keyed;			/* keyed by the key: the table is the block's key cache */
	bool		partial;		/* keyed, but too small for all the groups (lean plans only) */
	int64_t		slots;
	int64_t		bytes;			/* dynamic shared memory of a block */
} GpugbSharedTablePlan;

extern void gpugb_plan_shared_table(int64_t planned_slots, int state_columns, int n_keys,
									double groups_expected, double hot_share,
									const GpugbDeviceProps *props, GpugbSharedTablePlan *plan);
extern bool gpugb_lean_partial_pays(double hot_share, double groups_expected, int64_t slots);
extern bool gpugb_plan_lean_table(int columns, int n_keys, double groups_expected,
								  const GpugbDeviceProps *props, GpugbSharedTablePlan *plan);
extern int64_t gpugb_lean_one_block_max_slots(int n_sums, int n_keys, const GpugbDeviceProps *props);
extern int64_t gpugb_lean_one_block_slots_leaving(int n_sums, int n_keys, int64_t reserve,
												 const GpugbDeviceProps *props);
/*
 * PARTITION's lean kernel's block table (cuda/launch.cu,
 * gpugb_partition_lean_slots, and so its partitions' sizes) leaves this
 * much of the SM's shared memory to L1 where gpugb_partition_l1_reserve_pays
 * (gpugb_lean_one_block_slots_leaving; 32768 halves the table on the
 * H200).  Session 55 wrote it as a constant for every launch; session 56
 * measured it so (H200, 2^28 rows, 3 reps, forced PARTITION, call 1):
 * 4-byte keys with four payloads 1.07-1.27x faster at 2^22-2^26 (uniform
 * to Zipf 1.0; 23.8 -> 19.9 ms at 2^22 uniform, where six of the 29 misses
 * of 3x Thrust are), but 0.62-0.66x at 2^20 (another partition plan ran),
 * 0.95-0.96x at Zipf 1.5, 8-byte keys with four payloads 0.77-0.98x, one
 * payload 0.83-0.96x.  Session 58 made it the rule below.  The same
 * reserve for SHARED_HASH's one-block partial table lost (0.91-0.95x at
 * Zipf 1.0-1.5, 2^16-2^20) and is gone.
 */
#define GPUGB_PARTITION_L1_RESERVE_BYTES 32768
/* The rule's bounds: at least this many sums, groups, and no group this hot (GPUGB_VERY_HOT_SHARE). */
#ifndef GPUGB_PARTITION_L1_RESERVE_MIN_SUMS
#define GPUGB_PARTITION_L1_RESERVE_MIN_SUMS 4
#endif
/*
 * From 0.9 x 2^21 groups: session 59 (call 3, same A/B, four payloads) saw
 * 1.20-1.25x at 2^21 and 0.91-1.00x at 2^20; a Zipf 1.0 draw of 2^22 keys
 * holds 4,181,415 of them, which a bound of exactly 2^22 left out (1.23x
 * forgone), hence the 0.9.
 */
#define GPUGB_PARTITION_L1_RESERVE_MIN_GROUPS (0.9 * 2 * 1024 * 1024)
/*
 * Whether a PARTITION launch's lean table leaves GPUGB_PARTITION_L1_RESERVE_BYTES
 * to L1: n_sums SUMs over one key word that fits int32 (key_int32),
 * groups_expected distinct keys in the launch, hot_share the largest
 * group's share of the rows (0 unknown).
 */
extern bool gpugb_partition_l1_reserve_pays(int n_sums, bool key_int32, double groups_expected,
											double hot_share);
extern int64_t gpugb_lean_one_block_slots(int n_sums, int n_keys, double groups_expected,
										  const GpugbDeviceProps *props);
/*
 * SHARED_HASH's block table indexed by group id (cuda/lean_gid_kernel.cuh):
 * the groups one block an SM holds for n_sums sums (0 where n_sums is
 * outside 1..GPUGB_LEAN_GID_MAX_SUMS), and whether a launch of
 * groups_expected groups that the lean tables do not all hold takes it;
 * word_key: the launch has one key word without NULLs or a row list, kept
 * in the global table's slots (keyed or pair: not spec.tagged_slots_only),
 * which the kernel looks up by the word loaded a step ahead where it has
 * one sum (cuda/launch.cu, lean_gid_by_word).
 */
#define GPUGB_LEAN_GID_MAX_SUMS 4
extern int64_t gpugb_lean_gid_max_groups(int n_sums, const GpugbDeviceProps *props);
/*
 * The group-id table's launch takes no more slots than leave this much of
 * an SM's shared memory to L1, where the groups expected fit so
 * (gpugb_lean_gid_launch_slots; 0: every slot it may, the A/B baseline).
 */
#ifndef GPUGB_GID_L1_RESERVE_BYTES
#define GPUGB_GID_L1_RESERVE_BYTES 32768
#endif
extern int64_t gpugb_lean_gid_launch_slots(int n_sums, double groups_expected, int64_t most,
										   const GpugbDeviceProps *props);
extern bool gpugb_lean_gid_pays(int n_sums, bool word_key, double groups_expected, double hot_share,
								const GpugbDeviceProps *props);
extern bool gpugb_lean_gid_split_pays(int n_sums, bool word_key, double groups_expected, double hot_share,
									  const GpugbDeviceProps *props);
/*
 * The group-id table once a sum and group range: the ranges a launch takes
 * (0: no split; 1: once a sum only), at most GPUGB_GID_MAX_RANGES of them
 * and GPUGB_GID_MAX_RANGE_PASSES ranges times sums (src/heuristics.c says
 * why).  Build defines may change them for an A/B.
 */
#ifndef GPUGB_GID_MAX_RANGES
#define GPUGB_GID_MAX_RANGES 4
#endif
#ifndef GPUGB_GID_MAX_RANGE_PASSES
#define GPUGB_GID_MAX_RANGE_PASSES 8
#endif
extern int	gpugb_lean_gid_split_ranges(int n_sums, bool word_key, double groups_expected, double hot_share,
										const GpugbDeviceProps *props);
/*
 * Whether a launch of one sum whose rows the group-id table looks up by key
 * word (word_key) takes that table before the keyed lean tables, which
 * hold its groups: from GPUGB_GID_FIRST_MIN_GROUPS groups expected, where
 * no group has GPUGB_GID_FIRST_MAX_HOT_SHARE of the rows (src/heuristics.c
 * says why).  Build defines may change them for an A/B (KB_DEFINES,
 * DEVICE_DEFINES).
 */
#ifndef GPUGB_GID_FIRST_MIN_GROUPS
#define GPUGB_GID_FIRST_MIN_GROUPS 2048
#endif
#ifndef GPUGB_GID_FIRST_MAX_HOT_SHARE
#define GPUGB_GID_FIRST_MAX_HOT_SHARE 0.05
#endif
extern bool gpugb_lean_gid_first(int n_sums, bool word_key, double groups_expected, double hot_share,
								 const GpugbDeviceProps *props);
/* From this many groups expected the fast lean kernel's whole table takes one wide block an SM. */
#define GPUGB_LEAN_FAST_WIDE_MIN_GROUPS 64
extern bool gpugb_lean_fast_wide_pays(int n_sums, double groups_expected);
extern int64_t gpugb_partition_slots_for(int state_columns, const GpugbDeviceProps *props);
/*
 * Most partition bits: three 8-bit radix passes.  At 2^26 groups, 16 bits
 * left 1024 keys a partition, twice what a block table takes: half the
 * rows went to the global table one by one (kernel benchmark, H200, 2^28
 * rows: the aggregation 118 ms against 18 ms at 2^22 groups).
 */
#define GPUGB_PARTITION_MAX_BITS 24
extern int	gpugb_partition_bits(double distinct, int64_t rows, int64_t slots, int64_t min_parts,
								 int max_bits);
extern bool gpugb_partition_lean_rows_pay(double rows, double distinct);
/*
 * Whether PARTITION moves packed rows of row_bytes bytes into 2^bits
 * partitions with its one-pass scatter (cuda/partition_scatter.cuh), whose
 * tiles are tile_rows rows, rather than CUB's radix sort.
 */
extern bool gpugb_partition_scatter_pays(int row_bytes, int bits, int64_t tile_rows);
extern int64_t gpugb_private_groups_for(int state_columns, const GpugbDeviceProps *props);
extern int64_t gpugb_private_groups_needed(double groups, int64_t capacity);
extern void gpugb_choose_strategy(const GpugbWorkload *w, const GpugbDeviceProps *props,
								  GpugbStrategyChoice *choice);
/*
 * Run-time correction: the workload as it looks after the device has seen
 * rows_seen rows forming groups_seen groups.  Many repeats already: the key
 * domain is mostly seen, so the final count is about what we have (the
 * planner's GROUP BY mod(x, 1000) estimate of 1e8 becomes 1000).  Nearly
 * all distinct: groups grow with the rows, extrapolated to planned->rows.
 * planned->hot_share is the sample's largest group's share: a skewed sample
 * that has not seen its groups repeat leaves the plan's count standing.
 * Where planned->sample_once / sample_twice are counted (f1, f2), the
 * groups are at least Chao1's d + f1^2 / 2 f2, which skew does not fool as
 * it does the evenly-drawn model.
 */
extern void gpugb_workload_observed(const GpugbWorkload *planned, double rows_seen,
									double groups_seen, GpugbWorkload *observed);
/* The named strategy, or -1 for an unknown name. */
extern int	gpugb_strategy_from_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif							/* GPUGB_HEURISTICS_H */
