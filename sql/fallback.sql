-- gpugb.enabled, fallback to PostgreSQL's own plan, gpugb.require_gpu, and
-- that device and pinned memory are released after success, ERROR and cancel.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE f AS SELECT i % 100 AS k, i AS v FROM generate_series(1, 50000) i;
ANALYZE f;

-- The toggle.
SET gpugb.enabled = off;
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM f GROUP BY k;
RESET gpugb.enabled;
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM f GROUP BY k;

-- The device cannot hold the work: PostgreSQL's plan runs instead, and the
-- answer is still right.  With require_gpu this is an error.
SET gpugb.device_memory_limit = '1MB';
\set VERBOSITY terse
SELECT * FROM gpugb_explain_analyze('SELECT k, count(*), sum(v) FROM f GROUP BY k');
SELECT k, count(*) FROM f GROUP BY k ORDER BY k LIMIT 2;
SET gpugb.require_gpu = off;
SELECT k, count(*), sum(v) FROM f GROUP BY k ORDER BY k LIMIT 3;
SELECT gpugb_mismatches('SELECT k, count(*), sum(v), avg(v) FROM f GROUP BY k') AS mismatches;
SELECT fallbacks > 0 AS fell_back, last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.device_memory_limit;
RESET gpugb.require_gpu;
\set VERBOSITY default

-- Nothing is held between queries: after success, ...
SELECT k, count(*) FROM f GROUP BY k ORDER BY k LIMIT 1;
SELECT * FROM gpugb_memory_in_use();
-- ... after an ERROR raised while the GPU path runs (division by zero in
-- an expression the input plan computes), ...
SELECT k / (v - 25000), count(*) FROM f GROUP BY 1;
SELECT * FROM gpugb_memory_in_use();
-- ... and after a cancel.
SET statement_timeout = '20ms';
SELECT a.k, count(*) FROM f a, f b WHERE b.v < 200 GROUP BY a.k;
RESET statement_timeout;
SELECT * FROM gpugb_memory_in_use();
