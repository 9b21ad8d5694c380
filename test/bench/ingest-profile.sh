#!/usr/bin/env bash
# test/bench/ingest-profile.sh — where a parallel GpuGroupAgg's time goes, beside PostgreSQL's
# best plan and a parallel count(*) on the same table, in one run.  PROFILE_QUERIES replaces the
# queries (';'-separated); PG_PLAN=0 leaves PostgreSQL's plan out (gpugb against itself).
#
# Loads Query B's atable (test/bench/queryb.sh LOAD_ONLY=1), then for each query prints the
# wall time (COPY (query) TO '/dev/null', fastest of REPS) of PostgreSQL's plan and of gpugb
# under each setting in GPU_SETTINGS, and gpugb's phase times from EXPLAIN ANALYZE (Setup,
# Ingest, Finish; the leader's Fill, Copy and Idle; the workers' summed Fill and Stall).
#
# On the GPU box:  bash test/gpu-box.sh profile     (ROWS=100000000 by default)
# Locally (emulator, tiny):
#   PGPORT=5440 PGUSER=postgres ROWS=200000 GPU_SETTINGS="-c gpugb.emulate_device=on" test/bench/ingest-profile.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

export PGHOST=${PGHOST:-/tmp} PGPORT=${PGPORT:-5433} PGUSER=${PGUSER:-pg}
DB=${BENCH_DB:-gpugb_bench}
ROWS=${ROWS:-100000000}
REPS=${REPS:-2}
# One gpugb run per entry (';'-separated lists of PGOPTIONS).
GPU_SETTINGS=${GPU_SETTINGS:-"-c max_parallel_workers_per_gather=16;-c max_parallel_workers_per_gather=8;-c max_parallel_workers_per_gather=16 -c gpugb.stride_rows=4194304"}

ROWS=$ROWS LOAD_ONLY=1 GROUP_COUNTS="${PROFILE_GROUP_COUNTS:-1 1000000}" BENCH_DB=$DB test/bench/queryb.sh

queries=(
  "SELECT count(*) FROM atable"
  "SELECT mod(col1, 1), count(*) FROM atable GROUP BY 1"
  "SELECT col1 % 1, count(*) FROM atable GROUP BY 1"
  "SELECT mod(col1, 1000000), count(*) FROM atable GROUP BY 1"
  "SELECT mod(col1, 1), count(*), sum(col2), min(col3), max(col4), avg(col2) FROM atable GROUP BY 1"
)
# PROFILE_QUERIES: other queries, ';'-separated.
if [ -n "${PROFILE_QUERIES:-}" ]; then IFS=';' read -ra queries <<<"$PROFILE_QUERIES"; fi

run_psql() {  # OPTS SQL...
  local opts=$1; shift
  local args=(-X -q -At -v ON_ERROR_STOP=1 -d "$DB" -c "LOAD 'gpugb'")
  local s
  for s in "$@"; do args+=(-c "$s"); done
  PGOPTIONS="$opts" psql "${args[@]}"
}

timed() {  # OPTS QUERY -> seconds, fastest of REPS
  local best="" ms r out
  for ((r = 0; r < REPS; r++)); do
    out=$(run_psql "$1" "SELECT pg_sleep(${WARM_S:-0.5})" '\timing on' "COPY ($2) TO '/dev/null'" 2>&1) || { echo "error: $out" >&2; echo error; return; }
    ms=$(grep -o 'Time: [0-9.]* ms' <<<"$out" | tail -1 | awk '{print $2}')
    if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$ms; fi
  done
  awk -v ms="$best" 'BEGIN { printf "%.3f", ms / 1000 }'
}

pg="-c gpugb.enabled=off -c max_parallel_workers_per_gather=16"
gpu="-c gpugb.enabled=on -c gpugb.force=on -c gpugb.require_gpu=on"
for q in "${queries[@]}"; do
  echo "== $q"
  # PostgreSQL's plan at a million groups takes half a minute: not repeated here.
  case "${PG_PLAN:-1}:$q" in 0:* | *1000000*) ;; *) echo "PostgreSQL: $(timed "$pg" "$q") s" ;; esac
  IFS=';' read -ra settings <<<"$GPU_SETTINGS"
  for s in "${settings[@]}"; do
    echo "gpugb [$s]: $(timed "$gpu $s" "$q") s"
    run_psql "$gpu $s" "EXPLAIN (ANALYZE, TIMING ON) $q" 2>&1 |
      grep -E "Workers Launched|Strategy Used|Slot Copy|Time:|Execution Time" | sed 's/^ */    /'
  done
done
