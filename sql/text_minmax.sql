-- min/max of text, varchar and char(n) on the device (textorder.c): each
-- distinct text gets a dictionary id, ids become ranks in the collation's
-- order before a stride is submitted, and the device's ranks are rewritten
-- when later texts sort between earlier ones.  Small strides make that
-- happen many times here.  tm_check compares gpugb's result with
-- PostgreSQL's, then runs the query once more and counts its GPU runs
-- (0 would mean it never reached the device; a rescan counts each run).
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;
SET gpugb.stride_rows = 1024;

CREATE FUNCTION tm_check(q text, OUT mismatches bigint, OUT gpu_runs bigint)
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

-- t: md5 texts in no order (new texts land between old ones: ranks move);
-- v: descending numbers as varchar (every stride's texts sort first);
-- c: char(4) with its padding; u: distinct texts under "C"; w: texts that
-- differ in case, accents, trailing spaces and emptiness, whose order is
-- the collation's (the database's default here).
CREATE TABLE tm (g int, t text, v varchar(10), c char(4), u text COLLATE "C", w text, seq int);
INSERT INTO tm SELECT i % 7,
  CASE WHEN i % 13 = 0 THEN NULL ELSE md5((i % 5000)::text) END,
  (50000 - i)::text,
  CASE WHEN i % 11 = 0 THEN NULL ELSE chr(97 + i % 26) || chr(65 + i % 7) END,
  md5(i::text),
  (ARRAY['a', 'A', 'b', 'B', 'é', 'e', 'E', 'z', 'Z', '', ' ', 'a ', 'ä', 'ß', 'ss',
         '10', '9', 'x-y', 'xy', NULL])[1 + (i * 7919) % 20],
  i
  FROM generate_series(1, 40000) i;
ANALYZE tm;

EXPLAIN (COSTS OFF) SELECT g, min(t), max(t) FROM tm GROUP BY g;

SELECT q, (tm_check(q)).* FROM (VALUES
  ('SELECT g, min(t), max(t) FROM tm GROUP BY g'),
  ('SELECT g, min(v), max(v), min(c), max(c) FROM tm GROUP BY g'),
  ('SELECT g, min(u), max(u), count(u) FROM tm GROUP BY g'),
  ('SELECT g, min(w), max(w), count(w), count(*) FROM tm GROUP BY g'),
  ('SELECT g % 2, min(w COLLATE "C"), max(w COLLATE "C"), min(w), max(w) FROM tm GROUP BY 1'),
  ('SELECT min(t), max(t), min(c), max(w), count(*) FROM tm'),
  ('SELECT t, min(v), max(c), min(w) FROM tm GROUP BY t'),
  ('SELECT c, min(u), max(u) FROM tm GROUP BY c'),
  ('SELECT g, min(t) FILTER (WHERE seq % 2 = 0), max(w) FILTER (WHERE seq > 39990) FROM tm GROUP BY g'),
  ('SELECT g, max(t) FROM tm GROUP BY g HAVING min(t) < ''1'''),
  ('SELECT g, min(w || ''!''), max(upper(w)) FROM tm GROUP BY g'),
  ('SELECT g, min(t), max(t) FROM tm WHERE seq > 39000 GROUP BY g'),
  ('SELECT g, min(t) FROM tm WHERE false GROUP BY g')
) AS q(q);

-- The values themselves, where their order does not depend on the
-- database's collation (char(4) keeps its padding).
SELECT g, min(u), max(u), min(c), max(c), octet_length(max(c)) FROM tm GROUP BY g ORDER BY g;
SELECT g, min(w COLLATE "C"), max(w COLLATE "C") FROM tm GROUP BY g ORDER BY g;

-- Every strategy, forced.
SET gpugb.strategy = global_hash;
SELECT (tm_check('SELECT g, min(t), max(t), min(c) FROM tm GROUP BY g')).*;
SET gpugb.strategy = shared_hash;
SELECT (tm_check('SELECT g, min(t), max(t), min(c) FROM tm GROUP BY g')).*;
SET gpugb.strategy = sort;
SELECT (tm_check('SELECT t, min(v), max(u) FROM tm GROUP BY t')).*;
SET gpugb.strategy = partition;
SELECT (tm_check('SELECT t, min(v), max(u) FROM tm GROUP BY t')).*;
SET gpugb.strategy = private_hash;
SELECT (tm_check('SELECT g, min(t), max(t), min(c) FROM tm GROUP BY g')).*;
RESET gpugb.strategy;

-- Texts arriving in ascending order never move a rank; descending ones
-- move every rank at every stride.
CREATE TABLE tasc AS SELECT i % 3 AS g, lpad(i::text, 8, '0') AS a FROM generate_series(1, 20000) i;
CREATE TABLE tdesc AS SELECT i % 3 AS g, lpad((20000 - i)::text, 8, '0') AS a FROM generate_series(1, 20000) i;
SELECT (tm_check('SELECT g, min(a), max(a) FROM tasc GROUP BY g')).*;
SELECT (tm_check('SELECT g, min(a), max(a) FROM tdesc GROUP BY g')).*;
SELECT g, min(a), max(a) FROM tdesc GROUP BY g ORDER BY g;

-- A rescan (correlated subquery): each run starts a new device handle
-- and keeps the dictionary and its ranks.
SELECT (tm_check('SELECT x, (SELECT max(t) FROM tm WHERE tm.g = x), (SELECT min(w) FROM tm WHERE tm.g = x) FROM generate_series(0, 7) x')).*;

-- Declined: a nondeterministic collation (equal texts of different bytes:
-- which one min returns depends on the order of rows), and char without a
-- length (its output keeps trailing spaces that its order ignores).
CREATE COLLATION tm_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXPLAIN (COSTS OFF) SELECT g, min(w COLLATE tm_ci) FROM tm GROUP BY g;
EXPLAIN (COSTS OFF) SELECT g, min(c::bpchar) FROM tm GROUP BY g;
SELECT gpugb_mismatches('SELECT g, min(w COLLATE tm_ci), max(w COLLATE tm_ci) FROM tm GROUP BY g') AS mismatches;

-- Parallel ingest is not offered for min/max of text (the leader would
-- need the workers' texts to rank them): a one-process GPU plan instead.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT g, min(t) FROM tm GROUP BY g;
SELECT (tm_check('SELECT g, min(t), count(*) FROM tm GROUP BY g')).*;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET min_parallel_table_scan_size;

DROP TABLE tm, tasc, tdesc;
DROP COLLATION tm_ci;
DROP FUNCTION tm_check(text);
RESET gpugb.stride_rows;
