/*
 * launch.cu
 *    The only translation unit that instantiates kernels: grid sizing and
 *    checked launches of the aggregation, rehash, fill and remap kernels,
 *    and of ordered output's (CUB's sorts are instantiated where they are
 *    called).
 *
 * Grid rule: grid-stride loops with at most 8 blocks of 256 threads per SM
 * (full occupancy on sm_80/sm_90), fewer when there is less work, so a
 * launch never costs more than its rows need; and for kernels of more than
 * 32 registers a thread, no more blocks than the SM holds at once
 * (resident_blocks_per_sm says why).
 */
#include <mutex>
#include <type_traits>

#include "agg_kernels.cuh"
#include "groupby_internal.cuh"
#include "lean_fast_kernel.cuh"
#include "lean_deferred_kernel.cuh"
#include "lean_gid_kernel.cuh"
#include "lean_kernel.cuh"
#include "order_kernels.cuh"
#include "partition_kernels.cuh"
#include "partition_lean_kernel.cuh"
#include "private_kernel.cuh"
#include "rehash_kernel.cuh"
#include "shared_kernel.cuh"
#include "sort_kernels.cuh"

unsigned
gpugb_grid_for(int64_t work, int block)
{
	int64_t		blocks = (work + block - 1) / block;
	int64_t		cap = (int64_t) gpugb_sm_count() * (2048 / block);

	if (blocks > cap)
		blocks = cap;
	if (blocks < 1)
		blocks = 1;
	return (unsigned) blocks;
}

/*
 * Blocks of `block` threads taking `dynamic_smem` bytes that one SM holds
 * at once for `kernel`, its registers counted; 0 when CUDA cannot say (the
 * callers keep their own bound).  A grid-stride loop gives every block an
 * equal share of the rows, so a grid of more blocks than are resident runs
 * a last wave of few blocks a SM with the rest of the SM idle:
 * private_hash (40 registers, so 6 blocks of 256 an SM) was launched 8 an
 * SM, its last quarter of blocks a second wave at 2 an SM (Nsight Compute,
 * session 17: achieved occupancy 55 % of a theoretical 75 %).
 */
template <typename Kernel>
static int
resident_blocks_per_sm(Kernel kernel, int block, size_t dynamic_smem)
{
	int			blocks = 0;

	if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, dynamic_smem) !=
		cudaSuccess)
	{
		(void) cudaGetLastError();	/* not sticky: only this query failed */
		return 0;
	}
	return blocks;
}

/* gpugb_grid_for, and no more blocks than are resident at once (0: unknown). */
static unsigned
resident_grid_for(int64_t work, int block, int resident_per_sm)
{
	unsigned	blocks = gpugb_grid_for(work, block);
	int64_t		cap = (int64_t) gpugb_sm_count() * resident_per_sm;

	return resident_per_sm > 0 && blocks > cap ? (unsigned) cap : blocks;
}

/*
 * Persistent grids: at most `wanted` blocks of `block` threads, no more
 * than are resident at once when each block takes `smem_bytes` of shared
 * memory (and at most 2048 threads an SM, and resident_per_sm blocks an SM
 * where known: resident_blocks_per_sm), so every block stays for many rows
 * and flushes its block-local states once.
 */
static unsigned
persistent_grid(int64_t wanted, int64_t smem_bytes, int block, int resident_per_sm)
{
	GpugbDeviceProps props;
	int64_t		per_sm;
	int64_t		cap;

	gpugb_device_properties(&props);
	per_sm = props.shared_bytes_per_sm / (smem_bytes > 0 ? smem_bytes : 1);
	if (per_sm > 2048 / block)
		per_sm = 2048 / block;
	if (resident_per_sm > 0 && per_sm > resident_per_sm)
		per_sm = resident_per_sm;
	if (per_sm < 1)
		per_sm = 1;
	cap = (int64_t) gpugb_sm_count() * per_sm;
	return (unsigned) (wanted < cap ? (wanted > 0 ? wanted : 1) : cap);
}

GpugbStatus
gpugb_launch_agg(const GpugbAggParams &p, cudaStream_t stream)
{
	if (p.nrows <= 0)
		return GPUGB_OK;
	gpugb_agg_kernel<<<gpugb_grid_for(p.nrows, GPUGB_AGG_BLOCK), GPUGB_AGG_BLOCK, 0, stream>>>(p);
	return GPUGB_LAUNCHED("gpugb_agg_kernel");
}

GpugbStatus
gpugb_launch_sorted_agg(const GpugbAggParams &p, cudaStream_t stream)
{
	if (p.nrows <= 0)
		return GPUGB_OK;
	gpugb_sorted_agg_kernel<<<gpugb_grid_for(p.nrows, GPUGB_AGG_BLOCK), GPUGB_AGG_BLOCK, 0, stream>>>(p);
	return GPUGB_LAUNCHED("gpugb_sorted_agg_kernel");
}

/*
 * Lets `kernel` take up to the opt-in maximum of dynamic shared memory a
 * block (beyond 48 kB), once per process and kernel.
 */
template <typename Kernel>
static cudaError_t
opt_in_shared(Kernel kernel, std::once_flag &once, cudaError_t &error)
{
	std::call_once(once, [&]() {
		GpugbDeviceProps props;

		gpugb_device_properties(&props);
		if (props.shared_bytes_per_block_optin > props.shared_bytes_per_block)
			error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
										 (int) props.shared_bytes_per_block_optin);
	});
	return error;
}

/*
 * The shared memory of a lean table of n_sums sums and `slots` slots for
 * launch p, and the persistent grid of `kernel` (blocks of `block`
 * threads) with that much a block; `kernel` opted in to the most shared
 * memory a block may have, once.
 */
template <typename Kernel>
static cudaError_t
lean_grid(Kernel kernel, int block, std::once_flag &opted_in, cudaError_t &opt_in_error,
		  const GpugbAggParams &p, int n_sums, int slots, size_t *bytes, unsigned *blocks)
{
	*bytes = gpugb_lean_table_bytes(n_sums, gpugb_lean_count_columns(p), p.n_keys, slots);
	if (opt_in_shared(kernel, opted_in, opt_in_error) != cudaSuccess)
		return opt_in_error;
	*blocks = persistent_grid((p.nrows + block - 1) / block, (int64_t) *bytes + 1024, block,
							  resident_blocks_per_sm(kernel, block, *bytes));
	return cudaSuccess;
}

/*
 * One lean SHARED_HASH launch (lean_kernel.cuh) of NV sums, on its
 * persistent grid.  PARTIAL: the table is partial (gpugb_plan_lean_table),
 * so the instance that defers cold rows (gpugb_lean_defer); a whole table's
 * instance has no such code.
 */
template <int NV, bool NULLS, bool PARTIAL, int BLOCK = GPUGB_AGG_BLOCK>
static GpugbStatus
launch_lean_shared_nv(const GpugbAggParams &p, int slots, cudaStream_t stream)
{
	static std::once_flag opted_in;
	static cudaError_t opt_in_error = cudaSuccess;
	auto		kernel = gpugb_lean_shared_kernel<NV, NULLS, PARTIAL, BLOCK>;
	size_t		bytes;
	unsigned	blocks;

	if (lean_grid(kernel, BLOCK, opted_in, opt_in_error, p, NV, slots, &bytes, &blocks) != cudaSuccess)
		return GPUGB_CUDA(opt_in_error);
	kernel<<<blocks, BLOCK, bytes, stream>>>(p, slots);
	return GPUGB_LAUNCHED("gpugb_lean_shared_kernel");
}

/* The same for gpugb_lean_fast_kernel's whole tables (lean_fast_kernel.cuh, lean_fast_kernel_applies). */
template <int NV, int BLOCK>
static GpugbStatus
launch_lean_fast_nv(const GpugbAggParams &p, int slots, cudaStream_t stream)
{
	static std::once_flag opted_in;
	static cudaError_t opt_in_error = cudaSuccess;
	auto		kernel = gpugb_lean_fast_kernel<NV, BLOCK>;
	size_t		bytes;
	unsigned	blocks;

	if (lean_grid(kernel, BLOCK, opted_in, opt_in_error, p, NV, slots, &bytes, &blocks) != cudaSuccess)
		return GPUGB_CUDA(opt_in_error);
	kernel<<<blocks, BLOCK, bytes, stream>>>(p, slots);
	return GPUGB_LAUNCHED("gpugb_lean_fast_kernel");
}

/*
 * Whether a whole lean table of launch p takes gpugb_lean_fast_kernel in
 * blocks of 256 threads (where fast_wide_slots does not give it one block
 * of 1024): one key looked up by its word, no NULL input, and at most one
 * sum (or any number under the experiment spec.lean_fast_key).  H200, 2^28 rows, forced
 * SHARED_HASH, 2^2-2^12 groups, 4- and 8-byte keys, uniform and Zipf 1.0,
 * two rounds (session 30, call 2): one payload 1.26-1.55x faster than
 * gpugb_lean_shared_kernel (Nsight Compute at 2^8: 157 warp instructions
 * per 32 rows against 269); four payloads 0.69-0.98x at 2^2-2^10, 1.10-
 * 1.18x at 2^12 (its four-sum instance spills).  Two and three sums were
 * not measured.
 */
#define GPUGB_LEAN_FAST_PLANNED_SUMS 1

static bool
lean_fast_kernel_applies(const GpugbAggParams &p)
{
	return gpugb_lean_word_key(p) && !gpugb_lean_has_nulls(p) &&
		(p.n_values <= GPUGB_LEAN_FAST_PLANNED_SUMS || p.lean_fast_key != 0);
}

/* Its launch for a whole table in blocks of GPUGB_AGG_BLOCK threads. */
static GpugbStatus
launch_lean_fast(const GpugbAggParams &p, int slots, cudaStream_t stream)
{
	return gpugb_for_lean_sums(p.n_values, [&](auto nv) {
		return launch_lean_fast_nv<decltype(nv)::value, GPUGB_AGG_BLOCK>(p, slots, stream);
	});
}

/*
 * A partial table's instance runs in blocks of GPUGB_LEAN_PARTIAL_THREADS
 * (512).  A partial table is planned for two blocks an SM (gpugb_plan_lean_table, 8
 * bytes a count), and a warp waits on the global table's lookups of its
 * deferred rows: 512-thread blocks run 32 warps an SM (the registers: 64 a
 * thread, what the instance takes), where 256-thread blocks ran 16-24.
 * H200, 2^28 rows, 4-byte keys, 2^12-2^20 groups, forced SHARED_HASH
 * (kernel benchmark, session 28, call 1, two rounds): 1.19-1.37x faster
 * with one payload, 1.16-1.73x with four, uniform to Zipf 1.5; 1.02-1.55x
 * at 2^24.  (Without NULL inputs a partial table now runs in one block an
 * SM, one_block_partial_slots; this instance serves launches with NULL
 * inputs and the lean probes.)
 *
 * The instance for the launch's NULLs (gpugb_lean_has_nulls) and table.
 */
template <int NV>
static GpugbStatus
launch_lean_shared_nulls(const GpugbAggParams &p, int slots, bool partial, cudaStream_t stream)
{
	if (gpugb_lean_has_nulls(p))
		return partial ? launch_lean_shared_nv<NV, true, true, GPUGB_LEAN_PARTIAL_THREADS>(p, slots, stream) :
			launch_lean_shared_nv<NV, true, false>(p, slots, stream);
	return partial ? launch_lean_shared_nv<NV, false, true, GPUGB_LEAN_PARTIAL_THREADS>(p, slots, stream) :
		launch_lean_shared_nv<NV, false, false>(p, slots, stream);
}

/* The lean kernel's instance for the launch's number of sums (gpugb_lean_launch_ok holds). */
static GpugbStatus
launch_lean_shared(const GpugbAggParams &p, int slots, bool partial, cudaStream_t stream)
{
	return gpugb_for_lean_sums(p.n_values, [&](auto nv) {
		return launch_lean_shared_nulls<decltype(nv)::value>(p, slots, partial, stream);
	});
}

/*
 * The one-block lean table's slots for launch p (heuristics.c,
 * gpugb_lean_one_block_slots, which auto plans with), or 0: it also needs
 * a launch without NULL inputs, whose one count column is what the
 * heuristics sized.
 */
static int64_t
lean_one_block_slots(const GpugbAggParams &p, double groups_expected, const GpugbDeviceProps *props)
{
	if (!gpugb_lean_launch_ok(p) || gpugb_lean_has_nulls(p))
		return 0;
	return gpugb_lean_one_block_slots(p.n_values, p.n_keys, groups_expected, props);
}

/*
 * Whether launch p's whole lean table (plan) runs better as the one-block
 * table: where fewer than four of its 256-thread blocks fit an SM (fewer
 * than 32 warps), which one block of 1024 threads has.  H200, 2^28 rows,
 * one payload, forced SHARED_HASH (session 28, call 2, two rounds): 2^10
 * groups (a whole table of 2048 slots, 57 kB: three blocks an SM) 1.31-
 * 1.40x faster in one block of 2048 slots; 2^8 (1024 slots, 28.7 kB: five
 * blocks) 1.08-1.6x slower in one block (of 512 slots); 2^2-2^6 even.
 */
static bool
whole_table_wants_one_block(const GpugbAggParams &p, const GpugbSharedTablePlan &plan,
							const GpugbDeviceProps *props)
{
	int64_t		bytes = (int64_t) gpugb_lean_table_bytes(p.n_values, gpugb_lean_count_columns(p),
														  p.n_keys, plan.slots);

	return p.n_keys > 0 && 4 * (bytes + 1024) > props->shared_bytes_per_sm;
}

/*
 * Whether launch p's one-block lean table runs gpugb_lean_fast_kernel: one
 * key looked up by its word and no NULL input, with any number of sums
 * (the 1024-thread instances have registers for four: 64, no spills).
 */
static bool
lean_fast_one_block_applies(const GpugbAggParams &p)
{
	return gpugb_lean_word_key(p) && !gpugb_lean_has_nulls(p);
}

/*
 * The slots of the fast kernel's wide table for launch p (its whole table
 * in one 1024-thread block an SM, with the most slots that block holds),
 * or 0: for two to four sums at any number of groups, for one sum or
 * counts only from GPUGB_LEAN_FAST_WIDE_MIN_GROUPS groups expected
 * (gpugb_lean_fast_wide_pays says why), at any number under the experiment
 * spec.lean_fast_wide.  0 where it does not apply, so that the caller's
 * other one-block rule still decides.
 */
static int64_t
fast_wide_slots(const GpugbAggParams &p, double groups_expected, const GpugbDeviceProps *props)
{
	if (!lean_fast_one_block_applies(p))
		return 0;
	if (p.lean_fast_wide == 0 && !gpugb_lean_fast_wide_pays(p.n_values, groups_expected))
		return 0;
	return gpugb_lean_one_block_max_slots(p.n_values, p.n_keys, props);
}

/*
 * The chunk rows of the one-block table with ids looked up at the flush
 * (lean_deferred_kernel.cuh, the experiment spec.lean_deferred) for launch
 * p, `slots` slots and groups_expected groups, or 0 where the fast
 * kernel's table runs.  It takes one key word without NULLs in keyed or
 * pair slots (gpugb_find_or_insert_word's), no NULL input, at most
 * GPUGB_LEAN_DEFERRED_MAX_SUMS sums, of inputs declared int32
 * (p.lean_deferred), from GPUGB_LEAN_DEFERRED_MIN_GROUPS
 * groups expected, and only where a block's table holds them all between
 * its checks of room (gpugb_lean_deferred_chunk_rows).
 */
static int
lean_deferred_chunk_rows(const GpugbAggParams &p, int64_t slots, double groups_expected)
{
	if (p.lean_deferred == 0 || !lean_fast_one_block_applies(p) || p.n_keys != 1 ||
		p.n_values > GPUGB_LEAN_DEFERRED_MAX_SUMS || groups_expected < GPUGB_LEAN_DEFERRED_MIN_GROUPS ||
		(p.slot_format != GPUGB_SLOTS_KEYED32 && p.slot_format != GPUGB_SLOTS_PAIR))
		return 0;
	return gpugb_lean_deferred_chunk_rows((int) slots, groups_expected);
}

/* Its launch, NV sums, a key of KW words (lean_deferred_chunk_rows is above 0). */
template <int NV, int KW>
static GpugbStatus
launch_lean_deferred_nv(const GpugbAggParams &p, int slots, int chunk_rows, cudaStream_t stream)
{
	static std::once_flag opted_in;
	static cudaError_t opt_in_error = cudaSuccess;
	auto		kernel = gpugb_lean_deferred_kernel<NV, KW>;
	size_t		bytes;
	unsigned	blocks;

	if (lean_grid(kernel, GPUGB_LEAN_ONE_BLOCK_THREADS, opted_in, opt_in_error, p, NV, slots, &bytes,
				  &blocks) != cudaSuccess)
		return GPUGB_CUDA(opt_in_error);
	kernel<<<blocks, GPUGB_LEAN_ONE_BLOCK_THREADS, bytes, stream>>>(p, slots, chunk_rows);
	return GPUGB_LAUNCHED("gpugb_lean_deferred_kernel");
}

/* The one-block table's launch (lean_one_block_slots or fast_wide_slots applies: one key, no NULLs). */
static GpugbStatus
launch_lean_one_block(const GpugbAggParams &p, int slots, cudaStream_t stream)
{
	if (lean_fast_one_block_applies(p))
		return gpugb_for_lean_sums(p.n_values, [&](auto nv) {
			return launch_lean_fast_nv<decltype(nv)::value, GPUGB_LEAN_ONE_BLOCK_THREADS>(p, slots, stream);
		});
	if (p.n_values == 0)
		return launch_lean_shared_nv<0, false, false, GPUGB_LEAN_ONE_BLOCK_THREADS>(p, slots, stream);
	if (p.n_values == 1)
		return launch_lean_shared_nv<1, false, false, GPUGB_LEAN_ONE_BLOCK_THREADS>(p, slots, stream);
	return GPUGB_INVALID_ARGUMENT;	/* unreachable: gpugb_lean_one_block_slots plans at most one sum */
}

/*
 * The slots of the largest partial lean table one 1024-thread block an SM
 * holds for launch p, by exact bytes, or 0 (NULL inputs: no such
 * instance).  Two 512-thread blocks an SM keep 2048 slots each (2^12
 * groups of four payloads: a quarter of the keys a block); one block keeps
 * 2^13 slots with one sum, 2^12 with four, so it holds more hot keys and
 * defers fewer rows.  H200, 2^28 rows, forced SHARED_HASH, 2^12-2^20
 * groups (kernel benchmark, session 29, call 1, two rounds, against two
 * 512-thread blocks): four payloads 1.27-1.36x faster at 2^12 (uniform to
 * Zipf 1.0), 1.01-1.13x at 2^16-2^20; one payload 1.06-1.27x at Zipf 1.0
 * and 1.5 from 2^16; 0.93-0.98x (slower) with one payload, uniform and
 * Zipf 0.5, at 2^20, where auto takes GLOBAL_HASH
 * (gpugb_lean_partial_pays).
 */
static int64_t
one_block_partial_slots(const GpugbAggParams &p, const GpugbDeviceProps *props)
{
	if (!gpugb_lean_launch_ok(p) || gpugb_lean_has_nulls(p) || p.n_keys == 0)
		return 0;
	return gpugb_lean_one_block_max_slots(p.n_values, p.n_keys, props);
}

/* Its launch (one_block_partial_slots is above 0: no NULL input). */
static GpugbStatus
launch_lean_one_block_partial(const GpugbAggParams &p, int slots, cudaStream_t stream)
{
	return gpugb_for_lean_sums(p.n_values, [&](auto nv) {
		return launch_lean_shared_nv<decltype(nv)::value, false, true, GPUGB_LEAN_ONE_BLOCK_THREADS>(p, slots,
																									stream);
	});
}

/*
 * Whether launch p's rows are looked up by their key word loaded a step
 * ahead (lean_gid_kernel.cuh, gpugb_lean_gid_rows_ahead): one key word
 * without NULLs in keyed or pair slots, and one sum (four ran 0.89-0.98x
 * so, session 54 call 1).
 */
static bool
lean_gid_by_word(const GpugbAggParams &p)
{
	return p.n_values == 1 && gpugb_lean_word_key(p) &&
		(p.slot_format == GPUGB_SLOTS_PAIR || p.slot_format == GPUGB_SLOTS_KEYED32);
}

/*
 * The slots of gpugb_lean_gid_kernel's table for launch p, whose groups no
 * keyed lean table holds, or which takes it first (the callers' tests):
 * where gpugb_lean_gid_pays (src/heuristics.c) and the launch has no NULL
 * input, as many group ids as the table of its sums holds, or the table's
 * ids if fewer, or fewer still that leave L1 room for the rows
 * (gpugb_lean_gid_launch_slots); 0 where it does not apply.  Group ids
 * past the slots (more groups than expected) take the generic update in
 * the kernel.
 */
static int64_t
lean_gid_slots(const GpugbAggParams &p, double groups_expected, double hot_share,
			   const GpugbDeviceProps *props)
{
	if (p.lean_gid_off || p.n_keys == 0 || gpugb_lean_has_nulls(p) ||
		!gpugb_lean_gid_pays(p.n_values, lean_gid_by_word(p), groups_expected, hot_share, props))
		return 0;

	int64_t		cap = gpugb_lean_gid_max_groups(p.n_values, props);

	return gpugb_lean_gid_launch_slots(p.n_values, groups_expected, p.max_groups < cap ? p.max_groups : cap,
									   props);
}

/*
 * Launches a kernel of the group-id table (args...) over nrows rows: one
 * block of GPUGB_LEAN_ONE_BLOCK_THREADS an SM, persistent, with `bytes` of
 * shared memory, opted in once an instance (opted_in, opt_in_error).
 */
template <typename Kernel, typename... Args>
static GpugbStatus
launch_gid_block_kernel(Kernel kernel, std::once_flag &opted_in, cudaError_t &opt_in_error, int64_t nrows,
						size_t bytes, cudaStream_t stream, const char *name, Args... args)
{
	if (opt_in_shared(kernel, opted_in, opt_in_error) != cudaSuccess)
		return GPUGB_CUDA(opt_in_error);

	unsigned	blocks = persistent_grid((nrows + GPUGB_LEAN_ONE_BLOCK_THREADS - 1) / GPUGB_LEAN_ONE_BLOCK_THREADS,
										 (int64_t) bytes + 1024, GPUGB_LEAN_ONE_BLOCK_THREADS,
										 resident_blocks_per_sm(kernel, GPUGB_LEAN_ONE_BLOCK_THREADS, bytes));

	kernel<<<blocks, GPUGB_LEAN_ONE_BLOCK_THREADS, bytes, stream>>>(args...);
	return gpugb_check(cudaGetLastError(), name, __FILE__, __LINE__);
}

/* The table's launch; WORD: the kernel's instance. */
template <int NV, int WORD>
static GpugbStatus
launch_lean_gid_word(const GpugbAggParams &p, int slots, cudaStream_t stream)
{
	static std::once_flag opted_in;	/* one a kernel instance */
	static cudaError_t opt_in_error = cudaSuccess;

	return launch_gid_block_kernel(gpugb_lean_gid_kernel<NV, WORD>, opted_in, opt_in_error, p.nrows,
								   gpugb_lean_gid_table_bytes(NV, slots), stream, "launch gpugb_lean_gid_kernel",
								   p, slots);
}

/* *by_word: whether it took a word instance (the self-test checks where it must). */
template <int NV>
static GpugbStatus
launch_lean_gid_nv(const GpugbAggParams &p, int slots, cudaStream_t stream, bool *by_word)
{
	*by_word = NV == 1 && lean_gid_by_word(p);
	if constexpr (NV == 1)
	{
		if (*by_word && p.slot_format == GPUGB_SLOTS_PAIR)
			return launch_lean_gid_word<NV, GPUGB_SLOTS_PAIR>(p, slots, stream);
		if (*by_word)
			return launch_lean_gid_word<NV, GPUGB_SLOTS_KEYED32>(p, slots, stream);
	}
	return launch_lean_gid_word<NV, 0>(p, slots, stream);
}

/* The table indexed by group id, `slots` of them, for launch p; *ran says what ran. */
static GpugbStatus
launch_lean_gid(const GpugbAggParams &p, int64_t slots, cudaStream_t stream, GpugbLeanLaunch *ran)
{
	ran->lean = ran->gid = true;
	ran->fast_key = false;	/* it looks rows up in the global table, never by the cache's word */
	return gpugb_for_lean_sums(p.n_values, [&](auto nv) {
		return launch_lean_gid_nv<decltype(nv)::value>(p, (int) slots, stream, &ran->gid_word);
	});
}

/*
 * The group-id table for launch p taken once a sum (and group range:
 * gpugb_lean_gid_split_ranges, src/heuristics.c): one key word looked up,
 * ids that fit the column's int32.  Returns the ranges (0: none), with the
 * slots of each range's table in *slots: at most twice a range's share of
 * the groups expected (gpugb_lean_gid_launch_slots), so that the ranges
 * cover the groups expected.
 */
static int
lean_gid_split_plan(const GpugbAggParams &p, double groups_expected, double hot_share,
					const GpugbDeviceProps *props, int64_t *slots)
{
	bool		word = gpugb_lean_word_key(p) &&
		(p.slot_format == GPUGB_SLOTS_PAIR || p.slot_format == GPUGB_SLOTS_KEYED32);
	int			ranges;

	*slots = 0;
	if (p.lean_gid_off || p.n_keys == 0 || gpugb_lean_has_nulls(p) || !word ||
		p.max_groups > INT32_MAX)
		return 0;
	ranges = gpugb_lean_gid_split_ranges(p.n_values, true, groups_expected, hot_share, props);
	if (ranges <= 0)
		return 0;

	int64_t		cap = gpugb_lean_gid_max_groups(1, props);

	*slots = gpugb_lean_gid_launch_slots(1, groups_expected / ranges, p.max_groups < cap ? p.max_groups : cap,
										 props);
	return *slots > 0 ? ranges : 0;
}

bool
gpugb_lean_gid_split_wanted(const GpugbAggParams &p, double groups_expected, double hot_share)
{
	GpugbDeviceProps props;
	int64_t		slots;

	if (p.nrows <= 0 || !gpugb_lean_launch_ok(p))
		return false;
	gpugb_device_properties(&props);
	return lean_gid_split_plan(p, groups_expected, hot_share, &props, &slots) > 0;
}

/*
 * The split for launch p, `ranges` group ranges of `slots` ids: the counts
 * and sum 0 of the first range looked up by key word, each row's id
 * written to gids (nrows of them); then the counts and sum 0 of each later
 * range, and each later sum over every range, from that column, on the
 * same stream.  The last range is open: it also adds the ids past it.
 * *ran says what ran.
 */
static GpugbStatus
launch_lean_gid_split(const GpugbAggParams &p, int64_t slots, int ranges, int32_t *gids, cudaStream_t stream,
					  GpugbLeanLaunch *ran)
{
	static std::once_flag first_opted[4], count_opted, sum_opted[2];
	static cudaError_t first_error[4], count_error, sum_error[2];
	GpugbAggParams first = p;
	bool		pair = p.slot_format == GPUGB_SLOTS_PAIR;
	bool		ranged = ranges > 1;
	size_t		table_bytes = gpugb_lean_gid_table_bytes(1, slots);
	int			k = 2 * pair + ranged;	/* the first launch's instance */

	first.n_values = 1;		/* the counts and sum 0: its generic update too */
	ran->lean = ran->gid = ran->gid_word = ran->gid_split = true;
	ran->gid_ranges = ranged;
	ran->fast_key = false;
	GPUGB_TRY(launch_gid_block_kernel(pair ? (ranged ? gpugb_lean_gid_split_first_kernel<GPUGB_SLOTS_PAIR, true> :
											  gpugb_lean_gid_split_first_kernel<GPUGB_SLOTS_PAIR, false>) :
									  (ranged ? gpugb_lean_gid_split_first_kernel<GPUGB_SLOTS_KEYED32, true> :
									   gpugb_lean_gid_split_first_kernel<GPUGB_SLOTS_KEYED32, false>),
									  first_opted[k], first_error[k], p.nrows, table_bytes, stream,
									  "launch gpugb_lean_gid_split_first_kernel", first, (int) slots, gids));
	for (int r = 1; r < ranges; r++)
		GPUGB_TRY(launch_gid_block_kernel(gpugb_lean_gid_range_count_kernel<GPUGB_GID_SUM_ROWS>, count_opted,
										  count_error, p.nrows, table_bytes, stream,
										  "launch gpugb_lean_gid_range_count_kernel", first, (int) slots,
										  (const int32_t *) gids, GpugbGidRange{r * slots, r == ranges - 1}));
	for (int a = 1; a < p.n_values; a++)
		for (int r = 0; r < ranges; r++)
			GPUGB_TRY(launch_gid_block_kernel(ranged ? gpugb_lean_gid_sum_kernel<GPUGB_GID_SUM_ROWS, true> :
											  gpugb_lean_gid_sum_kernel<GPUGB_GID_SUM_ROWS, false>,
											  sum_opted[ranged], sum_error[ranged], p.nrows, (size_t) 8 * slots,
											  stream, "launch gpugb_lean_gid_sum_kernel", p, a, (int) slots,
											  (const int32_t *) gids, GpugbGidRange{r * slots, r == ranges - 1}));
	return GPUGB_OK;
}

/* Whether launch p may take the lean kernel, and its table for groups_expected groups. */
static bool
plan_lean(const GpugbAggParams &p, double groups_expected, const GpugbDeviceProps *props,
		  GpugbSharedTablePlan *plan)
{
	/* 8 bytes a sum and 4 a count column (rows, each input with NULLs) a slot */
	return gpugb_lean_launch_ok(p) &&
		gpugb_plan_lean_table(p.n_values + (gpugb_lean_count_columns(p) + 1) / 2, p.n_keys,
							  groups_expected, props, plan);
}

/*
 * Whether launch p takes its partial lean table (gpugb_lean_partial_pays),
 * judged by the slots auto plans with (heuristics.c: a count column, none
 * for NULLs), so that a launch whose inputs have NULLs, and whose table is
 * smaller, still runs the partial table auto chose SHARED_HASH for rather
 * than the generic kernel.
 */
static bool
partial_table_pays(const GpugbAggParams &p, double groups_expected, double hot_share,
				   const GpugbDeviceProps *props)
{
	GpugbSharedTablePlan planned;

	(void) gpugb_plan_lean_table(p.n_values + 1, p.n_keys, groups_expected, props, &planned);
	return gpugb_lean_partial_pays(hot_share, groups_expected, planned.slots);
}

/*
 * SHARED_HASH: one block table per block.  Blocks are persistent (as many as
 * fit at once), so each flushes its table once for many rows.  Whether the
 * table is keyed by the key (shared_kernel.cuh) and its size are
 * gpugb_plan_shared_table's (heuristics.c); a keyed table can pass 48 kB:
 * the kernel opts in.  *ran: which lean instance the launch took, if any
 * (left all false when the launch has no rows).  A lean table too big for
 * two blocks an SM takes one block an SM where that fits
 * (lean_one_block_slots), whatever the skew: at Zipf 1.5 it took 2.5 ms
 * where the partial table took 4.4 (session 28); so does a whole table of
 * which fewer than four blocks fit an SM (whole_table_wants_one_block).
 * A partial table without NULL inputs runs in one block an SM too, with
 * the slots that fit it (one_block_partial_slots); auto still judges it by
 * the two-block plan's slots (partial_table_pays), as it was measured.
 */
GpugbStatus
gpugb_launch_shared(const GpugbAggParams &p, int64_t slots, int state_columns,
					double groups_expected, double hot_share, cudaStream_t stream,
					GpugbLeanLaunch *ran, int32_t *gid_column)
{
	static std::once_flag opted_in;
	static cudaError_t opt_in_error = cudaSuccess;
	GpugbDeviceProps props;
	GpugbSharedTablePlan plan;

	if (p.nrows <= 0)
		return GPUGB_OK;
	if (opt_in_shared(gpugb_shared_agg_kernel, opted_in, opt_in_error) != cudaSuccess)
		return GPUGB_CUDA(opt_in_error);
	gpugb_device_properties(&props);
	ran->fast_key = gpugb_lean_fast_key(p);	/* counted only where a lean instance runs */

	bool		lean = plan_lean(p, groups_expected, &props, &plan);
	int64_t		one_block_slots = 0;

	/*
	 * One sum looked up by key word from 2048 groups, no group of 5 % of the
	 * rows: the table indexed by group id before the keyed tables
	 * (gpugb_lean_gid_first, src/heuristics.c), where the handle's plan
	 * chose it (p.lean_gid_first: its L2-sized global table, every sum
	 * declared int32, no NULLs expected), with at most twice the groups
	 * expected of its slots (gpugb_lean_gid_launch_slots), as measured
	 * (session 54 call 5).
	 */
	if (lean && p.lean_gid_first != 0 &&
		gpugb_lean_gid_first(p.n_values, lean_gid_by_word(p), groups_expected, hot_share, &props))
	{
		int64_t		gid_slots = lean_gid_slots(p, groups_expected, hot_share, &props);

		if (gid_slots > 0)
			return launch_lean_gid(p, gid_slots, stream, ran);
	}

	if (lean && plan.partial)
		one_block_slots = lean_one_block_slots(p, groups_expected, &props);
	else if (lean)
	{
		one_block_slots = fast_wide_slots(p, groups_expected, &props);
		if (one_block_slots == 0 && whole_table_wants_one_block(p, plan, &props))
			/* the whole table's own slots: its room for more groups than expected stays */
			one_block_slots = lean_one_block_slots(p, (double) plan.slots / 2, &props);
	}
	if (one_block_slots > 0)
	{
		int			chunk_rows = lean_deferred_chunk_rows(p, one_block_slots, groups_expected);

		ran->lean = ran->one_block = true;
		if (chunk_rows > 0)
		{
			ran->deferred = true;
			return gpugb_for_lean_sums(p.n_values, [&](auto nv) {
				constexpr int NV = decltype(nv)::value;

				if constexpr (NV <= GPUGB_LEAN_DEFERRED_MAX_SUMS)
					return p.slot_format == GPUGB_SLOTS_PAIR ?
						launch_lean_deferred_nv<NV, 2>(p, (int) one_block_slots, chunk_rows, stream) :
						launch_lean_deferred_nv<NV, 1>(p, (int) one_block_slots, chunk_rows, stream);
				else
					return GPUGB_INVALID_ARGUMENT;	/* lean_deferred_chunk_rows takes none */
			});
		}
		ran->fast_kernel = lean_fast_one_block_applies(p);
		return launch_lean_one_block(p, (int) one_block_slots, stream);
	}
	/* Too many groups for a keyed table (one block's, of all of them): one indexed by group id? */
	int64_t		gid_slots = lean && plan.partial ? lean_gid_slots(p, groups_expected, hot_share, &props) : 0;

	if (gid_slots > 0)
		return launch_lean_gid(p, gid_slots, stream, ran);

	/* ...or that table once a sum and group range (the caller's column of p.nrows ids: gpugb_lean_gid_split_ranges) */
	int64_t		split_slots = 0;
	int			split_ranges = lean && plan.partial && gid_column != nullptr ?
		lean_gid_split_plan(p, groups_expected, hot_share, &props, &split_slots) : 0;

	if (split_ranges > 0)
		return launch_lean_gid_split(p, split_slots, split_ranges, gid_column, stream, ran);
	if (lean && (!plan.partial || partial_table_pays(p, groups_expected, hot_share, &props)))
	{
		int64_t		wide_slots = plan.partial ? one_block_partial_slots(p, &props) : 0;

		if (wide_slots > plan.slots)
		{
			ran->lean = ran->partial = ran->one_block_partial = true;
			return launch_lean_one_block_partial(p, (int) wide_slots, stream);
		}
		ran->lean = true;
		ran->partial = plan.partial;
		if (!plan.partial && lean_fast_kernel_applies(p))
		{
			ran->fast_kernel = true;
			return launch_lean_fast(p, (int) plan.slots, stream);
		}
		return launch_lean_shared(p, (int) plan.slots, plan.partial, stream);
	}
	gpugb_plan_shared_table(slots, state_columns, p.n_keys, groups_expected, hot_share, &props,
							&plan);

	unsigned	blocks = persistent_grid((p.nrows + GPUGB_AGG_BLOCK - 1) / GPUGB_AGG_BLOCK,
										 plan.bytes + 1024, GPUGB_AGG_BLOCK,
										 resident_blocks_per_sm(gpugb_shared_agg_kernel,
																GPUGB_AGG_BLOCK,
																(size_t) plan.bytes));

	gpugb_shared_agg_kernel<<<blocks, GPUGB_AGG_BLOCK, (size_t) plan.bytes, stream>>>(
		p, (int) plan.slots, plan.keyed);
	return GPUGB_LAUNCHED("gpugb_shared_agg_kernel");
}

/*
 * A probe launch with the lean kernel's partial table (groupby.cu,
 * probes_with_lean), for groups_expected groups: ran->lean is false, and
 * nothing is queued, when the launch's aggregates or keys do not suit the
 * lean kernel or its table would hold every group (no probe needed: a whole
 * table is SHARED_HASH's plan already).
 */
GpugbStatus
gpugb_launch_lean_probe(const GpugbAggParams &p, double groups_expected, cudaStream_t stream,
						GpugbLeanLaunch *ran)
{
	GpugbDeviceProps props;
	GpugbSharedTablePlan plan;

	if (p.nrows <= 0)
		return GPUGB_OK;
	gpugb_device_properties(&props);
	if (!plan_lean(p, groups_expected, &props, &plan) || !plan.partial)
		return GPUGB_OK;
	ran->lean = ran->partial = true;
	ran->fast_key = gpugb_lean_fast_key(p);
	return launch_lean_shared(p, (int) plan.slots, true, stream);
}

/* One private_hash launch of the kernel that preloads `preload` inputs, on its persistent grid. */
template <int preload>
static void
launch_private_kernel(const GpugbAggParams &p, int groups, int state_columns, int cache_slots,
					  size_t bytes, cudaStream_t stream)
{
	/* 1 kB: the shared memory the system keeps in every block */
	unsigned	blocks = persistent_grid((p.nrows + GPUGB_PRIVATE_THREADS - 1) / GPUGB_PRIVATE_THREADS,
										 (int64_t) bytes + 1024, GPUGB_PRIVATE_THREADS,
										 resident_blocks_per_sm(gpugb_private_agg_kernel<preload>,
																GPUGB_PRIVATE_THREADS, bytes));

	gpugb_private_agg_kernel<preload><<<blocks, GPUGB_PRIVATE_THREADS, bytes, stream>>>(
		p, groups, state_columns, cache_slots);
}

/*
 * PRIVATE_HASH: persistent blocks (as many as fit at once), so each thread
 * flushes its private states once for many rows.  Slices beyond 48 kB a
 * block need the kernel's opt-in.  A key cache (gpugb_private_cache_slots)
 * follows the slices where the keys fit one.  Launches of several value
 * aggregates preload their inputs (private_kernel.cuh).
 */
GpugbStatus
gpugb_launch_private(const GpugbAggParams &p, int64_t groups, int state_columns,
					 cudaStream_t stream)
{
	static std::once_flag opted_in;
	static cudaError_t opt_in_error = cudaSuccess;
	static std::once_flag opted_in_preload;
	static cudaError_t opt_in_preload_error = cudaSuccess;

	if (p.nrows <= 0)
		return GPUGB_OK;
	if (opt_in_shared(gpugb_private_agg_kernel<0>, opted_in, opt_in_error) != cudaSuccess)
		return GPUGB_CUDA(opt_in_error);
	if (opt_in_shared(gpugb_private_agg_kernel<GPUGB_PRELOAD>, opted_in_preload,
					  opt_in_preload_error) != cudaSuccess)
		return GPUGB_CUDA(opt_in_preload_error);

	int			cache_slots = gpugb_key_cache_usable(p.n_keys) ?
		(int) gpugb_private_cache_slots(groups) : 0;
	size_t		bytes = (size_t) GPUGB_PRIVATE_TABLE_BYTES(state_columns, groups);

	if (cache_slots > 0)
		bytes += gpugb_key_cache_bytes(p.n_keys, cache_slots);

	if (p.n_values >= 2)
		launch_private_kernel<GPUGB_PRELOAD>(p, (int) groups, state_columns, cache_slots, bytes,
											 stream);
	else
		launch_private_kernel<0>(p, (int) groups, state_columns, cache_slots, bytes, stream);
	return GPUGB_LAUNCHED("gpugb_private_agg_kernel");
}

GpugbStatus
gpugb_launch_partition_keys(const GpugbAggParams &p, uint32_t *part_keys, uint32_t *perm,
							int shift, cudaStream_t stream)
{
	gpugb_partition_key_kernel<<<gpugb_grid_for(p.nrows, 256), 256, 0, stream>>>(p, part_keys, perm,
																		   shift);
	return GPUGB_LAUNCHED("gpugb_partition_key_kernel");
}

/*
 * The partition boundaries of a launch's sorted partition numbers, and its
 * tiles: about a partition's mean rows, at most max_tile_rows, at least
 * min_tile_rows (a block's worth, or more); a partition is cut only where
 * it has more than two tiles' rows.
 */
static GpugbStatus
launch_partition_bounds(const GpugbAggParams &p, const void *sorted_parts, int sorted_part_bytes, uint32_t *bounds,
						int64_t n_parts, int64_t min_tile_rows, int64_t max_tile_rows, cudaStream_t stream,
						int64_t *tile_rows, int64_t *split_rows)
{
	int64_t		mean_rows = (p.nrows + n_parts - 1) / n_parts;

	if (mean_rows > max_tile_rows)
		mean_rows = max_tile_rows;
	*tile_rows = mean_rows > min_tile_rows ? mean_rows : min_tile_rows;
	*split_rows = 2 * *tile_rows;
	/* No sorted partitions: the bounds are there already (partition_scatter.cuh wrote them). */
	if (sorted_parts == nullptr)
		return GPUGB_OK;
	/*
	 * Hashed rows: the sorted hashes come first, and a row's partition is
	 * its home slot's top bits, (hash & slot_mask) >> (table bits - bits).
	 */
	if (sorted_part_bytes == GPUGB_SORTED_PARTS_HASHED)
	{
		int			bits = 0,
					table_bits = 0;

		while ((1ll << bits) < n_parts)
			bits++;
		while (table_bits < 63 && (1ull << table_bits) <= (unsigned long long) p.slot_mask)
			table_bits++;
		gpugb_partition_hash_bounds_kernel<<<gpugb_grid_for(n_parts + 1, 256), 256, 0, stream>>>(
			(const unsigned long long *) sorted_parts, p.nrows, table_bits - bits, (unsigned long long) n_parts - 1,
			bounds, n_parts);
		return GPUGB_LAUNCHED("gpugb_partition_hash_bounds_kernel");
	}
#if GPUGB_PARTITION_MIXED_KEYS
	/*
	 * Mixed rows: the sorted words themselves, whose top bits are the
	 * partition (partition_move.cu); gathered rows: their sorted mixed keys.
	 */
	if (sorted_part_bytes == 8 || sorted_part_bytes == GPUGB_SORTED_PARTS_MIXED32)
	{
		int			bits = 0;

		while ((1ll << bits) < n_parts)
			bits++;
		if (sorted_part_bytes == 8)
			gpugb_partition_word_bounds_kernel<<<gpugb_grid_for(n_parts + 1, 256), 256, 0, stream>>>(
				(const unsigned long long *) sorted_parts, p.nrows, 64 - bits, bounds, n_parts);
		else
			gpugb_partition_word_bounds_kernel<<<gpugb_grid_for(n_parts + 1, 256), 256, 0, stream>>>(
				(const uint32_t *) sorted_parts, p.nrows, 32 - bits, bounds, n_parts);
		return GPUGB_LAUNCHED("gpugb_partition_word_bounds_kernel");
	}
#endif
	if (sorted_part_bytes == 2)
		gpugb_partition_bounds_kernel<<<gpugb_grid_for(n_parts + 1, 256), 256, 0, stream>>>(
			(const uint16_t *) sorted_parts, p.nrows, bounds, n_parts);
	else
		gpugb_partition_bounds_kernel<<<gpugb_grid_for(n_parts + 1, 256), 256, 0, stream>>>(
			(const uint32_t *) sorted_parts, p.nrows, bounds, n_parts);
	return GPUGB_LAUNCHED("gpugb_partition_bounds_kernel");
}

/*
 * PARTITION: boundaries of the sorted partitions, then as many blocks as
 * fit at once, each with PARTITION's key table in shared memory, over tiles
 * of about a partition's mean rows (at least a block's worth), grid-stride
 * (partition_kernels.cuh).  A tile keeps its partitions whole unless one
 * has more than two tiles' rows: only a hot key's partition is cut between
 * blocks, since every cut looks the partition's keys up once more.  Tiles
 * the size of a partition, taken in order, keep the blocks at any moment
 * on neighbouring partitions, so on neighbouring slices of the global
 * table, which stay in L2: tiles of an equal share of the launch each (one
 * a block) spread the blocks over the whole table and were 1.2-1.7 times
 * slower at 2^18-2^22 groups (kernel benchmark, H200, session 22).
 */
GpugbStatus
gpugb_launch_partitioned(const GpugbAggParams &p, const uint32_t *sorted_parts, uint32_t *bounds,
						 int64_t n_parts, int64_t slots, int state_columns, cudaStream_t stream)
{
	int64_t		tile_rows,
				split_rows;

	if (p.nrows <= 0 || n_parts <= 0)
		return GPUGB_OK;
	GPUGB_TRY(launch_partition_bounds(p, sorted_parts, 4, bounds, n_parts, GPUGB_AGG_BLOCK, INT64_MAX,
									  stream, &tile_rows, &split_rows));

	size_t		bytes = (size_t) GPUGB_PARTITION_TABLE_BYTES(state_columns, slots);
	unsigned	blocks = persistent_grid((p.nrows + GPUGB_AGG_BLOCK - 1) / GPUGB_AGG_BLOCK,
										 (int64_t) bytes, GPUGB_AGG_BLOCK,
										 resident_blocks_per_sm(gpugb_partition_agg_kernel,
																GPUGB_AGG_BLOCK, bytes));

	gpugb_partition_agg_kernel<<<blocks, GPUGB_AGG_BLOCK, bytes, stream>>>(
		p, bounds, n_parts, (int) slots, tile_rows, split_rows);
	return GPUGB_LAUNCHED("gpugb_partition_agg_kernel");
}

int64_t
gpugb_partition_lean_slots(const GpugbAggParams &p, int64_t l1_reserve)
{
	GpugbDeviceProps props;

	if (p.n_values > GPUGB_PARTITION_LEAN_MAX_SUMS || !gpugb_lean_launch_ok(p) ||
		!gpugb_lean_word_key(p) || gpugb_lean_has_nulls(p))
		return 0;
	gpugb_device_properties(&props);
	return gpugb_lean_one_block_slots_leaving(p.n_values, p.n_keys, l1_reserve, &props);
}

template <int NV, bool PACKED, int KW = 1>
static GpugbStatus
launch_partitioned_lean_nv(const GpugbAggParams &p, const void *packed, const uint32_t *bounds, int64_t n_parts,
						   int slots, int64_t tile_rows, int64_t split_rows, bool direct, cudaStream_t stream)
{
	static std::once_flag opted_in;
	static cudaError_t opt_in_error = cudaSuccess;
	auto		kernel = gpugb_partition_lean_kernel<NV, PACKED, KW>;
	size_t		bytes;
	unsigned	blocks;

	if (lean_grid(kernel, GPUGB_LEAN_ONE_BLOCK_THREADS, opted_in, opt_in_error, p, NV, slots, &bytes,
				  &blocks) != cudaSuccess)
		return GPUGB_CUDA(opt_in_error);
	kernel<<<blocks, GPUGB_LEAN_ONE_BLOCK_THREADS, bytes, stream>>>(p, packed, bounds, n_parts, slots, tile_rows,
																	split_rows, direct);
	return GPUGB_LAUNCHED("gpugb_partition_lean_kernel");
}

/*
 * launch_partitioned_lean_nv's instance for packed rows (rows != nullptr) of
 * a key of key_words words, or the columns, which only launches of at most
 * one sum move to (partition_move.cu).
 */
template <int NV>
static GpugbStatus
launch_partitioned_lean_rows(const GpugbAggParams &p, const void *rows, int key_words, const uint32_t *bounds,
							 int64_t n_parts, int slots, int64_t tile_rows, int64_t split_rows, bool direct,
							 cudaStream_t stream)
{
	if (rows != nullptr && key_words == 2)
		return launch_partitioned_lean_nv<NV, true, 2>(p, rows, bounds, n_parts, slots, tile_rows, split_rows, direct,
													   stream);
	if (rows != nullptr && key_words == GPUGB_HASHED_KEY_WORDS)
	{
		/* Hashed rows hold one to four sums (partition_move.cu). */
		if constexpr (NV >= 1)
			return launch_partitioned_lean_nv<NV, true, GPUGB_HASHED_KEY_WORDS>(p, rows, bounds, n_parts, slots,
																				tile_rows, split_rows, direct, stream);
		else
			return GPUGB_INVALID_ARGUMENT;
	}
#if GPUGB_PARTITION_MIXED_KEYS
	if (rows != nullptr && key_words == GPUGB_MIXED_KEY_WORDS)
	{
		/* Mixed words hold one sum (partition_move.cu): no other instance reads them. */
		if constexpr (NV == 1)
			return launch_partitioned_lean_nv<NV, true, GPUGB_MIXED_KEY_WORDS>(p, rows, bounds, n_parts, slots,
																			   tile_rows, split_rows, direct, stream);
		else
			return GPUGB_INVALID_ARGUMENT;
	}
	if (rows != nullptr && key_words == GPUGB_GATHERED_KEY_WORDS)
	{
		/* Gathered rows hold two to four sums (partition_move.cu). */
		if constexpr (NV >= 2)
			return launch_partitioned_lean_nv<NV, true, GPUGB_GATHERED_KEY_WORDS>(p, rows, bounds, n_parts, slots,
																				  tile_rows, split_rows, direct,
																				  stream);
		else
			return GPUGB_INVALID_ARGUMENT;
	}
	if (rows != nullptr && key_words == GPUGB_CARRIED_KEY_WORDS)
	{
		/* Carried rows, the gathered ones whose sums CUB's sort moved, hold two (GPUGB_CARRIED_MAX_SUMS). */
		if constexpr (NV >= 2 && NV <= GPUGB_CARRIED_MAX_SUMS)
			return launch_partitioned_lean_nv<NV, true, GPUGB_CARRIED_KEY_WORDS>(p, rows, bounds, n_parts, slots,
																				 tile_rows, split_rows, direct,
																				 stream);
		else
			return GPUGB_INVALID_ARGUMENT;
	}
#endif
	if (rows != nullptr)
		return launch_partitioned_lean_nv<NV, true>(p, rows, bounds, n_parts, slots, tile_rows, split_rows, direct,
													stream);
	if constexpr (NV <= 1)
		return launch_partitioned_lean_nv<NV, false>(p, rows, bounds, n_parts, slots, tile_rows, split_rows, false,
													 stream);
	else
		return GPUGB_INVALID_ARGUMENT;	/* gpugb_launch_partition runs the generic kernel instead */
}

GpugbStatus
gpugb_launch_partitioned_lean(const GpugbAggParams &p, const void *packed, int packed_key_words,
							  const void *sorted_parts, int sorted_part_bytes, uint32_t *bounds, int64_t n_parts,
							  int64_t slots, bool direct_gids, cudaStream_t stream)
{
	int64_t		tile_rows,
				split_rows;

	static_assert(GPUGB_PARTITION_LEAN_MAX_SUMS == GPUGB_LEAN_MAX_SUMS, "gpugb_for_lean_sums' instances");
	if (p.nrows <= 0 || n_parts <= 0)
		return GPUGB_OK;
	/*
	 * Tiles of at most an eighth of a block's share of the rows: its
	 * partitions may be fewer than the SMs (partition_strategy.cu), and
	 * eight tiles a block even out what partitions leave uneven.
	 */
	int64_t		max_tile_rows = p.nrows / (8 * (int64_t) gpugb_sm_count()) + 1;

	/*
	 * Tiles of at least GPUGB_LEAN_MIN_TILE_ROWS (gpugb_device.h), still at
	 * most max_tile_rows: several small partitions a tile, so that a tile's
	 * searches (gpugb_partition_for_each_stretch) serve all of them.
	 */
	int64_t		min_tile_rows = GPUGB_LEAN_MIN_TILE_ROWS < max_tile_rows ? GPUGB_LEAN_MIN_TILE_ROWS : max_tile_rows;

	if (min_tile_rows < GPUGB_LEAN_ONE_BLOCK_THREADS)
		min_tile_rows = GPUGB_LEAN_ONE_BLOCK_THREADS;
	GPUGB_TRY(launch_partition_bounds(p, sorted_parts, sorted_part_bytes, bounds, n_parts, min_tile_rows,
									  max_tile_rows, stream, &tile_rows, &split_rows));
	return gpugb_for_lean_sums(p.n_values, [&](auto nv) {
		return launch_partitioned_lean_rows<decltype(nv)::value>(p, packed, packed_key_words, bounds, n_parts,
																 (int) slots, tile_rows, split_rows, direct_gids,
																 stream);
	});
}

GpugbStatus
gpugb_launch_publish_groups(const GpugbAggParams &p, bool insert, cudaStream_t stream)
{
	gpugb_publish_groups_kernel<<<8 * gpugb_sm_count(), 256, 0, stream>>>(p.slots, p.slot_mask, p.group_keys,
																		   p.group_nulls, p.max_groups,
																		   p.group_counter, p.slot_format, insert,
																		   (unsigned long long *) ((char *) p.group_counter +
																									   GPUGB_DIRECT_GROUPS_OFFSET));
	return GPUGB_LAUNCHED("gpugb_publish_groups_kernel");
}

GpugbStatus
gpugb_launch_sort_keys(const GpugbAggParams &p, uint32_t *sort_keys, uint32_t *perm, int shift,
					   bool exact_int32, cudaStream_t stream)
{
	gpugb_sort_key_kernel<<<gpugb_grid_for(p.nrows, 256), 256, 0, stream>>>(p, sort_keys, perm, shift,
																	  exact_int32);
	return GPUGB_LAUNCHED("gpugb_sort_key_kernel");
}

GpugbStatus
gpugb_launch_run_heads(const GpugbAggParams &p, const uint32_t *sort_keys, const uint32_t *perm,
					   uint32_t *head_pos, uint32_t *heads, unsigned long long *n_heads,
					   bool exact_int32, cudaStream_t stream)
{
	GPUGB_TRY(GPUGB_CUDA(cudaMemsetAsync(n_heads, 0, sizeof(*n_heads), stream)));
	gpugb_run_heads_kernel<<<gpugb_grid_for(p.nrows, GPUGB_RUN_HEADS_BLOCK), GPUGB_RUN_HEADS_BLOCK, 0,
		stream>>>(p, sort_keys, perm, head_pos, heads, n_heads, exact_int32);
	return GPUGB_LAUNCHED("gpugb_run_heads_kernel");
}

GpugbStatus
gpugb_launch_run_groups(const GpugbAggParams &p, const uint32_t *perm, const uint32_t *heads,
						const unsigned long long *n_heads, int64_t *run_gid, cudaStream_t stream)
{
	/* The number of heads is on the device: a grid for as many as there are rows. */
	unsigned	blocks = resident_grid_for(p.nrows, 256,
										   resident_blocks_per_sm(gpugb_run_groups_kernel, 256, 0));

	gpugb_run_groups_kernel<<<blocks, 256, 0, stream>>>(p, perm, heads, n_heads, run_gid);
	return GPUGB_LAUNCHED("gpugb_run_groups_kernel");
}

GpugbStatus
gpugb_launch_count_summary(const unsigned long long *col, int64_t n, unsigned long long *out,
						   cudaStream_t stream)
{
	if (n <= 0)
		return GPUGB_OK;
	gpugb_count_summary_kernel<<<gpugb_grid_for(n, 256), 256, 0, stream>>>(col, n, out);
	return GPUGB_LAUNCHED("gpugb_count_summary_kernel");
}

GpugbStatus
gpugb_launch_rehash(const GpugbTable &t, int n_keys, int64_t n_groups, cudaStream_t stream)
{
	if (n_groups <= 0)
		return GPUGB_OK;
	gpugb_rehash_kernel<<<gpugb_grid_for(n_groups, 256), 256, 0, stream>>>(
		(unsigned long long *) t.slots.ptr, (uint64_t) (t.capacity - 1),
		(const int64_t *) t.keys.ptr, (const uint32_t *) t.nulls.ptr,
		t.max_groups, n_keys, n_groups, t.slot_format);
	return GPUGB_LAUNCHED("gpugb_rehash_kernel");
}

GpugbStatus
gpugb_launch_fill(void *base, int64_t pitch, int ncols, int64_t from, int64_t to,
				  const uint64_t *identities, cudaStream_t stream)
{
	GpugbFill	fill;

	if (ncols <= 0 || to <= from)
		return GPUGB_OK;
	for (int c = 0; c < ncols && c < GPUGB_MAX_COUNTS; c++)
		fill.identity[c] = identities[c];
	gpugb_fill_kernel<<<gpugb_grid_for((to - from) * ncols, 256), 256, 0, stream>>>(
		(unsigned long long *) base, pitch, ncols, from, to, fill);
	return GPUGB_LAUNCHED("gpugb_fill_kernel");
}

GpugbStatus
gpugb_launch_remap(int64_t *col, int64_t n, const int64_t *map, int64_t map_len,
				   cudaStream_t stream)
{
	if (n <= 0 || map_len <= 0)
		return GPUGB_OK;
	gpugb_remap_kernel<<<gpugb_grid_for(n, 256), 256, 0, stream>>>(col, n, map, map_len);
	return GPUGB_LAUNCHED("gpugb_remap_kernel");
}

GpugbStatus
gpugb_launch_iota(uint32_t *perm, int64_t n, cudaStream_t stream)
{
	if (n <= 0)
		return GPUGB_OK;
	gpugb_iota_kernel<<<gpugb_grid_for(n, 256), 256, 0, stream>>>(perm, n);
	return GPUGB_LAUNCHED("gpugb_iota_kernel");
}

GpugbStatus
gpugb_launch_order_value(const int64_t *col, const uint32_t *perm, int64_t n, int kind,
						 bool descending, uint64_t *out, cudaStream_t stream)
{
	if (n <= 0)
		return GPUGB_OK;
	gpugb_order_value_kernel<<<gpugb_grid_for(n, 256), 256, 0, stream>>>(col, perm, n, kind,
																   descending, out);
	return GPUGB_LAUNCHED("gpugb_order_value_kernel");
}

GpugbStatus
gpugb_launch_order_count(const int64_t *rows, const int64_t *nulls, const uint32_t *perm,
						 int64_t n, bool descending, uint64_t *out, cudaStream_t stream)
{
	if (n <= 0)
		return GPUGB_OK;
	gpugb_order_count_kernel<<<gpugb_grid_for(n, 256), 256, 0, stream>>>(rows, nulls, perm, n,
																   descending, out);
	return GPUGB_LAUNCHED("gpugb_order_count_kernel");
}

GpugbStatus
gpugb_launch_order_count_null(const int64_t *rows, const int64_t *nulls, const uint32_t *perm,
							  int64_t n, bool nulls_first, uint64_t *out, cudaStream_t stream)
{
	if (n <= 0)
		return GPUGB_OK;
	gpugb_order_count_null_kernel<<<gpugb_grid_for(n, 256), 256, 0, stream>>>(rows, nulls, perm, n,
																		nulls_first, out);
	return GPUGB_LAUNCHED("gpugb_order_count_null_kernel");
}

GpugbStatus
gpugb_launch_order_null(const uint32_t *masks, int bit, const uint32_t *perm, int64_t n,
						bool nulls_first, uint64_t *out, cudaStream_t stream)
{
	if (n <= 0)
		return GPUGB_OK;
	gpugb_order_null_kernel<<<gpugb_grid_for(n, 256), 256, 0, stream>>>(masks, bit, perm, n,
																  nulls_first, out);
	return GPUGB_LAUNCHED("gpugb_order_null_kernel");
}

template <typename T>
GpugbStatus
gpugb_launch_gather(const T *src, const uint32_t *perm, int64_t n, T *dst, cudaStream_t stream)
{
	if (n <= 0)
		return GPUGB_OK;
	gpugb_gather_kernel<T><<<gpugb_grid_for(n, 256), 256, 0, stream>>>(src, perm, n, dst);
	return GPUGB_LAUNCHED("gpugb_gather_kernel");
}

template GpugbStatus gpugb_launch_gather<int64_t>(const int64_t *, const uint32_t *, int64_t,
												  int64_t *, cudaStream_t);
template GpugbStatus gpugb_launch_gather<uint32_t>(const uint32_t *, const uint32_t *, int64_t,
												   uint32_t *, cudaStream_t);
