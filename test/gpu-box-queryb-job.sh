#!/usr/bin/env bash
# test/gpu-box-queryb-job.sh — pg_regress on the GPU, then the report's Query B section
# alone (PostgreSQL and gpugb, no DuckDB) at the group counts issue 5 judges most closely,
# as a job of test/gpu-box-job.sh (about 8 minutes):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-queryb-job.sh", carry=[".gpu-box"])
#
# Environment: QB_GROUP_COUNTS ("1 100000 100000000"), QB_AGG5_GROUP_COUNTS ("100000"),
# QB_REPS (3), REGRESS (1: run pg_regress first).
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null)"
if [ "${REGRESS:-1}" = 1 ]; then
  t0=$(date +%s)
  OUT=$OUT/regress bash test/gpu-box.sh regress > "$OUT/regress.log" 2>&1
  echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$OUT/regress.log" | tail -1)"
fi
t0=$(date +%s)
GIT_COMMIT=$(cat .gpu-box/HEAD 2>/dev/null) SECTIONS=queryb WHEELS=/nonexistent \
  QB_GROUP_COUNTS=${QB_GROUP_COUNTS:-"1 100000 100000000"} \
  QB_AGG5_GROUP_COUNTS=${QB_AGG5_GROUP_COUNTS:-"100000"} QB_REPS=${QB_REPS:-3} \
  BUDGET_S=${BUDGET_S:-500} OUT=$OUT/rep bash test/gpu-box.sh report > "$OUT/report.log" 2>&1
echo "report rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E '^\[queryb .*\] \|' "$OUT/report.log"
grep -E 'count\(\*\) FROM atable' "$OUT/rep/docs/BENCHMARKS.md"
touch "$OUT/job.done"
