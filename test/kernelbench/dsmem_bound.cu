/*
 * dsmem_bound.cu
 *    A bound, not a strategy: how fast can 2^12-2^18 groups be aggregated
 *    in the distributed shared memory of a thread-block cluster (sm_90)?
 *    A cluster of C blocks (one of 1024 threads an SM) splits the groups:
 *    block r owns the groups g with g % C == r, as a dense array of 32-bit
 *    states (a count and one word per payload) in its shared memory.  Each
 *    block reads its rows and adds each one, with one 32-bit atomic per
 *    state, to the owner's shared memory (cluster.map_shared_rank); at the
 *    end each block adds its groups' states to the global ones.  C = 1 is
 *    one block's own table (what the one-block lean table does, for as
 *    many groups as fit).
 *
 * Session 24 (README, section 6) asked for this measurement before any
 * design: a cluster holds 8-16 SMs' shared memory, enough for 2^15-2^16
 * groups, but distributed shared memory wants coalesced accesses and a
 * hash probe per row is the opposite.  The floor target (every input word
 * read once, about 0.96 ms for 2^28 rows of a key and a payload, 8 bytes
 * each) wants 2.9 ms or less at 2^14-2^16 groups; one atomic per state
 * into global memory takes 5.6 ms there even with the group given
 * (atomic_bound.cu).
 *
 * The group id is given (an 8-byte word a row, as gpugb's key words are):
 * no hashing, so this is a lower bound for any design that adds each row
 * with remote atomics.  Payloads are 8-byte words.  Sums are kept mod
 * 2^32 (counts exactly) and checked so against a global-memory reference;
 * a mismatch makes the exit status 1.  Time: best of 3 after a warm-up,
 * CUDA events around the one kernel.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 test/kernelbench/dsmem_bound.cu -o test/bin/dsmem_bound
 *   test/bin/dsmem_bound [--log2-rows 28] > dsmem_bound.md
 */
#include <cstring>

#include <cooperative_groups.h>

#define BOUND_NAME "dsmem_bound"
#include "bound_common.cuh"

namespace cg = cooperative_groups;

#define THREADS 1024

struct Args
{
	const uint64_t *gids;
	const long long *vals;		/* MAX_P columns of rows words */
	unsigned long long *states; /* group-major, 1 + P words a group */
	int64_t		rows;
	int64_t		groups;
};

template <int C, int P>
__global__ void __launch_bounds__(THREADS, 1)
cluster_kernel(const Args a, int local_groups)
{
	extern __shared__ unsigned smem[];
	cg::cluster_group cluster = cg::this_cluster();
	const unsigned rank = cluster.block_rank();
	const int	words = local_groups * (1 + P);

	for (int s = threadIdx.x; s < words; s += blockDim.x)
		smem[s] = 0;
	cluster.sync();
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < a.rows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		uint64_t	g = __ldg((const unsigned long long *) &a.gids[i]);
		long long	v[P];

#pragma unroll
		for (int p = 0; p < P; p++)
			v[p] = __ldg(&a.vals[(int64_t) p * a.rows + i]);

		unsigned   *owner = C == 1 ? smem : cluster.map_shared_rank(smem, (unsigned) (g % C));
		unsigned   *r = owner + (g / C) * (1 + P);

		atomicAdd(r, 1u);
#pragma unroll
		for (int p = 0; p < P; p++)
			atomicAdd(r + 1 + p, (unsigned) v[p]);
	}
	cluster.sync();				/* every remote add has landed */
	for (int s = threadIdx.x; s < local_groups; s += blockDim.x)
	{
		uint64_t	g = (uint64_t) s * C + rank;

		if (smem[s * (1 + P)] == 0)
			continue;
		for (int c = 0; c <= P; c++)
			atomicAdd(&a.states[g * (1 + P) + c], (unsigned long long) smem[s * (1 + P) + c]);
	}
}

/* Launches cluster_kernel<C, P> on as many clusters as fit at once; 0 ms if it does not fit. */
template <int C, int P>
static float
run_clusters(const Args &a, cudaEvent_t t0, cudaEvent_t t1, int *clusters_out)
{
	int			local_groups = (int) (a.groups / C);
	size_t		bytes = (size_t) local_groups * (1 + P) * 4;
	auto		kernel = cluster_kernel<C, P>;
	cudaDeviceProp prop;

	CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
	if (a.groups % C != 0 || bytes > prop.sharedMemPerBlockOptin)
		return 0;
	CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) bytes));
	if (C > 8)
		CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));

	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute attr[1];

	attr[0].id = cudaLaunchAttributeClusterDimension;
	attr[0].val.clusterDim.x = C;
	attr[0].val.clusterDim.y = 1;
	attr[0].val.clusterDim.z = 1;
	cfg.gridDim = dim3(C);
	cfg.blockDim = dim3(THREADS);
	cfg.dynamicSmemBytes = bytes;
	cfg.attrs = attr;
	cfg.numAttrs = 1;

	int			clusters = 0;

	if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg) != cudaSuccess || clusters <= 0)
	{
		(void) cudaGetLastError();
		return 0;
	}
	cfg.gridDim = dim3(clusters * C);
	*clusters_out = clusters;
	return bound_best_of_3([&]() { CHECK_CUDA(cudaLaunchKernelEx(&cfg, kernel, a, local_groups)); },
						   a.states, a.groups * 8 * (1 + P), t0, t1);
}

template <int P>
static int
one_point(Args a, cudaEvent_t t0, cudaEvent_t t1, int lg)
{
	static const int sizes[] = {1, 2, 4, 8, 16};
	std::vector<unsigned long long> ref = bound_reference<P>(a.gids, a.vals, a.rows, a.groups, a.states);
	int			failures = 0;

	printf("| %d | 2^%d |", P, lg);
	for (int c : sizes)
	{
		int			clusters = 0;
		float		ms = c == 1 ? run_clusters<1, P>(a, t0, t1, &clusters) :
			c == 2 ? run_clusters<2, P>(a, t0, t1, &clusters) :
			c == 4 ? run_clusters<4, P>(a, t0, t1, &clusters) :
			c == 8 ? run_clusters<8, P>(a, t0, t1, &clusters) :
			run_clusters<16, P>(a, t0, t1, &clusters);

		if (ms <= 0)
		{
			printf(" - |");
			continue;
		}
		if (!bound_same_mod32(a.states, ref, P))
		{
			fprintf(stderr, "dsmem_bound: P=%d g=2^%d C=%d: states differ from the reference\n", P, lg, c);
			failures++;
		}
		printf(" %.2f (%d) |", ms, clusters * c);
	}
	printf("\n");
	fflush(stdout);
	return failures;
}

int
main(int argc, char **argv)
{
	int			log2_rows = bound_log2_rows(argc, argv);


	int64_t		rows = 1ll << log2_rows;
	int64_t		max_g = 1ll << 18;
	cudaDeviceProp prop;
	uint64_t   *gids;
	long long  *vals;
	unsigned long long *states;
	cudaEvent_t t0,
				t1;

	CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
	CHECK_CUDA(cudaMalloc(&gids, rows * 8));
	CHECK_CUDA(cudaMalloc(&vals, rows * 8 * MAX_P));
	CHECK_CUDA(cudaMalloc(&states, max_g * 8 * (1 + MAX_P)));
	CHECK_CUDA(cudaEventCreate(&t0));
	CHECK_CUDA(cudaEventCreate(&t1));
	printf("# Groups in a cluster's distributed shared memory: one remote 32-bit atomic per state and row\n\n");
	printf("%s, %d SMs, %zu bytes of shared memory a block (opt-in); 2^%d rows, uniform group ids and "
		   "payloads of 8-byte words; ms, best of 3 after a warm-up; (blocks: one of %d threads an SM, "
		   "in as many clusters as fit); -: the groups do not fit.\n\n",
		   prop.name, prop.multiProcessorCount, prop.sharedMemPerBlockOptin, log2_rows, THREADS);
	printf("| payloads | g | C = 1 | C = 2 | C = 4 | C = 8 | C = 16 |\n|---:|---:|---:|---:|---:|---:|---:|\n");

	int			failures = 0;

	for (int lg = 10; lg <= 18; lg += 2)
	{
		Args		a = {gids, vals, states, rows, 1ll << lg};

		bound_gen_kernel<<<prop.multiProcessorCount * 8, 256>>>(gids, nullptr, vals, rows, (uint64_t) a.groups);
		CHECK_CUDA(cudaDeviceSynchronize());
		failures += one_point<1>(a, t0, t1, lg);
		failures += one_point<4>(a, t0, t1, lg);
	}
	printf("\n%s\n", failures == 0 ? "every result equals the reference (counts exactly, sums mod 2^32)" :
		   "FAILURES (see stderr)");
	return failures == 0 ? 0 : 1;
}
