-- Shared helpers for the other regression files (they run after this one).
--
-- The suite runs in one of two modes, chosen by PGOPTIONS (see Makefile):
--   emulator: gpugb.emulate_device=on   (machines without a GPU: the host
--             pipeline runs against the CPU emulator of the device API)
--   gpu:      the real GPU
-- and always with gpugb.require_gpu=on, so that a silent fallback to the
-- CPU is an ERROR and shows up as a diff.

-- Rows on which gpugb's result and PostgreSQL's differ (as multisets of
-- whole rows in text form; float output is shortest-exact, so equal text
-- means equal values).
-- gpugb_diff_rows() compares the temp tables gpugb_actual and
-- gpugb_expected (column r) and drops them.
CREATE FUNCTION gpugb_diff_rows() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  SELECT count(*) INTO n FROM (
    (TABLE gpugb_actual EXCEPT ALL TABLE gpugb_expected)
    UNION ALL
    (TABLE gpugb_expected EXCEPT ALL TABLE gpugb_actual)) d;
  DROP TABLE gpugb_expected;
  DROP TABLE gpugb_actual;
  RETURN n;
END $$;
CREATE FUNCTION gpugb_mismatches(query text) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('gpugb.enabled', 'off', true);
  EXECUTE 'CREATE TEMP TABLE gpugb_expected AS SELECT q::text AS r FROM (' || query || ') q';
  PERFORM set_config('gpugb.enabled', 'on', true);
  EXECUTE 'CREATE TEMP TABLE gpugb_actual AS SELECT q::text AS r FROM (' || query || ') q';
  RETURN gpugb_diff_rows();
END $$;

-- Rows on which a table holding gpugb's result (a prepared plan's, kept
-- with CREATE TABLE AS EXECUTE) and PostgreSQL's result of query differ.
CREATE FUNCTION gpugb_table_mismatches(result_table regclass, query text) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('gpugb.enabled', 'off', true);
  EXECUTE 'CREATE TEMP TABLE gpugb_expected AS SELECT q::text AS r FROM (' || query || ') q';
  EXECUTE format('CREATE TEMP TABLE gpugb_actual AS SELECT q::text AS r FROM %s q', result_table);
  RETURN gpugb_diff_rows();
END $$;

-- gpugb_mismatches(query), and how many GPU runs the query made with
-- gpugb on (0: it was declined or fell back).
CREATE FUNCTION gpugb_gpu_check(q text, OUT mismatches bigint, OUT gpu_runs bigint)
LANGUAGE plpgsql AS $$
DECLARE
  before bigint;
  r record;
BEGIN
  mismatches := gpugb_mismatches(q);
  SELECT s.gpu_runs INTO before FROM gpugb_backend_stats() s;
  FOR r IN EXECUTE q LOOP
  END LOOP;
  SELECT s.gpu_runs - before INTO gpu_runs FROM gpugb_backend_stats() s;
END $$;

-- Parallel ingest: did the query run as GpuGroupAgg under a Gather with
-- workers launched, and how many rows differ from PostgreSQL's result.
CREATE FUNCTION gpugb_parallel_check(query text, OUT parallel_gpu bool, OUT mismatches bigint)
LANGUAGE plpgsql AS $$
DECLARE
  plan text;
BEGIN
  PERFORM set_config('gpugb.enabled', 'off', true);
  EXECUTE 'CREATE TEMP TABLE gpugb_expected AS SELECT q::text AS r FROM (' || query || ') q';
  PERFORM set_config('gpugb.enabled', 'on', true);
  EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) CREATE TEMP TABLE gpugb_actual AS '
    'SELECT q::text AS r FROM (' || query || ') q' INTO plan;
  parallel_gpu := plan ~ '"Node Type": "Gather"' AND plan ~ '"Custom Plan Provider": "GpuGroupAgg"'
    AND (regexp_match(plan, '"Workers Launched": (\d+)'))[1]::int > 0;
  mismatches := gpugb_diff_rows();
END $$;

-- EXPLAIN ANALYZE lines that are the same on the GPU and in the emulator,
-- and do not depend on the stride size (strategy.sql shows the groups
-- counted at the strategy check where that is the point).
CREATE FUNCTION gpugb_explain_analyze(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query
  LOOP
    CONTINUE WHEN line ~ '(Bytes to Device|Heap Rows Read Directly|Hash Table|Memory Usage|Batches|Workers|Sort Method|Strategy Check)';
    RETURN NEXT line;
  END LOOP;
END $$;
