-- Plan choice: GpuGroupAgg where it pays, PostgreSQL's own plan elsewhere,
-- and a DEBUG1 reason for every shape gpugb does not offload.
LOAD 'gpugb';
SET max_parallel_workers_per_gather = 0;

CREATE TABLE plan_small AS SELECT i % 10 AS k, i AS v FROM generate_series(1, 100) i;
CREATE TABLE plan_big AS
  SELECT i % 1000 AS k, i % 7 AS k2, i AS v, i::text AS t FROM generate_series(1, 600000) i;
CREATE TABLE plan_dim AS SELECT i AS k, i % 3 AS c FROM generate_series(0, 999) i;
ANALYZE plan_small, plan_big, plan_dim;

-- Small input: the set-up cost of the GPU does not pay.
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM plan_small GROUP BY k;
-- Large input: GpuGroupAgg; PostgreSQL's own plan is kept as the fallback.
EXPLAIN (COSTS OFF) SELECT k, count(*), sum(v) FROM plan_big GROUP BY k;
-- gpugb.enabled = off gives PostgreSQL's plan back.
SET gpugb.enabled = off;
EXPLAIN (COSTS OFF) SELECT k, count(*), sum(v) FROM plan_big GROUP BY k;
RESET gpugb.enabled;
-- The costs are knobs.
SET gpugb.startup_cost = 1e9;
EXPLAIN (COSTS OFF) SELECT k, count(*), sum(v) FROM plan_big GROUP BY k;
RESET gpugb.startup_cost;

-- Every input plan works: aggregates without GROUP BY, a filter, a join,
-- a subquery, expressions the input plan computes, HAVING.
EXPLAIN (COSTS OFF) SELECT count(*), sum(v), min(v) FROM plan_big;
EXPLAIN (COSTS OFF) SELECT k % 7, count(v) FROM plan_big WHERE v > 10 GROUP BY 1;
EXPLAIN (COSTS OFF)
  SELECT b.c, count(*), max(a.v) FROM plan_big a JOIN plan_dim b ON a.k = b.k
  GROUP BY b.c HAVING count(*) > 10;
EXPLAIN (COSTS OFF)
  SELECT s.k, avg(s.w) FROM (SELECT k, v * 2 AS w FROM plan_big) s GROUP BY s.k;
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k + 1, count(*) * 2, sum(v) + 1 FROM plan_big GROUP BY k HAVING max(v) > 5;

-- Not offloaded, with the reason.
SET client_min_messages = debug1;
-- (a small input is declined on cost before the device is even probed)
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM plan_small GROUP BY k;
EXPLAIN (COSTS OFF) SELECT int4range(k, k + 1), count(*) FROM plan_big GROUP BY 1;
EXPLAIN (COSTS OFF) SELECT k, count(DISTINCT v) FROM plan_big GROUP BY k;
EXPLAIN (COSTS OFF) SELECT k, string_agg(t, ',') FROM plan_big GROUP BY k;
EXPLAIN (COSTS OFF) SELECT k, sum(v) FILTER (WHERE random() > 0.5) FROM plan_big GROUP BY k;
EXPLAIN (COSTS OFF) SELECT k, k2, count(*) FROM plan_big GROUP BY GROUPING SETS ((k), (k2));
EXPLAIN (COSTS OFF) SELECT k, sum(v::numeric / 3) FROM plan_big GROUP BY k;
EXPLAIN (COSTS OFF) SELECT (random() * 10)::int, count(*) FROM plan_big GROUP BY 1;
RESET client_min_messages;
