/*-------------------------------------------------------------------------
 * guc.c
 *    Every gpugb.* setting, in one place.  README.md documents each one.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/guc.h"

#include "gpugb.h"

bool		gpugb_enabled = true;
bool		gpugb_require_gpu = false;
bool		gpugb_plan_without_gpu = false;
bool		gpugb_force = false;
bool		gpugb_emulate_device = false;
bool		gpugb_direct_scan = true;
bool		gpugb_lean_emit = true;
bool		gpugb_parallel = true;
bool		gpugb_direct_slot_copy = true;
double		gpugb_startup_cost = 2000.0;
double		gpugb_tuple_cost = 0.0005;
int			gpugb_stride_rows = 1 << 20;
int			gpugb_text_minmax_max_distinct = 2000000;
int			gpugb_device_memory_limit_mb = 0;
int			gpugb_strategy = GPUGB_STRATEGY_AUTO;

/* gpugb.strategy: auto, or one of the device strategies (GpugbStrategy) */
static const struct config_enum_entry strategy_options[] = {
	{"auto", GPUGB_STRATEGY_AUTO, false},
	{"global_hash", GPUGB_STRATEGY_GLOBAL_HASH, false},
	{"shared_hash", GPUGB_STRATEGY_SHARED_HASH, false},
	{"sort", GPUGB_STRATEGY_SORT, false},
	{"partition", GPUGB_STRATEGY_PARTITION, false},
	{"private_hash", GPUGB_STRATEGY_PRIVATE_HASH, false},
	{NULL, 0, false}
};

void
gpugb_guc_init(void)
{
	DefineCustomBoolVariable("gpugb.enabled",
							 "Lets the planner run GROUP BY aggregation on the GPU.",
							 "When off, every query gets PostgreSQL's own plan.",
							 &gpugb_enabled, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("gpugb.parallel",
							 "Lets parallel workers read the input of a GPU aggregation.",
							 "Workers fill column strides in shared memory and the leader "
							 "feeds them to the GPU.  If the GPU cannot be set up, the leader "
							 "aggregates on the CPU; if it fails half-way, the leader runs "
							 "PostgreSQL's own (non-parallel) plan instead.",
							 &gpugb_parallel, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("gpugb.direct_slot_copy",
							 "Copies parallel workers' slots to the GPU straight from shared memory.",
							 "The leader registers the slots with the device, which then reads "
							 "them itself; off, the leader copies each slot into its pinned "
							 "strides first (the slower way, kept to compare and as a fallback "
							 "where the driver refuses to register).",
							 &gpugb_direct_slot_copy, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("gpugb.require_gpu",
							 "Turns a fallback to the CPU into an ERROR (for tests).",
							 "A query planned with GpuGroupAgg that cannot finish on the GPU "
							 "raises an error instead of running PostgreSQL's own plan, which "
							 "proves that a test really ran on the GPU.",
							 &gpugb_require_gpu, false, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("gpugb.plan_without_gpu",
							 "Plans GpuGroupAgg even when no usable GPU is found (for tests).",
							 "Such plans fall back to PostgreSQL's own plan at run time; this "
							 "lets machines without a GPU test the fallback path.",
							 &gpugb_plan_without_gpu, false, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("gpugb.force",
							 "Uses GpuGroupAgg for every eligible query, whatever the costs.",
							 "For tests and benchmarks.",
							 &gpugb_force, false, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("gpugb.emulate_device",
							 "Runs the GPU path's device work on the CPU (for tests).",
							 "A slow, single-threaded emulator of the device module, so that "
							 "machines without a GPU test the whole host pipeline.",
							 &gpugb_emulate_device, false, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("gpugb.direct_scan",
							 "Reads a plain sequential scan's heap pages directly while filling strides.",
							 "Where the input is a SeqScan of a heap table, the filler walks its "
							 "pages' visible tuples itself instead of calling the executor per row "
							 "(heapread.c).",
							 &gpugb_direct_scan, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("gpugb.lean_emit",
							 "Builds result rows of integer keys and counts or integer sums in a lean loop.",
							 "Where every key is an integer or bool and every aggregate a count or "
							 "an integer sum to int8, the node builds each result row without the "
							 "general loop's per-column tests (exec.c); off takes the general loop "
							 "(for comparison).",
							 &gpugb_lean_emit, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomRealVariable("gpugb.startup_cost",
							 "Planner cost of starting a GPU aggregation.",
							 "Covers device set-up, memory allocation and the first transfer.",
							 &gpugb_startup_cost, 2000.0, 0.0, 1e12, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomRealVariable("gpugb.tuple_cost",
							 "Planner cost of moving one value of one input row to the GPU "
							 "and aggregating it there.",
							 NULL,
							 &gpugb_tuple_cost, 0.0005, 0.0, 1e6, PGC_USERSET, 0,
							 NULL, NULL, NULL);

	DefineCustomIntVariable("gpugb.stride_rows",
							"Rows per column stride shipped to the GPU at once.",
							"Each stride uses 9 bytes per row per key or aggregate input, "
							"in pinned host memory and in device memory, twice (double "
							"buffering).",
							&gpugb_stride_rows, 1 << 20, 1024, 64 << 20, PGC_USERSET, 0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("gpugb.text_minmax_max_distinct",
							"Most distinct texts (estimated) a min/max of text is offloaded for, "
							"under a collation other than C.",
							"Each distinct text is ranked once, with strcoll comparisons; beyond "
							"a few million of them that costs more than PostgreSQL's own "
							"comparisons.  Under the C collation there is no limit.",
							&gpugb_text_minmax_max_distinct, 2000000, 0, INT_MAX, PGC_USERSET, 0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("gpugb.device_memory_limit",
							"Most device memory one GPU aggregation may use; 0 means no limit.",
							"A query that needs more falls back to PostgreSQL's own plan.",
							&gpugb_device_memory_limit_mb, 0, 0, INT_MAX, PGC_USERSET,
							GUC_UNIT_MB, NULL, NULL, NULL);

	DefineCustomEnumVariable("gpugb.strategy",
							 "How the device groups rows: auto, or a strategy to force.",
							 "auto lets the heuristics choose from the planner's estimates "
							 "and correct the choice at run time from the groups the first "
							 "stride shows; global_hash, shared_hash, sort, partition or "
							 "private_hash forces "
							 "that strategy for the whole query (tests, benchmarks).",
							 &gpugb_strategy, GPUGB_STRATEGY_AUTO, strategy_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);

	MarkGUCPrefixReserved("gpugb");
}
