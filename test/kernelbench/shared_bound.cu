/*
 * shared_bound.cu
 *    A bound, not a strategy: what a block table in shared memory costs for
 *    2^2-2^12 groups, with and without the lookup of a key.  Each block (of
 *    1024 threads, as many as fit an SM) keeps the states of every group,
 *    32-bit words (a count and one per payload), and adds each of its rows
 *    with one shared-memory atomic per state; at the end it adds its states
 *    to the global ones.
 *
 *  - dense: the row carries its group id (0 .. g-1) instead of a key: no
 *    lookup at all;
 *  - hash: the row carries a key (an 8-byte word, a scramble of the group,
 *    as the kernel benchmark's keys are); the block first inserts the g
 *    keys into a table of 2g slots (linear probing, keys in 8-byte words,
 *    as the lean kernel's key cache at its half load), then each row hashes
 *    its key, probes until its key, and adds to that slot's states;
 *  - global: the row carries a key, looked up (read-only) in a global table
 *    of 2g slots (8-byte keys and their group ids, linear probing, built
 *    before the timing), and the group id found indexes the dense block
 *    table.  The design session 44 asked about for 2^13-2^14 groups, where
 *    the lean kernel's key cache does not fit shared memory but a dense
 *    table of 32-bit states does: how near the floor can a block table
 *    indexed by group id come, with one global probe a row?
 *
 * dsmem_bound.cu found the dense block table at the device-memory floor
 * (0.94 ms for 2^28 rows of a group id and a payload, 8-byte words) where
 * gpugb's lean kernel takes 3.2-4.9 ms at 2^8-2^12 groups (kernel
 * benchmark, session 29): is the difference the key's lookup, or the rest
 * of the kernel's row loop?  Sums are kept mod 2^32 (counts exactly) and
 * checked so against a global-memory reference; a mismatch makes the exit
 * status 1.  Time: best of 3 after a warm-up, CUDA events around the kernel.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 test/kernelbench/shared_bound.cu -o test/bin/shared_bound
 *   test/bin/shared_bound [--log2-rows 28] > shared_bound.md
 * (2^2-2^12 groups by 4, then 2^13 and 2^14: session 44's global mode.)
 */
#include <cstring>

#define BOUND_NAME "shared_bound"
#include "bound_common.cuh"

#define THREADS 1024
#define MAX_LOG2_G 14			/* 2^13-2^14: dense tables of one payload only fit (64-128 KB) */
#define EMPTY_KEY 0xFFFFFFFFFFFFFFFFull	/* no scrambled key takes it (checked at start-up) */

struct Args
{
	const uint64_t *gids;
	const uint64_t *keys;
	const unsigned long long *global_keys;	/* global: 2g slots, EMPTY_KEY where free */
	const unsigned *global_gids;	/* global: each slot's group */
	const long long *vals;		/* MAX_P columns of rows words */
	unsigned long long *states; /* group-major, 1 + P words a group */
	int64_t		rows;
	int64_t		groups;
	int			log2_slots;		/* hash: 2g slots */
};

static __device__ __forceinline__ unsigned
home_slot(uint64_t key, int log2_slots)
{
	return (unsigned) ((key * 0x9E3779B97F4A7C15ull) >> (64 - log2_slots));
}

/* How a row finds its state: its group id (DENSE), a block key table (HASH), a global key table (GLOBAL). */
enum BoundMode
{
	DENSE,
	HASH_MODE,
	GLOBAL
};

/* Builds the global mode's table: every group's key at its probe position, and its group. */
__global__ void
global_table_build_kernel(unsigned long long *keys, unsigned *gids, int64_t groups, int log2_slots)
{
	const unsigned mask = (1u << log2_slots) - 1;

	for (int64_t r = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; r < groups;
		 r += (int64_t) gridDim.x * blockDim.x)
	{
		uint64_t	key = bound_key_of((uint64_t) r);
		unsigned	s = home_slot(key, log2_slots);

		while (atomicCAS(&keys[s], EMPTY_KEY, key) != EMPTY_KEY)
			s = (s + 1) & mask;
		gids[s] = (unsigned) r;
	}
}

/*
 * DENSE and GLOBAL: states of group g at [g * (1 + P)].  HASH_MODE: the
 * table's keys (8-byte words) first, then the states of slot s at
 * [s * (1 + P)] of the words after them, and each slot's group in a third
 * array, for the flush.
 */
template <int P, int MODE>
__global__ void __launch_bounds__(THREADS, 1)
block_table_kernel(const Args a)
{
	constexpr bool HASH = MODE == HASH_MODE;

	extern __shared__ unsigned long long smem64[];
	const int	slots = HASH ? 1 << a.log2_slots : (int) a.groups;
	const unsigned mask = (unsigned) slots - 1;
	unsigned long long *table_keys = smem64;	/* HASH only */
	unsigned   *slot_group = (unsigned *) (smem64 + (HASH ? slots : 0));	/* HASH only */
	unsigned   *st = HASH ? slot_group + slots : (unsigned *) smem64;

	for (int s = threadIdx.x; s < slots; s += blockDim.x)
	{
		if (HASH)
			table_keys[s] = EMPTY_KEY;
		for (int c = 0; c <= P; c++)
			st[s * (1 + P) + c] = 0;
	}
	__syncthreads();
	if (HASH)
	{
		/* Every group's key, as a key cache holds the keys it met. */
		for (int r = threadIdx.x; r < a.groups; r += blockDim.x)
		{
			uint64_t	key = bound_key_of((uint64_t) r);
			unsigned	s = home_slot(key, a.log2_slots);

			while (atomicCAS(&table_keys[s], EMPTY_KEY, key) != EMPTY_KEY)
				s = (s + 1) & mask;
			slot_group[s] = (unsigned) r;
		}
		__syncthreads();
	}
	for (int64_t i = blockIdx.x * (int64_t) blockDim.x + threadIdx.x; i < a.rows;
		 i += (int64_t) gridDim.x * blockDim.x)
	{
		long long	v[P];
		unsigned	s;

#pragma unroll
		for (int p = 0; p < P; p++)
			v[p] = __ldg(&a.vals[(int64_t) p * a.rows + i]);
		if (HASH)
		{
			uint64_t	key = __ldg((const unsigned long long *) &a.keys[i]);

			s = home_slot(key, a.log2_slots);
			while (table_keys[s] != key)
				s = (s + 1) & mask;
		}
		else if (MODE == GLOBAL)
		{
			uint64_t	key = __ldg((const unsigned long long *) &a.keys[i]);
			const unsigned gmask = (1u << a.log2_slots) - 1;
			unsigned	g = home_slot(key, a.log2_slots);

			while (__ldg(&a.global_keys[g]) != key)
				g = (g + 1) & gmask;
			s = __ldg(&a.global_gids[g]);
		}
		else
			s = (unsigned) __ldg((const unsigned long long *) &a.gids[i]);

		unsigned   *r = st + s * (1 + P);

		atomicAdd(r, 1u);
#pragma unroll
		for (int p = 0; p < P; p++)
			atomicAdd(r + 1 + p, (unsigned) v[p]);
	}
	__syncthreads();
	for (int s = threadIdx.x; s < slots; s += blockDim.x)
	{
		if (st[s * (1 + P)] == 0)
			continue;

		uint64_t	g = HASH ? slot_group[s] : (uint64_t) s;

		for (int c = 0; c <= P; c++)
			atomicAdd(&a.states[g * (1 + P) + c], (unsigned long long) st[s * (1 + P) + c]);
	}
}

/* Runs block_table_kernel<P, MODE> on as many blocks as fit at once; 0 ms where the table does not fit. */
template <int P, int MODE>
static float
run_table(const Args &a, cudaEvent_t t0, cudaEvent_t t1, int *blocks_out)
{
	constexpr bool HASH = MODE == HASH_MODE;

	int64_t		slots = HASH ? 1ll << a.log2_slots : a.groups;
	size_t		bytes = (size_t) slots * ((HASH ? 8 + 4 : 0) + 4 * (1 + P));
	auto		kernel = block_table_kernel<P, MODE>;
	cudaDeviceProp prop;
	int			per_sm = 0;

	CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
	if (bytes > prop.sharedMemPerBlockOptin)
		return 0;
	CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) bytes));
	CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, bytes));
	if (per_sm <= 0)
		return 0;

	int			blocks = per_sm * prop.multiProcessorCount;

	*blocks_out = blocks;
	return bound_best_of_3([&]() { kernel<<<blocks, THREADS, bytes>>>(a); }, a.states,
						   a.groups * 8 * (1 + P), t0, t1);
}

template <int P>
static int
one_point(Args a, cudaEvent_t t0, cudaEvent_t t1, int lg)
{
	std::vector<unsigned long long> ref = bound_reference<P>(a.gids, a.vals, a.rows, a.groups, a.states);
	int			failures = 0;

	printf("| %d | 2^%d |", P, lg);
	for (int mode = DENSE; mode <= GLOBAL; mode++)
	{
		static const char *const names[] = {"dense", "hash", "global"};
		int			blocks = 0;
		float		ms = mode == HASH_MODE ? run_table<P, HASH_MODE>(a, t0, t1, &blocks) :
			mode == GLOBAL ? run_table<P, GLOBAL>(a, t0, t1, &blocks) : run_table<P, DENSE>(a, t0, t1, &blocks);

		if (ms <= 0)
		{
			printf(" - |");
			continue;
		}
		if (!bound_same_mod32(a.states, ref, P))
		{
			fprintf(stderr, "shared_bound: P=%d g=2^%d %s: states differ from the reference\n", P, lg,
					names[mode]);
			failures++;
		}
		printf(" %.2f (%d) |", ms, blocks);
	}
	printf("\n");
	fflush(stdout);
	return failures;
}

int
main(int argc, char **argv)
{
	int			log2_rows = bound_log2_rows(argc, argv);

	for (uint64_t r = 0; r < (1u << MAX_LOG2_G); r++)
		if (bound_key_of(r) == EMPTY_KEY)
		{
			fprintf(stderr, "shared_bound: a key is the empty marker\n");
			return 2;
		}

	int64_t		rows = 1ll << log2_rows;
	int64_t		max_g = 1ll << MAX_LOG2_G;
	cudaDeviceProp prop;
	uint64_t   *gids,
			   *keys;
	long long  *vals;
	unsigned long long *states,
			   *global_keys;
	unsigned   *global_gids;
	cudaEvent_t t0,
				t1;

	CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
	CHECK_CUDA(cudaMalloc(&gids, rows * 8));
	CHECK_CUDA(cudaMalloc(&keys, rows * 8));
	CHECK_CUDA(cudaMalloc(&vals, rows * 8 * MAX_P));
	CHECK_CUDA(cudaMalloc(&states, max_g * 8 * (1 + MAX_P)));
	CHECK_CUDA(cudaMalloc(&global_keys, 2 * max_g * 8));
	CHECK_CUDA(cudaMalloc(&global_gids, 2 * max_g * 4));
	CHECK_CUDA(cudaEventCreate(&t0));
	CHECK_CUDA(cudaEventCreate(&t1));
	printf("# A block table in shared memory: a group id given (dense) against a key looked up (hash)\n\n");
	printf("%s, %d SMs; 2^%d rows, uniform groups; group ids, keys and payloads in 8-byte words; "
		   "blocks of %d threads, as many as fit; ms, best of 3 after a warm-up; (blocks); "
		   "-: the table does not fit.\n\n", prop.name, prop.multiProcessorCount, log2_rows, THREADS);
	printf("| payloads | g | dense | hash (2g slots) | global (2g slots, dense block table) |\n"
		   "|---:|---:|---:|---:|---:|\n");

	int			failures = 0;

	for (int lg = 2; lg <= MAX_LOG2_G; lg += lg < 12 ? 2 : 1)
	{
		Args		a = {gids, keys, global_keys, global_gids, vals, states, rows, 1ll << lg, lg + 1};

		bound_gen_kernel<<<prop.multiProcessorCount * 8, 256>>>(gids, keys, vals, rows, (uint64_t) a.groups);
		CHECK_CUDA(cudaMemset(global_keys, 0xFF, (size_t) 2 * a.groups * 8));	/* EMPTY_KEY */
		global_table_build_kernel<<<prop.multiProcessorCount * 8, 256>>>(global_keys, global_gids, a.groups, lg + 1);
		CHECK_CUDA(cudaDeviceSynchronize());
		failures += one_point<1>(a, t0, t1, lg);
		failures += one_point<4>(a, t0, t1, lg);
	}
	printf("\n%s\n", failures == 0 ? "every result equals the reference (counts exactly, sums mod 2^32)" :
		   "FAILURES (see stderr)");
	return failures == 0 ? 0 : 1;
}
