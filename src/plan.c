/*-------------------------------------------------------------------------
 * plan.c
 *    Turns the GpuGroupAgg CustomPath into a CustomScan plan.
 *
 * Plan shape:
 *   CustomScan (scanrelid 0)
 *     custom_scan_tlist: [GROUP BY exprs..., Aggrefs...]  describes the scan
 *         tuple the executor builds from device results; setrefs rewrites
 *         the target list and HAVING (plan.qual) to INDEX_VAR references
 *         into it, so no Aggref is ever evaluated outside an Agg node.
 *     custom_plans: [input child, PostgreSQL's own grouping plan]; under a
 *         Gather (parallel ingest) the latter is a Gather-free plan that the
 *         leader alone runs, see exec.c
 *     custom_private: the slots below.
 *   With pathkeys (ordered output) the node returns groups in that order,
 *   and its fallback plan is sorted the same way (planner.c).
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/value.h"
#include "optimizer/optimizer.h"
#include "utils/float.h"

#include "aggcatalog.h"
#include "hostexpr.h"
#include "keyexpr.h"
#include "numeric_free.h"
#include "gpugb.h"

/* custom_private slots */
enum
{
	GPUGB_PRIVATE_N_KEYS = 0,	/* Integer */
	GPUGB_PRIVATE_INPUT_MAP,	/* per input: List (Integer child column), or
								 * (Integer -1, Integer scale, program...) for
								 * one the filler computes (hostexpr.c) */
	GPUGB_PRIVATE_GROUPS,		/* String: planner's group estimate */
	GPUGB_PRIVATE_PARALLEL,		/* Integer: 1 = parallel ingest under a Gather */
	GPUGB_PRIVATE_AGG_INPUTS,	/* List of Integer: input index per agg, -1 for count(*) */
	GPUGB_PRIVATE_ROWS,			/* String: planner's input row estimate (all participants) */
	GPUGB_PRIVATE_FREE_SCALES,	/* List of Integer per key, then per child column:
								 * the planned scale S of a free numeric, else -1 */
	GPUGB_PRIVATE_KEY_TRANSFORMS,	/* List per key: what the filler computes of
									 * the child's key column (keyexpr.c) */
	GPUGB_PRIVATE_ORDER,		/* as GPUGB_PATH_ORDER: the path's pathkeys */
	GPUGB_PRIVATE_N_QUERY_KEYS,	/* Integer: the GROUP BY's keys; the rest depend on them */
	GPUGB_PRIVATE_KEY_PROGRAMS,	/* List per key: NIL, or the program the filler
								 * computes it with from the child columns */
	GPUGB_PRIVATE_HOT_SHARE,	/* String: as GPUGB_PATH_HOT_SHARE */
	GPUGB_PRIVATE_NULLS			/* Integer: as GPUGB_PATH_NULLS */
};

static const CustomScanMethods gpugb_scan_methods;

static int
list_position(List *list, Node *node)
{
	ListCell   *lc;

	foreach(lc, list)
		if (equal(lfirst(lc), node))
			return foreach_current_index(lc);
	elog(ERROR, "gpugb: aggregate argument not found among the inputs");
	return -1;
}

static Plan *
gpugb_plan_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
				List *tlist, List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	List	   *priv = best_path->custom_private;
	List	   *group_exprs = list_nth(priv, GPUGB_PATH_GROUP_EXPRS);
	List	   *aggrefs = list_nth(priv, GPUGB_PATH_AGGREFS);
	List	   *having = list_nth(priv, GPUGB_PATH_HAVING);
	Node	   *groups = list_nth(priv, GPUGB_PATH_GROUPS);
	Node	   *parallel = list_nth(priv, GPUGB_PATH_PARALLEL);
	Node	   *rows = list_nth(priv, GPUGB_PATH_ROWS);
	List	   *inputs = list_nth(priv, GPUGB_PATH_INPUTS);
	List	   *order = list_nth(priv, GPUGB_PATH_ORDER);
	List	   *child_columns = NIL;
	List	   *input_map = NIL;
	List	   *agg_inputs = NIL;
	List	   *free_scales = NIL;
	List	   *key_transforms = NIL;
	List	   *key_programs = NIL;
	List	   *scan_tlist = NIL;
	ListCell   *lc;
	Plan	   *input_plan = linitial(custom_plans);

	/* The input child's target list is [keys..., child columns...]. */
	for (int i = list_length(group_exprs); i < list_length(input_plan->targetlist); i++)
		child_columns = lappend(child_columns,
								((TargetEntry *) list_nth(input_plan->targetlist, i))->expr);
	foreach(lc, inputs)
	{
		Expr	   *input = lfirst(lc);

		if (gpugb_input_needs_hostexpr(input))
		{
			int			scale;
			List	   *program = gpugb_hostexpr_compile(input, child_columns, &scale);

			input_map = lappend(input_map,
								list_concat(list_make3(makeInteger(-1), makeInteger(scale),
													   makeInteger(exprType((Node *) input))),
											program));
		}
		else
			input_map = lappend(input_map,
								list_make1(makeInteger(list_position(child_columns,
																	 (Node *) input))));
	}

	/* free numerics: a device scale from the column's statistics (numeric_free.c) */
	foreach(lc, group_exprs)
		free_scales = lappend(free_scales,
							  makeInteger(gpugb_free_numeric_plan_scale(root, lfirst(lc))));
	foreach(lc, child_columns)
		free_scales = lappend(free_scales,
							  makeInteger(gpugb_free_numeric_plan_scale(root, lfirst(lc))));

	/*
	 * A key the child projects as its plain column (make_gpu_path's choice)
	 * is computed by the filler from it; one whose position holds anything
	 * else but the key is computed by a program from the child columns.
	 */
	foreach(lc, group_exprs)
	{
		Expr	   *key = lfirst(lc);
		GpugbKeyTransform transform;
		Var		   *column = gpugb_key_transform(key, &transform);
		Node	   *child_key = (Node *) ((TargetEntry *) list_nth(input_plan->targetlist,
																   foreach_current_index(lc)))->expr;
		List	   *program = NIL;

		if (column == NULL || !equal(column, child_key))
		{
			transform.op = GPUGB_KEY_PLAIN;
			if (!equal(key, child_key))
			{
				int			scale;

				if (gpugb_key_placeholder(key, gpugb_free_numeric_plan_scale(root, (Node *) key)) == NULL)
					elog(ERROR, "gpugb: GROUP BY key %d is not in the input's target list",
						 foreach_current_index(lc) + 1);
				program = gpugb_hostexpr_compile_key(key, child_columns, &scale);
			}
		}
		key_transforms = lappend(key_transforms, gpugb_key_transform_to_list(&transform));
		key_programs = lappend(key_programs, program);
	}

	foreach(lc, group_exprs)
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry(copyObject(lfirst(lc)),
											 list_length(scan_tlist) + 1, NULL, false));
	foreach(lc, aggrefs)
	{
		Aggref	   *aggref = lfirst_node(Aggref, lc);
		Node	   *arg = (Node *) gpugb_aggref_input(aggref);
		int			input = arg ? list_position(inputs, arg) : -1;
		agg_inputs = lappend(agg_inputs, makeInteger(input));
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry((Expr *) copyObject(aggref),
											 list_length(scan_tlist) + 1, NULL, false));
	}

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = having;
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_plans = custom_plans;
	cscan->custom_exprs = NIL;
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_relids = NULL;
	cscan->custom_private = list_make5(makeInteger(list_length(group_exprs)),
									   input_map,
									   copyObject(groups),
									   copyObject(parallel),
									   agg_inputs);
	cscan->custom_private = lappend(cscan->custom_private, copyObject(rows));
	cscan->custom_private = lappend(cscan->custom_private, free_scales);
	cscan->custom_private = lappend(cscan->custom_private, key_transforms);
	cscan->custom_private = lappend(cscan->custom_private, copyObject(order));
	cscan->custom_private = lappend(cscan->custom_private,
									copyObject(list_nth(priv, GPUGB_PATH_N_QUERY_KEYS)));
	cscan->custom_private = lappend(cscan->custom_private, key_programs);
	cscan->custom_private = lappend(cscan->custom_private,
									copyObject(list_nth(priv, GPUGB_PATH_HOT_SHARE)));
	cscan->custom_private = lappend(cscan->custom_private,
									copyObject(list_nth(priv, GPUGB_PATH_NULLS)));
	cscan->methods = &gpugb_scan_methods;
	return &cscan->scan.plan;
}

void
gpugb_plan_info_decode(CustomScan *cscan, GpugbPlanInfo *info)
{
	List	   *priv = cscan->custom_private;
	Plan	   *input_plan = linitial(cscan->custom_plans);
	List	   *agg_inputs = list_nth(priv, GPUGB_PRIVATE_AGG_INPUTS);
	List	   *free_scales = list_nth(priv, GPUGB_PRIVATE_FREE_SCALES);
	List	   *key_transforms = list_nth(priv, GPUGB_PRIVATE_KEY_TRANSFORMS);
	List	   *key_programs = list_nth(priv, GPUGB_PRIVATE_KEY_PROGRAMS);
	List	   *order;
	ListCell   *lc;
	int			i;

	memset(info, 0, sizeof(*info));
	info->n_keys = intVal(list_nth(priv, GPUGB_PRIVATE_N_KEYS));
	info->n_query_keys = intVal(list_nth(priv, GPUGB_PRIVATE_N_QUERY_KEYS));
	if (info->n_query_keys < 0 || info->n_query_keys > info->n_keys)
		elog(ERROR, "gpugb: malformed GROUP BY key count");
	info->n_inputs = list_length(list_nth(priv, GPUGB_PRIVATE_INPUT_MAP));
	/* A String: a Float that looks integral is read back as an Integer in workers. */
	info->estimated_groups = atof(strVal(list_nth(priv, GPUGB_PRIVATE_GROUPS)));
	info->estimated_rows = atof(strVal(list_nth(priv, GPUGB_PRIVATE_ROWS)));
	info->estimated_hot_share = atof(strVal(list_nth(priv, GPUGB_PRIVATE_HOT_SHARE)));
	info->estimated_nulls = intVal(list_nth(priv, GPUGB_PRIVATE_NULLS)) != 0;
	info->parallel = intVal(list_nth(priv, GPUGB_PRIVATE_PARALLEL)) != 0;
	info->n_aggs = list_length(agg_inputs);
	order = list_nth(priv, GPUGB_PRIVATE_ORDER);
	if (list_length(order) % GPUGB_ORDER_FIELDS != 0 ||
		list_length(order) / GPUGB_ORDER_FIELDS > GPUGB_MAX_KEYS)
		elog(ERROR, "gpugb: malformed output order");
	info->n_order = list_length(order) / GPUGB_ORDER_FIELDS;
	for (i = 0; i < info->n_order; i++)
	{
		int			f = GPUGB_ORDER_FIELDS * i;

		if (intVal(list_nth(order, f)) != GPUGB_ORDER_BY_KEY &&
			intVal(list_nth(order, f)) != GPUGB_ORDER_BY_COUNT &&
			intVal(list_nth(order, f)) != GPUGB_ORDER_BY_VALUE)
			elog(ERROR, "gpugb: malformed output order");
		info->order_by_count[i] = intVal(list_nth(order, f)) == GPUGB_ORDER_BY_COUNT;
		info->order_by_value[i] = intVal(list_nth(order, f)) == GPUGB_ORDER_BY_VALUE;
		info->order_keys[i] = intVal(list_nth(order, f + 1));
		info->order_desc[i] = intVal(list_nth(order, f + 2)) != 0;
		info->order_nulls_first[i] = intVal(list_nth(order, f + 3)) != 0;
		if (info->order_keys[i] < 0 ||
			info->order_keys[i] >= (info->order_by_count[i] || info->order_by_value[i] ?
									info->n_aggs : info->n_keys))
			elog(ERROR, "gpugb: output order key %d out of range", info->order_keys[i]);
	}

	for (i = 0; i < info->n_keys; i++)
	{
		Node	   *key = (Node *) ((TargetEntry *) list_nth(cscan->custom_scan_tlist, i))->expr;

		info->key_types[i] = exprType(key);
		info->key_typmods[i] = exprTypmod(key);
		info->key_free_scales[i] = intVal(list_nth(free_scales, i));
		gpugb_key_transform_from_list(list_nth(key_transforms, i), &info->key_transforms[i]);
		info->key_programs[i] = list_nth(key_programs, i);
	}
	info->n_child_columns = list_length(input_plan->targetlist) - info->n_keys;
	if (info->n_child_columns > GPUGB_MAX_INPUTS)
		elog(ERROR, "gpugb: too many input columns (%d)", info->n_child_columns);
	for (i = 0; i < info->n_child_columns; i++)
	{
		Node	   *column = (Node *) ((TargetEntry *) list_nth(input_plan->targetlist,
																info->n_keys + i))->expr;

		info->child_types[i] = exprType(column);
		info->child_typmods[i] = exprTypmod(column);
		info->child_free_scales[i] = intVal(list_nth(free_scales, info->n_keys + i));
	}
	foreach(lc, list_nth(priv, GPUGB_PRIVATE_INPUT_MAP))
	{
		List	   *map = lfirst(lc);

		i = foreach_current_index(lc);
		info->input_columns[i] = intVal(linitial(map));
		if (info->input_columns[i] >= 0)
		{
			info->input_types[i] = info->child_types[info->input_columns[i]];
			info->input_typmods[i] = info->child_typmods[info->input_columns[i]];
		}
		else
		{
			/* (-1, scale, result type, program...) */
			info->input_types[i] = (Oid) intVal(lthird(map));
			info->input_typmods[i] = -1;
			info->input_scales[i] = intVal(lsecond(map));
			info->input_programs[i] = list_copy_tail(map, 3);
		}
	}
	foreach(lc, agg_inputs)
	{
		TargetEntry *tle = list_nth(cscan->custom_scan_tlist,
									info->n_keys + foreach_current_index(lc));

		i = foreach_current_index(lc);
		info->agg_fnoids[i] = castNode(Aggref, tle->expr)->aggfnoid;
		info->agg_collations[i] = castNode(Aggref, tle->expr)->inputcollid;
		info->agg_inputs[i] = intVal(lfirst(lc));
	}
}

const CustomPathMethods gpugb_path_methods = {
	.CustomName = GPUGB_NODE_NAME,
	.PlanCustomPath = gpugb_plan_path,
};

static const CustomScanMethods gpugb_scan_methods = {
	.CustomName = GPUGB_NODE_NAME,
	.CreateCustomScanState = gpugb_create_scan_state,
};

void
gpugb_plan_init(void)
{
	RegisterCustomScanMethods(&gpugb_scan_methods);
}
