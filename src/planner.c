/*-------------------------------------------------------------------------
 * planner.c
 *    Offers GpuGroupAgg to the planner at UPPERREL_GROUP_AGG.
 *
 * From create_upper_paths_hook we check that the query's grouping keys,
 * aggregates and HAVING are all things the GPU path computes exactly as
 * PostgreSQL does; if anything is not, we leave the rel alone and say why
 * at DEBUG1.  Otherwise we add one CustomPath whose children are:
 *
 *   1. the cheapest input path, projected to exactly [group keys...,
 *      distinct aggregate arguments...], which feeds the GPU;
 *   2. a copy of PostgreSQL's own cheapest grouping path, which the
 *      executor runs instead if the GPU cannot finish (no device, out of
 *      memory, any CUDA error).  Falling back to PostgreSQL's own plan
 *      means a fallback can never compute anything differently.
 *
 * Costs then decide: the GPU path pays its input, a set-up cost and a small
 * per-value cost, and competes with HashAgg/GroupAgg (serial or parallel).
 *
 * Ordered output: when the query's ORDER BY can be met by ordering the
 * groups by keys whose device words order as their values do, a second
 * path advertises those pathkeys (the device sorts the groups at finish,
 * cuda/order.cu), costing a little more, so PostgreSQL can drop its Sort.
 * Its fallback plan is sorted the same way; its parallel-ingest variant
 * goes under a Gather Merge, which is exact because the leader alone
 * returns rows, in order, and workers return none.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_class.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/paths.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planner.h"
#include "optimizer/prep.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/regproc.h"
#include "utils/typcache.h"

#include "aggcatalog.h"
#include "numeric_free.h"
#include "hostexpr.h"
#include "keyexpr.h"
#include "interval_words.h"
#include "device_ops.h"
#include "gpugb.h"

/*
 * From utils/pg_locale.h, which is not included: it includes ICU's headers
 * where PostgreSQL was built with ICU, and a server without libicu-dev (the
 * GPU box's) could not compile this file.
 */
extern bool lc_collate_is_c(Oid collation);

static create_upper_paths_hook_type prev_create_upper_paths_hook = NULL;

/* What the eligibility walk collects. */
typedef struct GroupingShape
{
	PlannerInfo *root;
	List	   *group_exprs;	/* GROUP BY expressions, in order; then columns
								 * that depend on them (a primary key's) */
	int			key_words;		/* device words of the keys */
	List	   *aggrefs;		/* distinct Aggrefs of target list and HAVING */
	List	   *inputs;			/* distinct aggregate argument expressions */
	int			device_aggs;	/* device aggregates, hidden ones included */
	int			input_slots;	/* device inputs, derived ones included (a bound) */
	const char *reject;			/* why not offloaded, or NULL */
	double		hot_share;		/* the largest group's estimated share of the rows
								 * (skew_estimate.c); 0 = unknown */
	bool		nulls;			/* a key or an input may be NULL (skew_estimate.c) */
} GroupingShape;

#define DECLINE(reason) \
	do { \
		ereport(DEBUG1, (errmsg("gpugb: GROUP BY not offloaded: %s", (reason)))); \
		return; \
	} while (0)

/*
 * min/max of text (textorder.c) ranks every distinct text once, in about
 * 2 d log2 d comparisons for d distinct texts.  Ranks are a strict order
 * only under a deterministic collation.  And under a collation other than
 * C, a comparison is a strcoll of a few hundred nanoseconds: beyond a few
 * million distinct texts that costs more than PostgreSQL's own one
 * comparison per row, so such a column is left to PostgreSQL
 * (gpugb.text_minmax_max_distinct).
 */
static const char *
text_minmax_unsupported(PlannerInfo *root, Aggref *aggref, Node *arg)
{
	double		distinct;

	if (!OidIsValid(aggref->inputcollid))
		return NULL;
	if (!get_collation_isdeterministic(aggref->inputcollid))
		return "min/max of text under a nondeterministic collation is not supported";
	if (lc_collate_is_c(aggref->inputcollid))
		return NULL;
	distinct = estimate_num_groups(root, list_make1(arg), 1e15, NULL, NULL);
	if (distinct > gpugb_text_minmax_max_distinct)
		return psprintf("min/max of text with about %.0f distinct values under a collation "
						"other than C is not offloaded (gpugb.text_minmax_max_distinct)",
						distinct);
	return NULL;
}

static const char *
check_aggref(PlannerInfo *root, Aggref *aggref)
{
	const GpugbAggEntry *entry = gpugb_agg_lookup(aggref->aggfnoid);

	if (entry == NULL)
		return psprintf("aggregate %s is not supported",
						format_procedure(aggref->aggfnoid));
	if (aggref->aggdistinct != NIL)
		return "DISTINCT aggregates are not supported";
	if (aggref->aggorder != NIL)
		return "ordered aggregates are not supported";
	if (contain_volatile_functions((Node *) aggref->aggfilter))
		return "volatile aggregate FILTER clauses are not supported";
	if (aggref->aggkind != AGGKIND_NORMAL)
		return "ordered-set and hypothetical aggregates are not supported";
	if (aggref->aggsplit != AGGSPLIT_SIMPLE)
		return "split (partial) aggregation is not supported";
	if (aggref->aggvariadic)
		return "variadic aggregate calls are not supported";
	if (!aggref->aggstar && list_length(aggref->args) != 1)
		return "aggregates with several arguments are not supported";
	if (contain_volatile_functions((Node *) aggref->args))
		return "volatile aggregate arguments are not supported";
	if (!aggref->aggstar)
	{
		Node	   *arg = (Node *) ((TargetEntry *) linitial(aggref->args))->expr;
		const char *unsupported = gpugb_agg_input_unsupported(entry, exprType(arg),
															  exprTypmod(arg));

		/* exact numeric arithmetic the filler computes (hostexpr.c) */
		if (exprType(arg) == NUMERICOID &&
			gpugb_input_needs_hostexpr(gpugb_aggref_input(aggref)))
			return NULL;
		if (unsupported == NULL && gpugb_agg_ranks_text(entry, exprType(arg), exprTypmod(arg)))
			unsupported = text_minmax_unsupported(root, aggref, arg);
		/* count(x) reads no value; other free numerics need a usable scale */
		if (unsupported == NULL && entry->op != GPUGB_AGG_COUNT)
			unsupported = gpugb_free_numeric_unsupported(root, arg);
		return unsupported;
	}
	return NULL;
}

static const char *add_group_key(PlannerInfo *root, GroupingShape *shape, Node *expr);

/* Is var a column of a table whose primary key the GROUP BY keys hold? */
static bool
depends_on_group_keys(GroupingShape *shape, Var *var)
{
	RangeTblEntry *rte;
	List	   *constraint_deps = NIL;

	if (var->varlevelsup != 0 || var->varno < 1 ||
		var->varno > list_length(shape->root->parse->rtable) || var->varattno <= 0)
		return false;
	rte = planner_rt_fetch(var->varno, shape->root);
	/* an inheritance parent's key does not hold in its children (review) */
	if (rte->rtekind != RTE_RELATION || (rte->inh && rte->relkind != RELKIND_PARTITIONED_TABLE))
		return false;
	/*
	 * Every row of a group has the column's one value, which gpugb must
	 * print as it is: float keys group -0 with 0 and print 0 (review).
	 */
	if (var->vartype == FLOAT4OID || var->vartype == FLOAT8OID)
		return false;
	return check_functional_grouping(rte->relid, var->varno, 0, shape->group_exprs,
									 &constraint_deps);
}

/*
 * Walks an output expression (target list entry or HAVING clause).  Whole
 * GROUP BY expressions and Aggrefs become columns of the scan tuple; any
 * other Var would be a column the GPU path does not carry (e.g. one allowed
 * by a functional dependency on a primary key).
 */
static bool
collect_walker(Node *node, GroupingShape *shape)
{
	if (node == NULL || shape->reject)
		return false;
	if (list_member(shape->group_exprs, node))
		return false;
	if (IsA(node, Aggref))
	{
		Aggref	   *aggref = (Aggref *) node;

		shape->reject = check_aggref(shape->root, aggref);
		if (shape->reject)
			return true;
		if (!list_member(shape->aggrefs, aggref))
		{
			/* with room for the hidden aggregates exec.c adds */
			shape->device_aggs += gpugb_device_aggs_needed(aggref);
			if (shape->device_aggs > GPUGB_MAX_AGGS)
			{
				shape->reject = "too many aggregates";
				return true;
			}
			shape->aggrefs = lappend(shape->aggrefs, aggref);
		}
		{
			Node	   *arg = (Node *) gpugb_aggref_input(aggref);

			if (arg != NULL && !list_member(shape->inputs, arg))
			{
				/*
				 * room for the derived inputs exec.c adds: at most two each
				 * (|x| and finite x of a float, or x^2's halves), four for a free numeric
				 * (its value and dscale parts, x^2's halves), more for an
				 * interval (interval_words.c)
				 */
				shape->input_slots += gpugb_is_free_numeric(arg) &&
					(!gpugb_input_needs_hostexpr((Expr *) arg) ||
					 gpugb_hostexpr_packs((Expr *) arg)) ? 5 : 3;
				shape->input_slots += gpugb_interval_extra_inputs(exprType(arg), false);
				if (shape->input_slots > GPUGB_MAX_INPUTS)
				{
					shape->reject = "too many aggregate inputs";
					return true;
				}
				shape->inputs = lappend(shape->inputs, arg);
			}
		}
		return false;
	}
	if (IsA(node, Var))
	{
		/*
		 * A column that depends functionally on the GROUP BY keys (they
		 * hold its table's primary key; PostgreSQL drops such columns from
		 * the GROUP BY itself): one more key, which splits no group.  Any
		 * other column (a window query passes some through its grouping
		 * step, with any row's value) would split groups: declined.
		 */
		if (depends_on_group_keys(shape, (Var *) node))
			shape->reject = add_group_key(shape->root, shape, node);
		else
			shape->reject = "the output uses a column that is not a GROUP BY key";
		return shape->reject != NULL;
	}
	if (IsA(node, PlaceHolderVar) || IsA(node, GroupingFunc) ||
		IsA(node, WindowFunc))
	{
		shape->reject = psprintf("unsupported expression node %d in the output",
								 (int) nodeTag(node));
		return true;
	}
	return expression_tree_walker(node, collect_walker, shape);
}

/*
 * Adds a GROUP BY key (NULL), or says why it cannot be one.  Also counts
 * the hidden aggregates and derived inputs its type needs (exec.c).
 */
static const char *
add_group_key(PlannerInfo *root, GroupingShape *shape, Node *expr)
{
	GpugbColumnType type = gpugb_column_type(exprType(expr), exprTypmod(expr), true);
	const char *unsupported = gpugb_key_type_unsupported(exprType(expr), exprTypmod(expr),
														 exprCollation(expr));

	if (unsupported == NULL)
		unsupported = gpugb_free_numeric_unsupported(root, expr);
	if (unsupported)
		return unsupported;
	/*
	 * a free numeric's dscale, a char's trailing spaces, whether a float's
	 * members were all -0: a derived input and a hidden aggregate each
	 */
	if (gpugb_is_free_numeric(expr) || gpugb_key_is_unpadded_bpchar(type) ||
		type.kind == GPUGB_VALUE_FLOAT4 || type.kind == GPUGB_VALUE_FLOAT8)
	{
		shape->device_aggs++;
		shape->input_slots++;
	}
	/* an interval key's (month, day): a derived input and a hidden min */
	shape->input_slots += gpugb_interval_extra_inputs(exprType(expr), true);
	shape->device_aggs += gpugb_interval_extra_inputs(exprType(expr), true);
	/* a key met after the aggregates (a dependent column) is checked here */
	if (shape->device_aggs > GPUGB_MAX_AGGS)
		return "too many aggregates";
	if (shape->input_slots > GPUGB_MAX_INPUTS)
		return "too many aggregate inputs";
	shape->key_words += type.words;
	if (shape->key_words > GPUGB_MAX_KEYS || list_length(shape->group_exprs) >= GPUGB_MAX_KEYS)
		return "too many GROUP BY keys";
	if (contain_volatile_functions(expr))
		return "volatile GROUP BY keys are not supported";
	shape->group_exprs = lappend(shape->group_exprs, expr);
	return NULL;
}

static const char *
collect_group_exprs(PlannerInfo *root, GroupPathExtraData *extra, GroupingShape *shape)
{
	ListCell   *lc;

	if (list_length(root->parse->groupClause) > GPUGB_MAX_KEYS)
		return "too many GROUP BY keys";

	foreach(lc, root->parse->groupClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		Node	   *expr = get_sortgroupclause_expr(sgc, extra->targetList);
		const char *unsupported = add_group_key(root, shape, expr);

		if (unsupported)
			return unsupported;
	}
	return NULL;
}

/* Does this path (or one below it) run GpuGroupAgg? */
static bool
path_uses_gpugb(Path *path)
{
	if (path == NULL)
		return false;
	switch (nodeTag(path))
	{
		case T_CustomPath:
			return ((CustomPath *) path)->methods == &gpugb_path_methods;
		case T_AggPath:
			return path_uses_gpugb(((AggPath *) path)->subpath);
		case T_GroupPath:
			return path_uses_gpugb(((GroupPath *) path)->subpath);
		case T_GatherPath:
			return path_uses_gpugb(((GatherPath *) path)->subpath);
		case T_GatherMergePath:
			return path_uses_gpugb(((GatherMergePath *) path)->subpath);
		case T_SortPath:
		case T_IncrementalSortPath:
			return path_uses_gpugb(((SortPath *) path)->subpath);
		case T_ProjectionPath:
			return path_uses_gpugb(((ProjectionPath *) path)->subpath);
		default:
			return false;
	}
}

/*
 * PostgreSQL's own cheapest grouping path (none of ours below it; a
 * parallel-safe one for the parallel-ingest node), copied:
 * add_path() frees dominated paths, and ours may dominate it, so we keep
 * our own copy of the top node (its subpaths are never freed).
 */
static Path *
copy_fallback_path(RelOptInfo *grouped_rel, bool parallel_safe)
{
	Path	   *best = NULL;
	ListCell   *lc;
	Size		size;
	Path	   *copy;

	foreach(lc, grouped_rel->pathlist)
	{
		Path	   *path = (Path *) lfirst(lc);

		if (!IsA(path, AggPath) && !IsA(path, GroupPath))
			continue;
		if (path_uses_gpugb(path))
			continue;
		/* Below a Gather only a parallel-safe plan (so, no Gather) may go. */
		if (parallel_safe && !path->parallel_safe)
			continue;
		if (best == NULL || path->total_cost < best->total_cost)
			best = path;
	}
	if (best == NULL)
		return NULL;
	size = IsA(best, AggPath) ? sizeof(AggPath) : sizeof(GroupPath);
	copy = palloc(size);
	memcpy(copy, best, size);
	return copy;
}

/*
 * Collects the shape of a grouping target; NULL, or why it is not offloaded.
 */
static const char *
collect_shape(PlannerInfo *root, GroupPathExtraData *extra, PathTarget *target,
			  List *having, GroupingShape *shape)
{
	const char *reason;
	ListCell   *lc;

	memset(shape, 0, sizeof(*shape));
	shape->root = root;
	reason = collect_group_exprs(root, extra, shape);
	if (reason)
		return reason;
	foreach(lc, target->exprs)
		collect_walker((Node *) lfirst(lc), shape);
	collect_walker((Node *) having, shape);
	if (shape->reject == NULL &&
		list_length(gpugb_child_columns(NIL, shape->inputs)) > GPUGB_MAX_INPUTS)
		shape->reject = "too many aggregate input columns";
	return shape->reject;
}

/*
 * The GROUP BY key a pathkey orders by, if the device can order groups by
 * it: a member of the pathkey's equivalence class is the key, the key's
 * device word orders as its type's default btree order does
 * (gpugb_key_kind_orders: no text, whose words are packed bytes or
 * dictionary ids, and so no collation either), and that opfamily is the
 * pathkey's.  -1 otherwise.
 */
static int
pathkey_group_key(PathKey *pk, GroupingShape *shape)
{
	ListCell   *lc;

	if (pk->pk_strategy != BTLessStrategyNumber && pk->pk_strategy != BTGreaterStrategyNumber)
		return -1;
	if (pk->pk_eclass->ec_has_volatile)
		return -1;
	foreach(lc, shape->group_exprs)
	{
		Node	   *expr = (Node *) lfirst(lc);
		Oid			type = exprType(expr);
		GpugbColumnType ctype = gpugb_column_type(type, exprTypmod(expr), true);
		GpugbOrderKind kind;
		TypeCacheEntry *tce;
		ListCell   *lm;

		if (ctype.words != 1 || !gpugb_key_kind_orders(ctype.kind, &kind))
			continue;
		tce = lookup_type_cache(type, TYPECACHE_BTREE_OPFAMILY);
		if (!OidIsValid(tce->btree_opf) || tce->btree_opf != pk->pk_opfamily)
			continue;
		foreach(lm, pk->pk_eclass->ec_members)
		{
			EquivalenceMember *em = (EquivalenceMember *) lfirst(lm);

			if (equal(gpugb_strip_relabel((Node *) em->em_expr), gpugb_strip_relabel(expr)))
				return foreach_current_index(lc);
		}
	}
	return -1;
}

/*
 * The aggregate (its index among shape->aggrefs; *source: by its count or
 * by its value) a pathkey orders by, if the device can order by it: a
 * count(*) or count(x), or a sum, min or max of an integer type; a member
 * of the pathkey's equivalence class is the Aggref, and the pathkey orders
 * by its result type's default btree opfamily.  The device keeps every
 * group's count and integer states exactly, so it can order the groups by
 * them: ORDER BY count(*) DESC LIMIT 10 then needs no
 * Sort over every group, and the node hands out ten rows (fetching groups
 * from the device a chunk at a time, not all of them).  -1 otherwise.
 */
static int
pathkey_agg(PathKey *pk, GroupingShape *shape, int *source)
{
	ListCell   *lc;

	if (pk->pk_strategy != BTLessStrategyNumber && pk->pk_strategy != BTGreaterStrategyNumber)
		return -1;
	if (pk->pk_eclass->ec_has_volatile)
		return -1;
	foreach(lc, shape->aggrefs)
	{
		Aggref	   *aggref = lfirst_node(Aggref, lc);
		const GpugbAggEntry *entry = gpugb_agg_lookup(aggref->aggfnoid);
		TypeCacheEntry *tce;
		ListCell   *lm;

		if (entry == NULL)
			continue;
		/*
		 * A count (int8, never NULL); or an integer sum, min or max, whose
		 * result is the device's value word(s) (a sum of int8: a numeric of
		 * scale 0), NULL without a non-NULL input.
		 */
		if (entry->finish == GPUGB_FINISH_COUNT &&
			(entry->op == GPUGB_AGG_COUNT_STAR || entry->op == GPUGB_AGG_COUNT))
			*source = GPUGB_ORDER_BY_COUNT;
		else if (aggref->aggfnoid == F_SUM_INT2 || aggref->aggfnoid == F_SUM_INT4 ||
				 aggref->aggfnoid == F_SUM_INT8 ||
				 aggref->aggfnoid == F_MIN_INT2 || aggref->aggfnoid == F_MIN_INT4 ||
				 aggref->aggfnoid == F_MIN_INT8 ||
				 aggref->aggfnoid == F_MAX_INT2 || aggref->aggfnoid == F_MAX_INT4 ||
				 aggref->aggfnoid == F_MAX_INT8)
			*source = GPUGB_ORDER_BY_VALUE;
		else
			continue;
		tce = lookup_type_cache(aggref->aggtype, TYPECACHE_BTREE_OPFAMILY);
		if (!OidIsValid(tce->btree_opf) || tce->btree_opf != pk->pk_opfamily)
			continue;
		foreach(lm, pk->pk_eclass->ec_members)
		{
			EquivalenceMember *em = (EquivalenceMember *) lfirst(lm);

			if (equal(gpugb_strip_relabel((Node *) em->em_expr), aggref))
				return foreach_current_index(lc);
		}
	}
	return -1;
}

/*
 * The longest prefix of pathkeys the device can order by (*n_keys of them;
 * at most GPUGB_MAX_KEYS), as GPUGB_PATH_ORDER; NIL if not even the first.
 */
static List *
order_for_pathkeys(List *pathkeys, GroupingShape *shape, int *n_keys)
{
	List	   *order = NIL;
	ListCell   *lc;

	*n_keys = 0;
	foreach(lc, pathkeys)
	{
		PathKey    *pk = (PathKey *) lfirst(lc);
		int			source = GPUGB_ORDER_BY_KEY;
		int			index = pathkey_group_key(pk, shape);

		if (index < 0)
			index = pathkey_agg(pk, shape, &source);
		if (index < 0 || *n_keys == GPUGB_MAX_KEYS)
			break;
		order = lappend(order, makeInteger(source));
		order = lappend(order, makeInteger(index));
		order = lappend(order, makeInteger(pk->pk_strategy == BTGreaterStrategyNumber));
		order = lappend(order, makeInteger(pk->pk_nulls_first ? 1 : 0));
		(*n_keys)++;
	}
	return order;
}

/*
 * The pathkeys an ordered GpuGroupAgg path advertises, with *order, or NIL:
 * only for a query with an ORDER BY that begins with GROUP BY keys or a
 * count (ORDER BY count(*) DESC, ClickBench's top-10 queries).  The
 * GROUP BY pathkeys where the ORDER BY is a prefix of them and the device
 * can order by them all (what PostgreSQL's own sorted grouping gives:
 * useful above too); else the longest prefix of the ORDER BY the device
 * can order by, which may leave PostgreSQL an Incremental Sort to finish
 * (ORDER BY int_key, text_key).
 */
static List *
output_pathkeys(PlannerInfo *root, GroupingShape *shape, List **order)
{
	int			n;

	*order = NIL;
	if (root->sort_pathkeys == NIL || shape->group_exprs == NIL)
		return NIL;
	if (root->group_pathkeys != NIL &&
		pathkeys_contained_in(root->sort_pathkeys, root->group_pathkeys))
	{
		*order = order_for_pathkeys(root->group_pathkeys, shape, &n);
		if (n == list_length(root->group_pathkeys))
			return root->group_pathkeys;
	}
	*order = order_for_pathkeys(root->sort_pathkeys, shape, &n);
	if (n > 0)
		return list_copy_head(root->sort_pathkeys, n);
	ereport(DEBUG1, (errmsg("gpugb: no ordered GpuGroupAgg: the ORDER BY does not begin with a GROUP BY key or a count the device can order by")));
	return NIL;
}

/*
 * The fallback of an ordered path must return the same order, or a failed
 * GPU would give a wrong answer: PostgreSQL's plan as it is if it is
 * sorted so already, else under a Sort.
 */
static Path *
sorted_fallback(PlannerInfo *root, RelOptInfo *grouped_rel, Path *fallback, List *pathkeys)
{
	if (fallback == NULL || pathkeys == NIL ||
		pathkeys_contained_in(pathkeys, fallback->pathkeys))
		return fallback;
	return (Path *) create_sort_path(root, grouped_rel, fallback, pathkeys, -1.0);
}

/*
 * Can a projection on top of path compute a plain column of the query's
 * relations?  A scan or a join reads them itself; but a Gather, for one,
 * passes up only what its workers computed (GROUP BY mod(x, 10) below a
 * Gather yields the mod, not x), and an index-only scan may hold only an
 * expression index's values.
 */
static bool
outputs_plain_columns(Path *path)
{
	if (IsA(path, ProjectionPath))
		path = ((ProjectionPath *) path)->subpath;
	switch (path->pathtype)
	{
		case T_SeqScan:
		case T_SampleScan:
		case T_IndexScan:
		case T_BitmapHeapScan:
		case T_TidScan:
		case T_TidRangeScan:
		case T_NestLoop:
		case T_MergeJoin:
		case T_HashJoin:
			return true;
		default:
			return false;
	}
}

/*
 * A GpuGroupAgg path over input_path (projected here to exactly the columns
 * the device needs), with PostgreSQL's own plan as fallback: fed by one
 * process, or (parallel) by the parallel workers of a Gather above it.
 */
static CustomPath *
make_gpu_path(PlannerInfo *root, RelOptInfo *input_rel, Path *input_path,
			  RelOptInfo *grouped_rel, GroupingShape *shape, List *having,
			  double groups, double rows, Path *fallback, bool parallel,
			  List *pathkeys, List *order)
{
	PathTarget *input_target = create_empty_pathtarget();
	CustomPath *cpath = makeNode(CustomPath);
	ListCell   *lc;
	double		input_rows;
	int			n_values;

	List	   *program_keys = NIL;
	List	   *child_columns;

	/*
	 * Keys the filler computes with a program (hostexpr.c) from their
	 * leaves, which the input projects after the keys (plan.c tells these
	 * keys by their position holding something other than the key).
	 */
	if (outputs_plain_columns(input_path))
		foreach(lc, shape->group_exprs)
		{
			GpugbKeyTransform transform;

			if (gpugb_key_transform(lfirst(lc), &transform) == NULL &&
				gpugb_key_placeholder(lfirst(lc),
									  gpugb_free_numeric_plan_scale(root, lfirst(lc))) != NULL)
				program_keys = lappend(program_keys, lfirst(lc));
		}
	child_columns = gpugb_child_columns(program_keys, shape->inputs);
	if (list_length(child_columns) > GPUGB_MAX_INPUTS)
	{
		program_keys = NIL;
		child_columns = gpugb_child_columns(NIL, shape->inputs);
	}
	foreach(lc, shape->group_exprs)
	{
		GpugbKeyTransform transform;
		Var		   *column = gpugb_key_transform(lfirst(lc), &transform);

		/*
		 * column OP constant: the input projects the column, the filler the
		 * rest (plan.c finds the column in the child's target list).  A
		 * program key's position holds one of its plain columns (the filler
		 * reads its leaves after the keys), so the child computes nothing
		 * for it there.
		 */
		if (column != NULL && outputs_plain_columns(input_path))
			add_column_to_pathtarget(input_target, (Expr *) column, 0);
		else if (list_member_ptr(program_keys, lfirst(lc)))
			add_column_to_pathtarget(input_target,
									 gpugb_key_placeholder(lfirst(lc),
														   gpugb_free_numeric_plan_scale(root, lfirst(lc))),
									 0);
		else
			add_column_to_pathtarget(input_target, (Expr *) lfirst(lc), 0);
	}
	foreach(lc, child_columns)
		add_column_to_pathtarget(input_target, (Expr *) lfirst(lc), 0);
	set_pathtarget_cost_width(root, input_target);
	input_path = (Path *) create_projection_path(root, input_rel, input_path, input_target);

	/* input_rows is per participant for a parallel input. */
	input_rows = input_path->rows;
	n_values = Max(1, list_length(shape->group_exprs) + list_length(shape->inputs));

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = grouped_rel;
	cpath->path.pathtarget = grouped_rel->reltarget;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = parallel;
	cpath->path.parallel_safe = parallel;
	cpath->path.parallel_workers = parallel ? input_path->parallel_workers : 0;
	cpath->path.rows = rows;
	cpath->path.pathkeys = pathkeys;
	/* Nothing comes out before every input row went through the device. */
	cpath->path.startup_cost = input_path->total_cost + gpugb_startup_cost +
		input_rows * n_values * gpugb_tuple_cost;
	/* the device's sort of the groups: two radix passes and a gather per key */
	if (pathkeys != NIL)
		cpath->path.startup_cost += groups * list_length(pathkeys) * 4 * gpugb_tuple_cost;
	cpath->path.total_cost = cpath->path.startup_cost + groups * cpu_tuple_cost;
	cpath->flags = 0;
	cpath->custom_paths = list_make2(input_path, fallback);
	cpath->custom_private = list_make5(shape->group_exprs, shape->aggrefs, having,
									   makeString(psprintf("%.0f", groups)),
									   makeInteger(parallel ? 1 : 0));
	cpath->custom_private = lappend(cpath->custom_private, shape->inputs);
	/* The whole input, not one participant's share: the strategy needs it. */
	cpath->custom_private = lappend(cpath->custom_private,
									makeString(psprintf("%.0f", parallel ? input_rel->rows : input_rows)));
	cpath->custom_private = lappend(cpath->custom_private, order);
	cpath->custom_private = lappend(cpath->custom_private,
									makeInteger(list_length(root->parse->groupClause)));
	cpath->custom_private = lappend(cpath->custom_private,
									makeString(psprintf("%.6f", shape->hot_share)));
	cpath->custom_private = lappend(cpath->custom_private, makeInteger(shape->nulls ? 1 : 0));
	cpath->methods = &gpugb_path_methods;

	ereport(DEBUG1,
			(errmsg("gpugb: GpuGroupAgg costed%s%s: %d keys, %d aggregates, %.0f rows, %.0f groups, cost %.2f",
					parallel ? " (parallel ingest)" : "",
					pathkeys != NIL ? " (ordered output)" : "",
					list_length(shape->group_exprs), list_length(shape->aggrefs),
					input_rows, groups, cpath->path.total_cost)));
	return cpath;
}

/*
 * A Gather-free PostgreSQL plan for the parallel-ingest node to fall back
 * on: PostgreSQL's own cheapest parallel-safe grouping path if it kept one,
 * else a HashAggregate (or plain Aggregate) over the input's cheapest
 * parallel-safe path, built here exactly as PostgreSQL would build it.
 */
static Path *
parallel_safe_fallback(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *grouped_rel,
					   GroupPathExtraData *extra, List *having, double groups)
{
	Query	   *parse = root->parse;
	Path	   *fallback = copy_fallback_path(grouped_rel, true);
	Path	   *input = NULL;
	AggClauseCosts costs;
	ListCell   *lc;

	if (fallback != NULL)
		return fallback;
	if (parse->groupClause != NIL && !(extra->flags & GROUPING_CAN_USE_HASH))
		return NULL;
	foreach(lc, input_rel->pathlist)
	{
		Path	   *path = (Path *) lfirst(lc);

		if (path->parallel_safe && path->param_info == NULL &&
			(input == NULL || path->total_cost < input->total_cost))
			input = path;
	}
	if (input == NULL)
		return NULL;
	MemSet(&costs, 0, sizeof(costs));
	get_agg_clause_costs(root, AGGSPLIT_SIMPLE, &costs);
	return (Path *) create_agg_path(root, grouped_rel, input, grouped_rel->reltarget,
									parse->groupClause ? AGG_HASHED : AGG_PLAIN,
									AGGSPLIT_SIMPLE, parse->groupClause, having,
									&costs, groups);
}

/*
 * Gather <- GpuGroupAgg (parallel ingest) <- parallel input.  Workers fill
 * strides in shared memory; the leader aggregates everything on the GPU and
 * alone returns rows, which Gather passes up.  That needs the leader to run
 * the plan below the Gather, so parallel_leader_participation must be on.
 * Its fallback is PostgreSQL's cheapest parallel-safe (so Gather-free) plan,
 * which the leader alone runs from scratch if the GPU fails half-way.
 */
static Path *
make_parallel_gpu_path(PlannerInfo *root, RelOptInfo *input_rel,
					   RelOptInfo *grouped_rel, GroupPathExtraData *extra,
					   GroupingShape *shape, List *having, double groups, double rows,
					   List *pathkeys, List *order, Path **sorted)
{
	Path	   *input_path;
	Path	   *fallback;
	CustomPath *cpath;
	GatherPath *gather;
	double		gathered = rows;

	*sorted = NULL;

	if (!gpugb_parallel || !parallel_leader_participation ||
		!grouped_rel->consider_parallel || input_rel->partial_pathlist == NIL)
		return NULL;
	if (!is_parallel_safe(root, (Node *) shape->group_exprs) ||
		!is_parallel_safe(root, (Node *) shape->inputs) ||
		!is_parallel_safe(root, (Node *) having) ||
		!is_parallel_safe(root, (Node *) grouped_rel->reltarget->exprs))
	{
		ereport(DEBUG1, (errmsg("gpugb: no parallel GpuGroupAgg: parallel-unsafe expressions")));
		return NULL;
	}
	fallback = parallel_safe_fallback(root, input_rel, grouped_rel, extra, having, groups);
	if (fallback == NULL)
	{
		ereport(DEBUG1, (errmsg("gpugb: no parallel GpuGroupAgg: no parallel-safe plan to fall back on")));
		return NULL;
	}
	input_path = (Path *) linitial(input_rel->partial_pathlist);
	cpath = make_gpu_path(root, input_rel, input_path, grouped_rel, shape, having,
						  groups, rows, fallback, true, NIL, NIL);
	gather = create_gather_path(root, grouped_rel, &cpath->path,
								grouped_rel->reltarget, NULL, &gathered);

	/*
	 * Gather charges parallel_tuple_cost for every row as if it crossed a
	 * tuple queue; here the leader returns every group itself and workers
	 * send none.  Without this correction a GROUP BY with millions of groups
	 * would be planned on the one-process path, several times slower.
	 */
	gather->path.total_cost -= parallel_tuple_cost * gathered;

	/*
	 * Ordered output: Gather Merge over the ordered node merges one sorted
	 * stream, the leader's, with the workers' empty ones, so its output is
	 * the node's order (and its fallback, run by the leader alone, is
	 * sorted too).  Same correction: cost_gather_merge charges 5 % more.
	 */
	if (pathkeys != NIL)
	{
		GatherMergePath *merge;
		double		merged = rows;

		cpath = make_gpu_path(root, input_rel, input_path, grouped_rel, shape, having,
							  groups, rows, sorted_fallback(root, grouped_rel, fallback, pathkeys),
							  true, pathkeys, order);
		merge = create_gather_merge_path(root, grouped_rel, &cpath->path,
										 grouped_rel->reltarget, pathkeys, NULL, &merged);
		merge->path.total_cost -= parallel_tuple_cost * merged * 1.05;
		*sorted = (Path *) merge;
	}
	return (Path *) gather;
}

static void
try_add_gpu_paths(PlannerInfo *root, RelOptInfo *input_rel,
				  RelOptInfo *grouped_rel, GroupPathExtraData *extra)
{
	Query	   *parse = root->parse;
	GroupingShape shape;
	const char *reason;
	List	   *having = (List *) extra->havingQual;
	Path	   *fallback;
	double		groups;
	CustomPath *complete;
	Path	   *parallel;
	List	   *pathkeys;
	List	   *order;
	CustomPath *ordered = NULL;
	Path	   *parallel_ordered = NULL;

	if (parse->groupingSets)
		DECLINE("grouping sets are not supported");
	if (parse->hasTargetSRFs)
		DECLINE("set-returning functions in the target list are not supported");
	reason = collect_shape(root, extra, grouped_rel->reltarget, having, &shape);
	if (reason)
		DECLINE(reason);
	/* once for the query: every path below carries it */
	shape.hot_share = gpugb_estimate_hot_share(root, shape.group_exprs,
											   list_length(parse->groupClause));
	shape.nulls = gpugb_estimate_nulls(root, shape.group_exprs, shape.inputs);
	if (input_rel->cheapest_total_path == NULL)
		DECLINE("the input has no path");
	fallback = copy_fallback_path(grouped_rel, false);
	if (fallback == NULL)
		DECLINE("PostgreSQL found no Agg or Group path to fall back on");

	groups = IsA(fallback, AggPath) ? ((AggPath *) fallback)->numGroups : fallback->rows;
	complete = make_gpu_path(root, input_rel, input_rel->cheapest_total_path, grouped_rel,
							 &shape, having, groups, fallback->rows, fallback, false, NIL, NIL);
	pathkeys = output_pathkeys(root, &shape, &order);
	if (pathkeys != NIL)
		ordered = make_gpu_path(root, input_rel, input_rel->cheapest_total_path, grouped_rel,
								&shape, having, groups, fallback->rows,
								sorted_fallback(root, grouped_rel, fallback, pathkeys),
								false, pathkeys, order);
	parallel = make_parallel_gpu_path(root, input_rel, grouped_rel, extra, &shape, having,
									  groups, fallback->rows, pathkeys, order,
									  &parallel_ordered);

	/*
	 * Where PostgreSQL's own plan is cheaper, add_path would drop ours anyway;
	 * say so before probing the device, so small GROUP BYs never pay for
	 * CUDA's initialization at planning time.  A rough test: our unordered
	 * paths against PostgreSQL's cheapest, and, where we order, our ordered
	 * paths against PostgreSQL's plans with the Sort they would need (a
	 * top-N one under a LIMIT): ORDER BY count(*) DESC LIMIT 10 over many
	 * groups saves PostgreSQL a Sort of every group.
	 */
	if (!gpugb_force)
	{
		Cost		ours = complete->path.total_cost;
		Cost		theirs = -1;
		bool		ordered_cheaper = false;
		ListCell   *lc;

		if (parallel)
			ours = Min(ours, parallel->total_cost);
		foreach(lc, grouped_rel->pathlist)
			if (theirs < 0 || ((Path *) lfirst(lc))->total_cost < theirs)
				theirs = ((Path *) lfirst(lc))->total_cost;
		if (ordered != NULL)
		{
			Cost		ours_sorted = ordered->path.total_cost;
			Cost		theirs_sorted = -1;

			if (parallel_ordered)
				ours_sorted = Min(ours_sorted, parallel_ordered->total_cost);
			foreach(lc, grouped_rel->pathlist)
			{
				Path	   *path = (Path *) lfirst(lc);
				Cost		cost = pathkeys_contained_in(pathkeys, path->pathkeys) ?
					path->total_cost :
					create_sort_path(root, grouped_rel, path, pathkeys,
									 root->limit_tuples)->path.total_cost;

				if (theirs_sorted < 0 || cost < theirs_sorted)
					theirs_sorted = cost;
			}
			ordered_cheaper = theirs_sorted >= 0 && ours_sorted < theirs_sorted;
		}
		if (theirs >= 0 && ours >= theirs && !ordered_cheaper)
			DECLINE(psprintf("PostgreSQL's own plan is cheaper (cost %.2f against %.2f)",
							 theirs, ours));
	}
	/*
	 * While the session's start-up thread is still starting CUDA, plan as
	 * if the device will be there (gpugb_device_starting): the driver's
	 * start-up then overlaps planning, a new session's catalog look-ups and
	 * a parallel plan's first strides.
	 */
	if (!gpugb_plan_without_gpu && !gpugb_device_starting() &&
		gpugb_current_device_ops()->probe() != GPUGB_OK)
		DECLINE(psprintf("no usable GPU (%s)", gpugb_current_device_ops()->description()));

	if (gpugb_force)
	{
		/* Leave the planner only GPU plans to choose from (tests, benchmarks). */
		grouped_rel->pathlist = NIL;
		grouped_rel->partial_pathlist = NIL;
	}
	add_path(grouped_rel, &complete->path);
	if (parallel)
		add_path(grouped_rel, parallel);
	if (ordered)
		add_path(grouped_rel, &ordered->path);
	if (parallel_ordered)
		add_path(grouped_rel, parallel_ordered);
}

static void
gpugb_create_upper_paths(PlannerInfo *root, UpperRelationKind stage,
						 RelOptInfo *input_rel, RelOptInfo *output_rel,
						 void *extra)
{
	if (prev_create_upper_paths_hook)
		prev_create_upper_paths_hook(root, stage, input_rel, output_rel, extra);

	if (stage != UPPERREL_GROUP_AGG || !gpugb_enabled || extra == NULL)
		return;
	/* Partitionwise aggregation calls us for each child grouped rel too. */
	if (output_rel->reloptkind != RELOPT_UPPER_REL)
		return;
	try_add_gpu_paths(root, input_rel, output_rel, (GroupPathExtraData *) extra);
}

void
gpugb_planner_init(void)
{
	prev_create_upper_paths_hook = create_upper_paths_hook;
	create_upper_paths_hook = gpugb_create_upper_paths;
}
