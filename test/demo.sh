#!/usr/bin/env bash
# The main job, end to end: build and install gpugb, start a throwaway
# cluster, load a generated table, run one GROUP BY with gpugb off and on,
# and show EXPLAIN ANALYZE and both times.  On a machine without a GPU the
# GpuGroupAgg node is planned anyway (gpugb.plan_without_gpu) and shows its
# fallback to PostgreSQL's own plan.
#
# Usage: test/demo.sh [ROWS]      (default 10 million rows)
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib/cluster.sh
rows=${1:-10000000}

gpugb_build_install
gpugb_cluster_start
trap gpugb_cluster_stop EXIT

psql -qX -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION gpugb;
SELECT gpugb_device_info() AS device;
CREATE TABLE t AS
  SELECT (i % 1000)::int4 AS k1, (i % 7)::int2 AS k2,
         CASE WHEN i % 100 = 0 THEN NULL ELSE (i::int8 * 7919) % 100003 END AS v
  FROM generate_series(1, $rows) i;
VACUUM ANALYZE t;
SQL

query="SELECT k1, k2, count(*), sum(v), min(v), max(v), avg(v) FROM t GROUP BY k1, k2 HAVING count(*) > 1"
gpu_settings=""
gpugb_have_gpu || gpu_settings="SET gpugb.plan_without_gpu = on;"

psql -qX -v ON_ERROR_STOP=1 <<SQL
\\echo
\\echo '== PostgreSQL''s own plan (gpugb.enabled = off)'
SET gpugb.enabled = off;
EXPLAIN (ANALYZE, COSTS OFF) $query;
\\timing on
\\o /dev/null
$query;
\\o
\\timing off
\\echo
\\echo == gpugb (gpugb.enabled = on, gpugb.force = on)
RESET gpugb.enabled;
SET gpugb.force = on;
$gpu_settings
EXPLAIN (ANALYZE, COSTS OFF) $query;
\\timing on
\\o /dev/null
$query;
\\o
\\timing off
\\echo
\\echo == same answer?
CREATE TEMP TABLE on_result AS $query;
SET gpugb.enabled = off;
CREATE TEMP TABLE off_result AS $query;
SELECT count(*) AS groups,
       (SELECT count(*) FROM (TABLE on_result EXCEPT ALL TABLE off_result) d) AS differing_rows
FROM on_result;
SELECT * FROM gpugb_backend_stats();
SQL
