-- Parallel ingest: under a Gather, workers read their share of the input
-- into column strides in shared memory; the leader feeds them to the GPU
-- and returns every group.
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
-- GpuGroupAgg over a Parallel Seq Scan, under a Gather.
EXPLAIN (COSTS OFF)
  SELECT k, count(*), sum(v), avg(v), min(s), max(v) FROM par GROUP BY k HAVING count(*) > 1;
EXPLAIN (COSTS OFF) SELECT count(*), sum(v), avg(s) FROM par;
-- Every aggregate works so, float sums and sum(int8) too: the aggregation
-- itself is not split.
EXPLAIN (COSTS OFF) SELECT k, sum(f), sum(w), avg(w) FROM par GROUP BY k;
-- The leader returns the rows, so without leader participation only the
-- one-process GPU path is offered.
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT k, count(*) FROM par GROUP BY k;
RESET parallel_leader_participation;

SELECT k, count(*), sum(v), avg(v), min(s), max(v) FROM par GROUP BY k ORDER BY k LIMIT 3;
SELECT count(*), sum(v), avg(s) FROM par;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k, count(*), sum(v), avg(v), min(s), max(v) FROM par GROUP BY k HAVING count(*) > 1'),
  ('SELECT count(*), sum(v), avg(s), min(w), max(w) FROM par'),
  ('SELECT s, k % 3, count(v), sum(s), avg(s) FROM par WHERE v % 5 <> 0 GROUP BY 1, 2'),
  ('SELECT count(*) FROM par WHERE v < 0'),
  ('SELECT k FROM par WHERE v < 0 GROUP BY k'),
  ('SELECT k, sum(f), sum(w), avg(w), avg(f), max(f) FROM par GROUP BY k')
) AS t(q);
-- Slots with and without NULLs in one stride: the leader hands each slot
-- to the device as it is (Slot Copy: direct), and a column's null bytes
-- must be zeroed where a slot without NULLs meets one with them.
CREATE TABLE par_nulls AS SELECT i % 300 AS k,
  CASE WHEN i > 250000 AND i % 1000 = 0 THEN NULL ELSE i END AS v,
  CASE WHEN i < 20000 AND i % 7 = 0 THEN NULL ELSE i % 13 END AS k2
  FROM generate_series(1, 300000) i;
ANALYZE par_nulls;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k2, count(*), count(v), sum(v), min(v) FROM par_nulls GROUP BY k2'),
  ('SELECT k, k2, count(v), avg(v) FROM par_nulls GROUP BY k, k2'),
  ('SELECT count(*), count(k2), sum(k2), max(v) FROM par_nulls')
) AS t(q);
-- The leader copies each slot into its pinned strides instead when the
-- device cannot read the slots (gpugb.direct_slot_copy = off, or a driver
-- that refuses to register them): the same answers.
SET gpugb.direct_slot_copy = off;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k, count(*), sum(v), avg(v), min(s), max(v) FROM par GROUP BY k HAVING count(*) > 1'),
  ('SELECT k2, count(*), count(v), sum(v), min(v) FROM par_nulls GROUP BY k2')
) AS t(q);
SELECT l AS plan FROM gpugb_explain_analyze('SELECT k % 10, count(*), sum(w) FROM par GROUP BY 1') AS l
  WHERE l ~ 'Slot Copy';
RESET gpugb.direct_slot_copy;
-- (how many strides the leader sends depends on timing, and with it whether
-- the run-time check comes before the last launch and switches: not shown)
SELECT l AS plan FROM gpugb_explain_analyze('SELECT k % 10, count(*), sum(w) FROM par GROUP BY 1') AS l
  WHERE l !~ 'Strides|Strategy Used|Strategy Switches';

-- Only the leader feeds the GPU and returns groups: a cached plan run after
-- parallel_leader_participation was turned off gets a clear error, never an
-- empty result or a hang.
CREATE TABLE par_small AS SELECT i % 10 AS a, i AS b FROM generate_series(1, 1000) i;
ANALYZE par_small;
SET plan_cache_mode = force_generic_plan;
PREPARE cached AS SELECT a, count(*), sum(b) FROM par_small GROUP BY a ORDER BY a;
EXPLAIN (COSTS OFF) EXECUTE cached;
SET parallel_leader_participation = off;
EXECUTE cached;
RESET parallel_leader_participation;
EXECUTE cached;
DEALLOCATE cached;
RESET plan_cache_mode;

-- When the GPU cannot be set up, the leader aggregates on the CPU instead
-- (there is no second plan to run: the workers' rows are read once); the
-- answer stays right.
SET gpugb.device_memory_limit = '1MB';
SET gpugb.require_gpu = off;
SELECT gpugb_mismatches('SELECT k, count(*), sum(v), avg(v) FROM par GROUP BY k') AS mismatches;
-- When the GPU fails half-way (here: the table cannot grow within the
-- limit), the workers stop and the leader runs PostgreSQL's own
-- (Gather-free) plan from scratch: still the right answer.
CREATE TABLE par_many AS SELECT i AS k, i % 11 AS v FROM generate_series(1, 200000) i;
ANALYZE par_many;
SET gpugb.device_memory_limit = '4MB';
EXPLAIN (COSTS OFF) SELECT k, count(*), sum(v) FROM par_many GROUP BY k;
SELECT gpugb_mismatches('SELECT k, count(*), sum(v) FROM par_many GROUP BY k') AS mismatches;
SELECT fallbacks > 0 AS fell_back FROM gpugb_backend_stats();
-- The CPU run lifts gpugb.device_memory_limit for itself only: a rescan of
-- the node (here under a LATERAL LIMIT) takes the device again, under the
-- limit, and falls back again.  Until session 24 the limit stayed lifted,
-- and the second scan ran on the device without it: 1 fallback, not 2.
SET gpugb.device_memory_limit = '1MB';
CREATE TABLE par_rescan AS SELECT i % 20000 AS k, i % 7 AS v FROM generate_series(1, 200000) i;
ANALYZE par_rescan;
EXPLAIN (COSTS OFF) SELECT g.i, x.k, x.s FROM generate_series(1, 2) g(i),
  LATERAL (SELECT k, sum(v) AS s FROM par_rescan GROUP BY k ORDER BY k DESC LIMIT g.i) x;
SELECT fallbacks AS fallbacks_before FROM gpugb_backend_stats() \gset
SELECT g.i, x.k, x.s FROM generate_series(1, 2) g(i),
  LATERAL (SELECT k, sum(v) AS s FROM par_rescan GROUP BY k ORDER BY k DESC LIMIT g.i) x;
SELECT fallbacks - :fallbacks_before AS fallbacks_of_two_scans, last_fallback_reason
  FROM gpugb_backend_stats();
DROP TABLE par_rescan;
RESET gpugb.device_memory_limit;
RESET gpugb.require_gpu;
SELECT * FROM gpugb_memory_in_use();

-- Chosen on cost, not forced: with millions of groups the parallel-ingest
-- path still wins, because the groups leave from the leader and never
-- cross a tuple queue (Gather's parallel_tuple_cost does not apply).
RESET gpugb.force;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
CREATE TABLE par_groups AS SELECT i % 1000000 AS k, i AS v FROM generate_series(1, 3000000) i;
ANALYZE par_groups;
EXPLAIN (COSTS OFF) SELECT k, count(*), sum(v) FROM par_groups GROUP BY k;

-- Long text keys (more than 16 bytes) under parallel ingest: the leader and
-- every worker encode them in one dictionary shared through the query's
-- DSA (textdict.c), so equal texts get equal ids in every process.  Each
-- query must run as GpuGroupAgg under a Gather with workers launched, and
-- give PostgreSQL's answer (a fallback is an ERROR: gpugb.require_gpu).
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET gpugb.force = on;
-- 'shared-16-bytes:' is 16 bytes: t's long values differ only after it.
CREATE TABLE par_text AS SELECT
  CASE WHEN i % 101 = 0 THEN NULL ELSE 'shared-16-bytes:' || (i % 20000) END AS t,
  (CASE WHEN i % 103 = 0 THEN NULL ELSE 'c' || repeat('.', 16) || (i % 700) END)::char(30) AS c,
  (CASE WHEN i % 107 = 0 THEN NULL ELSE 'v' || md5((i % 3000)::text) END)::varchar(40) AS v,
  i % 7 AS s, i AS n
  FROM generate_series(1, 300000) i;
-- short, empty, exactly 16 and 17 bytes, and trailing spaces (char(n) drops them)
INSERT INTO par_text VALUES ('', '', '', 1, 1), ('short', 'short', 'short', 2, 2),
  ('exactly sixteen!', 'exactly sixteen!', 'exactly sixteen!', 3, 3),
  ('exactly seventeen', 'exactly seventeen  ', 'exactly seventeen', 4, 4),
  ('shared-16-bytes:', 'c................', 'shared-16-bytes: ', 5, 5);
ANALYZE par_text;
EXPLAIN (COSTS OFF) SELECT t, count(*), sum(n) FROM par_text GROUP BY t;
EXPLAIN (COSTS OFF) SELECT c, v, count(*) FROM par_text GROUP BY c, v;
SELECT q, (gpugb_parallel_check(q)).* FROM (VALUES
  ('SELECT t, count(*), sum(n) FROM par_text GROUP BY t'),
  ('SELECT c, count(*), min(n) FROM par_text GROUP BY c'),
  ('SELECT v, count(*), avg(s) FROM par_text GROUP BY v'),
  ('SELECT c, v, s, count(*) FROM par_text GROUP BY c, v, s'),
  ('SELECT t, c, count(*), max(n) FROM par_text WHERE n % 3 <> 0 GROUP BY t, c'),
  ('SELECT s, t, sum(n) FROM par_text GROUP BY s, t HAVING count(*) > 20')
) AS x(q);
SELECT t, octet_length(t), count(*) FROM par_text
  WHERE t LIKE 'shared-16-bytes:%' OR t LIKE 'exactly%' OR t = '' OR t IS NULL
  GROUP BY t ORDER BY count(*), t LIMIT 6;
-- A rescan (the Gather under a correlated subquery runs once per outer
-- row, with new workers) starts the dictionary afresh.
EXPLAIN (COSTS OFF) SELECT o.s, (SELECT count(*) FROM
    (SELECT t, count(*) FROM par_text WHERE n < 3000 GROUP BY t OFFSET 0) g
    WHERE g.t LIKE 'shared-16-bytes:1_' || o.s || '%') FROM (VALUES (1), (2), (3)) o(s);
SELECT (gpugb_parallel_check($$SELECT o.s, (SELECT count(*) FROM
    (SELECT t, count(*) FROM par_text WHERE n < 3000 GROUP BY t OFFSET 0) g
    WHERE g.t LIKE 'shared-16-bytes:1_' || o.s || '%') FROM (VALUES (1), (2), (3)) o(s)$$)).*;
SELECT o.s, (SELECT string_agg(g.t || ':' || g.count, ' ' ORDER BY g.t) FROM
    (SELECT t, count(*) FROM par_text WHERE n < 3000 GROUP BY t OFFSET 0) g
    WHERE g.t LIKE 'shared-16-bytes:1_' || o.s) FROM (VALUES (1), (2), (3)) o(s);
-- Texts longer than a quarter of a dictionary block (64 kB): each new one
-- gets a DSA allocation of its own; every process meets them at once.
CREATE TABLE par_big AS SELECT repeat(chr(97 + i % 26), 70000 + i % 5) || (i % 40) AS t, i AS n
  FROM generate_series(1, 4000) i;
ALTER TABLE par_big SET (parallel_workers = 2);
ANALYZE par_big;
SELECT (gpugb_parallel_check('SELECT t, count(*), sum(n) FROM par_big GROUP BY t')).*;
SELECT count(DISTINCT t), min(octet_length(t)), max(octet_length(t)) FROM par_big;
RESET gpugb.force;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
