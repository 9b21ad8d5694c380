#!/usr/bin/env bash
# test/bench/startup.sh — what a new session's first GROUP BY pays for CUDA
# start-up (issue 5, item 4).
#
# For gpugb.preinit_device = off and on (reloaded between), SESSIONS new
# sessions each run the same GROUP BY twice, back to back: either as soon
# as they are connected (the worst case for hiding: nothing to overlap
# with), or after a PAUSE second pause (a pooled connection, or a client
# that does other work first).  Prints, per setting and case, the median
# first and second times and first - second: the start-up cost the
# session's first query still pays.  Target: <= 100 ms.
#
# The GROUP BY runs in one process (WORKERS=0) over ROWS rows by default;
# WORKERS=16 ROWS=30000000 times the parallel-ingest plan instead, where
# the workers' first strides can overlap the leader's CUDA start-up.
#
# On the GPU box (gpugb preloaded, the server of test/gpu-box.sh):
#   test/bench/startup.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export PGHOST=${PGHOST:-/tmp} PGPORT=${PGPORT:-5433} PGUSER=${PGUSER:-pg}
DB=${DB:-gpugb_bench}
ROWS=${ROWS:-1000000}
WORKERS=${WORKERS:-0}
SESSIONS=${SESSIONS:-10}
PAUSE=${PAUSE:-1}
EXTRA=${EXTRA:-}
log() { echo "[startup $(date +%H:%M:%S)] $*" >&2; }
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

if [ "$(psql -X -At -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
  createdb "$DB"
fi
q -c "DROP TABLE IF EXISTS stable" \
  -c "CREATE UNLOGGED TABLE stable AS SELECT (random() * 1000)::int AS k, (random() * 1e6)::int AS v
        FROM generate_series(1, $ROWS)" -c "VACUUM ANALYZE stable"
[ "$WORKERS" -gt 0 ] && q -c "ALTER TABLE stable SET (parallel_workers = $WORKERS)"
QUERY="SELECT k, count(*), sum(v) FROM stable GROUP BY k"

# Milliseconds of the session's two GROUP BYs (after pausing $1 s).
session_times() {
  local pre=()
  [ "$1" != 0 ] && pre=(-c "SELECT pg_sleep($1)")
  # ON_ERROR_STOP: a fallback (an error under require_gpu) stops the script.
  PGOPTIONS="-c gpugb.force=on -c gpugb.require_gpu=on -c max_parallel_workers_per_gather=$WORKERS $EXTRA" \
    psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -o /dev/null "${pre[@]}" -c '\timing on' -c "$QUERY" -c "$QUERY" 2>&1 |
    awk '/^Time:/ {printf "%s ", $2}'
}

keepers=$(psql -X -At -d postgres -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'gpugb device keeper'")
echo "gpugb device keeper processes: $keepers; $ROWS rows, max_parallel_workers_per_gather $WORKERS"

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

echo "| gpugb.preinit_device | first GROUP BY | sessions | first (ms) | second (ms) | first - second (ms) |"
echo "|---|---|---|---|---|---|"
for setting in off on; do
  psql -X -q -d postgres -c "ALTER SYSTEM SET gpugb.preinit_device = $setting" -c "SELECT pg_reload_conf()" >/dev/null
  sleep 1
  for pause in 0 "$PAUSE"; do
    : > /tmp/startup-times
    for _ in $(seq "$SESSIONS"); do
      session_times "$pause" >> /tmp/startup-times
      echo >> /tmp/startup-times
    done
    first=$(awk '{print $1}' /tmp/startup-times | median)
    second=$(awk '{print $2}' /tmp/startup-times | median)
    diff=$(awk '{print $1 - $2}' /tmp/startup-times | median)
    log "preinit $setting, pause $pause: $(tr '\n' '|' < /tmp/startup-times)"
    when=$([ "$pause" = 0 ] && echo "at once" || echo "after ${pause} s")
    echo "| $setting | $when | $SESSIONS | $first | $second | $diff |"
  done
done
psql -X -q -d postgres -c "ALTER SYSTEM RESET gpugb.preinit_device" -c "SELECT pg_reload_conf()" >/dev/null
