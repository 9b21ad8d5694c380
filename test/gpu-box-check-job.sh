#!/usr/bin/env bash
# test/gpu-box-check-job.sh — a quick check of the code on the GPU box, as a job of
# test/gpu-box-job.sh (about 4-6 minutes): pg_regress in gpu mode, the device keeper's
# pgTAP test, QGEN_QUERIES (1000) qgen queries, the device self-test's ordered cases,
# and the start-up benchmark (one process over 1M rows, and 16 workers over 30M rows).
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-check-job.sh", carry=[".gpu-box"])
#
# Prints one line per part; the logs are in OUT (out.tgz: gpugb-job-out/).
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
job_start
step_regress
# shellcheck disable=SC1091
source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null
echo "keeper: $(psql -X -At -d postgres -c "SELECT string_agg(backend_type || ' ' || coalesce(wait_event, '-'), ', ')
                                         FROM pg_stat_activity WHERE backend_type ~ 'gpugb'")"
test/pgtap/run.sh gpu gpugb_tap test/pgtap/07_keeper.sql > "$OUT/pgtap-keeper.log" 2>&1
echo "pgTAP 07_keeper rc=$?: $(grep -E '^Result' "$OUT/pgtap-keeper.log")"
step_qgen
# the device self-test's ordered cases (by keys, by counts, appends), every strategy
step_selftest --only ordered
SESSIONS=10 bash test/bench/startup.sh > "$OUT/startup-serial.md" 2> "$OUT/startup-serial.err"
echo "start-up, serial (rc=$?):"; grep '^|' "$OUT/startup-serial.md"
SESSIONS=6 WORKERS=16 ROWS=30000000 bash test/bench/startup.sh > "$OUT/startup-parallel.md" 2> "$OUT/startup-parallel.err"
echo "start-up, 16 workers (rc=$?):"; grep '^|' "$OUT/startup-parallel.md"
job_done
