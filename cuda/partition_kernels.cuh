/*
 * partition_kernels.cuh
 *    Device code of the PARTITION strategy (Wu et al. PGB-TR): the partition
 *    number of each launch row, the partition boundaries after CUB's stable
 *    radix sort of (partition, row), and the aggregation kernel whose blocks
 *    take the sorted rows tile by tile, partition by partition inside a tile.
 *
 * Partitions follow the global table: a row's partition is the top `bits`
 * bits of its key's home slot (hash & slot_mask, the slot where probing
 * starts), so all keys of a partition live in one contiguous slice of the
 * slot array, and a block working on one partition probes only that slice
 * (it stays in L2 however large the table).  Equal keys always share a
 * partition; a partition is aggregated by one block unless a tile boundary
 * cuts it (gpugb_partition_agg_kernel), and then by two or more, whose
 * flushes add up in the global states.
 *
 * The block's table in shared memory is keyed by the key itself (its 64-bit
 * hash and a representative row of the launch whose key words are compared
 * in full), not by group id: the first row of a key in the partition claims
 * a slot and looks the key up (or inserts it) in the global table once, and
 * every later row of that key folds into the slot's states in shared
 * memory.  At the end of a partition's stretch of a tile the block adds
 * each claimed slot's states to the global states once and empties the
 * table for the next stretch.  So the global table sees one lookup and one
 * update per distinct key per stretch (per partition, unless a hot one is
 * cut) and launch instead of one per row.
 *
 * Slot protocol (block scope, in shared memory, the global table's in
 * small):  FREE --CAS--> LOCKED --release--> gid >= 0, or NO_ID (the global
 * lookup failed: no group id left, or the launch's overflow flag is up).
 * The claimer writes hash and row before it publishes; readers that see
 * LOCKED spin (the claimer only waits on the global table, whose lock
 * holders never wait).  At most slots/2 slots are
 * claimed (a reservation counter, as in shared_kernel.cuh), so probing
 * always ends at a FREE slot; when a partition holds more keys than that,
 * the rest look themselves up in the global table and update the global
 * states directly (correct, only slower).
 *
 * Shared memory, `slots` entries per column (GPUGB_PARTITION_TABLE_BYTES):
 *   n_counts + n_values + n_his columns of 8-byte states, a uint64 key hash
 *   per slot, an int32 slot state (FREE/LOCKED/NO_ID/gid), a uint32
 *   representative row, then slots / 2 uint32 slot numbers (the slots
 *   claimed, in claim order: the flush visits only these), then the
 *   claimed-slot counter and the count of slot numbers.
 *
 * Invariants (as agg_kernels.cuh): every launch row is aggregated exactly
 * once (into a slot, whose states are flushed exactly once, or into the
 * global states) or appended exactly once to the retry list (its key has no
 * group id: NO_ID, or the global lookup failed, the overflow flag
 * included); whole warps run the row loop together (its bound is
 * warp-uniform); the tile and partition loops' bounds are block-uniform, so
 * their __syncthreads are reached by every thread.
 */
#ifndef GPUGB_PARTITION_KERNELS_CUH
#define GPUGB_PARTITION_KERNELS_CUH

#include <cuda/atomic>

#include "shared_kernel.cuh"
#include "sort_kernels.cuh"

/* Slot states of the block's key table (else a global group id >= 0). */
#define GPUGB_PART_FREE (-1)
#define GPUGB_PART_LOCKED (-2)
#define GPUGB_PART_NO_ID (-3)

typedef cuda::atomic_ref<int, cuda::thread_scope_block> gpugb_part_slot_ref;

/* part_keys[i] = partition of launch row i (home slot >> shift); perm[i] = i. */
__global__ void
gpugb_partition_key_kernel(const GpugbAggParams p, uint32_t *part_keys, uint32_t *perm, int shift)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < p.nrows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		uint32_t	mask;
		uint64_t	h = gpugb_hash_row(p, (uint32_t) i, &mask);

		part_keys[i] = (uint32_t) ((h & p.slot_mask) >> shift);
		perm[i] = (uint32_t) i;
	}
}

/*
 * bounds[q] = first sorted position of partition q, for q in [0, n_parts]
 * (bounds[n_parts] = n): a binary search per partition over the sorted
 * items, part_of(i) the partition of item i.  Grid-stride.
 */
template <class PartOf>
__device__ __forceinline__ void
gpugb_partition_bounds_of(int64_t n, uint32_t *bounds, int64_t n_parts, PartOf part_of)
{
	for (int64_t q = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; q <= n_parts;
		 q += (int64_t) gridDim.x * blockDim.x)
	{
		int64_t		lo = 0,
					hi = n;

		while (lo < hi)
		{
			int64_t		mid = lo + (hi - lo) / 2;

			if (part_of(mid) < q)
				lo = mid + 1;
			else
				hi = mid;
		}
		bounds[q] = (uint32_t) lo;
	}
}

/*
 * ...over the sorted partition numbers (uint32_t, or uint16_t where
 * PARTITION's packed rows sorted with 2-byte partitions: partition_move.cu).
 */
template <class PartKey>
__global__ void
gpugb_partition_bounds_kernel(const PartKey *sorted, int64_t n, uint32_t *bounds,
							  int64_t n_parts)
{
	gpugb_partition_bounds_of(n, bounds, n_parts, [&](int64_t i) { return (int64_t) sorted[i]; });
}

/*
 * ...over sorted hashes whose partition is their bits [shift, shift +
 * bits), mask = 2^bits - 1: hashed rows' (GPUGB_HASHED_KEY_WORDS).
 */
__global__ void
gpugb_partition_hash_bounds_kernel(const unsigned long long *sorted, int64_t n, int shift, unsigned long long mask,
								   uint32_t *bounds, int64_t n_parts)
{
	gpugb_partition_bounds_of(n, bounds, n_parts, [&](int64_t i) { return (int64_t) ((sorted[i] >> shift) & mask); });
}

#if GPUGB_PARTITION_MIXED_KEYS
/*
 * ...over sorted words whose partition is their bits from `shift` up: the
 * 8-byte mixed words, or the gathered layout's 4-byte mixed keys.
 */
template <class Word>
__global__ void
gpugb_partition_word_bounds_kernel(const Word *sorted, int64_t n, int shift, uint32_t *bounds, int64_t n_parts)
{
	gpugb_partition_bounds_of(n, bounds, n_parts, [&](int64_t i) { return (int64_t) (sorted[i] >> shift); });
}
#endif

/*
 * The global lookup of a row's key (-1: the row goes to the retry list).
 * Where the launch has an overflow flag (GpugbAggParams.overflow) and a
 * lookup raised it, the rest give up at once: partitions go in home-slot
 * order, so a partition with more keys than its slice of the table (a
 * group estimate far too low) piles its keys into one run that each new
 * key walks to its end (gpugb_probe bounds that walk, and raises the flag).
 * The flag's line (the retry count's) is written only as rows go to the
 * retry list, so it is read through L1; a stale 0 only costs that walk.
 */
__device__ __forceinline__ int64_t
gpugb_partition_global_find(const GpugbAggParams &p, uint32_t row)
{
	if (p.overflow != nullptr && __ldca(p.overflow) != 0u)
		return -1;
	return gpugb_find_or_insert(p, row);
}

/*
 * The slot of the row's key in the block's key table (claiming one, and
 * looking the key up in the global table, if the key is new to the
 * partition), or -1 when the table is full.  *gid is the key's global group
 * id, -1 when there is none (the row must then be retried); set only when a
 * slot is returned.
 */
__device__ __forceinline__ int
gpugb_partition_slot(const GpugbAggParams &p, unsigned long long *local_hash, int *local_state,
					 uint32_t *local_row, unsigned *claimed, uint32_t *used, unsigned *n_used,
					 int slots, uint32_t row, uint64_t h, int64_t *gid)
{
	/* The hash's high half: its low bits chose the partition, so they are alike here. */
	unsigned	idx = (unsigned) (((h >> 32) * (uint64_t) slots) >> 32);

	for (;;)
	{
		gpugb_part_slot_ref state(local_state[idx]);
		int			cur = state.load(cuda::memory_order_acquire);

		if (cur == GPUGB_PART_FREE)
		{
			/* Reserve first (see shared_kernel.cuh's gpugb_local_slot). */
			if (*(volatile unsigned *) claimed >= (unsigned) slots / 2 ||
				atomicAdd(claimed, 1u) >= (unsigned) slots / 2)
				return -1;

			int			expected = GPUGB_PART_FREE;

			if (state.compare_exchange_strong(expected, GPUGB_PART_LOCKED,
											  cuda::memory_order_relaxed))
			{
				local_hash[idx] = h;
				local_row[idx] = row;
				/* At most slots / 2 claims (the reservation above): `used` holds them all. */
				used[atomicAdd(n_used, 1u)] = idx;

				int64_t		g = gpugb_partition_global_find(p, row);

				/* gid < max_groups < 2^31: it fits an int. */
				state.store(g >= 0 ? (int) g : GPUGB_PART_NO_ID, cuda::memory_order_release);
				*gid = g;
				return (int) idx;
			}
			atomicSub(claimed, 1u);
			cur = expected;
		}
		while (cur == GPUGB_PART_LOCKED)
			cur = state.load(cuda::memory_order_acquire);
		if (local_hash[idx] == h && gpugb_rows_equal(p, row, local_row[idx]))
		{
			*gid = cur >= 0 ? (int64_t) cur : -1;
			return (int) idx;
		}
		/* cur is published here: a slot returns to FREE only between stretches. */
		idx = (idx + 1) & (unsigned) (slots - 1);
	}
}

/*
 * The first partition whose rows reach past sorted position `pos`: the
 * smallest q with bounds[q + 1] > pos (bounds is non-decreasing; pos < n).
 * Every thread of a block computes the same q.
 *
 * GPUGB_PARTITION_WARP_SEARCH (the default; gpugb_device.h): warp-
 * collective, so every lane of each warp must call it together.  Each
 * round the warp's lanes test 32 evenly spaced partitions at once and keep
 * the span between the last that ends at or before pos and the first that
 * ends past it: 2^15 partitions take 3 rounds of loads, not 15 dependent
 * ones.  Why: at 2^26 groups a tile is about one partition (8192 rows),
 * each tile searched three times, and the lean kernel spent about 22 us of
 * an SM a partition beyond its rows, most of it waiting on these loads
 * (Nsight Compute's samples by instruction, H200, session 52, call 3).
 */
__device__ __forceinline__ int64_t
gpugb_partition_at(const uint32_t *bounds, int64_t n_parts, int64_t pos)
{
	int64_t		lo = 0,
				hi = n_parts - 1;	/* the answer is in [lo, hi]; hi's partition ends past pos */

#if GPUGB_PARTITION_WARP_SEARCH
	const unsigned lane = threadIdx.x & 31u;

	while (lo < hi)
	{
		/* Lane k tests lo + k * step (those at or past hi test nothing: hi is known to pass). */
		const int64_t step = (hi - lo + 31) / 32;
		const int64_t q = lo + (int64_t) lane * step;
		const bool	past = q < hi && (int64_t) bounds[q + 1] > pos;
		const unsigned mask = __ballot_sync(GPUGB_FULL_MASK, past);

		if (mask == 0u)
		{
			/* No tested partition ends past pos: the answer follows the last one tested below hi. */
			const int64_t last = min((int64_t) 31, (hi - 1 - lo) / step);

			lo = lo + last * step + 1;
		}
		else
		{
			const int	first = __ffs(mask) - 1;

			hi = lo + (int64_t) first * step;
			if (first > 0)
				lo = lo + (int64_t) (first - 1) * step + 1;
		}
	}
#else
	while (lo < hi)
	{
		int64_t		mid = lo + (hi - lo) / 2;

		if ((int64_t) bounds[mid + 1] > pos)
			hi = mid;
		else
			lo = mid + 1;
	}
#endif
	return lo;
}

/*
 * Where tile t of a launch begins: at t * tile_rows, moved to the nearer
 * end of the partition there unless that partition has more than
 * split_rows rows.  So only large partitions (a hot key's) are cut between
 * blocks; a small one is a tile's work whole, and its keys go to the global
 * table once.  Non-decreasing in t; tile t ends where tile t + 1 begins.
 * Warp-collective, as gpugb_partition_at.
 * The nearer end, not the start: with tiles of a partition's mean rows,
 * partition t starts a little before or after t * tile_rows (the sizes
 * drift), and pulling every tile back to the start of the partition it
 * falls in gave some tiles two partitions and others none, so a launch of
 * a few hundred partitions (2^12-2^16 groups) ran as long as its doubled
 * tiles (H200 grid, session 22: 1.2-1.3x slower than whole partitions).
 */
__device__ __forceinline__ int64_t
gpugb_partition_tile_start(const uint32_t *bounds, int64_t n_parts, int64_t n, int64_t tile_rows,
						   int64_t split_rows, int64_t t)
{
	int64_t		pos = t * tile_rows;

	if (pos >= n)
		return n;

	int64_t		q = gpugb_partition_at(bounds, n_parts, pos);
	int64_t		begin = bounds[q],
				end = bounds[q + 1];

	if (end - begin > split_rows)
		return pos;
	return pos - begin <= end - pos ? begin : end;
}

/*
 * Calls stretch(begin, end, whole) for the sorted positions [begin, end) of
 * each partition's stretch in each tile the block takes (grid-stride over
 * tiles of about tile_rows positions, gpugb_partition_tile_start), in order;
 * never with an empty stretch.  whole: the stretch is its partition's every
 * row, so no other stretch of the launch holds any of its keys.  Block-uniform: tiles, partitions and stretches
 * come out the same in every thread, so `stretch` may hold
 * __syncthreads; and every thread of the block must call it (the searches
 * are warp-collective: gpugb_partition_at).
 */
template <typename Stretch>
__device__ __forceinline__ void
gpugb_partition_for_each_stretch(const uint32_t *bounds, int64_t n_parts, int64_t nrows,
								 int64_t tile_rows, int64_t split_rows, Stretch stretch)
{
	const int64_t n_tiles = (nrows + tile_rows - 1) / tile_rows;

	for (int64_t t = blockIdx.x; t < n_tiles; t += gridDim.x)
	{
		const int64_t tile_begin = gpugb_partition_tile_start(bounds, n_parts, nrows, tile_rows,
															  split_rows, t);
		const int64_t tile_end = gpugb_partition_tile_start(bounds, n_parts, nrows, tile_rows,
															split_rows, t + 1);

		if (tile_begin >= tile_end)
			continue;			/* pulled back into the tile before: no rows */
		for (int64_t q = gpugb_partition_at(bounds, n_parts, tile_begin);
			 q < n_parts && (int64_t) bounds[q] < tile_end; q++)
		{
			const int64_t begin = max((int64_t) bounds[q], tile_begin);
			const int64_t end = min((int64_t) bounds[q + 1], tile_end);

			if (begin < end)	/* else an empty partition: nothing claimed, nothing to flush */
				stretch(begin, end, begin == (int64_t) bounds[q] && end == (int64_t) bounds[q + 1]);
		}
	}
}

/*
 * PARTITION's aggregation: launch rows in partition order (p.row_list, the
 * sorted permutation, or the rows themselves where they moved with the
 * sort and p.row_list is NULL), partition q at sorted positions [bounds[q],
 * bounds[q + 1]).  Blocks take tiles of about `tile_rows` sorted positions
 * (grid-stride; gpugb_partition_tile_start), not whole partitions: one
 * partition holding most rows (a hot key) was one block's work while the
 * others idled (kernel benchmark, H100, Zipf 1.5: 1.1 s, 30 times Thrust).
 * A tile aggregates each partition's stretch inside it in turn, with the
 * block table emptied between stretches; a large partition cut by tile
 * boundaries is aggregated by several blocks, each flushing its keys into
 * the global states with atomics, as SHARED_HASH's blocks do.  The flush
 * visits only the slots claimed (`used`), not the whole table: at 2^26
 * groups there are 2^18 partitions of about 1000 rows.  slots == 0: no
 * block table fits the states, every row goes to the global table (the
 * partition order still keeps each block's probes in one slice of it).
 * Needs n_keys > 0.
 *
 * Five blocks an SM, as many as their tables let share its shared memory
 * (43 kB each at three state columns): ptxas may use up to 51 registers
 * and took 47, with no spills (CUDA 13); with the warp search (session 52)
 * it takes 48 and spills 16 bytes, 12 without.  With the block size alone it
 * aimed at eight blocks an SM, 32 registers, and spilled 120 bytes.
 */
__global__ void __launch_bounds__(GPUGB_AGG_BLOCK, 5)
gpugb_partition_agg_kernel(const GpugbAggParams p, const uint32_t *bounds, int64_t n_parts,
						   int slots, int64_t tile_rows, int64_t split_rows)
{
	extern __shared__ unsigned long long gpugb_smem[];
	const int	n_cols = p.n_counts + p.n_values;
	const int	n_his = gpugb_launch_his(p);

	GpugbStates local = {gpugb_smem, gpugb_smem + (size_t) p.n_counts * slots,
						 (long long *) (gpugb_smem + (size_t) n_cols * slots), slots};
	unsigned long long *local_hash = gpugb_smem + (size_t) (n_cols + n_his) * slots;
	int		   *local_state = (int *) (local_hash + slots);
	uint32_t   *local_row = (uint32_t *) (local_state + slots);
	uint32_t   *used = local_row + slots;	/* slots / 2 claimed slot numbers */
	unsigned   *claimed = used + slots / 2;
	unsigned   *n_used = claimed + 1;

	gpugb_local_states_reset(p, local, slots, n_his);
	for (int i = threadIdx.x; i < slots; i += blockDim.x)
		local_state[i] = GPUGB_PART_FREE;
	if (threadIdx.x == 0)
		*claimed = *n_used = 0;
	__syncthreads();

	const unsigned lane = threadIdx.x & 31u;
	const GpugbStates global = gpugb_global_states(p);

	gpugb_partition_for_each_stretch(bounds, n_parts, p.nrows, tile_rows, split_rows,
									 [&](int64_t begin, int64_t end, bool) {
		/* base is the warp's first position: the bound test is the same for all lanes. */
		for (int64_t base = begin + (threadIdx.x & ~31u); base < end; base += blockDim.x)
		{
			int64_t		i = base + lane;
			uint32_t	row = 0;
			int64_t		gid = -1;
			int			slot = -1;

			if (i < end)
			{
				uint32_t	mask;

				/* No row list: the rows moved with the sort (partition_move.cu). */
				row = p.row_list != nullptr ? p.row_list[i] : (uint32_t) i;
				if (slots > 0)
					slot = gpugb_partition_slot(p, local_hash, local_state, local_row,
												claimed, used, n_used, slots, row,
												gpugb_hash_row(p, row, &mask), &gid);
				if (slot < 0)
					gid = gpugb_partition_global_find(p, row);
				if (gid < 0)
				{
					/* No group id left: the host grows the table and re-runs the row. */
					p.retry_out[atomicAdd(p.retry_count, 1u)] = row;
					slot = -1;
				}
			}
			/* gid: the row's global group, where a float variance's shift K lives */
			gpugb_aggregate_warp(p, local, row, slot, gid, lane);
			gpugb_aggregate_warp(p, global, row, slot < 0 ? gid : -1, gid, lane);
		}
		__syncthreads();

		/* The stretch's keys once into the global states; the table empty again. */
		const unsigned n_claimed = *n_used;

		for (unsigned u = threadIdx.x; u < n_claimed; u += blockDim.x)
		{
			int			i = (int) used[u];
			int			s = local_state[i];

			if (s >= 0)
				gpugb_flush_slot(p, local, i, s);
			gpugb_local_slot_reset(p, local, i, n_his);
			local_state[i] = GPUGB_PART_FREE;
		}
		__syncthreads();
		if (threadIdx.x == 0)
			*claimed = *n_used = 0;
		__syncthreads();
	});
}

#endif							/* GPUGB_PARTITION_KERNELS_CUH */
