-- Conditions, CASE ... ELSE and COALESCE computed by the filler
-- (hostexpr.c): comparisons of columns with constants or with each other,
-- numeric(p, s) comparisons, IN and NOT IN lists, IS [NOT] NULL, under AND
-- and OR, as FILTERs and as CASE tests; CASE with ELSE and COALESCE of
-- integer results; FILTERed and picked float, date and timestamp values.
-- The scan then projects plain columns, as each EXPLAIN's Output shows.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE fc AS SELECT i % 5 AS k,
  CASE WHEN i % 7 = 0 THEN NULL ELSE i - 1500 END AS v,
  (i * 7919 % 1000)::int2 AS s,
  CASE WHEN i % 13 = 0 THEN NULL ELSE i::int8 * 1000003 END AS w,
  date '2024-01-01' + (i % 400) AS d,
  CASE WHEN i % 17 = 0 THEN NULL ELSE date '2024-01-01' + (i * 31 % 400) END AS d2,
  timestamp '2024-01-01' + (i % 97) * interval '1 hour' AS ts,
  CASE WHEN i % 19 = 0 THEN NULL WHEN i % 101 = 0 THEN 'NaN'::float8 ELSE (i % 40) * 0.25 END AS x,
  (i % 9 * 0.5)::float4 AS f4,
  CASE WHEN i % 23 = 0 THEN NULL WHEN i % 211 = 0 THEN 'NaN'::numeric
       ELSE ((i * 37 % 2000) - 1000) * 0.01 END::numeric(12, 2) AS p,
  CASE WHEN i % 11 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
  'a' || (i % 6) AS t
  FROM generate_series(1, 3000) i;

EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, sum(CASE WHEN v > 0 OR s IN (1, 2, 3) THEN 1 ELSE 0 END),
         sum(COALESCE(v, s, 0)), count(*) FILTER (WHERE d < d2 AND p >= 0.05),
         sum(x) FILTER (WHERE w IS NOT NULL), max(COALESCE(d2, d)),
         min(CASE WHEN b THEN ts ELSE timestamp '2030-01-01' END)
  FROM fc GROUP BY k;

SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
  -- CASE ... ELSE of integers, one or more WHENs, NULL results
  ('SELECT k, sum(CASE WHEN v > 0 THEN 1 ELSE 0 END), sum(CASE WHEN v > 0 THEN v WHEN s < 100 THEN s ELSE -1 END), count(CASE WHEN b THEN 1 ELSE NULL END), sum(CASE WHEN s > 500 THEN NULL ELSE w END) FROM fc GROUP BY k'),
  ('SELECT k, sum(v + CASE WHEN s > 500 THEN 1 ELSE 2 END), max(CASE WHEN b IS NULL THEN s ELSE v END), bool_or(CASE WHEN v > 1000 THEN true ELSE false END) FROM fc GROUP BY k'),
  -- COALESCE: the first not NULL, the last NULL when all are
  ('SELECT k, sum(COALESCE(v, s, 0)), sum(COALESCE(w, v)), count(COALESCE(v, NULL, NULL)), min(COALESCE(v * 2, -s)) FROM fc GROUP BY k'),
  ('SELECT k, sum(COALESCE(CASE WHEN v > 0 THEN v END, 7)), sum(CASE WHEN COALESCE(v, 0) > 10 THEN 1 ELSE 0 END) FROM fc GROUP BY k'),
  -- OR, IN, NOT IN, IS NULL, column against column
  ('SELECT k, count(*) FILTER (WHERE v > 1000 OR s IN (1, 2, 3, 500)), count(*) FILTER (WHERE s NOT IN (7, 8)), count(*) FILTER (WHERE v IS NULL OR w IS NULL), count(*) FILTER (WHERE d < d2), count(*) FILTER (WHERE d2 = d OR v >= s) FROM fc GROUP BY k'),
  -- NULL elements: = ANY never true through them, <> ALL never true with them
  ('SELECT k, count(*) FILTER (WHERE s IN (1, NULL, 5)), count(*) FILTER (WHERE s NOT IN (1, NULL)), count(*) FILTER (WHERE s = ANY (''{}''::int2[])), count(*) FILTER (WHERE s <> ALL (''{}''::int2[])) FROM fc GROUP BY k'),
  -- numeric(12, 2) against constants of other scales (1.005 has digits beyond 2), NaN above all
  ('SELECT k, count(*) FILTER (WHERE p = 1.005), count(*) FILTER (WHERE p <> 1.005), count(*) FILTER (WHERE p < 1.005), count(*) FILTER (WHERE p <= 1.005), count(*) FILTER (WHERE p > -1.005), count(*) FILTER (WHERE p >= -1.005) FROM fc GROUP BY k'),
  ('SELECT k, count(*) FILTER (WHERE p = 1.2), count(*) FILTER (WHERE p > 5), count(*) FILTER (WHERE p < 0.1), count(*) FILTER (WHERE p >= 9), sum(v) FILTER (WHERE p > 2 AND p < 4.5) FROM fc GROUP BY k'),
  -- FILTERed and picked floats, dates and timestamps
  ('SELECT k, sum(x) FILTER (WHERE v > 0), avg(f4) FILTER (WHERE s < 300), max(x) FILTER (WHERE p < 0), min(COALESCE(x, -1)), sum(CASE WHEN b THEN x ELSE 0.5 END) FROM fc GROUP BY k'),
  ('SELECT k, max(COALESCE(d2, d)), min(d) FILTER (WHERE v > 100), min(CASE WHEN b THEN ts ELSE timestamp ''2030-01-01'' END), max(ts) FILTER (WHERE d2 IS NULL) FROM fc GROUP BY k'),
  -- a bool column, a bool constant, and conditions under a FILTERed CASE
  ('SELECT k, count(*) FILTER (WHERE b OR v < -1000), sum(CASE WHEN true THEN s ELSE 0 END), sum(CASE WHEN v > 0 THEN CASE WHEN b THEN 1 ELSE 2 END END) FROM fc GROUP BY k')
) AS t(q);

-- Float arithmetic (float4 in single precision, float8 and mixed pairs in
-- double, integer casts) and float comparisons, as PostgreSQL's operators
-- compute them.  Grouped per row (ff.id), every computed word is compared
-- exactly; grouped by k, only sums that are exact in any order (the GPU
-- adds in its own order, as PostgreSQL's parallel plans do) and min/max.
CREATE TABLE ff AS SELECT i AS id, k, v, s, w, x, f4 FROM
  (SELECT row_number() OVER () AS i, * FROM fc) t;
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, sum(x * (1 - x / 40)), sum(f4 * 2 + 1), avg(x + v::float8) FILTER (WHERE x > 0.5),
         count(*) FILTER (WHERE f4 <= x OR x = 'NaN')
  FROM fc GROUP BY k;
SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
  ('SELECT id, sum(x * (1 - x / 40)), sum(f4 * 2 + 1), avg(x + v::float8) FILTER (WHERE x > 0.5), max(-x), min(f4 / 3), sum(s::float4 * f4), sum(w::float8 / 7), sum((x * 3)::float4), sum(CASE WHEN x > 5 THEN x * 2 ELSE -x END), sum(COALESCE(x, f4 * 0.1)) FROM ff GROUP BY id'),
  ('SELECT k, sum(f4 * 2 + 1), avg(x + v::float8) FILTER (WHERE x > 0.5), max(-x), min(f4 / 3), sum(s::float4 * f4), min(w::float8 / 7), max(x * (1 - x / 40)), max((x * 3)::float4) FROM fc GROUP BY k'),
  ('SELECT k, count(*) FILTER (WHERE f4 <= x OR x = ''NaN''), count(*) FILTER (WHERE x > 1.5), count(*) FILTER (WHERE x <> 0), count(*) FILTER (WHERE f4 < 2.5::float4), count(*) FILTER (WHERE x >= ''NaN''), sum(COALESCE(x, f4)) FROM fc GROUP BY k'),
  -- (variances: rounded, as PostgreSQL's own parallel plans round them differently in the last digits)
  ('SELECT k, sum(CASE WHEN x > 5 THEN x * 2 ELSE -x END), round(variance(x * 0.1)::numeric, 9), round(stddev(f4 - 2)::numeric, 9) FROM fc GROUP BY k'),
  -- a guarded division: computed by the scan, where PostgreSQL divides only where v <> 0
  ('SELECT k, sum(CASE WHEN v <> 0 THEN x / v ELSE 0 END), sum(COALESCE(x, f4 / (s + 1))) FROM ff GROUP BY id, k')
) AS t(q);

-- time columns compare as their microseconds.
CREATE TABLE ft AS SELECT i % 5 AS k, CASE WHEN i % 13 = 0 THEN NULL
  ELSE time '00:00' + i * interval '37 seconds' END AS tm FROM generate_series(1, 3000) i;
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, count(*) FILTER (WHERE tm < '06:00' OR tm IN ('00:37', '01:14')) FROM ft GROUP BY k;
SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
  ('SELECT k, count(*) FILTER (WHERE tm < ''06:00'' OR tm IN (''00:37'', ''01:14'')), max(tm) FILTER (WHERE tm <> ''00:37''), min(COALESCE(tm, ''23:59'')) FROM ft GROUP BY k'),
  ('SELECT k, count(*), max(tm) FROM ft WHERE tm >= ''01:00'' AND tm < ''20:00:00.5'' GROUP BY k')
) AS t(q);

-- A numeric CASE ... ELSE or COALESCE inside arithmetic whose type has a
-- scale (arms of one typmod) is a leaf the scan computes; the filler
-- computes the rest.
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, sum(COALESCE(p, 0::numeric(12, 2)) * p) FROM fc GROUP BY k;
SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
  ('SELECT k, sum(COALESCE(p, 0::numeric(12, 2)) * p), sum(CASE WHEN b THEN p ELSE 1::numeric(12, 2) END * 3) FROM fc GROUP BY k')
) AS t(q);

-- A numeric CASE ... ELSE or COALESCE that is a whole aggregate argument,
-- whose arms differ in scale (TPC-H's CASE WHEN ... THEN price * (1 -
-- discount) ELSE 0 END): the filler computes each arm at its own scale and
-- keeps it as the row's display scale (packed free numeric words,
-- numeric_free.h), so a sum shows the largest scale among its rows' arms,
-- as PostgreSQL's does.  A NaN in a column a row reads falls back.
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, sum(CASE WHEN v > 0 THEN p * 2 ELSE 0 END) FROM fc GROUP BY k;
SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
  ('SELECT k, sum(CASE WHEN v > 0 THEN p * 2 ELSE 0 END), avg(CASE WHEN v > 0 THEN p * 2 ELSE 0 END) FROM fc WHERE p IS DISTINCT FROM ''NaN'' GROUP BY k'),
  ('SELECT k, sum(CASE WHEN v > 1000 THEN p * p WHEN s > 500 THEN p ELSE 1 END), count(*) FROM fc WHERE p IS DISTINCT FROM ''NaN'' GROUP BY k'),
  ('SELECT s % 7, sum(CASE WHEN s < 3 THEN p * 0.5 ELSE 0 END), count(*) FROM fc WHERE p IS DISTINCT FROM ''NaN'' GROUP BY 1'),
  ('SELECT k, sum(COALESCE(p * 0.5, v, 0)), sum(COALESCE(p, 0)), stddev_pop(CASE WHEN b THEN p ELSE 0 END) FROM fc WHERE p IS DISTINCT FROM ''NaN'' GROUP BY k'),
  ('SELECT k, sum(CASE WHEN b THEN p * 2 END), max(CASE WHEN v > 0 THEN p * 3 ELSE -100 END) FROM fc WHERE p IS DISTINCT FROM ''NaN'' GROUP BY k')
) AS t(q);
-- Inside arithmetic, the arms differing in scale: the filler computes it on
-- packed words, each value carrying its row's display scale through the
-- operators (the larger of a sum's operands', the sum of a product's), so
-- COALESCE(p, 0) * p shows scale 4 where p is not NULL and 2 where it is.
-- (max/min over a group whose values tie but differ in scale are left out:
-- PostgreSQL shows whichever its plan met first or last.)
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, sum(COALESCE(p, 0) * p), sum((CASE WHEN b THEN p ELSE 1 END) * 3 + 0.5) FROM fc GROUP BY k;
SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
  ('SELECT k, sum(COALESCE(p, 0) * 2), sum((CASE WHEN b THEN p ELSE 1 END) * 3 + 0.5), avg(-COALESCE(p, v)) FROM fc WHERE p IS DISTINCT FROM ''NaN'' GROUP BY k'),
  ('SELECT s % 11, sum(COALESCE(p, 0.001) * COALESCE(p, 2) * 1.5), stddev(p * COALESCE(p, 0)), count(*) FROM fc WHERE p IS DISTINCT FROM ''NaN'' GROUP BY 1'),
  ('SELECT k, sum(CASE WHEN v > 0 THEN p * COALESCE(p, 0) ELSE -COALESCE(p, 1) END - 0.25) FROM fc WHERE p IS DISTINCT FROM ''NaN'' GROUP BY k'),
  ('SELECT v % 3, sum((CASE WHEN s < 500 THEN p ELSE 0 END) * (CASE WHEN s % 2 = 0 THEN 1.5 ELSE p END)) FROM fc WHERE p IS DISTINCT FROM ''NaN'' GROUP BY 1')
) AS t(q);
-- Groups whose rows all take the scale-0 arm show scale 0 (and a NULL operand a NULL).
SELECT s % 7 AS g, sum((CASE WHEN s < 3 THEN p ELSE 0 END) * 2), sum(COALESCE(p, 0) * v) FROM fc
  WHERE p IS DISTINCT FROM 'NaN' GROUP BY 1 ORDER BY 1;
-- A NaN a row reads falls back, as for a CASE that is a whole argument.
SET gpugb.require_gpu = off;
SELECT k, sum(COALESCE(p, 0) * 2) FROM fc GROUP BY k ORDER BY k;
SELECT last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.require_gpu;
-- Arms of scale 8 at most (values below 2.9e9): beyond, the scan computes it.
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, sum(CASE WHEN v > 0 THEN p * p * p * p ELSE 0 END), sum(CASE WHEN v > 0 THEN p * p * p * p * p ELSE 0 END) FROM fc GROUP BY k;
-- Groups whose rows all take the ELSE show its scale (0).
SELECT s % 7 AS g, sum(CASE WHEN s < 3 THEN p * 0.5 ELSE 0 END) FROM fc
  WHERE p IS DISTINCT FROM 'NaN' GROUP BY 1 ORDER BY 1;
SET gpugb.require_gpu = off;
SELECT k, sum(CASE WHEN v > 0 THEN p * 2 ELSE 0 END) FROM fc GROUP BY k ORDER BY k;
SELECT last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.require_gpu;

-- A condition with a part that is not a truth step is computed whole by
-- the scan (PostgreSQL's AND stops before 100 / v where v = 0); so is a
-- CASE whose THEN divides.
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT k, count(*) FILTER (WHERE v <> 0 AND 100 / v > 2),
         sum(CASE WHEN v <> 0 THEN 100 / v ELSE 0 END)
  FROM fc GROUP BY k;
SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
  ('SELECT k, count(*) FILTER (WHERE v <> 0 AND 100 / v > 2), sum(CASE WHEN v <> 0 THEN 100 / v ELSE 0 END), count(*) FILTER (WHERE t LIKE ''a1%'' OR v > 0) FROM fc GROUP BY k')
) AS t(q);

-- Out of range.  A CASE's THEN is computed for every row by the filler, so
-- an overflow in rows PostgreSQL would not compute it for stops the fill
-- and PostgreSQL's plan answers (right, only slower); in rows it does
-- compute it, PostgreSQL raises its error.
SET gpugb.require_gpu = off;
SELECT k, sum(CASE WHEN v > 100000 THEN v * 1000000000 ELSE 0 END) FROM fc GROUP BY k ORDER BY k;
SELECT k, sum(CASE WHEN v > 1400 THEN v * 1000000000 ELSE 0 END) FROM fc GROUP BY k ORDER BY k;
SELECT k, sum(COALESCE(v, 0) * 2000000) FROM fc GROUP BY k ORDER BY k;
-- float errors: division by zero, overflow, underflow (v = 0 in one row of k = 0)
SELECT k, sum(x / v) FROM fc GROUP BY k ORDER BY k;
SELECT k, sum(x * 1e308) FROM fc GROUP BY k ORDER BY k;
SELECT k, sum(x * 1e-200 * 1e-200) FROM fc GROUP BY k ORDER BY k;
SELECT k, sum((x * 1e300)::float4) FROM fc GROUP BY k ORDER BY k;
-- PostgreSQL computes v * 1000000000 before the CASE's 100 / s: the CASE
-- inside integer operands may not leave its condition to the scan, whose
-- division by zero would come first.
CREATE TABLE fe AS SELECT 1 AS k, 3 AS v, 0 AS s;
SELECT k, sum(v * 1000000000 + CASE WHEN 100 / s > 1 THEN 1 ELSE 0 END) FROM fe GROUP BY k;
RESET gpugb.require_gpu;

SELECT fallbacks FROM gpugb_backend_stats();
