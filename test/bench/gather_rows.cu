/*
 * gather_rows.cu
 *    Whether PARTITION's four-payload launches could sort row numbers rather
 *    than rows: what CUB's sort of (2-byte partition, 4-byte row number)
 *    pairs and a gather of the packed rows in that order cost, against
 *    today's sort of (4-byte partition, row) items, on the same rows.
 *
 * Today (cuda/partition_move.cu, sort_rows) a launch of an int32 key and
 * four int32 sums sorts 24-byte packed rows with their 4-byte partitions:
 * two 8-bit passes of 28-byte items, 17.5 ms of its 27.7 at 2^22 groups
 * (H200, 2^28 rows, session 49).  The alternative: sort 6-byte pairs, then
 * read each row through its row number.  Rows of one partition come out in
 * row order (the sort is stable) but spread over the whole array, so each
 * read is a random one of the 32-byte sectors the row spans (1.72 on
 * average for 24-byte rows, 1 for rows padded to 32 bytes).  That random
 * read rate decides it (docs/session50-2026-11-30/pending/next-steps.md).
 *
 * Times (CUDA events, the best of --reps):
 *   sort-items   CUB SortPairs of (uint32 partition, W-byte row): today's way
 *   sort-pairs   CUB SortPairs of (uint16 partition, uint32 row number)
 *   gather-read  each row read through its row number, folded into one word a thread
 *   gather-copy  each row read through its row number and written in order
 *   seq-copy     the rows copied in order (the sequential bound)
 *
 * Build and run (GPU box):
 *   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/gather_rows test/bench/gather_rows.cu
 *   /tmp/gather_rows [--log2-rows 28] [--bits 12] [--reps 5]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include "../../cuda/key_mix.cuh"

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

/* A packed row of W/4 words: an int32 key and W/4 - 1 sums' words. */
template <int W>
struct Row
{
	uint32_t	w[W / 4];
};

/* Rows, their partitions (a hash's top bits, as the table's home slots' are) and their row numbers. */
template <int W>
__global__ void
fill_kernel(Row<W> *rows, uint32_t *part32, uint16_t *part16, uint32_t *rownum, int64_t n, int bits)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n; i += (int64_t) gridDim.x * blockDim.x)
	{
		uint32_t	h = gpugb_mix32((uint32_t) i * 0x9E3779B9u + 1u);
		Row<W>		r;

		for (int k = 0; k < W / 4; k++)
			r.w[k] = h + (uint32_t) k;
		rows[i] = r;
		part32[i] = h >> (32 - bits);
		part16[i] = (uint16_t) (h >> (32 - bits));
		rownum[i] = (uint32_t) i;
	}
}

/* Each row read through its row number; a thread folds its words into one, so nothing but the reads costs. */
template <int W>
__global__ void
gather_read_kernel(const Row<W> *rows, const uint32_t *order, int64_t n, uint32_t *folded)
{
	uint32_t	acc = 0;
	int64_t		t = blockIdx.x * (int64_t) blockDim.x + threadIdx.x;

	for (int64_t i = t; i < n; i += (int64_t) gridDim.x * blockDim.x)
	{
		Row<W>		r = rows[order[i]];

		for (int k = 0; k < W / 4; k++)
			acc ^= r.w[k];
	}
	folded[t] = acc;
}

template <int W>
__global__ void
gather_copy_kernel(const Row<W> *rows, const uint32_t *order, int64_t n, Row<W> *out)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n; i += (int64_t) gridDim.x * blockDim.x)
		out[i] = rows[order[i]];
}

template <int W>
__global__ void
seq_copy_kernel(const Row<W> *rows, int64_t n, Row<W> *out)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n; i += (int64_t) gridDim.x * blockDim.x)
		out[i] = rows[i];
}

/* The best time of `reps` runs of f, in ms. */
template <class F>
static float
best_ms(int reps, F f)
{
	cudaEvent_t a, b;
	float		best = 1e30f;

	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	for (int r = 0; r < reps; r++)
	{
		float		ms;

		CHECK(cudaEventRecord(a));
		f();
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		CHECK(cudaGetLastError());
		CHECK(cudaEventElapsedTime(&ms, a, b));
		best = ms < best ? ms : best;
	}
	CHECK(cudaEventDestroy(a));
	CHECK(cudaEventDestroy(b));
	return best;
}

template <int W>
static void
measure(int64_t n, int bits, int reps, int grid)
{
	Row<W>	   *rows,
			   *rows_out;
	uint32_t   *part32,
			   *part32_out,
			   *rownum,
			   *order,
			   *folded;
	uint16_t   *part16,
			   *part16_out;
	void	   *temp = nullptr;
	size_t		temp_items = 0,
				temp_pairs = 0;

	CHECK(cudaMalloc(&rows, n * sizeof(Row<W>)));
	CHECK(cudaMalloc(&rows_out, n * sizeof(Row<W>)));
	CHECK(cudaMalloc(&part32, n * 4));
	CHECK(cudaMalloc(&part32_out, n * 4));
	CHECK(cudaMalloc(&part16, n * 2));
	CHECK(cudaMalloc(&part16_out, n * 2));
	CHECK(cudaMalloc(&rownum, n * 4));
	CHECK(cudaMalloc(&order, n * 4));
	CHECK(cudaMalloc(&folded, (size_t) grid * 256 * 4));
	fill_kernel<W><<<grid, 256>>>(rows, part32, part16, rownum, n, bits);
	CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_items, part32, part32_out, rows, rows_out, n, 0, bits));
	CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_pairs, part16, part16_out, rownum, order, n, 0, bits));
	CHECK(cudaMalloc(&temp, temp_items > temp_pairs ? temp_items : temp_pairs));
	CHECK(cudaDeviceSynchronize());

	double		row_gb = (double) n * sizeof(Row<W>) / 1e9;
	float		sort_items = best_ms(reps, [&] {
		size_t		t = temp_items;

		CHECK(cub::DeviceRadixSort::SortPairs(temp, t, part32, part32_out, rows, rows_out, n, 0, bits));
	});
	float		sort_pairs = best_ms(reps, [&] {
		size_t		t = temp_pairs;

		CHECK(cub::DeviceRadixSort::SortPairs(temp, t, part16, part16_out, rownum, order, n, 0, bits));
	});
	float		gather_read = best_ms(reps, [&] { gather_read_kernel<W><<<grid, 256>>>(rows, order, n, folded); });
	float		gather_copy = best_ms(reps, [&] { gather_copy_kernel<W><<<grid, 256>>>(rows, order, n, rows_out); });
	float		seq_copy = best_ms(reps, [&] { seq_copy_kernel<W><<<grid, 256>>>(rows, n, rows_out); });

	printf("| %d | %d | %.2f | %.2f | %.2f (%.0f GB/s of rows) | %.2f | %.2f (%.0f GB/s each way) | %.2f |\n",
		   W, bits, sort_items, sort_pairs, gather_read, row_gb / (gather_read / 1e3), gather_copy, seq_copy,
		   row_gb / (seq_copy / 1e3), sort_pairs + gather_copy);
	CHECK(cudaFree(rows));
	CHECK(cudaFree(rows_out));
	CHECK(cudaFree(part32));
	CHECK(cudaFree(part32_out));
	CHECK(cudaFree(part16));
	CHECK(cudaFree(part16_out));
	CHECK(cudaFree(rownum));
	CHECK(cudaFree(order));
	CHECK(cudaFree(folded));
	CHECK(cudaFree(temp));
}

int
main(int argc, char **argv)
{
	int			log2_rows = 28,
				bits = 12,
				reps = 5;
	int			sms;

	for (int i = 1; i + 1 < argc; i += 2)
	{
		if (strcmp(argv[i], "--log2-rows") == 0)
			log2_rows = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--bits") == 0)
			bits = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--reps") == 0)
			reps = atoi(argv[i + 1]);
		else
		{
			fprintf(stderr, "usage: %s [--log2-rows N] [--bits B (1-16)] [--reps R]\n", argv[0]);
			return 2;
		}
	}
	if (log2_rows < 10 || log2_rows > 30 || bits < 1 || bits > 16 || reps < 1)
	{
		fprintf(stderr, "gather_rows: --log2-rows 10-30 (2^30 rows of 32 bytes take about 90 GB), --bits 1-16, --reps 1 or more\n");
		return 2;
	}
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

	int64_t		n = (int64_t) 1 << log2_rows;
	int			grid = sms * 8;

	printf("2^%d rows, %d partition bits, best of %d (ms)\n\n", log2_rows, bits, reps);
	printf("| row bytes | bits | sort-items | sort-pairs | gather-read | gather-copy | seq-copy | sort-pairs + gather-copy |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	measure<24>(n, bits, reps, grid);
	measure<32>(n, bits, reps, grid);
	return 0;
}
