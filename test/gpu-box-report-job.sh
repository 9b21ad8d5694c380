#!/usr/bin/env bash
# test/gpu-box-report-job.sh — the full benchmark report (test/gpu-box.sh report, about
# 15 minutes) as a job of test/gpu-box-job.sh, which outlives the device calls:
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-report-job.sh",
#       carry=[".gpu-box", ".whl"])       again on the warm machine until JOB-DONE;
#   the report's docs/ come back in out.tgz (gpugb-job-out/docs/).
#
# Environment: as test/bench/report.sh (SECTIONS, QB_GROUP_COUNTS, BUDGET_S, ...).
# Defaults here, from run 7 (2026-11-27, 1088 s): no 5-aggregate run at g = 1e6, where
# PostgreSQL's serial plan passed the 150-s timeout (80 s lost, gpugb's run skipped), and
# 1200 s of budget, so that the Query B checksums against DuckDB (skipped there) fit.
cd "$(dirname "$0")/.."
export QB_AGG5_GROUP_COUNTS=${QB_AGG5_GROUP_COUNTS:-"1 1000 100000"}
export BUDGET_S=${BUDGET_S:-1200}
GIT_COMMIT=${GIT_COMMIT:-$(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null || echo unknown)} \
  bash test/gpu-box.sh report
echo "report rc=$?"
touch "$OUT/job.done"
