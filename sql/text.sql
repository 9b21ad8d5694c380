-- Short text keys: text, varchar and char(n) values of at most 16 bytes
-- are packed into two device words (one, where the declared length allows
-- no more than 8 bytes; text has no zero bytes, so the packing is
-- injective; char(n) drops its trailing spaces first, as its equality
-- does, and gets them back on output).  Byte equality is equality under
-- a deterministic collation only.  A longer value stops the GPU run and
-- PostgreSQL's plan answers instead.  time keys are int64 microseconds,
-- uuid keys two words.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE tk (a text, b varchar(20), c char(3), d char(1), t time, v int,
                 u text COLLATE "C");
INSERT INTO tk SELECT CASE WHEN i % 11 = 0 THEN NULL ELSE 'k' || (i % 37) END,
  'é' || (i % 5), (i % 4)::text, chr(65 + i % 3),
  '00:00'::time + (i % 50) * interval '1 min', i, 'x'
  FROM generate_series(1, 30000) i;
INSERT INTO tk VALUES ('', '', '', ' ', '23:59:59.999999', 1, ''),
  ('12345678', 'ab ', 'ab ', 'Z', NULL, 2, 'y'), ('1234567890123456', 'ab ', 'ab ', 'Z', NULL, 2, 'y'),
  ('123456789', 'ab', 'ab', 'Z', NULL, 2, 'y'), ('ß€', 'ß€', 'ß€', 'ß', '12:00', 3, 'ß€');
ANALYZE tk;

EXPLAIN (COSTS OFF) SELECT c, d, count(*), min(t) FROM tk GROUP BY c, d;
-- char(3) keys keep their padding: octet_length counts it.
SELECT c, octet_length(c), c || '|' AS c_bar, count(*) FROM tk GROUP BY c ORDER BY 1;
SELECT a, count(*), sum(v) FROM tk GROUP BY a ORDER BY a LIMIT 5;

SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT a, count(*), sum(v) FROM tk GROUP BY a'),
  ('SELECT b, c, count(*), min(t), max(t) FROM tk GROUP BY b, c'),
  ('SELECT d, sum(v), avg(v) FROM tk GROUP BY d'),
  ('SELECT t, count(*) FROM tk GROUP BY t'),
  ('SELECT c, d, count(a) FROM tk GROUP BY c, d'),
  ('SELECT u, count(a) FROM tk GROUP BY u'),
  ('SELECT upper(a), count(*) FROM tk GROUP BY 1')
) AS t(q);

SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT md5(v::text)::uuid, count(*) FROM tk GROUP BY 1'),
  ('SELECT (md5((v % 100)::text))::uuid, a, sum(v) FROM tk GROUP BY 1, 2'),
  ('SELECT left(md5(v::text), v % 17), count(*) FROM tk GROUP BY 1')
) AS t(q);

-- A key longer than 16 bytes: a one-process plan encodes it in its
-- dictionary and stays on the GPU...
INSERT INTO tk VALUES ('12345678901234567', 'x', 'x', 'x', NULL, 4, 'z');
SELECT gpugb_mismatches('SELECT a, count(*) FROM tk GROUP BY a') AS mismatches;
-- ...and so does a parallel plan: its workers encode it in the query's
-- shared dictionary (gpugb.require_gpu makes a fallback an ERROR).
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT gpugb_mismatches('SELECT a, count(*) FROM tk GROUP BY a') AS mismatches;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET min_parallel_table_scan_size;
-- Longer text keys: dictionary-encoded (exact: the full bytes are
-- compared), under parallel ingest too, where statistics show long values
-- and char(n) allows them (parallel.sql has more).
CREATE TABLE tlong AS SELECT repeat('x', 20 + i % 10) || (i % 300) AS t, i % 7 AS s,
  ('c' || i % 3)::char(20) AS c FROM generate_series(1, 3000) i;
INSERT INTO tlong VALUES ('', 1, ''), (NULL, 2, NULL), ('exactly sixteen!', 3, 'exactly sixteen!'),
  ('exactly seventeen', 4, 'exactly seventeen');
ANALYZE tlong;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT t, count(*) FROM tlong GROUP BY t;
EXPLAIN (COSTS OFF) SELECT c, count(*) FROM tlong GROUP BY c;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT t, count(*), sum(s) FROM tlong GROUP BY t'),
  ('SELECT c, t, count(*) FROM tlong GROUP BY c, t'),
  ('SELECT s, c, max(s) FROM tlong GROUP BY s, c')
) AS t(q);
SELECT t, octet_length(t) FROM tlong GROUP BY t ORDER BY octet_length(t), t LIMIT 4;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET min_parallel_table_scan_size;
-- char without a length (COALESCE or CASE over char(n) and a literal):
-- grouped without trailing spaces, as bpchareq compares, and printed with
-- the spaces its members have.  tlong's c is char(20), tk's c char(3).
INSERT INTO tk (a, c, d, v) VALUES ('nullc', NULL, NULL, 5);
SELECT pg_typeof(coalesce(c, 'zz')) FROM tk LIMIT 1;
EXPLAIN (COSTS OFF) SELECT coalesce(c, 'zz'), count(*) FROM tk GROUP BY 1;
SELECT k, octet_length(k), k || '|' AS k_bar, count(*)
  FROM (SELECT coalesce(c, 'zz') AS k FROM tk) s GROUP BY k ORDER BY k COLLATE "C";
SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
  ('SELECT coalesce(c, ''zz''), count(*), sum(v) FROM tk GROUP BY 1'),
  ('SELECT coalesce(d, ''?''), coalesce(c, ''''), count(*) FROM tk GROUP BY 1, 2'),
  ('SELECT CASE WHEN v % 3 = 0 THEN c ELSE ''three'' END, count(*) FROM tk GROUP BY 1'),
  ('SELECT coalesce(c, ''zz'') k, octet_length(coalesce(c, ''zz'')), count(*) FROM tk GROUP BY 1, 2'),
  ('SELECT coalesce(c, repeat(''y'', 30)), s, count(*) FROM tlong GROUP BY 1, 2'),
  ('SELECT coalesce(c, ''zz''), count(*) FROM tk GROUP BY 1 HAVING coalesce(c, ''zz'') > ''a''')
) AS t(q);
-- Members that differ only in their spaces: PostgreSQL prints whichever
-- its plan met first; gpugb the one with the most spaces.  Equal either
-- way, and the groups and their counts are PostgreSQL's.
SELECT k, octet_length(k), count(*)
  FROM (SELECT CASE WHEN v % 3 = 0 THEN c ELSE rtrim(c)::bpchar END AS k FROM tk) s
  GROUP BY k ORDER BY k COLLATE "C";
SELECT gpugb_mismatches('SELECT rtrim(k), n FROM (SELECT CASE WHEN v % 3 = 0 THEN c '
  'ELSE rtrim(c)::bpchar END AS k, count(*) AS n FROM tk GROUP BY 1) s') AS mismatches;
-- ...under parallel ingest too
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM gpugb_parallel_check('SELECT coalesce(c, ''zz''), count(*), sum(s) FROM tlong GROUP BY 1');
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET min_parallel_table_scan_size;
-- min/max of char without a length still declines (its ranks drop the spaces).
SET gpugb.require_gpu = off;
EXPLAIN (COSTS OFF) SELECT d, max(coalesce(c, 'zz')) FROM tk GROUP BY d;
-- Nondeterministic collations are declined at planning.
CREATE COLLATION nd (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXPLAIN (COSTS OFF) SELECT a COLLATE nd, count(*) FROM tk GROUP BY 1;
RESET gpugb.require_gpu;

-- Float keys group as float equality does: -0 = 0 and NaN = NaN (shown as
-- 0, or -0 where every member is -0, and NaN; PostgreSQL shows whichever
-- its hash table met first).
SET gpugb.force = on;
CREATE TABLE fkeys AS SELECT ((i % 7) * 0.5)::float8 AS f, ((i % 5) / 3.0)::float4 AS r, i
  FROM generate_series(1, 10000) i;
INSERT INTO fkeys VALUES ('NaN', 'NaN', 1), ('-NaN'::float8, 'Infinity', 2), ('0', '0', 4),
  ('-0', '-0', 3), ('-Infinity', '-Infinity', 5), (NULL, NULL, 6), ('1e308', '3e38', 7);
SELECT f, count(*), sum(i) FROM fkeys GROUP BY f ORDER BY f;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT f, count(*), sum(i) FROM fkeys WHERE i <> 3 GROUP BY f'),
  ('SELECT r, avg(i), max(f) FROM fkeys WHERE i <> 3 GROUP BY r'),
  ('SELECT f, r, count(*) FROM fkeys WHERE i <> 3 GROUP BY 1, 2')
) AS t(q);
SELECT * FROM gpugb_memory_in_use();

-- Values stored out of line (TOAST) or compressed, as keys and in min/max:
-- the filler reads them detoasted (src/varlena_in_line.h).  An out-of-line
-- pointer's 1-byte header once passed for a short value in line, and the
-- pointer's own bytes were grouped as the key: every row of a 3000-byte
-- key its own group, and min() 3 bytes long (session 24).
CREATE TABLE ttoast (g int4, t text, v varchar(4000), c char(2600), e text);
ALTER TABLE ttoast ALTER COLUMN e SET STORAGE EXTERNAL;
INSERT INTO ttoast SELECT i % 5,
  CASE WHEN i % 3 = 0 THEN (SELECT string_agg(md5((i % 4 * 100 + k)::text), '') FROM generate_series(1, 80) k)
       WHEN i % 3 = 1 THEN repeat('ab', 3000 + i % 2) ELSE 'short' || (i % 4) END,
  CASE WHEN i % 2 = 0 THEN (SELECT string_agg(md5((i % 3 * 100 + k)::text), '') FROM generate_series(1, 100) k)
       ELSE 'v' || (i % 3) END,
  CASE WHEN i % 2 = 0 THEN 'c' || (i % 3) END,
  CASE WHEN i % 4 = 0 THEN NULL ELSE repeat(chr(65 + i % 3), 2500 + i % 2) END
  FROM generate_series(1, 600) i;
ANALYZE ttoast;
-- the TOAST relation holds values: some are stored out of line
SELECT pg_relation_size(reltoastrelid) > 0 AS out_of_line FROM pg_class WHERE relname = 'ttoast';
SELECT q, (gpugb_gpu_check(q)).mismatches, (gpugb_gpu_check(q)).gpu_runs > 0 AS on_gpu FROM (VALUES
  ('SELECT t, count(*), sum(g) FROM ttoast GROUP BY t'),
  ('SELECT e, count(*), sum(g) FROM ttoast GROUP BY e'),
  ('SELECT v, c, count(*) FROM ttoast GROUP BY v, c'),
  ('SELECT g, length(min(t)), length(max(t)), min(e), max(e) FROM ttoast GROUP BY g'),
  ('SELECT min(t), max(v), min(e), count(*) FROM ttoast')
) AS x(q);
SELECT e IS NULL AS e_null, length(e), count(*) FROM ttoast GROUP BY e ORDER BY 1, 2;
-- ... and filled by parallel workers
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM gpugb_parallel_check('SELECT t, e, count(*), sum(g) FROM ttoast GROUP BY t, e');
SELECT * FROM gpugb_parallel_check('SELECT g, min(t), max(e) FROM ttoast GROUP BY g');
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET min_parallel_table_scan_size;
