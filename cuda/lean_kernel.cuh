/*
 * lean_kernel.cuh
 *    SHARED_HASH's kernel for the commonest launch: COUNT(*), COUNT(x) and
 *    integer SUM(x) only, keys that fit the block key cache (or none).
 *    gpugb_shared_agg_kernel serves every aggregate through run-time loops
 *    over the launch's aggregates, a switch per op,
 *    int128 states and a warp combine (__match_any_sync, ballots) per row;
 *    Nsight Compute put it at 440 warp instructions per 32 rows at 2^8
 *    groups (H200, session 23), 6.3x the device-memory floor.  This one
 *    knows its aggregates at compile time (NV sums) and keeps narrow block
 *    states:
 *
 *  - a row count per slot in 32 bits, and each sum in 64 bits (two 32-bit
 *    words, gpugb_lean_add64), of the rows whose every input fits an
 *    int32.  A launch has fewer than 2^31 rows (gpugb_lean_launch_ok), so
 *    a block's count fits and its sums stay below 2^31 * 2^31 = 2^62 in
 *    magnitude: no overflow;
 *  - a row with a wider input (or whose key found no cache slot) takes the
 *    generic warp combine into the global states, as the generic kernel's
 *    rows without a local slot do: always exact, only slower.  A partial
 *    table's instance (PARTIAL) defers its cold rows instead, 32 a warp
 *    (gpugb_lean_defer);
 *  - a warp whose 32 rows all fall in one slot (tiny g) adds them with
 *    one warp reduction (__reduce_add_sync, 32-bit: the inputs split in
 *    16-bit halves) and one atomic per state, instead of 32 conflicting
 *    atomics on one address;
 *  - at the end each slot's states are added to the global states with the
 *    generic int128 update (a 64-bit sum sign-extended), so the global
 *    states are the generic kernels' and the fetch is unchanged.
 *
 * NULL inputs: a NULL adds 0 to its sum, and the NULLs of count column
 * c > 0's input are counted per slot (32 bits), as the generic kernels
 * count them in the global states (kernel_params.cuh: the fetch returns
 * rows - NULLs).  Only inputs with NULLs in the launch (count_nulls[c]
 * set) have a shared column, at compact indexes (gpugb_lean_count_columns):
 * a launch without NULLs keeps one count column however many inputs it
 * has, so its table is as small as when the kernel had no NULL support.
 *
 * Shared memory, `slots` entries per column: per sum a column of uint32
 * low words and one of int32 high words; the count columns of uint32
 * (rows, then the NULLs of each input that has some); then the key cache
 * (key_cache.cuh) of the launch's keys, which maps a key to its global
 * group id and to the slot.  Without GROUP BY (no keys) the one group is
 * slot 0, and `slots` is 1.
 */
#ifndef GPUGB_LEAN_KERNEL_CUH
#define GPUGB_LEAN_KERNEL_CUH

#include "agg_kernels.cuh"
#include "key_cache.cuh"

/*
 * Threads of the one-block lean table's blocks (cuda/launch.cu,
 * lean_one_block_slots): a table that takes an SM's shared memory leaves
 * it one block, so the block takes 32 warps, as five blocks of 256 threads
 * an SM give 40; a whole table of which fewer than four 256-thread blocks
 * fit an SM (whole_table_wants_one_block) runs as one such block too.
 */
#define GPUGB_LEAN_ONE_BLOCK_THREADS 1024

/* Threads of a partial table's blocks, two an SM (cuda/launch.cu, launch_lean_shared_nulls says why). */
#define GPUGB_LEAN_PARTIAL_THREADS 512

/* Rows a lean launch must stay below, so a block's 32-bit counts and 64-bit sums cannot wrap. */
#define GPUGB_LEAN_MAX_ROWS (1ll << 31)

/* Whether launch p may take the lean kernel (host side; the keyed table is the caller's test). */
static inline bool
gpugb_lean_launch_ok(const GpugbAggParams &p)
{
	if (p.n_values > GPUGB_LEAN_MAX_SUMS || p.run_gid != nullptr || p.nrows >= GPUGB_LEAN_MAX_ROWS ||
		(p.n_keys != 0 && !gpugb_key_cache_usable(p.n_keys)))
		return false;
	for (int a = 0; a < p.n_values; a++)
		if (p.vals[a].op != GPUGB_AGG_SUM_INT)
			return false;
	return true;
}

/*
 * Whether launch p has a NULL input: the kernel's instance without NULLs
 * (NULLS false) drops every NULL test from its row loop, which cost one
 * sum's launch about 10 % at 2^0-2^8 groups on the H200 (session 25).
 */
static inline bool
gpugb_lean_has_nulls(const GpugbAggParams &p)
{
	for (int c = 1; c < p.n_counts; c++)
		if (p.count_nulls[c] != nullptr)
			return true;
	for (int a = 0; a < p.n_values; a++)
		if (p.vals[a].nulls != nullptr)
			return true;
	return false;
}

/*
 * Whether launch p's key can be looked up by one word
 * (key_cache.cuh's gpugb_key_cache_hit_word): one key, no NULL among its
 * values, no row list.  Uniform over the launch.
 */
static inline __host__ __device__ bool
gpugb_lean_word_key(const GpugbAggParams &p)
{
	return p.n_keys == 1 && p.key_nulls[0] == nullptr && p.row_list == nullptr;
}

/*
 * Whether gpugb_lean_shared_kernel looks launch p's keys up by one word:
 * the experiment spec.lean_fast_key only (gpugb_lean_fast_kernel, the plan
 * for whole tables of such launches, always does).
 */
static inline __host__ __device__ bool
gpugb_lean_fast_key(const GpugbAggParams &p)
{
	return p.lean_fast_key != 0 && gpugb_lean_word_key(p);
}

/* Count columns of launch p's lean table: the rows, and one per input with NULLs in the launch. */
static inline __host__ __device__ int
gpugb_lean_count_columns(const GpugbAggParams &p)
{
	int			columns = 1;

	for (int c = 1; c < p.n_counts; c++)
		columns += p.count_nulls[c] != nullptr ? 1 : 0;
	return columns;
}

/* 8-byte words of a lean table's count columns: `columns` columns of `slots` uint32 counts. */
static inline __host__ __device__ size_t
gpugb_lean_count_words(int columns, int64_t slots)
{
	return ((size_t) slots * 4 * columns + 7) / 8;
}

/* Shared memory of a lean block table of `slots` slots (8-byte aligned; heuristics.h sizes it). */
static inline __host__ __device__ size_t
gpugb_lean_table_bytes(int n_sums, int count_columns, int n_keys, int64_t slots)
{
	return (size_t) GPUGB_LEAN_TABLE_BYTES(n_sums, count_columns, n_keys, slots);
}

/*
 * Adds x to the 64-bit block state (hi, lo) of 32-bit words.  Shared
 * memory has no 64-bit atomic add: atomicAdd on an unsigned long long
 * there compiles to a CAS loop (ATOMS.CAST.SPIN.64), retried under
 * contention.  A 32-bit add returns the old low word, so the adder that
 * wraps it knows and carries into the high word together with x's own
 * high word; the pair is then the exact sum mod 2^64 under any
 * interleaving (the int128 argument of agg_kernels.cuh, one size down).
 * The high word's add is rare: a row's x is an int32, whose high word 0
 * or -1 the carry mostly cancels.
 */
__device__ __forceinline__ void
gpugb_lean_add64(unsigned *lo, int *hi, long long x)
{
	unsigned	add = (unsigned) x;
	unsigned	old = atomicAdd(lo, add);
	int			carry_hi = (int) (x >> 32) + (old + add < old ? 1 : 0);

	if (carry_hi != 0)
		atomicAdd(hi, carry_hi);
}

/* Adds x to sum a of block slot `slot`: its low words at [2a * slots], high words at [(2a + 1) * slots]. */
__device__ __forceinline__ void
gpugb_lean_add_sum(unsigned *sums, int slots, int a, int slot, long long x)
{
	gpugb_lean_add64(&sums[(size_t) 2 * a * slots + slot],
					 (int *) &sums[(size_t) (2 * a + 1) * slots + slot], x);
}

/* Sum over the full warp of an int32 value, exactly (two 32-bit reductions of its halves). */
__device__ __forceinline__ long long
gpugb_warp_sum_int32(int x)
{
	unsigned	lo = __reduce_add_sync(GPUGB_FULL_MASK, (unsigned) x & 0xFFFFu);
	int			hi = __reduce_add_sync(GPUGB_FULL_MASK, x >> 16);	/* arithmetic shift */

	return (long long) hi * 65536 + (long long) lo;
}

/*
 * Cold rows (a partial table's: the block's cache is full and their key is
 * not in it) are deferred, not looked up where the warp meets them.  A warp
 * that looks one row up in the global table and adds it with the generic
 * warp combine pays the whole warp's time for it, and under skew most warps
 * hold one or two cold rows among their hot ones: Zipf 1.5 over 2^20 groups
 * sends 2-3 % of the rows to the global table, yet took 10.3 ms against
 * 3.7 at 2^10 groups, where the table holds them all (H200 grid, session
 * 25).  So each warp keeps the launch indexes of up to 32 cold rows in a
 * register a lane, and when it holds 32 looks them up and adds them
 * together, one warp's work for 32 rows; what is left at the end goes in a
 * last, partial round.
 *
 * Lanes [at, at + count) of the warp's list take the launch indexes i of
 * the lanes that hold the set bits first .. first + count - 1 of `from`
 * (a ballot of the warp), counted from lane 0.  Warp-collective.
 */
__device__ __forceinline__ void
gpugb_lean_defer_take(unsigned from, int first, int count, uint32_t i, unsigned lane, int at,
					  uint32_t *deferred)
{
	int			k = (int) lane - at;
	bool		takes = k >= 0 && k < count;
	int			src = takes ? (int) __fns(from, 0, first + k + 1) : (int) lane;
	uint32_t	got = __shfl_sync(GPUGB_FULL_MASK, i, src);

	if (takes)
		*deferred = got;
}

/*
 * Looks the warp's deferred rows up (lanes [0, n) hold one each) and adds
 * them to the global states.  Rows in random order rarely repeat a key
 * among a warp's 32 cold rows, and then each lane adds its own row with an
 * atomic per state.  A table stored in key order sends whole warps of one
 * key past a block's full cache, where per-lane atomics on one address
 * would cost up to 32 times more (H200, session 27: per-lane adds alone
 * 1.6-4.4x slower at Zipf 1.0 and 1.5 with rows in key order); a warp with
 * a repeated key takes gpugb_agg_kernel's warp combine instead.  The
 * combine for every warp was 2-18 % slower than per-lane adds with rows in
 * random order (session 27, call 1).  A row whose key gets no group id goes
 * to the retry list.  Warp-collective.
 */
template <int NV, bool NULLS>
__device__ __forceinline__ void
gpugb_lean_add_deferred(const GpugbAggParams &p, const GpugbStates &global, uint32_t deferred,
						int n, unsigned lane)
{
	uint32_t	row = 0;
	int64_t		gid = (int) lane < n ? gpugb_launch_row_gid(p, deferred, &row) : -1;
	unsigned	peers = __match_any_sync(GPUGB_FULL_MASK, (unsigned long long) gid);

	if (__any_sync(GPUGB_FULL_MASK, gid >= 0 && peers != (1u << lane)))
	{
		gpugb_aggregate_warp(p, global, row, gid, gid, lane);
		return;
	}
	if (gid < 0)
		return;
	atomicAdd(&global.counts[gid], 1ull);	/* count column 0: every row */
	for (int c = 1; NULLS && c < p.n_counts; c++)
		if (gpugb_is_null(p.count_nulls[c], row))
			atomicAdd(&global.counts[c * global.pitch + gid], 1ull);
#pragma unroll
	for (int a = 0; a < NV; a++)
	{
		if (NULLS && gpugb_is_null(p.vals[a].nulls, row))
			continue;

		long long	w = __ldg((const long long *) &p.vals[a].values[row]);

		gpugb_apply_value(global, GPUGB_AGG_SUM_INT, p.vals[a].value_col, p.vals[a].hi_col, gid,
						  (uint64_t) w, w < 0 ? -1 : 0);
	}
}

/*
 * Adds the cold lanes (a non-empty ballot) to the warp's deferred rows;
 * when those reach 32, the warp adds them, and the cold lanes that did not
 * fit start the next list.  Warp-collective.
 */
template <int NV, bool NULLS>
__device__ __forceinline__ void
gpugb_lean_defer(const GpugbAggParams &p, const GpugbStates &global, unsigned cold_lanes,
				 uint32_t i, unsigned lane, uint32_t *deferred, int *n_deferred)
{
	int			n = __popc(cold_lanes);
	int			fit = n < 32 - *n_deferred ? n : 32 - *n_deferred;

	gpugb_lean_defer_take(cold_lanes, 0, fit, i, lane, *n_deferred, deferred);
	*n_deferred += fit;
	if (*n_deferred < 32)
		return;
	gpugb_lean_add_deferred<NV, NULLS>(p, global, *deferred, 32, lane);
	gpugb_lean_defer_take(cold_lanes, fit, n - fit, i, lane, 0, deferred);
	*n_deferred = n - fit;
}

/*
 * BLOCK: threads a block (GPUGB_AGG_BLOCK; GPUGB_LEAN_ONE_BLOCK_THREADS
 * for the one-block table of cuda/launch.cu's lean_one_block_slots, one
 * block an SM; GPUGB_LEAN_PARTIAL_THREADS for a partial table, two an SM); the
 * kernel reads blockDim, the bound is for the registers.
 * PARTIAL: the launch's table is partial (gpugb_plan_lean_table), sized for
 * two blocks an SM, so its instance may take the registers of two: it
 * defers cold rows (gpugb_lean_defer), which in four sums spilled registers
 * at the five blocks of a whole table's instance.
 */
template <int NV, bool NULLS, bool PARTIAL, int BLOCK = GPUGB_AGG_BLOCK>
__global__ void __launch_bounds__(BLOCK, BLOCK >= 1024 ? 1 : (PARTIAL || BLOCK > GPUGB_AGG_BLOCK ? 2 : 5))
gpugb_lean_shared_kernel(const GpugbAggParams p, int slots)
{
	extern __shared__ unsigned long long gpugb_lean_smem[];
	/* sum a: low words at [2a * slots], high words at [(2a + 1) * slots] */
	unsigned   *sums = (unsigned *) gpugb_lean_smem;
	/* count column k at [k * slots]: 0 the rows, k > 0 the k-th input with NULLs (its NULLs) */
	const int	count_columns = NULLS ? gpugb_lean_count_columns(p) : 1;
	unsigned   *counts = (unsigned *) (gpugb_lean_smem + (size_t) NV * slots);
	GpugbKeyCache cache = gpugb_key_cache_at(gpugb_lean_smem + (size_t) NV * slots +
											 gpugb_lean_count_words(count_columns, slots),
											 p.n_keys, slots, nullptr);

	for (int s = threadIdx.x; s < slots; s += blockDim.x)
	{
		for (int k = 0; k < count_columns; k++)
			counts[(size_t) k * slots + s] = 0;
#pragma unroll
		for (int a = 0; a < 2 * NV; a++)
			sums[(size_t) a * slots + s] = 0;
	}
	gpugb_key_cache_reset(cache);
	__syncthreads();

	const unsigned lane = threadIdx.x & 31u;
	const int64_t step = (int64_t) gridDim.x * blockDim.x;
	const GpugbStates global = gpugb_global_states(p);
	const bool	fast_key = gpugb_lean_fast_key(p);
	uint32_t	deferred = 0;	/* this lane's entry of the warp's deferred rows */
	int			n_deferred = 0; /* entries in use: lanes [0, n_deferred), warp-uniform */

	/* base is the warp's first row: the loop and its collectives are warp-uniform. */
	for (int64_t base = (int64_t) blockIdx.x * blockDim.x + (threadIdx.x & ~31u);
		 base < p.nrows; base += step)
	{
		int64_t		i = base + lane;
		uint32_t	row = 0;
		int			slot = -1;
		int64_t		gid = -1;
		int			v[NV > 0 ? NV : 1];
		bool		narrow = true;
		bool		cold = false;	/* no cache slot for its key: deferred */

		if (i < p.nrows)
		{
			/* The inputs first, so that their loads overlap the key's lookup. */
			uint32_t	r = p.row_list != nullptr ? p.row_list[i] : (uint32_t) i;
			long long	w[NV > 0 ? NV : 1];

#pragma unroll
			for (int a = 0; a < NV; a++)	/* a NULL input adds nothing: 0 */
				w[a] = NULLS && gpugb_is_null(p.vals[a].nulls, r) ? 0 :
					__ldg((const long long *) &p.vals[a].values[r]);
			row = r;
			if (p.n_keys == 0)
			{
				gid = 0;		/* no GROUP BY: one group, id 0, slot 0 */
				slot = 0;
			}
			else
			{
				/*
				 * A key the block knows: a read-only probe.  Else the full
				 * lookup, which may claim a slot; where the cache is full
				 * (a partial table's cold keys) the row is deferred
				 * (gpugb_lean_defer), rather than probe the cache again.
				 */
				slot = fast_key ?
					gpugb_key_cache_hit_word(cache, __ldg((const long long *) &p.key_values[0][r]), &gid) :
					gpugb_key_cache_hit(p, cache, r, &gid);
				if (slot < 0)
				{
					if (!gpugb_key_cache_full(cache))
						gid = gpugb_cached_row_gid(p, cache, i, &row, &slot);
					else if (PARTIAL)
						cold = true;
					else
						gid = gpugb_launch_row_gid(p, i, &row);
				}
			}
#pragma unroll
			for (int a = 0; a < NV; a++)
			{
				v[a] = (int) w[a];
				narrow = narrow && (long long) v[a] == w[a];
			}
		}

		bool		local = gid >= 0 && slot >= 0 && narrow;
		int			slot0 = __shfl_sync(GPUGB_FULL_MASK, slot, 0);

		if (__all_sync(GPUGB_FULL_MASK, local && slot == slot0))
		{
			long long	total[NV > 0 ? NV : 1];

#pragma unroll
			for (int a = 0; a < NV; a++)
				total[a] = gpugb_warp_sum_int32(v[a]);
			for (int c = 1, k = 1; NULLS && c < p.n_counts; c++)
			{
				if (p.count_nulls[c] == nullptr)
					continue;	/* no NULLs of this input in the launch (uniform) */

				unsigned	nulls = __popc(__ballot_sync(GPUGB_FULL_MASK,
														 gpugb_is_null(p.count_nulls[c], row)));

				if (lane == 0 && nulls != 0)
					atomicAdd(&counts[(size_t) k * slots + slot0], nulls);
				k++;
			}
			if (lane == 0)
			{
				atomicAdd(&counts[slot0], 32u);
#pragma unroll
				for (int a = 0; a < NV; a++)
					gpugb_lean_add_sum(sums, slots, a, slot0, total[a]);
			}
		}
		else if (local)
		{
			atomicAdd(&counts[slot], 1u);
			for (int c = 1, k = 1; NULLS && count_columns > 1 && c < p.n_counts; c++)
			{
				if (p.count_nulls[c] == nullptr)
					continue;
				if (gpugb_is_null(p.count_nulls[c], row))
					atomicAdd(&counts[(size_t) k * slots + slot], 1u);
				k++;
			}
#pragma unroll
			for (int a = 0; a < NV; a++)
				gpugb_lean_add_sum(sums, slots, a, slot, v[a]);
		}

		/* Rows with a wide input or no cache slot: the generic update of the global states. */
		bool		generic = gid >= 0 && !local;

		if (__any_sync(GPUGB_FULL_MASK, generic))
			gpugb_aggregate_warp(p, global, row, generic ? gid : -1, gid, lane);

		if (PARTIAL)
		{
			unsigned	cold_lanes = __ballot_sync(GPUGB_FULL_MASK, cold);

			if (cold_lanes != 0)
				gpugb_lean_defer<NV, NULLS>(p, global, cold_lanes, (uint32_t) i, lane, &deferred,
											&n_deferred);
		}
	}
	if (PARTIAL && n_deferred > 0)	/* warp-uniform */
		gpugb_lean_add_deferred<NV, NULLS>(p, global, deferred, n_deferred, lane);
	__syncthreads();

	/* No entry is BUSY after the loop: a slot is FREE or holds its group's id. */
	for (int s = threadIdx.x; s < slots; s += blockDim.x)
	{
		int			gid = p.n_keys == 0 ? 0 : cache.gids[s];

		if (gid < 0 || counts[s] == 0)
			continue;
		atomicAdd(&p.counts[gid], (unsigned long long) counts[s]);	/* count column 0 */
		for (int c = 1, k = 1; NULLS && c < p.n_counts; c++)
		{
			if (p.count_nulls[c] == nullptr)
				continue;

			unsigned	nulls = counts[(size_t) k++ * slots + s];

			if (nulls != 0)
				atomicAdd(&p.counts[c * p.max_groups + gid], (unsigned long long) nulls);
		}
#pragma unroll
		for (int a = 0; a < NV; a++)
		{
			long long	sum = (long long) (((unsigned long long) sums[(size_t) (2 * a + 1) * slots + s] << 32) |
										   sums[(size_t) 2 * a * slots + s]);

			if (sum != 0)
				gpugb_apply_value(global, GPUGB_AGG_SUM_INT, p.vals[a].value_col,
								  p.vals[a].hi_col, gid, (uint64_t) sum, sum < 0 ? -1 : 0);
		}
	}
}

#endif							/* GPUGB_LEAN_KERNEL_CUH */
