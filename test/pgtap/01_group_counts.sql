-- Group counts 1, 10, 1e3, 1e5 and 1e6 (the last needs >= 1e6 rows: the table
-- has 1e6 * gpugb_test.scale rows), with the usual aggregates.
\ir setup.sql
SELECT no_plan();

SELECT (1000000 * :scale)::bigint AS n_rows \gset
CREATE TEMP TABLE gc AS
SELECT i,
       (hashint8(i) % 1000000000)::int AS v4,
       hashint8extended(i, 7) >> 20 AS v8,
       (gpugb_rand(i, 3) * 1000)::float8 AS vf,
       -- a permutation-like key with exactly min(n_rows, 1e6) groups
       ((i * 7919) % 1000000)::int AS k6
  FROM generate_series(1::bigint, :n_rows) i;
ANALYZE gc;

SELECT gpugb_check($$SELECT 1 AS one, count(*) AS n, sum(v4) AS s4, sum(v8) AS s8, min(v4) AS mn, max(v8) AS mx,
                             avg(v4) AS a4, sum(vf) AS sf, avg(vf) AS af
                        FROM gc GROUP BY 1$$, '1 group (constant key)');
SELECT gpugb_check($$SELECT i % 10 AS k, count(*) AS n, sum(v4) AS s4, sum(v8) AS s8, min(v4) AS mn, max(v8) AS mx,
                             avg(v8) AS a8, sum(vf) AS sf, avg(vf) AS af
                        FROM gc GROUP BY 1$$, '10 groups');
SELECT gpugb_check($$SELECT v4 % 1000 AS k, count(*) AS n, sum(v4) AS s4, sum(v8) AS s8, min(vf) AS mn, max(vf) AS mx,
                             avg(v4) AS a4, sum(vf) AS sf
                        FROM gc GROUP BY 1$$, '1000 groups (negative keys too)');
SELECT gpugb_check($$SELECT ((hashint8(i) & 131071) % 100000)::int8 AS k, count(*) AS n, sum(v4) AS s4, min(v8) AS mn,
                             max(v4) AS mx, avg(v4) AS a4, sum(vf) AS sf
                        FROM gc GROUP BY 1$$, '1e5 groups (int8 key)');
SELECT gpugb_check($$SELECT k6, count(*) AS n, sum(v4) AS s4, sum(v8) AS s8, max(vf) AS mx
                        FROM gc GROUP BY k6$$,
                   format('%s groups (1e6 at scale >= 1)', least(:n_rows, 1000000)));
SELECT gpugb_check($$SELECT k6, i % 3 AS k3, count(*) AS n FROM gc GROUP BY k6, k3$$,
                   'about as many groups as rows, two keys');

SELECT gpugb_check_no_leak('no device memory, pinned memory or streams held after the suite');
SELECT * FROM finish();
