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
 * Sorted position i starts a run when its key differs from position i-1:
 * head_pos[i] is i for heads and 0 otherwise, so an inclusive max-scan of
 * head_pos gives every position the start of its run; and each head is
 * appended to heads (*n_heads of them, zero before the launch) for
 * gpugb_run_groups_kernel, one atomic a block and pass where the block has
 * heads (none at all at small g; a CUB select over head_pos read all 2^28
 * of them again: 0.5 ms a launch on the H200, session 20).  The list is in
 * sorted order within a block's pass, not across blocks: nothing needs more.
 *
 * Equal sort keys need the full keys compared, except exact_int32 ones.
 * With a hash prefix, each row reads its own key words through the
 * permutation only where it or its successor shares a prefix with its
 * predecessor, and takes its predecessor's from the lane below (lane 0
 * reads them): one random read a row at most, where comparing each pair by
 * itself read two.  The loop is block-uniform, for the shuffles and the
 * block's barriers (GPUGB_RUN_HEADS_BLOCK threads, whole warps).
 */
#define GPUGB_RUN_HEADS_BLOCK 256

__global__ void __launch_bounds__(GPUGB_RUN_HEADS_BLOCK)
gpugb_run_heads_kernel(const GpugbAggParams p, const uint32_t *sort_keys, const uint32_t *perm,
					   uint32_t *head_pos, uint32_t *heads, unsigned long long *n_heads,
					   bool exact_int32)
{
	__shared__ unsigned warp_offset[GPUGB_RUN_HEADS_BLOCK / 32];
	__shared__ unsigned long long block_offset;
	const unsigned lane = threadIdx.x & 31u,
				warp = threadIdx.x / 32u;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;

	for (int64_t first = (int64_t) blockIdx.x * blockDim.x; first < p.nrows; first += step)
	{
		int64_t		i = first + threadIdx.x;
		bool		valid = i < p.nrows;
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
			uint32_t	row = need ? perm[i] : 0;
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

		bool		head = valid && !equal;
		unsigned	ballot = __ballot_sync(GPUGB_FULL_MASK, head);

		if (valid)
			head_pos[i] = head ? (uint32_t) i : 0;

		/* The block's heads: one atomic for all of them, warps in order. */
		if (lane == 0)
			warp_offset[warp] = __popc(ballot);
		__syncthreads();
		if (threadIdx.x == 0)
		{
			unsigned	total = 0;

			for (unsigned w = 0; w < GPUGB_RUN_HEADS_BLOCK / 32; w++)
			{
				unsigned	count = warp_offset[w];

				warp_offset[w] = total;
				total += count;
			}
			block_offset = total > 0 ? atomicAdd(n_heads, (unsigned long long) total) : 0;
		}
		__syncthreads();
		if (head)
			heads[block_offset + warp_offset[warp] + __popc(ballot & ((1u << lane) - 1u))] =
				(uint32_t) i;
		__syncthreads();		/* warp_offset and block_offset are the next pass's */
	}
}

/*
 * run_gid[h] = the group of the row at each run head h, for the *n_heads
 * positions in heads.  A kernel of its own, over the heads only, because
 * looking a group up is a chain of dependent L2 round trips (slot load,
 * CAS, group counter, key stores, release) and in the run test a warp met
 * one head in 64 rows at 2^22 groups of 2^28: the heads' lookups stalled
 * warps that had nothing else to do: the run test took 24.6 ms there
 * against 4.9 ms at 2^16 groups, half the sort strategy's time (Nsight
 * Compute, H100, session 20).  Here every lane of a warp has a head to look
 * up, so their round trips overlap.
 */
__global__ void
gpugb_run_groups_kernel(const GpugbAggParams p, const uint32_t *perm, const uint32_t *heads,
						const unsigned long long *n_heads, int64_t *run_gid)
{
	int64_t		n = (int64_t) *n_heads;

	for (int64_t j = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; j < n;
		 j += (int64_t) gridDim.x * blockDim.x)
	{
		uint32_t	pos = heads[j];

		run_gid[pos] = gpugb_find_or_insert(p, perm[pos]);
	}
}

#endif							/* GPUGB_SORT_KERNELS_CUH */
