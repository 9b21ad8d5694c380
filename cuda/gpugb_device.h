/*-------------------------------------------------------------------------
 * gpugb_device.h
 *    The one plain-C boundary between PostgreSQL code (src/) and CUDA (cuda/).
 *
 * Nothing CUDA-specific crosses this header: handles are opaque, every call
 * returns a GpugbStatus, and the text of the last failure is kept in a
 * process-local buffer (gpugb_last_error()).  No C++ exception and no CUDA
 * error ever reaches PostgreSQL: src/ turns a status into a fallback or an
 * ereport.  The library must load on a machine with no GPU and no driver,
 * so the CUDA runtime is linked statically and libcuda is opened lazily by
 * it; gpugb_device_probe() reports GPUGB_NO_DEVICE there.
 *
 * Value representation: every group key and every aggregate input travels
 * as one 8-byte word per row plus one null byte per row.  Integer-like types
 * (int2/4/8, date, timestamp[tz], bool) are sign-extended to int64; float4
 * and float8 are widened to double (exact).  A NULL key has value 0 and its
 * null byte set, so whole-word comparison of (values, null mask) is key
 * equality under GROUP BY semantics (all NULLs form one group).
 *
 * Concurrency: one handle is used by one thread.  The module keeps a
 * process-wide tally of device memory, pinned memory and streams it holds
 * (gpugb_device_usage), so tests can prove nothing leaks.
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_DEVICE_H
#define GPUGB_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUGB_MAX_KEYS 32
#define GPUGB_MAX_INPUTS 64
#define GPUGB_MAX_AGGS 64

typedef enum GpugbStatus
{
	GPUGB_OK = 0,
	GPUGB_NO_DEVICE,			/* no GPU, no driver, or a driver too old */
	GPUGB_OUT_OF_MEMORY,		/* device/pinned allocation failed or over the limit */
	GPUGB_CUDA_ERROR,			/* any other CUDA failure */
	GPUGB_INVALID_ARGUMENT		/* a spec the device code cannot run */
} GpugbStatus;

/* Device aggregate operations; avg is SUM_* plus its count, finished on the host. */
typedef enum GpugbAggOp
{
	GPUGB_AGG_COUNT_STAR,		/* count: rows of the group; no input column */
	GPUGB_AGG_COUNT,			/* count: non-null inputs */
	GPUGB_AGG_SUM_INT,			/* int128 sum of int64 inputs (value=lo, value_hi=hi) */
	GPUGB_AGG_SUM_FLOAT,		/* double sum, starting from -0.0 (the identity) */
	GPUGB_AGG_MIN_INT,			/* int64 */
	GPUGB_AGG_MAX_INT,
	GPUGB_AGG_MIN_FLOAT,		/* double, PostgreSQL order: NaN above +Infinity */
	GPUGB_AGG_MAX_FLOAT,

	/*
	 * Float variance (gpugb_fsum.h has the arithmetic and its error
	 * argument).  Inputs are finite doubles (a NaN or infinite input gives
	 * an unspecified result).  Each group keeps a shift K, the first input
	 * of the group to reach the device (any one: the order is free), and
	 * the sums of x - K and (x - K)^2 as unevaluated double-double pairs
	 * (hi + lo), compensated at every addition, so both are accurate to
	 * about n * 2^-106 of their magnitude whatever the order of rows.
	 * SUM_SHIFTED and SUM_SHIFTED_SQ need a SHIFT_FLOAT over the same input
	 * in the spec (else create fails with GPUGB_INVALID_ARGUMENT).
	 */
	GPUGB_AGG_SHIFT_FLOAT,		/* K's bit pattern; GPUGB_SHIFT_UNSET without input */
	GPUGB_AGG_SUM_SHIFTED,		/* sum(x - K): value = hi, value_hi = lo (double bits) */
	GPUGB_AGG_SUM_SHIFTED_SQ	/* sum((x - K)^2): the same */
} GpugbAggOp;

/*
 * How the device groups rows (src/heuristics.c chooses; gpugb.strategy can
 * force one).  Every strategy returns the same groups and states; they
 * differ only in where rows are combined:
 *   GLOBAL_HASH  each row probes the global open-addressing table and
 *                updates the group's states there (warp-combined atomics);
 *   SHARED_HASH  rows still find their group id in the global table, but
 *                each thread block folds its rows into a small table of
 *                states in shared memory and flushes it once at the end;
 *                groups a block cannot fit go straight to the global states
 *                (Karnagel et al.: shared placement for small g);
 *   SORT         each stride is radix-sorted by key (CUB), equal keys form
 *                runs, one lookup per run finds the group id, and rows are
 *                folded run by run (Wu et al. SGB; Gurumurthy et al.'s
 *                running aggregate through the warp combine);
 *   PARTITION    each stride is stably radix-partitioned (CUB, one to three
 *                passes) by the high bits of the key hash's home slot, so a
 *                partition's rows probe one contiguous slice of the global
 *                table; blocks take the partitions in tiles (a hot key's
 *                partition is cut between blocks) and aggregate each in
 *                a shared-memory table keyed by the key itself, look each
 *                of its distinct keys up in the global table once and add
 *                its states once (Wu et al. PGB-TR; many groups);
 *   PRIVATE_HASH rows find their group id in the global table, and each
 *                thread folds its rows into its own private states (in
 *                shared memory, one slice per thread) with no atomic and no
 *                warp exchange at all; a block's threads combine their
 *                states once at the end (Karnagel et al. §5.1 "private"
 *                placement: the answer to contention at tiny g).  Groups
 *                beyond the private slots go straight to the global states.
 */
typedef enum GpugbStrategy
{
	GPUGB_STRATEGY_GLOBAL_HASH = 0,
	GPUGB_STRATEGY_SHARED_HASH,
	GPUGB_STRATEGY_SORT,
	GPUGB_STRATEGY_PARTITION,
	GPUGB_STRATEGY_PRIVATE_HASH,
	GPUGB_N_STRATEGIES
} GpugbStrategy;

typedef struct GpugbAggSpec
{
	GpugbAggOp	op;
	int			input;			/* input column index, -1 for COUNT_STAR */
} GpugbAggSpec;

/*
 * Ordered output (the planner advertised pathkeys over the group keys):
 * how one key word orders, as PostgreSQL's default btree order of its type.
 *   INT    the word as a signed int64 (int2/4/8, date, time, timestamp[tz],
 *          bool, numeric(p, s) and free numeric values with NaN as INT64_MAX,
 *          interval spans);
 *   FLOAT  the word as a double's bits, in PostgreSQL's float order: -0 = 0,
 *          every NaN equal and above +Infinity.
 * Text, char(n) and uuid words do not order as their values do (packed
 * bytes, dictionary ids), so the planner never asks to order by them.
 */
typedef enum GpugbOrderKind
{
	GPUGB_ORDER_INT = 0,
	GPUGB_ORDER_FLOAT,
	GPUGB_ORDER_UINT			/* unsigned bits: the low word of a 128-bit sum (order.cu) */
} GpugbOrderKind;

/* GpugbGroupBySpec.partition_l1_reserve: the rule (0), or never / always (A/B runs and tests). */
#define GPUGB_L1_RESERVE_BY_RULE 0
#define GPUGB_L1_RESERVE_NEVER (-1)
#define GPUGB_L1_RESERVE_ALWAYS 1

/*
 * One key of ordered output: a GROUP BY key word, or (by_count) the count
 * of a COUNT_STAR or COUNT device aggregate, which is never NULL and orders
 * as an int64 (kind INT): ORDER BY count(*) DESC LIMIT 10 then needs no
 * Sort, and the node hands out only the rows the LIMIT takes.  Or
 * (by_value) the value of a SUM_INT (its 128-bit state), MIN_INT or
 * MAX_INT aggregate, NULL where the aggregate met no non-NULL input, as
 * PostgreSQL's sum/min/max of integers are.
 */
typedef struct GpugbOrderKey
{
	int			key;			/* key word index, 0 .. n_keys - 1 (not by_count) */
	GpugbOrderKind kind;
	bool		descending;
	bool		nulls_first;
	bool		by_count;		/* order by aggregate agg's count, not a key word */
	bool		by_value;		/* order by aggregate agg's value, not a key word */
	int			agg;			/* by_count, by_value: device aggregate index */
} GpugbOrderKey;

typedef struct GpugbGroupBySpec
{
	int			n_keys;			/* 0 .. GPUGB_MAX_KEYS; 0 = one global group */
	int			n_inputs;		/* 0 .. GPUGB_MAX_INPUTS */
	int			n_aggs;			/* 1 .. GPUGB_MAX_AGGS */
	GpugbAggSpec aggs[GPUGB_MAX_AGGS];
	int64_t		estimated_groups;	/* planner's estimate; sizes the first table */
	int64_t		stride_rows;	/* rows one stride buffer holds */
	int64_t		device_memory_limit;	/* bytes this handle may hold on the device; 0 = no limit */
	GpugbStrategy strategy;		/* the strategy to start with */
	/*
	 * Run-time correction: re-decide the strategy from the groups actually
	 * seen after the first stride (false when the strategy was forced).
	 */
	bool		allow_switch;
	double		estimated_rows;	/* planner's input rows; 0 = unknown */
	/*
	 * The planner's estimate of the largest group's share of the rows, from
	 * the keys' statistics (src/skew_estimate.c); 0 = unknown.  The planned
	 * strategy reads it; the run-time check replaces it with what it saw.
	 */
	double		estimated_hot_share;
	/*
	 * The planner expects NULLs in a key or an aggregate input (statistics,
	 * FILTER or NULLIF, outer joins: src/skew_estimate.c): the planned
	 * strategy does not count on PARTITION's lean kernel, which such
	 * launches do not take.
	 */
	bool		estimated_nulls;
	/*
	 * Rows arrive only through gpugb_groupby_aggregate_device (kernel
	 * benchmark): no pinned stride buffers are allocated.
	 */
	bool		device_resident;
	/*
	 * Rows arrive only through gpugb_groupby_append (parallel ingest's
	 * direct copy): the strides get device buffers but no pinned host ones
	 * (cudaHostAlloc costs about 0.5 ms per MB), and a stride may not be
	 * filled on the host.
	 */
	bool		appends_only;
	/*
	 * An experiment, off outside the kernel benchmark (--lean-fast-key)
	 * and the self-test (--lean-fast-key): SHARED_HASH's lean kernel looks
	 * a launch's key up by its one word (cuda/key_cache.cuh,
	 * gpugb_key_cache_hit_word) where the launch has one key, no NULL key
	 * and no row list, instead of the general lookup's loops over key
	 * words and their NULL arrays (measured on no GPU for speed); and
	 * whole tables of such launches without NULL inputs run
	 * gpugb_lean_fast_kernel (cuda/lean_fast_kernel.cuh) with any number of
	 * sums, where the plan runs it for at most one (cuda/launch.cu,
	 * lean_fast_kernel_applies).
	 */
	bool		lean_fast_key;
	/*
	 * An experiment (before session 45, the only way): SHARED_HASH never
	 * takes its block table indexed by group id (cuda/lean_gid_kernel.cuh,
	 * src/heuristics.c gpugb_lean_gid_pays), and auto never plans it.  For
	 * the kernel benchmark (--lean-gid-table off) and the self-test
	 * (--no-lean-gid-table), never set by the executor.
	 */
	bool		lean_gid_off;
	/*
	 * An experiment (session 47), off outside the kernel benchmark
	 * (--lean-deferred on) and the self-test (--lean-deferred): SHARED_HASH's
	 * one-block table looks its group ids up at the flush
	 * (cuda/lean_deferred_kernel.cuh), from 2048 groups expected where they
	 * fit it, instead of at a key's first row in each block.  It was
	 * 0.44-0.72x as fast as the fast kernel at 2^11-2^12 groups with one
	 * payload (H200, 2^28 rows; the file comment says more).
	 */
	bool		lean_deferred;
	/*
	 * An experiment, off outside the kernel benchmark (--lean-fast-wide)
	 * and the self-test (--lean-fast-wide): a whole lean table that runs
	 * gpugb_lean_fast_kernel takes one 1024-thread block an SM with the most
	 * slots that block holds (8192 for one sum on the H200), not the slots
	 * for the groups expected.  Why: Nsight Compute at 2^8 groups (session
	 * 30, call 2) found the warp's probe loop running 2.8 times a row,
	 * the longest of 32 lanes' probes in a table a quarter full, and the
	 * code after it running diverged; in a table 1/32 full most warps find
	 * every key at its home slot.  Planned since session 31 for two to four
	 * sums at any number of groups, for one sum or counts only from 64
	 * (src/heuristics.c, gpugb_lean_fast_wide_pays); the experiment makes
	 * it so below 64, too.
	 */
	bool		lean_fast_wide;
	/*
	 * PARTITION sorts row numbers and gathers the rows through them even
	 * where it would move the rows with its sort (cuda/partition_move.cu):
	 * for the kernel benchmark's A/B runs (--partition-move off), never set
	 * by the executor.
	 */
	bool		partition_rows_only;
	/*
	 * For the self-test only, never set by the executor: 0, or from the
	 * handle's launch of this number on (1: the second), PARTITION's
	 * scratch is refused as if device memory had run out
	 * (gpugb_launch_partition), so that gpugb_scratch_unavailable frees
	 * the other stride set's scratch while its launch is in flight, with
	 * its retries still to run (session 53's review).
	 */
	int			partition_scratch_refused_from;
	/*
	 * PARTITION's moved launches take the generic partition kernel even
	 * where the lean one applies (cuda/partition_lean_kernel.cuh): for the
	 * kernel benchmark's A/B runs (--partition-lean off), never set by the
	 * executor.
	 */
	bool		partition_generic_only;
	/*
	 * PARTITION moves a row of an 8-byte key and one 4-byte value word
	 * padded to 16 bytes, as before session 33, not in 12 (cuda/
	 * partition_move.cu, moved_row_words): for the kernel benchmark's A/B
	 * runs (--partition-tight off) and the self-test (--partition-padded),
	 * never set by the executor.
	 */
	bool		partition_move_padded;
	/*
	 * PARTITION's lean kernel reads the int64 columns the unpack kernel
	 * writes, as before session 34, even where it would read the sorted
	 * packed rows of one key word (an int32 key in keyed slots, an 8-byte
	 * one in pair slots) and 4-byte values, and unpack only rows that went
	 * to the retry list (cuda/partition_lean_kernel.cuh); two to four sums
	 * then do not move and take the generic kernel, as before session 35:
	 * for the kernel benchmark's A/B runs (--partition-packed off) and the
	 * self-test (--partition-unpacked), never set by the executor.
	 */
	bool		partition_lean_unpacked;
	/*
	 * PARTITION's deferred lean launches look every group up in the global
	 * table at the flush, as before session 48, even where the handle's
	 * first launch would number a whole partition's groups with one atomic
	 * and put them in the slot table after the launch (cuda/
	 * partition_deferred.cuh, gpugb_deferred_flush_direct): for the kernel
	 * benchmark's A/B runs (--partition-direct off) and the self-test
	 * (--no-partition-direct), never set by the executor.
	 */
	bool		partition_lookup_all;
	/*
	 * PARTITION moves packed rows with CUB's radix sort, as before session
	 * 37, even where the one-pass scatter applies (cuda/partition_scatter.cuh):
	 * for the kernel benchmark's A/B runs (--partition-scatter off) and the
	 * self-test (--partition-cub-sort), never set by the executor.
	 */
	bool		partition_cub_sort;
	/*
	 * PARTITION's CUB sort of packed rows takes 4-byte partitions, as before
	 * session 49, even where 2-byte ones hold them (16 bits or fewer,
	 * cuda/partition_move.cu): for the kernel benchmark's A/B runs
	 * (--partition-narrow-keys off) and the self-test (--partition-wide-keys),
	 * never set by the executor.
	 */
	bool		partition_wide_sort_keys;
	/*
	 * PARTITION's first launch, where it numbers directly, sorts packed rows
	 * with their partitions, as before session 50, not mixed words
	 * (GPUGB_PARTITION_MIXED_KEYS below), nor gathered rows (which take mixed
	 * keys too): for the kernel benchmark's A/B runs
	 * (--partition-mixed-words off) and the self-test (--partition-unmixed),
	 * never set by the executor.
	 */
	bool		partition_unmixed_words;
	/*
	 * A device-resident handle puts a direct launch's groups in the slot
	 * table right after the launch, as the executor's handles always do,
	 * not only when a lookup is to come (cuda/partition_strategy.cu): for the
	 * kernel benchmark (--partition-eager-publish on), to measure what the
	 * executor pays for it.  Means nothing to the executor's handles.
	 */
	bool		partition_eager_publish;
	/*
	 * PARTITION's first launch, where it numbers directly, sorts packed rows
	 * of an int32 key and two to four int32 sums with their partitions, as
	 * before session 51, not their mixed keys with row numbers
	 * (GPUGB_GATHERED_KEY_WORDS below): for the kernel benchmark's A/B runs
	 * (--partition-gather off) and the self-test (--partition-ungathered),
	 * never set by the executor.
	 */
	bool		partition_ungathered_values;
	/*
	 * PARTITION sorts packed rows of an 8-byte key with their partitions,
	 * as before session 60, not hashed rows (GPUGB_HASHED_KEY_WORDS below):
	 * for the kernel benchmark's A/B runs (--partition-hashed off) and the
	 * self-test (--partition-unhashed), never set by the executor.
	 */
	bool		partition_unhashed_keys;
	/*
	 * PARTITION's gathered rows (GPUGB_GATHERED_KEY_WORDS below) read each
	 * row's sums through its row number, as sessions 51-60 did, not carried
	 * by CUB's sort beside the mixed keys (GPUGB_CARRIED_KEY_WORDS below):
	 * for the kernel benchmark's A/B runs (--partition-carry off) and the
	 * self-test (--partition-uncarried), never set by the executor.
	 */
	bool		partition_uncarried_values;
	/*
	 * PARTITION's lean table leaves L1 GPUGB_PARTITION_L1_RESERVE_BYTES of
	 * the SM (src/heuristics.h): 0 where gpugb_partition_l1_reserve_pays,
	 * GPUGB_L1_RESERVE_NEVER or GPUGB_L1_RESERVE_ALWAYS for the kernel
	 * benchmark's A/B runs (--partition-l1-reserve) and the self-test
	 * (--partition-l1-reserve); the executor leaves it 0.
	 */
	int8_t		partition_l1_reserve;
	/*
	 * Rows of a device-resident handle's probe launch before its run-time
	 * check (cuda/groupby.cu); 0: GPUGB_DEVICE_PROBE_ROWS.  For the kernel
	 * benchmark's A/B runs (--probe-rows N).  Means nothing to the
	 * executor's handles, whose probe is their first stride.
	 */
	int64_t		device_probe_rows;
	/*
	 * The groups a device-resident handle's probe must lead it to expect
	 * before its rows run again on an emptied table (cuda/groupby.cu,
	 * restarts_after_probe); 0: GPUGB_DIRECT_MIN_GROUPS.  For the kernel
	 * benchmark's A/B runs (--direct-min-groups N).  Means nothing to the
	 * executor's handles.
	 */
	int64_t		device_direct_min_groups;
	/*
	 * An experiment (before session 38, the default): where PARTITION is
	 * planned and the run-time check is to come, the launches before it run
	 * SORT, not GLOBAL_HASH (src/strategy.c, gpugb_spec_first_runnable,
	 * says why).  For the kernel benchmark (--partition-probe off) and the
	 * self-test (--sort-probe), never set by the executor.
	 */
	bool		partition_sort_probe;
	/*
	 * An experiment (the default of sessions 38-44): where PARTITION is
	 * planned and the run-time check is to come, the launches before it run
	 * PARTITION itself, not GLOBAL_HASH (src/strategy.c,
	 * gpugb_spec_first_runnable, says why GLOBAL_HASH runs now).  For the
	 * kernel benchmark (--partition-probe on), never set by the executor.
	 */
	bool		partition_own_probe;
	/*
	 * An experiment (the default before session 39): PARTITION's lean
	 * launches walk their lookups without a bound.  By default they stop at
	 * their first lookup that walks GPUGB_PROBE_OVERFLOW_STEPS slots or
	 * finds no group id left, and send their remaining rows to the retry
	 * list (GpugbAggParams.overflow).  Forced PARTITION with 0.08x the
	 * groups planned (Zipf 1.0, 2^22 groups, 2^28 rows) ran over 70 s
	 * unbounded and 44-62 ms bounded; at the right estimate the bound costs
	 * 0-6 % (H200, session 39, calls 2-3).  Its partitions, taken in
	 * home-slot order, held more keys than their slices of the table, and
	 * linear probing made one run of them that every lookup walked.  For
	 * the kernel benchmark (--partition-overflow-abort off) and the
	 * self-test (--partition-probe-unbounded), never set by the executor.
	 */
	bool		partition_probe_unbounded;
	/*
	 * An experiment (session 39, off by default): a PARTITION launch's
	 * lookup that finds no group id left sends only its row to the retry
	 * list, and does not stop the launch (GpugbAggParams.
	 * overflow_on_walks_only); only a walk past GPUGB_PROBE_OVERFLOW_STEPS
	 * does.  By default both stop it, so a table short by a few groups costs
	 * a lean launch the retries of all the rest of its rows.  For the kernel
	 * benchmark (--partition-overflow-no-id off) and the self-test
	 * (--overflow-walks-only), never set by the executor.
	 */
	bool		partition_overflow_walks_only;
	/*
	 * An experiment (session 39, off by default): a retry round of half a
	 * PARTITION launch's rows or more (an overflowed launch sends nearly
	 * all of them) runs as a PARTITION launch of its own over the retried
	 * rows, gathered into columns, rather than as GLOBAL_HASH over the retry
	 * list (gpugb_partition_retry_round).  Forced PARTITION at 0.08x the
	 * groups took 57 ms, 39 of them in that one GLOBAL_HASH round over
	 * 2^28 rows, where the right estimate takes 13 (H200, session 39).  For
	 * the kernel benchmark (--partition-retry-repartition on) and the
	 * self-test (--retry-repartition), never set by the executor.
	 */
	bool		partition_retry_repartition;
	/*
	 * An experiment (the default before session 39): the run-time check's
	 * estimate of the groups is the evenly-drawn model's alone.  By default
	 * it is at least Chao1's, from the groups its sample saw once and twice
	 * (src/heuristics.c, gpugb_workload_observed): the evenly-drawn model
	 * read a Zipf 1.0 sample of 4.18e6 groups as 3.3e5.  Chao1 changed auto
	 * by 0.96-1.04x at the right estimate and 74-83 -> 59-64 ms at 1e-5x
	 * (Zipf 1.0, 2^22; H200, session 39, call 2).  For the kernel benchmark
	 * (--observed-chao1 off) and the self-test (--observed-uniform-only),
	 * never set by the executor.
	 */
	bool		observed_uniform_only;
	/*
	 * An experiment (session 34): PARTITION's lean kernel applies from this
	 * many rows a key expected in a launch instead of
	 * gpugb_partition_lean_rows_pay's (src/heuristics.c); 0: the heuristic.
	 * For the kernel benchmark (--partition-lean-rows), never set by the
	 * executor.
	 */
	int			partition_lean_rows_per_key;
	/*
	 * 0: groups come out of fetch in any order.  Else finish orders them by
	 * these keys (key words or aggregates' counts), the most significant
	 * first (ties: in no particular order), and fetch hands them out in that
	 * order.  n_order > 0 needs n_keys > 0.
	 */
	int			n_order;
	GpugbOrderKey order[GPUGB_MAX_KEYS];
	/*
	 * n_keys == 1 and every key word is an int32 value (int2, int4, date and
	 * bool keys): the hash table may keep the key in its slot words, so a
	 * lookup reads one word instead of three (cuda/hash_table.cuh).  A key
	 * word outside int32 under this flag makes the launch trap, a sticky CUDA
	 * error: the query falls back to PostgreSQL (or errors under
	 * gpugb.require_gpu) and so do the backend's later GPU queries.  Set it
	 * only where the key's type guarantees the range (src/exec.c).
	 */
	bool		key_fits_int32;
	/*
	 * Bit i set: every word of input i is an int32 value (int2, int4 and
	 * bool inputs), as key_fits_int32 says of the key.  PARTITION moves
	 * such inputs through its sort in 4 bytes instead of 8
	 * (cuda/partition_move.cu).  A word outside int32 under this flag makes
	 * the launch trap, as a key word does under key_fits_int32.
	 */
	uint64_t	inputs_fit_int32;
	/*
	 * Keep every hash table in the tagged slot format, even where the key
	 * could live in the slots (int32 keys; any one key word): for the kernel
	 * benchmark's and the self-test's A/B runs, never set by the executor.
	 */
	bool		tagged_slots_only;
} GpugbGroupBySpec;

/*
 * Bytes of one slot of the handle's global hash table (cuda/hash_table.cuh):
 * 16 where one key word of any value lives in the slot with its group id,
 * else 8 (an int32 key and the id, or a hash tag and the id).  For sizing.
 */
static inline int
gpugb_spec_slot_bytes(const GpugbGroupBySpec *spec)
{
	return spec->n_keys == 1 && !spec->key_fits_int32 && !spec->tagged_slots_only ? 16 : 8;
}

/*
 * One stride: pinned host buffers owned by the handle, filled by the caller.
 * The caller writes nrows rows into values/nulls and sets has_nulls[i] when
 * any null byte of column i is set (columns without nulls skip their null
 * bytes on the bus and in the kernel).
 */
typedef struct GpugbStride
{
	int64_t		nrows;
	int64_t    *key_values[GPUGB_MAX_KEYS];
	uint8_t    *key_nulls[GPUGB_MAX_KEYS];
	bool		key_has_nulls[GPUGB_MAX_KEYS];
	int64_t    *input_values[GPUGB_MAX_INPUTS];	/* int64, or double bit patterns */
	uint8_t    *input_nulls[GPUGB_MAX_INPUTS];
	bool		input_has_nulls[GPUGB_MAX_INPUTS];
} GpugbStride;

/*
 * Per-group results, copied into caller-owned host arrays of `count` entries
 * by gpugb_groupby_fetch.  For aggregate a:
 *   agg_count[a][i]    rows (COUNT_STAR) or non-null inputs seen (all others);
 *   agg_value[a][i]    COUNT*: unused; SUM_INT: low 64 bits; SUM_FLOAT and
 *                      *_FLOAT: double bit pattern; *_INT: the int64 value;
 *                      SHIFT_FLOAT: K; SUM_SHIFTED*: the high double;
 *   agg_value_hi[a][i] SUM_INT: high 64 bits (signed) of the int128 sum;
 *                      SUM_SHIFTED*: the low double of the pair (bits).
 * Arrays the caller does not need may be NULL.
 */
typedef struct GpugbGroupResults
{
	int64_t    *key_values[GPUGB_MAX_KEYS];
	uint8_t    *key_nulls[GPUGB_MAX_KEYS];
	int64_t    *agg_count[GPUGB_MAX_AGGS];
	int64_t    *agg_value[GPUGB_MAX_AGGS];
	int64_t    *agg_value_hi[GPUGB_MAX_AGGS];
} GpugbGroupResults;

/*
 * PARTITION moves a launch's rows with its sort (cuda/partition_move.cu)
 * only where its value aggregates read at most this many distinct inputs.
 * H200, 2^28 rows, 2^18-2^26 groups (session 31, calls 1 and 2,
 * docs/session31-2026-11-29): with four payloads moved rows took
 * 1.1-1.7x the time of the row numbers' sort; with one, 4-byte keys
 * 1.08-1.32x less, 8-byte keys 0.93-1.09x (even), with rows padded to
 * 16 bytes; the 12-byte rows of an 8-byte key and one value were
 * 1.05-1.21x faster than those (session 33, call 1).  Launches the lean
 * partition kernel reads packed (up to GPUGB_PARTITION_LEAN_MAX_SUMS
 * inputs, below) move all the same: the generic kernel over their unpacked
 * columns was what cost.
 */
#define GPUGB_MOVE_MAX_VALUE_INPUTS 1
/*
 * Such launches of COUNT and at most GPUGB_PARTITION_LEAN_MAX_SUMS integer SUMs take PARTITION's lean
 * kernel (cuda/partition_lean_kernel.cuh) where their rows are at least
 * this many times the distinct keys expected (src/heuristics.c,
 * gpugb_partition_lean_rows_pay, says why).
 */
#define GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY 3
/*
 * ...and at most this many integer SUMs (its kernel's instances).  More
 * than one sum only over packed rows: an int32 key and int32 words in
 * every summed input (cuda/partition_move.cu), since their rows move only
 * to be read packed (GPUGB_MOVE_MAX_VALUE_INPUTS says why).
 */
#define GPUGB_PARTITION_LEAN_MAX_SUMS 4

/*
 * PARTITION's first launch, where it numbers whole partitions directly,
 * stores each row of an int32 key and one int32 sum as one 8-byte word,
 * the key mixed (cuda/key_mix.cuh) above the value, whose top bits are
 * then the row's partition, and CUB sorts the words themselves: 8 bytes a
 * row each way a pass, not 10 with 2-byte partitions, and a pack that
 * writes 8 (partition_move.cu).  Later launches keep partitions that are
 * slices of the global table (their lookups stay in L2).  Such rows' key
 * word count is GPUGB_MIXED_KEY_WORDS.
 *
 * Forced PARTITION was 1.08x as fast at 2^24 groups (4-byte keys, one
 * payload, uniform; 1.09x Zipf 1.0) and 1.03-1.07x at 2^26, 1.03x at 2^18;
 * the points that do not take it 0.98-1.02x (H200, 2^28 rows, 3 reps,
 * session 50 call 2: docs/session49-2026-11-30/next/s50-call2.sh, a build
 * with it against one without).  Nsight Compute at 2^24: the pack 1.66 ms
 * (1.94 before), CUB's passes 4.68 (5.53), the lean kernel 5.11 (5.1).
 * spec.partition_unmixed_words turns it off for A/B runs; 0 here compiles
 * it out.
 */
#ifndef GPUGB_PARTITION_MIXED_KEYS
#define GPUGB_PARTITION_MIXED_KEYS 1
#endif
#define GPUGB_MIXED_KEY_WORDS 3
/*
 * Since session 51, the same first launch with an int32 key and two to
 * four int32 sums, which do not fit one word, sorts (mixed key, row
 * number) pairs, 8 bytes a row each way a pass, not items of a 4-byte
 * partition and a 16- or 24-byte row (20 or 28 bytes); the values stay in launch order,
 * packed, and the lean kernel reads each row's through its row number
 * (key_mix.cuh's gathered layout), staged a step ahead
 * (partition_deferred.cuh).  Only where CUB's sort takes more than one
 * pass (partition_move.cu, GPUGB_GATHER_MIN_BITS).  Forced PARTITION was
 * 1.16-1.22x as fast at 2^22-2^26 groups (H200, 2^28 rows, 4-byte keys,
 * four payloads, uniform, Zipf 0.5 and 1.0, 3 reps, session 51 call 3,
 * before the staging); at 2^22 Nsight Compute gave the pack 4.57 ms, CUB's
 * passes 5.0 and the lean kernel 13.16, against 4.86, 17.5 and 5.78
 * before.  spec.partition_ungathered_values turns it off for A/B runs.
 * Such rows' key word count is GPUGB_GATHERED_KEY_WORDS.
 */
#define GPUGB_GATHERED_KEY_WORDS 4
/*
 * Since session 61, gathered rows of two sums move them with their mixed
 * keys in CUB's sort, as one aligned 8-byte value (split_values.cuh), so
 * the lean kernel reads them in sorted order, not through row numbers
 * (the layout is the gathered one's, its row numbers unused).  Forced
 * PARTITION, carried against not (H200, 2^28 rows, 4-byte keys, 3 reps,
 * kernelbench --partition-carry off, session 61 call 2; every result
 * verified): two payloads 1.21-1.29x at 2^22-2^26 (uniform, Zipf 0.5 and
 * 1.0; auto 1.17-1.31x), 0.99-1.05x elsewhere.  Not for three or four
 * sums, whose values take 16 bytes: four payloads ran 0.91-1.06x (2^26
 * Zipf 0.5 0.91, 2^24 uniform 1.04); Nsight Compute at 2^24 gave the lean kernel 7.62 ms
 * against 10.86 but CUB's passes 8.37 against 4.86 (a 4-byte key with a
 * 16-byte value, 2.6 TB/s a pass-byte) and the pack 4.25 against 4.59.
 * CUB moves such pairs fast only as an aligned value (uint4 or an alignas
 * struct: sort_layout_bench.cu); session 51 had measured unaligned rows of
 * 16-24 bytes (1.2-1.4 TB/s).  spec.partition_uncarried_values turns it
 * off for A/B runs.  Such rows' key word count is GPUGB_CARRIED_KEY_WORDS;
 * they are counted as gathered launches too.
 */
#define GPUGB_CARRIED_KEY_WORDS 6
#define GPUGB_CARRIED_MAX_SUMS 2
/*
 * Fetching gathered rows 1 or 2 steps ahead across the chunks of a stretch
 * (session 51's GPUGB_GATHER_AHEAD_STEPS, removed in session 52) made the
 * lean kernel 12.80 ms against 13.27 at 2^22 (Nsight Compute) and whole
 * runs 0.99-1.02x: the chunks' barriers are not what keeps the gather from
 * overlapping the table's work (docs/session52-2026-12-01).  Nor did a
 * kernel of its own that gathers the values into sorted order after CUB's
 * sort (session 53, call 3; docs/session53-2026-12-01's patch): the lean
 * kernel then took 5.59 ms at 2^22 (four payloads) against 13.09, but the
 * gather 8.45 (random 16-byte reads, about 1.6 TB/s), and whole runs were
 * 0.96-0.98x with four payloads and 0.78-0.83x with two.
 */
/*
 * 1: a PARTITION block finds the partition at a sorted position with its
 * warps' 32-way search (gpugb_partition_at, cuda/partition_kernels.cuh);
 * 0: each thread's binary search (session 52's A/B).
 */
#ifndef GPUGB_PARTITION_WARP_SEARCH
#define GPUGB_PARTITION_WARP_SEARCH 1
#endif
/*
 * The fewest rows of a tile of PARTITION's lean kernel (cuda/launch.cu,
 * gpugb_launch_partitioned_lean), up to an eighth of a block's share of the
 * launch; 0: tiles of a partition's mean rows, as before session 53.  Why:
 * each tile searches the bounds three times
 * (gpugb_partition_for_each_stretch), and at 2^26 groups (2^15 partitions
 * of 8192 rows) those searches held about 9 % of the lean kernel's samples
 * even after the warp search (session 52, call 6).  Tiles of 65536 rows
 * search once for eight partitions.  Kernel benchmark, H200, 2^28 rows,
 * against 0 (session 53, call 1): the lean kernel at 2^26, four-byte keys,
 * one payload, 7.85 -> 6.70 ms (Nsight Compute, base clocks); PARTITION
 * 1.04-1.14x at 2^26, 1.01-1.05x at 2^24, 0.97-1.03x at 2^22 (where tiles
 * were that large already); 32768 rows gave 1.03-1.13x at 2^26.
 */
#ifndef GPUGB_LEAN_MIN_TILE_ROWS
#define GPUGB_LEAN_MIN_TILE_ROWS 65536
#endif
/*
 * An experiment (run in session 55, off): 1, the group-id table's word
 * loop over pair slots (8-byte keys) reads each row's home pair a step
 * ahead, both words in one 16-byte load, as keyed slots read their home
 * word, and a row whose key sits there published takes its id with no
 * lookup (cuda/lean_gid_kernel.cuh, GpugbLeanPairHome); 0, pair slots look
 * every row up, as before.  Why: with keyed slots the home word a step
 * ahead gave 1.12x over the step-ahead inputs alone at 2^14 groups (session
 * 54 call 1), and 8-byte keys at 2^14 run 3.75-4.01x the floor, against
 * 3.25-3.52x for 4-byte keys.  Measured (H200, 2^28 rows, one payload,
 * forced SHARED_HASH, two rounds, before the L1 reserve of
 * gpugb_lean_gid_launch_slots; session 55 calls 1 and 3): 8-byte keys
 * 1.06-1.15x uniform and Zipf 0.5 at 2^11, 2^12 and 2^14, even at 2^13,
 * but 0.71-1.03x at Zipf 1.5; 4-byte keys unchanged.  Not the default for
 * that loss; worth an A/B again on top of the L1 reserve.
 */
#ifndef GPUGB_GID_PAIR_HOME
#define GPUGB_GID_PAIR_HOME 0
#endif
/*
 * Rows a thread of the group-id table's later launches, once a sum, loads
 * before it adds them (gpugb_lean_gid_sum_kernel; the split: src/heuristics.c,
 * gpugb_lean_gid_split_pays).
 */
#ifndef GPUGB_GID_SUM_ROWS
#define GPUGB_GID_SUM_ROWS 4
#endif
/*
 * 1: PARTITION's direct flush stores a new group's states
 * (gpugb_deferred_slot_store, cuda/partition_deferred.cuh); 0: adds them
 * with atomics as every other flush (session 52's A/B).
 */
#ifndef GPUGB_DIRECT_FLUSH_STORES
#define GPUGB_DIRECT_FLUSH_STORES 1
#endif
/*
 * Since session 60, PARTITION's packed rows of an 8-byte key and one to
 * four int32 sums, where the lean kernel looks group ids up at the flush
 * and the rows do not scatter, are sorted as (key hash, values) pairs
 * (split_values.cuh's layout: n uint64 hashes, then the sums): the block
 * table holds the hash, and the flush takes the key back from it
 * (gpugb_unhash_word; gpugb_hash_word is a bijection of 64-bit words).
 * Why: CUB's onesweep moved the rows as a 2- or 4-byte partition with a
 * 12- or 24-byte struct at 1.1-2.0 TB/s a pass, and the same rows as an
 * 8-byte key with a 4- or 16-byte value at 2.1-2.6 (H200, 2^28 rows,
 * 12-18 partition bits; test/kernelbench/sort_layout_bench.cu, session 60
 * call 3): an 8-byte key and one sum 8.55 ms against 5.62 at 16 bits, four
 * sums 26.2 against 12.5.  The partition needs no word of its own: it is
 * bits [shift, shift + bits) of the hash (the row's home slot >> shift,
 * move_row.cuh), which CUB sorts by.  Any launch, not
 * only a direct one: the hash's partitions are the table's slices.
 * Forced PARTITION, hashed against not (H200, 2^28 rows, 8-byte keys, 3
 * reps, kernelbench --partition-hashed off, session 60 call 4; every
 * result verified): one payload 1.21-1.24x at 2^22-2^26 (uniform, Zipf 0.5
 * and 1.0; 2^24 uniform 14.5 -> 11.8 ms), four payloads 1.35-1.45x there
 * and 1.18-1.30x at 2^14-2^18, where they do not scatter; Zipf 1.5 and the
 * scattered points 0.98-1.02x.  Nsight Compute at 2^24, one payload: the
 * pack 2.03 ms (2.49 before), CUB's histogram and onesweep kernels 0.48
 * + 5.59 (8.67 in all before), the lean kernel 4.66 (4.54; session 58).
 * spec.partition_unhashed_keys turns it off for A/B runs.  Such rows' key
 * word count is GPUGB_HASHED_KEY_WORDS.
 */
#define GPUGB_HASHED_KEY_WORDS 5
/* The key word counts of 8-byte keys (the table's pair slots; GPUGB_DEFERRED_EMPTY_KEY takes no slot). */
#define GPUGB_KEY_WORDS_8_BYTES(kw) ((kw) == 2 || (kw) == GPUGB_HASHED_KEY_WORDS)
/* The key word counts whose block-table keys are mixed (unmixed at the flush). */
#define GPUGB_KEY_WORDS_MIXED(kw) (GPUGB_PARTITION_MIXED_KEYS && ((kw) == GPUGB_MIXED_KEY_WORDS || \
	(kw) == GPUGB_GATHERED_KEY_WORDS || (kw) == GPUGB_CARRIED_KEY_WORDS))
/*
 * The key word of an empty slot in the lean partition kernel's block table
 * when it looks group ids up at the flush (cuda/partition_deferred.cuh).
 * Outside int32, so no int32 key is it; an 8-byte key may be, and the rows
 * of that one key go to the retry list unadded.  So it is a value real keys
 * seldom hold: not 0, -1 or either extreme, which they often do.  The
 * device self-test puts it among its 8-byte keys.
 */
#define GPUGB_DEFERRED_EMPTY_KEY ((long long) 0xA5F0C3E1B7D2968Bull)

typedef struct GpugbStats
{
	int64_t		strides;		/* strides submitted */
	int64_t		rows;			/* rows aggregated */
	int64_t		bytes_to_device;
	int64_t		bytes_from_device;
	double		transfer_ms;	/* host-to-device copies, measured with events */
	double		kernel_ms;		/* aggregation, rehash and init kernels */
	double		wait_ms;		/* host time blocked waiting for the device */
	double		device_alloc_ms;	/* host time in cudaMalloc and cudaFree, create included */
	int64_t		table_slots;	/* final hash table capacity */
	int			table_grows;	/* times the table was doubled */
	int64_t		retried_rows;	/* rows re-run after a grow */
	int			retry_rounds;	/* launches over a retry list (gpugb_run_retries) */
	int			retry_partition_rounds;	/* of those, PARTITION launches over the gathered rows (spec.partition_retry_repartition) */
	double		retry_ms;		/* their kernels' time, within kernel_ms */
	double		grow_ms;		/* the table's growth kernels' time (rehash, init), within kernel_ms */
	int64_t		peak_device_bytes;
	GpugbStrategy strategy_planned;	/* spec->strategy */
	GpugbStrategy strategy_used;	/* the strategy of the last stride */
	int			strategy_switches;	/* run-time corrections made */
	int64_t		groups_at_switch_check;	/* groups seen when the strategy was re-decided; -1: never */
	int64_t		lean_launches;	/* launches of the lean kernel (cuda/lean_kernel.cuh), probes included */
	int64_t		partial_lean_launches;	/* those with a partial table (the deferring instance) */
	int64_t		lean_probe_launches;	/* those that probed the skew for a planned GLOBAL_HASH */
	int64_t		one_block_lean_launches;	/* those with a one-block table (cuda/launch.cu) */
	int64_t		one_block_partial_lean_launches;	/* partial ones in one 1024-thread block (cuda/launch.cu) */
	int64_t		fast_key_lean_launches;	/* those that looked keys up by one word under spec.lean_fast_key (either kernel) */
	int64_t		fast_lean_kernel_launches;	/* those of gpugb_lean_fast_kernel (cuda/launch.cu, lean_fast_kernel_applies) */
	int64_t		gid_lean_launches;	/* those of the table indexed by group id (cuda/lean_gid_kernel.cuh) */
	int64_t		gid_word_lean_launches;	/* those that looked rows up by their key word (gpugb_lean_gid_rows_ahead) */
	int64_t		gid_split_lean_launches;	/* those that took it once a sum (gpugb_lean_gid_split_pays) */
	int64_t		gid_range_lean_launches;	/* those of them in more than one group range (gpugb_lean_gid_split_ranges) */
	int64_t		partition_moved_launches;	/* PARTITION launches whose rows moved with the sort (cuda/partition_move.cu) */
	int64_t		partition_lean_launches;	/* those that took the lean partition kernel (cuda/partition_lean_kernel.cuh) */
	int64_t		partition_packed_launches;	/* those that read packed rows (not spec.partition_lean_unpacked) */
	int64_t		partition_scattered_launches;	/* those whose rows moved in one scatter, not CUB's sort (cuda/partition_scatter.cuh) */
	int64_t		partition_narrow_sort_launches;	/* those whose rows CUB sorted with 2-byte partitions (cuda/partition_move.cu) */
	int64_t		partition_mixed_launches;	/* those sorted by mixed keys (GPUGB_PARTITION_MIXED_KEYS): words, or keys with row numbers */
	int64_t		partition_gathered_launches;	/* those of mixed keys with row numbers (GPUGB_GATHERED_KEY_WORDS) */
	int64_t		partition_carried_launches;	/* gathered ones whose sums CUB's sort carried (GPUGB_CARRIED_KEY_WORDS) */
	int64_t		partition_hashed_launches;	/* packed ones whose 8-byte keys CUB sorted as hashes with their sums (GPUGB_HASHED_KEY_WORDS) */
	int64_t		partition_l1_reserve_launches;	/* lean ones whose table left L1 GPUGB_PARTITION_L1_RESERVE_BYTES (spec.partition_l1_reserve) */
	int64_t		partition_deferred_launches;	/* packed ones that looked group ids up at the flush (cuda/partition_deferred.cuh) */
	int64_t		probe_restarts;	/* device-resident probes whose rows ran again on an emptied table (groupby.cu, restarts_after_probe) */
	int64_t		partition_direct_launches;	/* deferred ones that numbered whole partitions' groups without lookups (cuda/partition_deferred.cuh, gpugb_deferred_flush_direct) */
	int64_t		partition_direct_groups;	/* the groups those numbered so, as the publish found them (read at finish; the tests' proof that direct flushes ran) */
	int64_t		partition_generic_launches;	/* PARTITION launches that took the generic kernel (cuda/partition_kernels.cuh) */
	int64_t		partition_overflow_aborts;	/* lean or generic launches that overflowed and retried their rest (GpugbAggParams.overflow) */
	int64_t		deferred_lean_launches;	/* SHARED_HASH's one-block tables with ids looked up at the flush (cuda/lean_deferred_kernel.cuh) */
} GpugbStats;

typedef struct GpugbUsage
{
	int64_t		device_bytes;	/* device memory currently held by gpugb in this process */
	int64_t		pinned_bytes;	/* pinned host memory currently held */
	int			streams;		/* CUDA streams currently held */
	int			handles;		/* live GpugbGroupBy handles */
} GpugbUsage;

typedef struct GpugbGroupBy GpugbGroupBy;

/* Initializes CUDA on first call in this process (never before fork); cached. */
extern GpugbStatus gpugb_device_probe(void);
/*
 * Starts the probe on a thread of its own and returns at once, so CUDA's
 * start-up (driver, context) overlaps whatever the process does next; the
 * first gpugb_device_probe() waits for it.  For a new backend, right after
 * authentication (src/preinit.c).
 */
extern bool gpugb_device_probe_async(void);	/* false: no thread was started */
/* Waits for a probe thread, if one runs; never starts CUDA itself. */
extern void gpugb_device_probe_join(void);
/* Is a probe thread started and not yet finished?  Never waits. */
extern bool gpugb_device_probe_pending(void);
/*
 * Initializes the CUDA driver in this process without creating a context
 * (for a process that only keeps the driver warm for others); returns the
 * number of devices, or -1 where there is no driver.
 */
extern int	gpugb_device_driver_init(void);
/* Human-readable device description, or why there is none; static storage. */
extern const char *gpugb_device_description(void);
/* Text of the most recent failure in this process; static storage. */
extern const char *gpugb_last_error(void);
extern const char *gpugb_status_name(GpugbStatus status);
extern const char *gpugb_strategy_name(GpugbStrategy strategy);

/* What the heuristics need to know of the device (src/heuristics.h). */
typedef struct GpugbDeviceProps
{
	int			sm_count;
	int64_t		l2_bytes;
	int64_t		shared_bytes_per_block;	/* without opt-in */
	int64_t		shared_bytes_per_sm;
	int64_t		global_bytes;
	int64_t		shared_bytes_per_block_optin;	/* with opt-in; 0 = as without */
} GpugbDeviceProps;

/* Fills *props from the device (after a successful probe) or H200 defaults. */
extern void gpugb_device_properties(GpugbDeviceProps *props);
/* Are they the device's (a probe succeeded), not the defaults?  Never waits. */
extern bool gpugb_device_properties_known(void);
extern void gpugb_device_usage(GpugbUsage *usage);

/*
 * A budget shared with other processes (PostgreSQL backends): before every
 * device allocation the module asks reserve(bytes) and, if it says no,
 * fails that allocation with GPUGB_OUT_OF_MEMORY; every free gives the
 * bytes back with release(bytes).  NULL hooks (the default): no budget.
 */
typedef bool (*GpugbBudgetReserve) (int64_t bytes);
typedef void (*GpugbBudgetRelease) (int64_t bytes);
extern void gpugb_device_set_budget(GpugbBudgetReserve reserve, GpugbBudgetRelease release);

/*
 * A trace of every device allocation and free: what it is for (the name
 * the code gives it), its bytes and the host time cudaMalloc or cudaFree
 * took (cudaFree waits for the device; a cudaMalloc that failed is traced
 * with 0 bytes).  For the kernel benchmark's
 * --alloc-trace, which places GpugbStats.device_alloc_ms by buffer; never
 * set by the executor.  NULL (the default): no trace.
 */
typedef void (*GpugbAllocTrace) (const char *what, int64_t bytes, double ms, bool freed);
extern void gpugb_device_set_alloc_trace(GpugbAllocTrace trace);

extern GpugbStatus gpugb_groupby_create(const GpugbGroupBySpec *spec, GpugbGroupBy **out);

/*
 * Hands out a stride buffer set that is free to fill (at least two exist, so
 * filling one overlaps the transfer and aggregation of the other).  May block
 * until the device has finished with it, and may grow the hash table and
 * re-run rows that did not fit, before returning.
 */
extern GpugbStatus gpugb_groupby_next_stride(GpugbGroupBy *gb, GpugbStride **stride);
/* Queues the H2D copy and aggregation of a filled stride; returns at once. */
extern GpugbStatus gpugb_groupby_submit(GpugbGroupBy *gb, GpugbStride *stride);
/*
 * Waits for all submitted work (with any grows and retries); returns the
 * group count.  With spec->n_order > 0 it then sorts the groups (may fail
 * with GPUGB_OUT_OF_MEMORY: the sort needs about 24 bytes per group).
 */
extern GpugbStatus gpugb_groupby_finish(GpugbGroupBy *gb, int64_t *n_groups);
/*
 * Copies groups [first, first+count) into the caller's arrays; after finish.
 * With spec->n_order > 0, group i is the i-th in the requested order.
 */
extern GpugbStatus gpugb_groupby_fetch(GpugbGroupBy *gb, int64_t first, int64_t count,
									   const GpugbGroupResults *out);
extern void gpugb_groupby_stats(const GpugbGroupBy *gb, GpugbStats *stats);

/*
 * Rewrites the value column of each aggregate in aggs[0 .. n_aggs) (MIN_INT
 * or MAX_INT; a column two of them share is rewritten once): every group's
 * value v with 0 <= v < map_len becomes map[v]; any other value (the
 * identities INT64_MAX and INT64_MIN of a group with no input yet) stays.
 * It first waits for all submitted strides, with their retries, so strides
 * submitted before it were aggregated with the old values and strides
 * submitted after it meet the new ones.  For min/max of text: their words
 * are ranks in an order that grows as new texts arrive (src/textorder.c),
 * and map takes old ranks to new ones (monotone).  Callable between
 * create and finish; the map is copied before it returns.  A stride handed
 * out but not yet submitted is not waited for: its rows are submitted
 * after the call, so in the new values.  Bad arguments (also a call after
 * finish) return GPUGB_INVALID_ARGUMENT and leave the handle usable; any
 * other failure (e.g. no device memory for the map's copy) fails it.
 */
extern GpugbStatus gpugb_groupby_remap_values(GpugbGroupBy *gb, const int *aggs, int n_aggs,
											  const int64_t *map, int64_t map_len);

/*
 * Host memory the device copies from directly, with no staging copy into a
 * stride's pinned buffers: parallel ingest registers the DSM slots its
 * workers fill (src/feed_parallel.c).  The bytes count as pinned memory in
 * gpugb_device_usage until unregistered, which must happen before the
 * memory is unmapped, and only once no copy from it is queued (destroy the
 * handles that copied from it first).  A driver that refuses returns a
 * failure and the caller copies through the strides instead.
 */
extern GpugbStatus gpugb_host_register(void *ptr, size_t bytes);
extern void gpugb_host_unregister(void *ptr, size_t bytes);

/*
 * Appends src's rows (src->nrows rows of host columns laid out as a
 * stride's, in registered memory, with its has_nulls flags) to a stride
 * handed out by next_stride, copying them straight to the device on the
 * stride's stream, and adds them to stride->nrows and its has_nulls flags.
 * A stride is either filled on the host or appended to, never both: the
 * stride's host buffers stay unused.  The copy is asynchronous: src's
 * memory must stay as it is until gpugb_groupby_append_done reports the
 * ticket done (a ticket of -1 has nothing to wait for).  Then submit the
 * stride as usual.
 */
extern GpugbStatus gpugb_groupby_append(GpugbGroupBy *gb, GpugbStride *stride,
										const GpugbStride *src, int *ticket);
/*
 * Has the copy of `ticket` finished reading its source?  With wait, blocks
 * until it has.  A ticket reported done is released (its number is reused).
 */
extern GpugbStatus gpugb_groupby_append_done(GpugbGroupBy *gb, int ticket, bool wait,
											 bool *done);

/*
 * Rows already in device memory (the kernel benchmark; no PostgreSQL):
 * nrows <= spec->stride_rows rows, no NULLs, key k at key_values[k] and
 * input i at input_values[i], all device pointers.  Aggregates them with the
 * handle's current strategy (growing the table and re-running rows as
 * needed) and returns when done.  Call any number of times, then finish.
 */
typedef struct GpugbDeviceColumns
{
	int64_t		nrows;
	const int64_t *key_values[GPUGB_MAX_KEYS];
	const int64_t *input_values[GPUGB_MAX_INPUTS];
} GpugbDeviceColumns;
extern GpugbStatus gpugb_groupby_aggregate_device(GpugbGroupBy *gb, const GpugbDeviceColumns *cols);
/*
 * Releases every device buffer, pinned buffer, event and stream of the handle.
 * Safe on NULL, safe at any point (also after a failed call and during error
 * cleanup), never blocks longer than the work already queued.
 */
extern void gpugb_groupby_destroy(GpugbGroupBy *gb);

#ifdef __cplusplus
}
#endif

#endif							/* GPUGB_DEVICE_H */
