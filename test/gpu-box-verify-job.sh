#!/usr/bin/env bash
# test/gpu-box-verify-job.sh — the whole correctness check on the GPU box, as a job of
# test/gpu-box-job.sh (about 20 minutes, so two or three calls on the warm machine):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-verify-job.sh", carry=[".gpu-box"])
#
#  1. pg_regress in gpu mode and QGEN_QUERIES (1000) qgen queries in auto mode;
#  2. the device self-test, every case and strategy (--quick);
#  3. issue 3 item 6: each strategy forced through the pgTAP differential suites and
#     QGEN_STRATEGY_QUERIES (500) qgen queries, one at a time (a failure does not stop the
#     others).
# Prints one line per part; the logs are in OUT (out.tgz: gpugb-job-out/).
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
job_start
step_regress
step_qgen
step_selftest --quick
for s in global_hash shared_hash sort partition private_hash; do step_strategy "$s"; done
job_done
