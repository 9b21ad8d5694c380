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
-- ... also for a plan made while it was on (a prepared statement's, here
-- generic): off, the node runs PostgreSQL's plan, its fallback child, and
-- no GPU run is made; on again, the same plan takes the GPU.
SET plan_cache_mode = force_generic_plan;
PREPARE toggled AS SELECT k, count(*), sum(v) FROM f GROUP BY k ORDER BY k LIMIT 3;
SELECT gpu_runs AS runs_before, fallbacks AS fallbacks_before FROM gpugb_backend_stats() \gset
EXECUTE toggled;
SELECT gpu_runs - :runs_before AS gpu_runs, fallbacks - :fallbacks_before AS fallbacks
  FROM gpugb_backend_stats();
SET gpugb.enabled = off;
SET gpugb.require_gpu = off;
EXECUTE toggled;
SELECT gpu_runs - :runs_before AS gpu_runs, fallbacks - :fallbacks_before AS fallbacks,
       last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.require_gpu;
RESET gpugb.enabled;
EXECUTE toggled;
SELECT gpu_runs - :runs_before AS gpu_runs FROM gpugb_backend_stats();
DEALLOCATE toggled;
RESET plan_cache_mode;

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

-- A fallback under a parent that projects (a cursor's plan puts a Result
-- above the node): the rows of PostgreSQL's plan (a Sort's minimal tuples)
-- reach the parent in this node's own slot.  A huge interval key has no
-- device word, so the fill stops and PostgreSQL's plan answers; returning
-- the Sort's slot itself crashed the backend here.
CREATE TABLE fiv AS SELECT (i % 3)::int2 AS k, date '2020-01-01' + i % 4 AS d,
  (i % 7)::float8 AS x, i % 2 = 0 AS b,
  CASE WHEN i = 500 THEN interval '178000000 years' ELSE (i % 40) * interval '1 hour' END AS iv
  FROM generate_series(1, 2000) i;
ANALYZE fiv;
SET gpugb.require_gpu = off;
BEGIN;
DECLARE fiv_c NO SCROLL CURSOR FOR
  SELECT sum(k) AS o1, d::timestamp AS o2,
         (((extract(year FROM iv) * 12 + extract(month FROM iv)) * 30 + extract(day FROM iv)) * 86400000000
          + extract(hour FROM iv) * 3600000000 + extract(minute FROM iv) * 60000000
          + extract(microseconds FROM iv)) AS o3,
         sum(abs(x)) AS o4, bool_and(b) AS o5, avg(k::int4) AS o6
  FROM fiv GROUP BY 2, iv HAVING count(*) > 10 ORDER BY 2 DESC;
FETCH 3 FROM fiv_c;
FETCH 2 FROM fiv_c;
ROLLBACK;
RESET gpugb.require_gpu;

-- Nothing is held between queries: after success, ...
SELECT k, count(*) FROM f GROUP BY k ORDER BY k LIMIT 1;
SELECT * FROM gpugb_memory_in_use();
-- ... after an ERROR raised while the GPU path runs (division by zero in
-- an expression the input plan computes: mod(), which the filler does
-- not compute, unlike the / and % operators), ...
SELECT mod(k, v - 25000), count(*) FROM f GROUP BY 1;
SELECT * FROM gpugb_memory_in_use();
-- ... and after a cancel.
SET statement_timeout = '20ms';
SELECT a.k, count(*) FROM f a, f b WHERE b.v < 200 GROUP BY a.k;
RESET statement_timeout;
SELECT * FROM gpugb_memory_in_use();
