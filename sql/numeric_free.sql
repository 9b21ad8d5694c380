-- numeric without a type modifier (and numeric(p > 18, s)): each value keeps
-- its own display scale (dscale), and PostgreSQL's results depend on it.
-- A value travels as (v * 10^S) * 32 + dscale, S planned per column
-- (numeric_free.c); sums take the inputs' largest dscale, keys group by
-- value and print a member's representation, min/max return a member.
-- gpugb.require_gpu is on (see setup.sql), so every query below that is
-- not marked as falling back ran on the device (or its emulator), and
-- gpugb_mismatches compares it with PostgreSQL's own plan, as text, so
-- display scales must match too.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE nf (g int, k numeric, v numeric, w numeric(30,10), big numeric);
INSERT INTO nf SELECT i % 5,
  ((i % 3)::text || (ARRAY['', '.0', '.00', '.000'])[i % 4 + 1])::numeric,
  round(i * 1.37 - 3000, i % 5),
  i / 7.0,
  i * 1e30
  FROM generate_series(1, 20000) i;
-- NULLs, NaNs, negative keys with two representations
INSERT INTO nf VALUES (NULL, NULL, NULL, NULL, NULL), (1, NULL, 2.5, 1, NULL),
  (2, 'NaN', 1.25, 2, 1), (2, 'NaN', 'NaN', 3, 1), (3, -1.5, 'NaN', NULL, NULL),
  (3, -1.50, 0.001, -0.5, 2), (NULL, 7, NULL, NULL, NULL);
ANALYZE nf;

EXPLAIN (COSTS OFF) SELECT k, sum(v), avg(v), min(v), max(v), stddev(v), sum(w) FROM nf GROUP BY k;

-- Sums, averages, min/max, variance: PostgreSQL's values and display scales.
SELECT g, sum(v), avg(v), min(v), max(v), count(v), scale(sum(v)) AS sum_scale,
  scale(avg(v)) AS avg_scale FROM nf GROUP BY g ORDER BY g;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT g, sum(v), avg(v), min(v), max(v), count(v), count(*) FROM nf GROUP BY g'),
  ('SELECT g, variance(v), var_pop(v), var_samp(v), stddev(v), stddev_pop(v), stddev_samp(v) FROM nf GROUP BY g'),
  ('SELECT g, sum(w), avg(w), min(w), max(w), variance(w), stddev_pop(w) FROM nf GROUP BY g'),
  ('SELECT sum(v), avg(v), min(v), max(v), stddev(v), var_pop(w) FROM nf'),
  ('SELECT g, sum(v) FILTER (WHERE v > 0), avg(v) FILTER (WHERE g > 1) FROM nf GROUP BY g'),
  ('SELECT g, sum(v) FROM nf GROUP BY g HAVING avg(v) > 100'),
  ('SELECT g, sum(v), stddev(v) FROM nf WHERE v IS NULL OR v <> ''NaN'' GROUP BY g'),
  ('SELECT v, count(*) FROM nf GROUP BY v'),
  ('SELECT g, v, count(*), sum(w) FROM nf WHERE g < 2 GROUP BY g, v'),
  ('SELECT round(k, 10) AS k, count(*), sum(v), avg(w) FROM nf GROUP BY k'),
  ('SELECT g, round(min(k), 10), round(max(k), 10) FROM nf GROUP BY g'),
  -- count(x) reads no value: numbers beyond any device scale are fine there
  ('SELECT g, count(big), count(*) FROM nf GROUP BY g')
) AS t(q);

-- GROUP BY keys: 1, 1.0, 1.00 and 1.000 are one group (numeric equality),
-- printed with its members' least display scale.
SELECT k, count(*) FROM nf GROUP BY k ORDER BY k;
CREATE TABLE nk (k numeric, v numeric);
INSERT INTO nk VALUES (1.0, 1), (1.00, 2), (1.00, 3), (-0.50, 4), (-0.5000, 5), (0.00, 6), (0.0, 7);
SELECT k, count(*), sum(v) FROM nk GROUP BY k ORDER BY k;
SET gpugb.enabled = off;
SELECT k = 1.000 OR k = -0.5 OR k = 0 AS same_value, count(*), sum(v) FROM nk GROUP BY k ORDER BY k;
RESET gpugb.enabled;

-- min/max of equal values with different display scales: PostgreSQL returns
-- whichever came last, gpugb the least (min) or greatest (max) dscale, so
-- only the values are compared with PostgreSQL's.
CREATE TABLE nt (g int, v numeric);
INSERT INTO nt VALUES (1, 1.5), (1, 1.50), (1, 1.500), (1, 2), (2, -3.10), (2, -3.1), (2, -3.100);
SELECT g, min(v), max(v) FROM nt GROUP BY g ORDER BY g;
SELECT gpugb_mismatches('SELECT g, min(v) = max(v) AS tied, round(min(v), 5), round(max(v), 5) FROM nt GROUP BY g') AS mismatches;
-- sum/avg take the largest display scale, whatever the order
SELECT g, sum(v), avg(v), stddev(v) FROM nt GROUP BY g ORDER BY g;
SELECT gpugb_mismatches('SELECT g, sum(v), avg(v), stddev(v), var_pop(v) FROM nt GROUP BY g') AS mismatches;

-- Without statistics the device scale is 4: digits beyond it make the
-- query fall back (and the answer is PostgreSQL's); trailing zeros beyond
-- it do not (1.50000000 is 1.5 at scale 4, with its own dscale 8).
CREATE TABLE nx (g int, v numeric, w numeric(30,10));
INSERT INTO nx VALUES (1, 1.50000000, 1), (1, 2, 2.5), (2, 0.125, 3);
SELECT g, sum(v), avg(v), min(v), max(v), sum(w) FROM nx GROUP BY g ORDER BY g;
SELECT gpugb_mismatches('SELECT g, sum(v), avg(v), min(v), max(v), variance(v), sum(w) FROM nx GROUP BY g') AS mismatches;
-- a display scale of 30 still travels (31 would not)
INSERT INTO nx VALUES (2, 1.000000000000000000000000000000, 4);
SELECT g, sum(v), max(v) FROM nx WHERE g = 2 GROUP BY g;
SELECT gpugb_mismatches('SELECT g, sum(v), avg(v), stddev(v) FROM nx GROUP BY g') AS mismatches;
SET gpugb.require_gpu = off;
INSERT INTO nx VALUES (2, 1.0000000000000000000000000000000, 4);
SELECT gpugb_mismatches('SELECT g, sum(v), max(v) FROM nx GROUP BY g') AS mismatches;
SELECT last_fallback_reason FROM gpugb_backend_stats();
DELETE FROM nx WHERE scale(v) = 31;
INSERT INTO nx VALUES (1, 0.123456, 1);
SELECT gpugb_mismatches('SELECT g, sum(v), avg(v), min(v) FROM nx GROUP BY g') AS mismatches;
SELECT last_fallback_reason FROM gpugb_backend_stats();
DELETE FROM nx WHERE v = 0.123456;
-- too large for a word at scale 4 (|v| * 10^4 >= 2^58)
INSERT INTO nx VALUES (1, 1e20, 1);
SELECT gpugb_mismatches('SELECT g, sum(v), max(v) FROM nx GROUP BY g') AS mismatches;
SELECT last_fallback_reason FROM gpugb_backend_stats();
DELETE FROM nx WHERE v = 1e20;
-- numeric(30, 10): 18 digits at scale 10, beyond that PostgreSQL's plan
INSERT INTO nx VALUES (1, 1, 123456789.5);
SELECT gpugb_mismatches('SELECT g, sum(w), avg(w) FROM nx GROUP BY g') AS mismatches;
SELECT last_fallback_reason FROM gpugb_backend_stats();
DELETE FROM nx WHERE w = 123456789.5;
-- Infinity has no device word (sums of it are Infinity or NaN in PostgreSQL)
INSERT INTO nx VALUES (1, 'Infinity', 1), (2, '-Infinity', 1);
SELECT gpugb_mismatches('SELECT g, sum(v), avg(v), min(v), max(v), stddev(v) FROM nx GROUP BY g') AS mismatches;
SELECT gpugb_mismatches('SELECT v, count(*) FROM nx GROUP BY v') AS mismatches;
SELECT last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.require_gpu;
DELETE FROM nx WHERE v IN ('Infinity', '-Infinity');
SELECT gpugb_mismatches('SELECT g, sum(v), avg(v), min(v), max(v) FROM nx GROUP BY g') AS mismatches;

-- With statistics, the device scale is the largest display scale they show
-- (here 6), so six fractional digits stay on the device.
CREATE TABLE ns (g int, v numeric);
INSERT INTO ns SELECT i % 3, round(i / 7.0, 6) FROM generate_series(1, 1000) i;
ANALYZE ns;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT g, sum(v), avg(v), min(v), max(v), stddev(v) FROM ns GROUP BY g'),
  ('SELECT v, count(*) FROM ns GROUP BY v')
) AS t(q);

-- The device scale counts significant digits: averages stored as
-- numeric (2.5000000000000000) need one, and keep their display scale.
CREATE TABLE na (g int, v numeric);
INSERT INTO na SELECT i % 4, avg(x) FROM generate_series(1, 400) i,
  LATERAL (VALUES (i), (i + 1)) AS t(x) GROUP BY i;
ANALYZE na;
SELECT g, sum(v), min(v), max(v) FROM na GROUP BY g ORDER BY g;
SELECT gpugb_mismatches('SELECT g, sum(v), avg(v), min(v), max(v), stddev(v) FROM na GROUP BY g') AS mismatches;
-- Statistics that show values no device scale holds exactly (a division's
-- 20 digits): every run would fall back, so the planner declines.
CREATE TABLE nd (g int, v numeric);
INSERT INTO nd SELECT i % 3, i / 7.0 FROM generate_series(1, 100) i;
ANALYZE nd;
SET client_min_messages = debug1;
EXPLAIN (COSTS OFF) SELECT g, sum(v) FROM nd GROUP BY g;
RESET client_min_messages;

-- A numeric from a division carries data-dependent display scales of 16
-- digits and more: not offloaded.  Exact arithmetic over numeric(p, s)
-- columns still runs in the filler (hostexpr.c), and other expressions over
-- free numerics are computed by the input plan.
SET gpugb.require_gpu = off;
EXPLAIN (COSTS OFF) SELECT g, sum(v / 3) FROM nf GROUP BY g;
EXPLAIN (COSTS OFF) SELECT v / 3, count(*) FROM nf GROUP BY 1;
RESET gpugb.require_gpu;
EXPLAIN (COSTS OFF, VERBOSE) SELECT g, sum(w * 2 + 1), sum(v * 2 + 1) FROM nf GROUP BY g;
SELECT gpugb_mismatches('SELECT g, sum(w * 2 + 1), sum(v * 2 + 1), max(-v) FROM nf GROUP BY g') AS mismatches;
-- +, - and * take their device scale from their operands' statistics (a
-- product's digits add up): these stay on the device.
SELECT gpugb_mismatches('SELECT g, sum(v * v), avg(v * 0.001), max(v - 0.5), stddev(abs(v) * 1.5) FROM nf GROUP BY g') AS mismatches;
SELECT gpugb_mismatches('SELECT v * 0.01 AS k, count(*) FROM nf GROUP BY 1') AS mismatches;

-- Numeric GROUP BY keys that are arithmetic over numeric(p, s) columns,
-- integers and constants (no type modifier: free numerics) are computed by
-- the filler, packed with PostgreSQL's display scale of the result (the
-- larger of an addition's operands', the sum of a product's); the input
-- projects the plain columns.  A CASE or COALESCE key packs each arm's.
CREATE TABLE nkp (p numeric(9, 2), q numeric(7, 3), i int4);
INSERT INTO nkp SELECT round((x % 997) * 1.37, 2), round((x % 89) * 0.251 - 11, 3), x % 7
  FROM generate_series(1, 20000) x;
INSERT INTO nkp VALUES (NULL, 1, 1), (1, NULL, NULL), (0, 0, 0), (-0.01, -0.001, -1),
  (9999999.99, 9999.999, 7);
ANALYZE nkp;
EXPLAIN (COSTS OFF, VERBOSE) SELECT p * 2, q + p, count(*) FROM nkp GROUP BY 1, 2;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT p * 2, count(*), sum(i) FROM nkp GROUP BY 1'),
  ('SELECT p + q, -q, count(*) FROM nkp GROUP BY 1, 2'),
  ('SELECT q * q, i, count(*) FROM nkp GROUP BY 1, 2'),
  ('SELECT p - 0.5, q * 1.50, min(i) FROM nkp GROUP BY 1, 2'),
  ('SELECT i::numeric * 0.1 + p, count(*) FROM nkp GROUP BY 1'),
  ('SELECT CASE WHEN i > 3 THEN q ELSE p END, count(*) FROM nkp GROUP BY 1'),
  ('SELECT COALESCE(q, p * 2), count(*) FROM nkp GROUP BY 1'),
  -- one step and the pack: the leaf is the child's column (review of 2360771)
  ('SELECT i::numeric, count(*) FROM nkp GROUP BY 1'),
  ('SELECT +p, i, i::numeric, count(*) FROM nkp GROUP BY 1, 2, 3')
) AS t(q);
EXPLAIN (COSTS OFF, VERBOSE) SELECT i::numeric, count(*) FROM nkp GROUP BY 1;
-- NaN has no word: a clean fallback, PostgreSQL's result.
INSERT INTO nkp VALUES ('NaN', 1, 1);
SET gpugb.require_gpu = off;
SELECT gpugb_mismatches('SELECT p * 2, count(*) FROM nkp GROUP BY 1') AS mismatches;
SELECT last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.require_gpu;
DELETE FROM nkp WHERE p = 'NaN';

-- Parallel ingest: workers pack the words the same way.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT k, sum(v), min(v) FROM nf GROUP BY k;
SELECT gpugb_mismatches('SELECT g, round(k, 5), sum(v), avg(v), min(v), max(v), stddev(v), sum(w) FROM nf GROUP BY g, k') AS mismatches;
SELECT gpugb_mismatches('SELECT p * 2, q * q + p, count(*), sum(i) FROM nkp GROUP BY 1, 2') AS mismatches;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

SELECT * FROM gpugb_memory_in_use();
DROP TABLE nf, nk, nt, nx, ns, na, nd, nkp;

-- A numeric stored out of line (TOAST, here 6001 digits uncompressed) in a
-- table whose statistics show small values: the plan takes the device, and
-- at run time the filler reads the value detoasted, finds it too wide for a
-- device word and falls back (src/varlena_in_line.h).  Its 1-byte TOAST
-- pointer once passed for a short numeric in line (session 24); these
-- pointers' bytes happened to read as a special value, which fell back too.
CREATE TABLE ntoast (g int, v numeric);
INSERT INTO ntoast SELECT i % 3, i / 4.0 FROM generate_series(1, 3000) i;
ANALYZE ntoast;
ALTER TABLE ntoast ALTER COLUMN v SET STORAGE EXTERNAL;
INSERT INTO ntoast VALUES (1, ('1' || repeat('0', 6000))::numeric), (2, -('7' || repeat('3', 6000))::numeric);
SELECT pg_relation_size(reltoastrelid) > 0 AS out_of_line FROM pg_class WHERE relname = 'ntoast';
SET gpugb.require_gpu = off;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT g, count(*), sum(v), min(v), max(v) FROM ntoast GROUP BY g'),
  ('SELECT v, count(*) FROM ntoast GROUP BY v')
) AS x(q);
SELECT last_fallback_reason FROM gpugb_backend_stats();
RESET gpugb.require_gpu;
