/*
 * sort_kernels.cuh
 *    Device code of the SORT strategy (Wu et al. SGB): sort keys for a
 *    launch's rows, and the detection of runs of equal keys in sorted order,
 *    where each run's head looks its group up once for the whole run.
 *
 * The sort key is the top `bits` (at most 32) bits of the row's key hash
 * rather than the key itself: grouping needs equal keys adjacent, not
 * ordered, and a hash prefix sized to the groups needs a few radix passes
 * of 4-byte keys whatever the key width (several words, text, NULLs).
 * Different keys that share a prefix may interleave; the run test compares
 * full keys, so they only split into more runs, each of which finds the
 * right group.
 *
 * Except where the launch has one key whose values all fit int32 (the
 * spec's key_fits_int32: int2, int4, date, bool) and no NULL among them
 * (no null array): then the sort key is the key itself ("exact"), 32 bits,
 * and equal sort keys are equal keys, so the run test reads no key words.
 * The hash prefix's test reads both rows' key words for every pair of equal
 * prefixes, which is nearly every row at small g: two random 8-byte reads a
 * row through the permutation (a 32-byte sector each, 17 GB at 2^28 rows),
 * against up to three more radix passes (about 4.3 GB each) for the exact
 * key where the prefix is shorter than 32 bits (g below 2^21).  NULL keys would need a 33rd bit: a NULL would sort
 * as 0, and rows of NULL and 0 would interleave (the sort is stable) and
 * split into a run each.
 */
#ifndef GPUGB_SORT_KERNELS_CUH
#define GPUGB_SORT_KERNELS_CUH

#include "agg_kernels.cuh"	/* GPUGB_FULL_MASK */
#include "hash_table.cuh"

/* Full GROUP BY equality of rows a and b of the launch's columns. */
__device__ __forceinline__ bool
gpugb_rows_equal(const GpugbAggParams &p, uint32_t a, uint32_t b)
{
	for (int k = 0; k < p.n_keys; k++)
	{
		bool		na,
					nb;
		int64_t		va = gpugb_row_key(p, k, a, &na);
		int64_t		vb = gpugb_row_key(p, k, b, &nb);

		if (na != nb || va != vb)
			return false;
	}
	return true;
}

/*
 * sort_keys[i] = hash prefix of row i (shift >= 32), or with exact_int32 its
 * key's int32 value with the sign bit flipped (ascending order, for no
 * reason but a tidy one); perm[i] = i.
 */
__global__ void
gpugb_sort_key_kernel(const GpugbAggParams p, uint32_t *sort_keys, uint32_t *perm, int shift,
					  bool exact_int32)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < p.nrows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		uint32_t	mask;

		bool		null;

		if (exact_int32)
			sort_keys[i] = (uint32_t) gpugb_row_key_int32(p, (uint32_t) i, &null) ^ 0x80000000u;
		else
			sort_keys[i] = (uint32_t) (gpugb_hash_row(p, (uint32_t) i, &mask) >> shift);
		perm[i] = (uint32_t) i;
	}
}

/*
 * Sorted position i starts a run when its key differs from position i-1.
 * A head looks its group up (or inserts it) and records it at run_gid[i];
 * head_pos[i] is i for heads and 0 otherwise, so an inclusive max-scan of
 * head_pos gives every position the start of its run.
 *
 * Equal sort keys need the full keys compared, except exact_int32 ones.
 * With a hash prefix, each row reads its own key words through the
 * permutation only where it or its successor shares a prefix with its
 * predecessor, and takes its predecessor's from the lane below (lane 0
 * reads them): one random read a row at most, where comparing each pair by
 * itself read two.  The loop is
 * warp-uniform for the shuffles (blocks are whole warps, 256 threads).
 */
__global__ void
gpugb_run_heads_kernel(const GpugbAggParams p, const uint32_t *sort_keys, const uint32_t *perm,
					   uint32_t *head_pos, int64_t *run_gid, bool exact_int32)
{
	const unsigned lane = threadIdx.x & 31u;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;

	for (int64_t base = (int64_t) blockIdx.x * blockDim.x + (threadIdx.x & ~31u);
		 base < p.nrows; base += step)
	{
		int64_t		i = base + lane;
		bool		valid = i < p.nrows;
		uint32_t	row = valid ? perm[i] : 0;
		bool		same_prefix = valid && i > 0 && sort_keys[i] == sort_keys[i - 1];
		bool		equal = same_prefix;

		if (!exact_int32)
		{
			/*
			 * Does position i+1 compare its key with this row's?  Not from
			 * lane 31: lane 0 of the warp with position i+1 reads its
			 * predecessor's key itself.
			 */
			bool		next_same = __shfl_down_sync(GPUGB_FULL_MASK, same_prefix, 1) && lane != 31;
			bool		need = same_prefix || next_same;
			uint32_t	prev_row = lane == 0 && same_prefix ? perm[i - 1] : 0;

			for (int k = 0; k < p.n_keys; k++)	/* uniform: the shuffles need every lane */
			{
				bool		null = false,
							prev_null;
				int64_t		v = need ? gpugb_row_key(p, k, row, &null) : 0;
				int64_t		prev = __shfl_up_sync(GPUGB_FULL_MASK, v, 1);

				prev_null = __shfl_up_sync(GPUGB_FULL_MASK, null, 1);
				if (lane == 0 && same_prefix)
					prev = gpugb_row_key(p, k, prev_row, &prev_null);
				equal = equal && v == prev && null == prev_null;
			}
		}
		if (!valid)
			continue;

		bool		head = !equal;

		head_pos[i] = head ? (uint32_t) i : 0;
		if (head)
			run_gid[i] = gpugb_find_or_insert(p, row);
	}
}

#endif							/* GPUGB_SORT_KERNELS_CUH */
