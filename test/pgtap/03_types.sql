-- Every eligible key type (int2, int4, int8, date, timestamp, timestamptz,
-- bool, several at once, expressions over them) and every aggregate x input
-- type of the matrix, with extremes: int8 near +-9.2e18 (sum(int8) needs more
-- than 64 bits), int4/int2 limits, float NaN/Infinity/-Infinity/-0.0/denormals,
-- dates and timestamps at +-infinity and at the ends of their ranges.
\ir setup.sql
SELECT no_plan();

SELECT (20000 * :scale)::bigint AS n_rows \gset
CREATE TEMP TABLE ty (
    g int, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8,
    d date, ts timestamp, tz timestamptz, b bool, n numeric, t text);

-- Ordinary rows, about 5 % NULL in each column, g in 0 .. 49.
INSERT INTO ty
SELECT i % 50,
       CASE WHEN gpugb_rand(i, 1) < 0.05 THEN NULL ELSE (i % 20000 - 10000)::int2 END,
       CASE WHEN gpugb_rand(i, 2) < 0.05 THEN NULL ELSE hashint8(i) END,
       CASE WHEN gpugb_rand(i, 3) < 0.05 THEN NULL ELSE hashint8extended(i, 0) END,
       CASE WHEN gpugb_rand(i, 4) < 0.05 THEN NULL ELSE ((i % 2000 - 1000) / 8.0)::float4 END,
       CASE WHEN gpugb_rand(i, 5) < 0.05 THEN NULL ELSE (gpugb_rand(i, 6) - 0.3) * 1e6 END,
       CASE WHEN gpugb_rand(i, 7) < 0.05 THEN NULL ELSE date '2000-01-01' + (i % 10000)::int END,
       CASE WHEN gpugb_rand(i, 8) < 0.05 THEN NULL
            ELSE timestamp '2000-01-01' + (i % 100000) * interval '1 minute' + (i % 997) * interval '1 microsecond' END,
       CASE WHEN gpugb_rand(i, 9) < 0.05 THEN NULL
            ELSE timestamptz '2000-01-01 00:00+00' + (i * 37 % 1000000) * interval '1 second' END,
       CASE i % 3 WHEN 0 THEN true WHEN 1 THEN false END,
       CASE WHEN gpugb_rand(i, 10) < 0.05 THEN NULL ELSE (i % 1000)::numeric / 3 END,
       CASE WHEN gpugb_rand(i, 11) < 0.05 THEN NULL ELSE 'row ' || i END
  FROM generate_series(1::bigint, :n_rows) i;

-- Extreme groups, 10 rows each (g >= 1001).
INSERT INTO ty
SELECT 1001, 32767::int2, 2147483647::int4, 9223372036854775807 - j, 3e30::float4, 1e100::float8 * j,
       'infinity'::date, 'infinity'::timestamp, 'infinity'::timestamptz, true, 1e30::numeric, 'max'::text
  FROM generate_series(1, 10) j
UNION ALL
SELECT 1002, -32768, -2147483648, -9223372036854775808 + j, -3e30, -1e100 * j,
       '-infinity', '-infinity', '-infinity', false, -1e30, 'min'
  FROM generate_series(1, 10) j
UNION ALL
SELECT 1003,
       CASE WHEN j % 2 = 0 THEN 32767 ELSE -32768 END,
       CASE WHEN j % 2 = 0 THEN 2147483647 ELSE -2147483648 END,
       CASE WHEN j % 2 = 0 THEN 9223372036854775807 ELSE -9223372036854775808 END,
       CASE WHEN j = 1 THEN 'NaN'::float4 ELSE j END,
       CASE WHEN j = 1 THEN 'NaN'::float8 ELSE j END,
       CASE WHEN j % 2 = 0 THEN date '4713-01-01 BC' ELSE date '5874897-12-31' END,
       CASE WHEN j % 2 = 0 THEN timestamp '4713-01-01 00:00 BC' ELSE timestamp '294276-12-31 23:59:59.999999' END,
       CASE WHEN j % 2 = 0 THEN timestamptz '4713-01-01 00:00+00 BC' ELSE timestamptz '294276-12-31 23:59:59.999999+00' END,
       NULL, NULL, NULL
  FROM generate_series(1, 10) j
UNION ALL
SELECT 1004, NULL, NULL, NULL,
       CASE j WHEN 1 THEN 'Infinity'::float4 WHEN 2 THEN '-Infinity' ELSE j END,
       CASE j WHEN 1 THEN 'Infinity'::float8 WHEN 2 THEN '-Infinity' ELSE j END,
       NULL, NULL, NULL, NULL, NULL, NULL
  FROM generate_series(1, 10) j
UNION ALL
SELECT 1005, NULL, NULL, NULL,
       CASE j WHEN 1 THEN '-Infinity'::float4 ELSE j END,
       CASE j WHEN 1 THEN 'Infinity'::float8 ELSE -j END,
       NULL, NULL, NULL, NULL, NULL, NULL
  FROM generate_series(1, 10) j
UNION ALL
SELECT 1006, 0, 0, 0, '-0'::float4, '-0'::float8, NULL, NULL, NULL, NULL, 0, ''
  FROM generate_series(1, 10) j
UNION ALL
SELECT 1007, NULL, NULL, NULL, 1e-45::float4 * j, 5e-324::float8 * j, NULL, NULL, NULL, NULL, NULL, NULL
  FROM generate_series(1, 10) j
UNION ALL
SELECT 1008, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM generate_series(1, 10) j
UNION ALL
SELECT 1009, NULL, NULL, NULL,
       CASE WHEN j % 2 = 0 THEN 'NaN'::float4 ELSE 'Infinity' END,
       CASE WHEN j % 2 = 0 THEN 'NaN'::float8 ELSE '-Infinity' END,
       NULL, NULL, NULL, NULL, NULL, NULL
  FROM generate_series(1, 10) j;
ANALYZE ty;

-- The aggregate x input type matrix, grouped by g (ordinary and extreme groups).
SELECT gpugb_check($$SELECT g, count(i2) AS c, sum(i2) AS s, min(i2) AS mn, max(i2) AS mx, avg(i2) AS a FROM ty GROUP BY g$$,
                   'count/sum/min/max/avg(int2)');
SELECT gpugb_check($$SELECT g, count(i4) AS c, sum(i4) AS s, min(i4) AS mn, max(i4) AS mx, avg(i4) AS a FROM ty GROUP BY g$$,
                   'count/sum/min/max/avg(int4)');
SELECT gpugb_check($$SELECT g, count(i8) AS c, sum(i8) AS s, min(i8) AS mn, max(i8) AS mx, avg(i8) AS a FROM ty GROUP BY g$$,
                   'count/sum/min/max/avg(int8), sums beyond 64 bits');
SELECT gpugb_check($$SELECT g, count(f4) AS c, sum(f4) AS s, min(f4) AS mn, max(f4) AS mx, avg(f4) AS a FROM ty GROUP BY g$$,
                   'count/sum/min/max/avg(float4) with NaN, +-Infinity, -0, denormals');
SELECT gpugb_check($$SELECT g, count(f8) AS c, sum(f8) AS s, min(f8) AS mn, max(f8) AS mx, avg(f8) AS a FROM ty GROUP BY g$$,
                   'count/sum/min/max/avg(float8) with NaN, +-Infinity, -0, denormals');
SELECT gpugb_check($$SELECT g, count(d) AS c, min(d) AS mn, max(d) AS mx FROM ty GROUP BY g$$,
                   'count/min/max(date) with +-infinity and range ends');
SELECT gpugb_check($$SELECT g, count(ts) AS c, min(ts) AS mn, max(ts) AS mx FROM ty GROUP BY g$$,
                   'count/min/max(timestamp) with +-infinity and range ends');
SELECT gpugb_check($$SELECT g, count(tz) AS c, min(tz) AS mn, max(tz) AS mx FROM ty GROUP BY g$$,
                   'count/min/max(timestamptz) with +-infinity and range ends');
SELECT gpugb_check($$SELECT g, count(b) AS cb, count(n) AS cn, count(t) AS ct, count(*) AS n FROM ty GROUP BY g$$,
                   'count(x) over bool, numeric, text');
SELECT gpugb_check($$SELECT g, count(*) AS n, sum(i2) AS s2, sum(i4) AS s4, sum(i8) AS s8, sum(f4) AS sf4, sum(f8) AS sf8,
                             avg(i2) AS a2, avg(i4) AS a4, avg(i8) AS a8, avg(f4) AS af4, avg(f8) AS af8,
                             min(i8) AS mn8, max(f8) AS mxf8, min(d) AS mnd, max(tz) AS mxtz
                        FROM ty GROUP BY g$$, 'many aggregates at once');
SELECT gpugb_check($$SELECT count(*) AS n, sum(i2) AS s2, sum(i4) AS s4, sum(i8) AS s8, avg(i8) AS a8, sum(f4) AS sf4,
                             min(f8) AS mnf, max(d) AS mxd, min(ts) AS mnts, max(tz) AS mxtz
                        FROM ty WHERE g < 1000$$, 'no GROUP BY, every input type');
SELECT gpugb_check($$SELECT g, sum(i4::int8 * 3) AS s, avg(i2 + 1) AS a, max(d + 7) AS mxd, min(ts - interval '1 day') AS mnts,
                             sum(f8 / 3) AS sf, count(i4 % 2 = 0) AS c
                        FROM ty WHERE g < 1000 GROUP BY g$$, 'aggregates over expressions');

-- -0.0: the sign of a float sum of negative zeros does not depend on the order.
SELECT is((SELECT sum(f8)::text || ' ' || sum(f4)::text FROM ty WHERE g = 1006),
          '-0 -0', 'sum(float8/float4) of negative zeros is -0 (GpuGroupAgg, no GROUP BY)');
SELECT is((SELECT string_agg(s, ',') FROM (SELECT g, sum(f8)::text || ' ' || sum(f4)::text AS s FROM ty
                                           WHERE g IN (1006, 1008) GROUP BY g ORDER BY g) q),
          '-0 -0', 'sum(float8/float4) of negative zeros is -0 (GpuGroupAgg, GROUP BY)');

-- Every key type, alone and together, with extremes in the keys.
SELECT gpugb_check($$SELECT i2, count(*) AS n, sum(i4) AS s FROM ty GROUP BY i2$$, 'key int2');
SELECT gpugb_check($$SELECT i4, count(*) AS n, sum(i2) AS s FROM ty GROUP BY i4$$, 'key int4 (full range, ~all distinct)');
SELECT gpugb_check($$SELECT i8 % 1000 AS k, count(*) AS n, max(i8) AS mx FROM ty GROUP BY 1$$, 'key int8 % 1000');
SELECT gpugb_check($$SELECT i8, count(*) AS n FROM ty WHERE g >= 1000 GROUP BY i8$$, 'key int8 at its limits');
SELECT gpugb_check($$SELECT d, count(*) AS n, sum(i4) AS s, min(ts) AS mn FROM ty GROUP BY d$$, 'key date (with +-infinity)');
SELECT gpugb_check($$SELECT ts, count(*) AS n, avg(f8) AS a FROM ty GROUP BY ts$$, 'key timestamp (with +-infinity)');
SELECT gpugb_check($$SELECT tz, count(*) AS n, max(i8) AS mx FROM ty GROUP BY tz$$, 'key timestamptz (with +-infinity)');
SELECT gpugb_check($$SELECT b, count(*) AS n, sum(i8) AS s, avg(i4) AS a, sum(f4) AS sf FROM ty GROUP BY b$$, 'key bool (with NULL)');
SELECT gpugb_check($$SELECT i2 % 3 AS k1, b, d, count(*) AS n, sum(i4) AS s FROM ty GROUP BY 1, b, d$$, 'keys int2 expr, bool, date');
SELECT gpugb_check($$SELECT g, b, i4 % 7 AS k7, ts, count(*) AS n, min(f8) AS mn FROM ty GROUP BY g, b, 3, ts$$,
                   'four keys int4, bool, int4 % 7, timestamp');
SELECT gpugb_check($$SELECT i4 % 7 AS k, count(*) AS n, sum(i8) AS s FROM ty GROUP BY 1$$, 'key expression i4 % 7 (negative too)');
SELECT gpugb_check($$SELECT d + 1 AS k, count(*) AS n FROM ty WHERE g < 1000 GROUP BY 1$$, 'key expression d + 1');
SELECT gpugb_check($$SELECT (ts + interval '90 minutes')::date AS k, count(*) AS n, max(ts) AS mx FROM ty WHERE g < 1000 GROUP BY 1$$,
                   'key expression (ts + interval)::date');
SELECT gpugb_check($$SELECT (i2 % 100)::int2 AS k, i4 > 0 AS pos, count(*) AS n, sum(i2) AS s FROM ty GROUP BY 1, 2$$,
                   'keys int2 cast expression, bool expression');
SELECT gpugb_check($$SELECT i8 / 100000000000000 AS k, g % 2 = 0 AS even, count(*) AS n, avg(i8) AS a FROM ty GROUP BY 1, 2$$,
                   'keys int8 division, bool expression');
SELECT gpugb_check($$SELECT tz, d, b, count(*) AS n FROM ty WHERE g >= 1000 GROUP BY tz, d, b$$,
                   'keys timestamptz, date, bool at extremes');

SELECT gpugb_check_no_leak('no device memory, pinned memory or streams held after the suite');
SELECT * FROM finish();
