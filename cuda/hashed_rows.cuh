/*
 * hashed_rows.cuh
 *    The hashed layout of PARTITION's packed rows with an 8-byte key
 *    (GPUGB_HASHED_KEY_WORDS, gpugb_device.h): each row's key as its
 *    table hash (gpugb_hash_word, a bijection of 64-bit words, so the key
 *    comes back through gpugb_unhash_word), and its int32 sums beside it,
 *    in two arrays of one buffer, which CUB's radix sort moves as
 *    (key, value) pairs of native widths.
 *
 * Why: CUB's onesweep moved the rows as a 2- or 4-byte partition with a
 * 12- or 24-byte struct at 1.1-2.0 TB/s a pass, and the same rows as an
 * 8-byte key with a 4- or 16-byte value at 2.1-2.6 (H200, 2^28 rows,
 * 12-18 partition bits; test/kernelbench/sort_layout_bench.cu, session 60
 * call 3): an 8-byte key and one sum 8.55 ms against 5.62 at 16 bits, four
 * sums 26.2 against 12.5.  The partition needs no word of its own: it is
 * bits [shift, shift + bits) of the hash (the row's home slot >> shift,
 * move_row.cuh), which CUB sorts by, so partitions stay slices of the
 * global table.
 *
 * Layout of a launch of n rows: n uint64 hashes, then from
 * gpugb_hashed_values_offset the rows' values, NV int32 words padded to
 * 4, 8 or 16 bytes, so that one aligned load reads a row's.
 */
#ifndef GPUGB_HASHED_ROWS_CUH
#define GPUGB_HASHED_ROWS_CUH

#include <stddef.h>
#include <stdint.h>

template <int NV>
struct alignas(NV <= 1 ? 4 : NV <= 2 ? 8 : 16) GpugbHashedValues
{
	uint32_t	w[NV <= 1 ? 1 : NV <= 2 ? 2 : 4];
};

static inline __host__ __device__ size_t
gpugb_hashed_values_offset(int64_t n)
{
	return ((size_t) n * 8 + 15) & ~(size_t) 15;
}

/* The layout's values (its readers'). */
template <int NV>
static inline __host__ __device__ GpugbHashedValues<NV> *
gpugb_hashed_values(const void *layout, int64_t n)
{
	return (GpugbHashedValues<NV> *) ((char *) layout + gpugb_hashed_values_offset(n));
}

/* The layout's bytes for n rows. */
template <int NV>
static inline __host__ __device__ size_t
gpugb_hashed_bytes(int64_t n)
{
	return gpugb_hashed_values_offset(n) + (size_t) n * sizeof(GpugbHashedValues<NV>);
}

/* Row i's values: one aligned 4-, 8- or 16-byte load. */
template <int NV>
static inline __device__ GpugbHashedValues<NV>
gpugb_hashed_load_values(const void *layout, int64_t n, int64_t i)
{
	const GpugbHashedValues<NV> *values = gpugb_hashed_values<NV>(layout, n) + i;
	GpugbHashedValues<NV> v;

	static_assert(NV >= 1 && NV <= 4, "hashed rows hold one to four sums");
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

#endif							/* GPUGB_HASHED_ROWS_CUH */
