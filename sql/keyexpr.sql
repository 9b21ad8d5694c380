-- Integer GROUP BY keys  column OP constant  (mod, %, +, -, *): the input
-- plan projects the plain column and the stride filler computes the key
-- (keyexpr.c), with PostgreSQL's integer semantics; a value out of range
-- falls back, so that PostgreSQL's plan raises its own error.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE ke (i2 int2, i4 int4, i8 int8, v int4);
INSERT INTO ke SELECT (i % 601 - 300)::int2, i * 7919 - 5000000, i::int8 * 1000000007 - 3000000000000, i
  FROM generate_series(1, 20000) i;
INSERT INTO ke VALUES (NULL, NULL, NULL, 1), (-32768, -2147483648, -9223372036854775808, 2),
  (32767, 2147483647, 9223372036854775807, 3);
ANALYZE ke;

-- The child projects i4 alone; the key is computed while strides fill.
EXPLAIN (COSTS OFF, VERBOSE) SELECT mod(i4, 1000), count(*) FROM ke GROUP BY 1;
-- Not for a zero divisor (the child computes it, and raises); two
-- columns, or a constant on the left, are a program (below).
EXPLAIN (COSTS OFF, VERBOSE) SELECT i4 + v, count(*) FROM ke GROUP BY 1;
EXPLAIN (COSTS OFF, VERBOSE) SELECT 1000 % i4, count(*) FROM ke GROUP BY 1;

-- Every operator, every integer type, negative values and divisors,
-- x % -1 of the type's minimum, NULLs; several keys at once.
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT mod(i4, 1000), count(*), sum(v) FROM ke GROUP BY 1'),
  ('SELECT i4 % -7, i2 % 5::int2, count(*) FROM ke GROUP BY 1, 2'),
  ('SELECT i4 % -1, i2 % -1::int2, i8 % -1, count(*) FROM ke GROUP BY 1, 2, 3'),
  ('SELECT i8 % 100000, min(v), max(v) FROM ke GROUP BY 1'),
  ('SELECT mod(i8, -3), i2 * 2::int2, count(*) FROM ke WHERE i2 BETWEEN -16000 AND 16000 GROUP BY 1, 2'),
  ('SELECT i4 - 5, i8 + 1, count(*) FROM ke WHERE i4 > -2147483648 AND i8 < 9223372036854775807 GROUP BY 1, 2'),
  ('SELECT i4 * 3, count(*) FROM ke WHERE i4 BETWEEN -700000000 AND 700000000 GROUP BY 1'),
  ('SELECT i2 + 1::int2, i2 % 10::int2, avg(v) FROM ke WHERE i2 < 32767 GROUP BY 1, 2'),
  ('SELECT mod(i4, 1), mod(i2, 1::int2), count(*) FROM ke GROUP BY 1, 2'),
  ('SELECT mod(i4, (-2147483648)::int4), mod(i2, (-32768)::int2), count(*), sum(i2) FROM ke GROUP BY 1, 2'),
  ('SELECT i4 % 2147483647, count(*), sum(i2), count(i2) FROM ke GROUP BY 1')
) AS t(q);

-- Out of range: gpugb falls back and PostgreSQL's plan raises its error.
SET gpugb.require_gpu = off;
SELECT i4 + 1, count(*) FROM ke GROUP BY 1;
SELECT last_fallback_reason FROM gpugb_backend_stats();
SELECT i2 * 2::int2, count(*) FROM ke GROUP BY 1;
-- (qgen seed 105001 q87, under private_hash: int4 * 3 out of range)
SELECT i4 * 3, count(*) FROM ke GROUP BY 1;
SELECT i8 - 1, count(*) FROM ke GROUP BY 1;
SELECT mod(i4, 0), count(*) FROM ke GROUP BY 1;
RESET gpugb.require_gpu;

-- The same under parallel ingest: every worker computes its rows' keys.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT mod(i4, 1000), count(*) FROM ke GROUP BY 1;
SELECT gpugb_mismatches('SELECT mod(i4, 1000), i8 % 77, count(*), sum(v) FROM ke GROUP BY 1, 2') AS mismatches;
SET gpugb.require_gpu = off;
SELECT i4 + 1, count(*) FROM ke GROUP BY 1;
RESET gpugb.require_gpu;
-- A one-process node over a Gather: the workers' Gather passes up only the
-- key they computed, so the child keeps computing it.
SET gpugb.parallel = off;
EXPLAIN (COSTS OFF, VERBOSE) SELECT mod(i4, 1000), count(*) FROM ke GROUP BY 1;
SELECT gpugb_mismatches('SELECT mod(i4, 1000), count(*) FROM ke GROUP BY 1') AS mismatches;
RESET gpugb.parallel;
RESET max_parallel_workers_per_gather;
-- Over a join: the join returns the plain column.
CREATE TABLE kd AS SELECT i AS v, i % 3 AS w FROM generate_series(1, 20000) i;
ANALYZE kd;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF, VERBOSE) SELECT ke.i8 % 1000, kd.w, count(*) FROM ke JOIN kd USING (v) GROUP BY 1, 2;
SELECT gpugb_mismatches('SELECT ke.i8 % 1000, kd.w, count(*) FROM ke JOIN kd USING (v) GROUP BY 1, 2') AS mismatches;

-- date_trunc('unit', timestamp): the child projects the column, the filler
-- floors it (keyexpr.h): every unit it computes, abbreviated and upper-case
-- unit names (parsed as PostgreSQL parses them), times before 2000 and
-- before the common era, NULLs and infinities.
CREATE TABLE kt (ts timestamp, v int4);
INSERT INTO kt SELECT timestamp '1985-06-15 13:47:05.123456'
                      + ((i * 7919) % 20011) * interval '11 hours 13 minutes 7.000391 seconds', i
  FROM generate_series(1, 20000) i;
INSERT INTO kt VALUES (NULL, 1), ('infinity', 2), ('-infinity', 3), ('0044-03-15 12:00:00 BC', 4),
  ('2000-01-01 00:00:00', 5), ('1999-12-31 23:59:59.999999', 6), ('2000-01-03 00:00:00', 7),
  ('2000-01-02 23:59:59.999999', 8), ('1970-01-01 00:00:00.000001', 9), ('2024-02-29 12:00:00', 10);
ANALYZE kt;
EXPLAIN (COSTS OFF, VERBOSE) SELECT date_trunc('day', ts), count(*) FROM kt GROUP BY 1;
-- Decades and centuries are left to the input plan (and an expression
-- such as a cast, here to a timestamptz).
EXPLAIN (COSTS OFF, VERBOSE) SELECT date_trunc('decade', ts), count(*) FROM kt GROUP BY 1;
EXPLAIN (COSTS OFF, VERBOSE) SELECT date_trunc('day', ts::timestamptz), count(*) FROM kt GROUP BY 1;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT date_trunc(''microseconds'', ts), count(*) FROM kt GROUP BY 1'),
  ('SELECT date_trunc(''milliseconds'', ts), count(*) FROM kt GROUP BY 1'),
  ('SELECT date_trunc(''second'', ts), count(*) FROM kt GROUP BY 1'),
  ('SELECT date_trunc(''MINUTE'', ts), count(*) FROM kt GROUP BY 1'),
  ('SELECT date_trunc(''hours'', ts), sum(v) FROM kt GROUP BY 1'),
  ('SELECT date_trunc(''day'', ts), count(*), min(v) FROM kt GROUP BY 1'),
  ('SELECT date_trunc(''week'', ts), count(*) FROM kt GROUP BY 1'),
  ('SELECT date_trunc(''month'', ts), count(*) FROM kt GROUP BY 1'),
  ('SELECT date_trunc(''quarter'', ts), count(*) FROM kt GROUP BY 1'),
  ('SELECT date_trunc(''year'', ts), date_trunc(''mon'', ts), count(*) FROM kt GROUP BY 1, 2'),
  ('SELECT date_trunc(''decade'', ts), count(*) FROM kt GROUP BY 1')
) AS t(q);
SELECT date_trunc('week', ts) AS week, count(*) FROM kt
  WHERE ts < '2000-01-10' AND ts >= '1999-12-27' OR ts IN ('infinity', '-infinity') OR ts < '0001-01-01'
  GROUP BY 1 ORDER BY 1;
SELECT date_trunc('quarter', ts) AS quarter, count(*) FROM kt WHERE ts >= '2008-01-01' AND ts < '2009-01-01'
  OR ts = '2024-02-29 12:00:00' GROUP BY 1 ORDER BY 1;
-- date_trunc of a timestamptz column (up to a year), where the session's
-- TimeZone is one fixed offset (UTC, SET TIME ZONE 5.5): the same floor in
-- local time; a prepared plan of a fixed offset run under another zone
-- falls back, so PostgreSQL's plan answers.  Under a zone with daylight
-- saving or a history of offsets (the tests' PST8PDT, Berlin) the filler
-- computes it too, as timestamptz_trunc does (zonetrunc.c), in the zone of
-- execution.
CREATE TABLE ktz (t timestamptz, v int4);
INSERT INTO ktz SELECT timestamptz '2024-03-09 00:00:00+00' + i * interval '7 minutes 13.000123 seconds', i
  FROM generate_series(1, 20000) i;
-- month, quarter and year boundaries on either side of UTC's
INSERT INTO ktz SELECT timestamptz '2023-12-31 20:00:00+00' + i * interval '1 hour 1 minute', -i
  FROM generate_series(1, 200) i;
INSERT INTO ktz VALUES (NULL, 1), ('infinity', 2), ('-infinity', 3), ('1999-12-31 23:59:59.999999+00', 4),
  ('0044-03-15 12:00:00+00 BC', 5);
-- The last instants of the range: east of UTC their local time is in the
-- year after the range's end, and their month, quarter and year are in range.
INSERT INTO ktz VALUES ('294276-12-31 23:30:00+00', 6), ('294276-12-31 18:00:00+00', 7);
ANALYZE ktz;
EXPLAIN (COSTS OFF, VERBOSE) SELECT date_trunc('hour', t), count(*) FROM ktz GROUP BY 1;
SET TimeZone = 'UTC';
EXPLAIN (COSTS OFF, VERBOSE) SELECT date_trunc('hour', t), count(*) FROM ktz GROUP BY 1;
SELECT z, u, gpugb_gpu_check(format('SELECT date_trunc(%L, t), count(*), sum(v) FROM ktz GROUP BY 1', u)) AS "(mismatches, gpu runs)"
  FROM unnest(ARRAY['UTC', '5.5', '-3']) z, LATERAL set_config('TimeZone', z, false) s,
  unnest(ARRAY['microseconds', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']) u;
SET TimeZone = 'UTC';
PREPARE ktz_day AS SELECT date_trunc('day', t) AS d, count(*) AS n FROM ktz GROUP BY 1;
SET plan_cache_mode = force_generic_plan;
CREATE TEMP TABLE ktz_utc AS EXECUTE ktz_day;
SET TIME ZONE 5.5;
SET gpugb.require_gpu = off;
CREATE TEMP TABLE ktz_ist AS EXECUTE ktz_day;
SELECT last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.require_gpu;
SELECT gpugb_table_mismatches('ktz_ist', 'SELECT date_trunc(''day'', t), count(*) FROM ktz GROUP BY 1') AS differences;
RESET plan_cache_mode;
RESET TimeZone;
DEALLOCATE ktz_day;
DROP TABLE ktz;

-- Zones with transitions: instants spread over 1890-2050 and instants
-- around every half hour of the weekends of the months where zones change
-- (a microsecond before, at, after), so that rows fall just before, in and
-- after skipped and repeated local hours, and on midnights that a
-- transition skips (America/Havana, America/Sao_Paulo until 2019).
CREATE TABLE kdst (t timestamptz, v int4);
INSERT INTO kdst SELECT timestamptz '1890-01-01 00:00:00+00' + (i * 7919 % 20000) * interval '2 days 10 hours 7 minutes 1.000003 seconds', i
  FROM generate_series(1, 20000) i;
INSERT INTO kdst SELECT d + h * interval '30 minutes' + e * interval '1 microsecond', e
  FROM generate_series(timestamptz '2005-01-01 00:00+00', '2024-01-01', interval '1 day') d,
    generate_series(0, 47) h, (VALUES (-1), (0), (1)) x(e)
  WHERE extract(month FROM d) IN (3, 4, 10, 11) AND extract(dow FROM d) = 0;
INSERT INTO kdst VALUES (NULL, 1), ('infinity', 2), ('-infinity', 3), ('0044-03-15 12:00:00+00 BC', 4),
  ('294270-01-01 00:00:00+00', 5), ('294276-12-31 23:30:00+00', 13);
-- The last transition of Berlin's and New York's tables (PostgreSQL extends
-- their rules to 2769) and instants after it, where PostgreSQL goes on
-- applying the rules (400-year cycles): at exactly that instant the next
-- transition is not in the table, which must not read as "no more
-- transitions" for the rows after.
INSERT INTO kdst VALUES ('2769-10-26 01:00:00.5+00', 6), ('2769-11-02 06:00:00+00', 7),
  ('2770-07-01 22:30+00', 8), ('3170-07-01 22:30+00', 9), ('5000-07-01 22:30+00', 10),
  ('2770-07-02 03:30+00', 11), ('3170-07-02 03:30+00', 12);
ANALYZE kdst;
SET TimeZone = 'Europe/Berlin';
EXPLAIN (COSTS OFF, VERBOSE) SELECT date_trunc('day', t), count(*) FROM kdst GROUP BY 1;
SELECT z, u, gpugb_gpu_check(format('SELECT date_trunc(%L, t), count(*), sum(v) FROM kdst GROUP BY 1', u)) AS "(mismatches, gpu runs)"
  FROM unnest(ARRAY['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Havana',
                    'America/Sao_Paulo', 'Asia/Tehran', 'Pacific/Apia']) z,
  LATERAL set_config('TimeZone', z, false) s,
  unnest(ARRAY['microseconds', 'milliseconds', 'second', 'minute', 'hour', 'day', 'week', 'month',
               'quarter', 'year']) u
  ORDER BY 1, 2;
-- t::date (timestamptz_date): the local day in the zone of execution.
EXPLAIN (COSTS OFF, VERBOSE) SELECT t::date, count(*) FROM kdst GROUP BY 1;
SELECT z, gpugb_gpu_check('SELECT t::date, count(*), sum(v) FROM kdst GROUP BY 1') AS "(mismatches, gpu runs)"
  FROM unnest(ARRAY['UTC', '5.5', 'Europe/Berlin', 'America/Havana', 'Australia/Lord_Howe', 'Pacific/Apia']) z,
  LATERAL set_config('TimeZone', z, false) s;
-- A plan made under one zone computes in the zone of its execution, as
-- date_trunc does: no fallback.
SET TimeZone = 'Europe/Berlin';
PREPARE kdst_day AS SELECT date_trunc('day', t) AS d, count(*) AS n FROM kdst GROUP BY 1;
SET plan_cache_mode = force_generic_plan;
SET TimeZone = 'America/New_York';
CREATE TEMP TABLE kdst_ny AS EXECUTE kdst_day;
SELECT gpugb_table_mismatches('kdst_ny', 'SELECT date_trunc(''day'', t), count(*) FROM kdst GROUP BY 1') AS differences;
RESET plan_cache_mode;
RESET TimeZone;
DEALLOCATE kdst_day;
DROP TABLE kdst;

-- extract(field FROM timestamp) (numeric) and date_part('field',
-- timestamp) (float8) of the integer fields: the filler computes them as
-- timestamp_part_common does (ISO weeks and years, BC years, infinities:
-- NULL, or +-Infinity for year, decade, century, millennium and isoyear).
EXPLAIN (COSTS OFF, VERBOSE) SELECT extract(hour FROM ts), count(*) FROM kt GROUP BY 1;
EXPLAIN (COSTS OFF, VERBOSE) SELECT extract(isoyear FROM ts), extract(dow FROM ts), date_part('isodow', ts),
  extract(doy FROM ts), count(*) FROM kt GROUP BY 1, 2, 3, 4;
-- extract's fractional fields second, milliseconds and epoch: exact scaled
-- microseconds with timestamp_part_common's display scales (6, 3, 6).
-- date_part's float8 of second, milliseconds, epoch and julian too, with
-- timestamp_part_common's float8 expressions; extract(julian) (a numeric
-- division) stays with the input plan.
EXPLAIN (COSTS OFF, VERBOSE) SELECT extract(epoch FROM ts), count(*) FROM kt GROUP BY 1;
EXPLAIN (COSTS OFF, VERBOSE) SELECT date_part('second', ts), extract(julian FROM ts), count(*) FROM kt GROUP BY 1, 2;
CREATE TABLE kx AS SELECT * FROM kt WHERE ts NOT IN ('infinity', '-infinity');
INSERT INTO kx SELECT timestamp '2004-12-20 00:00:00' + i * interval '1 day 1 hour 1 minute', -i
  FROM generate_series(0, 40) i;	-- ISO weeks and years around new year
INSERT INTO kx VALUES ('0001-01-01 00:00:00 BC', 20), ('0001-12-31 23:59:59.999999 BC', 21),
  ('0001-01-01 00:00:00', 22), ('0010-06-01 BC', 23), ('0100-01-01', 24), ('0101-01-01 BC', 25),
  ('1000-12-31 23:00', 26), ('1001-01-01', 27), ('4713-01-01 BC', 28), ('0009-12-31 BC', 29),
  ('0011-01-01 BC', 30), ('2008-12-29', 31), ('2010-01-03 23:59:59', 32);
ANALYZE kx;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT extract(microseconds FROM ts), count(*) FROM kx GROUP BY 1'),
  ('SELECT extract(minute FROM ts), extract(hour FROM ts), count(*) FROM kx GROUP BY 1, 2'),
  ('SELECT extract(day FROM ts), extract(month FROM ts), extract(quarter FROM ts), count(*) FROM kx GROUP BY 1, 2, 3'),
  ('SELECT extract(year FROM ts), sum(v) FROM kx GROUP BY 1'),
  ('SELECT extract(decade FROM ts), extract(century FROM ts), extract(millennium FROM ts), count(*) FROM kx GROUP BY 1, 2, 3'),
  ('SELECT extract(week FROM ts), extract(isoyear FROM ts), count(*) FROM kx GROUP BY 1, 2'),
  ('SELECT extract(dow FROM ts), extract(isodow FROM ts), count(*) FROM kx GROUP BY 1, 2'),
  ('SELECT extract(doy FROM ts), count(*), min(v) FROM kx GROUP BY 1'),
  ('SELECT extract(second FROM ts), extract(milliseconds FROM ts), count(*) FROM kx GROUP BY 1, 2'),
  ('SELECT extract(epoch FROM ts), sum(v) FROM kx GROUP BY 1'),
  ('SELECT extract(second FROM ts), count(*) FROM kt GROUP BY 1'),
  ('SELECT date_part(''hour'', ts), date_part(''year'', ts), count(*) FROM kt GROUP BY 1, 2'),
  ('SELECT date_part(''isoyear'', ts), date_part(''week'', ts), date_part(''doy'', ts), count(*) FROM kt GROUP BY 1, 2, 3'),
  ('SELECT date_part(''millennium'', ts), date_part(''dow'', ts), count(*) FROM kt GROUP BY 1, 2'),
  ('SELECT extract(hour FROM ts), count(*) FROM kt GROUP BY 1'),
  ('SELECT extract(month FROM ts), count(*) FROM kt GROUP BY 1 ORDER BY 1'),
  ('SELECT date_part(''second'', ts), date_part(''milliseconds'', ts), count(*) FROM kx GROUP BY 1, 2'),
  ('SELECT date_part(''epoch'', ts), sum(v) FROM kx GROUP BY 1'),
  ('SELECT date_part(''julian'', ts), count(*) FROM kx GROUP BY 1'),
  ('SELECT date_part(''second'', ts), date_part(''epoch'', ts), date_part(''julian'', ts), count(*) FROM kt GROUP BY 1, 2, 3'),
  ('SELECT ts::date, count(*) FROM kx GROUP BY 1'),
  ('SELECT date(ts), sum(v) FROM kt GROUP BY 1')
) AS t(q);
-- ts::date (timestamp_date): the day, floored; infinities are the date's.
EXPLAIN (COSTS OFF, VERBOSE) SELECT ts::date, count(*) FROM kt GROUP BY 1;
SELECT extract(year FROM ts) AS y, extract(isoyear FROM ts) AS iy, extract(week FROM ts) AS w,
       extract(century FROM ts) AS c, count(*)
  FROM kx WHERE v BETWEEN 20 AND 32 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3;
SELECT date_part('year', ts), count(*) FROM kt WHERE ts IN ('infinity', '-infinity') GROUP BY 1 ORDER BY 1;
-- The year of an infinite timestamp is a numeric Infinity, which has no
-- free numeric word: gpugb falls back and PostgreSQL returns it.
SET gpugb.require_gpu = off;
SELECT extract(year FROM ts), count(*) FROM kt WHERE ts IN ('infinity', '-infinity', '2000-01-01') GROUP BY 1 ORDER BY 1;
SELECT last_fallback_reason FROM gpugb_backend_stats();
-- So is an infinite timestamp's epoch (a date's too, below).
SELECT (gpugb_gpu_check('SELECT extract(epoch FROM ts), count(*) FROM kt WHERE ts IN (''infinity'', ''-infinity'', ''2000-01-01'') GROUP BY 1')).*;
RESET gpugb.require_gpu;
DROP TABLE kx;

-- extract(field FROM date): the same fields of the date (extract_date);
-- a time-of-day field is PostgreSQL's error, raised by the input plan.
CREATE TABLE kdt AS SELECT ts::date AS d, v FROM kt WHERE ts NOT IN ('infinity', '-infinity');
INSERT INTO kdt VALUES ('infinity', -1), ('-infinity', -2), (NULL, -3), ('5874897-12-31', -4),
  ('4714-11-24 BC', -5), ('0001-01-01 BC', -6), ('2008-12-29', -7), ('2010-01-03', -8);
ANALYZE kdt;
EXPLAIN (COSTS OFF, VERBOSE) SELECT extract(isoyear FROM d), extract(dow FROM d), count(*) FROM kdt GROUP BY 1, 2;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT extract(day FROM d), extract(month FROM d), extract(quarter FROM d), count(*) FROM kdt GROUP BY 1, 2, 3'),
  ('SELECT extract(week FROM d), extract(isoyear FROM d), count(*) FROM kdt WHERE d > ''-infinity'' AND d < ''infinity'' GROUP BY 1, 2'),
  ('SELECT extract(dow FROM d), extract(isodow FROM d), extract(doy FROM d), count(*) FROM kdt GROUP BY 1, 2, 3'),
  ('SELECT extract(epoch FROM d), count(*) FROM kdt WHERE d > ''-infinity'' AND d < ''3000-01-01'' GROUP BY 1'),
  ('SELECT extract(year FROM d), extract(decade FROM d), extract(century FROM d), extract(millennium FROM d), count(*) FROM kdt WHERE d > ''-infinity'' AND d < ''infinity'' GROUP BY 1, 2, 3, 4')
) AS t(q);
SELECT extract(year FROM d) AS y, extract(isoyear FROM d) AS iy, extract(doy FROM d) AS doy, count(*)
  FROM kdt WHERE v < -3 GROUP BY 1, 2, 3 ORDER BY 1;
SELECT extract(hour FROM d), count(*) FROM kdt GROUP BY 1;
SET gpugb.require_gpu = off;
SELECT extract(millennium FROM d), count(*) FROM kdt WHERE v IN (-1, -4) GROUP BY 1 ORDER BY 1;
SELECT last_fallback_reason FROM gpugb_backend_stats();
SELECT (gpugb_gpu_check('SELECT extract(epoch FROM d), count(*) FROM kdt GROUP BY 1')).*;
RESET gpugb.require_gpu;
DROP TABLE kdt;

-- The first timestamp, 4714-11-24 BC, is a Monday: its week is itself.
-- Its month starts before it: PostgreSQL raises "timestamp out of range",
-- so gpugb falls back and lets it.
INSERT INTO kt VALUES ('4714-11-24 00:00:00 BC', 11);
SELECT gpugb_mismatches('SELECT date_trunc(''week'', ts), count(*) FROM kt GROUP BY 1') AS mismatches;
SET gpugb.require_gpu = off;
SELECT date_trunc('month', ts), count(*) FROM kt GROUP BY 1;
SELECT last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.require_gpu;

-- Keys the filler computes with a program (hostexpr.c) from the columns
-- the child projects: integer arithmetic over several columns, CASE and
-- COALESCE of integers, bools, floats, dates and timestamps, float
-- arithmetic.  A key's position in the child holds one of its columns.
CREATE TABLE kp (i4 int4, i2 int2, f4 float4, f8 float8, d date, ts timestamp, v int4);
INSERT INTO kp SELECT CASE WHEN i % 97 = 0 THEN NULL ELSE (i * 7919) % 100003 - 50000 END,
       CASE WHEN i % 89 = 0 THEN NULL ELSE (i % 601 - 300)::int2 END,
       CASE WHEN i % 83 = 0 THEN NULL ELSE ((i % 1001) - 500)::float4 / 8 END,
       CASE WHEN i % 79 = 0 THEN NULL ELSE ((i * 31) % 2003 - 1001)::float8 / 16 END,
       CASE WHEN i % 73 = 0 THEN NULL ELSE date '2020-01-01' + (i % 900) END,
       CASE WHEN i % 71 = 0 THEN NULL ELSE timestamp '2020-01-01' + (i % 5000) * interval '1 hour' END,
       i
  FROM generate_series(1, 30000) i;
INSERT INTO kp VALUES (2147483647, 32767, 'NaN', 'NaN', 'infinity', 'infinity', -1),
  (-2147483648, -32768, '-0', '-0', '-infinity', '-infinity', -2), (0, 0, 0, 0, NULL, NULL, -3),
  (1, 1, 'Infinity', '-Infinity', NULL, NULL, -4), (NULL, NULL, NULL, NULL, NULL, NULL, -5);
ANALYZE kp;
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT CASE WHEN i4 > 0 THEN 1 WHEN i4 IS NULL THEN -1 ELSE 0 END, COALESCE(i2, v), count(*)
  FROM kp GROUP BY 1, 2;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT i4 + v, count(*) FROM ke WHERE v > 3 GROUP BY 1'),
  ('SELECT i2 * 2 - v, i4::int8 * 3, count(*), sum(v) FROM kp WHERE v > 0 GROUP BY 1, 2'),
  ('SELECT CASE WHEN i4 > 0 THEN 1 WHEN i4 IS NULL THEN -1 ELSE 0 END, COALESCE(i2, v), count(*) FROM kp GROUP BY 1, 2'),
  ('SELECT CASE WHEN i2 BETWEEN -10 AND 10 THEN i2 END, count(*), min(v) FROM kp GROUP BY 1'),
  ('SELECT CASE WHEN i4 > 0 THEN true WHEN i4 < -40000 THEN false END, CASE WHEN f8 > 0 THEN true ELSE false END, count(*) FROM kp GROUP BY 1, 2'),
  ('SELECT -f8, f4 * 2::float4, count(*) FROM kp WHERE v > 0 OR v = -1 GROUP BY 1, 2'),
  ('SELECT f8 * 4 + 1, COALESCE(f4, -1::float4), count(*), max(v) FROM kp WHERE v <> -2 GROUP BY 1, 2'),
  ('SELECT i4::float8 / 4, count(*) FROM kp WHERE v > 0 GROUP BY 1'),
  ('SELECT COALESCE(d, date ''1999-01-01''), CASE WHEN v % 2 = 0 THEN ts END, count(*) FROM kp GROUP BY 1, 2'),
  ('SELECT CASE WHEN i2 > 0 THEN ts ELSE timestamp ''2000-01-01'' END, count(*), sum(i4) FROM kp GROUP BY 1'),
  ('SELECT COALESCE(i2, 0) + 1, i4 - i2, count(*), sum(v * 2) FROM kp WHERE v > 0 GROUP BY 1, 2 ORDER BY 1, 2'),
  ('SELECT i4 / 1000, i2 % 7, -(i4 / 7), count(*) FROM kp GROUP BY 1, 2, 3'),
  ('SELECT v / 100 + i2 % 3, i4 % -1, count(*), sum(i4 / 3), sum(i4 % v), min(i4 / -7) FROM kp WHERE v > 0 GROUP BY 1, 2'),
  ('SELECT i2 / 2::int2, count(*), sum(CASE WHEN i2 <> 0 THEN v / i2 ELSE 0 END) FROM kp GROUP BY 1')
) AS t(q);
-- The divisions are the filler's; a guarded one is the child's.
EXPLAIN (COSTS OFF, VERBOSE)
  SELECT i4 / 1000, count(*), sum(i4 % v), sum(CASE WHEN i2 <> 0 THEN v / i2 ELSE 0 END) FROM kp GROUP BY 1;
-- A constant key has no column: the child computes it (a program key
-- without leaves crashed the planner: qgen seed 1100027 q18 on the H200).
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT count(*) FROM kp GROUP BY (1 + 6)'),
  ('SELECT i2 % 3, (DATE ''2000-01-01'' + 0), count(*) FROM kp GROUP BY 1, 2'),
  ('SELECT COALESCE(NULL::int4, NULL), CASE WHEN true THEN 1 ELSE 0 END, count(*) FROM kp GROUP BY 1, 2')
) AS t(q);
-- A float key's hidden aggregate counts towards the planner's limit: 64
-- aggregates and a float key are declined at planning (they raised "too
-- many aggregates" when the node began, whatever gpugb.require_gpu said).
SET gpugb.require_gpu = off;
SELECT count(*) FROM (SELECT f8, sum(v + 0), min(v + 0), max(v + 0), count(v + 0), sum(v + 1), min(v + 1), max(v + 1), count(v + 1), sum(v + 2), min(v + 2), max(v + 2), count(v + 2), sum(v + 3), min(v + 3), max(v + 3), count(v + 3), sum(v + 4), min(v + 4), max(v + 4), count(v + 4), sum(v + 5), min(v + 5), max(v + 5), count(v + 5), sum(v + 6), min(v + 6), max(v + 6), count(v + 6), sum(v + 7), min(v + 7), max(v + 7), count(v + 7), sum(v + 8), min(v + 8), max(v + 8), count(v + 8), sum(v + 9), min(v + 9), max(v + 9), count(v + 9), sum(v + 10), min(v + 10), max(v + 10), count(v + 10), sum(v + 11), min(v + 11), max(v + 11), count(v + 11), sum(v + 12), min(v + 12), max(v + 12), count(v + 12), sum(v + 13), min(v + 13), max(v + 13), count(v + 13), sum(v + 14), min(v + 14), max(v + 14), count(v + 14), sum(v + 15), min(v + 15), max(v + 15), count(v + 15)
  FROM kp GROUP BY 1) s;
RESET gpugb.require_gpu;
-- -0 and 0 are one group, and NaN one group, as PostgreSQL's float
-- equality has them.  The group prints as -0 where every member was -0
-- (above: groups of -0 alone, as PostgreSQL prints them; PostgreSQL prints
-- a mixed group, as this one, as the member its plan met first).
SELECT -f8 AS k, count(*) FROM kp WHERE f8 = 0 OR f8 = 'NaN' GROUP BY 1 ORDER BY 1;
-- Out of range: the filler stops, and PostgreSQL's plan raises the error.
SET gpugb.require_gpu = off;
SELECT i4 * 2 + v, count(*) FROM kp GROUP BY 1;
SELECT last_fallback_reason FROM gpugb_backend_stats();
SELECT f8 * 1e308, count(*) FROM kp GROUP BY 1;
SELECT last_fallback_reason FROM gpugb_backend_stats();
SELECT i4 / (v + 3), count(*) FROM kp GROUP BY 1;
SELECT last_fallback_reason FROM gpugb_backend_stats();
SELECT i4 / -1, count(*) FROM kp GROUP BY 1;
SELECT sum(v % (i2 - i2)) FROM kp;
SELECT last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.require_gpu;
-- Under parallel ingest every worker computes its rows' keys.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF, VERBOSE) SELECT COALESCE(i2, v), f8 * 2, count(*) FROM kp GROUP BY 1, 2;
-- (not the '-0' row: PostgreSQL's parallel plan prints a mixed zero group as it meets it)
SELECT gpugb_mismatches('SELECT COALESCE(i2, v), f8 * 2, count(*), sum(i4) FROM kp WHERE v <> -2 GROUP BY 1, 2') AS mismatches;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
DROP TABLE kp;
