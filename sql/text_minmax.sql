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

SELECT q, (gpugb_gpu_check(q)).* FROM (VALUES
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
SELECT (gpugb_gpu_check('SELECT g, min(t), max(t), min(c) FROM tm GROUP BY g')).*;
SET gpugb.strategy = shared_hash;
SELECT (gpugb_gpu_check('SELECT g, min(t), max(t), min(c) FROM tm GROUP BY g')).*;
SET gpugb.strategy = sort;
SELECT (gpugb_gpu_check('SELECT t, min(v), max(u) FROM tm GROUP BY t')).*;
SET gpugb.strategy = partition;
SELECT (gpugb_gpu_check('SELECT t, min(v), max(u) FROM tm GROUP BY t')).*;
SET gpugb.strategy = private_hash;
SELECT (gpugb_gpu_check('SELECT g, min(t), max(t), min(c) FROM tm GROUP BY g')).*;
RESET gpugb.strategy;

-- Texts arriving in ascending order never move a rank; descending ones
-- move every rank at every stride.
CREATE TABLE tasc AS SELECT i % 3 AS g, lpad(i::text, 8, '0') AS a FROM generate_series(1, 20000) i;
CREATE TABLE tdesc AS SELECT i % 3 AS g, lpad((20000 - i)::text, 8, '0') AS a FROM generate_series(1, 20000) i;
SELECT (gpugb_gpu_check('SELECT g, min(a), max(a) FROM tasc GROUP BY g')).*;
SELECT (gpugb_gpu_check('SELECT g, min(a), max(a) FROM tdesc GROUP BY g')).*;
SELECT g, min(a), max(a) FROM tdesc GROUP BY g ORDER BY g;

-- A rescan (correlated subquery): each run starts a new device handle
-- and keeps the dictionary and its ranks.
SELECT (gpugb_gpu_check('SELECT x, (SELECT max(t) FROM tm WHERE tm.g = x), (SELECT min(w) FROM tm WHERE tm.g = x) FROM generate_series(0, 7) x')).*;

-- A linguistic collation (ICU's root locale): case and accents order
-- differently from the bytes.
SELECT (gpugb_gpu_check('SELECT g, min(w COLLATE "und-x-icu"), max(w COLLATE "und-x-icu"), min(t COLLATE "und-x-icu") FROM tm GROUP BY g')).*;
SELECT g, min(w COLLATE "und-x-icu"), max(w COLLATE "und-x-icu") FROM tm GROUP BY g ORDER BY g;
-- Millions of distinct texts under a collation other than C would cost
-- more strcoll comparisons than PostgreSQL makes: declined beyond
-- gpugb.text_minmax_max_distinct (2 million; 1000 here, and t has about
-- 5000); under C, where a comparison is a memcmp, not.
SET gpugb.text_minmax_max_distinct = 1000;
EXPLAIN (COSTS OFF) SELECT g, min(t COLLATE "und-x-icu") FROM tm GROUP BY g;
EXPLAIN (COSTS OFF) SELECT g, min(t COLLATE "C") FROM tm GROUP BY g;
RESET gpugb.text_minmax_max_distinct;

-- Declined: a nondeterministic collation (equal texts of different bytes:
-- which one min returns depends on the order of rows), and char without a
-- length (its output keeps trailing spaces that its order ignores).
CREATE COLLATION tm_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXPLAIN (COSTS OFF) SELECT g, min(w COLLATE tm_ci) FROM tm GROUP BY g;
EXPLAIN (COSTS OFF) SELECT g, min(c::bpchar) FROM tm GROUP BY g;
SELECT gpugb_mismatches('SELECT g, min(w COLLATE tm_ci), max(w COLLATE tm_ci) FROM tm GROUP BY g') AS mismatches;

-- Parallel ingest: the leader and the workers encode texts in the query's
-- one shared dictionary (textdict.c), so a text has one id in every
-- process, and the leader ranks each stride's ids before it submits it,
-- reading the bytes of the workers' ids from the dictionary's shared index.
-- Each query must run as GpuGroupAgg under a Gather with workers launched,
-- and give PostgreSQL's answer (a fallback is an ERROR: gpugb.require_gpu).
-- A parallel stride holds at least one slot (65536 rows), so tp has more
-- rows than four strides and t more distinct texts than one stride.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = on;
-- t: 150000 distinct md5 texts in no order, with NULLs (each stride brings
-- texts that land between earlier ones); v: descending numbers as varchar
-- (every stride's texts sort first: every rank moves); c: char(4) with its
-- padding, and NULLs; w: the collation-sensitive texts of tm; k: a long
-- text GROUP BY key (more than 16 bytes), encoded in the same dictionary.
CREATE TABLE tp AS SELECT i % 7 AS g,
  CASE WHEN i % 13 = 0 THEN NULL ELSE md5((i % 150000)::text) END AS t,
  (400000 - i)::text::varchar(10) AS v,
  (CASE WHEN i % 11 = 0 THEN NULL ELSE chr(97 + i % 26) || chr(65 + i % 7) END)::char(4) AS c,
  (ARRAY['a', 'A', 'b', 'B', 'é', 'e', 'E', 'z', 'Z', '', ' ', 'a ', 'ä', 'ß', 'ss',
         '10', '9', 'x-y', 'xy', NULL])[1 + (i::int8 * 7919) % 20] AS w,
  'a long text group key:' || (i % 40) AS k,
  i AS seq
  FROM generate_series(1, 300000) i;
ANALYZE tp;
EXPLAIN (COSTS OFF) SELECT g, min(t), max(t) FROM tp GROUP BY g;
SELECT q, (gpugb_parallel_check(q)).* FROM (VALUES
  ('SELECT g, min(t), max(t), count(t), count(*) FROM tp GROUP BY g'),
  ('SELECT g, min(c), max(c), min(v), max(v), min(t), max(w) FROM tp GROUP BY g'),
  ('SELECT k, min(t), max(v), min(c), max(c) FROM tp GROUP BY k'),
  ('SELECT t, min(v), max(c), min(w), count(*) FROM tp GROUP BY t'),
  ('SELECT g % 2, min(w COLLATE "C"), max(w COLLATE "C"), min(w), max(w) FROM tp GROUP BY 1'),
  ('SELECT min(t), max(t), min(c), max(v), max(w), count(*) FROM tp'),
  ('SELECT g, min(t) FILTER (WHERE seq % 2 = 0), max(t) FILTER (WHERE seq > 290000) FROM tp GROUP BY g'),
  ('SELECT c, min(k), max(t) FROM tp WHERE seq % 3 <> 0 GROUP BY c HAVING max(v) > ''2'''),
  ('SELECT g, min(t), max(t) FROM tp WHERE seq > 299000 GROUP BY g')
) AS x(q);
-- The values themselves, where their order does not depend on the
-- database's collation.
SELECT g, min(c), max(c), octet_length(max(c)), min(t COLLATE "C"), max(t COLLATE "C"),
  min(v COLLATE "C"), max(v COLLATE "C") FROM tp GROUP BY g ORDER BY g;
-- A rescan (the Gather under a correlated subquery runs once per outer
-- row, with new workers): the shared dictionary starts afresh, and the
-- ranks of its old ids with it.
EXPLAIN (COSTS OFF) SELECT o.s, (SELECT max(a.mx) FROM
    (SELECT g, min(t) AS mn, max(t) AS mx FROM tp GROUP BY g OFFSET 0) a
    WHERE a.g <= o.s) FROM (VALUES (1), (2), (3)) o(s);
SELECT (gpugb_parallel_check($$SELECT o.s, (SELECT max(a.mx) || min(a.mn) || min(a.c) FROM
    (SELECT g, min(t) AS mn, max(t) AS mx, max(c) AS c FROM tp GROUP BY g OFFSET 0) a
    WHERE a.g <= o.s) FROM (VALUES (1), (2), (3), (4)) o(s)$$)).*;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;
DROP TABLE tp;

DROP TABLE tm, tasc, tdesc;
DROP COLLATION tm_ci;
RESET gpugb.stride_rows;
