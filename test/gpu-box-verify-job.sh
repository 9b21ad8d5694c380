#!/usr/bin/env bash
# test/gpu-box-verify-job.sh — the whole correctness check on the GPU box, as a job of
# test/gpu-box-job.sh (about 15-20 minutes, so two or three calls on the warm machine):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-verify-job.sh", carry=[".gpu-box"])
#
#  1. pg_regress in gpu mode and QGEN_QUERIES (1000) qgen queries in auto mode;
#  2. the device self-test, every case and strategy (--quick);
#  3. issue 3 item 6: each strategy forced through the pgTAP differential suites and
#     QGEN_STRATEGY_QUERIES (1000 here) qgen queries (test/gpu-box.sh strategies).
# Prints one line per part; the logs are in OUT (out.tgz: gpugb-job-out/).
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null)"
t0=$(date +%s)
OUT=$OUT/regress bash test/gpu-box.sh regress > "$OUT/regress.log" 2>&1
echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$OUT/regress.log" | tail -1)"
t0=$(date +%s)
QGEN_QUERIES=${QGEN_QUERIES:-1000} OUT=$OUT/qgen bash test/gpu-box.sh qgen > "$OUT/qgen.log" 2>&1
echo "qgen rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'all streams' "$OUT/qgen.log" | tail -1)"
t0=$(date +%s)
make -s -C test/device CUDA_ARCHS=90 > "$OUT/selftest-build.log" 2>&1 &&
  test/bin/device_selftest --require-gpu --quick > "$OUT/selftest.log" 2>&1
echo "device self-test --quick rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$OUT/selftest.log")"
grep '^FAIL' "$OUT/selftest.log" | head -5
echo "int32-key cases: $(grep -c 'int32 keys' "$OUT/selftest.log") lines, $(grep 'int32 keys' "$OUT/selftest.log" | grep -c '^FAIL') FAIL"
t0=$(date +%s)
QGEN_STRATEGY_QUERIES=${QGEN_STRATEGY_QUERIES:-1000} OUT=$OUT/strategies bash test/gpu-box.sh strategies \
  > "$OUT/strategies.log" 2>&1
echo "strategies rc=$? ($(( $(date +%s) - t0 )) s):"
grep -E '^== |^Result|queries checked, .* with the GPU|all streams' "$OUT/strategies.log"
touch "$OUT/job.done"
