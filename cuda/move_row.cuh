/*
 * move_row.cuh
 *    One row of PARTITION's moved rows (partition_move.cu says which
 *    launches move): its packed 32-bit words and its partition, made from
 *    the launch's key and value columns.  Both ways of moving the rows use
 *    it, CUB's radix sort (gpugb_move_pack_kernel) and the one-pass scatter
 *    (partition_scatter.cuh), so they agree on every word.
 */
#ifndef GPUGB_MOVE_ROW_CUH
#define GPUGB_MOVE_ROW_CUH

#include "hash_table.cuh"

/*
 * A packed row of W 32-bit words: key words first, then the value column's.
 * 8-byte aligned at an even W (CUB moves it in 8-byte words), 4 at an odd W.
 */
template <int W>
struct alignas(W % 2 == 0 ? 8 : 4) GpugbMovedRow
{
	uint32_t	w[W];
};

/*
 * The value columns a launch moves: distinct input columns, and where each
 * sorted one goes.  More than GPUGB_MOVE_MAX_VALUE_INPUTS only where the
 * rows stay packed for the lean kernel (gpugb_partition_move_rows).
 */
struct GpugbMoveCols
{
	const int64_t *in[GPUGB_PARTITION_LEAN_MAX_SUMS];
	int64_t    *out[GPUGB_PARTITION_LEAN_MAX_SUMS];
	int64_t    *key_out;
};

/* A declared int32 word: its 32 bits, or a trap (partition_move.cu's file comment). */
__device__ __forceinline__ uint32_t
gpugb_move_word32(int64_t value)
{
	if (value != (int64_t) (int32_t) value)
		__trap();
	return (uint32_t) value;
}

/*
 * Makes launch row i's packed row: a key of KW words, NV value columns of
 * VW words each, TIGHT as gpugb_moved_row_words.  Its partition is the top
 * `bits` bits of the key's home slot: (hash & slot_mask) >> shift.
 */
template <int KW, int VW, int NV, bool TIGHT>
struct GpugbRowPacker
{
	static constexpr int W = gpugb_moved_row_words(KW + VW * NV, TIGHT);
	typedef GpugbMovedRow<W> Row;

	GpugbAggParams p;
	GpugbMoveCols c;
	int			shift;

	/*
	 * The row's key hashed by gpugb_hash_word (move_rows moves only
	 * launches of one key without NULLs): without gpugb_hash_row's loop
	 * over p.n_keys and its NULL checks, which the scatter's count kernel
	 * ran for every row with its issue slots 50 % busy (H200, Nsight
	 * Compute, session 41 call 3).
	 */
	__device__ __forceinline__ uint32_t
	partition(int64_t i) const
	{
		return (uint32_t) ((gpugb_hash_word(p.key_values[0][i]) & p.slot_mask) >> shift);
	}

	__device__ __forceinline__ Row
	row(int64_t i) const
	{
		int64_t		key = p.key_values[0][i];
		Row			r;

#pragma unroll
		for (int j = KW + VW * NV; j < W; j++)
			r.w[j] = 0;
		if (KW == 1)
			r.w[0] = gpugb_move_word32(key);
		else
		{
			r.w[0] = (uint32_t) key;
			r.w[1] = (uint32_t) ((uint64_t) key >> 32);
		}
#pragma unroll
		for (int a = 0; a < NV; a++)
		{
			int64_t		v = c.in[a][i];

			if (VW == 1)
				r.w[KW + a] = gpugb_move_word32(v);
			else
			{
				r.w[KW + 2 * a] = (uint32_t) v;
				r.w[KW + 2 * a + 1] = (uint32_t) ((uint64_t) v >> 32);
			}
		}
		return r;
	}
};

#endif							/* GPUGB_MOVE_ROW_CUH */
