/*
 * thrust_groupby.cuh
 *    The naive baseline as templates over the Thrust execution policy, so
 *    the same code runs on the device (thrust_baseline.cu) and on the host
 *    (host_test.cu checks it against a std::map without a GPU).
 *
 * The baseline is what a careful Thrust user writes without a hash table:
 * copy the keys, sort them with a row permutation (sort_by_key), gather each
 * payload column into key order, then reduce_by_key the sorted keys over
 * a (sum per payload, count) tuple.  Keys are sorted as the int64 words they
 * are stored in, whatever their logical width, like gpugb sees them.
 */
#ifndef THRUST_GROUPBY_CUH
#define THRUST_GROUPBY_CUH

#include <thrust/copy.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

#include "kernelbench.h"

/* One group's running (sum per payload column, row count). */
template <int P>
struct KbAcc
{
	int64_t		s[P > 0 ? P : 1];	/* P = 0 (counts only): s[0] unused */
	int64_t		n;
};

template <int P>
struct KbAccPlus
{
	__host__ __device__ KbAcc<P> operator()(const KbAcc<P> &a, const KbAcc<P> &b) const
	{
		KbAcc<P>	r;

		for (int c = 0; c < P; c++)
			r.s[c] = a.s[c] + b.s[c];
		r.n = a.n + b.n;
		return r;
	}
};

/* Row i of the gathered (key-ordered) payload columns, counted once. */
template <int P>
struct KbLoadAcc
{
	const int64_t *cols;		/* P columns of `rows` words */
	int64_t		rows;

	__host__ __device__ KbAcc<P> operator()(int64_t i) const
	{
		KbAcc<P>	r;

		for (int c = 0; c < P; c++)
			r.s[c] = cols[c * rows + i];
		r.n = 1;
		return r;
	}
};

struct KbKeyEqual
{
	__host__ __device__ bool operator()(int64_t a, int64_t b) const
	{
		return a == b;
	}
};

/* Checksum of group i; the int64 sums are exact, so their int128 high word is the sign. */
template <int P>
struct KbGroupChecksum
{
	const int64_t *keys;
	const KbAcc<P> *acc;

	__host__ __device__ KbChecksum operator()(int64_t i) const
	{
		KbChecksum	cs = {};
		int64_t		key = keys[i];

		kb_checksum_add_count(&cs, key, acc[i].n);
		for (int c = 0; c < P; c++)
			kb_checksum_add_sum(&cs, c, key, acc[i].s[c], acc[i].s[c] < 0 ? -1 : 0);
		return cs;
	}
};

struct KbChecksumPlus
{
	__host__ __device__ KbChecksum operator()(KbChecksum a, const KbChecksum &b) const
	{
		kb_checksum_merge(&a, b);
		return a;
	}
};

/* Working arrays of the baseline, all of `rows` entries except the outputs. */
template <int P>
struct KbThrustArrays
{
	int64_t    *keys;			/* copy of the input keys, sorted in place */
	uint32_t   *perm;			/* row permutation that sorts the keys */
	int64_t    *gathered;		/* P payload columns in key order */
	int64_t    *out_keys;		/* one per group */
	KbAcc<P>   *out_acc;
};

/* The whole baseline; returns the number of groups. */
template <int P, class Policy>
int64_t
kb_thrust_groupby_impl(Policy &&policy, const int64_t *keys_in, const int64_t *payload,
					   int64_t rows, const KbThrustArrays<P> &w)
{
	thrust::copy(policy, keys_in, keys_in + rows, w.keys);
	thrust::sequence(policy, w.perm, w.perm + rows);
	thrust::sort_by_key(policy, w.keys, w.keys + rows, w.perm);
	for (int c = 0; c < P; c++)
		thrust::gather(policy, w.perm, w.perm + rows, payload + c * rows, w.gathered + c * rows);

	auto		values = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0),
														 KbLoadAcc<P>{w.gathered, rows});
	auto		ends = thrust::reduce_by_key(policy, w.keys, w.keys + rows, values, w.out_keys,
											 w.out_acc, KbKeyEqual(), KbAccPlus<P>());

	return (int64_t) (ends.first - w.out_keys);
}

template <int P, class Policy>
KbChecksum
kb_thrust_checksum_impl(Policy &&policy, const KbThrustArrays<P> &w, int64_t groups)
{
	thrust::counting_iterator<int64_t> first(0);

	return thrust::transform_reduce(policy, first, first + groups,
									KbGroupChecksum<P>{w.out_keys, w.out_acc}, KbChecksum{},
									KbChecksumPlus());
}

#endif							/* THRUST_GROUPBY_CUH */
