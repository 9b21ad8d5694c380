/*
 * bound_common.cuh
 *    What the bound programs (atomic_bound.cu, dsmem_bound.cu,
 *    shared_bound.cu) share: error checks, the rows they aggregate (2^28 of
 *    them, uniform group ids and payloads in 8-byte words, as gpugb's device
 *    format), a global-memory reference, the check against it, and the
 *    timing (best of 3 after a warm-up, CUDA events around one launch).
 *
 * Define BOUND_NAME (the program's name, a string) before including it.
 */
#ifndef GPUGB_BOUND_COMMON_CUH
#define GPUGB_BOUND_COMMON_CUH

#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define MAX_P 4

#define CHECK_CUDA(call) \
	do { \
		cudaError_t e_ = (call); \
		if (e_ != cudaSuccess) \
		{ \
			fprintf(stderr, BOUND_NAME ": %s: %s\n", #call, cudaGetErrorString(e_)); \
			exit(2); \
		} \
	} while (0)

static inline __host__ __device__ uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* The key of group r: an invertible scramble (mix64 is a bijection), so distinct groups have distinct keys. */
static inline __host__ __device__ uint64_t
bound_key_of(uint64_t r)
{
	return mix64(r ^ 0x5DEECE66Dull);
}

/*
 * Row i's group (uniform over [0, g)), its key where `keys` is not null,
 * and MAX_P payload columns of int32 values in [-2^19, 2^19).
 */
__global__ void
bound_gen_kernel(uint64_t *gids, uint64_t *keys, long long *vals, int64_t rows, uint64_t g)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < rows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		uint64_t	r = mix64((uint64_t) i + 0x1234567ull) % g;

		gids[i] = r;
		if (keys != nullptr)
			keys[i] = bound_key_of(r);
		for (int p = 0; p < MAX_P; p++)
			vals[(int64_t) p * rows + i] = (long long) (mix64((uint64_t) i * 8 + p) % (1u << 20)) - (1 << 19);
	}
}

/* The reference: every row added to group-major 64-bit states (1 + P words a group). */
template <int P>
__global__ void
bound_reference_kernel(const uint64_t *gids, const long long *vals, int64_t rows,
					   unsigned long long *states)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < rows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		unsigned long long *r = states + gids[i] * (1 + P);

		atomicAdd(r, 1ull);
		for (int p = 0; p < P; p++)
			atomicAdd(r + 1 + p, (unsigned long long) vals[(int64_t) p * rows + i]);
	}
}

/* The reference's states for `groups` groups, on the host. */
template <int P>
static inline std::vector<unsigned long long>
bound_reference(const uint64_t *gids, const long long *vals, int64_t rows, int64_t groups,
				unsigned long long *states)
{
	std::vector<unsigned long long> ref(groups * (1 + P));

	CHECK_CUDA(cudaMemset(states, 0, ref.size() * 8));
	bound_reference_kernel<P><<<132 * 8, 256>>>(gids, vals, rows, states);
	CHECK_CUDA(cudaMemcpy(ref.data(), states, ref.size() * 8, cudaMemcpyDeviceToHost));
	return ref;
}

/* Whether group-major states equal the reference's: counts exactly, sums mod 2^32. */
static inline bool
bound_same_mod32(const unsigned long long *states, const std::vector<unsigned long long> &ref, int P)
{
	std::vector<unsigned long long> h(ref.size());

	CHECK_CUDA(cudaMemcpy(h.data(), states, h.size() * 8, cudaMemcpyDeviceToHost));
	for (size_t k = 0; k < h.size(); k++)
		if ((k % (1 + P) == 0 ? h[k] != ref[k] : (uint32_t) h[k] != (uint32_t) ref[k]))
			return false;
	return true;
}

/* The programs' one option, --log2-rows N (default 28); a usage message and exit 2 otherwise. */
static inline int
bound_log2_rows(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--log2-rows") == 0)
		return atoi(argv[2]);
	if (argc != 1)
	{
		fprintf(stderr, "usage: " BOUND_NAME " [--log2-rows N]\n");
		exit(2);
	}
	return 28;
}

/*
 * The best time in ms of 3 runs of `launch` after a warm-up, each over
 * states zeroed first (state_bytes of them).
 */
template <typename Launch>
static inline float
bound_best_of_3(Launch launch, unsigned long long *states, size_t state_bytes, cudaEvent_t t0, cudaEvent_t t1)
{
	float		best = 1e30f;

	for (int rep = 0; rep < 4; rep++)
	{
		float		t;

		CHECK_CUDA(cudaMemset(states, 0, state_bytes));
		CHECK_CUDA(cudaEventRecord(t0));
		launch();
		CHECK_CUDA(cudaGetLastError());
		CHECK_CUDA(cudaEventRecord(t1));
		CHECK_CUDA(cudaEventSynchronize(t1));
		CHECK_CUDA(cudaEventElapsedTime(&t, t0, t1));
		if (rep > 0 && t < best)
			best = t;
	}
	return best;
}

#endif							/* GPUGB_BOUND_COMMON_CUH */
