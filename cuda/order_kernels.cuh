/*
 * order_kernels.cuh
 *    Device code of ordered output (order.cu): radix-sortable keys for one
 *    GROUP BY key word or one aggregate's count of the finished groups, and
 *    the gathers that permute the dense table columns into the sorted order.
 *
 * A key word becomes a uint64 whose unsigned order is PostgreSQL's order of
 * the values (gpugb_device.h, GpugbOrderKind), complemented for DESC.  NULLs
 * are a separate one-bit sort key, sorted after the value (LSD: the later,
 * stable pass is the more significant), so a NULL's value word, 0, never
 * matters.  The host twin of gpugb_order_word is in src/emulator.c and in
 * test/device/selftest.c; the three must agree.
 */
#ifndef GPUGB_ORDER_KERNELS_CUH
#define GPUGB_ORDER_KERNELS_CUH

#include <stdint.h>

#include "gpugb_device.h"

#define GPUGB_SIGN_BIT 0x8000000000000000ull

__device__ __forceinline__ uint64_t
gpugb_order_word(int64_t word, int kind)
{
	uint64_t	u = (uint64_t) word;

	if (kind == GPUGB_ORDER_UINT)
		return u;
	if (kind == GPUGB_ORDER_FLOAT)
	{
		/* every NaN above +Infinity, and -0 = 0, as PostgreSQL's float8_cmp */
		if ((u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
			(u & 0x000fffffffffffffull) != 0)
			return ~0ull;
		if (u == GPUGB_SIGN_BIT)
			u = 0;
		return (u & GPUGB_SIGN_BIT) ? ~u : u | GPUGB_SIGN_BIT;
	}
	return u ^ GPUGB_SIGN_BIT;
}

/* perm[i] = i */
__global__ void
gpugb_iota_kernel(uint32_t *perm, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
		perm[i] = (uint32_t) i;
}

/* out[i] = the sortable value of key column `col` of group perm[i]. */
__global__ void
gpugb_order_value_kernel(const int64_t *col, const uint32_t *perm, int64_t n, int kind,
						 bool descending, uint64_t *out)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		uint64_t	u = gpugb_order_word(col[perm[i]], kind);

		out[i] = descending ? ~u : u;
	}
}

/*
 * out[i] = the sortable value of the count of group perm[i]: its rows, less
 * the NULLs a COUNT(x) skipped (count columns c > 0 count NULLs,
 * kernel_params.cuh), as fetch computes it.
 */
__global__ void
gpugb_order_count_kernel(const int64_t *rows, const int64_t *nulls, const uint32_t *perm,
						 int64_t n, bool descending, uint64_t *out)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		uint32_t	g = perm[i];
		uint64_t	u = gpugb_order_word(rows[g] - (nulls != nullptr ? nulls[g] : 0),
										 GPUGB_ORDER_INT);

		out[i] = descending ? ~u : u;
	}
}

/*
 * out[i] = 0 for the groups that come first, else 1, where an aggregate's
 * value is NULL when it met no non-NULL input: rows, less the NULLs its
 * count column holds, is 0.
 */
__global__ void
gpugb_order_count_null_kernel(const int64_t *rows, const int64_t *nulls, const uint32_t *perm,
							  int64_t n, bool nulls_first, uint64_t *out)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		uint32_t	g = perm[i];
		bool		isnull = rows[g] - (nulls != nullptr ? nulls[g] : 0) == 0;

		out[i] = isnull == nulls_first ? 0 : 1;
	}
}

/* out[i] = 0 for the groups that come first (NULL or not), else 1. */
__global__ void
gpugb_order_null_kernel(const uint32_t *masks, int bit, const uint32_t *perm, int64_t n,
						bool nulls_first, uint64_t *out)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		bool		isnull = ((masks[perm[i]] >> bit) & 1u) != 0;

		out[i] = isnull == nulls_first ? 0 : 1;
	}
}

/* dst[i] = src[perm[i]], for 8- or 4-byte elements. */
template <typename T>
__global__ void
gpugb_gather_kernel(const T *src, const uint32_t *perm, int64_t n, T *dst)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n;
		 i += (int64_t) gridDim.x * blockDim.x)
		dst[i] = src[perm[i]];
}

#endif							/* GPUGB_ORDER_KERNELS_CUH */
