/*
 * partition_strategy.cu
 *    The PARTITION strategy's launch (Wu et al. PGB-TR): each launch row's
 *    partition (the top bits of its key's home slot in the global table),
 *    the rows in partition order, the partition boundaries, then a
 *    partition kernel over the rows in that order: blocks take them in
 *    tiles, combine each partition's keys in shared memory and touch the
 *    global table once per distinct key.  The first path, below, is a
 *    stable CUB radix sort of (partition, row) over just those bits (one to
 *    three 8-bit passes over 4-byte keys) and the generic kernel
 *    (partition_kernels.cuh); most launches of the kernel benchmark take
 *    the packed rows and the lean kernel of the next paragraph.
 *
 * Launches of one key word without NULLs move their key and value words
 * with the sort, as Wu et al. move keys and payload into partitions
 * ("transformed relation"; partition_move.cu); those of COUNT and at most
 * one integer SUM (up to four of int32 words, packed; an int32 key since
 * session 35, an 8-byte one since session 36) whose keys repeat enough
 * (3 rows a key since session 43) then take the lean partition kernel
 * (partition_lean_kernel.cuh).  Others move only the 4-byte
 * row numbers, and the kernel gathers the columns through them, as SORT
 * does: a stride's columns are read from L2, and a key is read again only
 * to compare it in the block.
 *
 * It shares SORT's scratch (GpugbSortBufs, without the run buffers) and
 * its fallback: with no device memory for the scratch, the handle switches
 * to GLOBAL_HASH for good rather than fail the query.  Rows that find no
 * group id (table full) go to the retry list like any other; retries run
 * as GLOBAL_HASH over the listed rows.
 */
#include <cub/device/device_radix_sort.cuh>

#include "groupby_internal.cuh"
#include "partition_deferred_rule.cuh"	/* gpugb_partition_deferred_applies */
#include "../src/heuristics.h"	/* gpugb_partition_bits, gpugb_partition_lean_rows_pay, gpugb_partition_l1_reserve_pays */

/* log2 of the table's capacity (a power of two, >= GPUGB_MIN_SLOTS). */
static int
table_bits(const GpugbTable *t)
{
	int			bits = 0;

	while (bits < 62 && (1ll << bits) < t->capacity)
		bits++;
	return bits;
}

/* The distinct keys a launch of n rows is expected to hold: the groups expected, at most n. */
static double
launch_distinct(const GpugbGroupBy *gb, int64_t n)
{
	return gb->groups_hint < (double) n ? gb->groups_hint : (double) n;
}

/*
 * Whether launch p's lean table leaves L1 GPUGB_PARTITION_L1_RESERVE_BYTES
 * (src/heuristics.h): gpugb_partition_l1_reserve_pays, unless the spec
 * says never or always.
 */
static bool
l1_reserve_for(const GpugbGroupBy *gb, const GpugbAggParams &p, double distinct)
{
	if (gb->spec.partition_l1_reserve != GPUGB_L1_RESERVE_BY_RULE)
		return gb->spec.partition_l1_reserve == GPUGB_L1_RESERVE_ALWAYS;
	return gpugb_partition_l1_reserve_pays(p.n_values, p.n_keys == 1 && gb->spec.key_fits_int32, distinct,
										   gb->hot_share);
}

/*
 * The lean partition kernel's slots for launch p (0: the generic kernel):
 * where the launch suits it (gpugb_partition_lean_slots), its rows will
 * move, and its keys are expected to repeat enough
 * (gpugb_partition_lean_rows_pay, src/heuristics.c, says why).  *reserved:
 * the table leaves L1 its reserve (l1_reserve_for).
 */
static int64_t
lean_slots_for(const GpugbGroupBy *gb, const GpugbAggParams &p, bool *reserved)
{
	double		distinct = launch_distinct(gb, p.nrows);
	int			rows_per_key = gb->spec.partition_lean_rows_per_key;
	bool		pays = rows_per_key > 0 ? (double) p.nrows >= rows_per_key * distinct :
		gpugb_partition_lean_rows_pay((double) p.nrows, distinct);

	*reserved = false;
	if (gb->move_refused || gb->spec.partition_rows_only || gb->spec.partition_generic_only || !pays)
		return 0;
	*reserved = l1_reserve_for(gb, p, distinct);
	return gpugb_partition_lean_slots(p, *reserved ? GPUGB_PARTITION_L1_RESERVE_BYTES : 0);
}

/*
 * `p` with the launch's overflow flag (GpugbAggParams.overflow): the word
 * after the retry count, which groupby.cu zeroes with it and reads back
 * with it.  The retries run on `p`, without it.  None under
 * spec.partition_probe_unbounded.
 */
static GpugbAggParams
with_overflow_flag(const GpugbGroupBy *gb, const GpugbAggParams &p)
{
	GpugbAggParams q = p;

	q.overflow = gb->spec.partition_probe_unbounded ? nullptr : p.retry_count + 1;
	q.overflow_on_walks_only = gb->spec.partition_overflow_walks_only ? 1 : 0;
	return q;
}

/* The generic partition kernel (partition_kernels.cuh), with the overflow flag. */
static GpugbStatus
launch_generic(GpugbGroupBy *gb, const GpugbAggParams &p, const uint32_t *sorted_parts, uint32_t *bounds,
			   int64_t n_parts, cudaStream_t stream)
{
	GpugbAggParams generic = with_overflow_flag(gb, p);

	gb->stats.partition_generic_launches++;
	return gpugb_launch_partitioned(generic, sorted_parts, bounds, n_parts, gb->partition_slots,
									gb->n_counts + gb->n_values + gb->n_his, stream);
}

/* The smallest retry round that gpugb_partition_retry_round takes (fewer rows: GLOBAL_HASH). */
#define RETRY_PARTITION_MIN_ROWS 65536

/*
 * A retry round `p` (the retry list over set->params' columns) as a
 * PARTITION launch of its own, under spec.partition_retry_repartition:
 * where PARTITION ran the launch and the round holds half its rows or more
 * (an overflowed launch sends nearly all of them), gather the retried rows'
 * key and value columns (8-byte words, as every launch's) into `gathered`
 * and partition those, with the grown table.  Only launches whose rows
 * PARTITION moves qualify (one key, no NULLs, no run heads); they are the
 * ones whose lean launches stop on overflow.  set->params becomes the
 * round's columns, so the next round's retries read what this round's
 * retry list numbers (gpugb_launch_partition sets its own where its sort
 * moves them, or, for rows it leaves packed, gpugb_run_retries has them
 * unpacked after the round).  The caller frees `gathered` once no round reads it, and
 * runs at most one such round a launch: the round's own PARTITION launch
 * carries the overflow flag, and a round after it that overflowed again
 * runs as GLOBAL_HASH, without a bound, so that repeated overflow cannot
 * keep growing the table (review of session 39).
 * *ran false: the round does not qualify, or there was no memory for the
 * columns; the caller runs it as before.  *ran true with no PARTITION
 * kernel launched (no scratch: gpugb_launch_agg) counts no partitioned round.
 */
GpugbStatus
gpugb_partition_retry_round(GpugbGroupBy *gb, GpugbStrideSet *set, const GpugbAggParams &p,
							DevBuf *gathered, bool *ran)
{
	const int64_t *in[1 + GPUGB_MAX_AGGS];
	int			col_of[GPUGB_MAX_AGGS];
	int			n_cols = 0;
	int64_t		n = p.nrows;

	*ran = false;
	if (!gb->spec.partition_retry_repartition || gb->strategy != GPUGB_STRATEGY_PARTITION ||
		n < RETRY_PARTITION_MIN_ROWS || 2 * n < set->params.nrows || p.row_list == nullptr ||
		p.n_keys != 1 || p.key_nulls[0] != nullptr || p.run_gid != nullptr)
		return GPUGB_OK;
	for (int k = 1; k < p.n_counts; k++)
		if (p.count_nulls[k] != nullptr)
			return GPUGB_OK;
	in[n_cols++] = p.key_values[0];
	for (int a = 0; a < p.n_values; a++)
	{
		if (p.vals[a].nulls != nullptr)
			return GPUGB_OK;
		col_of[a] = -1;
		for (int m = 1; m < n_cols; m++)
			if (in[m] == p.vals[a].values)
				col_of[a] = m;
		if (col_of[a] < 0)
		{
			col_of[a] = n_cols;
			in[n_cols++] = p.vals[a].values;
		}
	}

	GpugbStatus st = gpugb_dev_alloc(&gb->acct, gathered, (size_t) n_cols * (size_t) n * 8,
									 "re-partitioned retries");

	if (st == GPUGB_OUT_OF_MEMORY)
		return GPUGB_OK;
	GPUGB_TRY(st);

	int64_t    *cols = (int64_t *) gathered->ptr;
	GpugbAggParams q = p;

	for (int m = 0; m < n_cols; m++)
		GPUGB_TRY(gpugb_launch_gather<int64_t>(in[m], p.row_list, n, cols + (size_t) m * (size_t) n,
											   set->stream));
	q.row_list = nullptr;
	q.key_values[0] = cols;
	for (int a = 0; a < p.n_values; a++)
		q.vals[a].values = cols + (size_t) col_of[a] * (size_t) n;
	/*
	 * The table grew for these rows (gpugb_run_retries): plan this round's
	 * partitions for the groups it holds now, not for the estimate that
	 * overflowed it (the plan is made on the host, within the call).  Later
	 * launches keep the estimate.
	 */
	double		hint = gb->groups_hint;
	int64_t		kernels = gb->stats.partition_lean_launches + gb->stats.partition_generic_launches;

	if (gb->groups_hint < (double) gb->table.max_groups)
		gb->groups_hint = (double) gb->table.max_groups;
	set->params = q;
	*ran = true;
	st = gpugb_launch_partition(gb, set, q);
	gb->groups_hint = hint;
	if (gb->stats.partition_lean_launches + gb->stats.partition_generic_launches > kernels)
		gb->stats.retry_partition_rounds++;
	return st;
}

/*
 * Whether PARTITION's deferred lean launch may number a whole partition's
 * groups without looking them up (partition_deferred.cuh,
 * gpugb_deferred_flush_direct; not under spec.partition_lookup_all).  That is right only
 * where no key of the launch is in the table yet and none is looked up
 * until the launch's groups are published: the handle's first launch, with
 * the other stride set's next launch made to wait (groupby.cu,
 * wait_for_direct_launch).  The deferred flush keeps ids as ints.
 */
static bool
direct_gids_apply(const GpugbGroupBy *gb)
{
	return !gb->spec.partition_lookup_all && gb->launches_queued == 0 && gb->table.max_groups <= INT32_MAX;
}

GpugbStatus
gpugb_launch_partition(GpugbGroupBy *gb, GpugbStrideSet *set, GpugbAggParams &p)
{
	GpugbSortBufs *b = &set->sort;
	cudaStream_t stream = set->stream;
	int64_t		n = p.nrows;

	if (n <= 0)
		return GPUGB_OK;
	/* Nothing to partition by / a retry / too few rows to be worth a sort. */
	if (p.n_keys == 0 || p.row_list != nullptr || n < 2 || gb->table.capacity < 2)
		return gpugb_launch_agg(p, stream);

	/*
	 * The row numbers' permutations and CUB's scratch for them come only
	 * when the row numbers' sort runs (below): moved launches use neither.
	 * That is 4.0-4.1 GiB less at the peak of a launch of 2^28 rows (16.3
	 * GiB where 20.3 were held at 2^22 groups with one payload), at the
	 * same times within a rep's noise (H200, session 37, call 2).
	 */
	GpugbStatus st = gb->spec.partition_scratch_refused_from > 0 &&
		gb->launches_queued >= gb->spec.partition_scratch_refused_from ? GPUGB_OUT_OF_MEMORY :
		gpugb_sort_bufs_ensure(gb, b, n, false, false);

	if (st == GPUGB_OUT_OF_MEMORY)
	{
		/* No room to partition (the table took it): group by hashing instead. */
		gpugb_scratch_unavailable(gb);
		return gpugb_launch_agg(p, stream);
	}
	GPUGB_TRY(st);

	/*
	 * The lean kernel's table where it applies (lean_slots_for): the
	 * partitions are sized for it, and as few as that allows.  Its tiles
	 * cut large partitions (gpugb_launch_partitioned_lean), which costs a
	 * flush of their keys per tile, little where keys repeat: so no two
	 * partitions an SM, which at 2^18 groups took a second radix pass.
	 * The generic kernel's tiles keep partitions whole: at least two an SM.
	 */
	bool		l1_reserved;
	int64_t		lean_slots = lean_slots_for(gb, p, &l1_reserved);
	int			tbits = table_bits(&gb->table);
	double		distinct = launch_distinct(gb, n);
	int			generic_bits = gpugb_partition_bits(distinct, n, gb->partition_slots,
													2 * (int64_t) gpugb_sm_count(), tbits);
	int			bits = lean_slots > 0 ? gpugb_partition_bits(distinct, n, lean_slots, 1, tbits) :
		generic_bits;
	int64_t		n_parts = 1ll << bits;
	uint32_t   *keys_in = (uint32_t *) b->keys_in.ptr,
			   *keys_out = (uint32_t *) b->keys_out.ptr;
	/*
	 * The boundaries (n_parts + 1 <= n + 1 uint32) reuse keys_in (n + 1
	 * uint32), which the sort has finished reading by then: same stream.
	 */
	uint32_t   *bounds = keys_in;
	GpugbAggParams moved;
	GpugbPackedRows packed;
	bool		did_move = false;

	const bool	want_packed = lean_slots > 0 && !gb->spec.partition_lean_unpacked;
	/*
	 * Mixed words (GPUGB_PARTITION_MIXED_KEYS, gpugb_device.h) only in a
	 * launch that will number directly, where the deferred path takes them.
	 */
	const bool	want_mixed = GPUGB_PARTITION_MIXED_KEYS && !gb->spec.partition_unmixed_words &&
		want_packed && direct_gids_apply(gb) &&
		gpugb_partition_deferred_applies(1, GPUGB_MIXED_KEY_WORDS, (int) lean_slots);

	/* Hashed rows (GPUGB_HASHED_KEY_WORDS, gpugb_device.h) only where the deferred path will read them. */
	const bool	want_hashed = want_packed && !gb->spec.partition_unhashed_keys &&
		gpugb_partition_deferred_applies(p.n_values, GPUGB_HASHED_KEY_WORDS, (int) lean_slots);

	/* One key word, no NULLs: the rows move with the sort (partition_move.cu). */
	GPUGB_TRY(gpugb_partition_move_rows(gb, b, p, tbits - bits, bits, want_packed, want_mixed, want_hashed, stream,
										&moved, &packed, &did_move));
	if (did_move)
	{
		/* Retries list sorted positions: they must read the sorted columns. */
		set->params = moved;
		gb->stats.partition_moved_launches++;
		/* Rows of two sums or more move only packed (partition_move.cu); the check keeps that so. */
		if (lean_slots > 0 && (packed.rows != nullptr || moved.n_values <= 1))
		{
			GpugbAggParams lean = with_overflow_flag(gb, moved);
			const bool	deferred = packed.rows != nullptr &&
				gpugb_partition_deferred_applies(lean.n_values, packed.key_words, (int) lean_slots);
			const bool	direct = deferred && direct_gids_apply(gb);

			gb->stats.partition_lean_launches++;
			if (l1_reserved)
				gb->stats.partition_l1_reserve_launches++;
			/*
			 * Scattered rows come with their bounds; sorted ones with their
			 * sorted partitions, whose width the move chose (2 or 4 bytes,
			 * whatever keys_out's declared type).
			 */
			GPUGB_TRY(gpugb_launch_partitioned_lean(lean, packed.rows, packed.key_words,
													packed.bounds_ready ? nullptr :
													packed.sorted_part_bytes == 8 ||
													packed.sorted_part_bytes == GPUGB_SORTED_PARTS_MIXED32 ||
													packed.sorted_part_bytes == GPUGB_SORTED_PARTS_HASHED ? packed.rows :
													keys_out,
													packed.rows != nullptr ? packed.sorted_part_bytes : 4, bounds, n_parts,
													lean_slots, direct, stream));
			if (direct)
			{
				gb->stats.partition_direct_launches++;
				if (gb->spec.device_resident && !gb->spec.partition_eager_publish)
					gb->publish_pending = true;	/* one launch at a time: published when a lookup is to come */
				else
				{
					/*
					 * Before anything else looks a key up: this set's retries and
					 * later launches follow on its stream, the other sets' wait
					 * for its ev_done (groupby.cu, wait_for_direct_launch).
					 */
					GPUGB_TRY(gpugb_launch_publish_groups(lean, true, stream));
					gb->direct_set = (int) (set - gb->sets);
					gb->direct_waits = ((1u << GPUGB_N_SETS) - 1u) & ~(1u << gb->direct_set);
				}
			}
			if (packed.rows == nullptr)
				return GPUGB_OK;
			/* Rows left packed: their columns only for retries, which read them (complete_set). */
			gb->stats.partition_packed_launches++;
			if (deferred)
				gb->stats.partition_deferred_launches++;
			set->retry_unpack = packed;
			return GPUGB_OK;
		}
		return launch_generic(gb, moved, keys_out, bounds, n_parts, stream);
	}
	/*
	 * The row numbers' sort (nothing moved: the launch does not qualify, or
	 * the move's scratch was refused): the generic kernel, whose partitions
	 * are sized for its own table.
	 */
	/* Nothing of this launch has used b yet: its keys stay, the permutations are added if missing. */
	st = gpugb_sort_bufs_ensure(gb, b, n, false, true);
	if (st == GPUGB_OUT_OF_MEMORY)
	{
		gpugb_scratch_unavailable(gb);
		return gpugb_launch_agg(p, stream);
	}
	GPUGB_TRY(st);

	uint32_t   *perm_in = (uint32_t *) b->perm_in.ptr,
			   *perm_out = (uint32_t *) b->perm_out.ptr;
	size_t		temp_bytes = b->temp_bytes;

	bits = generic_bits;
	n_parts = 1ll << bits;
	GPUGB_TRY(gpugb_launch_partition_keys(p, keys_in, perm_in, tbits - bits, stream));
	GPUGB_TRY(GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(
		b->temp.ptr, temp_bytes, (const uint32_t *) keys_in, keys_out,
		(const uint32_t *) perm_in, perm_out, n, 0, bits, stream)));

	p.row_list = perm_out;
	return launch_generic(gb, p, keys_out, bounds, n_parts, stream);
}
