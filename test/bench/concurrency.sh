#!/usr/bin/env bash
# test/bench/concurrency.sh — many sessions sharing one GPU (issue 5, item 3).
#
# For each N in SESSIONS, pgbench runs N sessions for DURATION seconds, each
# looping over a mix of GROUP BY queries (few and many groups, a plain
# aggregate, parallel and not) on a ROWS-row table, with gpugb forced and
# gpugb.max_device_memory = BUDGET_MB for all of them together.  A query
# that cannot get device memory must fall back to PostgreSQL's plan, never
# fail: any ERROR aborts a pgbench client and fails this script.  After
# each run, the device memory gpugb holds (gpugb_device_memory_budget())
# must be back to 0, and the GPU's used memory to its baseline.
#
# On the GPU box:  test/bench/concurrency.sh
# Locally:         PGPORT=5440 PGUSER=postgres ROWS=200000 DURATION=10 \
#                  EXTRA="-c gpugb.emulate_device=on" test/bench/concurrency.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export PGHOST=${PGHOST:-/tmp} PGPORT=${PGPORT:-5433} PGUSER=${PGUSER:-pg}
DB=${DB:-gpugb_bench}
ROWS=${ROWS:-10000000}
SESSIONS=${SESSIONS:-"1 4 16"}
DURATION=${DURATION:-90}
BUDGET_MB=${BUDGET_MB:-4096}
EXTRA=${EXTRA:-}
PGBENCH=${PGBENCH:-$(command -v pgbench || echo "$(dirname "$(command -v psql)")/pgbench")}
log() { echo "[concurrency $(date +%H:%M:%S)] $*" >&2; }
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
gpu_used() { nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -1 || echo "-"; }

if [ "$(psql -X -At -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
  createdb "$DB"
fi
if [ "$(q -c "SELECT count(*) FROM pg_class WHERE relname = 'ctable'")" = 0 ] ||
   [ "$(q -c "SELECT reltuples::bigint FROM pg_class WHERE relname = 'ctable'")" != "$ROWS" ]; then
  log "loading $ROWS rows"
  q -c "DROP TABLE IF EXISTS ctable" \
    -c "CREATE UNLOGGED TABLE ctable AS SELECT (random() * 1e9)::int AS col1, (random() * 1e6)::int AS col2,
          (random() * 1e6)::int AS col3 FROM generate_series(1, $ROWS)" \
    -c "ALTER TABLE ctable SET (parallel_workers = 4)" -c "VACUUM ANALYZE ctable"
fi
q -c "CREATE EXTENSION IF NOT EXISTS gpugb"
q -c "ALTER SYSTEM SET gpugb.max_device_memory = '${BUDGET_MB}MB'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1

script=$(mktemp)
trap 'rm -f "$script"; q -c "ALTER SYSTEM RESET gpugb.max_device_memory" -c "SELECT pg_reload_conf()" >/dev/null' EXIT
cat >"$script" <<'SQL'
\set g random(1, 6)
SELECT count(*) FROM (SELECT mod(col1, 1000), count(*), sum(col2) FROM ctable GROUP BY 1) s;
SELECT count(*) FROM (SELECT mod(col1, 1000000), count(*), avg(col2), max(col3) FROM ctable GROUP BY 1) s;
SELECT count(*), sum(col2), min(col3), avg(col1) FROM ctable WHERE col2 % :g = 0;
SELECT count(*) FROM (SELECT col2 % 100, col3 % 7, stddev(col1) FROM ctable GROUP BY 1, 2) s;
SQL

baseline=$(gpu_used)
echo "| sessions | seconds | transactions (4 queries each) | queries/s | errors | gpugb device memory after (bytes) | GPU memory used before / after (MiB) |"
echo "|---:|---:|---:|---:|---:|---:|---|"
status=0
for n in $SESSIONS; do
  log "$n sessions for $DURATION s"
  rc=0
  out=$(PGOPTIONS="-c gpugb.force=on -c max_parallel_workers_per_gather=2 $EXTRA" \
        "$PGBENCH" -n -f "$script" -c "$n" -j "$n" -T "$DURATION" "$DB" 2>&1) || rc=$?
  tx=$(grep -o 'number of transactions actually processed: [0-9]*' <<<"$out" | awk '{print $NF}')
  errors=$(grep -c 'aborted\|ERROR' <<<"$out" || true)
  sleep 2
  after=$(q -c "SELECT reserved_bytes FROM gpugb_device_memory_budget()")
  qps=$(awk -v t="${tx:-0}" -v d="$DURATION" 'BEGIN { printf "%.1f", 4 * t / d }')
  echo "| $n | $DURATION | ${tx:-0} | $qps | $errors | $after | $baseline / $(gpu_used) |"
  if [ $rc -ne 0 ] || [ "$errors" != 0 ] || [ "$after" != 0 ]; then
    echo "$out" | grep -E 'ERROR|aborted' | head -5
    status=1
  fi
done
exit $status
