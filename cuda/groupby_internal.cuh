/*
 * groupby_internal.cuh
 *    The GpugbGroupBy handle and the functions its translation units share:
 *    groupby.cu (lifecycle, strides, double buffering), table.cu (table
 *    allocation, growth, retries), fetch.cu (results), launch.cu (kernels),
 *    sort_strategy.cu and partition_strategy.cu (the SORT and PARTITION
 *    launches).
 *
 * Invariants:
 *  - A stride set is FREE (never used or drained), FILLING (handed to the
 *    caller) or INFLIGHT (copies and kernel queued on its stream, its
 *    retry count copied to pinned memory before ev_done).  A set is handed
 *    out again only after ev_done completed and its retries were re-run, so
 *    the caller never overwrites pinned memory the device still reads, and
 *    retry lists always refer to the set's current device rows.
 *  - The table changes size only while every stream of the handle is idle.
 *  - Once `failed` is set (any CUDA error, OOM during growth) the results
 *    are unusable and every call but destroy/stats returns failed_status.
 */
#ifndef GPUGB_GROUPBY_INTERNAL_CUH
#define GPUGB_GROUPBY_INTERNAL_CUH

#include <type_traits>
#include <vector>

#include "gpugb_internal.cuh"
#include "kernel_params.cuh"
#include "../src/heuristics.h"	/* GPUGB_LEAN_MAX_SUMS */

#define GPUGB_N_SETS 2

/*
 * Calls launch(std::integral_constant<int, NV>{}) for a launch's number of
 * sums NV (0 to GPUGB_LEAN_MAX_SUMS: the lean kernels', and PARTITION's
 * packed rows'), so that each such launch picks its instance in one place.
 */
template <typename Launch>
static GpugbStatus
gpugb_for_lean_sums(int n_values, Launch launch)
{
	static_assert(GPUGB_LEAN_MAX_SUMS == 4, "one instance per number of sums");
	switch (n_values)
	{
		case 0:
			return launch(std::integral_constant<int, 0>{});
		case 1:
			return launch(std::integral_constant<int, 1>{});
		case 2:
			return launch(std::integral_constant<int, 2>{});
		case 3:
			return launch(std::integral_constant<int, 3>{});
		default:
			return launch(std::integral_constant<int, 4>{});
	}
}
/* Smallest table (heuristics.c sizes the first one from the estimate). */
#define GPUGB_MIN_SLOTS 1024
/* gid lives in the low 32 bits of a slot; keep max_groups well inside it. */
#define GPUGB_MAX_SLOTS (1ll << 31)
/* One growth step multiplies the capacity by at most this much. */
#define GPUGB_MAX_GROW_FACTOR 16

/*
 * The group counter's allocation: the counter, and a line apart the flag
 * that no id is left.  The flag's line is never written while ids last, so
 * every claim may read it from L1; the counter's line takes every claim's
 * atomic, and a read of it per claim cost PARTITION 17.5 -> 30.5 ms at 2^24
 * groups (H200, session 39).
 */
#define GPUGB_GROUP_COUNTER_BYTES 384
#define GPUGB_GROUPS_EXHAUSTED_OFFSET 128
/*
 * ...and a third line, the groups the publish found numbered without
 * lookups (rehash_kernel.cuh, gpugb_publish_groups_kernel): a count for the
 * tests, which must see that whole partitions were numbered directly, not
 * only that a launch was allowed to.
 */
#define GPUGB_DIRECT_GROUPS_OFFSET 256

enum GpugbSetState
{
	GPUGB_SET_FREE,
	GPUGB_SET_FILLING,
	GPUGB_SET_INFLIGHT
};

/*
 * Scratch of the SORT and PARTITION strategies for one stride set,
 * allocated on first use.  PARTITION uses the radix sort's part only: its
 * partition numbers live in keys_in/keys_out, 4 bytes each, or 2 where its
 * packed rows sort with 2-byte partitions (partition_move.cu, sort_rows;
 * GpugbPackedRows.sorted_part_bytes).
 */
struct GpugbSortBufs
{
	int64_t		rows = 0;		/* rows the buffers hold; 0 = not allocated */
	bool		runs = false;	/* head_pos, run_start, run_gid, n_heads allocated (SORT) */
	bool		perms = false;	/* perm_in, perm_out and temp allocated (all but PARTITION's
								 * moved launches) */
	DevBuf		keys_in;		/* uint32 sort keys (SORT; after the sort, the heads' positions)
								 * or partitions (uint32 or uint16), launch order; or the scatter's counts, then
								 * bounds (its scan's offsets in keys_out) */
	DevBuf		keys_out;		/* the same, sorted */
	DevBuf		perm_in;		/* uint32 0..n-1 */
	DevBuf		perm_out;		/* uint32 launch rows in sorted order */
	DevBuf		head_pos;		/* uint32 i at run heads, 0 elsewhere */
	DevBuf		run_start;		/* uint32 start of each position's run */
	DevBuf		run_gid;		/* int64 group id, at run heads */
	DevBuf		n_heads;		/* uint64: run heads listed in keys_in */
	DevBuf		temp;			/* CUB's temporary storage (sorts of either key type, scan) */
	size_t		temp_bytes = 0;
	/* PARTITION's moved rows (partition_move.cu), allocated on first use, for `rows` rows */
	DevBuf		moved_in;		/* packed key and value words, launch order (CUB's sort only:
								 * the scatter writes moved_out straight from the columns) */
	DevBuf		moved_out;		/* the same, partition order */
	DevBuf		moved_cols;		/* int64 columns unpacked from moved_out: the key, then the values */
	DevBuf		moved_temp;		/* CUB's temporary storage of the moved rows' sort, or of the
								 * scatter's scan (partition_scatter.cuh) */
};

/*
 * Sorted rows left packed for the lean partition kernel (unless
 * spec.partition_lean_unpacked): rows of gpugb_packed_row_words(key_words,
 * n_values) 32-bit words, the key's words (an int32, or an 8-byte key's
 * halves in pair slots) and each value's int32 word
 * (then 0s), partition order; the columns they unpack to, where retries
 * need them (gpugb_partition_unpack_for_retries fills key_out and
 * value_out).  rows == nullptr: the rows were unpacked as usual.
 */
#define GPUGB_SORTED_PARTS_MIXED32 (-4)
/* ...and the hashed layout's hashes (GPUGB_HASHED_KEY_WORDS), bits [table bits - bits, table bits) of which are the partitions. */
#define GPUGB_SORTED_PARTS_HASHED (-8)

struct GpugbPackedRows
{
	const void *rows = nullptr;
	int64_t		n = 0;
	int			key_words = 1;
	int			n_values = 0;
	/*
	 * The rows were scattered (partition_scatter.cuh), not sorted: the
	 * partitions' bounds are in the sort buffers' keys_in, and keys_out
	 * holds no sorted partitions.
	 */
	bool		bounds_ready = false;
	/*
	 * The bytes of each sorted partition in keys_out (partition_move.cu): 2
	 * where 16 bits hold them, else 4; 8: mixed words, and
	 * GPUGB_SORTED_PARTS_MIXED32: the gathered layout's mixed keys, whose
	 * top bits are the partitions, in rows rather than keys_out.
	 */
	int			sorted_part_bytes = 4;
	/*
	 * The columns' pitch (the set's scratch rows at the move), kept here:
	 * gpugb_scratch_unavailable may free the scratch, all but these rows,
	 * before complete_set unpacks them.
	 */
	int64_t		pitch = 0;
	int64_t    *key_out = nullptr;
	int64_t    *value_out[GPUGB_PARTITION_LEAN_MAX_SUMS] = {};
};

struct GpugbStrideSet
{
	GpugbStride stride;			/* the caller's view of `host` */
	HostBuf		host;			/* pinned: key values, input values, key nulls, input nulls */
	DevBuf		dev;			/* device copies, same layout */
	int64_t    *d_key_values[GPUGB_MAX_KEYS];
	uint8_t    *d_key_nulls[GPUGB_MAX_KEYS];
	int64_t    *d_input_values[GPUGB_MAX_INPUTS];
	uint8_t    *d_input_nulls[GPUGB_MAX_INPUTS];
	DevBuf		retry_list;		/* uint32 row indices, stride_rows of them */
	DevBuf		gid_column;		/* int32 group ids of a launch's rows (the group-id table once a sum), allocated on first use */
	DevBuf		retry_count;	/* uint32 */
	HostBuf		retry_count_host;	/* pinned uint32, valid after ev_done */
	cudaStream_t stream = nullptr;
	cudaEvent_t ev_start = nullptr;
	cudaEvent_t ev_copied = nullptr;
	cudaEvent_t ev_done = nullptr;
	GpugbSetState state = GPUGB_SET_FREE;
	/* FILLING by gpugb_groupby_append: its rows are on the device already */
	bool		appended = false;
	GpugbAggParams params;		/* row columns of the last submit; reused by retries */
	GpugbSortBufs sort;
	/*
	 * Rows the last launch left packed for the lean kernel, whose int64
	 * columns nobody has allocated or written yet (`params` names none):
	 * complete_set has them written and named
	 * (gpugb_partition_unpack_for_retries) only where the launch listed
	 * rows for retry.  rows == nullptr: none pending.
	 */
	GpugbPackedRows retry_unpack;
};

struct GpugbTable
{
	int64_t		capacity = 0;	/* slots; 0 when n_keys == 0 (no table) */
	int64_t		max_groups = 0; /* dense array length: capacity * fill_percent / 100 */
	int			slot_format = GPUGB_SLOTS_TAGGED;	/* hash_table.cuh */
	DevBuf		slots;
	DevBuf		keys;
	DevBuf		nulls;
	DevBuf		counts;
	DevBuf		values;
	DevBuf		his;
};

struct GpugbValueCol
{
	int			op;
	int			input;
	int			hi_col;			/* -1 unless SUM_INT or SUM_SHIFTED* */
	int			shift_col;		/* SUM_SHIFTED*: the SHIFT_FLOAT column of its input */
};

struct GpugbGroupBy
{
	GpugbGroupBySpec spec;
	GpugbAccount acct;

	/* Aggregate layout: aggregates share count and value columns. */
	int			n_counts = 0;
	int			count_input[GPUGB_MAX_COUNTS];	/* -1 = every row */
	int			n_values = 0;
	GpugbValueCol value_cols[GPUGB_MAX_AGGS];
	int			n_his = 0;
	int			agg_count_col[GPUGB_MAX_AGGS];
	int			agg_value_col[GPUGB_MAX_AGGS];	/* -1 for COUNT*/

	GpugbStrideSet sets[GPUGB_N_SETS];
	int			next_set = 0;

	GpugbTable	table;
	/*
	 * unsigned long long, the next group id; GPUGB_GROUPS_EXHAUSTED_OFFSET
	 * bytes on, in a cache line of its own, an unsigned int set once a claim
	 * found no id left (gpugb_claim_slot; cleared when the table grows).
	 */
	DevBuf		group_counter;
	DevBuf		probe_scalar;	/* unsigned long long[3]: the run-time check's largest group, groups seen once and twice */
	HostBuf		scalar_host;	/* pinned staging for small transfers */
	HostBuf		fetch_staging;	/* pinned: a fetch's columns on their way to the caller (fetch.cu) */
	DevBuf		spare_retry;	/* second retry list for re-runs */
	cudaEvent_t ev_a = nullptr; /* timing of synchronous work (growth) */
	cudaEvent_t ev_b = nullptr;

	/* Strategy (heuristics.h): the current one, and what sizes it. */
	GpugbStrategy strategy = GPUGB_STRATEGY_GLOBAL_HASH;
	int64_t		shared_slots = 0;	/* SHARED_HASH block table; 0 = does not fit */
	int64_t		partition_slots = 0;	/* PARTITION block table; 0 = does not fit */
	int64_t		private_groups = 0;	/* PRIVATE_HASH groups per thread; 0 = does not fit */
	int			fill_percent = 50;	/* of the global table */
	double		groups_hint = 1;	/* groups expected, sizes SORT's hash prefix and PARTITION's partitions */
	double		hot_share = 0;	/* the largest group's share of the rows: the planner's estimate
								 * (0: unknown), then what the run-time check saw */
	bool		strategy_checked = false;	/* the run-time correction was made */
	int64_t		launches_queued = 0;	/* launches that may have claimed groups (launch_set) */
	/*
	 * Sets whose stream has yet to wait for a launch that numbered groups
	 * without lookups and published them at once (a streamed handle's, or
	 * a device-resident one's under spec.partition_eager_publish, which
	 * runs only sets[0]; partition_strategy.cu, direct_gids_apply): bit s
	 * for sets[s]; and the set that launched it.
	 */
	unsigned	direct_waits = 0;
	int			direct_set = -1;
	/*
	 * A device-resident handle's direct launch left its groups out of the
	 * slot table: gpugb_publish_pending puts them there before the next
	 * lookup, and finish only unmarks them where none came (a launch of 2^26
	 * groups spent 8.5 ms publishing, H200, session 48 call 3).
	 */
	bool		publish_pending = false;
	/* PARTITION's moved rows found no device memory: later launches sort row numbers. */
	bool		move_refused = false;
	/* spec.lean_deferred, and every summed input declared int32 (GpugbAggParams.lean_deferred) */
	bool		lean_deferred = false;
	/*
	 * The plan (create_all's, or the run-time check's) chose the table
	 * indexed by group id first, and the global table holds at least the
	 * slots that plan sized (GpugbAggParams.lean_gid_first): in a smaller
	 * one the kernel ran 0.43-0.55x (session 54 call 4).
	 */
	bool		lean_gid_first = false;

	/*
	 * Appends (append.cu): one event per ticket, recorded after the
	 * ticket's copies; a ticket is busy until reported done.
	 */
	std::vector<cudaEvent_t> append_events;
	std::vector<bool> append_busy;

	GpugbStats	stats;
	bool		failed = false;
	GpugbStatus failed_status = GPUGB_OK;
	bool		finished = false;
	int64_t		n_groups = 0;
};

/* launch.cu */
GpugbStatus gpugb_launch_agg(const GpugbAggParams &p, cudaStream_t stream);
/* SORT's aggregation: p.row_list in sorted order with p.run_start and p.run_gid set. */
GpugbStatus gpugb_launch_sorted_agg(const GpugbAggParams &p, cudaStream_t stream);
GpugbStatus gpugb_launch_rehash(const GpugbTable &t, int n_keys, int64_t n_groups,
								cudaStream_t stream);
GpugbStatus gpugb_launch_fill(void *base, int64_t pitch, int ncols, int64_t from, int64_t to,
							  const uint64_t *identities, cudaStream_t stream);
/* col[i] = map[col[i]] for i < n where 0 <= col[i] < map_len (remap_values). */
GpugbStatus gpugb_launch_remap(int64_t *col, int64_t n, const int64_t *map, int64_t map_len,
							   cudaStream_t stream);

/* exact_int32: sort by the one int32 key itself (sort_kernels.cuh), else by a hash prefix. */
GpugbStatus gpugb_launch_sort_keys(const GpugbAggParams &p, uint32_t *sort_keys, uint32_t *perm,
								   int shift, bool exact_int32, cudaStream_t stream);
/* head_pos, and the heads appended to heads (*n_heads, zeroed here). */
GpugbStatus gpugb_launch_run_heads(const GpugbAggParams &p, const uint32_t *sort_keys,
								   const uint32_t *perm, uint32_t *head_pos, uint32_t *heads,
								   unsigned long long *n_heads, bool exact_int32,
								   cudaStream_t stream);
/* run_gid at the *n_heads head positions listed in heads. */
GpugbStatus gpugb_launch_run_groups(const GpugbAggParams &p, const uint32_t *perm,
									const uint32_t *heads, const unsigned long long *n_heads,
									int64_t *run_gid, cudaStream_t stream);
/* out[0..3): the column's largest value, and how many are 1 and 2 (zeroed by the caller). */
GpugbStatus gpugb_launch_count_summary(const unsigned long long *col, int64_t n, unsigned long long *out,
									   cudaStream_t stream);
GpugbStatus gpugb_launch_private(const GpugbAggParams &p, int64_t groups, int state_columns,
								 cudaStream_t stream);
/* Which lean instance a launch ran (all false: none), for the handle's statistics. */
struct GpugbLeanLaunch
{
	bool		lean;			/* the lean kernel (lean_kernel.cuh) */
	bool		partial;		/* its partial table's instance */
	bool		one_block;		/* the one-block table (launch.cu, lean_one_block_slots) */
	bool		one_block_partial;	/* a partial table in one block (launch.cu, one_block_partial_slots) */
	bool		fast_key;		/* keys looked up by one word (lean_kernel.cuh, gpugb_lean_fast_key) */
	bool		fast_kernel;	/* gpugb_lean_fast_kernel (launch.cu, lean_fast_kernel_applies) */
	bool		gid;			/* the table indexed by group id (launch.cu, lean_gid_slots) */
	bool		gid_word;		/* its rows looked up by their key word (launch.cu, lean_gid_by_word) */
	bool		deferred;		/* the one-block table with ids looked up at the flush (launch.cu, lean_deferred_chunk_rows) */
	bool		gid_split;		/* that table once a sum (launch.cu, lean_gid_split_plan) */
	bool		gid_ranges;		/* ...and group range, more than one (gpugb_lean_gid_split_ranges) */
};

/* gid_column: nullptr, or p.nrows int32 for the group-id table once a sum (gpugb_lean_gid_split_wanted). */
GpugbStatus gpugb_launch_shared(const GpugbAggParams &p, int64_t slots, int state_columns,
								double groups_expected, double hot_share, cudaStream_t stream,
								GpugbLeanLaunch *ran, int32_t *gid_column);
bool		gpugb_lean_gid_split_wanted(const GpugbAggParams &p, double groups_expected, double hot_share);
GpugbStatus gpugb_launch_lean_probe(const GpugbAggParams &p, double groups_expected,
									cudaStream_t stream, GpugbLeanLaunch *ran);
GpugbStatus gpugb_launch_partition_keys(const GpugbAggParams &p, uint32_t *part_keys,
										uint32_t *perm, int shift, cudaStream_t stream);
/* Blocks of `block` threads for `work` items of a grid-stride loop: enough to fill the device. */
unsigned	gpugb_grid_for(int64_t work, int block);

/*
 * PARTITION's rows moved with the sort (partition_move.cu): where launch p
 * has one key word without NULLs, no NULL input and value columns over at
 * most GPUGB_MOVE_MAX_VALUE_INPUTS inputs, sorts its rows' partitions (home slot
 * >> shift, `bits` bits) into b->keys_out with the key and value words
 * moved along, and sets *moved to p over the sorted columns (row i = sorted
 * position i).  false in *did: not applicable or no scratch; nothing queued.
 * want_packed (the lean kernel will run, not spec.partition_lean_unpacked): where
 * the key and the value are int32 words in keyed slots, the rows stay
 * packed (*packed), and the columns are neither allocated nor written, nor
 * named in *moved (gpugb_partition_unpack_for_retries).  want_mixed
 * (GPUGB_PARTITION_MIXED_KEYS, gpugb_device.h): such
 * rows of one sum, where they do not scatter, become mixed words
 * (packed->key_words GPUGB_MIXED_KEY_WORDS).  want_hashed (the deferred
 * path will read them): such rows of an 8-byte key and one to four sums,
 * where they do not scatter, become hashed rows (GPUGB_HASHED_KEY_WORDS).
 */
GpugbStatus gpugb_partition_move_rows(GpugbGroupBy *gb, GpugbSortBufs *b, const GpugbAggParams &p,
									  int shift, int bits, bool want_packed, bool want_mixed, bool want_hashed,
									  cudaStream_t stream, GpugbAggParams *moved, GpugbPackedRows *packed,
									  bool *did);
/*
 * After a launch (or a retry round) that left its rows packed
 * (set->retry_unpack) and listed n_retry rows for retry: allocates the
 * sorted int64 columns (the set's moved_cols), points set->params at them
 * and queues their unpack on the set's stream, for the retries.  Only
 * then: the columns are 8 bytes a row for the key and each sum, 4-10 GiB
 * at 2^28 rows, which no launch without retries reads.  Once allocated
 * they stay for the set's later launches (a cudaFree waits for the whole
 * device).  Clears set->retry_unpack in any case: the rows are overwritten
 * by the set's next launch.
 */
GpugbStatus gpugb_partition_unpack_for_retries(GpugbGroupBy *gb, GpugbStrideSet *set, uint32_t n_retry);
GpugbStatus gpugb_launch_partitioned(const GpugbAggParams &p, const uint32_t *sorted_parts,
									 uint32_t *bounds, int64_t n_parts, int64_t slots,
									 int state_columns, cudaStream_t stream);
/*
 * PARTITION's lean kernel (partition_lean_kernel.cuh), for launches whose
 * rows moved with the sort: the slots of its block table for launch p (one
 * key word without NULLs, no NULL input and no row list, COUNT and at most
 * GPUGB_PARTITION_LEAN_MAX_SUMS integer SUMs) that leave l1_reserve bytes
 * of the SM to L1, or 0 where it does not apply; and its launch over the sorted partitions (sorted_part_bytes
 * each: GpugbPackedRows.sorted_part_bytes), with those slots
 * (packed: GpugbPackedRows' rows of a key of packed_key_words words, read
 * in place of p's columns).  sorted_parts == nullptr: the rows were
 * scattered, and bounds hold the partitions' bounds already.  direct_gids:
 * the deferred table may number a whole partition's groups without lookups
 * (partition_deferred.cuh, gpugb_deferred_flush_direct); then the caller
 * queues gpugb_launch_publish_groups next, before any other lookup.
 */
int64_t		gpugb_partition_lean_slots(const GpugbAggParams &p, int64_t l1_reserve);
GpugbStatus gpugb_launch_partitioned_lean(const GpugbAggParams &p, const void *packed, int packed_key_words,
										  const void *sorted_parts, int sorted_part_bytes, uint32_t *bounds,
										  int64_t n_parts, int64_t slots, bool direct_gids, cudaStream_t stream);
/* The groups a direct_gids launch numbered, put in the slot table, or only unmarked (rehash_kernel.cuh). */
GpugbStatus gpugb_launch_publish_groups(const GpugbAggParams &p, bool insert, cudaStream_t stream);
/*
 * A device-resident handle's groups numbered without lookups and not yet in
 * the slot table (gb->publish_pending) put there now (!insert: only their
 * marks cleared, where no lookup is to come), on `stream` (all of the
 * handle's streams idle or ordered before it): before any launch, retry or
 * growth reads the slots (groupby.cu).
 */
GpugbStatus gpugb_publish_pending(GpugbGroupBy *gb, cudaStream_t stream, bool insert);

/* ordered output (order_kernels.cuh) */
GpugbStatus gpugb_launch_iota(uint32_t *perm, int64_t n, cudaStream_t stream);
GpugbStatus gpugb_launch_order_value(const int64_t *col, const uint32_t *perm, int64_t n,
									 int kind, bool descending, uint64_t *out,
									 cudaStream_t stream);
GpugbStatus gpugb_launch_order_count(const int64_t *rows, const int64_t *nulls,
									 const uint32_t *perm, int64_t n, bool descending,
									 uint64_t *out, cudaStream_t stream);
GpugbStatus gpugb_launch_order_count_null(const int64_t *rows, const int64_t *nulls,
										  const uint32_t *perm, int64_t n, bool nulls_first,
										  uint64_t *out, cudaStream_t stream);
GpugbStatus gpugb_launch_order_null(const uint32_t *masks, int bit, const uint32_t *perm,
									int64_t n, bool nulls_first, uint64_t *out,
									cudaStream_t stream);
/* dst[i] = src[perm[i]] for i < n (instantiated for int64_t and uint32_t). */
template <typename T>
GpugbStatus gpugb_launch_gather(const T *src, const uint32_t *perm, int64_t n, T *dst,
								cudaStream_t stream);

/* sort_strategy.cu: sorts the launch, finds runs, aggregates them. */
GpugbStatus gpugb_launch_sorted(GpugbGroupBy *gb, GpugbStrideSet *set, GpugbAggParams &p);
void		gpugb_sort_bufs_free(GpugbGroupBy *gb, GpugbSortBufs *b);
/*
 * Makes b hold scratch for n rows (with SORT's run buffers when `runs`, the
 * row numbers' permutations and CUB's scratch when `perms`), reallocating
 * if needed; permutations asked for later are added to the buffers b
 * holds.  GPUGB_OUT_OF_MEMORY leaves b freed: the caller switches to
 * GLOBAL_HASH for good (gpugb_scratch_unavailable).
 */
GpugbStatus gpugb_sort_bufs_ensure(GpugbGroupBy *gb, GpugbSortBufs *b, int64_t n, bool runs, bool perms = true);
/* No room for SORT's or PARTITION's scratch: the handle hashes from now on. */
void		gpugb_scratch_unavailable(GpugbGroupBy *gb);
/* True for the strategies that hold GpugbSortBufs. */
static inline bool
gpugb_strategy_uses_scratch(GpugbStrategy s)
{
	return s == GPUGB_STRATEGY_SORT || s == GPUGB_STRATEGY_PARTITION;
}

/* partition_strategy.cu: partitions the launch, aggregates partition by partition. */
GpugbStatus gpugb_launch_partition(GpugbGroupBy *gb, GpugbStrideSet *set, GpugbAggParams &p);
/* partition_strategy.cu: a retry round as a PARTITION launch (spec.partition_retry_repartition). */
GpugbStatus gpugb_partition_retry_round(GpugbGroupBy *gb, GpugbStrideSet *set, const GpugbAggParams &p,
										DevBuf *gathered, bool *ran);

/*
 * order.cu: with spec.n_order > 0, sorts groups [0, n_groups) and permutes
 * the dense table columns into that order (the hash slots are stale after
 * it: only for after the last launch).  Synchronous on `stream`.
 */
GpugbStatus gpugb_order_groups(GpugbGroupBy *gb, cudaStream_t stream);

/* table.cu */
GpugbStatus gpugb_table_create(GpugbGroupBy *gb, int64_t capacity, cudaStream_t stream);
void		gpugb_table_free(GpugbGroupBy *gb, GpugbTable *t);
GpugbStatus gpugb_table_reserve(GpugbGroupBy *gb, int64_t groups, cudaStream_t stream);
/* Forgets every group (all streams idle): slots empty, groups [0, used) identities again, counter 0. */
GpugbStatus gpugb_table_clear(GpugbGroupBy *gb, cudaStream_t stream);
void		gpugb_table_params(const GpugbGroupBy *gb, GpugbAggParams *p);
GpugbStatus gpugb_group_count(GpugbGroupBy *gb, cudaStream_t stream, int64_t *n);
GpugbStatus gpugb_direct_group_count(GpugbGroupBy *gb, cudaStream_t stream, int64_t *n);
GpugbStatus gpugb_run_retries(GpugbGroupBy *gb, GpugbStrideSet *set, uint32_t n_retry);
GpugbStatus gpugb_sync_stream(GpugbGroupBy *gb, cudaStream_t stream);
GpugbStatus gpugb_sync_all(GpugbGroupBy *gb);
double		gpugb_elapsed_ms(cudaEvent_t a, cudaEvent_t b);

/* groupby.cu: records a failure on the handle and returns it. */
GpugbStatus gpugb_fail(GpugbGroupBy *gb, GpugbStatus st);
/* groupby.cu: the input columns a launch reads, values and null bytes. */
void		gpugb_needed_inputs(const GpugbGroupBy *gb, bool *need_values, bool *need_nulls);
/* groupby.cu: the set that owns a stride handed out by next_stride, or NULL. */
GpugbStrideSet *gpugb_set_of(GpugbGroupBy *gb, const GpugbStride *stride);
/* append.cu: the append events of a handle, destroyed. */
void		gpugb_append_events_free(GpugbGroupBy *gb);

#endif							/* GPUGB_GROUPBY_INTERNAL_CUH */
