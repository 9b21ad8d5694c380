#!/usr/bin/env bash
# Everything on the GPU box, in one script: starts PostgreSQL from Debian's
# packages, builds and installs gpugb, preloads it, and runs the test suites
# with the GPU path forced (gpugb.require_gpu=on: any fallback fails), or the
# Query B benchmark.
#
# On the development machine, once (the GPU box has no network, and the
# ../shared beside the checkout does not travel with the working tree):
#   ../shared/gpu-box/fetch-debs.sh && test/gpu-box-trim-debs.sh && mkdir -p .gpu-box/scripts && cp ../shared/gpu-box/*.sh .gpu-box/scripts/
# (the trim keeps the working tree and .gpu-box under the device tool's 64 MiB: test/gpu-box-trim-debs.sh)
# Then with the device tool, carrying .gpu-box:
#   bash test/gpu-box.sh tests        build, install, device self-test, pg_regress, pgTAP, qgen (gpu mode)
#   bash test/gpu-box.sh regress      build, install, pg_regress only (gpu mode): a quick check of host changes
#   bash test/gpu-box.sh qgen         build, install, qgen only (gpu mode; QGEN_QUERIES, QGEN_JOBS (12), QGEN_SEED)
#   bash test/gpu-box.sh strategies   pgTAP and QGEN_STRATEGY_QUERIES (2000) qgen queries per forced
#                                     gpugb.strategy (STRATEGIES="global_hash shared_hash sort partition private_hash", or a subset;
#                                     "auto" runs the same suites with the heuristics choosing;
#                                     PGTAP=0: qgen only)
#                                     to stay within one call's time); the seed depends on the strategy only
#                                     (qgen runs as QGEN_JOBS (4) concurrent streams, seeds SEED + 100000 j)
#   bash test/gpu-box.sh profile      where a parallel GpuGroupAgg's time goes (test/bench/ingest-profile.sh)
#   bash test/gpu-box.sh bench        Query B benchmark (test/bench/queryb.sh), ROWS=100000000 by default
#   bash test/gpu-box.sh tpch         TPC-H Q1 at SF 1 and 10 (test/bench/tpch-q1.sh)
#   bash test/gpu-box.sh concurrency  1, 4, 16 sessions sharing the GPU (test/bench/concurrency.sh)
#   bash test/gpu-box.sh startup      a new session's first GROUP BY, gpugb.preinit_device off/on (test/bench/startup.sh)
#   bash test/gpu-box.sh kernelbench  the strategies' kernel benchmark, no PostgreSQL (test/kernelbench)
#   bash test/gpu-box.sh report       PostgreSQL vs gpugb vs DuckDB report (test/bench/report.sh): TPC-H SF 10,
#                                     ClickBench-style hits, Query B; docs/ files in $OUT/docs; needs DuckDB's
#                                     wheel in .whl (carried) or duckdb importable; about 15 min, more than
#                                     one device call (10 min at most): run it through test/gpu-box-job.sh
#                                     (setsid; call it again on the warm machine until JOB-DONE).  The device
#                                     tool kills whatever a call leaves running except processes in a session
#                                     of their own: the report runs 44 and 46
#                                     (nohup only) "stalled" exactly when their first call returned, and so
#                                     did session 14's run 5.  Pass GIT_COMMIT=<sha> where the tree on the
#                                     box has no .git
# Each stage sets up what it needs, so either can come first; the server and
# the built extension stay for the next call while the machine is warm.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=${1:-tests}
out=${OUT:-/tmp/gpugb-out}
mkdir -p "$out"

if [ -z "$(ls .gpu-box/debs/*.deb 2>/dev/null)" ]; then
  echo "no .gpu-box/debs: run ../shared/gpu-box/fetch-debs.sh on the development machine and carry .gpu-box"
  exit 1
fi
scripts=.gpu-box/scripts
# shellcheck disable=SC1091
source $scripts/start-postgres.sh .gpu-box/debs >/dev/null
echo "PostgreSQL $(postgres --version | awk '{print $3}'), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"

# Build for the box's GPU only (faster); install; preload; restart once.
export PATH=/usr/local/cuda/bin:$PATH
make -s -j"$(nproc)" PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 >/dev/null
# The library is preloaded: a server started before this install keeps
# running (and forking backends with) the old one, so restart when it changed.
lib="$($PG_CONFIG --pkglibdir)/gpugb.so"
before=$(md5sum "$lib" 2>/dev/null || true)
make -s PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 install >/dev/null
if [ "$(psql -XAtc 'SHOW shared_preload_libraries')" != gpugb ]; then
  psql -qXc "ALTER SYSTEM SET shared_preload_libraries = 'gpugb'"
  bash $scripts/restart-postgres.sh >/dev/null
elif [ "$before" != "$(md5sum "$lib")" ]; then
  bash $scripts/restart-postgres.sh >/dev/null
fi
psql -qXc "CREATE EXTENSION IF NOT EXISTS gpugb"
echo "device: $(psql -XAtc 'SELECT gpugb_device_info()')"

# qgen_streams LABEL QUERIES SEED [qgen args...]: QGEN_JOBS (4) qgen processes at once, each
# with its own seed (SEED + 100000 * j) and database, QUERIES split between them; prints each
# stream's summary and their sum.  One stream uses one core while its queries' plans use the
# rest, so several streams make a 10,000-query batch fit in one call (and share the GPU).
qgen_streams() {
  local label=$1 queries=$2 seed=$3; shift 3
  local jobs=${QGEN_JOBS:-4} j pids=() rc=0
  for ((j = 0; j < jobs; j++)); do
    local n=$(( queries / jobs + (j < queries % jobs ? 1 : 0) ))
    python3 test/qgen/qgen.py --mode gpu --queries "$n" --seed $(( seed + 100000 * j )) \
      --db "gpugb_qgen_$j" --save-mismatches "$out/qgen-mismatches-$label-$j" "$@" \
      >"$out/qgen-$label-$j.log" 2>&1 &
    pids+=($!)
  done
  for j in "${!pids[@]}"; do wait "${pids[$j]}" || rc=1; done
  for ((j = 0; j < jobs; j++)); do tail -2 "$out/qgen-$label-$j.log"; done
  cat "$out"/qgen-"$label"-*.log | python3 -c '
import re, sys
t = [0, 0, 0, 0]
for line in sys.stdin:
    m = re.match(r"qgen: (\d+) queries checked, (\d+) on the GPU path, (\d+) declined, (\d+) mismatches", line)
    if m:
        t = [a + int(b) for a, b in zip(t, m.groups())]
print(f"qgen ({sys.argv[1]}, all streams): {t[0]} queries checked, {t[1]} on the GPU path, "
      f"{t[2]} declined, {t[3]} mismatches")' "$label"
  return $rc
}

case "$stage" in
  tests)
    export GPUGB_TEST_MODE=gpu
    echo "== device self-test"
    make -s -C test/device >/dev/null
    test/bin/device_selftest --require-gpu 2>&1 | tee "$out/selftest.log" | tail -25
    echo "== pg_regress (gpu mode)"
    chmod -R a+rwX . 2>/dev/null || true
    if ! make -s PG_CONFIG="$PG_CONFIG" installcheck GPUGB_TEST_MODE=gpu; then
      cp regression.diffs "$out/" 2>/dev/null; head -80 regression.diffs; exit 1
    fi
    echo "== pgTAP differential suites (gpu mode)"
    test/pgtap/run.sh gpu gpugb_tap 2>&1 | tee "$out/pgtap.log" | tail -15
    echo "== qgen: random differential queries on the GPU path (gpu mode)"
    qgen_streams auto "${QGEN_QUERIES:-10000}" "${QGEN_SEED:-1}" 2>&1 | tee "$out/qgen.log" | tail -12
    ;;
  qgen)
    # The differential query generator alone (gpu mode): QGEN_QUERIES (10000) in QGEN_JOBS
    # streams (12 sustain about 33 queries/s on the H200 box: 10,000 in about 5 minutes).
    export GPUGB_TEST_MODE=gpu
    QGEN_JOBS=${QGEN_JOBS:-12} qgen_streams auto "${QGEN_QUERIES:-10000}" "${QGEN_SEED:-1}" 2>&1 \
      | tee "$out/qgen.log" | tail -14
    ;;
  regress)
    # pg_regress alone (a quick check of host-side changes on the GPU).
    chmod -R a+rwX . 2>/dev/null || true
    if ! make -s PG_CONFIG="$PG_CONFIG" installcheck GPUGB_TEST_MODE=gpu; then
      cp regression.diffs "$out/" 2>/dev/null; head -80 regression.diffs; exit 1
    fi
    ;;
  strategies)
    # As test/run-all.sh does on a GPU: each strategy forced for every query.
    export GPUGB_TEST_MODE=gpu
    for s in ${STRATEGIES:-global_hash shared_hash sort partition private_hash}; do
      case $s in auto) n=0 ;; global_hash) n=1 ;; shared_hash) n=2 ;; sort) n=3 ;; partition) n=4 ;; private_hash) n=5 ;;
        *) echo "unknown strategy $s"; exit 2 ;; esac
      # PGTAP=0 skips the pgTAP suites (about 2 minutes a strategy): qgen alone, for a change
      # that touches only kernels' launch shapes, so four strategies fit one device call.
      if [ "${PGTAP:-1}" != 0 ]; then
        echo "== gpugb.strategy = $s: pgTAP differential suites (gpu mode)"
        PGOPTIONS="${PGOPTIONS:-} -c gpugb.strategy=$s" test/pgtap/run.sh gpu gpugb_tap 2>&1 \
          | tee "$out/pgtap-$s.log" | tail -3
      fi
      echo "== gpugb.strategy = $s: qgen (gpu mode)"
      qgen_streams "$s" "${QGEN_STRATEGY_QUERIES:-2000}" $(( ${QGEN_SEED:-1} + 1000 * n )) \
        --strategy "$s" 2>&1 | tee "$out/qgen-$s.log" | tail -1
    done
    ;;
  profile)
    # Where a parallel GpuGroupAgg's time goes (test/bench/ingest-profile.sh).
    test/bench/ingest-profile.sh 2>&1 | tee "$out/ingest-profile.log"
    ;;
  bench)
    test/bench/queryb.sh 2>&1 | tee "$out/queryb.log"
    ;;
  tpch)
    test/bench/tpch-q1.sh 2>&1 | tee "$out/tpch-q1.log"
    ;;
  concurrency)
    test/bench/concurrency.sh 2>&1 | tee "$out/concurrency.log"
    ;;
  startup)
    test/bench/startup.sh 2>&1 | tee "$out/startup.log"
    ;;
  report)
    # The benchmark report (test/bench/report.sh): TPC-H, ClickBench-style and Query B
    # against PostgreSQL and DuckDB (its wheel in .whl); ~20 minutes at the default sizes.
    # $out/docs: BENCHMARKS.md, PNGs, CSVs (for docs/); $out/raw: per-query CSVs, EXPLAINs.
    # $out/watch.log: memory, disk and the server's active statements every 60 s.  Runs 44
    # and 46 (2026-11-22) and 2026-11-27's run 5 stopped making progress when the device
    # call that started them returned (it kills what a call leaves running, bar setsid).
    ( while sleep 60; do
        { date -u +%T; free -g | sed -n 2p; df -h /tmp | tail -1
          psql -X -At -d postgres -c "SELECT pid, backend_type, wait_event_type, wait_event,
            now() - query_start, left(query, 80) FROM pg_stat_activity WHERE state <> 'idle'" 2>&1
        } >> "$out/watch.log"
      done ) &
    watch_pid=$!
    GPUGB_REPORT_CMD=${GPUGB_REPORT_CMD:-"OUT=$out bash test/gpu-box.sh report"} OUT=$out \
      test/bench/report.sh 2>&1 | tee "$out/report.log"
    kill "$watch_pid" 2>/dev/null || true
    ;;
  kernelbench)
    make -s -j"$(nproc)" -C test/kernelbench CUDA_ARCHS=90 >/dev/null
    test/bin/kernelbench ${KERNELBENCH_ARGS:-} --csv "$out/kernelbench.csv" --md "$out/kernelbench.md" \
      2>&1 | tee "$out/kernelbench.log" | tail -40
    ;;
  *)
    echo "unknown stage $stage"; exit 2 ;;
esac
