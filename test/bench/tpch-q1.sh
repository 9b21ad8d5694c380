#!/usr/bin/env bash
# test/bench/tpch-q1.sh — TPC-H Q1 (query q1 of test/bench/tpch-queries.sql) on gpugb against
# PostgreSQL's best plan, in the same run, at each scale factor in SFS.
#
# For each SF: loads lineitem (test/tpch/lineitem.sh, skipped if present),
# runs Q1 as COPY (...) TO '/dev/null' REPS times, each in a new session
# WARM_S seconds old, with gpugb.enabled=off
# (PostgreSQL's parallel plan, PG_WORKERS workers) and with gpugb.force=on,
# gpugb.require_gpu=on (a fallback is an error, never timed), compares the
# two results row by row (text), and prints a markdown table row, plus
# gpugb's EXPLAIN ANALYZE.
#
# On the GPU box (server of ../shared/gpu-box/start-postgres.sh):
#   SFS="1 10" test/bench/tpch-q1.sh
# Locally, with the CPU emulator:
#   PGPORT=5440 PGUSER=postgres SFS=0.01 GPUGB_BENCH_EXTRA="-c gpugb.emulate_device=on" test/bench/tpch-q1.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export PGHOST=${PGHOST:-/tmp} PGPORT=${PGPORT:-5433} PGUSER=${PGUSER:-pg}
SFS=${SFS:-"1 10"}
REPS=${REPS:-3}
# Seconds each timed session waits before its query, as report.py's WARM_S:
# a session that old (a pooled connection) has its CUDA context from
# gpugb.preinit_device; one that groups at once pays the driver's start-up
# (about 0.16 s, docs/startup-2026-11-21.md) on top.  Both sides wait.
WARM_S=${WARM_S:-0.5}
PG_WORKERS=${PG_WORKERS:-16}
GPUGB_BENCH_EXTRA=${GPUGB_BENCH_EXTRA:-}
OUT=${OUT:-}
PG_OPTS="-c gpugb.enabled=off -c max_parallel_workers_per_gather=$PG_WORKERS -c work_mem=1GB"
GPU_OPTS="-c gpugb.enabled=on -c gpugb.force=on -c gpugb.require_gpu=on -c max_parallel_workers_per_gather=$PG_WORKERS $GPUGB_BENCH_EXTRA"
# Q1's text: the "-- @ q1" block of the report's query file (one copy of the query).
q1=$(awk '/^-- @ q1 /{f=1; next} /^-- @/{f=0} f && !/^--/' test/bench/tpch-queries.sql | sed '/^$/d')
[ -n "$q1" ] || { echo "tpch-q1.sh: no q1 in test/bench/tpch-queries.sql"; exit 1; }
log() { echo "[tpch-q1 $(date +%H:%M:%S)] $*" >&2; }

run() {  # run DB OPTS SQL...
  local db=$1 opts=$2; shift 2
  local args=(-X -q -At -v ON_ERROR_STOP=1 -d "$db" -c "LOAD 'gpugb'")
  for s in "$@"; do args+=(-c "$s"); done
  PGOPTIONS="$opts" psql "${args[@]}"
}
timed() {  # timed DB OPTS -> fastest seconds of REPS
  local db=$1 opts=$2 best="" ms
  for ((r = 0; r < REPS; r++)); do
    ms=$(run "$db" "$opts" "SELECT pg_sleep($WARM_S)" '\timing on' "COPY ($q1) TO '/dev/null'" |
         grep -o 'Time: [0-9.]* ms' | awk '{print $2}')
    if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$ms; fi
  done
  awk -v ms="$best" 'BEGIN { printf "%.3f", ms / 1000 }'
}

echo "| SF | lineitem rows | PG best plan | PG (s) | gpugb (s) | speed-up | results equal |"
echo "|---:|---:|---|---:|---:|---:|---|"
for sf in $SFS; do
  db=tpch_sf${sf//./_}
  SF=$sf DB=$db PG_WORKERS=$PG_WORKERS test/tpch/lineitem.sh
  run "$db" "" "CREATE EXTENSION IF NOT EXISTS pg_prewarm" "SELECT pg_prewarm('lineitem')" >/dev/null 2>&1 || true
  rows=$(run "$db" "" "SELECT reltuples::bigint FROM pg_class WHERE oid = 'lineitem'::regclass")
  shape=$(run "$db" "$PG_OPTS" "EXPLAIN (COSTS OFF) $q1" | grep -E 'Aggregate|Gather|Workers Planned' \
          | sed -E 's/^ *(-> *)?//' | paste -sd '/' | sed 's|/| / |g')
  log "SF $sf: PostgreSQL"
  pg_s=$(timed "$db" "$PG_OPTS")
  log "SF $sf: gpugb"
  gpu_s=$(timed "$db" "$GPU_OPTS")
  pg_rows=$(run "$db" "$PG_OPTS" "$q1")
  gpu_rows=$(run "$db" "$GPU_OPTS" "$q1")
  equal=$([ "$pg_rows" = "$gpu_rows" ] && echo yes || echo NO)
  speedup=$(awk -v a="$pg_s" -v b="$gpu_s" 'BEGIN { printf "%.1fx", a / b }')
  echo "| $sf | $rows | $shape | $pg_s | $gpu_s | $speedup | $equal |"
  if [ -n "$OUT" ]; then
    mkdir -p "$OUT"
    run "$db" "$GPU_OPTS" "EXPLAIN (ANALYZE, VERBOSE) $q1" >"$OUT/q1_sf${sf}_gpugb_analyze.txt"
    run "$db" "$PG_OPTS" "EXPLAIN (ANALYZE) $q1" >"$OUT/q1_sf${sf}_pg_analyze.txt"
    printf '%s\n' "$gpu_rows" >"$OUT/q1_sf${sf}_result.txt"
  fi
  [ "$equal" = yes ] || { echo "Q1 results differ at SF $sf"; diff <(echo "$pg_rows") <(echo "$gpu_rows") | head; exit 1; }
done
