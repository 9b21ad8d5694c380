/*-------------------------------------------------------------------------
 * skew_estimate.c
 *    The planner's estimate of the largest group's share of the rows, from
 *    the GROUP BY keys' statistics (pg_statistic's most-common-values
 *    frequencies and NULL fraction), for the strategy heuristics.
 *
 * Why: a hot group decides the strategy (heuristics.c: the hot-share rules).
 * Without an estimate the node starts from the uniform case and learns the
 * skew only at the run-time check, after its first launch; on the H200 the
 * first launch in global_hash cost auto 21-25 % at Zipf 1.5 over 2^12
 * groups with one payload (kernel benchmark, session 25).  ANALYZE already
 * knows the most common values, so a table with statistics can start right.
 *
 * For keys that are columns of one table with multi-column MCV statistics
 * on exactly them (CREATE STATISTICS ... (mcv)), the estimate is that list's
 * largest frequency.  Otherwise it is the product of each key's largest
 * share (its most common value's frequency, or its NULL fraction if
 * larger), PostgreSQL's usual assumption of independent columns.
 * Correlated keys then read as less skewed than they are, which leaves the
 * choice to the run-time check, as without statistics.  A key with no
 * statistics (an expression, a table never analyzed) makes the estimate
 * unknown: 0.  The statistics are the whole table's: a WHERE clause or a
 * join that removes the hot value (k IS NOT NULL over a mostly-NULL k)
 * still reads as hot, and the run-time check then corrects the strategy,
 * as it does a wrong group estimate.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_statistic_ext.h"
#include "miscadmin.h"
#include "nodes/bitmapset.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "statistics/statistics.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "gpugb.h"

/* The largest share of the rows one value of expr (or NULL) has; -1 if its statistics do not say. */
static double
key_largest_share(PlannerInfo *root, Node *expr)
{
	VariableStatData vardata;
	double		share = -1;

	examine_variable(root, expr, 0, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple))
	{
		Form_pg_statistic stats = (Form_pg_statistic) GETSTRUCT(vardata.statsTuple);
		AttStatsSlot sslot;

		/*
		 * No MCV list: ANALYZE found no value more common than the average,
		 * so only NULLs can make a hot group.
		 */
		share = stats->stanullfrac;
		if (get_attstatsslot(&sslot, vardata.statsTuple, STATISTIC_KIND_MCV, InvalidOid,
							 ATTSTATSSLOT_NUMBERS))
		{
			for (int i = 0; i < sslot.nnumbers; i++)
				share = Max(share, (double) sslot.numbers[i]);
			free_attstatsslot(&sslot);
		}
	}
	ReleaseVariableStats(vardata);
	return share;
}

/*
 * Whether the query's user may read the columns, as PostgreSQL asks before
 * it uses multi-column statistics (extended_stats.c): SELECT on the table,
 * or on each column.  The frequencies name no values, but the statistics
 * object is the table owner's.  (A query that runs has those rights
 * anyway, a view's through its owner: this matters only if planning ever
 * comes without the executor's permission check.)
 */
static bool
may_read_columns(RangeTblEntry *rte, Bitmapset *attnums)
{
	Oid			userid = OidIsValid(rte->checkAsUser) ? rte->checkAsUser : GetUserId();
	int			attnum = -1;

	if (rte->rtekind != RTE_RELATION)
		return false;
	if (pg_class_aclcheck(rte->relid, userid, ACL_SELECT) == ACLCHECK_OK)
		return true;
	while ((attnum = bms_next_member(attnums, attnum)) >= 0)
		if (pg_attribute_aclcheck(rte->relid, (AttrNumber) attnum, userid, ACL_SELECT) != ACLCHECK_OK)
			return false;
	return true;
}

/*
 * The largest frequency of a multi-column MCV list (CREATE STATISTICS ...
 * (mcv)) on exactly the keys' columns, which sees correlated keys as they
 * are; -1 if the keys are not two or more columns of one table with such
 * statistics.
 */
static double
keys_mcv_share(PlannerInfo *root, List *keys)
{
	Bitmapset  *attnums = NULL;
	Index		relid = 0;
	RelOptInfo *rel;
	RangeTblEntry *rte;
	ListCell   *lc;

	foreach(lc, keys)
	{
		Var		   *var = (Var *) lfirst(lc);

		if (!IsA(var, Var) || var->varlevelsup != 0 || var->varattno <= 0 ||
			(relid != 0 && (Index) var->varno != relid))
			return -1;
		relid = var->varno;
		attnums = bms_add_member(attnums, var->varattno);
	}
	if (bms_num_members(attnums) < 2 || relid >= (Index) root->simple_rel_array_size ||
		root->simple_rel_array[relid] == NULL)
		return -1;
	rel = root->simple_rel_array[relid];
	rte = planner_rt_fetch(relid, root);
	if (!may_read_columns(rte, attnums))
		return -1;
	foreach(lc, rel->statlist)
	{
		StatisticExtInfo *info = (StatisticExtInfo *) lfirst(lc);
		MCVList    *mcv;
		double		share = 0;

		if (info->kind != STATS_EXT_MCV || info->inherit != rte->inh || info->exprs != NIL ||
			!bms_equal(info->keys, attnums))
			continue;
		mcv = statext_mcv_load(info->statOid, rte->inh);
		for (uint32 i = 0; i < mcv->nitems; i++)
			share = Max(share, mcv->items[i].frequency);
		return share;
	}
	return -1;
}

double
gpugb_estimate_hot_share(PlannerInfo *root, List *group_exprs, int n_query_keys)
{
	double		share = 1;
	double		mcv_share;
	List	   *keys;
	ListCell   *lc;

	if (group_exprs == NIL || n_query_keys <= 0)
		return 0;				/* no GROUP BY: one group, no skew to know */
	/* Keys beyond the GROUP BY's depend on them: they split no group. */
	keys = list_truncate(list_copy(group_exprs), n_query_keys);
	mcv_share = keys_mcv_share(root, keys);
	if (mcv_share >= 0)
		return Min(mcv_share, 1.0);
	foreach(lc, keys)
	{
		double		key_share = key_largest_share(root, (Node *) lfirst(lc));

		if (key_share < 0)
			return 0;
		share *= key_share;
	}
	return Min(Max(share, 0.0), 1.0);
}

/* Whether expr's own statistics show NULLs (stanullfrac above 0); no statistics: false. */
static bool
stats_show_nulls(PlannerInfo *root, Node *expr)
{
	VariableStatData vardata;
	bool		nulls = false;

	examine_variable(root, expr, 0, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple))
		nulls = ((Form_pg_statistic) GETSTRUCT(vardata.statsTuple))->stanullfrac > 0;
	ReleaseVariableStats(vardata);
	return nulls;
}

/*
 * expression_tree_walker callback: a NULLIF, or a CASE with no ELSE or a
 * NULL one, which gives NULL for some rows whatever its inputs (an
 * aggregate's FILTER folds into such a CASE: gpugb_aggref_input).
 */
static bool
makes_nulls_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, NullIfExpr))
		return true;
	if (IsA(node, CaseExpr))
	{
		Expr	   *otherwise = ((CaseExpr *) node)->defresult;

		if (otherwise == NULL || (IsA(otherwise, Const) && ((Const *) otherwise)->constisnull))
			return true;
	}
	return expression_tree_walker(node, makes_nulls_walker, context);
}

/* A COALESCE with a non-NULL constant among its arguments: never NULL, whatever the others are. */
static bool
coalesce_never_null(CoalesceExpr *coalesce)
{
	ListCell   *lc;

	foreach(lc, coalesce->args)
	{
		Node	   *arg = (Node *) lfirst(lc);

		if (IsA(arg, Const) && !((Const *) arg)->constisnull)
			return true;
	}
	return false;
}

/*
 * expression_tree_walker callback: the Vars of an expression whose NULLs
 * can reach its value, into *vars: not those under a COALESCE that is never
 * NULL (COALESCE(v, 0)).
 */
static bool
null_source_vars_walker(Node *node, List **vars)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		*vars = lappend(*vars, node);
		return false;
	}
	if (IsA(node, CoalesceExpr) && coalesce_never_null((CoalesceExpr *) node))
		return false;
	return expression_tree_walker(node, null_source_vars_walker, vars);
}

/*
 * Whether the scan of var's relation keeps only rows where var is not NULL:
 * one of the relation's restrictions is false or NULL where var is NULL
 * (find_nonnullable_vars: WHERE v IS NOT NULL, WHERE v > 0).  A relation an
 * outer join can null never gets here (expr_may_be_null).
 */
static bool
quals_exclude_nulls(PlannerInfo *root, Var *var)
{
	RelOptInfo *rel;
	ListCell   *lc;

	if (var->varlevelsup != 0 || var->varno <= 0 || var->varno >= root->simple_rel_array_size)
		return false;
	rel = root->simple_rel_array[var->varno];
	if (rel == NULL || rel->reloptkind != RELOPT_BASEREL)
		return false;
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
#if PG_VERSION_NUM >= 160000
#error "find_nonnullable_vars returns a multibitmapset from PostgreSQL 16: read it with mbms_is_member"
#endif
		List	   *nonnullable = find_nonnullable_vars((Node *) rinfo->clause);
		bool		found = false;
		ListCell   *vc;

		foreach(vc, nonnullable)
		{
			Var		   *v = (Var *) lfirst(vc);

			if (v->varno == var->varno && v->varattno == var->varattno && v->varlevelsup == 0)
			{
				found = true;
				break;
			}
		}
		list_free(nonnullable);
		if (found)
			return true;
	}
	return false;
}

/*
 * Whether expr may be NULL in some rows, as far as the plan can tell: it
 * reads a relation an outer join can null (root->nullable_baserels); it
 * makes NULLs itself (makes_nulls_walker); or the statistics show NULLs in
 * it or in a column whose NULLs reach it (null_source_vars_walker) and that
 * the relation's restrictions do not filter out (quals_exclude_nulls).
 * Without statistics a column counts as without NULLs, as before session
 * 43.  Errs towards NULLs otherwise (a function may return NULL for a
 * column with some, and COALESCE(v, w) counts v's), which costs only the
 * lean kernel's speed.
 */
static bool
expr_may_be_null(PlannerInfo *root, Node *expr)
{
	List	   *vars = NIL;
	ListCell   *lc;
	bool		nulls = false;

	if (bms_overlap(pull_varnos(root, expr), root->nullable_baserels) ||
		makes_nulls_walker(expr, NULL))
		return true;
	/* A column through a binary-compatible cast (varchar as text) is the column. */
	while (IsA(expr, RelabelType))
		expr = (Node *) ((RelabelType *) expr)->arg;
	/* An expression's own statistics (an index on it); a column's are read below, with its quals. */
	if (!IsA(expr, Var) && stats_show_nulls(root, expr))
		return true;
	(void) null_source_vars_walker(expr, &vars);
	foreach(lc, vars)
	{
		Var		   *var = (Var *) lfirst(lc);

		if (!quals_exclude_nulls(root, var) && stats_show_nulls(root, (Node *) var))
		{
			nulls = true;
			break;
		}
	}
	list_free(vars);
	return nulls;
}

/*
 * Whether a GROUP BY key or an aggregate's input may be NULL
 * (expr_may_be_null).  A launch with NULLs there does not move its rows,
 * so PARTITION runs its generic kernel, not the lean one
 * (cuda/partition_strategy.cu): the planned strategy must not count on the
 * lean kernel (src/heuristics.c, partition_lean_pays).
 */
bool
gpugb_estimate_nulls(PlannerInfo *root, List *group_exprs, List *inputs)
{
	ListCell   *lc;

	foreach(lc, group_exprs)
		if (expr_may_be_null(root, (Node *) lfirst(lc)))
			return true;
	foreach(lc, inputs)
		if (expr_may_be_null(root, (Node *) lfirst(lc)))
			return true;
	return false;
}
