-- Parallel workers aggregate their share on the GPU (partial GpuGroupAgg);
-- PostgreSQL's Gather and Finalize Aggregate combine the partial states.
LOAD 'gpugb';
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = on;

CREATE TABLE par AS SELECT i % 500 AS k, (i % 7)::int2 AS s, i AS v,
  i::int8 * 1000003 AS w, ((i % 3) * 0.5)::float8 AS f
  FROM generate_series(1, 300000) i;
ANALYZE par;

SET gpugb.force = on;
-- The partial path over a Parallel Seq Scan.
EXPLAIN (COSTS OFF)
  SELECT k, count(*), sum(v), avg(v), min(s), max(v) FROM par GROUP BY k HAVING count(*) > 1;
EXPLAIN (COSTS OFF) SELECT count(*), sum(v), avg(s) FROM par;
-- Aggregates whose partial state gpugb cannot build exactly keep the
-- complete (one process) GPU path: float sums, sum/avg(int8).
SET client_min_messages = debug1;
EXPLAIN (COSTS OFF) SELECT k, sum(f) FROM par GROUP BY k;
RESET client_min_messages;

SELECT k, count(*), sum(v), avg(v), min(s), max(v) FROM par GROUP BY k ORDER BY k LIMIT 3;
SELECT count(*), sum(v), avg(s) FROM par;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k, count(*), sum(v), avg(v), min(s), max(v) FROM par GROUP BY k HAVING count(*) > 1'),
  ('SELECT count(*), sum(v), avg(s), min(w), max(w) FROM par'),
  ('SELECT s, k % 3, count(v), sum(s), avg(s) FROM par WHERE v % 5 <> 0 GROUP BY 1, 2'),
  ('SELECT count(*) FROM par WHERE v < 0'),
  ('SELECT k FROM par WHERE v < 0 GROUP BY k')
) AS t(q);

-- A worker that cannot set up the GPU aggregates its own rows on the CPU;
-- the answer stays right.
SET gpugb.device_memory_limit = '1MB';
SET gpugb.require_gpu = off;
SELECT gpugb_mismatches('SELECT k, count(*), sum(v), avg(v) FROM par GROUP BY k') AS mismatches;
RESET gpugb.device_memory_limit;
RESET gpugb.require_gpu;
SELECT * FROM gpugb_memory_in_use();
