#!/usr/bin/env bash
# test/gpu-box-check-job.sh — a quick check of the code on the GPU box, as a job of
# test/gpu-box-job.sh (about 4-6 minutes): pg_regress in gpu mode, the device keeper's
# pgTAP test, QGEN_QUERIES (1000) qgen queries, the device self-test's ordered cases,
# and the start-up benchmark (one process over 1M rows, and 16 workers over 30M rows).
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-check-job.sh", carry=[".gpu-box"])
#
# Prints one line per part; the logs are in OUT (out.tgz: gpugb-job-out/).
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null)"
t0=$(date +%s)
OUT=$OUT/regress bash test/gpu-box.sh regress > "$OUT/regress.log" 2>&1
echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$OUT/regress.log" | tail -1)"
# shellcheck disable=SC1091
source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null
echo "keeper: $(psql -X -At -d postgres -c "SELECT string_agg(backend_type || ' ' || coalesce(wait_event, '-'), ', ')
                                         FROM pg_stat_activity WHERE backend_type ~ 'gpugb'")"
test/pgtap/run.sh gpu gpugb_tap test/pgtap/07_keeper.sql > "$OUT/pgtap-keeper.log" 2>&1
echo "pgTAP 07_keeper rc=$?: $(grep -E '^Result' "$OUT/pgtap-keeper.log")"
t0=$(date +%s)
QGEN_QUERIES=${QGEN_QUERIES:-1000} OUT=$OUT/qgen bash test/gpu-box.sh qgen > "$OUT/qgen.log" 2>&1
echo "qgen rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'all streams' "$OUT/qgen.log" | tail -1)"
# the device self-test's ordered cases (by keys, by counts, appends), every strategy
t0=$(date +%s)
make -s -C test/device CUDA_ARCHS=90 > "$OUT/selftest-build.log" 2>&1 &&
  test/bin/device_selftest --require-gpu --only ordered > "$OUT/selftest-ordered.log" 2>&1
echo "device self-test, ordered cases rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$OUT/selftest-ordered.log")"
grep '^FAIL' "$OUT/selftest-ordered.log" | head -5
SESSIONS=10 bash test/bench/startup.sh > "$OUT/startup-serial.md" 2> "$OUT/startup-serial.err"
echo "start-up, serial (rc=$?):"; grep '^|' "$OUT/startup-serial.md"
SESSIONS=6 WORKERS=16 ROWS=30000000 bash test/bench/startup.sh > "$OUT/startup-parallel.md" 2> "$OUT/startup-parallel.err"
echo "start-up, 16 workers (rc=$?):"; grep '^|' "$OUT/startup-parallel.md"
touch "$OUT/job.done"
