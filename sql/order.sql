-- Ordered output: for ORDER BY over GROUP BY keys whose device words order
-- as their values do, and over counts, GpuGroupAgg returns its groups sorted
-- (the device sorts them after aggregating) and advertises that order, so
-- PostgreSQL puts no Sort above it.  Text keys still get PostgreSQL's Sort.  Results
-- are compared with gpugb.enabled = off row by row, in order.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

-- The rows of a query, in the order they come.
CREATE FUNCTION order_rows(query text) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  a text[] := '{}';
BEGIN
  FOR r IN EXECUTE query LOOP
    a := a || r::text;
  END LOOP;
  RETURN a;
END $$;

-- 'same order, N rows', or the first position where gpugb's rows differ
-- from PostgreSQL's.
CREATE FUNCTION order_check(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  want text[];
  got text[];
BEGIN
  PERFORM set_config('gpugb.enabled', 'off', true);
  want := order_rows(query);
  PERFORM set_config('gpugb.enabled', 'on', true);
  got := order_rows(query);
  IF want = got THEN
    RETURN 'same order, ' || cardinality(got) || ' rows';
  END IF;
  FOR i IN 1 .. greatest(cardinality(want), cardinality(got)) LOOP
    IF want[i] IS DISTINCT FROM got[i] THEN
      RETURN format('row %s: gpugb %s, PostgreSQL %s', i, got[i], want[i]);
    END IF;
  END LOOP;
  RETURN 'different';
END $$;

CREATE TABLE ord AS
  SELECT CASE WHEN i % 53 = 0 THEN NULL ELSE (i % 37) - 18 END AS a,
         CASE WHEN i % 61 = 0 THEN NULL ELSE ((i * 7) % 11 - 5)::int8 * 1000000000000 END AS b,
         (i % 5)::int2 AS s,
         CASE i % 9 WHEN 0 THEN 'NaN'::float8 WHEN 1 THEN 'Infinity' WHEN 2 THEN '-Infinity'
                    WHEN 3 THEN NULL ELSE (i % 13 - 6) * 0.25 END AS f,
         ((i % 17) - 8)::float4 / 4 AS f4,
         CASE WHEN i % 43 = 0 THEN NULL ELSE ((i % 23) - 11) * 1.25 END::numeric(10, 2) AS n,
         ((i % 19) - 9) * 0.5 AS nf,
         date '2024-01-01' + (i % 29 - 14) AS d,
         timestamp '2024-01-01' + (i % 31 - 15) * interval '1 hour' AS ts,
         CASE WHEN i % 47 = 0 THEN NULL ELSE i % 3 = 0 END AS bo,
         (i % 7 - 3) * interval '1 day' + (i % 5) * interval '1 hour' AS iv,
         'k' || (i % 13) AS t,
         i AS v
  FROM generate_series(1, 20000) i;
ANALYZE ord;

-- No Sort above GpuGroupAgg: it shows its output order.
EXPLAIN (COSTS OFF) SELECT a, b, count(*), sum(v) FROM ord GROUP BY a, b ORDER BY a, b;
EXPLAIN (COSTS OFF) SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY a DESC, b;
EXPLAIN (COSTS OFF) SELECT a, count(*) FROM ord GROUP BY a ORDER BY a NULLS FIRST;
EXPLAIN (COSTS OFF) SELECT a, count(*) FROM ord GROUP BY a ORDER BY a DESC NULLS LAST;
-- ORDER BY a prefix of the keys, and the keys in another order.
EXPLAIN (COSTS OFF) SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY a;
EXPLAIN (COSTS OFF) SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY b DESC, a;
-- Floats, numerics, dates, timestamps, bool, intervals.
EXPLAIN (COSTS OFF) SELECT f, count(*) FROM ord GROUP BY f ORDER BY f;
EXPLAIN (COSTS OFF)
  SELECT n, nf, d, ts, bo, iv, count(*) FROM ord GROUP BY n, nf, d, ts, bo, iv
  ORDER BY n DESC, nf, d, ts, bo, iv;
-- A text key: PostgreSQL sorts (its words are no order), ...
EXPLAIN (COSTS OFF) SELECT t, count(*) FROM ord GROUP BY t ORDER BY t;
-- ... after a key that orders, the node orders by that one, and PostgreSQL
-- finishes with an Incremental Sort; ...
EXPLAIN (COSTS OFF) SELECT a, t, count(*) FROM ord GROUP BY a, t ORDER BY a, t;
-- ... and ORDER BY only the keys that order is met by the node alone.
EXPLAIN (COSTS OFF) SELECT a, t, count(*) FROM ord GROUP BY a, t ORDER BY a;
-- ORDER BY a count: the node orders by it (and then by the key); ...
EXPLAIN (COSTS OFF) SELECT a, count(*) FROM ord GROUP BY a ORDER BY count(*), a;
-- ... under a LIMIT, the node hands out only the rows the LIMIT takes
-- (ClickBench's top-10 queries); a text key after the count: PostgreSQL
-- sorts above (a full or an incremental Sort, as its costs say); ...
EXPLAIN (COSTS OFF) SELECT a, count(*) FROM ord GROUP BY a ORDER BY count(*) DESC LIMIT 5;
EXPLAIN (COSTS OFF) SELECT t, count(*) AS c FROM ord GROUP BY t ORDER BY c DESC, t LIMIT 3;
EXPLAIN (COSTS OFF)
  SELECT s, count(*) FILTER (WHERE v % 3 = 0) AS c3 FROM ord GROUP BY s ORDER BY c3, s;
-- ... a sum, min or max of integers too (NULL where no input: FILTER);
EXPLAIN (COSTS OFF) SELECT a, sum(v) FROM ord GROUP BY a ORDER BY sum(v) DESC, a;
EXPLAIN (COSTS OFF)
  SELECT s, sum(b), min(a) FROM ord GROUP BY s ORDER BY sum(b), min(a) DESC NULLS LAST, s LIMIT 3;
-- ... any other aggregate (a float sum, an avg): PostgreSQL's Sort.
EXPLAIN (COSTS OFF) SELECT a, sum(f) FROM ord GROUP BY a ORDER BY sum(f) DESC, a;
EXPLAIN (COSTS OFF) SELECT a, avg(v) FROM ord GROUP BY a ORDER BY avg(v) DESC, a;
-- No ORDER BY: no output order.
EXPLAIN (COSTS OFF) SELECT a, count(*) FROM ord GROUP BY a;
-- HAVING and expressions over the keys.
EXPLAIN (COSTS OFF)
  SELECT a % 5, sum(v) FROM ord GROUP BY a % 5 HAVING count(*) > 10 ORDER BY a % 5 DESC;

-- The same rows, in the same order, as PostgreSQL's plan.
SELECT q, order_check(q) FROM (VALUES
  ('SELECT a, b, count(*), sum(v) FROM ord GROUP BY a, b ORDER BY a, b'),
  ('SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY a DESC, b'),
  ('SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY a NULLS FIRST, b DESC NULLS LAST'),
  ('SELECT a, count(*) FROM ord GROUP BY a ORDER BY a NULLS FIRST'),
  ('SELECT a, count(*) FROM ord GROUP BY a ORDER BY a DESC NULLS LAST'),
  ('SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY b DESC, a'),
  ('SELECT s, a, min(v), max(v) FROM ord GROUP BY s, a ORDER BY s, a DESC'),
  ('SELECT f, count(*), sum(v) FROM ord GROUP BY f ORDER BY f'),
  ('SELECT f, count(*) FROM ord GROUP BY f ORDER BY f DESC NULLS LAST'),
  ('SELECT f4, s, count(*) FROM ord GROUP BY f4, s ORDER BY f4 DESC, s'),
  ('SELECT n, count(*), sum(n) FROM ord GROUP BY n ORDER BY n'),
  ('SELECT n, count(*) FROM ord GROUP BY n ORDER BY n DESC NULLS LAST'),
  ('SELECT nf, count(*), sum(nf) FROM ord GROUP BY nf ORDER BY nf DESC'),
  ('SELECT d, ts, count(*) FROM ord GROUP BY d, ts ORDER BY d DESC, ts'),
  ('SELECT bo, count(*) FROM ord GROUP BY bo ORDER BY bo'),
  ('SELECT bo, s, count(*) FROM ord GROUP BY bo, s ORDER BY bo DESC NULLS LAST, s'),
  ('SELECT iv, count(*) FROM ord GROUP BY iv ORDER BY iv'),
  ('SELECT a % 5, sum(v) FROM ord GROUP BY a % 5 HAVING count(*) > 10 ORDER BY a % 5 DESC'),
  ('SELECT n, nf, d, ts, bo, iv, count(*) FROM ord GROUP BY n, nf, d, ts, bo, iv ORDER BY n DESC, nf, d, ts, bo, iv'),
  ('SELECT t, count(*) FROM ord GROUP BY t ORDER BY t'),
  ('SELECT a, t, count(*) FROM ord GROUP BY a, t ORDER BY a, t'),
  ('SELECT a, t, count(*) FROM ord GROUP BY a, t ORDER BY a DESC, t DESC'),
  ('SELECT a, count(*) FROM ord WHERE v < 0 GROUP BY a ORDER BY a'),
  ('SELECT a, b, count(*) FROM ord WHERE v <= 3 GROUP BY a, b ORDER BY a, b'),
  -- by counts: count(*), count(x) (its NULLs not counted), count(*) FILTER
  ('SELECT a, count(*) FROM ord GROUP BY a ORDER BY count(*), a'),
  ('SELECT a, count(*) FROM ord GROUP BY a ORDER BY count(*) DESC, a LIMIT 5'),
  ('SELECT a, b, count(*), sum(v) FROM ord GROUP BY a, b ORDER BY count(*), a DESC NULLS LAST, b'),
  ('SELECT a, count(b) AS c FROM ord GROUP BY a ORDER BY c DESC, a NULLS FIRST'),
  ('SELECT bo, count(f), avg(v) FROM ord GROUP BY bo ORDER BY count(f) DESC, bo'),
  ('SELECT s, count(*) FILTER (WHERE v % 3 = 0) AS c3 FROM ord GROUP BY s ORDER BY c3, s'),
  ('SELECT t, count(*) AS c FROM ord GROUP BY t ORDER BY c DESC, t LIMIT 3'),
  ('SELECT a % 5, count(*) FROM ord GROUP BY a % 5 HAVING count(*) > 3000 ORDER BY count(*) DESC, 1'),
  ('SELECT a, count(*) FROM ord WHERE v < 0 GROUP BY a ORDER BY count(*) DESC'),
  -- by values: integer sums (int4 -> int8, int8 -> numeric), min, max, NULLs
  ('SELECT a, sum(v) FROM ord GROUP BY a ORDER BY sum(v) DESC, a'),
  ('SELECT s, sum(b), min(a) FROM ord GROUP BY s ORDER BY sum(b), min(a) DESC NULLS LAST, s'),
  ('SELECT a, b, min(v), max(s) FROM ord GROUP BY a, b ORDER BY max(s), min(v) DESC, a, b'),
  ('SELECT a, sum(v) FILTER (WHERE v % 1000 = 1) AS sv FROM ord GROUP BY a ORDER BY sv DESC, a'),
  ('SELECT a, sum(v) FILTER (WHERE v % 1000 = 1) AS sv FROM ord GROUP BY a ORDER BY sv NULLS FIRST, a DESC'),
  ('SELECT a, max(b) FILTER (WHERE v % 997 = 0) AS mb FROM ord GROUP BY a ORDER BY mb DESC NULLS LAST, a LIMIT 7'),
  ('SELECT a, sum(v), count(*) FROM ord GROUP BY a ORDER BY sum(v) % 3, count(*), a')
) AS t(q);
-- Sums beyond 64 bits (the device's 128-bit states), of both signs.
CREATE TABLE ord_wide AS
  SELECT i % 40 AS k, ((i::int8 * 104729) % 1000001 - 500000) * 10000000000000 AS y
  FROM generate_series(1, 40000) i;
EXPLAIN (COSTS OFF) SELECT k, sum(y) FROM ord_wide GROUP BY k ORDER BY sum(y), k;
SELECT order_check('SELECT k, sum(y) FROM ord_wide GROUP BY k ORDER BY sum(y), k');
SELECT order_check('SELECT k, sum(y) FROM ord_wide GROUP BY k ORDER BY sum(y) DESC, k LIMIT 5');
SET gpugb.enabled = off;	-- (the outer max of sums this wide has no device word)
SELECT max(abs(s)) > 9223372036854775807 AS beyond_int8, min(s) < 0 AND max(s) > 0 AS both_signs
  FROM (SELECT sum(y) AS s FROM ord_wide GROUP BY k) t;
RESET gpugb.enabled;
-- (ORDER BY a prefix: groups of equal a may come in any order, so compare sets)
SELECT gpugb_mismatches('SELECT a, t, count(*) FROM ord GROUP BY a, t ORDER BY a') AS mismatches;
SELECT a, count(*) FROM ord GROUP BY a ORDER BY a DESC NULLS FIRST LIMIT 4;
SELECT f, count(*) FROM ord GROUP BY f ORDER BY f;

-- Costs decide, not gpugb.force: on a larger input (TPC-H Q1's shape) the
-- ordered node wins over a Sort above the unordered one.
SET gpugb.force = off;
CREATE TABLE ord_big AS
  SELECT (i % 3)::int2 AS flag, i % 2 = 0 AS status, i % 1000 AS qty, i AS v
  FROM generate_series(1, 600000) i;
ANALYZE ord_big;
EXPLAIN (COSTS OFF)
  SELECT flag, status, sum(qty), avg(v), count(*) FROM ord_big
  GROUP BY flag, status ORDER BY flag, status;
SELECT order_check('SELECT flag, status, sum(qty), avg(v), count(*) FROM ord_big
  GROUP BY flag, status ORDER BY flag, status');
SELECT order_check('SELECT qty, count(*), min(v) FROM ord_big GROUP BY qty ORDER BY qty DESC');
-- gpugb's early "PostgreSQL's plan is cheaper" test weighs the Sort an ordered
-- node saves: PostgreSQL's HashAggregate alone costs less than the GPU's
-- (no GpuGroupAgg), but not with the Sort of its 40000 groups by count.
SET default_statistics_target = 1000;	-- every row sampled: a stable estimate
CREATE TABLE ord_many AS SELECT (i::int8 * 7919) % 40000 AS k FROM generate_series(1, 60000) i;
ANALYZE ord_many;
RESET default_statistics_target;
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM ord_many GROUP BY k;
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM ord_many GROUP BY k ORDER BY count(*) DESC, k;
SELECT order_check('SELECT k, count(*) FROM ord_many GROUP BY k ORDER BY count(*) DESC, k');
SET gpugb.force = on;

-- EXPLAIN ANALYZE: the device ran, and the order is shown.
SELECT * FROM gpugb_explain_analyze('SELECT a, count(*) FROM ord GROUP BY a ORDER BY a DESC');
SELECT * FROM gpugb_explain_analyze('SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY count(*) DESC, a, b LIMIT 3');

-- The fallback plan is sorted too (here: out of device memory).
SET gpugb.device_memory_limit = '1MB';
SET gpugb.require_gpu = off;
EXPLAIN (COSTS OFF) SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY a DESC, b;
SELECT order_check('SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY a DESC, b');
SELECT order_check('SELECT f, count(*) FROM ord GROUP BY f ORDER BY f NULLS FIRST');
SELECT order_check('SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY count(*) DESC, a, b LIMIT 4');
SELECT last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.device_memory_limit;
RESET gpugb.require_gpu;

-- Parallel ingest: Gather Merge over the ordered node (only the leader
-- returns rows), and its Gather-free fallback is sorted as well.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = on;
EXPLAIN (COSTS OFF) SELECT a, b, count(*), sum(v) FROM ord GROUP BY a, b ORDER BY a, b DESC;
SELECT order_check('SELECT a, b, count(*), sum(v) FROM ord GROUP BY a, b ORDER BY a, b DESC');
SELECT order_check('SELECT f, s, count(*) FROM ord GROUP BY f, s ORDER BY f DESC, s');
EXPLAIN (COSTS OFF) SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY count(*) DESC, a, b LIMIT 7;
SELECT order_check('SELECT a, b, count(*) FROM ord GROUP BY a, b ORDER BY count(*) DESC, a, b LIMIT 7');
SELECT order_check('SELECT a, b, sum(v) FROM ord GROUP BY a, b ORDER BY sum(v) DESC, a, b LIMIT 7');
-- the count only in the ORDER BY (a resjunk column Gather Merge sorts by),
-- and under a window function
SELECT order_check('SELECT a, b FROM ord GROUP BY a, b ORDER BY count(*) DESC, a, b LIMIT 6');
SELECT order_check('SELECT a, count(*), rank() OVER (ORDER BY count(*) DESC) FROM ord GROUP BY a ORDER BY count(*) DESC, a');
SET gpugb.device_memory_limit = '1MB';
SET gpugb.require_gpu = off;
SELECT order_check('SELECT a, b, count(*), sum(v) FROM ord GROUP BY a, b ORDER BY a, b DESC');
RESET gpugb.device_memory_limit;
RESET gpugb.require_gpu;
