-- gpugb.max_device_memory: one device-memory budget for all sessions (a
-- counter in shared memory, gpugb being preloaded).  A query that cannot
-- reserve what it needs falls back to PostgreSQL's plan; every byte comes
-- back when queries end.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE bud AS SELECT i % 50000 AS k, i AS v FROM generate_series(1, 200000) i;
ANALYZE bud;

SELECT reserved_bytes, limit_bytes FROM gpugb_device_memory_budget();
ALTER SYSTEM SET gpugb.max_device_memory = '1MB';
SELECT pg_reload_conf();
SELECT pg_sleep(0.5);
SHOW gpugb.max_device_memory;
SET gpugb.require_gpu = off;
SELECT gpugb_mismatches('SELECT k, count(*), sum(v) FROM bud GROUP BY k') AS mismatches;
SELECT fallbacks > 0 AS fell_back, last_fallback_reason FROM gpugb_backend_stats();
SELECT reserved_bytes, limit_bytes FROM gpugb_device_memory_budget();
-- Under parallel ingest the leader then tries the CPU (which the budget
-- refuses too) and PostgreSQL's plan answers: one query, one fallback
-- (session 24: it counted two).
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT k, count(*), sum(v) FROM bud GROUP BY k ORDER BY k LIMIT 3;
SELECT fallbacks AS fallbacks_before FROM gpugb_backend_stats() \gset
SELECT k, count(*), sum(v) FROM bud GROUP BY k ORDER BY k LIMIT 3;
SELECT fallbacks - :fallbacks_before AS fallbacks_of_the_query, last_fallback_reason
  FROM gpugb_backend_stats();
SET max_parallel_workers_per_gather = 0;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
ALTER SYSTEM RESET gpugb.max_device_memory;
SELECT pg_reload_conf();
SELECT pg_sleep(0.5);
RESET gpugb.require_gpu;
-- With the default (no limit) the same query runs on the GPU, and every
-- reserved byte is given back.
SELECT gpugb_mismatches('SELECT k, count(*), sum(v) FROM bud GROUP BY k') AS mismatches;
SELECT reserved_bytes, limit_bytes FROM gpugb_device_memory_budget();
