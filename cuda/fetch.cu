/*
 * fetch.cu
 *    Copies finished groups back to the caller's host arrays, converting the
 *    device representation to the one gpugb_device.h promises: per-key null
 *    bytes from the group's null mask, doubles from the order-preserving
 *    MIN/MAX_FLOAT encoding, non-null counts from rows - NULL counts.
 *
 * Invariants: only after finish (every stream drained, no retries left);
 * all copies of one call are queued on one stream and waited for once, and
 * only then are the host-side conversions applied.
 */
#include <stdlib.h>

#include "groupby_internal.cuh"

static GpugbStatus
fetch_column(GpugbGroupBy *gb, void *dst, const void *col_base, int64_t first, int64_t count,
			 cudaStream_t stream)
{
	gb->stats.bytes_from_device += count * 8;
	return GPUGB_CUDA(cudaMemcpyAsync(dst, (const int64_t *) col_base + first, (size_t) count * 8,
									  cudaMemcpyDeviceToHost, stream));
}

/*
 * Copies groups' keys, masks and states; count columns c > 0 arrive as NULL
 * counts (kernel_params.cuh), and rows (column 0) goes to `rows` for the
 * caller to subtract them from.
 */
static GpugbStatus
fetch_all(GpugbGroupBy *gb, int64_t first, int64_t count, const GpugbGroupResults *out,
		  uint32_t *masks, int64_t *rows)
{
	const GpugbTable *t = &gb->table;
	int64_t		m = t->max_groups;
	cudaStream_t stream = gb->sets[0].stream;

	for (int k = 0; k < gb->spec.n_keys; k++)
		if (out->key_values[k] != NULL)
			GPUGB_TRY(fetch_column(gb, out->key_values[k], (const int64_t *) t->keys.ptr + k * m,
								   first, count, stream));
	if (masks != NULL)
	{
		gb->stats.bytes_from_device += count * 4;
		GPUGB_TRY(GPUGB_CUDA(cudaMemcpyAsync(masks, (const uint32_t *) t->nulls.ptr + first,
											 (size_t) count * 4, cudaMemcpyDeviceToHost, stream)));
	}
	if (rows != NULL)
		GPUGB_TRY(fetch_column(gb, rows, t->counts.ptr, first, count, stream));
	for (int a = 0; a < gb->spec.n_aggs; a++)
	{
		int			cc = gb->agg_count_col[a];
		int			vc = gb->agg_value_col[a];
		const int64_t *counts = (const int64_t *) t->counts.ptr + cc * m;

		if (out->agg_count[a] != NULL)
			GPUGB_TRY(fetch_column(gb, out->agg_count[a], counts, first, count, stream));
		if (out->agg_value[a] != NULL)
		{
			/* COUNT*: "unused" by contract; the count is the friendliest filler. */
			const int64_t *src = vc < 0 ? counts : (const int64_t *) t->values.ptr + vc * m;

			GPUGB_TRY(fetch_column(gb, out->agg_value[a], src, first, count, stream));
		}
		if (out->agg_value_hi[a] != NULL && vc >= 0 && gb->value_cols[vc].hi_col >= 0)
			GPUGB_TRY(fetch_column(gb, out->agg_value_hi[a],
								   (const int64_t *) t->his.ptr + gb->value_cols[vc].hi_col * m,
								   first, count, stream));
	}
	return gpugb_sync_stream(gb, stream);
}

GPUGB_API GpugbStatus
gpugb_groupby_fetch(GpugbGroupBy *gb, int64_t first, int64_t count,
					const GpugbGroupResults *out)
{
	if (gb == NULL || out == NULL)
	{
		gpugb_set_error("invalid argument: NULL handle or results");
		return GPUGB_INVALID_ARGUMENT;
	}
	if (gb->failed)
		return gb->failed_status;
	if (!gb->finished || first < 0 || count < 0 || first > gb->n_groups ||
		count > gb->n_groups - first)
	{
		gpugb_set_error("invalid argument: fetch of groups [%lld, +%lld) of %lld%s",
						(long long) first, (long long) count, (long long) gb->n_groups,
						gb->finished ? "" : " before finish");
		return GPUGB_INVALID_ARGUMENT;
	}
	if (count == 0)
		return GPUGB_OK;

	bool		want_nulls = false,
				want_rows = false;
	uint32_t   *masks = NULL;
	int64_t    *rows = NULL;

	for (int k = 0; k < gb->spec.n_keys; k++)
		want_nulls |= out->key_nulls[k] != NULL;
	for (int a = 0; a < gb->spec.n_aggs; a++)
		want_rows |= gb->agg_count_col[a] > 0 &&
			(out->agg_count[a] != NULL || (out->agg_value[a] != NULL && gb->agg_value_col[a] < 0));
	if ((want_nulls && (masks = (uint32_t *) malloc((size_t) count * 4)) == NULL) ||
		(want_rows && (rows = (int64_t *) malloc((size_t) count * 8)) == NULL))
	{
		free(masks);
		gpugb_set_error("out of host memory fetching %lld groups", (long long) count);
		return GPUGB_OUT_OF_MEMORY;
	}

	GpugbStatus st = fetch_all(gb, first, count, out, masks, rows);

	if (st == GPUGB_OK)
	{
		/* Non-null inputs = rows - NULL inputs. */
		for (int a = 0; a < gb->spec.n_aggs; a++)
		{
			if (gb->agg_count_col[a] <= 0)
				continue;
			if (out->agg_count[a] != NULL)
				for (int64_t i = 0; i < count; i++)
					out->agg_count[a][i] = rows[i] - out->agg_count[a][i];
			if (out->agg_value[a] != NULL && gb->agg_value_col[a] < 0)
				for (int64_t i = 0; i < count; i++)
					out->agg_value[a][i] = rows[i] - out->agg_value[a][i];
		}
		for (int k = 0; k < gb->spec.n_keys; k++)
			if (out->key_nulls[k] != NULL)
				for (int64_t i = 0; i < count; i++)
					out->key_nulls[k][i] = (uint8_t) ((masks[i] >> k) & 1u);
		for (int a = 0; a < gb->spec.n_aggs; a++)
		{
			int			op = gb->spec.aggs[a].op;

			if (out->agg_value[a] != NULL &&
				(op == GPUGB_AGG_MIN_FLOAT || op == GPUGB_AGG_MAX_FLOAT))
				for (int64_t i = 0; i < count; i++)
					out->agg_value[a][i] = (int64_t) gpugb_float_decode((uint64_t) out->agg_value[a][i]);
		}
	}
	free(masks);
	free(rows);
	/* A failed copy leaves the handle's results in doubt. */
	return st == GPUGB_OK ? GPUGB_OK : gpugb_fail(gb, st);
}
