/*
 * sort_layout_bench.cu
 *    How fast CUB's radix sort moves PARTITION's rows in different layouts
 *    (session 60): the sort is most of PARTITION's time with 8-byte keys
 *    (8.67 of 15.1 ms at 2^24 groups, one payload, session 58), and its
 *    passes there moved 14-byte rows (a 2-byte partition and a 12-byte
 *    struct) at about 1.8 TB/s, where the 4-byte key's 8-byte mixed words
 *    moved at 2.3.  Each layout sorts 2^28 rows by `bits` partition bits,
 *    the way partition_move.cu calls CUB (separate input and output
 *    buffers); it prints the best of --reps times.  No PostgreSQL, no
 *    gpugb code: a measurement to choose a layout before writing it.
 *
 *    sort_layout_bench [--log2-rows 28] [--bits 13,16,18] [--reps 3]
 */
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>

#include "../../cuda/split_values.cuh"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int W>
struct Words
{
	uint32_t	w[W];
};

/* A 12-byte key sorted by its top word first (CUB's decomposer: leftmost is most significant). */
struct Key96Decomposer
{
	__host__ __device__ cuda::std::tuple<uint32_t &, uint32_t &, uint32_t &> operator()(Words<3> &k) const
	{
		return {k.w[2], k.w[1], k.w[0]};
	}
};

__device__ __forceinline__ uint32_t
mix(uint64_t i, uint32_t salt)
{
	uint64_t	x = (i + salt) * 0x9e3779b97f4a7c15ull;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (uint32_t) x;
}

template <class T>
__global__ void
fill_kernel(T *out, int64_t n, uint32_t salt)
{
	constexpr int W = (sizeof(T) + 3) / 4;

	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < n; i += (int64_t) gridDim.x * blockDim.x)
	{
		uint32_t	w[W];

		for (int k = 0; k < W; k++)
			w[k] = mix(i, salt + 977u * k);
		memcpy(&out[i], w, sizeof(T));
	}
}

template <class T>
static T *
filled(int64_t n, uint32_t salt)
{
	T		   *p;

	CHECK(cudaMalloc(&p, n * sizeof(T)));
	fill_kernel<T><<<4096, 256>>>(p, n, salt);
	CHECK(cudaGetLastError());
	return p;
}

static int	reps = 3;

/* Best time in ms of `sort(temp, temp_bytes)` over reps, after one warm-up. */
template <class F>
static double
best_ms(F sort)
{
	size_t		temp_bytes = 0;
	void	   *temp = nullptr;
	cudaEvent_t a, b;
	double		best = 1e30;

	CHECK(sort(nullptr, temp_bytes));
	CHECK(cudaMalloc(&temp, temp_bytes));
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	for (int r = 0; r <= reps; r++)
	{
		float		ms;

		CHECK(cudaEventRecord(a));
		CHECK(sort(temp, temp_bytes));
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		CHECK(cudaEventElapsedTime(&ms, a, b));
		if (r > 0 && ms < best)
			best = ms;
	}
	CHECK(cudaFree(temp));
	CHECK(cudaEventDestroy(a));
	CHECK(cudaEventDestroy(b));
	return best;
}

/* Pairs: key type K over [begin, end) bits, value type V. */
template <class K, class V>
static void
pairs(const char *name, int64_t n, int begin, int end)
{
	K		   *kin = filled<K>(n, 1), *kout;
	V		   *vin = filled<V>(n, 2), *vout;

	CHECK(cudaMalloc(&kout, n * sizeof(K)));
	CHECK(cudaMalloc(&vout, n * sizeof(V)));
	double		ms = best_ms([&](void *t, size_t &tb) {
		return cub::DeviceRadixSort::SortPairs(t, tb, kin, kout, vin, vout, n, begin, end);
	});
	double		bytes = (double) n * (sizeof(K) + sizeof(V));

	printf("%-28s bits %2d  row %2zu B  %8.3f ms  %6.2f GB/s a pass-byte\n", name, end - begin,
		   sizeof(K) + sizeof(V), ms, bytes * 2 * ((end - begin + 7) / 8) / ms / 1e6);
	CHECK(cudaFree(kin));
	CHECK(cudaFree(kout));
	CHECK(cudaFree(vin));
	CHECK(cudaFree(vout));
}

/* Keys only: plain K over [begin, end), or the 12-byte key through its decomposer. */
template <class K>
static void
keys(const char *name, int64_t n, int begin, int end)
{
	K		   *kin = filled<K>(n, 3), *kout;

	CHECK(cudaMalloc(&kout, n * sizeof(K)));
	double		ms;

	if constexpr (sizeof(K) == 12)
		ms = best_ms([&](void *t, size_t &tb) {
			return cub::DeviceRadixSort::SortKeys(t, tb, kin, kout, n, Key96Decomposer{}, begin, end);
		});
	else
		ms = best_ms([&](void *t, size_t &tb) {
			return cub::DeviceRadixSort::SortKeys(t, tb, kin, kout, n, begin, end);
		});
	printf("%-28s bits %2d  row %2zu B  %8.3f ms  %6.2f GB/s a pass-byte\n", name, end - begin, sizeof(K), ms,
		   (double) n * sizeof(K) * 2 * ((end - begin + 7) / 8) / ms / 1e6);
	CHECK(cudaFree(kin));
	CHECK(cudaFree(kout));
}

int
main(int argc, char **argv)
{
	int			log2_rows = 28;
	std::vector<int> bit_list = {13, 16, 18};

	for (int i = 1; i + 1 < argc; i += 2)
	{
		if (!strcmp(argv[i], "--log2-rows"))
			log2_rows = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--reps"))
			reps = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--bits"))
		{
			bit_list.clear();
			for (char *s = strtok(argv[i + 1], ","); s; s = strtok(nullptr, ","))
				bit_list.push_back(atoi(s));
		}
	}

	int64_t		n = 1ll << log2_rows;

	for (int bits : bit_list)
	{
		printf("== 2^%d rows, %d bits\n", log2_rows, bits);
		/* 8-byte key, one sum: today's 2-byte partition and 12-byte row, and three layouts of 12 bytes. */
		if (bits <= 16)
			pairs<uint16_t, Words<3>>("8B1p was: u16 + w3", n, 0, bits);
		pairs<uint32_t, Words<3>>("8B1p u32 + w3", n, 0, bits);
		pairs<uint64_t, uint32_t>("8B1p now: hash u64 + u32", n, 64 - bits, 64);
		pairs<uint32_t, uint64_t>("8B1p hi u32 + lo|v u64", n, 32 - bits, 32);
		keys<Words<3>>("8B1p keys w3 (decomposer)", n, 96 - bits, 96);
		/* 4-byte key, one sum: today's mixed words, for scale. */
		keys<uint64_t>("4B1p now: mixed u64 keys", n, 64 - bits, 64);
		/*
		 * 4-byte key, four sums (session 61's question): the gathered layout's
		 * (mixed key, row number) pairs, against the mixed key with the four
		 * sums as one aligned 16-byte value.
		 */
		pairs<uint32_t, uint32_t>("4B4p now: mixed u32 + row u32", n, 32 - bits, 32);
		pairs<uint32_t, uint4>("4B4p mixed u32 + u4", n, 32 - bits, 32);
		pairs<uint32_t, GpugbSplitValues<4>>("4B4p mixed u32 + split4", n, 32 - bits, 32);
		/* 8-byte key, four sums: the 4-byte partition and 24-byte row of before session 60, and 20-byte layouts. */
		pairs<uint32_t, Words<6>>("8B4p was: u32 + w6", n, 0, bits);
		pairs<uint32_t, Words<5>>("8B4p hi u32 + w5", n, 32 - bits, 32);
		pairs<uint64_t, Words<4>>("8B4p hash u64 + w4", n, 64 - bits, 64);
		pairs<uint64_t, GpugbSplitValues<4>>("8B4p now: hash u64 + split4", n, 64 - bits, 64);
		pairs<uint64_t, uint4>("8B4p hash u64 + u4", n, 64 - bits, 64);
		fflush(stdout);
	}
	return 0;
}
