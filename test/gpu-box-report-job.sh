#!/usr/bin/env bash
# test/gpu-box-report-job.sh — the full benchmark report (test/gpu-box.sh report, about
# 15 minutes) as a job of test/gpu-box-job.sh, which outlives the device calls:
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-report-job.sh",
#       carry=[".gpu-box", ".whl"])       again on the warm machine until JOB-DONE;
#   the report's docs/ come back in out.tgz (gpugb-job-out/docs/).
#
# Environment: as test/bench/report.sh (SECTIONS, QB_GROUP_COUNTS, BUDGET_S, ...).
cd "$(dirname "$0")/.."
GIT_COMMIT=${GIT_COMMIT:-$(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null || echo unknown)} \
  bash test/gpu-box.sh report
echo "report rc=$?"
touch "$OUT/job.done"
