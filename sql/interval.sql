-- interval: PostgreSQL compares intervals by their span (a month counts 30
-- days, a day 24 hours), so '1 day' and '24 hours' are one group.  A key
-- travels as its span; the group shows the representation of one of its
-- rows (PostgreSQL shows the first it read, a parallel plan any).  sum and
-- avg add months, days and microseconds apart, exactly, and fall back where
-- some order of the rows could overflow (PostgreSQL's "interval out of
-- range" depends on the order); min and max return one of the rows with
-- the extreme span.  See src/interval_words.c.
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

-- The span in microseconds, exactly: what PostgreSQL's equality compares.
-- Keys are compared through it where several representations share a group.
CREATE FUNCTION iv_span(interval) RETURNS numeric IMMUTABLE PARALLEL SAFE LANGUAGE sql AS $$
  SELECT ((extract(year FROM $1) * 12 + extract(month FROM $1)) * 30 + extract(day FROM $1))
         * 86400000000 + extract(hour FROM $1) * 3600000000
         + extract(minute FROM $1) * 60000000 + extract(microseconds FROM $1) $$;

CREATE TABLE iv (k interval, v interval, g int4, t text);
INSERT INTO iv VALUES
  ('1 day', '1 day 2 hours', 1, 'a'), ('1 day', '-3 hours', 1, 'a'),
  ('1 mon', '1 mon 2 days', 2, 'b'), ('1 mon', '25 hours', 2, 'a'),
  ('-2 days -3 hours', '-1 days -02:00:00', 3, 'a'), ('-2 days -3 hours', '2 years', 3, 'b'),
  ('00:00:00.000001', '0.5 seconds', 4, 'a'), (NULL, '1 year', 4, NULL), (NULL, NULL, 4, NULL),
  ('1 year 2 mons 3 days 04:05:06.789', NULL, 5, 'b'),
  ('1 year 2 mons 3 days 04:05:06.789', '-1 year -2 mons -3 days -04:05:06.789', 5, 'b');

EXPLAIN (COSTS OFF) SELECT k, count(*), sum(v), avg(v), min(v), max(v) FROM iv GROUP BY k;
-- One representation per group: the output is PostgreSQL's, exactly.
SELECT k, count(*), count(v), sum(v), avg(v), min(v), max(v) FROM iv GROUP BY k ORDER BY k;
SELECT t, k, count(*), sum(v) FROM iv GROUP BY t, k ORDER BY t, k;
SELECT g, sum(v) FILTER (WHERE t = 'a'), avg(v) FILTER (WHERE g > 1), min(k), max(k),
  count(*) FILTER (WHERE v < '1 day') FROM iv GROUP BY g ORDER BY g;
SELECT count(*), sum(v), avg(v), min(v), max(v), min(k), max(k) FROM iv;
SELECT sum(v), avg(v), min(v) FROM iv WHERE g > 100;

-- Mixed representations of one span: '1 day' = '24:00:00', '1 mon' = '30 days'.
INSERT INTO iv VALUES ('24 hours', '1 day', 1, 'a'), ('30 days', '720 hours', 2, 'a'),
  ('-51 hours', '-2 days -3 hours', 3, 'b'), ('-1 days -27:00:00', '-51:00:00', 3, 'b');
SELECT iv_span(k), count(*), sum(v), avg(v), iv_span(min(v)), iv_span(max(v)) FROM iv GROUP BY k ORDER BY 1;
-- The key and the extremes shown are rows of their group, whichever it is
-- (for keys, the row with the most months, then days: see interval_words.c).
SELECT k, count(*), k IN (SELECT k FROM iv) AS a_row, min(v) IN (SELECT v FROM iv) AS min_a_row
  FROM iv GROUP BY k ORDER BY k;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT iv_span(k), t, count(*), sum(v), avg(v), iv_span(min(v)), iv_span(max(v)) FROM iv GROUP BY k, t'),
  ('SELECT g, count(v), sum(v), avg(v), iv_span(min(k)), iv_span(max(k)) FROM iv GROUP BY g'),
  ('SELECT iv_span(k), sum(v) FILTER (WHERE g <> 2), avg(v) FILTER (WHERE t IS NOT NULL) FROM iv GROUP BY k'),
  ('SELECT iv_span(k), count(*) FROM iv GROUP BY k HAVING sum(v) > ''1 day''')
) AS t(q);

-- Many rows, negative and positive spans in three representations each.
CREATE TABLE ivbig AS SELECT i, i % 13 AS g,
  CASE i % 3 WHEN 0 THEN (i % 50 - 25) * INTERVAL '7 hours'
             WHEN 1 THEN justify_hours((i % 50 - 25) * INTERVAL '7 hours')
             ELSE justify_interval((i % 50 - 25) * INTERVAL '7 hours') END AS k,
  CASE i % 4 WHEN 0 THEN (i % 997 - 500) * INTERVAL '1 hour 1 second'
             WHEN 1 THEN justify_hours((i % 997 - 500) * INTERVAL '1 hour 1 second')
             WHEN 2 THEN justify_interval((i % 997 - 500) * INTERVAL '1 hour 1 second')
             ELSE make_interval(months => i % 5 - 2, days => i % 7 - 3) END AS v
  FROM generate_series(1, 30000) i;
ANALYZE ivbig;
SELECT q, gpugb_mismatches(q) AS mismatches FROM (VALUES
  ('SELECT iv_span(k), count(*), sum(v), avg(v), iv_span(min(v)), iv_span(max(v)) FROM ivbig GROUP BY k'),
  ('SELECT g, iv_span(k), sum(v), avg(v) FROM ivbig GROUP BY g, k'),
  ('SELECT g, sum(v), avg(v), iv_span(min(v)), iv_span(max(v)), iv_span(min(k)) FROM ivbig GROUP BY g')
) AS t(q);

-- A parallel plan: workers fill the interval words too.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT k, sum(v), min(v) FROM ivbig GROUP BY k;
SELECT gpugb_mismatches('SELECT iv_span(k), count(*), sum(v), avg(v), iv_span(min(v)), iv_span(max(v)) FROM ivbig GROUP BY k') AS mismatches;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- Sums at the limits of each component, which no order of the rows can
-- overflow: on the GPU, no error.
CREATE TABLE ivlim (g int4, v interval);
INSERT INTO ivlim VALUES (1, '1073741823 mons'), (1, '1073741824 mons'), (1, '-2147483647 mons'),
  (1, '-1 mon'), (2, '1073741823 days'), (2, '1073741824 days'),
  (3, '2562047788:00:54.775807'), (3, '-2562047788:00:54.775807'), (3, '-00:00:00.000001'),
  (4, '-2147483648 days'), (4, '1 day');
SELECT g, sum(v), avg(v), count(*) FROM ivlim GROUP BY g ORDER BY g;
SELECT gpugb_mismatches('SELECT g, sum(v), avg(v), count(*) FROM ivlim GROUP BY g') AS mismatches;

-- An overflow in every order: PostgreSQL's plan answers, and raises.
SET gpugb.require_gpu = off;
INSERT INTO ivlim VALUES (2, '1 day');
SELECT g, sum(v) FROM ivlim GROUP BY g ORDER BY g;
SELECT last_fallback_reason FROM gpugb_backend_stats();
-- An overflow in some orders but not in the table's: PostgreSQL's plan
-- answers, without an error.
DELETE FROM ivlim WHERE g = 2;
INSERT INTO ivlim VALUES (5, '2147483647 mons'), (5, '-1 mon'), (5, '1 mon');
SELECT g, sum(v), avg(v) FROM ivlim GROUP BY g ORDER BY g;
SELECT last_fallback_reason FROM gpugb_backend_stats();
-- min and max of a span beyond 2^61 microseconds, and a key beyond 2^63:
-- no device word, PostgreSQL's plan answers.
SELECT g, min(v) FROM ivlim WHERE g = 1 GROUP BY g;
SELECT last_fallback_reason FROM gpugb_backend_stats();
SELECT v, count(*) FROM ivlim WHERE g = 1 GROUP BY v ORDER BY v;
SELECT last_fallback_reason FROM gpugb_backend_stats();
-- An extreme row of no canonical form ('1 day 25:00:00', '1 mon -1 days'):
-- min and max fall back (a row of another form with the same span would do).
CREATE TABLE ivodd (g int4, v interval);
INSERT INTO ivodd VALUES (1, '1 day 25:00:00'), (1, '1 hour'), (2, '1 mon -1 days'), (2, '2 days');
SELECT g, min(v), max(v) FROM ivodd GROUP BY g ORDER BY g;
SELECT last_fallback_reason FROM gpugb_backend_stats();
INSERT INTO ivodd VALUES (1, '49:00:00'), (2, '29 days');
RESET gpugb.require_gpu;
SELECT g, min(v), max(v), sum(v) FROM ivodd GROUP BY g ORDER BY g;
