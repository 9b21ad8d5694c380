/*
 * split_values.cuh
 *    The geometry that PARTITION's two split layouts share: a launch's n
 *    rows in one buffer, first 8 bytes a row (the gathered layout's sorted
 *    mixed keys and row numbers, key_mix.cuh; the hashed layout's sorted
 *    key hashes, GPUGB_HASHED_KEY_WORDS in gpugb_device.h), then from
 *    gpugb_split_values_offset each row's NV int32 values, padded to 4, 8
 *    or 16 bytes, so that one aligned load reads a row's.
 */
#ifndef GPUGB_SPLIT_VALUES_CUH
#define GPUGB_SPLIT_VALUES_CUH

#include <stddef.h>
#include <stdint.h>

template <int NV>
struct alignas(NV <= 1 ? 4 : NV <= 2 ? 8 : 16) GpugbSplitValues
{
	uint32_t	w[NV <= 1 ? 1 : NV <= 2 ? 2 : 4];
};

static inline __host__ __device__ size_t
gpugb_split_values_offset(int64_t n)
{
	return ((size_t) n * 8 + 15) & ~(size_t) 15;
}

/* The layout's values (its writers' and readers'). */
template <int NV>
static inline __host__ __device__ GpugbSplitValues<NV> *
gpugb_split_values(const void *layout, int64_t n)
{
	return (GpugbSplitValues<NV> *) ((char *) layout + gpugb_split_values_offset(n));
}

/* The layout's bytes for n rows. */
template <int NV>
static inline __host__ __device__ size_t
gpugb_split_bytes(int64_t n)
{
	return gpugb_split_values_offset(n) + (size_t) n * sizeof(GpugbSplitValues<NV>);
}

/* Row `row`'s values: one aligned 4-, 8- or 16-byte load. */
template <int NV>
static inline __device__ GpugbSplitValues<NV>
gpugb_split_load_values(const void *layout, int64_t n, int64_t row)
{
	const GpugbSplitValues<NV> *values = gpugb_split_values<NV>(layout, n) + row;
	GpugbSplitValues<NV> v;

	static_assert(NV >= 1 && NV <= 4, "split layouts hold one to four sums");
	if constexpr (NV <= 1)
		v.w[0] = __ldg((const uint32_t *) values);
	else if constexpr (NV <= 2)
	{
		uint2		r = __ldg((const uint2 *) values);

		v.w[0] = r.x;
		v.w[1] = r.y;
	}
	else
	{
		uint4		r = __ldg((const uint4 *) values);

		v.w[0] = r.x;
		v.w[1] = r.y;
		v.w[2] = r.z;
		v.w[3] = r.w;
	}
	return v;
}

#endif							/* GPUGB_SPLIT_VALUES_CUH */
