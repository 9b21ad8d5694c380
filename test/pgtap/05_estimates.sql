-- Group estimates far off: a table without ANALYZE, GROUP BY mod(x, 1000)
-- over unique x (the planner expects ~one group per row), and the opposite
-- (statistics say one distinct value, the data has many) with small strides
-- (gpugb.stride_rows = 1024) so that many strides and table growth happen.
\ir setup.sql
SELECT no_plan();

-- Properties of the (first) GpuGroupAgg node of EXPLAIN ANALYZE (or, with_analyze => false, of the plan).
CREATE OR REPLACE FUNCTION pg_temp.gpugb_node(query text, with_analyze boolean DEFAULT true) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE format($f$EXPLAIN (ANALYZE %s, COSTS ON, TIMING false, FORMAT JSON) $f$, with_analyze::text) || query INTO plan;
    RETURN jsonb_path_query_first(plan, 'strict $.**?(@."Custom Plan Provider" == "GpuGroupAgg")');
END
$$;
-- On the device (expect = gpu), the run must have used more than one stride.
CREATE OR REPLACE FUNCTION pg_temp.check_strides(query text, min_strides int, description text)
RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    node jsonb := pg_temp.gpugb_node(query);
BEGIN
    IF coalesce(nullif(current_setting('gpugb_test.expect', true), ''), 'any') <> 'gpu' THEN
        RETURN NEXT skip('strides are only counted on the device (gpugb_test.expect = gpu)', 1);
        RETURN;
    END IF;
    RETURN NEXT cmp_ok(coalesce((node->>'Strides')::int, 0), '>=', min_strides, description);
    RETURN NEXT diag(format('estimated groups %s, groups %s, strides %s, hash table slots %s, grows %s',
                            node->>'Estimated Groups', node->>'Groups', node->>'Strides',
                            node->>'Hash Table Slots', node->>'Hash Table Grows'));
END
$$;

SELECT (200000 * :scale)::bigint AS n_rows \gset

-- 1. No statistics at all.
CREATE TEMP TABLE nostats AS
SELECT i, (hashint8(i) & 65535)::int AS k, (i % 1000)::int AS v, gpugb_rand(i, 1) AS x
  FROM generate_series(1::bigint, :n_rows) i;
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s, avg(x) AS a FROM nostats GROUP BY k$$,
                   'table without ANALYZE, ~65536 groups');
SELECT gpugb_check($$SELECT k % 3 AS k3, i % 1000 AS k1000, count(*) AS n FROM nostats GROUP BY 1, 2$$,
                   'table without ANALYZE, two keys');

-- 2. The planner expects too many groups: mod(unique, 1000).
CREATE TEMP TABLE uniq AS
SELECT i AS x, (hashint8(i) % 1000)::int AS v FROM generate_series(1::bigint, :n_rows) i;
ANALYZE uniq;
SELECT gpugb_check($$SELECT mod(x, 1000) AS m, count(*) AS n, sum(v) AS s, min(v) AS mn FROM uniq GROUP BY 1$$,
                   'GROUP BY mod(x, 1000): estimate ~rows, actual 1000');
SELECT gpugb_check($$SELECT mod(x, 2) AS m, count(*) AS n, sum(v) AS s FROM uniq GROUP BY 1$$,
                   'GROUP BY mod(x, 2): estimate ~rows, actual 2');

-- 3. The planner expects one group, there are many; small strides.
CREATE TEMP TABLE grows (k int8, v int, x float8);
INSERT INTO grows SELECT 42, 1, 1.0 FROM generate_series(1, 1000);
ANALYZE grows;
INSERT INTO grows SELECT hashint8(i) % 50000, (i % 100)::int, gpugb_rand(i, 2)
  FROM generate_series(1::bigint, :n_rows) i;
SET gpugb.stride_rows = 1024;
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s, avg(x) AS a, max(x) AS mx FROM grows GROUP BY k$$,
                   'estimate 1 group, ~1e5 actual, stride_rows = 1024');
SELECT pg_temp.check_strides($$SELECT k, count(*) AS n, sum(v) AS s FROM grows GROUP BY k$$, 100,
                             'stride_rows = 1024: more than 100 strides');
SELECT gpugb_check($$SELECT k % 10 AS k10, count(*) AS n, sum(v) AS s FROM grows GROUP BY 1$$,
                   'estimate 1 group, 19 actual, stride_rows = 1024');
SELECT gpugb_check($$SELECT count(*) AS n, sum(k) AS s, min(x) AS mn FROM grows$$,
                   'no GROUP BY, stride_rows = 1024');
SELECT gpugb_check($$SELECT k, v, count(*) AS n FROM grows WHERE k < 1000 GROUP BY k, v$$,
                   'two keys, stride_rows = 1024');
SET gpugb.stride_rows = 1025;
SELECT gpugb_check($$SELECT k % 1000 AS k1000, count(*) AS n, sum(v) AS s FROM grows GROUP BY 1$$,
                   'stride_rows = 1025 (odd size)');
RESET gpugb.stride_rows;
SELECT pg_temp.check_strides($$SELECT i % 5 AS k, count(*) AS n FROM nostats GROUP BY 1$$, 1,
                             'default stride_rows: at least one stride');

-- 4. One group planned, ~1e5 in one launch, with PARTITION: its partitions are sized for the one
-- group, so its lookups find no group id left (or walk past their slice of the table), and the
-- launch sends the rest of its rows to the retries (session 39: PARTITION's lookup bound,
-- GpugbAggParams.overflow; unbounded, forced PARTITION at 0.08x the groups ran over 60 s on 2^28
-- rows). The result everywhere; on the device with partition forced, the overflowed launch.
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s FROM grows GROUP BY k$$,
                   'estimate 1 group, ~1e5 actual, default strides');
CREATE OR REPLACE FUNCTION pg_temp.check_partition_overflowed(query text, description text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    IF NOT (current_setting('gpugb_test.expect', true) = 'gpu' AND
            current_setting('gpugb.emulate_device') = 'off' AND
            current_setting('gpugb.strategy') = 'partition') THEN
        RETURN pass(description || ' (not this run: partition forced on a device only)');
    END IF;
    n := coalesce((pg_temp.gpugb_node(query) ->> 'Partition Launches Overflowed')::bigint, 0);
    RETURN ok(n > 0, description || format(' (Partition Launches Overflowed: %s)', n));
END
$$;
SELECT pg_temp.check_partition_overflowed(
    $$SELECT k, count(*) AS n, sum(v) AS s FROM grows GROUP BY k$$,
    'partition forced on the device, one group planned: a launch overflowed and retried its rest');

-- NULLs in the statistics of a key or an aggregate input (session 43): launches with NULLs do not
-- move their rows, so the planned strategy must not count on PARTITION's lean kernel; EXPLAIN says
-- so (Estimated Nulls), and the results stay right.
CREATE TEMP TABLE withnulls AS
SELECT (i % 5000)::int AS k, CASE WHEN i % 10 = 0 THEN NULL ELSE (i % 100)::int END AS v,
       (i % 100)::int AS w
  FROM generate_series(1::bigint, :n_rows) i;
ANALYZE withnulls;
SELECT is(pg_temp.gpugb_node($$SELECT k, count(*) AS n, sum(v) AS s FROM withnulls GROUP BY k$$, false)
          ->> 'Estimated Nulls', 'true', 'NULLs in a summed input''s statistics: Estimated Nulls');
SELECT is(pg_temp.gpugb_node($$SELECT v, count(*) AS n FROM withnulls GROUP BY v$$, false)
          ->> 'Estimated Nulls', 'true', 'NULLs in the key''s statistics: Estimated Nulls');
SELECT ok(pg_temp.gpugb_node($$SELECT k, count(*) AS n, sum(w) AS s FROM withnulls GROUP BY k$$, false)
          ->> 'Estimated Nulls' IS NULL AND
          pg_temp.gpugb_node($$SELECT k, count(*) AS n, sum(w) AS s FROM withnulls GROUP BY k$$, false) IS NOT NULL,
          'no NULLs in the key''s or the input''s statistics: a GpuGroupAgg node without Estimated Nulls');
-- ...and NULLs the plan makes: a FILTER (a CASE without ELSE), an expression over a column with
-- NULLs, and an outer join's side.
CREATE TEMP TABLE few AS SELECT j, j * 10 AS w FROM generate_series(0, 99) j;
ANALYZE few;
SELECT is(pg_temp.gpugb_node($$SELECT k, sum(w) FILTER (WHERE w > 5) AS s FROM withnulls GROUP BY k$$, false)
          ->> 'Estimated Nulls', 'true', 'a FILTER clause: Estimated Nulls');
SELECT is(pg_temp.gpugb_node($$SELECT k, sum(v + 1) AS s FROM withnulls GROUP BY k$$, false)
          ->> 'Estimated Nulls', 'true', 'an expression over a column with NULLs: Estimated Nulls');
SELECT is(pg_temp.gpugb_node($$SELECT t.k, sum(f.w) AS s FROM withnulls t LEFT JOIN few f ON f.j = t.k
                                GROUP BY t.k$$, false)
          ->> 'Estimated Nulls', 'true', 'an outer join''s nullable side: Estimated Nulls');
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s, count(v) AS nv FROM withnulls GROUP BY k$$,
                   'NULL inputs the statistics expect');
-- ...but not the NULLs the query cannot see (session 44): a restriction that filters them out, and a
-- COALESCE with a constant; where some still reach the value, Estimated Nulls stays.
SELECT ok(pg_temp.gpugb_node($$SELECT k, count(*) AS n, sum(v) AS s FROM withnulls WHERE v IS NOT NULL
                                GROUP BY k$$, false) ->> 'Estimated Nulls' IS NULL,
          'WHERE v IS NOT NULL: no Estimated Nulls for sum(v)');
SELECT ok(pg_temp.gpugb_node($$SELECT v, count(*) AS n FROM withnulls WHERE v > 5 GROUP BY v$$, false)
          ->> 'Estimated Nulls' IS NULL,
          'WHERE v > 5 (a strict operator): no Estimated Nulls for the key v');
SELECT ok(pg_temp.gpugb_node($$SELECT k, sum(coalesce(v, 0)) AS s FROM withnulls GROUP BY k$$, false)
          ->> 'Estimated Nulls' IS NULL,
          'sum(coalesce(v, 0)): no Estimated Nulls');
SELECT is(pg_temp.gpugb_node($$SELECT k, sum(coalesce(v, 0) + v) AS s FROM withnulls GROUP BY k$$, false)
          ->> 'Estimated Nulls', 'true', 'sum(coalesce(v, 0) + v): v''s NULLs still reach it, Estimated Nulls');
SELECT is(pg_temp.gpugb_node($$SELECT k, sum(v) AS s FROM withnulls WHERE w IS NOT NULL GROUP BY k$$, false)
          ->> 'Estimated Nulls', 'true', 'WHERE w IS NOT NULL says nothing of v: Estimated Nulls');
CREATE TEMP TABLE withnulls_vc AS SELECT k, v::varchar AS vc FROM withnulls;
ANALYZE withnulls_vc;
SELECT ok(pg_temp.gpugb_node($$SELECT vc::text AS t, count(*) AS n FROM withnulls_vc WHERE vc IS NOT NULL
                                GROUP BY vc::text$$, false) ->> 'Estimated Nulls' IS NULL AND
          pg_temp.gpugb_node($$SELECT vc::text AS t, count(*) AS n FROM withnulls_vc WHERE vc IS NOT NULL
                                GROUP BY vc::text$$, false) IS NOT NULL,
          'WHERE vc IS NOT NULL, GROUP BY vc::text (a binary-compatible cast): no Estimated Nulls');
SELECT is(pg_temp.gpugb_node($$SELECT vc::text AS t, count(*) AS n FROM withnulls_vc GROUP BY vc::text$$, false)
          ->> 'Estimated Nulls', 'true', 'GROUP BY vc::text with vc''s NULLs: Estimated Nulls');
SELECT gpugb_check($$SELECT k, count(*) AS n, sum(v) AS s, sum(coalesce(v, 0)) AS c FROM withnulls
                     WHERE v IS NOT NULL GROUP BY k$$,
                   'a restriction that filters the NULLs out, and a COALESCE');
-- The planned strategy follows: statistics faked to 2^28 rows in 2^22 groups, launches of 2^26
-- rows (16 rows a key), where auto plans PARTITION's lean kernel for sum(w) and not for sum(v).
-- Required where the run expects the GPU path (the emulator's and the H200's device properties);
-- elsewhere (no device: the fallback run) only where auto plans the lean partition at all.
CREATE TEMP TABLE big AS SELECT * FROM withnulls;
ALTER TABLE big ALTER COLUMN k SET (n_distinct = 4194304);
ANALYZE big;
UPDATE pg_class SET reltuples = 268435456 WHERE oid = 'big'::regclass;
SET gpugb.stride_rows = 67108864;
-- Auto's plan is the subject, also where the run forces a strategy (test/gpu-box.sh strategies:
-- the reason would read 'forced by gpugb.strategy (auto would choose ...)').
SET gpugb.strategy = auto;
SELECT coalesce(pg_temp.gpugb_node($$SELECT k, count(*) AS n, sum(w) AS s FROM big GROUP BY k$$, false)
                ->> 'Strategy Reason', 'no GpuGroupAgg node') AS lean_reason,
       coalesce(pg_temp.gpugb_node($$SELECT k, count(*) AS n, sum(v) AS s FROM big GROUP BY k$$, false)
                ->> 'Strategy Reason', 'no GpuGroupAgg node') AS nulls_reason \gset
SELECT CASE WHEN coalesce(nullif(current_setting('gpugb_test.expect', true), ''), 'any') = 'gpu' OR
                 :'lean_reason' LIKE '%lean block table%'
            THEN ok(:'lean_reason' LIKE '%lean block table%' AND :'nulls_reason' NOT LIKE '%lean%',
                    'NULLs expected: the planned strategy does not count on the lean partition (without: ' ||
                    :'lean_reason' || '; with: ' || :'nulls_reason' || ')')
            ELSE skip('auto plans no lean partition here (' || :'lean_reason' || ')', 1) END;
RESET gpugb.stride_rows;
RESET gpugb.strategy;

SELECT gpugb_check_no_leak('no device memory, pinned memory or streams held after the suite');
SELECT * FROM finish();
