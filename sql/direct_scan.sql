-- Direct heap reading (heapread.c): where the input is a SeqScan of a heap
-- table, the filler walks the scan's pages itself (and evaluates the scan's
-- quals and computed columns where it has some).  ds_check compares
-- gpugb's result with PostgreSQL's, with gpugb.direct_scan on and off, and
-- reads how many rows the node read directly from its EXPLAIN ANALYZE
-- (NULL: not read directly).
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;
SET gpugb.stride_rows = 1024;

CREATE FUNCTION ds_check(q text, OUT mismatches bigint, OUT mismatches_off bigint,
                         OUT direct_rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
  plan text;
BEGIN
  mismatches := gpugb_mismatches(q);
  EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || q INTO plan;
  direct_rows := (regexp_match(plan, '"Heap Rows Read Directly": (\d+)'))[1]::bigint;
  PERFORM set_config('gpugb.direct_scan', 'off', true);
  mismatches_off := gpugb_mismatches(q);
  PERFORM set_config('gpugb.direct_scan', 'on', true);
END $$;

-- Columns of every fixed width and alignment (int2, int8 after a bool, a
-- "char" read past, float8, by-reference uuid and interval), read far to
-- the right of padding; NULLs in some rows (those go through the slot).
-- Floats are multiples of 1/8, so their sums are exact in any order (on
-- the GPU too).
CREATE TABLE ds (b bool, s int2, big int8, c "char", i int4, f float8, u uuid,
                 d date, ts timestamp, iv interval, g int4, n numeric(10, 2));
INSERT INTO ds SELECT i % 2 = 0, (i % 300)::int2, i::int8 * 1000003, chr(65 + i % 3)::"char",
  i, (i % 1000) / 8.0, md5((i % 50)::text)::uuid, date '2020-01-01' + i % 400,
  timestamp '2020-01-01' + i * interval '37 minutes', (i % 90) * interval '1 hour',
  i % 17, (i % 1000) / 4.0
  FROM generate_series(1, 20000) i;
UPDATE ds SET f = NULL, s = NULL WHERE i % 9 = 0;
ANALYZE ds;

SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT g, count(*), sum(big), min(s), max(f), sum(i) FROM ds GROUP BY g'),
  ('SELECT s, count(*), avg(f) FROM ds GROUP BY s'),
  ('SELECT u, count(*), min(d), max(ts), sum(iv) FROM ds GROUP BY u'),
  ('SELECT b, count(*), sum(n), max(big), min(i) FROM ds GROUP BY b'),
  ('SELECT mod(i, 13), count(*), min(ts) FROM ds GROUP BY 1'),
  ('SELECT date_trunc(''month'', ts), count(*), sum(s) FROM ds GROUP BY 1')
) v(q);

-- Visibility: deleted and updated rows, rows of a rolled-back insert, rows
-- written by this transaction.
DELETE FROM ds WHERE i % 5 = 0;
UPDATE ds SET g = g + 100 WHERE i % 7 = 0;
BEGIN;
INSERT INTO ds (i, g) SELECT i, -1 FROM generate_series(1, 3000) i;
ROLLBACK;
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT g, count(*), sum(i), min(big) FROM ds GROUP BY g')
) v(q);
BEGIN;
INSERT INTO ds (i, g, big) SELECT i, -2, i FROM generate_series(1, 3000) i;
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT g, count(*), sum(i), min(big), count(big) FROM ds GROUP BY g')
) v(q);
ROLLBACK;

-- A column added with a default after rows were written: the old tuples
-- have fewer attributes (no NULLs: the fixed offsets would read past them),
-- and their value is the default.
CREATE TABLE ds4 (a int4, b int8);
INSERT INTO ds4 SELECT i, i * 3 FROM generate_series(1, 5000) i;
ALTER TABLE ds4 ADD COLUMN extra int4 NOT NULL DEFAULT 42;
INSERT INTO ds4 SELECT i, i, i FROM generate_series(1, 500) i;
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT a % 7, count(*), sum(extra), min(extra), max(extra), sum(b) FROM ds4 GROUP BY 1'),
  ('SELECT extra, count(*), sum(b) FROM ds4 GROUP BY 1')
) v(q);

-- A dropped column and a text column before the ones read: no fixed
-- offsets (every tuple through the slot), same results.
CREATE TABLE ds2 (x int4, t text, y int8, z int4);
INSERT INTO ds2 SELECT i, repeat('x', i % 50), i * 3, i % 11 FROM generate_series(1, 10000) i;
ALTER TABLE ds2 DROP COLUMN x;
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT z, count(*), sum(y) FROM ds2 GROUP BY z'),
  ('SELECT t, count(*), max(y) FROM ds2 GROUP BY t')
) v(q);

-- Quals on the scan (evaluated per tuple in the scan's slot: rows read
-- directly are the rows that pass), one that raises an error on some row
-- as PostgreSQL's scan would, and an empty table.
CREATE TABLE ds_empty (g int4, v int8);
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT z, count(*), sum(y) FROM ds2 WHERE y > 100 GROUP BY z'),
  ('SELECT z, count(*), sum(y) FROM ds2 WHERE length(t) BETWEEN 3 AND 40 AND z <> 4 GROUP BY z'),
  ('SELECT a % 7, count(*), sum(extra) FROM ds4 WHERE b % 3 = 0 AND extra = 42 GROUP BY 1'),
  ('SELECT g, count(*), sum(v) FROM ds_empty GROUP BY g')
) v(q);
SELECT z, count(*) FROM ds2 WHERE 100 / (y - 300) > 0 GROUP BY z;

-- Quals made of truth steps (hostexpr_cond.c) are checked by the reader on
-- the columns' words, without ExecQual: fixed-width columns at their
-- offsets, numeric ones and rows with NULLs through the slot; a date
-- against a timestamp (TPC-H Q1's l_shipdate <= date '1998-12-01' -
-- interval '90' day), a timestamp against a date.  The rows removed are
-- the scan's own count, with gpugb.direct_scan on and off.
CREATE FUNCTION dsq_check(q text, OUT mismatches bigint, OUT quals_direct bool,
                          OUT rows_removed bigint, OUT rows_removed_off bigint)
LANGUAGE plpgsql AS $$
DECLARE
  plan text;
BEGIN
  mismatches := gpugb_mismatches(q);
  EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || q INTO plan;
  quals_direct := plan ~ '"Heap Quals Checked Directly": true';
  rows_removed := (regexp_match(plan, '"Rows Removed by Filter": (\d+)'))[1]::bigint;
  PERFORM set_config('gpugb.direct_scan', 'off', true);
  EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || q INTO plan;
  rows_removed_off := (regexp_match(plan, '"Rows Removed by Filter": (\d+)'))[1]::bigint;
  PERFORM set_config('gpugb.direct_scan', 'on', true);
END $$;
CREATE TABLE dq AS SELECT i, (i % 300)::int2 AS s, i::int8 * 7 AS big, ((i % 1000) / 8.0)::float8 AS f,
  date '2020-01-01' + i % 400 AS d, timestamp '2020-01-01' + i * interval '37 minutes' AS ts,
  i % 2 = 0 AS b, i % 17 AS g
  FROM generate_series(1, 20000) i;
SELECT q, (dsq_check(q)).* FROM (VALUES
  ('SELECT g, count(*), sum(big) FROM dq WHERE d <= timestamp ''2020-06-01 00:00'' GROUP BY g'),
  ('SELECT g, count(*) FROM dq WHERE d < timestamp ''2020-06-01 12:00'' AND d > timestamp ''2020-02-01 06:00'' GROUP BY g'),
  ('SELECT g, count(*) FROM dq WHERE d = timestamp ''2020-03-01 00:00'' OR d <> timestamp ''2020-03-02 06:00'' AND s < 3 GROUP BY g'),
  ('SELECT g, count(*), max(ts) FROM dq WHERE ts >= date ''2020-03-01'' AND ts < date ''2020-03-05'' GROUP BY g'),
  ('SELECT g, count(*) FROM dq WHERE s IN (1, 5, 10, 299) OR g NOT IN (3, 4) AND b GROUP BY g'),
  ('SELECT g, sum(f) FROM dq WHERE f > 12.5 AND f <= 100 AND big >= 7000 GROUP BY g'),
  ('SELECT b, count(*), sum(n) FROM ds WHERE n BETWEEN 10.5 AND 100.25 AND (s < 150 OR s IS NULL) GROUP BY b'),
  ('SELECT g, count(*) FROM ds WHERE f > 12.5 OR f IS NULL GROUP BY g'),
  ('SELECT z, count(*), sum(y) FROM ds2 WHERE y > 100 AND z < 8 GROUP BY z')
) v(q);

-- Quals comparing a text, varchar or char(n) column with constants for
-- equality (=, <>, IN, NOT IN) under a deterministic collation
-- (textqual.c) are checked on the tuple's bytes too, alone or with truth
-- steps: char(n)'s trailing blanks do not count, on either side; NULLs,
-- empty strings; values stored compressed or out of line (PostgreSQL's
-- operator answers for those rows).  Not checked directly: a NULL in the
-- IN list, = ALL, an OR with a text comparison, a nondeterministic
-- collation.  A FILTER the scan computes (TPC-H Q12's shape): the quals
-- first, the projection only for the rows that pass.
CREATE TABLE dtx (i int4, t text, v varchar(20), c char(8), big text, g int4);
ALTER TABLE dtx ALTER COLUMN big SET STORAGE EXTENDED;
INSERT INTO dtx SELECT i,
  CASE WHEN i % 11 = 0 THEN NULL WHEN i % 5 = 0 THEN '' ELSE 'w' || (i % 7) END,
  CASE WHEN i % 13 = 0 THEN NULL ELSE 'v' || (i % 4) END,
  CASE WHEN i % 17 = 0 THEN NULL WHEN i % 3 = 0 THEN 'MAIL' WHEN i % 3 = 1 THEN 'SHIP  ' ELSE 'AIR' END,
  CASE WHEN i % 97 = 0 THEN repeat('ab', 3000)
       WHEN i % 89 = 0 THEN (SELECT string_agg(md5((i * 100 + k)::text), '') FROM generate_series(1, 120) k)
       WHEN i % 7 = 0 THEN 'x' ELSE 'y' || (i % 3) END,
  i % 19
  FROM generate_series(1, 20000) i;
ANALYZE dtx;
-- the long values are stored compressed and out of line, as meant
SELECT count(*) FILTER (WHERE pg_column_size(big) < octet_length(big) AND octet_length(big) = 6000) AS compressed,
       count(*) FILTER (WHERE octet_length(big) = 3840) AS long_random
  FROM dtx;
SELECT q, (dsq_check(q)).* FROM (VALUES
  ('SELECT g, count(*), sum(i) FROM dtx WHERE t <> '''' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE t = ''w3'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE ''w3'' = t AND i > 100 GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE c = ''SHIP'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE c = ''MAIL    '' AND i > 50 GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE c IN (''MAIL'', ''SHIP'') GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE c NOT IN (''MAIL'', ''AIR '') GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE v IN (''v1'', ''v3'', ''v9'') AND t <> ''w1'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE v <> ''v2'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE big <> ''x'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE big IN (''x'', ''y1'') GROUP BY g'),
  ('SELECT t, count(*), max(i) FROM dtx WHERE t <> '''' GROUP BY t'),
  ('SELECT g, count(*) FROM dtx WHERE t IN (''w1'', NULL) GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE t = ALL (ARRAY[''w1'']) GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE t = ''w1'' OR i < 10 GROUP BY g'),
  ('SELECT c, count(*) FILTER (WHERE t IN (''w1'', ''w2'')), sum(i) FILTER (WHERE v = ''v1'') FROM dtx WHERE c IN (''MAIL'', ''SHIP'') AND i > 500 GROUP BY c')
) v(q);
CREATE COLLATION dtx_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT q, (dsq_check(q)).* FROM (VALUES
  ('SELECT g, count(*) FROM dtx WHERE t = ''W3'' COLLATE dtx_ci GROUP BY g')
) v(q);
-- More text quals: empty and NULL-holding lists, C collation, a column
-- declared with a nondeterministic collation, a domain over text (left to
-- ExecQual), trailing blanks in varchar (they count there), an all-blank
-- char(n) against '', multibyte values; a value stored out of line or
-- compressed under a scan that projects (the row goes to ExecQual, then
-- the projection); rows written before a text column was added (their
-- missing value); VACUUMed all-visible pages with dead and redirected line
-- pointers (read_page's line-pointer loop); a generic plan's parameter (a
-- Param, left to ExecQual).
CREATE DOMAIN dtx_dom AS text;
ALTER TABLE dtx ADD COLUMN ci text COLLATE dtx_ci, ADD COLUMN dom dtx_dom,
  ADD COLUMN vb varchar(10), ADD COLUMN cb char(4), ADD COLUMN mb text;
UPDATE dtx SET ci = t, dom = t, vb = CASE WHEN i % 3 = 0 THEN 'v1 ' ELSE 'v1' END,
  cb = CASE WHEN i % 4 = 0 THEN '' ELSE 'ab' END, mb = CASE WHEN i % 2 = 0 THEN 'żółw' ELSE 'жук' END;
SELECT q, (dsq_check(q)).* FROM (VALUES
  ('SELECT g, count(*) FROM dtx WHERE t NOT IN (''w1'', NULL) GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE t = ANY (''{}''::text[]) GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE t <> ALL (''{}''::text[]) GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE t = ''w2'' COLLATE "C" GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE ci = ''W2'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE dom = ''w2'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE vb = ''v1'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE cb = '''' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE c <> ''MAIL    '' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE mb = ''żółw'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx WHERE t IS DISTINCT FROM ''w1'' GROUP BY g'),
  ('SELECT g, count(*) FILTER (WHERE i > 5), sum(i) FILTER (WHERE t = ''w1'') FROM dtx WHERE big <> ''x'' GROUP BY g')
) v(q);
-- some values are stored out of line: the table's TOAST relation holds them
SELECT pg_relation_size(reltoastrelid) > 0 AS out_of_line FROM pg_class WHERE relname = 'dtx';
CREATE TABLE dtx_old (i int4, g int4);
INSERT INTO dtx_old SELECT i, i % 5 FROM generate_series(1, 3000) i;
ALTER TABLE dtx_old ADD COLUMN t text DEFAULT 'a';
INSERT INTO dtx_old SELECT i, i % 5, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END FROM generate_series(1, 1000) i;
SELECT q, (dsq_check(q)).* FROM (VALUES
  ('SELECT g, count(*) FROM dtx_old WHERE t = ''a'' GROUP BY g'),
  ('SELECT g, count(*) FROM dtx_old WHERE t <> ''a'' AND i > 10 GROUP BY g')
) v(q);
DELETE FROM dtx WHERE i % 10 = 1;
UPDATE dtx SET g = g WHERE i % 10 = 2;
VACUUM dtx;
SELECT q, (dsq_check(q)).* FROM (VALUES
  ('SELECT g, count(*), sum(i) FROM dtx WHERE t <> '''' GROUP BY g'),
  ('SELECT g, count(*), sum(i) FROM dtx GROUP BY g')
) v(q);
SET plan_cache_mode = force_generic_plan;
PREPARE dtx_p(text) AS SELECT g, count(*) FROM dtx WHERE t = $1 GROUP BY g ORDER BY g;
EXECUTE dtx_p('w3');
-- off, the same generic plan runs PostgreSQL's plan (its fallback child):
-- the same rows
SET gpugb.enabled = off;
SET gpugb.require_gpu = off;
EXECUTE dtx_p('w3');
RESET gpugb.require_gpu;
RESET gpugb.enabled;
DEALLOCATE dtx_p;
RESET plan_cache_mode;

-- Columns the scan computes (FILTER conditions, a cast key): its projection
-- runs per row, with and without a qual; one that raises an error.
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT z, count(*) FILTER (WHERE y % 2 = 0), sum(y) FILTER (WHERE t LIKE ''x%'') FROM ds2 GROUP BY z'),
  ('SELECT (y / 1000)::int4, count(*), max(z) FROM ds2 GROUP BY 1'),
  ('SELECT z, count(*) FILTER (WHERE length(t) > 10), min(y) FROM ds2 WHERE z > 2 GROUP BY z'),
  ('SELECT a % 7, count(*) FILTER (WHERE extra <> 42), sum(b) FROM ds4 GROUP BY 1')
) v(q);
SELECT z, count(*), sum(mod(100, y - 300)) FROM ds2 GROUP BY z;
SELECT * FROM gpugb_explain_analyze(
  'SELECT z, count(*), sum(y) FROM ds2 WHERE y % 2 = 0 GROUP BY z');

-- A rescan: the grouped scan runs once per outer row (3 x 10000 rows read
-- directly).
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT k, s.* FROM generate_series(1, 3) k, LATERAL (SELECT z, count(*), sum(y) FROM ds2 GROUP BY z HAVING sum(y) > 13630000 + k * 5000) s')
) v(q);

-- A rescan after a run that stopped early: the first outer row meets a
-- numeric Infinity (no device word: the fill stops in the middle of the
-- scan and PostgreSQL's plan answers), the second must read the whole
-- table again.
CREATE TABLE ds5 (id int4, k int4, v numeric);
INSERT INTO ds5 SELECT i, i % 10, CASE WHEN i = 5000 THEN 'Infinity'::numeric ELSE i END
  FROM generate_series(1, 10000) i;
ANALYZE ds5;
SET gpugb.require_gpu = off;
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT o.x, s.* FROM (VALUES (0), (5000)) o(x), LATERAL (SELECT k, count(*) AS n, sum(v) FROM ds5 WHERE id <> o.x GROUP BY k) s')
) v(q);
RESET gpugb.require_gpu;

-- A temporary table (local buffers), and a serializable transaction
-- (the scan's predicate locks are PostgreSQL's own).
CREATE TEMP TABLE ds_temp AS SELECT i % 23 AS g, i::int8 AS v FROM generate_series(1, 20000) i;
DELETE FROM ds_temp WHERE v % 3 = 0;
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT g, count(*), sum(v) FROM ds_temp GROUP BY g')
) v(q);
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT a % 7, count(*), sum(b), max(extra) FROM ds4 GROUP BY 1')
) v(q);
COMMIT;

-- Parallel ingest: workers and the leader read their blocks directly.
RESET max_parallel_workers_per_gather;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET gpugb.stride_rows = 65536;
CREATE TABLE ds3 AS SELECT i AS id, i % 1000 AS g, i::int8 * 7 AS v FROM generate_series(1, 300000) i;
DELETE FROM ds3 WHERE id % 10 = 0;
ALTER TABLE ds3 SET (parallel_workers = 2);
ANALYZE ds3;
SELECT (gpugb_parallel_check('SELECT g, count(*), sum(v), min(id) FROM ds3 GROUP BY g')).*;
SET gpugb.direct_scan = off;
SELECT (gpugb_parallel_check('SELECT g, count(*), sum(v), min(id) FROM ds3 GROUP BY g')).*;
RESET gpugb.direct_scan;
-- ...with text equality quals checked by every participant's reader, and
-- a FILTER their scans compute
CREATE TABLE ds3t AS SELECT i AS id, i % 100 AS g,
  CASE WHEN i % 13 = 0 THEN NULL ELSE 'k' || (i % 7) END AS t, (i % 5)::char(3) AS c
  FROM generate_series(1, 300000) i;
ALTER TABLE ds3t SET (parallel_workers = 2);
ANALYZE ds3t;
SELECT q, (gpugb_parallel_check(q)).* FROM (VALUES
  ('SELECT g, count(*), sum(id) FROM ds3t WHERE t IN (''k1'', ''k3'') AND c <> ''2'' GROUP BY g'),
  ('SELECT g, count(*) FILTER (WHERE t = ''k2''), count(*) FROM ds3t WHERE t <> ''k4'' GROUP BY g')
) v(q);

-- Integer layouts are read 64 rows per call (gpugb_layout_fills_plainly):
-- tables that end exactly at, one before and one after a whole number of
-- batches and of 1024-row strides, and a scan that ends inside a batch,
-- count every row once (a batch that met the end once restarted the scan).
-- One process reads them all (no workers), so every row is counted here.
SET max_parallel_workers_per_gather = 0;
SET gpugb.stride_rows = 1024;
CREATE TABLE ds_batch (k int4, v int8, b bool);
INSERT INTO ds_batch SELECT i, i * 3, i % 5 <> 0 FROM generate_series(1, 3073) i;
ANALYZE ds_batch;
CREATE TABLE ds_b3072 AS SELECT * FROM ds_batch WHERE k <= 3072;
CREATE TABLE ds_b3071 AS SELECT * FROM ds_batch WHERE k <= 3071;
CREATE TABLE ds_b64 AS SELECT * FROM ds_batch WHERE k <= 64;
ANALYZE ds_b3072, ds_b3071, ds_b64;
SELECT t, (ds_check(format('SELECT k %% 7, count(*), sum(v), bool_and(b) FROM %I GROUP BY 1', t))).*
  FROM unnest(ARRAY['ds_batch', 'ds_b3072', 'ds_b3071', 'ds_b64']) AS t;
DROP TABLE ds_batch, ds_b3072, ds_b3071, ds_b64;

-- The reader deforms tuples itself (locate_attributes): columns after
-- NULLs, after text of 1-byte and 4-byte headers, after values compressed
-- in line, after a dropped column; char(n) and numeric keys; and quals on
-- such tuples: one comparison of an int2, int4, int8 or date column with a
-- constant is checked on the tuple's bytes (NULLs fail it), a numeric(12, 2)
-- one on its word; quals on numeric(30, 2), whose values need not fit a
-- word, are left to PostgreSQL's ExecQual.
CREATE TABLE dv (a int4, t1 text, gone int8, n numeric(12, 2), c char(3), d date,
                 n2 numeric(30, 2), s int2, t2 varchar(300), big int8);
ALTER TABLE dv ALTER COLUMN t1 SET STORAGE MAIN;
INSERT INTO dv SELECT i,
  CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN repeat('y', i % 7)
    WHEN 2 THEN repeat('z', 130 + i % 50) ELSE repeat('ab', 2000 + i % 100) END,
  i, CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 5000) / 4.0 END,
  CASE WHEN i % 13 = 0 THEN NULL ELSE chr(65 + i % 4) || chr(66 + i % 3) END,
  CASE WHEN i % 17 = 0 THEN NULL ELSE date '2020-01-01' + i % 500 END,
  CASE WHEN i % 101 = 0 THEN 1e25 + i ELSE i % 300 END,
  CASE WHEN i % 19 = 0 THEN NULL ELSE (i % 40)::int2 END,
  CASE WHEN i % 3 = 0 THEN repeat('w', 200) ELSE 'v' || (i % 9) END, i * 7
  FROM generate_series(1, 12000) i;
ALTER TABLE dv DROP COLUMN gone;
SELECT pg_column_compression(t1) IS NOT NULL AS t1_compressed_in_line
  FROM dv WHERE a % 4 = 3 LIMIT 1;
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT c, count(*), sum(n), min(d), max(s), count(t1) FROM dv GROUP BY c'),
  ('SELECT n, count(*), sum(big) FROM dv GROUP BY n'),
  ('SELECT s, count(*), sum(n), max(big) FROM dv GROUP BY s')
) v(q);
-- Layouts with by-reference columns are filled a page of rows at a time,
-- a column at a time (fill_rows_by_column): text keys long enough for the
-- dictionary, text min/max, numeric programs, a date and a char key; and a
-- numeric(30, 2) value beyond 18 digits in the middle of a page, which
-- sends the query to PostgreSQL's plan (no direct_rows: the node's own
-- plan answered), and the same query without those rows.
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT t2, count(*), sum(n), min(t1), max(c) FROM dv GROUP BY t2'),
  ('SELECT d, c, count(*), sum(n * 2 - big), avg(n) FROM dv GROUP BY d, c'),
  ('SELECT c, count(*), sum(n2) FROM dv WHERE a % 101 <> 0 GROUP BY c')
) v(q);
SET gpugb.require_gpu = off;
SELECT q, (ds_check(q)).* FROM (VALUES
  ('SELECT c, count(*), sum(n2), max(t2) FROM dv GROUP BY c')
) v(q);
RESET gpugb.require_gpu;
SELECT q, (dsq_check(q)).* FROM (VALUES
  ('SELECT c, count(*), sum(n) FROM dv WHERE d <= date ''2020-10-01'' GROUP BY c'),
  ('SELECT c, count(*), sum(n) FROM dv WHERE d <= timestamp ''2020-10-01 12:00'' GROUP BY c'),
  ('SELECT c, count(*) FROM dv WHERE s > 10 GROUP BY c'),
  ('SELECT c, count(*) FROM dv WHERE s <> 10 AND a >= 500 AND big < 70000 GROUP BY c'),
  ('SELECT c, count(*) FROM dv WHERE a = 77 OR s = 3 GROUP BY c'),
  ('SELECT c, count(*), sum(n) FROM dv WHERE n BETWEEN 10.5 AND 300 AND s < 30 GROUP BY c'),
  ('SELECT c, count(*), sum(n) FROM dv WHERE n2 > 100 GROUP BY c'),
  ('SELECT c, count(*), sum(n) FROM dv WHERE n2 < 100 AND d > date ''2020-02-01'' GROUP BY c')
) v(q);
DROP TABLE dv;

DROP TABLE ds, ds2, ds3, ds4, ds5, ds_empty, ds_temp;
DROP FUNCTION ds_check(text);
