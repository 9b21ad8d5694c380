#!/usr/bin/env bash
# test/bench/queryb.sh — Karnagel et al.'s Query B on gpugb against PostgreSQL's best plan.
#
#   SELECT mod(col1, g), count(*) FROM atable GROUP BY 1           (Query B)
#   SELECT mod(col1, g), count(*), sum(col2), min(col3), max(col4), avg(col2)
#     FROM atable GROUP BY 1                                        (5 aggregates)
#
# for g in 1 10 1e3 1e5 1e6 1e7 1e8 over atable(col1 int, col2 int, col3 int, col4 int)
# with ROWS rows, col1 uniform in [0, 1e9).  Each query runs as COPY (query) TO '/dev/null'
# (the whole result is produced and consumed, nothing printed; needs a superuser), once with
# gpugb.enabled=off (PostgreSQL's best plan, parallel) and once with gpugb.force=on and
# gpugb.require_gpu=on (a fallback is reported as such, not timed).  Expression statistics on
# mod(col1, g) make PostgreSQL's group estimate right.  gpugb's EXPLAIN ANALYZE gives the
# Fill / Transfer / Kernel / Wait breakdown (a separate run, with per-node timing overhead).
# Results are compared through an order-independent checksum (count and sum of row hashes).
#
# On the GPU box (server from ../shared/gpu-box/start-postgres.sh: /tmp, port 5433, user pg):
#   test/bench/queryb.sh                       100e6 rows, all g
# Locally, with the CPU emulator of the device, at tiny scale:
#   PGPORT=5440 PGUSER=postgres ROWS=200000 GPUGB_BENCH_EXTRA="-c gpugb.emulate_device=on" test/bench/queryb.sh
#
# Environment (defaults):
#   PGHOST (/tmp) PGPORT (5433) PGUSER (pg)   the server
#   BENCH_DB (gpugb_bench)        database, created if missing
#   ROWS (100000000)              rows of atable
#   LOAD (auto)                   auto: (re)load unless atable already holds ROWS rows;
#                                 force: always reload; skip: use atable as it is
#   LOAD_JOBS (nproc)             concurrent INSERT sessions while loading
#   GROUP_COUNTS ("1 10 1000 100000 1000000 10000000 100000000")
#   VARIANTS ("b agg5")           which queries: b = Query B, agg5 = the 5-aggregate variant
#   TIMEOUT_S (300)               statement_timeout per query; a slower one shows "timeout"
#   PG_WORKERS (16)               parallel_workers of atable (PostgreSQL's best plan)
#   STATS_TARGET (10000)          statistics target of the mod(col1, g) expression statistics
#   REPS (1)                      timed runs per query and engine; the fastest is reported
#   REPEAT_MAX_S (5)              a run that took longer than this is not repeated (PostgreSQL's
#                                 serial plans at large g take a minute or more)
#   CHECK (1)                     0: do not compare results (saves two runs per query)
#   CHECK_MAX_G ("")              if set: compare results only where g <= CHECK_MAX_G (PostgreSQL's
#                                 serial plan at large g costs a minute or more per run)
#   DEADLINE ("")                 epoch seconds: measurements that would start later are skipped
#                                 ("skipped"), and no statement_timeout reaches past it
#   WARM_S (0.5)                  seconds a timed session waits before its query (pooled connection;
#                                 a new backend's CUDA start-up is measured by startup.sh instead)
#   LOAD_ONLY (0)                 1: load atable and its statistics, then exit
#   BREAKDOWN (1)                 0: no EXPLAIN ANALYZE run for gpugb's time breakdown
#   GPUGB_BENCH_EXTRA ("")        extra PGOPTIONS for the gpugb runs (e.g. -c gpugb.emulate_device=on)
#   OUT                           if set: queryb.md, queryb.csv and explain/*.txt are written there
#                                 (queryb.csv a row at a time, so that a run cut short leaves its rows)
set -euo pipefail
# shellcheck source=../lib/batch-load.sh
source "$(dirname "$0")/../lib/batch-load.sh"

export PGHOST=${PGHOST:-/tmp} PGPORT=${PGPORT:-5433} PGUSER=${PGUSER:-pg}
DB=${BENCH_DB:-gpugb_bench}
ROWS=${ROWS:-100000000}
LOAD=${LOAD:-auto}
LOAD_JOBS=${LOAD_JOBS:-$(nproc)}
GROUPS_LIST=${GROUP_COUNTS:-"1 10 1000 100000 1000000 10000000 100000000"}
VARIANTS=${VARIANTS:-"b agg5"}
TIMEOUT_S=${TIMEOUT_S:-300}
PG_WORKERS=${PG_WORKERS:-16}
STATS_TARGET=${STATS_TARGET:-10000}
REPS=${REPS:-1}
REPEAT_MAX_S=${REPEAT_MAX_S:-5}
CHECK=${CHECK:-1}
BREAKDOWN=${BREAKDOWN:-1}
GPUGB_BENCH_EXTRA=${GPUGB_BENCH_EXTRA:-}
OUT=${OUT:-}
CHECK_MAX_G=${CHECK_MAX_G:-}
DEADLINE=${DEADLINE:-}
LOAD_ONLY=${LOAD_ONLY:-0}
WARM_S=${WARM_S:-0.5}

PG_OPTS="-c gpugb.enabled=off"
GPU_OPTS="-c gpugb.enabled=on -c gpugb.force=on -c gpugb.require_gpu=on $GPUGB_BENCH_EXTRA"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$OUT" ]; then mkdir -p "$OUT/explain"; fi
log() { echo "[queryb $(date +%H:%M:%S)] $*" >&2; }

# psql in DB with gpugb loaded (harmless when it is preloaded): psqlx OPTS SQL...
psqlx() {
  local opts=$1; shift
  local args=(-X -q -At -v ON_ERROR_STOP=1 -d "$DB" -c "LOAD 'gpugb'")
  local s
  for s in "$@"; do args+=(-c "$s"); done
  PGOPTIONS="${PGOPTIONS:-} $opts" psql "${args[@]}"
}

# ---------------------------------------------------------------------------
# 1. The table.
if [ "$(psql -X -At -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
  createdb "$DB"
fi
psql -X -q -At -d "$DB" -c "LOAD 'gpugb'" -c "CREATE EXTENSION IF NOT EXISTS gpugb" >/dev/null
loaded=$(psqlx "" "SELECT coalesce(obj_description('atable'::regclass, 'pg_class'), '')" 2>/dev/null || true)
if [ "$LOAD" = skip ] || { [ "$LOAD" = auto ] && [ "$loaded" = "queryb rows=$ROWS" ]; }; then
  log "using the existing atable ($loaded)"
else
  log "loading $ROWS rows with $LOAD_JOBS sessions"
  t0=$(date +%s)
  psqlx "" "DROP TABLE IF EXISTS atable" \
        "CREATE UNLOGGED TABLE atable (col1 int, col2 int, col3 int, col4 int)"
  atable_batch_sql() {
    echo "INSERT INTO atable SELECT floor(random() * 1e9)::int, floor(random() * 2147483647)::int,
            floor(random() * 2147483647)::int, floor(random() * 2147483647)::int
            FROM generate_series($1, $2);"
  }
  batch_load "$DB" "$ROWS" 2000000 "$LOAD_JOBS" atable_batch_sql
  psqlx "" "ALTER TABLE atable SET (parallel_workers = $PG_WORKERS)" \
        "VACUUM (ANALYZE) atable" \
        "COMMENT ON TABLE atable IS 'queryb rows=$ROWS'"
  log "loaded in $(( $(date +%s) - t0 )) s"
fi
psqlx "" "ALTER TABLE atable SET (parallel_workers = $PG_WORKERS)"
nrows=$(psqlx "" "SELECT reltuples::bigint FROM pg_class WHERE oid = 'atable'::regclass")

# Expression statistics for every g, so that PostgreSQL estimates the groups right.
new_stats=0
for g in $GROUPS_LIST; do
  name="queryb_mod_$g"
  if [ "$(psqlx "" "SELECT count(*) FROM pg_statistic_ext WHERE stxname = '$name'")" = 0 ]; then
    psqlx "" "CREATE STATISTICS $name ON (mod(col1, $g)) FROM atable" \
          "ALTER STATISTICS $name SET STATISTICS $STATS_TARGET"
    new_stats=1
  fi
done
if [ $new_stats = 1 ]; then
  log "ANALYZE with the expression statistics"
  psqlx "" "ANALYZE atable"
fi
psqlx "" "CREATE EXTENSION IF NOT EXISTS pg_prewarm" "SELECT pg_prewarm('atable')" >/dev/null 2>&1 || true
if [ "$LOAD_ONLY" = 1 ]; then log "atable ready ($nrows rows)"; exit 0; fi

# ---------------------------------------------------------------------------
# 2. Measurements.

# statement timeout in seconds: TIMEOUT_S, but not past DEADLINE; 0 if DEADLINE has passed
tmo() {
  local t=$TIMEOUT_S left
  if [ -n "$DEADLINE" ]; then
    left=$(( DEADLINE - $(date +%s) ))
    [ "$left" -gt 0 ] || left=0
    [ "$left" -ge "$t" ] || t=$left
  fi
  echo "$t"
}

# timed OPTS QUERY -> seconds (fastest of REPS), or timeout / fallback / error / skipped
timed() {
  local opts=$1 q=$2 best="" out rc ms r t
  for ((r = 0; r < REPS; r++)); do
    rc=0
    t=$(tmo)
    if [ "$t" -lt 1 ]; then
      if [ -z "$best" ]; then echo skipped; return; fi
      break
    fi
    # a session WARM_S old, as a pooled connection is (a new backend's CUDA start-up is not timed)
    out=$(psqlx "$opts -c statement_timeout=${t}s" "SELECT pg_sleep($WARM_S)" '\timing on' \
          "COPY ($q) TO '/dev/null'" 2>&1) || rc=$?
    if [ $rc -ne 0 ]; then
      if grep -q "statement timeout" <<<"$out"; then echo timeout
      elif grep -q "GPU aggregation did not finish" <<<"$out"; then
        log "fallback: $(grep -m1 ERROR <<<"$out")"; echo fallback
      else log "error: $out"; echo error; fi
      return
    fi
    ms=$(grep -o 'Time: [0-9.]* ms' <<<"$out" | tail -1 | awk '{print $2}')
    if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$ms; fi
    awk -v a="$ms" -v m="$REPEAT_MAX_S" 'BEGIN { exit !(a > m * 1000) }' && break
  done
  awk -v ms="$best" 'BEGIN { printf "%.3f", ms / 1000 }'
}

# checksum OPTS QUERY -> "rows:sum of row hashes", or timeout / fallback / error
checksum() {
  local opts=$1 q=$2 out rc=0 t
  t=$(tmo)
  if [ "$t" -lt 1 ]; then echo skipped; return; fi
  out=$(psqlx "$opts -c statement_timeout=${t}s" \
        "SELECT count(*) || ':' || coalesce(sum(hashtext(q::text)::int8), 0) FROM ($q) q" 2>&1) || rc=$?
  if [ $rc -ne 0 ]; then
    if grep -q "statement timeout" <<<"$out"; then echo timeout
    elif grep -q "GPU aggregation did not finish" <<<"$out"; then echo fallback
    else log "checksum error: $out"; echo error; fi
  else
    echo "$out" | tail -1
  fi
}

is_num() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]; }

table_b=()
table_agg5=()
csv_head="variant,g,pg_estimated_groups,pg_s,gpugb_s,speedup,gpugb_breakdown_ms,results_equal,pg_plan"
[ -z "$OUT" ] || echo "$csv_head" >"$OUT/queryb.csv"
for variant in $VARIANTS; do
  for g in $GROUPS_LIST; do
    case $variant in
      b)    q="SELECT mod(col1, $g), count(*) FROM atable GROUP BY 1" ;;
      agg5) q="SELECT mod(col1, $g), count(*), sum(col2), min(col3), max(col4), avg(col2) FROM atable GROUP BY 1" ;;
      *) echo "unknown variant $variant" >&2; exit 2 ;;
    esac
    log "$variant g=$g"
    # PostgreSQL's plan: estimate and shape.
    pg_plan=$(psqlx "$PG_OPTS" "EXPLAIN (COSTS ON) $q")
    est=$(head -1 <<<"$pg_plan" | grep -o 'rows=[0-9]*' | head -1 | cut -d= -f2)
    shape=$(psqlx "$PG_OPTS" "EXPLAIN (COSTS OFF) $q" | grep -E '(Aggregate|Gather|Merge|Sort)$|Workers Planned' \
            | sed -E 's/^ *(-> *)?//' | paste -sd '/' | sed 's|/| / |g')
    [ -z "$OUT" ] || printf '%s\n' "$pg_plan" >"$OUT/explain/${variant}_g${g}_pg_plan.txt"

    pg_s=$(timed "$PG_OPTS" "$q")
    if psqlx "$GPU_OPTS" "EXPLAIN (COSTS OFF) $q" | grep -q 'GpuGroupAgg'; then
      gpu_s=$(timed "$GPU_OPTS" "$q")
    else
      log "gpugb did not plan GpuGroupAgg (no GPU? see gpugb_device_info())"
      gpu_s="not planned"
    fi
    if is_num "$pg_s" && is_num "$gpu_s"; then
      speedup=$(awk -v a="$pg_s" -v b="$gpu_s" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }')
    else
      speedup="-"
    fi

    breakdown="-"
    if [ "$BREAKDOWN" = 1 ] && is_num "$gpu_s" && [ "$(tmo)" -ge 1 ]; then
      rc=0
      ex=$(psqlx "$GPU_OPTS -c statement_timeout=$(tmo)s" "EXPLAIN (ANALYZE, TIMING ON) $q" 2>&1) || rc=$?
      [ -z "$OUT" ] || printf '%s\n' "$ex" >"$OUT/explain/${variant}_g${g}_gpugb_analyze.txt"
      if [ $rc -eq 0 ]; then
        f() { grep -o "$1: [0-9.]* ms" <<<"$ex" | head -1 | awk '{printf "%.0f", $(NF-1)}'; }
        breakdown="$(f 'Fill Time') / $(f 'Transfer Time') / $(f 'Kernel Time') / $(f 'Wait Time')"
        groups=$(grep -o 'Groups: [0-9]*' <<<"$ex" | head -1 | awk '{print $2}')
        strides=$(grep -o 'Strides: [0-9]*' <<<"$ex" | head -1 | awk '{print $2}')
        breakdown="$breakdown (${groups:-?} groups, ${strides:-?} strides)"
      fi
    fi

    equal="-"
    if [ "$CHECK" = 1 ] && { [ -z "$CHECK_MAX_G" ] || [ "$g" -le "$CHECK_MAX_G" ]; }; then
      if is_num "$gpu_s" && [ "$(tmo)" -ge 1 ]; then
        c_gpu=$(checksum "$GPU_OPTS" "$q")
        c_pg=$(checksum "$PG_OPTS" "$q")
        if [[ $c_pg == *:* && $c_gpu == *:* ]]; then
          if [ "$c_pg" = "$c_gpu" ]; then equal="yes"; else equal="**NO** (pg $c_pg, gpugb $c_gpu)"; fi
        else
          equal="? (pg $c_pg, gpugb $c_gpu)"
        fi
      fi
    fi

    row="| $g | ${est:-?} | $shape | $pg_s | $gpu_s | $speedup | $breakdown | $equal |"
    log "$row"
    [ -z "$OUT" ] || echo "$variant,$g,${est:-},$pg_s,$gpu_s,$speedup,\"$breakdown\",\"$equal\",\"$shape\"" >>"$OUT/queryb.csv"
    if [ "$variant" = b ]; then table_b+=("$row"); else table_agg5+=("$row"); fi
  done
done

# count(*) over the whole table.
cnt_pg=$(timed "$PG_OPTS" "SELECT count(*) FROM atable")
if psqlx "$GPU_OPTS" "EXPLAIN (COSTS OFF) SELECT count(*) FROM atable" | grep -q 'GpuGroupAgg'; then
  cnt_gpu=$(timed "$GPU_OPTS" "SELECT count(*) FROM atable")
else
  cnt_gpu="not planned"
fi

# ---------------------------------------------------------------------------
# 3. Report.
report() {
  local head='| g | PG est. groups | PG plan | PG best plan (s) | gpugb (s) | speed-up | gpugb fill / transfer / kernel / wait (ms) | results equal |'
  local sep='|---:|---:|---|---:|---:|---:|---|---|'
  echo "# Query B benchmark"
  echo
  echo "- rows: $nrows (atable, col1 uniform in [0, 1e9)); host $(hostname), $(nproc) cores"
  echo "- server: $(psql -X -At -d "$DB" -c 'SHOW server_version'), max_parallel_workers_per_gather $(psql -X -At -d "$DB" -c 'SHOW max_parallel_workers_per_gather'), atable parallel_workers $PG_WORKERS, work_mem $(psql -X -At -d "$DB" -c 'SHOW work_mem')"
  echo "- gpugb device: $(psqlx "$GPU_OPTS" 'SELECT gpugb_device_info()' 2>/dev/null || echo '?')"
  echo "- gpugb options: $GPU_OPTS"
  echo "- timing: COPY (query) TO '/dev/null', fastest of $REPS; timeout ${TIMEOUT_S} s; breakdown from a separate EXPLAIN ANALYZE (per-node timing inflates Fill Time)"
  echo "- results equal: count and sum of hashtext(row::text) over both result sets"
  echo
  if [ ${#table_b[@]} -gt 0 ]; then
    echo "## Query B: SELECT mod(col1, g), count(*) FROM atable GROUP BY 1"
    echo
    echo "$head"; echo "$sep"; printf '%s\n' "${table_b[@]}"
    echo
  fi
  if [ ${#table_agg5[@]} -gt 0 ]; then
    echo "## 5 aggregates: SELECT mod(col1, g), count(*), sum(col2), min(col3), max(col4), avg(col2) FROM atable GROUP BY 1"
    echo
    echo "$head"; echo "$sep"; printf '%s\n' "${table_agg5[@]}"
    echo
  fi
  echo "## SELECT count(*) FROM atable"
  echo
  echo "| PG best plan (s) | gpugb (s) |"
  echo "|---:|---:|"
  echo "| $cnt_pg | $cnt_gpu |"
}
md=/dev/null
[ -z "$OUT" ] || md=$OUT/queryb.md
report | tee "$md"
[ -z "$OUT" ] || echo "count,,,$cnt_pg,$cnt_gpu,,,," >>"$OUT/queryb.csv"
