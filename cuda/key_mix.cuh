/*
 * key_mix.cuh
 *    A bijection of 32-bit words and its inverse (murmur3's fmix32, whose
 *    multipliers are odd, so each step is invertible), for
 *    GPUGB_PARTITION_MIXED_KEYS (gpugb_device.h): PARTITION's first launch
 *    stores each int32 key mixed above its value in one 8-byte word, so
 *    the word's top bits are its partition and CUB sorts the words
 *    themselves (partition_move.cu); the lean kernel keys its block table
 *    by the mixed word and writes the key back at the flush
 *    (partition_deferred.cuh).
 */
#ifndef GPUGB_KEY_MIX_CUH
#define GPUGB_KEY_MIX_CUH

#include <stddef.h>
#include <stdint.h>

#include "split_values.cuh"

static inline __host__ __device__ uint32_t
gpugb_mix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85EBCA6Bu;
	h ^= h >> 13;
	h *= 0xC2B2AE35u;
	h ^= h >> 16;
	return h;
}

/* gpugb_mix32's inverse: 0x7ED1B41D inverts 0xC2B2AE35 and 0xA5CB9243 inverts 0x85EBCA6B, mod 2^32. */
static inline __host__ __device__ uint32_t
gpugb_unmix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x7ED1B41Du;
	h ^= (h >> 13) ^ (h >> 26);
	h *= 0xA5CB9243u;
	h ^= h >> 16;
	return h;
}

/*
 * A mixed row's word: the int32 key mixed above its int32 value, so the
 * word's top bits order it by partition.  Its pack (partition_move.cu) and
 * every reader (the lean kernel's load and flush, the unpack for retries)
 * go through these.
 */
static inline __host__ __device__ unsigned long long
gpugb_mixed_word(uint32_t key, uint32_t value)
{
	return (unsigned long long) gpugb_mix32(key) << 32 | value;
}

/* The word's mixed key, sign-extended: the key the lean kernel's block table holds. */
static inline __host__ __device__ int64_t
gpugb_mixed_word_key(unsigned long long word)
{
	return (int64_t) (int32_t) (uint32_t) (word >> 32);
}

/* The word's value, sign-extended. */
static inline __host__ __device__ int64_t
gpugb_mixed_word_value(unsigned long long word)
{
	return (int64_t) (int32_t) (uint32_t) word;
}

/* The group key of a mixed key: the int32 key, sign-extended. */
static inline __host__ __device__ int64_t
gpugb_unmixed_key(uint32_t mixed)
{
	return (int64_t) (int32_t) gpugb_unmix32(mixed);
}

/*
 * The gathered layout (GPUGB_GATHERED_KEY_WORDS, gpugb_device.h) of a
 * launch of n rows is split_values.cuh's: the n sorted mixed keys
 * (uint32), then their n row numbers (uint32), then the values of each row
 * in launch order, NV (two to four) int32 words padded to 8 or 16 bytes.
 */

#endif							/* GPUGB_KEY_MIX_CUH */
