/*
 * atomic_bound.cu
 *    A bound, not a strategy: how fast can a kernel that adds one atomic per
 *    group state and row go on this device, and how much does the layout of
 *    the global states change that?  gpugb's global states are columns
 *    (cuda/kernel_params.cuh: state c of group g at c * pitch + g), so a row
 *    with four payloads touches six 32-byte sectors (a count, four sums and
 *    the hash slot), each in a different cache line.  Kept group-major (the
 *    states of a group side by side), the same row touches two or three.
 *    Beyond L2 that should matter; within L2 the atomics themselves bound it.
 *
 * No PostgreSQL, no gpugb code: each row carries its group id (an 8-byte
 * word, as gpugb's key words are), so no hashing is measured; the "probe"
 * variant adds one dependent random 8-byte load from a table of 2g words
 * per row, which is what a hash table's slot read costs.  Payloads are
 * 8-byte words (gpugb's device format).  Group ids are uniform over [0, g).
 *
 * For each payload count P and g: columnar and group-major layouts, without
 * and with the probe.  Time: best of 3 after a warm-up, CUDA events around
 * the one kernel.  Both layouts' results are reduced to one checksum each,
 * which must match (and the total count must equal the rows), else the
 * exit status is 1.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 test/kernelbench/atomic_bound.cu -o test/bin/atomic_bound
 *   test/bin/atomic_bound [--log2-rows 28] [--log2-groups 6:26:2] > atomic_bound.md
 */
#include <cstring>

#define BOUND_NAME "atomic_bound"
#include "bound_common.cuh"

struct Args
{
	const uint64_t *gids;
	const long long *vals;		/* P columns of rows words */
	const unsigned long long *probe;	/* 2g words, all 0; null: no probe */
	uint64_t	probe_mask;
	unsigned long long *states;
	int64_t		rows;
	int64_t		groups;
};

/* GROUP_MAJOR: the states of group g at [g * (1 + P), g * (1 + P) + P]; else state c at [c * groups + g]. */
template <int P, bool GROUP_MAJOR>
__global__ void __launch_bounds__(256)
aggregate_kernel(const Args a)
{
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < a.rows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		uint64_t	g = __ldg((const unsigned long long *) &a.gids[i]);
		long long	v[P];

#pragma unroll
		for (int p = 0; p < P; p++)
			v[p] = __ldg(&a.vals[(int64_t) p * a.rows + i]);
		if (a.probe != nullptr)
			g += __ldg(&a.probe[(g * 0x9E3779B97F4A7C15ull >> 17) & a.probe_mask]);	/* + 0, dependent */
		if (GROUP_MAJOR)
		{
			unsigned long long *r = a.states + g * (1 + P);

			atomicAdd(r, 1ull);
#pragma unroll
			for (int p = 0; p < P; p++)
				atomicAdd(r + 1 + p, (unsigned long long) v[p]);
		}
		else
		{
			atomicAdd(&a.states[g], 1ull);
#pragma unroll
			for (int p = 0; p < P; p++)
				atomicAdd(&a.states[(int64_t) (1 + p) * a.groups + g], (unsigned long long) v[p]);
		}
	}
}

/* Order-independent checksum of the states, whichever layout. */
__global__ void
checksum_kernel(const unsigned long long *states, int64_t groups, int P, bool group_major,
				unsigned long long *out)
{
	unsigned long long acc = 0;

	for (int64_t g = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; g < groups;
		 g += (int64_t) gridDim.x * blockDim.x)
		for (int c = 0; c <= P; c++)
		{
			unsigned long long s = group_major ? states[g * (1 + P) + c] : states[(int64_t) c * groups + g];

			acc += s * mix64((uint64_t) g * 8 + c) + (c == 0 ? s << 40 : 0);
		}
	atomicAdd(out, acc);
}

static unsigned long long
total_count(const unsigned long long *states, int64_t groups, int P, bool group_major)
{
	std::vector<unsigned long long> h(group_major ? groups * (1 + P) : groups);

	CHECK_CUDA(cudaMemcpy(h.data(), states, h.size() * 8, cudaMemcpyDeviceToHost));

	unsigned long long n = 0;

	for (int64_t g = 0; g < groups; g++)
		n += h[group_major ? g * (1 + P) : g];
	return n;
}

template <int P, bool GM>
static void
launch(const Args &a, int blocks)
{
	aggregate_kernel<P, GM><<<blocks, 256>>>(a);
}

static void
launch_any(int P, bool gm, const Args &a, int blocks)
{
	switch (P * 2 + (gm ? 1 : 0))
	{
		case 2: launch<1, false>(a, blocks); break;
		case 3: launch<1, true>(a, blocks); break;
		case 8: launch<4, false>(a, blocks); break;
		case 9: launch<4, true>(a, blocks); break;
		default: fprintf(stderr, "atomic_bound: P must be 1 or 4\n"); exit(2);
	}
}

int
main(int argc, char **argv)
{
	int			log2_rows = 28,
				lg_from = 6,
				lg_to = 26,
				lg_step = 2;

	for (int i = 1; i + 1 < argc; i += 2)
	{
		if (strcmp(argv[i], "--log2-rows") == 0)
			log2_rows = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--log2-groups") == 0 &&
				 sscanf(argv[i + 1], "%d:%d:%d", &lg_from, &lg_to, &lg_step) == 3)
			;
		else
		{
			fprintf(stderr, "usage: atomic_bound [--log2-rows N] [--log2-groups FROM:TO:STEP]\n");
			return 2;
		}
	}

	int64_t		rows = 1ll << log2_rows;
	int64_t		max_g = 1ll << lg_to;
	cudaDeviceProp prop;

	CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));

	int			blocks = prop.multiProcessorCount * 8;	/* 8 blocks of 256 an SM: 64 warps */
	uint64_t   *gids;
	long long  *vals;
	unsigned long long *states,
			   *probe,
			   *sum;

	CHECK_CUDA(cudaMalloc(&gids, rows * 8));
	CHECK_CUDA(cudaMalloc(&vals, rows * 8 * MAX_P));
	CHECK_CUDA(cudaMalloc(&states, max_g * 8 * (1 + MAX_P)));
	CHECK_CUDA(cudaMalloc(&probe, 2 * max_g * 8));
	CHECK_CUDA(cudaMalloc(&sum, 8));
	CHECK_CUDA(cudaMemset(probe, 0, 2 * max_g * 8));

	cudaEvent_t t0,
				t1;

	CHECK_CUDA(cudaEventCreate(&t0));
	CHECK_CUDA(cudaEventCreate(&t1));
	printf("# One atomic per state and row: columnar against group-major states\n\n");
	printf("%s, %d SMs, %.0f MB L2; 2^%d rows, uniform group ids (8-byte words), payloads of 8-byte words; "
		   "ms, best of 3 after a warm-up. Probe: one dependent random 8-byte load from 2g words a row.\n\n",
		   prop.name, prop.multiProcessorCount, prop.l2CacheSize / 1e6, log2_rows);
	printf("| payloads | g | states MB | columnar | group-major | columnar / group-major | "
		   "columnar + probe | group-major + probe | ratio with probe |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");

	int			failures = 0;

	for (int lg = lg_from; lg <= lg_to; lg += lg_step)
	{
		int64_t		g = 1ll << lg;

		bound_gen_kernel<<<blocks, 256>>>(gids, nullptr, vals, rows, (uint64_t) g);
		CHECK_CUDA(cudaDeviceSynchronize());
		for (int P = 1; P <= MAX_P; P += 3)
		{
			double		ms[2][2];
			unsigned long long check[2][2];

			for (int probed = 0; probed < 2; probed++)
				for (int gm = 0; gm < 2; gm++)
				{
					Args		a = {gids, vals, probed ? probe : nullptr, (uint64_t) (2 * g - 1), states, rows, g};

					ms[probed][gm] = bound_best_of_3([&]() { launch_any(P, gm != 0, a, blocks); },
													 states, g * 8 * (1 + P), t0, t1);
					CHECK_CUDA(cudaMemset(sum, 0, 8));
					checksum_kernel<<<blocks, 256>>>(states, g, P, gm != 0, sum);
					CHECK_CUDA(cudaMemcpy(&check[probed][gm], sum, 8, cudaMemcpyDeviceToHost));
					if (total_count(states, g, P, gm != 0) != (unsigned long long) rows)
					{
						fprintf(stderr, "atomic_bound: P=%d g=2^%d %s: counts do not add up to the rows\n",
								P, lg, gm ? "group-major" : "columnar");
						failures++;
					}
				}
			if (check[0][0] != check[0][1] || check[0][0] != check[1][0] || check[0][0] != check[1][1])
			{
				fprintf(stderr, "atomic_bound: P=%d g=2^%d: checksums differ\n", P, lg);
				failures++;
			}
			printf("| %d | 2^%d | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", P, lg,
				   g * 8.0 * (1 + P) / 1e6, ms[0][0], ms[0][1], ms[0][0] / ms[0][1], ms[1][0], ms[1][1],
				   ms[1][0] / ms[1][1]);
			fflush(stdout);
		}
	}
	printf("\n%s\n", failures == 0 ? "all checksums equal, every count adds up to the rows" : "FAILURES (see stderr)");
	return failures == 0 ? 0 : 1;
}
