-- FILTER (WHERE ...) and the boolean aggregates.  FILTER folds into the
-- aggregate's input (agg(CASE WHEN c THEN x END)), which the input plan
-- computes unless the filler can (hostexpr.c: integer arguments, conditions
-- comparing a column with constants); bool_and/every and bool_or are the
-- min and max of 0/1.
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

-- Integer arithmetic, integer casts and FILTER conditions that compare a
-- column with constants are computed by the filler (hostexpr.c): the scan
-- projects plain columns only, as its Output shows.
CREATE TABLE fi AS SELECT i % 5 AS k, (i % 300)::int2 AS s,
  CASE WHEN i % 7 = 0 THEN NULL ELSE i - 500 END AS v, i::int8 * 1000003 AS w,
  date '2024-01-01' + (i % 400) AS d, timestamp '2024-01-01' + (i % 97) * interval '1 hour' AS ts
  FROM generate_series(1, 3000) i;
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, sum(v::int8), sum(v * 2 + s), count(*) FILTER (WHERE v > 0 AND 300 >= v),
         sum(CASE WHEN d >= '2024-06-01' THEN w END), max(-s) FILTER (WHERE ts < '2024-01-03')
  FROM fi GROUP BY k;
SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
  ('SELECT k, sum(v::int8), sum(v * 2 + s), avg(v - 7), min(s * 2), max(-v) FROM fi GROUP BY k'),
  ('SELECT k, count(*) FILTER (WHERE v > 0 AND 300 >= v), count(v) FILTER (WHERE v <> 12), sum(s) FILTER (WHERE s = 17) FROM fi GROUP BY k'),
  ('SELECT s % 3, sum(CASE WHEN d >= ''2024-06-01'' THEN w END), count(*) FILTER (WHERE ts < ''2024-01-03''), sum(w * 2) FILTER (WHERE d <> ''2024-01-05'') FROM fi GROUP BY 1'),
  ('SELECT k, sum((s + s)::int4), sum(w - v), count(*) FILTER (WHERE w > 1000003000 AND s > 10 AND v < 1000) FROM fi GROUP BY k'),
  ('SELECT k, bool_and(v > 0) FILTER (WHERE s > 100), sum(1), count(1) FILTER (WHERE k = 2) FROM fi GROUP BY k'),
  -- rows the FILTER leaves out would overflow: PostgreSQL computes nothing for them either
  ('SELECT k, sum(v * 10000000) FILTER (WHERE v < 200 AND v > -200) FROM fi GROUP BY k'),
  -- no column at all: the programs are constants (an empty program once read garbage)
  ('SELECT k, sum(1), max(5), avg(2::int8), bool_or(false), count(1) FROM fi GROUP BY k'),
  ('SELECT count(1), sum(1), min(-3) FROM fi')
) AS t(q);
-- Out of range: the fill stops, PostgreSQL's plan runs and raises its error.
SET gpugb.require_gpu = off;
SELECT k, sum(v * 100000000) FROM fi GROUP BY k;
SELECT k, sum(s * 1000::int2) FROM fi GROUP BY k;
SELECT k, sum(w * 9000000000000) FROM fi GROUP BY k;
SELECT k, sum((w * 1000)::int4) FROM fi GROUP BY k;
-- a CASE inside the arithmetic: PostgreSQL computes the other operand even
-- where the CASE is NULL, and raises (the overflow is in those rows only)
SELECT k, sum(CASE WHEN v < 200 THEN 1 END + (v - 200) * 1000000) FROM fi GROUP BY k;
RESET gpugb.require_gpu;
