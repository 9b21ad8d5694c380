#!/usr/bin/env bash
# test/gpu-box-ingest-job.sh — what bounds a parallel GpuGroupAgg's CPU side on the GPU box,
# as a job of test/gpu-box-job.sh (about 8 minutes, no DuckDB):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-ingest-job.sh", carry=[".gpu-box"])
#
#  1. the host's memory read bandwidth (test/bench/membw.c), 1 to 16 threads;
#  2. PostgreSQL against gpugb on the TPC-H and hits queries whose scans have quals or
#     projections (TPCH_ONLY, HITS_ONLY), in one report run (test/bench/report.sh);
#  3. Query B's count(*), g = 1 and g = 1e5 with 16, 15, 12 and 8 workers, PostgreSQL's
#     best plan beside them (test/bench/ingest-profile.sh);
#  4. the floor of Query B at g = 1e8: its 63 million result rows written by COPY from a
#     table that holds them, against gpugb's whole query and a parallel count(*).
# Prints one block per part; the logs are in OUT (out.tgz: gpugb-job-out/).
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null)"
lscpu | grep -E "^(Model name|Thread|Core|Socket|CPU\(s\))" | tr -s ' ' | paste -sd';'
gcc -O2 -pthread -o /tmp/membw test/bench/membw.c && /tmp/membw 8 16

t0=$(date +%s)
GIT_COMMIT=$(cat .gpu-box/HEAD 2>/dev/null) SECTIONS="tpch hits" \
  TPCH_ONLY=${TPCH_ONLY:-q1,q6,q12,modeflag} HITS_ONLY=${HITS_ONLY:-c08,c13,c28,c31} \
  BUDGET_S=${REPORT_BUDGET_S:-330} WHEELS=/nonexistent OUT=$OUT/rep \
  bash test/gpu-box.sh report > "$OUT/report.log" 2>&1
echo "report rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E '^\| (q[0-9]|c[0-9]|modeflag)' "$OUT/rep/docs/BENCHMARKS.md" | grep -v ' | Q'

# shellcheck disable=SC1091
source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null
t0=$(date +%s)
PROFILE_GROUP_COUNTS="1 100000 100000000" REPS=3 \
  PROFILE_QUERIES="SELECT count(*) FROM atable;SELECT mod(col1, 1), count(*) FROM atable GROUP BY 1;SELECT mod(col1, 100000), count(*) FROM atable GROUP BY 1" \
  GPU_SETTINGS="-c max_parallel_workers_per_gather=16;-c max_parallel_workers_per_gather=15;-c max_parallel_workers_per_gather=12;-c max_parallel_workers_per_gather=8" \
  bash test/bench/ingest-profile.sh > "$OUT/ingest-profile.log" 2>&1
echo "ingest profile rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E '^==|PostgreSQL:|gpugb \[|Ingest Time|Setup Time|Workers Fill|Workers Stall|Execution Time' "$OUT/ingest-profile.log"

# The floor at g = 1e8: the result's rows through COPY alone.
q() { psql -X -q -At -d gpugb_bench "$@"; }
timed_copy() {  # OPTS QUERY -> ms of COPY (QUERY) TO '/dev/null', fastest of 2
  local best="" ms
  for r in 1 2; do
    ms=$(PGOPTIONS="$1" q -c "SELECT pg_sleep(0.5)" -c '\timing on' -c "COPY ($2) TO '/dev/null'" 2>&1 |
         grep -o 'Time: [0-9.]* ms' | tail -1 | awk '{print $2}')
    if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$ms; fi
  done
  echo "$best"
}
gpu="-c gpugb.force=on -c gpugb.require_gpu=on -c max_parallel_workers_per_gather=16"
t0=$(date +%s)
q -c "DROP TABLE IF EXISTS qb_result_1e8" \
  -c "SET gpugb.force = on" -c "SET max_parallel_workers_per_gather = 16" \
  -c "CREATE UNLOGGED TABLE qb_result_1e8 AS SELECT mod(col1, 100000000) AS k, count(*) AS c FROM atable GROUP BY 1"
q -c "VACUUM (ANALYZE) qb_result_1e8" -c "SELECT pg_prewarm('qb_result_1e8')" >/dev/null
echo "floor at g = 1e8 ($(( $(date +%s) - t0 )) s to build): $(q -c 'SELECT count(*) FROM qb_result_1e8') result rows"
echo "COPY of the stored result (ms): $(timed_copy "-c max_parallel_workers_per_gather=0" "SELECT k, c FROM qb_result_1e8")"
echo "gpugb's Query B at g = 1e8 (ms): $(timed_copy "$gpu" "SELECT mod(col1, 100000000), count(*) FROM atable GROUP BY 1")"
echo "parallel count(*), PostgreSQL (ms): $(timed_copy "-c gpugb.enabled=off -c max_parallel_workers_per_gather=16" "SELECT count(*) FROM atable")"
PGOPTIONS="$gpu" q -c "EXPLAIN (ANALYZE, COSTS OFF) SELECT mod(col1, 100000000), count(*) FROM atable GROUP BY 1" \
  > "$OUT/explain-1e8.txt" 2>&1
grep -E "Time:|Groups:" "$OUT/explain-1e8.txt"
touch "$OUT/job.done"
