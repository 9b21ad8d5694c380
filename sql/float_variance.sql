-- variance, var_samp, var_pop, stddev, stddev_samp, stddev_pop of float4
-- and float8 on the GPU path: a per-group shift and compensated sums
-- (cuda/gpugb_fsum.h).  Results are compared with PostgreSQL's within a
-- relative tolerance (its Youngs-Cramer roundings differ from ours, as its
-- parallel plan's do), NaN = NaN, NULL = NULL; overflow ERRORs are kept.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

-- The same query with gpugb off and on; rows (k, v float8[]) that differ
-- beyond rel * max(|a|, |b|) + abs in any element, or in NULL/NaN-ness.
CREATE FUNCTION fvar_mismatches(query text, rel float8 DEFAULT 1e-9, abs float8 DEFAULT 0)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  PERFORM set_config('gpugb.enabled', 'off', true);
  EXECUTE 'CREATE TEMP TABLE fvar_off AS SELECT coalesce(k::text, ''null'') AS k, v FROM (' || query || ') q';
  PERFORM set_config('gpugb.enabled', 'on', true);
  EXECUTE 'CREATE TEMP TABLE fvar_on AS SELECT coalesce(k::text, ''null'') AS k, v FROM (' || query || ') q';
  SELECT count(*) INTO n
    FROM fvar_off a FULL JOIN fvar_on b ON a.k = b.k
   WHERE a.v IS NULL OR b.v IS NULL OR cardinality(a.v) <> cardinality(b.v)
      OR EXISTS (SELECT 1 FROM unnest(a.v, b.v) AS e(x, y)
                  WHERE NOT ((x IS NULL AND y IS NULL)
                          OR (x = 'NaN' AND y = 'NaN')
                          OR x = y
                          OR (x <> 'NaN' AND y <> 'NaN' AND x IS NOT NULL AND y IS NOT NULL
                              AND abs(x - y) <= rel * greatest(abs(x), abs(y)) + fvar_mismatches.abs)));
  DROP TABLE fvar_off;
  DROP TABLE fvar_on;
  RETURN n;
END $$;

CREATE TABLE fv AS SELECT i % 7 AS k,
  -- large mean, tiny spread: a sum of squares would keep no digit
  1e9::float8 + ((i * 7919) % 1000) / 1000.0::float8 AS big,
  ((i * 104729) % 2001 - 1000) / 7.0::float8 AS x,
  (((i * 31) % 1000) / 8.0)::float4 AS f4,
  CASE WHEN i % 3 = 0 THEN NULL ELSE (i % 50)::float8 END AS xn,
  i % 4 = 0 AS b
  FROM generate_series(1, 20000) i;
-- one row with a value, one with only NULLs, one NaN, infinities
INSERT INTO fv VALUES (100, 5, 5, 5, 5, true), (101, NULL, NULL, NULL, NULL, NULL),
  (102, 1, 'NaN', 1, 1, true), (102, 2, 3, 2, 2, true),
  (103, 1, 'Infinity', 'Infinity', 1, false), (103, 2, 1, 1, 1, false),
  (104, 1, '-Infinity', '-Infinity', 1, true), (104, 2, 'Infinity', 1, 1, true),
  (105, 1, 'Infinity', 1, 1, true),
  (106, 7, 7.5, 7.5, 7, true), (106, 7, 7.5, 7.5, 7, true), (106, 7, 7.5, 7.5, 7, false);

EXPLAIN (COSTS OFF)
  SELECT k, variance(x), stddev_pop(f4) FROM fv GROUP BY k;

-- Every aggregate, float8 and float4, with a tolerance of 1e-9.
SELECT q, fvar_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k, ARRAY[variance(x), var_samp(x), var_pop(x), stddev(x), stddev_samp(x), stddev_pop(x)] AS v FROM fv GROUP BY k'),
  ('SELECT k, ARRAY[variance(f4), var_samp(f4), var_pop(f4), stddev(f4), stddev_samp(f4), stddev_pop(f4)] AS v FROM fv GROUP BY k'),
  ('SELECT k, ARRAY[var_samp(xn), var_pop(xn), stddev(xn), stddev_pop(xn), var_samp(x) FILTER (WHERE b), stddev_pop(f4) FILTER (WHERE NOT b), var_pop(x) FILTER (WHERE false)] AS v FROM fv GROUP BY k'),
  ('SELECT b AS k, ARRAY[var_samp(x), stddev(f4), var_pop(xn), avg(x), sum(x)] AS v FROM fv GROUP BY b'),
  ('SELECT 0 AS k, ARRAY[var_samp(x), var_pop(f4), stddev(xn)] AS v FROM fv WHERE k < 100'),
  ('SELECT 0 AS k, ARRAY[var_samp(x), var_pop(f4), stddev(xn)] AS v FROM fv WHERE k < 0'),
  ('SELECT k, ARRAY[var_samp(x + 1e6), stddev_pop(x * 1e-200), var_pop(-x)] AS v FROM fv GROUP BY k')
) AS t(q);

-- Every strategy (on the GPU each folds rows in its own order: the shift
-- and the compensated sums make them agree to about 1e-16), with strides
-- small enough for several launches.
SET gpugb.stride_rows = 4096;
SELECT s AS strategy, fvar_mismatches(
  'SELECT k, ARRAY[var_samp(x), var_pop(f4), stddev(xn), var_samp(x) FILTER (WHERE b)] AS v FROM fv GROUP BY k') AS mismatches
  FROM unnest(ARRAY['global_hash', 'shared_hash', 'sort']) s, LATERAL set_config('gpugb.strategy', s, false) c;
SELECT s AS strategy, fvar_mismatches(
  'SELECT hashfloat8(x) % 3000 AS k, ARRAY[var_samp(f4), stddev_pop(big)] AS v FROM fv GROUP BY 1', 1e-5) AS many_groups_mismatches
  FROM unnest(ARRAY['global_hash', 'shared_hash', 'sort']) s, LATERAL set_config('gpugb.strategy', s, false) c;
RESET gpugb.strategy;
RESET gpugb.stride_rows;

-- Large mean, tiny spread: PostgreSQL's Youngs-Cramer running sum rounds
-- at the mean's scale (2^-23 here), ours is exact to about 1e-16; the two
-- agree to about 1e-6 relative, which is PostgreSQL's own error here (its
-- parallel plan differs from its serial one by as much).
SELECT fvar_mismatches('SELECT k, ARRAY[var_samp(big), stddev_pop(big)] AS v FROM fv GROUP BY k', 1e-5) AS big_mean_mismatches;
-- ... and ours is the exact value's: the population variance of the
-- noise (0, 0.001, ..., 0.999), which shifting by 1e9 must not change.
SELECT k, round(var_pop(big)::numeric, 9) AS var_pop_big, round(var_pop(big - 1e9)::numeric, 9) AS var_pop_noise
  FROM fv WHERE k < 100 GROUP BY k ORDER BY k;

-- NULL, NaN and Infinity per group, exactly as PostgreSQL: NULL below two
-- (one for the population forms) inputs, NaN with any NaN or infinity.
SELECT k, var_samp(x), var_pop(x), stddev_samp(f4), stddev_pop(f4), variance(xn)
  FROM fv WHERE k >= 100 GROUP BY k ORDER BY k;

-- Overflow: PostgreSQL raises in float8_accum when finite inputs make Sx
-- or Sxx infinite.  Where some order of rows could, gpugb falls back
-- (a run-time fallback by design), so the ERROR is PostgreSQL's own.
SET gpugb.require_gpu = off;
CREATE TABLE fv_huge AS SELECT i % 2 AS k, (CASE WHEN i % 2 = 0 THEN 1e300 ELSE -1e300 END)::float8 AS x
  FROM generate_series(1, 10) i;
SELECT var_samp(x) FROM fv_huge;
SELECT k, var_samp(x) FROM fv_huge GROUP BY k ORDER BY k;
SELECT last_fallback_reason FROM gpugb_backend_stats();
-- avg's guard is the same: |tmp| = |x * N - Sx| reaches 2 n max|x|
SELECT avg(x) FROM (VALUES (-2.3e153::float8), (-2.3e153), (-2.3e153), (2.3e153)) v(x);
RESET gpugb.require_gpu;

SELECT gpu_runs > 10 AS gpu_path_taken FROM gpugb_backend_stats();
