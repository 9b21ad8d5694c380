-- Input programs (numeric and integer arithmetic, FILTER) run a batch of 64
-- rows at a time (gpugb_hostexpr_eval_rows); a row that overflows int64 on
-- the way is evaluated again by the row-at-a-time evaluator (int128), and a
-- row whose result has no word, anywhere in a batch, makes the query fall
-- back.  Each query: 0 mismatches against PostgreSQL, and whether it ran on
-- the GPU path (gpu_runs 1) or fell back (0).
LOAD 'gpugb';
SET gpugb.force = on;
SET max_parallel_workers_per_gather = 0;

CREATE TABLE pb (k int, a numeric(15,2), b numeric(18,4), d numeric(4,2),
                 c numeric, i4 int4, i8 int8);
INSERT INTO pb SELECT i % 5, i * 1.25, (i % 1000) / 3.0, (i % 11) / 100.0, i % 17,
  i * 7919 % 100000, i::int8 * 1000003
  FROM generate_series(1, 5000) i;
-- NULLs and NaN among the rows of a batch, not only at its start
UPDATE pb SET a = NULL WHERE i4 % 97 = 0;
UPDATE pb SET d = NULL WHERE i4 % 89 = 1;
UPDATE pb SET c = 'NaN' WHERE i4 % 1013 = 5;
-- a * b of these passes int64 at scale 6 (1.5e19)
UPDATE pb SET a = 12345678.91, b = 1234567.8912 WHERE i4 % 101 = 3;
ANALYZE pb;

SELECT q, gpugb_gpu_check(q) FROM (VALUES
  -- TPC-H Q1's shapes: CONST_SUB_COL, MUL, CONST_ADD_COL
  ('SELECT k, sum(a * (1 - d)), sum(a * (1 - d) * (1 + d)), avg(a * (1 - d)), count(*) FROM pb GROUP BY k'),
  -- a FILTER before the arithmetic; integer programs beside numeric ones
  ('SELECT k, sum(a * d) FILTER (WHERE i4 > 50000), sum(i4 * 2 + i8) FILTER (WHERE i4 < 777) FROM pb GROUP BY k'),
  -- NaN in an operand: the sums are NaN, as PostgreSQL''s
  ('SELECT k, sum(c * 2 - 1), avg(c + a) FROM pb GROUP BY k'),
  -- int64 overflows on the way (some rows' a * b), the result fits: int128 again
  ('SELECT k, sum(a * b - a * b + d) FROM pb GROUP BY k'),
  -- negation and subtraction of products
  ('SELECT k, sum(-(a * d) - d * 3), min(i8 * 3 - i4) FROM pb GROUP BY k')
) v(q);

-- A row in the middle of a batch whose product passes 18 digits: the query
-- falls back, with PostgreSQL's answer.
SET gpugb.require_gpu = off;
INSERT INTO pb VALUES (1, 9999999999999.99, 99999999999999.9999, 0.5, 1, 1, 1);
INSERT INTO pb SELECT i % 5, i, i, 0.1, i, i, i FROM generate_series(1, 100) i;
SELECT q, gpugb_gpu_check(q) FROM (VALUES
  ('SELECT k, sum(a * b) FROM pb GROUP BY k'),
  ('SELECT k, sum(a * (1 - d)) FROM pb GROUP BY k')
) v(q);

-- An integer program whose operator PostgreSQL rejects in the middle of a
-- batch: the fill stops and PostgreSQL raises its error.
INSERT INTO pb VALUES (2, 1, 1, 0.1, 1, 1, 4611686018427387904);
SELECT k, sum(i8 * 2 + 1) FROM pb GROUP BY k;
RESET gpugb.require_gpu;

-- The child is not a plain scan (rows through ExecProcNode): the same batches.
SELECT q, gpugb_gpu_check(q) FROM (VALUES
  ('SELECT k, sum(a * (1 - d)), sum(i4 * 3 - 1) FILTER (WHERE d > 0.05) FROM (SELECT * FROM pb ORDER BY i4 LIMIT 4000) s GROUP BY k')
) v(q);

-- An integer cast to numeric as a whole argument (i::numeric): a program
-- too, so the scan projects the plain column instead of building a numeric
-- per row.
EXPLAIN (COSTS OFF, VERBOSE) SELECT k, sum(i4::numeric), avg(i8::numeric) FROM pb GROUP BY k;
SELECT q, gpugb_gpu_check(q) FROM (VALUES
  ('SELECT k, sum(i4::numeric), avg(i4::numeric), min(k::numeric), variance(i4::numeric), count(i4::numeric) FROM pb GROUP BY k'),
  ('SELECT k, sum(i4::numeric) FILTER (WHERE d > 0.05), stddev(k::numeric) FROM pb GROUP BY k')
) v(q);
DROP TABLE pb;
