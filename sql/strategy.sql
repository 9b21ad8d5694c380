-- gpugb.strategy: every forced strategy gives PostgreSQL's results; auto
-- plans from the estimates and corrects the choice at run time from what the
-- first two strides show.  (In emulator mode the aggregation is the same for
-- every strategy, but the decisions and the stats are the device's.)
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

SHOW gpugb.strategy;
SET gpugb.strategy = 'hash';

CREATE TABLE st AS SELECT
  i AS x,
  (CASE WHEN i % 17 = 0 THEN NULL ELSE i % 7 END)::int4 AS k,
  (CASE WHEN i % 13 = 0 THEN NULL ELSE i % 3 END)::int2 AS k2,
  (CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 7919) % 100003 - 50000 END)::int8 AS v,
  (CASE WHEN i % 9 = 0 THEN NULL ELSE (i % 4096) * 0.25 - 100 END)::float8 AS f,
  (CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 1000) * 0.01 END)::numeric(10, 2) AS n
FROM generate_series(1, 50000) i;
ANALYZE st;

-- The GpuGroupAgg node of a query's EXPLAIN (ANALYZE) as JSON.
CREATE FUNCTION strategy_node(query text, with_analyze bool) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  plan jsonb;
BEGIN
  EXECUTE format('EXPLAIN (ANALYZE %s, FORMAT JSON) %s',
                 CASE WHEN with_analyze THEN 'on' ELSE 'off' END, query) INTO plan;
  RETURN jsonb_path_query_first(plan, 'strict $.**? (@."Custom Plan Provider" == "GpuGroupAgg")');
END $$;

-- One query under one strategy (and stride size): the planned and the used
-- strategy, the switches, and the rows that differ from PostgreSQL's result.
CREATE FUNCTION strategy_run(strategy text, query text, stride int)
RETURNS TABLE (planned text, used text, switches int, mismatches bigint)
LANGUAGE plpgsql AS $$
DECLARE
  node jsonb;
BEGIN
  PERFORM set_config('gpugb.strategy', strategy, true);
  PERFORM set_config('gpugb.stride_rows', stride::text, true);
  node := strategy_node(query, true);
  planned := node->>'Strategy';
  used := node->>'Strategy Used';
  switches := (node->>'Strategy Switches')::int;
  mismatches := gpugb_mismatches(query);
  RETURN NEXT;
END $$;

CREATE TABLE strategy_queries (id int, stride int, q text);
INSERT INTO strategy_queries VALUES
  -- int key with NULLs, integer aggregates (sum(int8) beyond int64 is numeric)
  (1, 1048576, 'SELECT k, count(*), count(v), sum(v), min(v), max(v), avg(v) FROM st GROUP BY k'),
  -- several keys, float and numeric aggregates
  (2, 1048576, 'SELECT k, k2, x % 5, count(*), sum(f), avg(f), min(f), max(f), sum(n), avg(n) FROM st GROUP BY 1, 2, 3'),
  -- no GROUP BY
  (3, 1048576, 'SELECT count(*), sum(v), avg(v), min(f), max(f), sum(n) FROM st'),
  -- no GROUP BY, no rows
  (4, 1048576, 'SELECT count(*), sum(v), max(f) FROM st WHERE x < 0'),
  -- many groups, many strides (49)
  (5, 1024, 'SELECT x % 20000, count(*), sum(v), max(f), avg(n) FROM st GROUP BY 1'),
  -- every row its own group, 13 strides
  (6, 4096, 'SELECT x, k, sum(v), min(f) FROM st GROUP BY x, k'),
  -- HAVING over groups that span strides
  (7, 2048, 'SELECT x % 300, k2, count(*), sum(v) FROM st GROUP BY 1, 2 HAVING count(*) > 50');

-- Each forced strategy: planned and used as forced (but sort and partition
-- without GROUP BY, nothing to sort or partition by, run as global_hash),
-- never switched, and the results are PostgreSQL's.
SELECT s AS strategy, id, r.*
  FROM unnest(ARRAY['global_hash', 'shared_hash', 'sort', 'partition', 'private_hash']) s,
       strategy_queries, LATERAL strategy_run(s, q, stride) r
 ORDER BY s, id;

-- auto, the same queries: results are PostgreSQL's whatever it chose.
SELECT id, r.mismatches
  FROM strategy_queries, LATERAL strategy_run('auto', q, stride) r
 ORDER BY id;

-- auto plans from the planner's estimates: few groups fit a block's
-- shared-memory table, many do not.
RESET gpugb.stride_rows;
EXPLAIN (COSTS OFF) SELECT k, count(*), sum(v) FROM st GROUP BY k;
EXPLAIN (COSTS OFF) SELECT x, count(*), sum(v) FROM st GROUP BY x;

-- Why (with COSTS: the reason restates estimates and the device's sizes;
-- numbers masked here so the output does not depend on the GPU model).
CREATE FUNCTION strategy_lines(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN ' || query
  LOOP
    CONTINUE WHEN line !~ 'Strategy';
    RETURN NEXT regexp_replace(line, '\m[0-9]+(\.[0-9]+)?', 'N', 'g');
  END LOOP;
END $$;
SELECT strategy_lines('SELECT k, count(*), sum(v) FROM st GROUP BY k');
SELECT strategy_lines('SELECT count(*), sum(v) FROM st');
-- A min beside them: not the lean kernel's aggregates, so private states.
SELECT strategy_lines('SELECT count(*), sum(v), min(v) FROM st');
SELECT strategy_lines('SELECT x, count(*), sum(v) FROM st GROUP BY x');
SET gpugb.strategy = sort;
SELECT strategy_lines('SELECT k, count(*), sum(v) FROM st GROUP BY k');
-- partition (Wu et al. PGB-TR) forced: EXPLAIN names it.
SET gpugb.strategy = partition;
EXPLAIN (COSTS OFF) SELECT x % 20000, count(*), sum(v) FROM st GROUP BY 1;
SELECT strategy_lines('SELECT k, count(*), sum(v) FROM st GROUP BY k');
RESET gpugb.strategy;

-- Run-time correction.  PostgreSQL estimates GROUP BY x % 1000 at as many
-- groups as x has values (50000): auto plans a global table.  The first
-- two of 7 strides, 8192 rows each, show 1000 groups, 16 rows each: the key
-- domain is mostly seen, so the device switches to the shared-memory table
-- (the check comes before the third stride, on the GPU and in the emulator).
SET gpugb.stride_rows = 8192;
SELECT (strategy_node('SELECT x % 1000, count(*) FROM st GROUP BY 1', false)->>'Estimated Groups')::float8
  >= 10 * 1000 AS estimate_far_too_high;
CREATE FUNCTION strategy_analyze(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query
  LOOP
    CONTINUE WHEN line !~ '(Strategy|Groups)';
    RETURN NEXT line;
  END LOOP;
END $$;
SELECT strategy_analyze('SELECT x % 1000, count(*) FROM st GROUP BY 1');
SELECT gpugb_mismatches('SELECT x % 1000, count(*) FROM st GROUP BY 1') AS mismatches;
-- All distinct: 16384 groups in 16384 rows, so as many groups as rows
-- (50000): no switch.
SELECT l AS plan FROM gpugb_explain_analyze('SELECT x, count(*) FROM st GROUP BY 1') AS l
 WHERE l ~ '(Strategy|Groups)';
-- Skew: half the rows in one group, the rest distinct.  An expression of
-- the key has no statistics, so the planner cannot see it.  Until session 45
-- it planned global_hash, and the check moved to the shared-memory table on
-- seeing the largest group hold half the rows.  The estimate (under 19370
-- groups of one sum) now plans shared_hash's table indexed by group id
-- (src/heuristics.c, gpugb_lean_gid_pays) from the start, and after the
-- check each launch keeps the hot group in a keyed table instead: no switch.
CREATE TABLE skewed AS
  SELECT CASE WHEN i % 2 = 0 THEN 0 ELSE i END AS k, i AS v FROM generate_series(1, 50000) i;
ANALYZE skewed;
SELECT strategy_analyze('SELECT k % 1000000, count(*), sum(v) FROM skewed GROUP BY 1');
SELECT gpugb_mismatches('SELECT k % 1000000, count(*), sum(v) FROM skewed GROUP BY 1') AS mismatches;
-- The column itself has statistics: its most common value holds half the
-- rows (src/skew_estimate.c), so the plan starts in shared_hash and the
-- check keeps it.  EXPLAIN (COSTS) shows the estimate.
SELECT (strategy_node('SELECT k, count(*), sum(v) FROM skewed GROUP BY k', false)
        ->>'Estimated Largest Group Share')::float8 BETWEEN 45 AND 55 AS largest_group_about_half;
SELECT strategy_analyze('SELECT k, count(*), sum(v) FROM skewed GROUP BY k');
SELECT gpugb_mismatches('SELECT k, count(*), sum(v) FROM skewed GROUP BY k') AS mismatches;
-- Two keys: the product of their largest shares (independent columns).
-- An expression key (v % 2) has no statistics, so the estimate is unknown
-- and not shown; k (a half) with a column of three values (a third each):
-- a sixth, about 17 %.
SELECT strategy_node('SELECT k, v % 2, count(*) FROM skewed GROUP BY 1, 2', false)
       ->>'Estimated Largest Group Share' AS unknown_with_an_expression_key;
CREATE TABLE skewed2 AS SELECT k, (v % 3)::int2 AS k2, v FROM skewed;
ANALYZE skewed2;
SELECT round((strategy_node('SELECT k, k2, count(*) FROM skewed2 GROUP BY 1, 2', false)
        ->>'Estimated Largest Group Share')::numeric / 5) * 5 AS largest_group_percent_to_5;
-- Correlated keys: k2 is 0 wherever k is, so (0, 0) holds half the rows,
-- but the product of the columns' shares reads a half times k2's two
-- thirds: a third.  Multi-column MCV statistics on exactly the keys give
-- the half.
CREATE TABLE skewcorr AS
  SELECT k, (CASE WHEN k = 0 THEN 0 ELSE v % 3 END)::int2 AS k2, v FROM skewed;
ANALYZE skewcorr;
SELECT round((strategy_node('SELECT k, k2, count(*) FROM skewcorr GROUP BY 1, 2', false)
        ->>'Estimated Largest Group Share')::numeric / 5) * 5 AS independent_percent_to_5;
CREATE STATISTICS skewcorr_mcv (mcv) ON k, k2 FROM skewcorr;
ANALYZE skewcorr;
SELECT round((strategy_node('SELECT k, k2, count(*) FROM skewcorr GROUP BY 1, 2', false)
        ->>'Estimated Largest Group Share')::numeric / 5) * 5 AS mcv_statistics_percent_to_5;
-- ...but not for more keys than the list's columns: the product again,
-- here 0 (v is distinct), so nothing is shown rather than the list's half.
SELECT strategy_node('SELECT k, k2, v, count(*) FROM skewcorr GROUP BY 1, 2, 3', false)
       ->>'Estimated Largest Group Share' IS NULL AS superset_not_from_the_mcv_list;
SELECT gpugb_mismatches('SELECT k, k2, count(*) FROM skewcorr GROUP BY 1, 2') AS mismatches;
-- NULL keys form a group too: a key NULL in 60 % of the rows is that hot.
CREATE TABLE nullskew AS
  SELECT CASE WHEN i % 5 < 3 THEN NULL ELSE i END AS k, i AS v FROM generate_series(1, 50000) i;
ANALYZE nullskew;
SELECT round((strategy_node('SELECT k, count(*), sum(v) FROM nullskew GROUP BY k', false)
        ->>'Estimated Largest Group Share')::numeric / 5) * 5 AS null_group_percent_to_5;
SELECT gpugb_mismatches('SELECT k, count(*), sum(v) FROM nullskew GROUP BY k') AS mismatches;
-- Counts and integer sums over more groups than a block's lean table holds:
-- from a group of 5 % on (GPUGB_PARTIAL_LEAN_HOT_SHARE) the blocks keep the
-- hot groups in a partial lean table and defer the other rows (while the
-- global table stays within L2, as here); at 3 % they do not.  90000 groups:
-- more than the group-id table's ranges hold (4 of 16640 ids on the H200:
-- src/heuristics.c, gpugb_lean_gid_split_ranges), which take fewer.
CREATE TABLE skew10 AS
  SELECT CASE WHEN i % 10 = 0 THEN 0 ELSE i END AS k, i AS v FROM generate_series(1, 100000) i;
CREATE TABLE skew3 AS
  SELECT CASE WHEN i % 33 = 0 THEN 0 ELSE i END AS k, i AS v FROM generate_series(1, 100000) i;
ANALYZE skew10;
ANALYZE skew3;
SELECT n->>'Strategy' AS strategy,
       n->>'Strategy Reason' LIKE '%blocks keep the hot groups%' AS partial_lean_table
  FROM strategy_node('SELECT k, count(*), sum(v) FROM skew10 GROUP BY k', false) n;
SELECT strategy_analyze('SELECT k, count(*), sum(v) FROM skew10 GROUP BY k');
SELECT gpugb_mismatches('SELECT k, count(*), sum(v) FROM skew10 GROUP BY k') AS mismatches;
SELECT n->>'Strategy Reason' LIKE '%blocks keep the hot groups%' AS partial_lean_table
  FROM strategy_node('SELECT k, count(*), sum(v) FROM skew3 GROUP BY k', false) n;
SELECT gpugb_mismatches('SELECT k, count(*), sum(v) FROM skew3 GROUP BY k') AS mismatches;
-- 40000 groups of a count and one integer sum, without a very hot group:
-- more than one sum's group-id table holds (19370), so the table once a sum
-- and group range (ranges of 16640 ids).
CREATE TABLE ranges40 AS
  SELECT i % 40000 AS k, (i % 1000)::int AS v FROM generate_series(1, 120000) i;
ANALYZE ranges40;
SELECT n->>'Strategy' AS strategy,
       n->>'Strategy Reason' LIKE '%indexed by group id, in % group ranges%' AS group_ranges
  FROM strategy_node('SELECT k, count(*), sum(v) FROM ranges40 GROUP BY k', false) n;
SELECT gpugb_mismatches('SELECT k, count(*), sum(v) FROM ranges40 GROUP BY k') AS mismatches;
-- A forced strategy is never corrected: no check, no switch.
SET gpugb.strategy = global_hash;
SELECT strategy_analyze('SELECT x % 1000, count(*) FROM st GROUP BY 1');
-- ...whatever the statistics say of the skew: forced global_hash stays.
SELECT strategy_analyze('SELECT k, count(*), sum(v) FROM skewed GROUP BY k');
SELECT gpugb_mismatches('SELECT k, count(*), sum(v) FROM skewed GROUP BY k') AS mismatches;
SET gpugb.strategy = sort;
SELECT strategy_analyze('SELECT x % 1000, count(*) FROM st GROUP BY 1');
SET gpugb.strategy = partition;
SELECT strategy_analyze('SELECT x % 1000, count(*) FROM st GROUP BY 1');
SELECT gpugb_mismatches('SELECT x % 1000, k2, count(*), sum(v), min(f), max(n) FROM st GROUP BY 1, 2') AS mismatches;
RESET gpugb.strategy;
RESET gpugb.stride_rows;
