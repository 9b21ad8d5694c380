/*
 * partition_scatter.cuh
 *    PARTITION's rows moved into partition order in one pass, for launches
 *    of 2^9 to 2^11 partitions, or of 12-byte rows (partition_move.cu,
 *    scatter_applies; src/heuristics.c, gpugb_partition_scatter_pays): a
 *    count kernel, an exclusive scan, a scatter kernel.
 *
 * Why: CUB's radix sort moves the packed rows with their 4-byte
 * partitions in 8-bit passes, so 9-16 partition bits take two passes, each
 * reading and writing the partition and the row (24 bytes a row with one
 * payload), after a pack kernel that wrote them (12 bytes) and an upsweep
 * that read the partitions.  At 2^22 groups with one payload that was
 * about 8 ms of PARTITION's 13.3 (H200, 2^28 rows, session 34's Nsight:
 * pack, then 2.45 + 2.26 ms of sort passes).  The scatter reads the key
 * column to count, then the key and value columns once more and writes each
 * row once where it belongs: about 32 bytes a row in all where the sort's
 * way moved about 80.
 *
 * A tile is TILE consecutive launch rows, one block each.  The count kernel
 * writes each tile's rows per partition, partition-major
 * (counts[part * n_tiles + tile]), so one exclusive scan over them gives
 * every tile's first position in each partition, in partition order then
 * tile order.  The scatter kernel makes its tile's rows again, orders them
 * by partition in shared memory (a shared atomic gives each row its rank
 * among the tile's rows of its partition), and writes each partition's run
 * of them to its place: consecutive threads write consecutive rows, so the
 * writes are whole sectors where a tile has a few rows a partition, which
 * gpugb_partition_scatter_pays keeps so (at least four on average).  Rows
 * written straight from the threads that read them, without the staging
 * (32 registers, two 1024-thread blocks an SM, one barrier), were
 * 0.52-0.84x as fast wherever launches scattered (H200, 2^28 rows, forced
 * PARTITION at 2^16-2^22 groups, session 41 call 7: the experiment
 * GPUGB_SCATTER_DIRECT at 5d3c61e, removed).
 *
 * Rows of a partition come out in no fixed order (the shared atomics'):
 * the lean kernel's integer sums and counts do not depend on it, and the
 * rows stay where they are for the launch's retries, which read them by
 * position.  Only launches that keep their rows packed for the lean kernel
 * scatter (partition_move.cu).
 */
#ifndef GPUGB_PARTITION_SCATTER_CUH
#define GPUGB_PARTITION_SCATTER_CUH

#include <cub/block/block_scan.cuh>

#include "move_row.cuh"

/* The most partition bits any scatter takes (gpugb_partition_scatter_pays allows no more): shared memory for 2048 partitions. */
#define GPUGB_SCATTER_MAX_BITS 11
/*
 * Tile rows for rows of W words: 8192 for 8-byte rows, 4096 beyond, so a
 * tile's staged rows take at most 96 KB of shared memory.  Which launches
 * scatter is gpugb_partition_scatter_pays' (src/heuristics.c): at least
 * four rows of a tile a partition, so at most 2^11 partitions, which the
 * shared memory is sized for.
 *
 * A thread keeps only its rows' partitions and ranks between counting and
 * staging, and reads each row again to stage it: the tile was read just
 * before, so the second read mostly hits L2, and no registers hold rows
 * across the scan.  So every width scatters in two blocks an SM of 512
 * threads (16 rows a thread for 8-byte rows, 8 beyond) within 64
 * registers, without spills (ptxas, sm_90).
 *  - Why two blocks: with one block an SM a block's phases wait on each
 *    other at every barrier.  Wide rows moved at 1.1 TB/s of DRAM traffic
 *    that way (H200, Nsight Compute, session 41 call 3), and two blocks were
 *    1.18-1.28x faster (session 41, call 4).
 *  - Why the second read: rows held in registers spilled 20-72 bytes a
 *    thread for wide rows, and left 8-byte rows in one block of 1024
 *    threads an SM (two would have 32 registers, and spilled 180 bytes).
 *    Reading them again, the scatter kernel took 5.07 ms against 5.76 at
 *    2^22 groups (4-byte keys, one payload, uniform; Nsight Compute, base
 *    clocks), and forced PARTITION was 0.97-1.08x as fast, 1.03-1.06x at
 *    2^20-2^22 with one payload (H200, 2^28 rows, 3 reps, 2^18-2^22 groups,
 *    uniform and Zipf 1.0; session 44 call 4, the experiment
 *    GPUGB_SCATTER_RELOAD).
 *  - Why not smaller tiles: 8-byte rows in 4096-row tiles of 512 threads
 *    ran two blocks an SM too, but at 2^11 partitions (two rows of a tile a
 *    partition) 0.83-0.87x as fast, 2^22 groups (session 41 call 8: the
 *    experiment GPUGB_SCATTER_NARROW_TILE at dc91ecb, removed).
 */
/*
 * Two tiles take up to 2 x 112 KB: sm_90's 228 KB of shared memory an SM
 * hold them, sm_80's 164 KB do not, and there the cap of 64 registers
 * would only add spills.  Measured on sm_90 only.
 */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define GPUGB_SCATTER_BLOCKS_PER_SM 1
#else
#define GPUGB_SCATTER_BLOCKS_PER_SM 2
#endif

/* The scatter kernel's shape; threads must not depend on __CUDA_ARCH__ (the host launches with it). */
template <int W>
struct GpugbScatterShape
{
	static constexpr int tile_rows = W <= 2 ? 8192 : 4096;
	static constexpr int rows_per_thread = W <= 2 ? 16 : 8;
	static constexpr int threads = tile_rows / rows_per_thread;
	static constexpr int min_blocks = GPUGB_SCATTER_BLOCKS_PER_SM;
};

static_assert((GpugbScatterShape<2>::tile_rows >> GPUGB_SCATTER_MAX_BITS) >= 4,
			  "the most partitions four rows of a tile each allow fit the shared memory");

/* Dynamic shared memory of the scatter kernel for rows of W words and n_parts partitions. */
template <int W>
__host__ __device__ constexpr size_t
gpugb_scatter_smem_bytes(int64_t n_parts)
{
	return (size_t) GpugbScatterShape<W>::tile_rows * (W * 4 + 2) + (size_t) n_parts * 4;
}

/*
 * Tiles one count block counts, GPUGB_SCATTER_COUNT_TILES consecutive ones:
 * their counts of a partition are consecutive words of the counts, and 8 of
 * them fill a 32-byte sector.  One block a tile wrote every count alone,
 * 4 bytes at a stride of n_tiles words, and at 2^11 partitions its blocks
 * spent more time zeroing, waiting and writing than counting: the kernel
 * took 1.59 ms at 2^22 groups for 1 GiB of keys (4-byte keys, one payload,
 * uniform, 2^28 rows; Nsight Compute, base clocks: 32 % of DRAM
 * throughput, 54 % L2 hit rate; session 45 call 1).  Eight tiles a block
 * took 0.97 ms (52 % of DRAM throughput), and forced PARTITION was
 * 0.99-1.09x as fast at 2^18-2^24 groups, both key widths and payload
 * counts, uniform and Zipf 1.0 (H200, 2^28 rows, 3 reps; session 45 call 2,
 * docs/session45-2026-11-30/next/call2.sh).
 */
#ifndef GPUGB_SCATTER_COUNT_TILES
#define GPUGB_SCATTER_COUNT_TILES 8
#endif

/* Dynamic shared memory of the count kernel: a histogram a tile, each n_parts + 1 words (no bank shared by a partition's K words). */
__host__ __device__ constexpr size_t
gpugb_scatter_count_smem_bytes(int64_t n_parts)
{
	return (size_t) GPUGB_SCATTER_COUNT_TILES * (size_t) (n_parts + 1) * 4;
}

/* counts[part * n_tiles + tile]: the tile's rows in each partition, for GPUGB_SCATTER_COUNT_TILES tiles a block. */
template <class Packer>
__global__ void __launch_bounds__(1024)
gpugb_scatter_count_kernel(const Packer pk, int64_t n, int64_t n_tiles, uint32_t n_parts, uint32_t *counts)
{
	constexpr int TILE = GpugbScatterShape<Packer::W>::tile_rows;
	constexpr int K = GPUGB_SCATTER_COUNT_TILES;
	extern __shared__ uint32_t gpugb_scatter_hist[];	/* tile k's count of part at [k * (n_parts + 1) + part] */
	const uint32_t stride = n_parts + 1;
	const int64_t first = (int64_t) blockIdx.x * K;
	const int	tiles = n_tiles - first < K ? (int) (n_tiles - first) : K;
	const int64_t begin = first * TILE;
	const int64_t end = begin + (int64_t) tiles * TILE < n ? begin + (int64_t) tiles * TILE : n;

	for (uint32_t b = threadIdx.x; b < K * stride; b += blockDim.x)
		gpugb_scatter_hist[b] = 0;
	__syncthreads();
	for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x)
		atomicAdd(&gpugb_scatter_hist[(uint32_t) ((i - begin) / TILE) * stride + pk.partition(i)], 1u);
	__syncthreads();
	/* Lanes in tile order within a partition: a partition's K counts are one write. */
	for (uint32_t b = threadIdx.x; b < K * n_parts; b += blockDim.x)
	{
		uint32_t	part = b / K;
		int			k = (int) (b % K);

		if (k < tiles)
			counts[(int64_t) part * n_tiles + first + k] = gpugb_scatter_hist[k * stride + part];
	}
}

/*
 * Writes the tile's rows to out in partition order: offsets is the
 * exclusive scan of the count kernel's counts (the same tiles).
 */
template <class Packer>
__global__ void __launch_bounds__(GpugbScatterShape<Packer::W>::threads, GpugbScatterShape<Packer::W>::min_blocks)
gpugb_scatter_rows_kernel(const Packer pk, int64_t n, int64_t n_tiles, uint32_t n_parts, const uint32_t *offsets,
						  typename Packer::Row *out)
{
	typedef typename Packer::Row Row;
	constexpr int TILE = GpugbScatterShape<Packer::W>::tile_rows;
	constexpr int THREADS = GpugbScatterShape<Packer::W>::threads;
	constexpr int R = GpugbScatterShape<Packer::W>::rows_per_thread;
	/* Partitions a thread scans: its run of the at most 2^GPUGB_SCATTER_MAX_BITS. */
	constexpr int PER = ((1 << GPUGB_SCATTER_MAX_BITS) + THREADS - 1) / THREADS;
	typedef cub::BlockScan<uint32_t, THREADS> Scan;
	__shared__ typename Scan::TempStorage scan_temp;
	extern __shared__ __align__(16) unsigned char gpugb_scatter_smem[];
	Row		   *stage = (Row *) gpugb_scatter_smem;	/* TILE rows, partition order */
	uint16_t   *stage_part = (uint16_t *) (stage + TILE);	/* each staged row's partition */
	uint32_t   *base = (uint32_t *) (stage_part + TILE);	/* n_parts: counts, then starts */
	const int64_t tile = blockIdx.x;
	const int64_t begin = tile * TILE;
	const int	count = n - begin < TILE ? (int) (n - begin) : TILE;
	uint32_t	slot[R];		/* partition << 16 | rank among the tile's rows of it */

	for (uint32_t b = threadIdx.x; b < n_parts; b += THREADS)
		base[b] = 0;
	__syncthreads();
#pragma unroll
	for (int k = 0; k < R; k++)
	{
		int			j = k * THREADS + threadIdx.x;

		if (j < count)
		{
			uint32_t	part = pk.partition(begin + j);

			slot[k] = part << 16 | atomicAdd(&base[part], 1u);
		}
	}
	__syncthreads();

	/* Each partition's first staged position: an exclusive scan of the counts, PER a thread. */
	uint32_t	v[PER];
	uint32_t	sum = 0;

#pragma unroll
	for (int q = 0; q < PER; q++)
	{
		uint32_t	b = threadIdx.x * PER + q;

		v[q] = b < n_parts ? base[b] : 0;
		sum += v[q];
	}

	uint32_t	start;

	Scan(scan_temp).ExclusiveSum(sum, start);
	__syncthreads();			/* every count read before any start is written */
#pragma unroll
	for (int q = 0; q < PER; q++)
	{
		uint32_t	b = threadIdx.x * PER + q;

		if (b < n_parts)
			base[b] = start;
		start += v[q];
	}
	__syncthreads();
#pragma unroll
	for (int k = 0; k < R; k++)
	{
		int			j = k * THREADS + threadIdx.x;

		if (j < count)
		{
			uint32_t	part = slot[k] >> 16;
			uint32_t	pos = base[part] + (slot[k] & 0xFFFFu);

			stage[pos] = pk.row(begin + j);	/* read again: GpugbScatterShape's comment */
			stage_part[pos] = (uint16_t) part;
		}
	}
	__syncthreads();

	/*
	 * From a staged position to the row's place: the tile's first position
	 * in the partition less the partition's first staged position (uint32,
	 * so the difference may wrap; the sum is a row below n < 2^32).
	 */
	for (uint32_t b = threadIdx.x; b < n_parts; b += THREADS)
		base[b] = offsets[(int64_t) b * n_tiles + tile] - base[b];
	__syncthreads();
	for (int j = threadIdx.x; j < count; j += THREADS)
		out[base[stage_part[j]] + (uint32_t) j] = stage[j];
}

/*
 * bounds[part]: the first position of each partition, and bounds[n_parts]
 * = n.  Grid-stride: gpugb_grid_for caps the grid by the SMs.
 */
__global__ void
gpugb_scatter_bounds_kernel(const uint32_t *offsets, int64_t n_tiles, uint32_t n_parts, int64_t n,
							uint32_t *bounds)
{
	for (int64_t b = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; b <= n_parts;
		 b += (int64_t) gridDim.x * blockDim.x)
		bounds[b] = b < n_parts ? offsets[b * n_tiles] : (uint32_t) n;
}

#endif							/* GPUGB_PARTITION_SCATTER_CUH */
