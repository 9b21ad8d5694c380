/*
 * launch.cu
 *    The only translation unit that instantiates kernels: grid sizing and
 *    checked launches of the aggregation, rehash and fill kernels.
 *
 * Grid rule: grid-stride loops with at most 8 blocks of 256 threads per SM
 * (full occupancy on sm_80/sm_90), fewer when there is less work, so a
 * launch never costs more than its rows need.
 */
#include "agg_kernels.cuh"
#include "groupby_internal.cuh"

static unsigned
grid_for(int64_t work, int block)
{
	int64_t		blocks = (work + block - 1) / block;
	int64_t		cap = (int64_t) gpugb_sm_count() * (2048 / block);

	if (blocks > cap)
		blocks = cap;
	if (blocks < 1)
		blocks = 1;
	return (unsigned) blocks;
}

GpugbStatus
gpugb_launch_agg(const GpugbAggParams &p, cudaStream_t stream)
{
	if (p.nrows <= 0)
		return GPUGB_OK;
	gpugb_agg_kernel<<<grid_for(p.nrows, GPUGB_AGG_BLOCK), GPUGB_AGG_BLOCK, 0, stream>>>(p);
	return GPUGB_LAUNCHED("gpugb_agg_kernel");
}

GpugbStatus
gpugb_launch_rehash(const GpugbTable &t, int n_keys, int64_t n_groups, cudaStream_t stream)
{
	if (n_groups <= 0)
		return GPUGB_OK;
	gpugb_rehash_kernel<<<grid_for(n_groups, 256), 256, 0, stream>>>(
		(unsigned long long *) t.slots.ptr, (uint64_t) (t.capacity - 1),
		(const int64_t *) t.keys.ptr, (const uint32_t *) t.nulls.ptr,
		t.max_groups, n_keys, n_groups);
	return GPUGB_LAUNCHED("gpugb_rehash_kernel");
}

GpugbStatus
gpugb_launch_fill(void *base, int64_t pitch, int ncols, int64_t from, int64_t to,
				  const uint64_t *identities, cudaStream_t stream)
{
	GpugbFill	fill;

	if (ncols <= 0 || to <= from)
		return GPUGB_OK;
	for (int c = 0; c < ncols && c < GPUGB_MAX_COUNTS; c++)
		fill.identity[c] = identities[c];
	gpugb_fill_kernel<<<grid_for((to - from) * ncols, 256), 256, 0, stream>>>(
		(unsigned long long *) base, pitch, ncols, from, to, fill);
	return GPUGB_LAUNCHED("gpugb_fill_kernel");
}
