-- Skewed (Zipf-like) keys, and NULL fractions 0, 10 %, 50 % and 100 % in keys
-- and in aggregate inputs.
\ir setup.sql
SELECT no_plan();

SELECT (200000 * :scale)::bigint AS n_rows \gset
CREATE TEMP TABLE sk AS
SELECT i,
       floor(exp(gpugb_rand(i, 1) * 12))::int AS zexp,          -- 1 .. 162754, heavy head
       floor(100000 * gpugb_rand(i, 2) ^ 8)::int8 AS zpow,       -- 0 .. 99999, most near 0
       CASE WHEN gpugb_rand(i, 3) < 0.9 THEN 0 ELSE (i % 5000)::int END AS hot,  -- 90 % in one group
       (hashint8(i) % 100000)::int AS v4,
       (gpugb_rand(i, 4) * 100 - 20)::float8 AS vf,
       (i % 1000)::int2 AS v2
  FROM generate_series(1::bigint, :n_rows) i;
ANALYZE sk;

SELECT gpugb_check($$SELECT zexp, count(*) AS n, sum(v4) AS s, min(v2) AS mn, max(v4) AS mx, avg(v2) AS a,
                             sum(vf) AS sf FROM sk GROUP BY zexp$$, 'Zipf-like keys floor(exp(random*12))');
SELECT gpugb_check($$SELECT zpow, count(*) AS n, sum(v4) AS s, avg(vf) AS af FROM sk GROUP BY zpow$$,
                   'skewed keys 1e5 * random^8');
SELECT gpugb_check($$SELECT hot, count(*) AS n, sum(v4) AS s, min(vf) AS mn, max(vf) AS mx, avg(v4) AS a
                        FROM sk GROUP BY hot$$, '90 % of the rows in one group');
SELECT gpugb_check($$SELECT zexp % 7 AS k7, zpow % 3 AS k3, count(*) AS n, sum(v4) AS s
                        FROM sk GROUP BY 1, 2$$, 'two skewed keys, few groups (contention)');

-- NULL fractions: in keys and in values.
CREATE TEMP TABLE nl AS
SELECT i, p,
       CASE WHEN gpugb_rand(i, 10) < p THEN NULL ELSE (i % 97)::int END AS k,
       CASE WHEN gpugb_rand(i, 11) < p THEN NULL ELSE (i % 5)::int8 END AS k8,
       CASE WHEN gpugb_rand(i, 12) < p THEN NULL ELSE (hashint8(i) % 1000)::int END AS v4,
       CASE WHEN gpugb_rand(i, 13) < p THEN NULL ELSE hashint8extended(i, 1) >> 8 END AS v8,
       CASE WHEN gpugb_rand(i, 14) < p THEN NULL ELSE (i % 300)::int2 END AS v2,
       CASE WHEN gpugb_rand(i, 15) < p THEN NULL ELSE gpugb_rand(i, 16)::float8 * 10 END AS vf,
       CASE WHEN gpugb_rand(i, 17) < p THEN NULL ELSE ((i % 64) / 8.0)::float4 END AS vr,
       CASE WHEN gpugb_rand(i, 18) < p THEN NULL ELSE date '2020-01-01' + (i % 400)::int END AS vd,
       CASE WHEN gpugb_rand(i, 19) < p THEN NULL ELSE 'x' || i END AS vt
  FROM generate_series(1::bigint, (:n_rows / 4)::bigint) i,
       (VALUES (0.0::float8), (0.1), (0.5), (1.0)) ps(p);
ANALYZE nl;

SELECT gpugb_check(format($$SELECT k, count(*) AS n, count(v4) AS c4, count(vt) AS ct, sum(v4) AS s4, sum(v8) AS s8,
                                    sum(v2) AS s2, min(v4) AS mn4, max(v8) AS mx8, avg(v4) AS a4, avg(v2) AS a2,
                                    sum(vf) AS sf, avg(vf) AS af, min(vf) AS mnf, sum(vr) AS sr, max(vr) AS mxr,
                                    min(vd) AS mnd, max(vd) AS mxd
                               FROM nl WHERE p = %s GROUP BY k$$, p),
                   format('NULL fraction %s %% in keys and values', p * 100))
  FROM (VALUES (0.0::float8), (0.1), (0.5), (1.0)) ps(p);
SELECT gpugb_check(format($$SELECT k8, k, count(*) AS n, sum(v8) AS s8, avg(v8) AS a8, max(vf) AS mx
                               FROM nl WHERE p = %s GROUP BY k8, k$$, p),
                   format('two nullable keys, NULL fraction %s %%', p * 100))
  FROM (VALUES (0.1::float8), (0.5), (1.0)) ps(p);
SELECT gpugb_check($$SELECT count(*) AS n, count(v4) AS c, sum(v4) AS s, avg(v4) AS a, min(vf) AS mn,
                             max(vd) AS mx FROM nl WHERE p = 1.0$$, 'no GROUP BY, all values NULL');
SELECT gpugb_check($$SELECT (p * 100)::int AS pct, k IS NULL AS knull, count(*) AS n, sum(v4) AS s, avg(vf) AS af
                        FROM nl GROUP BY 1, 2$$, 'NULL flag of a key as a bool key, all fractions');

SELECT gpugb_check_no_leak('no device memory, pinned memory or streams held after the suite');
SELECT * FROM finish();
