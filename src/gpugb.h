/*-------------------------------------------------------------------------
 * gpugb.h
 *    Declarations shared by gpugb's host modules.
 *
 * Module map (one job per file):
 *   gpugb.c       _PG_init: wires the modules together
 *   guc.c         every gpugb.* setting
 *   aggcatalog.c  the one table of supported aggregates and key types
 *   planner.c     create_upper_paths_hook: eligibility, costing, CustomPath
 *   plan.c        CustomPath -> CustomScan, custom_private layout
 *   exec.c        executor callbacks, GPU run and CPU fallback
 *   strides.c     deforming child tuples into pinned column strides
 *   finalize.c    device results -> PostgreSQL datums, exactly as PG computes
 *   interval_words.c  interval keys and aggregates as exact device words
 *   explain.c     EXPLAIN / EXPLAIN ANALYZE output
 *   heuristics.c  the strategy rules (plain C)
 *   strategy.c    a device spec as the rules' workload, the planned and
 *                 the re-decided strategy (plain C)
 *   sqlfuncs.c    SQL-callable status functions
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_H
#define GPUGB_H

#include "postgres.h"

#include "nodes/execnodes.h"
#include "nodes/extensible.h"
#include "nodes/pathnodes.h"

#include "gpugb_device.h"
#include "keyexpr.h"

#define GPUGB_NODE_NAME "GpuGroupAgg"

/*
 * The expression below any RelabelTypes (a binary-compatible relabelling:
 * varchar as text; equivalence classes add them too).
 */
static inline Node *
gpugb_strip_relabel(Node *node)
{
	while (node != NULL && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	return node;
}

/* guc.c */
extern bool gpugb_enabled;
extern bool gpugb_require_gpu;
extern bool gpugb_plan_without_gpu;
extern bool gpugb_force;
extern bool gpugb_emulate_device;
extern bool gpugb_direct_scan;
extern bool gpugb_lean_emit;
extern bool gpugb_parallel;
extern bool gpugb_direct_slot_copy;
extern double gpugb_startup_cost;
extern double gpugb_tuple_cost;
extern int	gpugb_stride_rows;
extern int	gpugb_text_minmax_max_distinct;
extern int	gpugb_device_memory_limit_mb;
/* gpugb.strategy: a GpugbStrategy to force, or GPUGB_STRATEGY_AUTO */
#define GPUGB_STRATEGY_AUTO (-1)
extern int	gpugb_strategy;
extern void gpugb_guc_init(void);

/* preinit.c */
extern bool gpugb_preinit_device;
extern void gpugb_preinit_init(void);
/*
 * Is the real device in use and this session's start-up thread (preinit.c)
 * still starting CUDA?  The planner then does not wait for it: it plans as
 * if the device will be there, and the executor joins the thread before
 * its first device call (aggregate_on_device's probe); should the device
 * turn out unusable, the node runs its fallback plan, as for any device
 * failure.  Never waits.
 */
extern bool gpugb_device_starting(void);

/* keeper.c */
extern bool gpugb_device_keeper;
extern void gpugb_keeper_init(void);

/* budget.c */
extern int	gpugb_max_device_memory_mb;
extern void gpugb_budget_init(void);
extern bool gpugb_budget_reserve(int64 bytes);
extern void gpugb_budget_release(int64 bytes);
extern int64 gpugb_budget_reserved(void);

/* planner.c */
extern void gpugb_planner_init(void);

/* skew_estimate.c */
extern double gpugb_estimate_hot_share(PlannerInfo *root, List *group_exprs, int n_query_keys);
extern bool gpugb_estimate_nulls(PlannerInfo *root, List *group_exprs, List *inputs);

/* plan.c */
extern const CustomPathMethods gpugb_path_methods;

/* custom_private of a GpuGroupAgg CustomPath */
typedef enum GpugbPathPrivate
{
	GPUGB_PATH_GROUP_EXPRS,		/* List of GROUP BY expressions */
	GPUGB_PATH_AGGREFS,			/* List of Aggrefs */
	GPUGB_PATH_HAVING,			/* List: implicit-AND HAVING clauses */
	GPUGB_PATH_GROUPS,			/* String: estimated groups */
	GPUGB_PATH_PARALLEL,		/* Integer: 1 = parallel ingest under a Gather */
	GPUGB_PATH_INPUTS,			/* List of distinct aggregate input expressions */
	GPUGB_PATH_ROWS,			/* String: estimated input rows (all participants) */
	GPUGB_PATH_ORDER,			/* List of Integer, 4 per order key (GPUGB_ORDER_FIELDS):
								 * source (GPUGB_ORDER_BY_KEY: GROUP BY key index;
								 * GPUGB_ORDER_BY_COUNT: index of a count aggregate
								 * among the Aggrefs; GPUGB_ORDER_BY_VALUE: of an
								 * integer sum, min or max), index, DESC, NULLS FIRST;
								 * NIL: no order */
	GPUGB_PATH_N_QUERY_KEYS,	/* Integer: keys of the query's GROUP BY; the
								 * rest depend on them (a primary key's columns) */
	GPUGB_PATH_HOT_SHARE,		/* String: estimated largest group's share of the
								 * rows (skew_estimate.c); 0 = unknown */
	GPUGB_PATH_NULLS			/* Integer: 1 = a key or an aggregate input may be
								 * NULL (skew_estimate.c, gpugb_estimate_nulls) */
} GpugbPathPrivate;

/* The fields of one key of GPUGB_PATH_ORDER, and its sources. */
#define GPUGB_ORDER_FIELDS 4
#define GPUGB_ORDER_BY_KEY 0
#define GPUGB_ORDER_BY_COUNT 1
#define GPUGB_ORDER_BY_VALUE 2
extern void gpugb_plan_init(void);

/*
 * What the executor needs to know, decoded from a CustomScan.  Keys are the
 * first n_keys columns of the input child's output and of the scan tuple;
 * aggregate inputs follow the keys in the child's output; aggregate results
 * follow the keys in the scan tuple.
 */
typedef struct GpugbPlanInfo
{
	int			n_keys;
	int			n_query_keys;	/* the GROUP BY's; keys after them depend on them */
	Oid			key_types[GPUGB_MAX_KEYS];
	int32		key_typmods[GPUGB_MAX_KEYS];
	int			key_free_scales[GPUGB_MAX_KEYS];	/* S of a free numeric, else -1 */
	/* what the filler computes of the child's key column (keyexpr.c) */
	GpugbKeyTransform key_transforms[GPUGB_MAX_KEYS];
	/* NIL, or the program the filler computes the key with (hostexpr.c) */
	List	   *key_programs[GPUGB_MAX_KEYS];
	int			n_inputs;
	Oid			input_types[GPUGB_MAX_INPUTS];
	int32		input_typmods[GPUGB_MAX_INPUTS];
	/* input i is child column input_columns[i], or computed (hostexpr.c) */
	int			input_columns[GPUGB_MAX_INPUTS];	/* -1 if computed */
	List	   *input_programs[GPUGB_MAX_INPUTS];
	int			input_scales[GPUGB_MAX_INPUTS];	/* of a computed input */
	int			n_child_columns;	/* the child's columns after the keys */
	Oid			child_types[GPUGB_MAX_INPUTS];
	int32		child_typmods[GPUGB_MAX_INPUTS];
	int			child_free_scales[GPUGB_MAX_INPUTS];	/* S of a free numeric, else -1 */
	int			n_aggs;
	Oid			agg_fnoids[GPUGB_MAX_AGGS];
	int			agg_inputs[GPUGB_MAX_AGGS];	/* input index, -1 for count(*) */
	Oid			agg_collations[GPUGB_MAX_AGGS];	/* inputcollid: min/max of text */
	double		estimated_groups;
	double		estimated_rows;	/* input rows, all participants together */
	double		estimated_hot_share;	/* largest group's share of the rows; 0 = unknown */
	bool		estimated_nulls;	/* a key or an input may be NULL (gpugb_estimate_nulls) */
	bool		parallel;		/* parallel ingest: workers fill strides in DSM */
	/* ordered output (the path's pathkeys), most significant key first */
	int			n_order;
	int			order_keys[GPUGB_MAX_KEYS];	/* GROUP BY key index, or (by count) aggregate index */
	bool		order_by_count[GPUGB_MAX_KEYS];	/* by the count of a count(*) or count(x) */
	bool		order_by_value[GPUGB_MAX_KEYS];	/* by an integer sum's, min's or max's value */
	bool		order_desc[GPUGB_MAX_KEYS];
	bool		order_nulls_first[GPUGB_MAX_KEYS];
} GpugbPlanInfo;

extern void gpugb_plan_info_decode(CustomScan *cscan, GpugbPlanInfo *info);

/* exec.c */
extern Node *gpugb_create_scan_state(CustomScan *cscan);

typedef struct GpugbBackendStats
{
	int64		gpu_runs;		/* GPU aggregations completed */
	int64		fallbacks;		/* runs that fell back to PostgreSQL's plan */
	char		last_fallback_reason[256];
} GpugbBackendStats;

extern GpugbBackendStats gpugb_backend_stats;

/* explain.c */
struct GpugbScanState;
extern void gpugb_explain(CustomScanState *node, List *ancestors, ExplainState *es);

#endif							/* GPUGB_H */
