-- FILTER (WHERE ...) and the boolean aggregates.  FILTER folds into the
-- aggregate's input (agg(CASE WHEN c THEN x END)), which the input plan
-- computes; bool_and/every and bool_or are the min and max of 0/1.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE fb AS SELECT i % 5 AS k,
  CASE WHEN i % 7 = 0 THEN NULL ELSE i - 500 END AS v,
  CASE WHEN i % 11 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
  ((i % 4) * 0.25)::float8 AS x
  FROM generate_series(1, 1000) i;

EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, count(*) FILTER (WHERE v > 0), sum(x) FILTER (WHERE b), bool_and(b), bool_or(v > 400)
  FROM fb GROUP BY k;

SELECT k, count(*) FILTER (WHERE v > 0) AS pos, count(v) FILTER (WHERE b) AS cb,
       sum(v) FILTER (WHERE b IS NULL) AS s_nullb, avg(v) FILTER (WHERE v < 0) AS a_neg,
       sum(x) FILTER (WHERE b), min(v) FILTER (WHERE x = 0.5), max(v) FILTER (WHERE false)
  FROM fb GROUP BY k ORDER BY k;
SELECT k, bool_and(b), bool_or(b), every(v IS NOT NULL), bool_and(v > -500), bool_or(v > 499),
       bool_and(b) FILTER (WHERE b)
  FROM fb GROUP BY k ORDER BY k;
SELECT count(*) FILTER (WHERE v > 0), bool_and(b), bool_or(b) FILTER (WHERE v IS NULL) FROM fb;
SELECT count(*) FILTER (WHERE v > 0), bool_and(b), sum(v) FILTER (WHERE b) FROM fb WHERE k < 0;

SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k, count(*) FILTER (WHERE v > 0), count(v) FILTER (WHERE b), sum(v) FILTER (WHERE b IS NULL), avg(v) FILTER (WHERE v < 0), sum(x) FILTER (WHERE b), min(v) FILTER (WHERE x = 0.5), max(v) FILTER (WHERE false) FROM fb GROUP BY k'),
  ('SELECT k, bool_and(b), bool_or(b), every(v IS NOT NULL), bool_and(v > -500), bool_or(v > 499) FROM fb GROUP BY k'),
  ('SELECT b, count(*) FILTER (WHERE k = 1), sum(v) FILTER (WHERE k = 1) FROM fb GROUP BY b HAVING count(*) FILTER (WHERE v > 0) > 10'),
  ('SELECT count(*) FILTER (WHERE v > 0), bool_and(b), sum(v) FILTER (WHERE b) FROM fb WHERE k < 0')
) AS t(q);

-- A volatile FILTER is not offloaded.
SET client_min_messages = debug1;
EXPLAIN (COSTS OFF) SELECT k, count(*) FILTER (WHERE random() > 2) FROM fb GROUP BY k;
RESET client_min_messages;

SELECT gpu_runs > 5 AS gpu_path_taken, fallbacks = 0 AS no_fallback FROM gpugb_backend_stats();
