#!/usr/bin/env bash
# test/gpu-box-lean-job.sh — two measurements on the GPU box, as a job of test/gpu-box-job.sh
# (about 7 minutes, no DuckDB):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-lean-job.sh", carry=[".gpu-box"])
#
#  1. the hits queries that group by many long texts (HITS_ONLY, default c34,c16), PostgreSQL
#     against gpugb in one report run (test/bench/report.sh);
#  2. Query B at g = 1e8 (63 million result rows) with gpugb.lean_emit on and off, alternated,
#     fastest of LEAN_REPS (3) each: what the lean result loop saves where emitting rows costs
#     most.  PostgreSQL's own plan (about 140 s here) is not rerun; run C of session 16 has it.
# Prints one block per part; the logs are in OUT (out.tgz: gpugb-job-out/).
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null)"

t0=$(date +%s)
GIT_COMMIT=$(cat .gpu-box/HEAD 2>/dev/null) SECTIONS=hits HITS_ONLY=${HITS_ONLY:-c34,c16} \
  BUDGET_S=${REPORT_BUDGET_S:-240} WHEELS=/nonexistent OUT=$OUT/rep \
  bash test/gpu-box.sh report > "$OUT/report.log" 2>&1
echo "report rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E '^\| (c[0-9])' "$OUT/rep/docs/BENCHMARKS.md" | grep -v ' | Q'

# shellcheck disable=SC1091
source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null
t0=$(date +%s)
LOAD_ONLY=1 bash test/bench/queryb.sh > "$OUT/queryb-load.log" 2>&1
echo "atable loaded rc=$? ($(( $(date +%s) - t0 )) s)"
q() { psql -X -q -At -d gpugb_bench "$@"; }
copy_ms() {  # OPTS QUERY -> ms of one COPY (QUERY) TO '/dev/null'
  PGOPTIONS="$1" q -c "SELECT pg_sleep(0.5)" -c '\timing on' -c "COPY ($2) TO '/dev/null'" 2>&1 |
    grep -o 'Time: [0-9.]* ms' | tail -1 | awk '{print $2}'
}
gpu="-c gpugb.force=on -c gpugb.require_gpu=on -c max_parallel_workers_per_gather=16"
query="SELECT mod(col1, 100000000), count(*) FROM atable GROUP BY 1"
for r in $(seq "${LEAN_REPS:-3}"); do
  echo "lean_emit on  (ms): $(copy_ms "$gpu -c gpugb.lean_emit=on" "$query")"
  echo "lean_emit off (ms): $(copy_ms "$gpu -c gpugb.lean_emit=off" "$query")"
done
for lean in on off; do
  PGOPTIONS="$gpu -c gpugb.lean_emit=$lean" q -c "EXPLAIN (ANALYZE, COSTS OFF) $query" \
    > "$OUT/explain-1e8-lean-$lean.txt" 2>&1
  echo "lean_emit $lean: $(grep -E 'Execution Time' "$OUT/explain-1e8-lean-$lean.txt")"
done
touch "$OUT/job.done"
