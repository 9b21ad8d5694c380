-- test/pgtap/setup.sql: shared set-up of the gpugb pgTAP differential suites.
--
-- Every suite starts with "\ir setup.sql".  It loads gpugb, makes sure the
-- pgtap and gpugb extensions exist, (re)creates the helpers below and sets
-- the psql variable :scale from the setting gpugb_test.scale (default 1).
--
-- Helpers:
--   gpugb_check(query, description [, float8_tol, float4_tol]) -> TAP line
--       Runs QUERY with gpugb.enabled=off (PostgreSQL's own plan) and with
--       gpugb.enabled=on, asserts that the "on" plan contains GpuGroupAgg and
--       compares both results as multisets: every non-float column exactly
--       (as text, so numeric scale counts too), float4/float8 columns within a
--       relative tolerance (NULL = NULL, NaN = NaN, Infinity = Infinity).
--       The result columns must have distinct names (alias them).
--       With gpugb_test.expect = 'gpu' the "on" run must have run on the
--       device (gpugb_backend_stats().gpu_runs grew); with 'fallback' it must
--       have fallen back (fallbacks grew, gpu_runs did not).
--       Each check is logged in the table gpugb_tap_log (run.sh sums it up).
--   gpugb_check_no_leak(description) -> TAP line
--       gpugb_memory_in_use() is all zeros.
--   gpugb_float_close(a, b, tol) -> bool
--   gpugb_rand(i, salt) -> float8 in [0, 1), a deterministic hash of (i, salt)
--
-- The suites run without an enclosing transaction (each statement commits),
-- so that gpugb_tap_log keeps its rows; their tables are temporary.

\set QUIET 1
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
LOAD 'gpugb';
CREATE EXTENSION IF NOT EXISTS pgtap;
CREATE EXTENSION IF NOT EXISTS gpugb;

CREATE TABLE IF NOT EXISTS gpugb_tap_log (
    id              bigserial PRIMARY KEY,
    at              timestamptz NOT NULL DEFAULT clock_timestamp(),
    backend         int NOT NULL DEFAULT pg_backend_pid(),
    description     text NOT NULL,
    passed          boolean NOT NULL,
    plan_used       boolean NOT NULL,
    gpu_runs        bigint NOT NULL,     -- delta of gpugb_backend_stats().gpu_runs
    fallbacks       bigint NOT NULL,     -- delta of gpugb_backend_stats().fallbacks
    fallback_reason text,
    result_rows     bigint,
    off_ms          float8,
    on_ms           float8,
    problem         text
);

CREATE OR REPLACE FUNCTION gpugb_float_close(a float8, b float8, tol float8)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN a IS NULL OR b IS NULL THEN a IS NULL AND b IS NULL
        WHEN a = b THEN true                 -- also NaN = NaN, Inf = Inf, -0 = 0
        WHEN a = 'NaN' OR b = 'NaN' OR a IN ('Infinity', '-Infinity')
             OR b IN ('Infinity', '-Infinity') THEN false
        ELSE abs(a - b) <= tol * greatest(abs(a), abs(b))
    END
$$;

-- Deterministic pseudo-random numbers in [0, 1): gpugb_rand(row number, salt).
CREATE OR REPLACE FUNCTION gpugb_rand(i bigint, salt bigint)
RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (hashint8extended(i, salt) & 9007199254740991)::float8 / 9007199254740992.0
$$;

CREATE OR REPLACE FUNCTION gpugb_check(query text, description text,
                                       float8_tol float8 DEFAULT 1e-9,
                                       float4_tol float8 DEFAULT 1e-5)
RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    expect      text := coalesce(nullif(current_setting('gpugb_test.expect', true), ''), 'any');
    q           text := regexp_replace(query, ';\s*$', '');
    plan        json;
    plan_used   boolean;
    runs0       bigint;  fb0 bigint;
    runs1       bigint;  fb1 bigint;
    reason      text;
    err         text;
    t0          timestamptz;
    off_ms      float8;
    on_ms       float8;
    n_off       bigint;
    n_on        bigint;
    types_off   regtype[];
    types_on    regtype[];
    names       text[];
    ord         text[] := '{}';
    ford        text[] := '{}';
    conds       text[] := '{}';
    a_cols      text[] := '{}';
    b_cols      text[] := '{}';
    diffs       text[];
    n_diffs     bigint := 0;
    problems    text[] := '{}';
    passed      boolean;
    tap         text;
BEGIN
    DROP TABLE IF EXISTS pg_temp.gpugb_chk_off;
    DROP TABLE IF EXISTS pg_temp.gpugb_chk_on;

    -- PostgreSQL's own plan.
    PERFORM set_config('gpugb.enabled', 'off', true);
    t0 := clock_timestamp();
    BEGIN
        EXECUTE 'CREATE TEMP TABLE gpugb_chk_off AS ' || q;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS err = MESSAGE_TEXT;
        PERFORM set_config('gpugb.enabled', 'on', true);
        INSERT INTO gpugb_tap_log (description, passed, plan_used, gpu_runs, fallbacks, problem)
        VALUES (description, false, false, 0, 0, 'the query failed with gpugb.enabled=off: ' || err);
        RETURN ok(false, description) || E'\n' ||
               diag(format('query: %s%sthe query failed with gpugb.enabled=off: %s (SQLSTATE %s)',
                           q, E'\n', err, SQLSTATE));
    END;
    off_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;

    -- gpugb's plan.
    PERFORM set_config('gpugb.enabled', 'on', true);
    EXECUTE 'EXPLAIN (FORMAT JSON, COSTS OFF) ' || q INTO plan;
    plan_used := plan::text LIKE '%"Custom Plan Provider": "GpuGroupAgg"%';
    IF NOT plan_used THEN
        problems := problems || 'the plan has no GpuGroupAgg node'::text;
    END IF;

    SELECT s.gpu_runs, s.fallbacks INTO runs0, fb0 FROM gpugb_backend_stats() s;
    t0 := clock_timestamp();
    BEGIN
        EXECUTE 'CREATE TEMP TABLE gpugb_chk_on AS ' || q;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS err = MESSAGE_TEXT;
        err := format('the query failed with gpugb.enabled=on: %s (SQLSTATE %s)', err, SQLSTATE);
    END;
    on_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
    SELECT s.gpu_runs - runs0, s.fallbacks - fb0, s.last_fallback_reason
      INTO runs1, fb1, reason FROM gpugb_backend_stats() s;
    PERFORM set_config('gpugb.enabled', 'on', true);

    IF err IS NOT NULL THEN
        problems := problems || err;
    ELSE
        IF expect = 'gpu' AND runs1 = 0 THEN
            problems := problems || format('expected a GPU run, got none (%s fallbacks, last reason: %s)',
                                           fb1, coalesce(reason, '-'));
        ELSIF expect = 'fallback' AND (fb1 = 0 OR runs1 > 0) THEN
            problems := problems || format('expected a fallback, got %s GPU runs and %s fallbacks',
                                           runs1, fb1);
        END IF;

        SELECT array_agg(attname::text ORDER BY attnum), array_agg(atttypid::regtype ORDER BY attnum)
          INTO names, types_off
          FROM pg_attribute WHERE attrelid = 'pg_temp.gpugb_chk_off'::regclass
           AND attnum > 0 AND NOT attisdropped;
        SELECT array_agg(atttypid::regtype ORDER BY attnum) INTO types_on
          FROM pg_attribute WHERE attrelid = 'pg_temp.gpugb_chk_on'::regclass
           AND attnum > 0 AND NOT attisdropped;
        EXECUTE 'SELECT count(*) FROM gpugb_chk_off' INTO n_off;
        EXECUTE 'SELECT count(*) FROM gpugb_chk_on' INTO n_on;

        IF types_off IS DISTINCT FROM types_on THEN
            problems := problems || format('result types differ: off %s, on %s', types_off, types_on);
        ELSE
            FOR i IN 1 .. coalesce(array_length(names, 1), 0) LOOP
                a_cols := a_cols || format('a.%I', names[i]);
                b_cols := b_cols || format('b.%I', names[i]);
                IF types_off[i] IN ('float4'::regtype, 'float8'::regtype) THEN
                    ford := ford || format('%I', names[i]);
                    conds := conds || format('gpugb_float_close(a.%1$I::float8, b.%1$I::float8, %2$s)',
                                             names[i],
                                             CASE WHEN types_off[i] = 'float4'::regtype
                                                  THEN float4_tol ELSE float8_tol END);
                ELSE
                    ord := ord || format('%I::text COLLATE "C"', names[i]);
                    conds := conds || format('a.%1$I::text IS NOT DISTINCT FROM b.%1$I::text', names[i]);
                END IF;
            END LOOP;
            ord := ord || ford;     -- order by exact columns first, floats last
            IF array_length(ord, 1) IS NULL THEN
                ord := ARRAY['1'];
            END IF;
            EXECUTE format($q$
                WITH a AS (SELECT row_number() OVER (ORDER BY %1$s) AS gpugb_rn__, t.* FROM gpugb_chk_off t),
                     b AS (SELECT row_number() OVER (ORDER BY %1$s) AS gpugb_rn__, t.* FROM gpugb_chk_on t),
                     d AS (SELECT coalesce(a.gpugb_rn__, b.gpugb_rn__) AS rn,
                                  CASE WHEN a.gpugb_rn__ IS NULL THEN '(no row)' ELSE row(%2$s)::text END AS off_row,
                                  CASE WHEN b.gpugb_rn__ IS NULL THEN '(no row)' ELSE row(%3$s)::text END AS on_row
                             FROM a FULL JOIN b ON a.gpugb_rn__ = b.gpugb_rn__
                            WHERE a.gpugb_rn__ IS NULL OR b.gpugb_rn__ IS NULL OR NOT (%4$s))
                SELECT count(*), (array_agg(format('  row %%s: off %%s  on %%s', rn, off_row, on_row) ORDER BY rn))[1:5]
                  FROM d$q$,
                array_to_string(ord, ', '),
                coalesce(array_to_string(a_cols, ', '), ''),
                coalesce(array_to_string(b_cols, ', '), ''),
                coalesce(array_to_string(conds, ' AND '), 'true'))
            INTO n_diffs, diffs;
            IF n_off <> n_on THEN
                problems := problems || format('%s rows with gpugb.enabled=off, %s with on', n_off, n_on);
            END IF;
            IF n_diffs > 0 THEN
                problems := problems || format('%s rows differ (ordered by the exact columns), first ones:%s%s',
                                               n_diffs, E'\n', array_to_string(diffs, E'\n'));
            END IF;
        END IF;
    END IF;

    DROP TABLE IF EXISTS pg_temp.gpugb_chk_off;
    DROP TABLE IF EXISTS pg_temp.gpugb_chk_on;

    passed := array_length(problems, 1) IS NULL;
    INSERT INTO gpugb_tap_log (description, passed, plan_used, gpu_runs, fallbacks,
                               fallback_reason, result_rows, off_ms, on_ms, problem)
    VALUES (description, passed, plan_used, coalesce(runs1, 0), coalesce(fb1, 0),
            CASE WHEN fb1 > 0 THEN reason END, n_off, off_ms, on_ms,
            array_to_string(problems, E'\n'));

    tap := ok(passed, description);
    IF NOT passed THEN
        tap := tap || E'\n' || diag(format('query: %s%s%s', q, E'\n', array_to_string(problems, E'\n')));
    END IF;
    RETURN tap;
END
$fn$;

CREATE OR REPLACE FUNCTION gpugb_check_no_leak(description text)
RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
    m record;
BEGIN
    SELECT * INTO m FROM gpugb_memory_in_use();
    RETURN ok(m.device_bytes = 0 AND m.pinned_bytes = 0 AND m.streams = 0 AND m.handles = 0,
              description)
        || CASE WHEN m.device_bytes = 0 AND m.pinned_bytes = 0 AND m.streams = 0 AND m.handles = 0
                THEN '' ELSE E'\n' || diag(format('gpugb_memory_in_use() = %s', m)) END;
END
$fn$;

-- The scale of the generated tables: -c gpugb_test.scale=N (default 1).
SELECT coalesce(nullif(current_setting('gpugb_test.scale', true), ''), '1')::float8 AS scale \gset
SELECT setseed(0.42);

