-- Query shapes: HAVING, GROUP BY over joins and subqueries, aggregates without
-- GROUP BY (also on empty input), empty input with GROUP BY, plain GROUP BY,
-- ORDER BY/LIMIT above, several GpuGroupAgg nodes in one query, rescans
-- (correlated subquery, LATERAL), CTEs, prepared statements.
\ir setup.sql
SELECT no_plan();

SELECT (100000 * :scale)::bigint AS n_rows \gset
CREATE TEMP TABLE f AS
SELECT i AS id, (i % 1000)::int AS k, (i % 7)::int AS k7, i % 7 AS k7l, (hashint8(i) % 10000)::int AS v,
       gpugb_rand(i, 1) * 100 AS x, date '2024-01-01' + (i % 366)::int AS d,
       -- k7l with 3 as the deferred block table's empty word (GPUGB_DEFERRED_EMPTY_KEY, cuda/gpugb_device.h)
       CASE WHEN i % 7 = 3 THEN -6489471688821795189 ELSE i % 7 END AS k7x
  FROM generate_series(1::bigint, :n_rows) i;
CREATE TEMP TABLE dim AS
SELECT k, 'name ' || k AS name, (k % 10)::int AS region, k % 3 = 0 AS flag
  FROM generate_series(0, 1199) k;
CREATE TEMP TABLE empty (k int, v int, x float8, d date);
ANALYZE f; ANALYZE dim; ANALYZE empty;

-- HAVING
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s FROM f GROUP BY k HAVING sum(v) > 0$$, 'HAVING on a selected aggregate');
SELECT gpugb_check($$SELECT k, count(*) AS n FROM f GROUP BY k HAVING avg(x) > 50 AND max(v) > 9000$$,
                   'HAVING on aggregates not in the select list');
SELECT gpugb_check($$SELECT k7, count(*) AS n FROM f GROUP BY k7 HAVING k7 > 2 AND count(*) > 0$$, 'HAVING on a key');
SELECT gpugb_check($$SELECT count(*) AS n, sum(v) AS s FROM f HAVING count(*) > 1000000000$$, 'HAVING without GROUP BY, false');
SELECT gpugb_check($$SELECT count(*) AS n, sum(v) AS s FROM f HAVING count(*) > 0$$, 'HAVING without GROUP BY, true');
-- Outputs computed from keys and aggregates
SELECT gpugb_check($$SELECT k * 2 + 1 AS k2, count(*) * 2 AS n2, sum(v) / nullif(count(v), 0) AS q, max(x) - min(x) AS span
                        FROM f GROUP BY k$$, 'expressions over keys and aggregates in the output');
SELECT gpugb_check($$SELECT count(*) AS n FROM f GROUP BY k$$, 'output without the key');
SELECT gpugb_check($$SELECT k, count(*) FILTER (WHERE v > 0) AS n, sum(v) FILTER (WHERE k7 = 3) AS s,
                            avg(x) FILTER (WHERE v % 2 = 0) AS a, max(d) FILTER (WHERE x IS NULL) AS mx
                     FROM f GROUP BY k$$, 'FILTER on count(*), sum, avg and max');
SELECT gpugb_check($$SELECT k7, bool_and(v > 0) AS ba, bool_or(x > 50) AS bo, every(d IS NOT NULL) AS ev,
                            count(*) FILTER (WHERE v IS NULL) AS nn FROM f GROUP BY k7$$,
                   'bool_and, bool_or, every, FILTER on NULL tests');
SELECT gpugb_check($$SELECT count(*) FILTER (WHERE false) AS n0, sum(v) FILTER (WHERE false) AS s0,
                            bool_and(v > 0) FILTER (WHERE false) AS b0 FROM f$$,
                   'FILTER that keeps no row, without GROUP BY');
SELECT gpugb_check($$SELECT k, k7 FROM f GROUP BY k, k7$$, 'plain GROUP BY without aggregates');
SELECT gpugb_check($$SELECT k, count(*) AS n1, count(*) AS n2, sum(v) AS s, avg(v) AS a, count(v) AS c FROM f GROUP BY k$$,
                   'the same aggregate twice, aggregates sharing an input');
-- Joins and subqueries
SELECT gpugb_check($$SELECT dim.region, count(*) AS n, sum(f.v) AS s, avg(f.x) AS a FROM f JOIN dim USING (k)
                      GROUP BY dim.region$$, 'GROUP BY over a join, key from the inner side');
SELECT gpugb_check($$SELECT f.k7, dim.flag, count(*) AS n, max(f.d) AS mx FROM f JOIN dim ON dim.k = f.k AND dim.region < 5
                      GROUP BY 1, 2$$, 'GROUP BY over a join with a filter');
SELECT gpugb_check($$SELECT dim.k, count(f.id) AS n, sum(f.v) AS s FROM dim LEFT JOIN f ON f.k = dim.k GROUP BY dim.k$$,
                   'GROUP BY over an outer join (empty groups, count(x) = 0)');
SELECT gpugb_check($$SELECT q.kk, count(*) AS n, sum(q.vv) AS s FROM (SELECT k % 10 AS kk, v * 2 AS vv FROM f WHERE x < 50) q
                      GROUP BY q.kk$$, 'GROUP BY over a subquery');
SELECT gpugb_check($$SELECT q.k7, count(*) AS n, sum(q.v) AS s FROM (SELECT k7, v FROM f ORDER BY id LIMIT 5000) q GROUP BY q.k7$$,
                   'GROUP BY over a subquery with LIMIT');
SELECT gpugb_check($$SELECT r.region, count(*) AS n, sum(agg.s) AS ss FROM
                        (SELECT k, sum(v) AS s FROM f GROUP BY k) agg JOIN dim r USING (k) GROUP BY r.region$$,
                   'GROUP BY over a join with a grouped subquery (two GpuGroupAgg nodes)');
SELECT gpugb_check($$SELECT n, count(*) AS groups FROM (SELECT k, count(*) AS n FROM f GROUP BY k) q GROUP BY n$$,
                   'GROUP BY over an aggregate result');
SELECT gpugb_check($$WITH c AS MATERIALIZED (SELECT k7, v FROM f WHERE v > 0) SELECT k7, count(*) AS n, sum(v) AS s FROM c GROUP BY k7$$,
                   'GROUP BY over a materialized CTE');
SELECT gpugb_check($$SELECT k7, count(*) AS n FROM f GROUP BY k7 UNION ALL SELECT k7 + 100, sum(v) FROM f GROUP BY k7$$,
                   'UNION ALL of two grouped queries');
-- Rescans
SELECT gpugb_check($$SELECT dim.k, (SELECT count(*) FROM f WHERE f.k = dim.k) AS n,
                             (SELECT sum(v) FROM f WHERE f.k = dim.k) AS s FROM dim WHERE dim.k < 20$$,
                   'correlated subqueries without GROUP BY (rescans)');
SELECT gpugb_check($$SELECT dim.k, l.k7, l.n FROM dim, LATERAL (SELECT k7, count(*) AS n FROM f WHERE f.k = dim.k GROUP BY k7) l
                      WHERE dim.k < 10$$, 'LATERAL GROUP BY (rescans with parameters)');
-- ORDER BY / LIMIT / window above
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s FROM f GROUP BY k ORDER BY s DESC, k LIMIT 10$$,
                   'ORDER BY aggregate, LIMIT');
SELECT gpugb_check($$SELECT k7, sum(v) AS s, rank() OVER (ORDER BY sum(v)) AS r FROM f GROUP BY k7$$,
                   'window function over grouped rows');
-- Aggregates without GROUP BY
SELECT gpugb_check($$SELECT count(*) AS n, count(v) AS c, sum(v) AS s, min(x) AS mn, max(d) AS mx, avg(v) AS a, avg(x) AS ax FROM f$$,
                   'no GROUP BY');
SELECT gpugb_check($$SELECT count(*) AS n, count(v) AS c, sum(v) AS s, min(x) AS mn, max(d) AS mx, avg(v) AS a, sum(x) AS sx
                        FROM f WHERE id < 0$$, 'no GROUP BY, empty input (filtered)');
SELECT gpugb_check($$SELECT count(*) AS n, sum(v) AS s, min(d) AS mn, avg(x) AS a FROM empty$$, 'no GROUP BY, empty table');
-- Empty input with GROUP BY
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s, max(d) AS mx FROM empty GROUP BY k$$, 'GROUP BY, empty table');
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(x) AS s FROM f WHERE id < 0 GROUP BY k$$, 'GROUP BY, empty input (filtered)');
SELECT gpugb_check($$SELECT e.k, count(*) AS n FROM empty e JOIN f ON f.k = e.k GROUP BY e.k$$, 'GROUP BY over an empty join');

-- Prepared statement executed several times (generic plan after 5 runs).
PREPARE pq(int) AS SELECT k7, count(*) AS n, sum(v) AS s FROM f WHERE k < $1 GROUP BY k7 ORDER BY k7;
SET plan_cache_mode = force_generic_plan;
SELECT results_eq('EXECUTE pq(500)',
                  $$SELECT k7, count(*), sum(v) FROM f WHERE k < 500 GROUP BY k7 ORDER BY k7$$,
                  'prepared statement, generic plan, run 1');
SELECT results_eq('EXECUTE pq(700)',
                  $$SELECT k7, count(*), sum(v) FROM f WHERE k < 700 GROUP BY k7 ORDER BY k7$$,
                  'prepared statement, generic plan, run 2');
RESET plan_cache_mode;

-- PARTITION moves the rows of one key word without NULLs and one value input with its sort
-- (cuda/partition_move.cu; f's k and v are int4 columns without NULLs), and runs such launches
-- of COUNT and one integer SUM with its lean kernel (cuda/partition_lean_kernel.cuh) where a
-- launch has 8 rows a group or more (k7: seven groups, whatever the workers' share).  On the
-- device with partition forced, EXPLAIN ANALYZE must count both kinds of launch; elsewhere (the
-- emulator, whose device has no such launches, the fallback, other strategies) there is nothing
-- to count.
CREATE OR REPLACE FUNCTION pg_temp.gpugb_partition_launches(q text, what text) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || q INTO plan;
    RETURN coalesce((jsonb_path_query_first(plan::jsonb,
        'strict $.**? (@."Custom Plan Provider" == "GpuGroupAgg")') ->> what)::bigint, 0);
END
$fn$;
-- The checks below run where PARTITION is forced on a real device; elsewhere they pass as "not this run".
CREATE OR REPLACE FUNCTION pg_temp.partition_forced_on_device() RETURNS boolean
LANGUAGE sql AS $fn$
    SELECT current_setting('gpugb_test.expect', true) = 'gpu' AND
           current_setting('gpugb.emulate_device') = 'off' AND
           current_setting('gpugb.strategy') = 'partition'
$fn$;
-- ok() that query q's EXPLAIN ANALYZE counts launches of kind `what` (> 0, or = 0 where none
-- may run), on the device with partition forced; pass() elsewhere.
CREATE OR REPLACE FUNCTION pg_temp.ok_partition_launches(q text, what text, description text,
                                                         expect_none boolean DEFAULT false) RETURNS text
LANGUAGE plpgsql AS $fn$
DECLARE
    n bigint;
BEGIN
    IF NOT pg_temp.partition_forced_on_device() THEN
        RETURN pass(description || ' (not this run)');
    END IF;
    n := pg_temp.gpugb_partition_launches(q, what);
    RETURN ok(CASE WHEN expect_none THEN n = 0 ELSE n > 0 END,
              description || format(' (%s: %s)', what, n));
END
$fn$;
SELECT pg_temp.ok_partition_launches($$SELECT k, count(*) AS n, sum(v) AS s FROM f GROUP BY k$$,
                                     'Partition Launches With Moved Rows',
                                     'partition forced on the device: the rows moved with the sort');
SELECT pg_temp.ok_partition_launches($$SELECT k7, count(*) AS n, sum(v) AS s FROM f GROUP BY k7$$,
                                     'Partition Launches With Lean Kernel',
                                     'partition forced on the device: the lean partition kernel ran');
-- ...reading the sorted packed rows, since k7 and v are int4 words (session 34's default).
SELECT pg_temp.ok_partition_launches($$SELECT k7, count(*) AS n, sum(v) AS s FROM f GROUP BY k7$$,
                                     'Partition Launches With Packed Rows',
                                     'partition forced on the device: the lean kernel read packed rows');
-- ...and with three sums of int4 columns too (session 35: two to four sums move only packed, for
-- the lean kernel): the results, everywhere, and on the device with partition forced, packed launches.
SELECT gpugb_check($$SELECT k7, count(*) AS n, sum(v) AS s, sum(k) AS sk, sum(k7) AS s7 FROM f GROUP BY k7$$,
                   'three sums of int4 columns on an int4 key');
SELECT pg_temp.ok_partition_launches($$SELECT k7, count(*) AS n, sum(v) AS s, sum(k) AS sk, sum(k7) AS s7 FROM f GROUP BY k7$$,
                                     'Partition Launches With Packed Rows',
                                     'partition forced on the device: three int4 sums read packed rows in the lean kernel');
-- ...and on a bigint key (session 36: 8-byte keys' rows stay packed too, in pair slots).
SELECT gpugb_check($$SELECT k7l, count(*) AS n, sum(v) AS s, sum(k) AS sk, sum(k7) AS s7 FROM f GROUP BY k7l$$,
                   'three sums of int4 columns on a bigint key');
SELECT pg_temp.ok_partition_launches($$SELECT k7l, count(*) AS n, sum(v) AS s, sum(k) AS sk, sum(k7) AS s7 FROM f GROUP BY k7l$$,
                                     'Partition Launches With Packed Rows',
                                     'partition forced on the device: three int4 sums on a bigint key read packed rows');
-- ...and a bigint key with one int4 sum: 12-byte rows, which move into their partitions in one
-- scatter pass, not CUB's sort (session 37, cuda/partition_scatter.cuh: 12-byte rows from any
-- number of partitions).
SELECT gpugb_check($$SELECT k7l, count(*) AS n, sum(v) AS s FROM f GROUP BY k7l$$,
                   'one sum of an int4 column on a bigint key');
SELECT pg_temp.ok_partition_launches($$SELECT k7l, count(*) AS n, sum(v) AS s FROM f GROUP BY k7l$$,
                                     'Partition Launches With Scattered Rows',
                                     'partition forced on the device: a bigint key and one int4 sum scatter their rows');
-- ...and the lean kernel looks group ids up at the flush (session 43, cuda/partition_deferred.cuh), over
-- packed rows of either key width and up to four sums.
SELECT pg_temp.ok_partition_launches($$SELECT k7, count(*) AS n, sum(v) AS s FROM f GROUP BY k7$$,
                                     'Partition Launches With Deferred Lookups',
                                     'partition forced on the device: an int4 key and one sum look group ids up at the flush');
SELECT pg_temp.ok_partition_launches($$SELECT k7l, count(*) AS n, sum(v) AS s, sum(k) AS sk, sum(k7) AS s7 FROM f GROUP BY k7l$$,
                                     'Partition Launches With Deferred Lookups',
                                     'partition forced on the device: a bigint key and three sums look group ids up at the flush');
-- A bigint key equal to that table's empty-slot word has no slot there: its rows are retried, not lost.
SELECT gpugb_check($$SELECT k7x, count(*) AS n, sum(v) AS s FROM f GROUP BY k7x$$,
                   'a bigint key equal to the deferred block table''s empty word');
SELECT pg_temp.ok_partition_launches($$SELECT k7x, count(*) AS n, sum(v) AS s FROM f GROUP BY k7x$$,
                                     'Partition Launches With Deferred Lookups',
                                     'partition forced on the device: the empty word''s key takes the deferred path');
SELECT pg_temp.ok_partition_launches($$SELECT k7x, count(*) AS n, sum(v) AS s FROM f GROUP BY k7x$$,
                                     'Rows Retried',
                                     'partition forced on the device: the empty word''s rows were retried');
-- ...and MIN and MAX are not the lean kernel's: the same rows move, the generic kernel runs.
SELECT pg_temp.ok_partition_launches($$SELECT k7, min(v), max(v) FROM f GROUP BY k7$$,
                                     'Partition Launches With Moved Rows',
                                     'partition forced on the device: MIN and MAX move their rows');
SELECT pg_temp.ok_partition_launches($$SELECT k7, min(v), max(v) FROM f GROUP BY k7$$,
                                     'Partition Launches With Lean Kernel',
                                     'partition forced on the device: MIN and MAX take the generic kernel',
                                     expect_none => true);

-- SHARED_HASH's block table indexed by group id (session 45, cuda/lean_gid_kernel.cuh): COUNT and an
-- int4 SUM over 10000 groups, more than a keyed lean table holds and fewer than it does (19370 of
-- one sum on the H200).  On the device with shared_hash forced, or auto (which plans it,
-- src/heuristics.c gpugb_lean_gid_pays), EXPLAIN ANALYZE must count its launches.
CREATE TEMP TABLE g10 AS
SELECT (i % 10000)::int AS k, (hashint8(i) % 1000)::int AS v FROM generate_series(1::bigint, :n_rows) i;
ANALYZE g10;
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s FROM g10 GROUP BY k$$,
                   '10000 groups of a count and an int4 sum');
-- ok() that query q's EXPLAIN ANALYZE counts SHARED_HASH launches of kind `what` (> 0, or = 0 where
-- none may run), on the device with shared_hash or auto; pass() elsewhere.
CREATE OR REPLACE FUNCTION pg_temp.ok_shared_launches(q text, what text, description text,
                                                      expect_none boolean DEFAULT false) RETURNS text
LANGUAGE plpgsql AS $fn$
DECLARE
    n bigint;
BEGIN
    IF NOT (current_setting('gpugb_test.expect', true) = 'gpu' AND
            current_setting('gpugb.emulate_device') = 'off' AND
            current_setting('gpugb.strategy') IN ('shared_hash', 'auto')) THEN
        RETURN pass(description || ' (not this run)');
    END IF;
    n := pg_temp.gpugb_partition_launches(q, what);
    RETURN ok(CASE WHEN expect_none THEN n = 0 ELSE n > 0 END,
              description || format(' (%s: %s)', what, n));
END
$fn$;
SELECT pg_temp.ok_shared_launches($$SELECT k, count(*) AS n, sum(v) AS s FROM g10 GROUP BY k$$,
                                  'Shared Launches Indexed By Group Id',
                                  'shared_hash or auto on the device: 10000 groups take the table indexed by group id');
-- ...looking each row's one int4 key word up a step ahead (cuda/lean_gid_kernel.cuh, gpugb_lean_gid_rows_ahead).
SELECT pg_temp.ok_shared_launches($$SELECT k, count(*) AS n, sum(v) AS s FROM g10 GROUP BY k$$,
                                  'Shared Launches Looking Up Key Words',
                                  'shared_hash or auto on the device: 10000 groups look their key words up');

-- 4000 groups of a count and an int4 SUM: one block's keyed table holds them all (the fast lean
-- kernel's one-block table, cuda/launch.cu); since session 54 the table indexed by group id takes
-- them first where no group holds 5 % of the rows (src/heuristics.c, gpugb_lean_gid_first).
CREATE TEMP TABLE g4 AS
SELECT (i % 4000)::int AS k, (hashint8(i) % 1000)::int AS v FROM generate_series(1::bigint, :n_rows) i;
ANALYZE g4;
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s FROM g4 GROUP BY k$$,
                   '4000 groups of a count and an int4 sum');
SELECT pg_temp.ok_shared_launches($$SELECT k, count(*) AS n, sum(v) AS s FROM g4 GROUP BY k$$,
                                  'Shared Launches Looking Up Key Words',
                                  'shared_hash or auto on the device: 4000 groups take the key-word loop first');
-- ...but not where the sum is not declared int32: the plan sized the global table for the keyed tables,
-- in which the group-id table ran 0.43-0.55x (session 54's review; cuda/launch.cu, p.lean_gid_first).
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v::int8) AS s FROM g4 GROUP BY k$$,
                   '4000 groups of a count and an int8 sum');
SELECT pg_temp.ok_shared_launches($$SELECT k, count(*) AS n, sum(v::int8) AS s FROM g4 GROUP BY k$$,
                                  'Shared Launches Indexed By Group Id',
                                  'shared_hash or auto on the device: 4000 groups of an int8 sum take the keyed tables',
                                  expect_none => true);

-- Three int4 sums over 10000 groups: more than the group-id table of three sums holds (8300 on the
-- H200), fewer than one sum's: the table once a sum (src/heuristics.c, gpugb_lean_gid_split_ranges).
-- 40000 groups of one sum: more than even one sum's table holds (19370): once a sum and group range.
-- Asserted where shared_hash is forced (auto plans by the planner's estimate, which may differ here).
CREATE OR REPLACE FUNCTION pg_temp.ok_forced_shared_launches(q text, what text, description text) RETURNS text
LANGUAGE plpgsql AS $fn$
BEGIN
    IF current_setting('gpugb.strategy') <> 'shared_hash' THEN
        RETURN pass(description || ' (not this run)');
    END IF;
    RETURN pg_temp.ok_shared_launches(q, what, description);
END
$fn$;
CREATE TEMP TABLE g10w AS
SELECT (i % 10000)::int AS k, (hashint8(i) % 1000)::int AS v, (hashint8(i + 7) % 100000)::int AS w,
       (i % 77)::int AS x
  FROM generate_series(1::bigint, :n_rows) i;
ANALYZE g10w;
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s, sum(w) AS s1, sum(x) AS s2 FROM g10w GROUP BY k$$,
                   '10000 groups of a count and three int4 sums');
SELECT pg_temp.ok_forced_shared_launches(
    $$SELECT k, count(*) AS n, sum(v) AS s, sum(w) AS s1, sum(x) AS s2 FROM g10w GROUP BY k$$,
    'Shared Launches Split By Sum',
    'shared_hash on the device: 10000 groups of three int4 sums take the group-id table once a sum');
CREATE TEMP TABLE g40 AS
SELECT (i % 40000)::int AS k, (hashint8(i) % 1000)::int AS v FROM generate_series(1::bigint, 4 * :n_rows) i;
ANALYZE g40;
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s FROM g40 GROUP BY k$$,
                   '40000 groups of a count and an int4 sum');
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s, sum(k) AS s1 FROM g40 GROUP BY k$$,
                   '40000 groups of a count and two int4 sums');
SELECT pg_temp.ok_forced_shared_launches($$SELECT k, count(*) AS n, sum(v) AS s FROM g40 GROUP BY k$$,
                                         'Shared Launches Split By Group Range',
                                         'shared_hash on the device: 40000 groups take the group-id table by group range');

SELECT gpugb_check_no_leak('no device memory, pinned memory or streams held after the suite');
SELECT * FROM finish();
