/*
 * order.cu
 *    Ordered output.  When the planner advertised pathkeys over the group
 *    keys or counts (spec.n_order > 0), finish sorts the finished groups and
 *    permutes the dense table columns into that order, so fetch, unchanged,
 *    hands groups out sorted and PostgreSQL needs no Sort above the node
 *    (under a LIMIT, the node hands out only the rows it takes; fetch
 *    copies groups from the device a chunk at a time).
 *
 * Whatever strategy grouped the rows, the sort runs once over the groups,
 * not the rows: a permutation of group ids, sorted LSD with CUB's stable
 * radix sort, least significant order key first; for each key one 64-bit
 * pass over its value (order_kernels.cuh: PostgreSQL's order as unsigned
 * bits, complemented for DESC) and then one 1-bit pass over its nullness
 * (NULLS FIRST or LAST), which, sorted later, is the more significant; an
 * aggregate's count (never NULL) needs only the value pass.
 * Ties (order keys that are only some of the group keys) keep group-id
 * order.  Then every dense column (keys, null masks, counts, values, high
 * words) is gathered through the permutation into scratch and copied back.
 *
 * Invariants: runs after the last launch, with every stream idle, on one
 * stream, and synchronously: its buffers are freed only after the stream
 * drained, also on failure.  The hash slots still map keys to the old
 * group ids afterwards; nothing reads them after finish.  Device memory:
 * 2 x 8 + 2 x 4 bytes per group plus CUB's scratch; without it finish
 * fails with GPUGB_OUT_OF_MEMORY and the caller falls back.
 */
#include <utility>

#include <cub/device/device_radix_sort.cuh>

#include "groupby_internal.cuh"

struct OrderBufs
{
	DevBuf		keys_a;			/* uint64 sort keys; then gather scratch */
	DevBuf		keys_b;
	DevBuf		perm_a;			/* uint32 group ids */
	DevBuf		perm_b;
	DevBuf		temp;			/* CUB's */
	size_t		temp_bytes = 0;
};

static void
order_bufs_free(GpugbGroupBy *gb, OrderBufs *b)
{
	gpugb_dev_free(&gb->acct, &b->keys_a);
	gpugb_dev_free(&gb->acct, &b->keys_b);
	gpugb_dev_free(&gb->acct, &b->perm_a);
	gpugb_dev_free(&gb->acct, &b->perm_b);
	gpugb_dev_free(&gb->acct, &b->temp);
}

static GpugbStatus
order_bufs_alloc(GpugbGroupBy *gb, OrderBufs *b, int64_t n)
{
	size_t		wide = 0,
				narrow = 0;

	/* CUB's scratch depends on the bits sorted: ask for both kinds of pass. */
	GPUGB_TRY(GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(
		nullptr, wide, (const uint64_t *) nullptr, (uint64_t *) nullptr,
		(const uint32_t *) nullptr, (uint32_t *) nullptr, n, 0, 64)));
	GPUGB_TRY(GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(
		nullptr, narrow, (const uint64_t *) nullptr, (uint64_t *) nullptr,
		(const uint32_t *) nullptr, (uint32_t *) nullptr, n, 0, 1)));
	b->temp_bytes = wide > narrow ? wide : narrow;
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->keys_a, (size_t) n * 8, "order keys"));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->keys_b, (size_t) n * 8, "order keys"));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->perm_a, (size_t) n * 4, "order permutation"));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->perm_b, (size_t) n * 4, "order permutation"));
	GPUGB_TRY(gpugb_dev_alloc(&gb->acct, &b->temp, b->temp_bytes, "order sort scratch"));
	return GPUGB_OK;
}

/* One stable radix sort of (keys_a, *perm) by bits [0, end_bit); *perm becomes the result. */
static GpugbStatus
sort_pass(OrderBufs *b, uint32_t **perm, uint32_t **spare, int64_t n, int end_bit,
		  cudaStream_t stream)
{
	size_t		temp_bytes = b->temp_bytes;

	GPUGB_TRY(GPUGB_CUDA(cub::DeviceRadixSort::SortPairs(
		b->temp.ptr, temp_bytes, (const uint64_t *) b->keys_a.ptr, (uint64_t *) b->keys_b.ptr,
		(const uint32_t *) *perm, *spare, n, 0, end_bit, stream)));
	std::swap(*perm, *spare);
	return GPUGB_OK;
}

/* Gathers `ncols` columns of pitch m through perm, in place, via scratch. */
static GpugbStatus
permute_columns(void *base, int64_t m, int ncols, const uint32_t *perm, int64_t n,
				int64_t *scratch, cudaStream_t stream)
{
	for (int c = 0; c < ncols; c++)
	{
		int64_t    *col = (int64_t *) base + (size_t) c * m;

		GPUGB_TRY(gpugb_launch_gather(col, perm, n, scratch, stream));
		GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(col, scratch, (size_t) n * 8,
											 cudaMemcpyDeviceToDevice, stream)));
	}
	return GPUGB_OK;
}

static GpugbStatus
order_run(GpugbGroupBy *gb, OrderBufs *b, int64_t n, cudaStream_t stream)
{
	GpugbTable *t = &gb->table;
	int64_t		m = t->max_groups;
	uint32_t   *perm = (uint32_t *) b->perm_a.ptr,
			   *spare = (uint32_t *) b->perm_b.ptr;
	const uint32_t *masks = (const uint32_t *) t->nulls.ptr;

	GPUGB_TRY(GPUGB_CUDA(cudaEventRecord(gb->ev_a, stream)));
	GPUGB_TRY(gpugb_launch_iota(perm, n, stream));
	for (int o = gb->spec.n_order - 1; o >= 0; o--)
	{
		const GpugbOrderKey *key = &gb->spec.order[o];

		if (key->by_count)
		{
			/* a count is never NULL: one pass over its value */
			int			c = gb->agg_count_col[key->agg];
			const int64_t *counts = (const int64_t *) t->counts.ptr;

			GPUGB_TRY(gpugb_launch_order_count(counts, c > 0 ? counts + (size_t) c * m : nullptr,
											   perm, n, key->descending,
											   (uint64_t *) b->keys_a.ptr, stream));
			GPUGB_TRY(sort_pass(b, &perm, &spare, n, 64, stream));
			continue;
		}
		if (key->by_value)
		{
			/*
			 * An aggregate's value: a 128-bit sum as its low word's unsigned
			 * bits, then (more significant) its high word's signed ones; a
			 * min/max as its one word; then NULL (no non-NULL input) or not.
			 * A NULL group's words are the identity's: the NULL pass decides.
			 */
			int			vc = gb->agg_value_col[key->agg];
			int			hc = gb->value_cols[vc].hi_col;
			int			c = gb->agg_count_col[key->agg];
			const int64_t *counts = (const int64_t *) t->counts.ptr;
			const int64_t *value = (const int64_t *) t->values.ptr + (size_t) vc * m;

			if (hc >= 0)
			{
				GPUGB_TRY(gpugb_launch_order_value(value, perm, n, GPUGB_ORDER_UINT,
												   key->descending, (uint64_t *) b->keys_a.ptr,
												   stream));
				GPUGB_TRY(sort_pass(b, &perm, &spare, n, 64, stream));
				value = (const int64_t *) t->his.ptr + (size_t) hc * m;
			}
			GPUGB_TRY(gpugb_launch_order_value(value, perm, n, GPUGB_ORDER_INT, key->descending,
											   (uint64_t *) b->keys_a.ptr, stream));
			GPUGB_TRY(sort_pass(b, &perm, &spare, n, 64, stream));
			GPUGB_TRY(gpugb_launch_order_count_null(counts,
													c > 0 ? counts + (size_t) c * m : nullptr,
													perm, n, key->nulls_first,
													(uint64_t *) b->keys_a.ptr, stream));
			GPUGB_TRY(sort_pass(b, &perm, &spare, n, 1, stream));
			continue;
		}
		GPUGB_TRY(gpugb_launch_order_value((const int64_t *) t->keys.ptr + (size_t) key->key * m,
										   perm, n, (int) key->kind, key->descending,
										   (uint64_t *) b->keys_a.ptr, stream));
		GPUGB_TRY(sort_pass(b, &perm, &spare, n, 64, stream));
		GPUGB_TRY(gpugb_launch_order_null(masks, key->key, perm, n, key->nulls_first,
										  (uint64_t *) b->keys_a.ptr, stream));
		GPUGB_TRY(sort_pass(b, &perm, &spare, n, 1, stream));
	}

	/* perm[i] is the group to come i-th: gather every column into that order. */
	int64_t    *scratch = (int64_t *) b->keys_a.ptr;

	GPUGB_TRY(permute_columns(t->keys.ptr, m, gb->spec.n_keys, perm, n, scratch, stream));
	GPUGB_TRY(permute_columns(t->counts.ptr, m, gb->n_counts, perm, n, scratch, stream));
	GPUGB_TRY(permute_columns(t->values.ptr, m, gb->n_values, perm, n, scratch, stream));
	GPUGB_TRY(permute_columns(t->his.ptr, m, gb->n_his, perm, n, scratch, stream));
	GPUGB_TRY(gpugb_launch_gather(masks, perm, n, (uint32_t *) scratch, stream));
	GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(t->nulls.ptr, scratch, (size_t) n * 4,
										 cudaMemcpyDeviceToDevice, stream)));
	GPUGB_TRY(GPUGB_CUDA(cudaEventRecord(gb->ev_b, stream)));
	GPUGB_TRY(gpugb_sync_stream(gb, stream));
	gb->stats.kernel_ms += gpugb_elapsed_ms(gb->ev_a, gb->ev_b);
	return GPUGB_OK;
}

GpugbStatus
gpugb_order_groups(GpugbGroupBy *gb, cudaStream_t stream)
{
	int64_t		n = gb->n_groups;
	OrderBufs	b;
	GpugbStatus st;

	if (gb->spec.n_order <= 0 || gb->spec.n_keys == 0 || n < 2)
		return GPUGB_OK;
	if (n > (int64_t) UINT32_MAX || n > gb->table.max_groups)
	{
		gpugb_set_error("cannot order %lld groups", (long long) n);
		return GPUGB_INVALID_ARGUMENT;
	}
	/* The SORT strategy's per-launch scratch is done with: make room. */
	for (int s = 0; s < GPUGB_N_SETS; s++)
		gpugb_sort_bufs_free(gb, &gb->sets[s].sort);

	st = order_bufs_alloc(gb, &b, n);
	if (st == GPUGB_OK)
		st = order_run(gb, &b, n, stream);
	if (st != GPUGB_OK)
	{
		/* Wait before freeing what queued work may still touch. */
		(void) cudaStreamSynchronize(stream);
		(void) cudaGetLastError();
	}
	order_bufs_free(gb, &b);
	return st;
}
