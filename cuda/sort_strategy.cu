/*
 * sort_strategy.cu
 *    The SORT strategy's launch (Wu et al. SGB-TR): hash-prefix keys (or
 *    the key itself, where it is one int32 and never NULL), a CUB radix
 *    sort of (key, row), run heads, each of which looks its group up once
 *    (listed by the run test, so that lookups fill whole warps), a
 *    max-scan that hands each row its run, then an aggregation kernel over
 *    the rows in sorted order, where the rows of a run share a group id
 *    and each warp folds every run it meets with one segmented scan, one
 *    update per run and aggregate (Gurumurthy et al.'s private running
 *    aggregate, a warp at a time).
 *
 * Rows whose run found no group id (table full) go to the retry list like
 * any other; retries run as GLOBAL_HASH over the listed rows.  When there is
 * no device memory for the sort's scratch, the handle switches to
 * GLOBAL_HASH for good rather than fail the query.
 *
 * The scratch (GpugbSortBufs) and its fallback also serve PARTITION
 * (partition_strategy.cu), which needs only the radix sort's part.
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>

#include "groupby_internal.cuh"

void
gpugb_sort_bufs_free(GpugbGroupBy *gb, GpugbSortBufs *b)
{
	gpugb_dev_free(&gb->acct, &b->keys_in);
	gpugb_dev_free(&gb->acct, &b->keys_out);
	gpugb_dev_free(&gb->acct, &b->perm_in);
	gpugb_dev_free(&gb->acct, &b->perm_out);
	gpugb_dev_free(&gb->acct, &b->head_pos);
	gpugb_dev_free(&gb->acct, &b->run_start);
	gpugb_dev_free(&gb->acct, &b->run_gid);
	gpugb_dev_free(&gb->acct, &b->n_heads);
	gpugb_dev_free(&gb->acct, &b->temp);
	gpugb_dev_free(&gb->acct, &b->moved_in);
	gpugb_dev_free(&gb->acct, &b->moved_out);
	gpugb_dev_free(&gb->acct, &b->moved_cols);
	gpugb_dev_free(&gb->acct, &b->moved_temp);
	b->rows = 0;
	b->runs = false;
	b->perms = false;
	b->temp_bytes = 0;
}

/* The row numbers' permutations and CUB's scratch, for b->rows rows. */
static GpugbStatus
sort_bufs_alloc_perms(GpugbGroupBy *gb, GpugbSortBufs *b)
{
	size_t		n = (size_t) b->rows;
	size_t		sort_bytes = 0,
				scan_bytes = 0;

	/* One temporary area serves SORT's sort and scan and PARTITION's sort (uint32 keys). */
	GPUGB_TRY(GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(
		nullptr, sort_bytes, (const uint32_t *) nullptr, (uint32_t *) nullptr,
		(const uint32_t *) nullptr, (uint32_t *) nullptr, (int64_t) n)));
	GPUGB_TRY(GPUGB_CUDA(cub::DeviceScan::InclusiveScan(
		nullptr, scan_bytes, (const uint32_t *) nullptr, (uint32_t *) nullptr,
		cuda::maximum<uint32_t>{}, (int64_t) n)));
	b->temp_bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->perm_in, n * 4, "sort permutation"));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->perm_out, n * 4, "sort permutation"));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->temp, b->temp_bytes, "sort scratch"));
	b->perms = true;
	return GPUGB_OK;
}

static GpugbStatus
sort_bufs_alloc(GpugbGroupBy *gb, GpugbSortBufs *b, int64_t rows, bool runs, bool perms)
{
	size_t		n = (size_t) rows;

	/* (n + 1) uint32: PARTITION's boundaries reuse keys_in */
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->keys_in, (n + 1) * 4, "sort keys"));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->keys_out, n * 4, "sort keys"));
	if (runs)
	{
		GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->head_pos, n * 4, "run heads"));
		GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->run_start, n * 4, "run starts"));
		GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->run_gid, n * 8, "run group ids"));
		GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->n_heads, 8, "run head count"));
	}
	b->rows = rows;
	b->runs = runs;
	return perms ? sort_bufs_alloc_perms(gb, b) : GPUGB_OK;
}

GpugbStatus
gpugb_sort_bufs_ensure(GpugbGroupBy *gb, GpugbSortBufs *b, int64_t n, bool runs, bool perms)
{
	if (b->rows >= n && (b->runs || !runs))
	{
		if (b->perms || !perms)
			return GPUGB_OK;

		/* Added to the buffers held: PARTITION's row numbers' sort after a launch that moved its rows. */
		GpugbStatus st = sort_bufs_alloc_perms(gb, b);

		if (st != GPUGB_OK)
			gpugb_sort_bufs_free(gb, b);
		return st;
	}
	gpugb_sort_bufs_free(gb, b);

	/*
	 * Strides: for a whole stride, so a short last one needs no new scratch.
	 * Device-resident rows: for this launch; the run-time check's probe
	 * launch is a small part of the rows, and scratch for all of them (40 bytes a
	 * row then, 32 now) cost more to allocate than the probe's sort (kernel benchmark).
	 */
	int64_t		rows = gb->spec.device_resident || gb->spec.stride_rows < n ? n : gb->spec.stride_rows;
	GpugbStatus st = sort_bufs_alloc(gb, b, rows, runs, perms);

	if (st != GPUGB_OK)
		gpugb_sort_bufs_free(gb, b);
	return st;
}

void
gpugb_scratch_unavailable(GpugbGroupBy *gb)
{
	/* Only this set's scratch failed; the other's is no use to GLOBAL_HASH either. */
	for (int s = 0; s < GPUGB_N_SETS; s++)
		if (gb->sets[s].sort.rows > 0)
		{
			/* It may still be in use by that set's queued work: wait for it. */
			if (gb->sets[s].stream != nullptr)
				(void) cudaStreamSynchronize(gb->sets[s].stream);
			(void) cudaGetLastError();

			/*
			 * An in-flight set's retries, still to run (complete_set), may
			 * read its moved columns (partition_move.cu): those stay until
			 * complete_set has run them.  Where its rows were left packed,
			 * their columns are still to be written from them
			 * (gpugb_partition_unpack_for_retries): the rows stay too, if
			 * the launch listed retries (its count is on the host after the
			 * wait above), and are forgotten if not.
			 */
			GpugbStrideSet *set = &gb->sets[s];
			GpugbSortBufs *b = &set->sort;
			const bool	inflight = set->state == GPUGB_SET_INFLIGHT;
			const bool	unpack_pending = inflight && set->retry_unpack.rows != nullptr &&
				((const uint32_t *) set->retry_count_host.ptr)[0] != 0;
			DevBuf		keep_cols = inflight ? b->moved_cols : DevBuf();
			DevBuf		keep_rows = unpack_pending ? b->moved_out : DevBuf();

			if (keep_cols.ptr != nullptr)
				b->moved_cols = DevBuf();
			if (keep_rows.ptr != nullptr)
				b->moved_out = DevBuf();
			gpugb_sort_bufs_free(gb, b);
			b->moved_cols = keep_cols;
			b->moved_out = keep_rows;
			if (!unpack_pending)
				set->retry_unpack = GpugbPackedRows();
		}
	gb->strategy = GPUGB_STRATEGY_GLOBAL_HASH;
	gb->stats.strategy_switches++;
}

/*
 * Bits of hash prefix: distinct keys of a launch rarely share one (3 bits
 * more than they need: 1 in 8 shares), rounded up to a whole 8-bit digit,
 * at most 32 (the sort keys are uint32).  CUB's onesweep sorts 8 bits a
 * pass (tuning_radix_sort.cuh, sm_80 and later), so the rounding costs no
 * pass and splits fewer runs: keys that share a prefix interleave in sorted
 * order, and every change between them starts a run whose head looks its
 * group up (session 17 found run heads at 2^16 groups, 19 bits, taking most
 * of the sort strategy's time).
 */
static int
prefix_bits(double groups_hint, int64_t rows)
{
	double		distinct = groups_hint < (double) rows ? groups_hint : (double) rows;
	int			bits = 3;

	while (bits < 32 && (double) (1ll << (bits - 3)) < distinct)
		bits++;
	return (bits + 7) / 8 * 8;
}

GpugbStatus
gpugb_launch_sorted(GpugbGroupBy *gb, GpugbStrideSet *set, GpugbAggParams &p)
{
	GpugbSortBufs *b = &set->sort;
	cudaStream_t stream = set->stream;
	int64_t		n = p.nrows;

	if (n <= 0)
		return GPUGB_OK;
	if (p.n_keys == 0 || p.row_list != nullptr)
		return gpugb_launch_agg(p, stream);	/* nothing to sort by / a retry */
	GpugbStatus st = gpugb_sort_bufs_ensure(gb, b, n, true);

	if (st == GPUGB_OUT_OF_MEMORY)
	{
		/* No room to sort (the table took it): group by hashing instead. */
		gpugb_scratch_unavailable(gb);
		return gpugb_launch_agg(p, stream);
	}
	GPUGB_TRY(st);

	/* One int32 key and no NULL: sort by the key itself (sort_kernels.cuh says why). */
	bool		exact_int32 = p.n_keys == 1 && gb->spec.key_fits_int32 && p.key_nulls[0] == nullptr;
	int			bits = exact_int32 ? 32 : prefix_bits(gb->groups_hint, n);
	uint32_t   *keys_in = (uint32_t *) b->keys_in.ptr,
			   *keys_out = (uint32_t *) b->keys_out.ptr,
			   *perm_in = (uint32_t *) b->perm_in.ptr,
			   *perm_out = (uint32_t *) b->perm_out.ptr,
			   *head_pos = (uint32_t *) b->head_pos.ptr,
			   *run_start = (uint32_t *) b->run_start.ptr;
	int64_t    *run_gid = (int64_t *) b->run_gid.ptr;
	unsigned long long *n_heads = (unsigned long long *) b->n_heads.ptr;
	size_t		temp_bytes = b->temp_bytes;

	GPUGB_TRY(gpugb_launch_sort_keys(p, keys_in, perm_in, 64 - bits, exact_int32, stream));
	GPUGB_TRY(GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(
		b->temp.ptr, temp_bytes, (const uint32_t *) keys_in, keys_out,
		(const uint32_t *) perm_in, perm_out, n, 0, bits, stream)));
	/* The heads are listed where the sort keys were (sort_kernels.cuh says why). */
	GPUGB_TRY(gpugb_launch_run_heads(p, keys_out, perm_out, head_pos, keys_in, n_heads,
									 exact_int32, stream));
	GPUGB_TRY(gpugb_launch_run_groups(p, perm_out, keys_in, n_heads, run_gid, stream));
	temp_bytes = b->temp_bytes;
	GPUGB_TRY(GPUGB_CUDA(cub::DeviceScan::InclusiveScan(
		b->temp.ptr, temp_bytes, (const uint32_t *) head_pos, run_start,
		cuda::maximum<uint32_t>{}, n, stream)));

	p.row_list = perm_out;
	p.run_start = run_start;
	p.run_gid = run_gid;
	return gpugb_launch_sorted_agg(p, stream);
}
