-- numeric(p, s) with p <= 18 travels as the exact integer v * 10^s (NaN as
-- a word above every number); sums are exact int128, and results are built
-- with PostgreSQL's numeric functions, so values and display scales are
-- PostgreSQL's.  Variance and standard deviation of integers and numerics
-- add exact hidden sums of x^2 and follow numeric_stddev_internal.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE nm (k numeric(6,2), a numeric(15,2), b numeric(18,4), c numeric,
                 d numeric(4,0), i2 int2, i4 int4, i8 int8);
INSERT INTO nm SELECT (i % 7) / 4.0, i * 1.25, (i % 1000) / 3.0, i, i % 100,
  (i % 1000)::int2, i * 7919 % 100000, (i::int8 * 1000000007) % 9223372036854775807
  FROM generate_series(1, 20000) i;
-- NULLs, NaN (a key, and in sums), the extremes of numeric(15,2) and int8
INSERT INTO nm VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ('NaN', 1, 'NaN', 1, 1, 1, 1, 9223372036854775807),
  ('NaN', 2, 2, 2, 2, 2, 2, -9223372036854775808),
  (1.5, 'NaN', 2, 2, 2, 2, 2, 2),
  (-99.99, -9999999999999.99, -99999999999999.9999, 3, -9999, -32768, -2147483648, 1),
  (-99.99, 9999999999999.99, 99999999999999.9999, 3, 9999, 32767, 2147483647, 1),
  (42, 0.10, 0.0100, 0, 0, 0, 0, 0);
ANALYZE nm;

EXPLAIN (COSTS OFF) SELECT k, sum(a), avg(b), min(a), max(b), count(c), variance(d), stddev(a)
  FROM nm GROUP BY k;
SELECT k, count(*), sum(a), avg(a), min(b), max(b), count(c), sum(d), avg(d)
  FROM nm GROUP BY k ORDER BY k;
SELECT k, variance(i2), var_pop(i4), stddev(i8), stddev_pop(d), var_samp(a), stddev_samp(b)
  FROM nm GROUP BY k ORDER BY k;
SELECT sum(a), avg(b), min(d), max(d), var_pop(a), stddev_pop(b) FROM nm WHERE k <> 'NaN';

SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k, count(*), sum(a), avg(a), min(b), max(b), count(c), sum(d), avg(d) FROM nm GROUP BY k'),
  ('SELECT d, sum(a), avg(b), min(k), max(k) FROM nm GROUP BY d'),
  ('SELECT k, a, count(*) FROM nm GROUP BY k, a'),
  ('SELECT k, variance(i2), var_pop(i2), stddev(i2), stddev_pop(i2), var_samp(i4), stddev_samp(i4) FROM nm GROUP BY k'),
  ('SELECT k, variance(i8), var_pop(i8), stddev(i8), stddev_pop(i8) FROM nm GROUP BY k'),
  ('SELECT k, variance(a), var_pop(b), stddev(d), stddev_pop(a), var_samp(d), stddev_samp(b) FROM nm GROUP BY k'),
  ('SELECT i2 % 10, stddev(a) FILTER (WHERE i4 > 50000), variance(b) FILTER (WHERE k > 1) FROM nm GROUP BY 1'),
  ('SELECT sum(a), avg(b), stddev(d), variance(i8) FROM nm'),
  ('SELECT sum(a), stddev(a) FROM nm WHERE k IS NULL')
) AS t(q);

-- A numeric without a type modifier is offloaded too: its values keep
-- their own display scales (see numeric_free.sql).
SET gpugb.require_gpu = off;
EXPLAIN (COSTS OFF) SELECT k, sum(c) FROM nm GROUP BY k;
EXPLAIN (COSTS OFF) SELECT c, count(*) FROM nm GROUP BY c;
-- count(x) needs no value, so any numeric is fine there.
EXPLAIN (COSTS OFF) SELECT k, count(c) FROM nm GROUP BY k;
-- Float variance is offloaded too (float_variance.sql has its cases).
EXPLAIN (COSTS OFF) SELECT k, stddev(i4::float8) FROM nm GROUP BY k;
RESET gpugb.require_gpu;

-- 18 digits whose last base-10000 digit carries padding zeros (found by
-- qgen: these once fell back needlessly).
CREATE TABLE nm18 (k numeric(18,3), v numeric(18,3));
INSERT INTO nm18 VALUES (-999999999999999.999, 999999999999999.999), (999999999999999.999, -0.001),
  (0.001, 123456789012345.678), (-999999999999999.999, 1);
SELECT k, count(*), sum(v), min(v), max(v) FROM nm18 GROUP BY k ORDER BY k;

-- Exact arithmetic (+, -, *) over numeric(p, s) columns, integers and
-- constants: the child projects only the leaves and the filler computes
-- the value in int128 (hostexpr.c), with PostgreSQL's display scale.
-- (The rows with k = -99.99 hold values whose products exceed 18 digits.)
EXPLAIN (COSTS OFF, VERBOSE) SELECT k, sum(a * (1 - d)), avg(b * i4 + 0.5) FROM nm GROUP BY k;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k, sum(a * (1 - d)), sum(a * (1 - d) * (1 + b)), avg(b * i4 + 0.5), count(*) FROM nm WHERE k <> -99.99 GROUP BY k'),
  ('SELECT k, min(a * d), max(-a + 2.5 * d), stddev(b * d), var_pop(a - b) FROM nm WHERE k <> -99.99 GROUP BY k'),
  ('SELECT i2 % 7, sum(d * i4) FILTER (WHERE i4 % 3 = 0), avg(i2 * a) FROM nm WHERE k <> -99.99 GROUP BY 1'),
  ('SELECT sum(a * 1.001 - b), min(d * d * d) FROM nm WHERE k <> -99.99')
) AS t(q);
-- A value beyond 18 digits: PostgreSQL's plan answers.
SET gpugb.require_gpu = off;
SELECT gpugb_mismatches('SELECT k, sum(a * a * a) FROM nm GROUP BY k') AS mismatches;
SELECT last_fallback_reason FROM gpugb_backend_stats();
-- Found in review: NaN/Infinity constants, a FILTER guarding an expression
-- that would raise an error, long expressions, many hidden aggregates,
-- many input columns.
SET gpugb.require_gpu = off;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k, sum(a * ''NaN''::numeric), sum(d + ''Infinity'') FROM nm GROUP BY k'),
  ('SELECT k, sum((i4 / (i2 % 3))::numeric * a) FILTER (WHERE i2 % 3 <> 0) FROM nm WHERE k <> -99.99 GROUP BY k'),
  ('SELECT k, sum(d+d+d+d+d+d+d+d+d+d+d+d+d+d+d+d+d+d+d) FROM nm GROUP BY k'),
  ('SELECT k, ' || (SELECT string_agg(format('sum(d * %s), avg(d * %s)', i, i), ', ') FROM generate_series(1, 17) i) || ' FROM nm GROUP BY k'),
  ('SELECT k, ' || (SELECT string_agg(format('sum(d + i4 + %s * i2)', i), ', ') FROM generate_series(1, 10) i) || ' FROM nm GROUP BY k')
) AS t(q);
RESET gpugb.require_gpu;
-- Division is not computed by the filler (its result scale is data-dependent).
EXPLAIN (COSTS OFF) SELECT k, sum(a / 3) FROM nm GROUP BY k;
RESET gpugb.require_gpu;
-- Sums on both sides of the int64 limit of their scaled words: below it the
-- numeric is built by int64_div_fast_to_numeric, beyond it by int128
-- arithmetic; PostgreSQL's text either way (92 rows fit, 93 do not).  k = 7:
-- a free numeric sum with its largest display scale (trailing zeros).
CREATE TABLE nmedge (k int, v numeric(17,2), f numeric);
INSERT INTO nmedge SELECT n, s * 999999999999999.99, s * 12345.6
  FROM (VALUES (92, 1), (93, 1), (-92, -1), (-93, -1)) AS c(n, s), generate_series(1, abs(n));
INSERT INTO nmedge VALUES (7, 0.01, 1.10), (7, 0.02, 2.2), (7, 0.03, 3);
SELECT q, gpugb_gpu_check(q) FROM (VALUES
  ('SELECT k, sum(v), avg(v), count(*) FROM nmedge GROUP BY k'),
  ('SELECT k, sum(f), avg(f), min(f), max(f) FROM nmedge GROUP BY k')
) AS t(q);
SELECT * FROM gpugb_memory_in_use();
