-- Every eligible key type x every eligible aggregate, NULL keys and values,
-- results shown and checked against PostgreSQL's own plan.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE m AS SELECT
  (CASE WHEN i % 11 = 0 THEN NULL ELSE i % 5 END)::int2 AS k2,
  (CASE WHEN i % 13 = 0 THEN NULL ELSE i % 4 - 2 END)::int4 AS k4,
  (CASE WHEN i % 17 = 0 THEN NULL ELSE (i % 3 - 1) * 10000000000 END)::int8 AS k8,
  (CASE WHEN i % 19 = 0 THEN NULL ELSE date '2024-02-28' + i % 3 END) AS kd,
  (CASE WHEN i % 23 = 0 THEN NULL
        ELSE timestamp '1999-12-31 23:00' + (i % 2) * interval '90 minutes' END) AS kts,
  (CASE WHEN i % 7 = 0 THEN NULL
        ELSE timestamptz '2024-06-01 00:00+00' - (i % 3) * interval '1 day' END) AS ktz,
  (CASE WHEN i % 29 = 0 THEN NULL ELSE i % 2 = 0 END) AS kb,
  (CASE WHEN i % 3 = 0 THEN NULL ELSE (i % 30000) - 15000 END)::int2 AS v2,
  (CASE WHEN i % 5 = 0 THEN NULL ELSE i * 99991 * (1 - 2 * (i % 2)) END)::int4 AS v4,
  (CASE WHEN i % 7 = 0 THEN NULL ELSE 9000000000000000000 - i END)::int8 AS v8,
  (CASE WHEN i % 4 = 0 THEN NULL ELSE (i % 1000) * 0.5 - 200 END)::float4 AS f4,
  (CASE WHEN i % 6 = 0 THEN NULL ELSE (i % 4096) * 0.25 - 300 END)::float8 AS f8,
  (CASE WHEN i % 9 = 0 THEN NULL ELSE date '2000-01-01' + i END) AS vd,
  (CASE WHEN i % 8 = 0 THEN NULL ELSE timestamp '2000-01-01' + i * interval '1 minute' END) AS vts,
  (CASE WHEN i % 8 = 1 THEN NULL ELSE timestamptz '2000-01-01 00:00+00' + i * interval '1 second' END) AS vtz,
  i::text AS t
FROM generate_series(1, 6000) i;

-- int2 key, int2 aggregates
SELECT k2, count(*), count(v2), sum(v2), min(v2), max(v2), avg(v2)
  FROM m GROUP BY k2 ORDER BY k2;
-- int4 key, int4 aggregates
SELECT k4, count(*), count(v4), sum(v4), min(v4), max(v4), avg(v4)
  FROM m GROUP BY k4 ORDER BY k4;
-- int8 key, int8 aggregates: sum(int8) exceeds the int64 range, exactly
SELECT k8, count(*), count(v8), sum(v8), min(v8), max(v8), avg(v8)
  FROM m GROUP BY k8 ORDER BY k8;
-- date key, float4 aggregates
SELECT kd, count(*), count(f4), sum(f4), min(f4), max(f4), avg(f4)
  FROM m GROUP BY kd ORDER BY kd;
-- timestamp key, float8 aggregates
SELECT kts, count(*), count(f8), sum(f8), min(f8), max(f8), avg(f8)
  FROM m GROUP BY kts ORDER BY kts;
-- timestamptz key, min/max over date, timestamp, timestamptz; count(text)
SELECT ktz, min(vd), max(vd), min(vts), max(vts), min(vtz), max(vtz), count(t)
  FROM m GROUP BY ktz ORDER BY ktz;
-- bool key, mixed aggregates
SELECT kb, count(*), sum(v4), max(f8), min(v8), avg(v2)
  FROM m GROUP BY kb ORDER BY kb;
-- several keys at once, NULLs in any of them
SELECT k2, k4, kb, count(*), sum(v8)
  FROM m GROUP BY k2, k4, kb ORDER BY k2, k4, kb LIMIT 12;
SELECT count(*) AS groups FROM (SELECT 1 FROM m GROUP BY k2, k4, k8, kd, kts, ktz, kb) g;

-- Each of the above, and more, checked row for row against PostgreSQL.
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT k2, count(*), count(v2), sum(v2), min(v2), max(v2), avg(v2) FROM m GROUP BY k2'),
  ('SELECT k4, count(*), count(v4), sum(v4), min(v4), max(v4), avg(v4) FROM m GROUP BY k4'),
  ('SELECT k8, count(*), count(v8), sum(v8), min(v8), max(v8), avg(v8) FROM m GROUP BY k8'),
  ('SELECT kd, count(*), count(f4), sum(f4), min(f4), max(f4), avg(f4) FROM m GROUP BY kd'),
  ('SELECT kts, count(*), count(f8), sum(f8), min(f8), max(f8), avg(f8) FROM m GROUP BY kts'),
  ('SELECT ktz, min(vd), max(vd), min(vts), max(vts), min(vtz), max(vtz), count(t) FROM m GROUP BY ktz'),
  ('SELECT kb, count(*), sum(v4), max(f8), min(v8), avg(v2) FROM m GROUP BY kb'),
  ('SELECT k2, k4, k8, kd, kts, ktz, kb, count(*), sum(v2), sum(v4), sum(v8), sum(f8) FROM m GROUP BY k2, k4, k8, kd, kts, ktz, kb'),
  ('SELECT k4, sum(v2), sum(v4), sum(v8), avg(v4), avg(v8), min(f4), max(f4) FROM m GROUP BY k4'),
  ('SELECT count(*), count(v2), sum(v2), sum(v4), sum(v8), avg(v8), sum(f4), sum(f8), min(f8), max(vd) FROM m')
) AS t(q);

-- Float corner cases: NaN above everything, infinities, -0.
CREATE TABLE fl AS SELECT * FROM (VALUES
  (1, 'NaN'::float8, 1::float4), (1, 1.5, 'NaN'), (1, '-Infinity', 2),
  (2, 'Infinity', '-Infinity'), (2, 2.5, 3), (3, '-0', '-0'), (3, NULL, NULL),
  (4, 'NaN', 'NaN'), (5, 'Infinity', 'Infinity'), (5, '-Infinity', 1)) v(k, f8, f4);
SELECT k, min(f8), max(f8), sum(f8), avg(f8), min(f4), max(f4), sum(f4), avg(f4), count(f8)
  FROM fl GROUP BY k ORDER BY k;
SELECT gpugb_mismatches('SELECT k, min(f8), max(f8), sum(f8), avg(f8), min(f4), max(f4), sum(f4), avg(f4) FROM fl GROUP BY k') AS mismatches;

-- Finite values that overflow before an Infinity or NaN is added: PostgreSQL
-- raises an error on the way, so gpugb must not answer Infinity/NaN; it
-- falls back to PostgreSQL's plan (which raises it).  Groups whose finite
-- values cannot overflow stay on the device.
CREATE TABLE ov (g int, d float8);
INSERT INTO ov VALUES (1, 1e308), (1, 1e308), (1, 'Infinity'), (2, 1e308), (2, 1e308), (2, 'NaN'),
  (3, 'NaN'), (3, 1), (3, '-Infinity');
SET gpugb.require_gpu = off;
SELECT g, sum(d) FROM ov GROUP BY g;
SELECT g, avg(d) FROM ov WHERE g = 2 GROUP BY g;
RESET gpugb.require_gpu;
SELECT g, sum(d), avg(d) FROM ov WHERE g = 3 GROUP BY g;

-- Integer extremes: sums beyond int64 are exact numerics.
CREATE TABLE ext AS SELECT i % 2 AS k,
  (CASE WHEN i % 3 = 0 THEN -32768 ELSE 32767 END)::int2 AS v2,
  (CASE WHEN i % 3 = 0 THEN -2147483648 ELSE 2147483647 END)::int4 AS v4,
  (CASE WHEN i % 3 = 0 THEN -9223372036854775808 ELSE 9223372036854775807 END)::int8 AS v8
  FROM generate_series(1, 1000) i;
SELECT k, sum(v2), sum(v4), sum(v8), avg(v8), min(v8), max(v8) FROM ext GROUP BY k ORDER BY k;
SELECT gpugb_mismatches('SELECT k, sum(v2), avg(v2), sum(v4), avg(v4), sum(v8), avg(v8), min(v8), max(v8) FROM ext GROUP BY k') AS mismatches;

-- The GPU path (or its emulator) really ran, and nothing fell back.
SELECT gpu_runs > 20 AS gpu_path_taken, fallbacks = 2 AS only_the_two_overflow_fallbacks FROM gpugb_backend_stats();
