#!/usr/bin/env bash
# test/bench/report.sh — the benchmark report of issue 5: PostgreSQL's best plan
# (gpugb.enabled=off, parallel, PG_WORKERS workers), gpugb (gpugb.force=on,
# gpugb.require_gpu=on: a fallback is an error, never timed) and DuckDB, on the
# same data in the same run:
#
#   tpch    TPC-H at scale factor SF, the GROUP BY queries that need only lineitem
#           (test/bench/tpch-queries.sql: Q1, Q6, Q18's inner query, Q15's revenue
#           view, per-part revenue, Q12's shape, per shipmode x returnflag)
#   hits    ClickBench-style queries (test/bench/hits-queries.sql) over a generated
#           hits table of HITS_ROWS rows (test/bench/hits.sh)
#   queryb  Query B, SELECT mod(col1, g), count(*) FROM atable GROUP BY 1, and its
#           5-aggregate variant, over ROWS rows (test/bench/queryb.sh times
#           PostgreSQL and gpugb; DuckDB is timed here on the same rows)
#
# Writes, under OUT:
#   docs/BENCHMARKS.md, docs/benchmarks-{queryb,tpch,hits}.png and .csv   (for docs/)
#   raw/   the per-query CSVs (written a row at a time), meta.env, EXPLAINs, queryb.md
# and re-renders docs/ after every section, so a run cut short still leaves a report.
#
# On the GPU box, after ../shared/gpu-box/start-postgres.sh and gpugb installed
# (test/gpu-box.sh does both: `OUT=/tmp/o bash test/gpu-box.sh report`):
#   OUT=/tmp/o test/bench/report.sh
# Locally, with the CPU emulator, at tiny scale:
#   PGPORT=5466 PGUSER=postgres OUT=/tmp/r ROWS=200000 SF=0.01 HITS_ROWS=100000 \
#     GPUGB_BENCH_EXTRA="-c gpugb.emulate_device=on" WHEELS=/path/to/wheels test/bench/report.sh
# Only the markdown, plots and CSVs, from a run's OUT (e.g. copied back from the box;
# DOCS_DIR, default DIR/docs, is where they go: give one where DIR is read-only):
#   test/bench/report.sh --render-only /tmp/o [DOCS_DIR]
#
# Environment (defaults):
#   PGHOST (/tmp) PGPORT (5433) PGUSER (pg)   the server
#   OUT (/tmp/gpugb-report)       where the report goes
#   SECTIONS ("tpch hits queryb") which sections, in this order
#   SF (10)                       TPC-H scale factor
#   HITS_ROWS (30000000)          rows of hits
#   TPCH_ONLY, HITS_ONLY ("")     comma-separated query names: only these of the section (c16,c19)
#   ROWS (100000000)              rows of Query B's atable
#   QB_GROUP_COUNTS ("1 10 1000 100000 1000000 10000000 100000000")   g of Query B
#   QB_AGG5_GROUP_COUNTS ("1 1000 100000 1000000")                    g of the 5-aggregate variant
#   QB_CHECK_MAX_G (100000)       gpugb = PostgreSQL (queryb.sh's checksum) only where g <= this
#                                 (PostgreSQL takes 1-2 minutes per run beyond); gpugb = DuckDB at every g
#   QB_REPS (3)                   timed runs per Query B query and engine (PostgreSQL, gpugb);
#                                 one only where a run takes longer than REPEAT_MAX_S
#   QB_BREAKDOWN (0)              1: queryb.sh's EXPLAIN ANALYZE run for gpugb's time breakdown
#   REPS (2)                      timed runs per query and engine (DuckDB: at least 2); the fastest counts
#   REPEAT_MAX_S (5)              a run that took longer than this is not repeated
#   TIMEOUT_S (150)               statement_timeout per query (and DuckDB's interrupt)
#   BUDGET_S (1080)               wall-clock budget from the start: later measurements are skipped
#                                 (and reported as skipped), no timeout reaches past it
#   EXPLAIN (1)                   gpugb's EXPLAIN ANALYZE per TPC-H/hits query (groups, strategy, times)
#   PG_WORKERS (16)               max_parallel_workers_per_gather and the tables' parallel_workers
#   LOAD_JOBS (nproc)             loading sessions (PostgreSQL) and export sessions (to DuckDB)
#   WHEELS (.whl)                 folder with DuckDB's wheel, installed into WORK/site when
#                                 `import duckdb` fails (pip --no-index --no-deps); without
#                                 DuckDB the report has PostgreSQL and gpugb only
#   WORK (/tmp/gpugb-report-work) CSV exports (deleted after loading), the DuckDB database file,
#                                 result files (written by the server: the folder is mode 1777)
#   GPUGB_BENCH_EXTRA ("")        extra options for gpugb's runs (e.g. -c gpugb.emulate_device=on)
#   GPUGB_REPORT_CMD              the command line to show in BENCHMARKS.md (test/gpu-box.sh sets it)
#   GIT_COMMIT                    the commit to show where the tree has no .git
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = --render-only ]; then
  [ -n "${2:-}" ] || { echo "usage: $0 --render-only DIR [DOCS_DIR]" >&2; exit 2; }
  exec python3 test/bench/report.py render "$2" ${3:+"$3"}
fi

export PGHOST=${PGHOST:-/tmp} PGPORT=${PGPORT:-5433} PGUSER=${PGUSER:-pg}
OUT=${OUT:-/tmp/gpugb-report}
SECTIONS=${SECTIONS:-"tpch hits queryb"}
SF=${SF:-10}
HITS_ROWS=${HITS_ROWS:-30000000}
ROWS=${ROWS:-100000000}
QB_GROUP_COUNTS=${QB_GROUP_COUNTS:-"1 10 1000 100000 1000000 10000000 100000000"}
QB_AGG5_GROUP_COUNTS=${QB_AGG5_GROUP_COUNTS:-"1 1000 100000 1000000"}
QB_CHECK_MAX_G=${QB_CHECK_MAX_G:-100000}
QB_REPS=${QB_REPS:-3}
QB_BREAKDOWN=${QB_BREAKDOWN:-0}
REPS=${REPS:-2}
REPEAT_MAX_S=${REPEAT_MAX_S:-5}
TIMEOUT_S=${TIMEOUT_S:-150}
BUDGET_S=${BUDGET_S:-1080}
EXPLAIN=${EXPLAIN:-1}
PG_WORKERS=${PG_WORKERS:-16}
LOAD_JOBS=${LOAD_JOBS:-$(nproc)}
WHEELS=${WHEELS:-.whl}
WORK=${WORK:-/tmp/gpugb-report-work}
GPUGB_BENCH_EXTRA=${GPUGB_BENCH_EXTRA:-}
export LOAD_JOBS PG_WORKERS GPUGB_BENCH_EXTRA

# One report at a time: two at once time each other's load (it happened: both
# runs' numbers were worthless).  The lock goes with this process.
exec 9>"${REPORT_LOCK:-/tmp/gpugb-report.lock}"
flock -n 9 || { echo "report.sh: another report is running (${REPORT_LOCK:-/tmp/gpugb-report.lock})" >&2; exit 1; }

T0=$(date +%s)
DEADLINE=$(( T0 + BUDGET_S ))
RAW=$OUT/raw
PG_OPTS="-c gpugb.enabled=off -c max_parallel_workers_per_gather=$PG_WORKERS"
GPU_OPTS="-c gpugb.enabled=on -c gpugb.force=on -c gpugb.require_gpu=on -c max_parallel_workers_per_gather=$PG_WORKERS $GPUGB_BENCH_EXTRA"
mkdir -p "$RAW/explain" "$OUT/docs" "$WORK/results"
chmod 755 "$WORK"; chmod 1777 "$WORK/results"
DUCK_DB=$WORK/bench.duckdb
log() { echo "[report $(date +%H:%M:%S) +$(( $(date +%s) - T0 ))s] $*" >&2; }
meta() { echo "$1=$2" >>"$RAW/meta.env"; }
note() { log "NOTE: $1"; meta "note_$(date +%s%N)" "$1"; }
render() { python3 test/bench/report.py render "$OUT" || log "render failed (the raw CSVs are in $RAW)"; }

# ---------------------------------------------------------------------------
# DuckDB: importable, or installed from the wheel folder.
HAVE_DUCK=1
if ! python3 -c 'import duckdb' 2>/dev/null; then
  if ls "$WHEELS"/duckdb-*.whl >/dev/null 2>&1; then
    log "installing DuckDB from $WHEELS into $WORK/site"
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target "$WORK/site" "$WHEELS"/duckdb-*.whl >&2 || true
    export PYTHONPATH=$WORK/site${PYTHONPATH:+:$PYTHONPATH}
  fi
  python3 -c 'import duckdb' 2>/dev/null || HAVE_DUCK=0
fi
ENGINES=pg,gpugb
[ $HAVE_DUCK = 0 ] || ENGINES=pg,gpugb,duckdb

# ---------------------------------------------------------------------------
# What ran where.
# meta.env accumulates over runs into the same OUT (a section's keys are written when it runs).
q0() { psql -X -At -d postgres -c "$1" 2>/dev/null || echo "?"; }
meta run "$(date -u '+%Y-%m-%d %H:%M:%S UTC') | ${GPUGB_REPORT_CMD:-test/bench/report.sh} | SECTIONS=\"$SECTIONS\" SF=$SF HITS_ROWS=$HITS_ROWS ROWS=$ROWS QB_GROUP_COUNTS=\"$QB_GROUP_COUNTS\" QB_AGG5_GROUP_COUNTS=\"$QB_AGG5_GROUP_COUNTS\" QB_CHECK_MAX_G=$QB_CHECK_MAX_G QB_REPS=$QB_REPS REPS=$REPS REPEAT_MAX_S=$REPEAT_MAX_S TIMEOUT_S=$TIMEOUT_S BUDGET_S=$BUDGET_S PG_WORKERS=$PG_WORKERS${GPUGB_BENCH_EXTRA:+ GPUGB_BENCH_EXTRA=\"$GPUGB_BENCH_EXTRA\"}"
meta finished "not yet (the run of $(date -u '+%H:%M:%S UTC') is in progress or was cut short)"
meta host "$(hostname)"
gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1 || true)
meta gpu "${gpu:-none (nvidia-smi found no GPU)}"
meta cpu "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
meta nproc "$(nproc)"
meta mem "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
meta pg_version "$(q0 'SHOW server_version')"
meta pg_settings "shared_buffers $(q0 'SHOW shared_buffers'), work_mem $(q0 'SHOW work_mem'), max_parallel_workers $(q0 'SHOW max_parallel_workers'), max_parallel_workers_per_gather $PG_WORKERS (session), jit $(q0 'SHOW jit')"
meta pg_workers "$PG_WORKERS"
if [ $HAVE_DUCK = 1 ]; then
  meta duckdb_version "$(python3 -c 'import duckdb; print(duckdb.__version__)')"
  meta duckdb_settings "threads $(nproc), database file $DUCK_DB, default memory_limit"
else
  meta duckdb_version "not available (no duckdb module, no wheel in $WHEELS)"
  note "DuckDB was not available: no DuckDB columns"
fi
meta git_commit "${GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}$(git -c core.fileMode=false status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo ' (with uncommitted changes)' || true)"
meta warm_s "${WARM_S:-0.5}"; meta reps "$REPS"; meta qb_reps "$QB_REPS"; meta repeat_max "$REPEAT_MAX_S"; meta timeout "$TIMEOUT_S"
log "OUT=$OUT, sections: $SECTIONS, budget ${BUDGET_S} s, engines $ENGINES"

suite() {  # suite NAME DB QUERIES [extra run-suite args...]
  local name=$1 db=$2 queries=$3; shift 3
  local args=(--suite "$name" --db "$db" --duck "$DUCK_DB" --queries "$queries" --out "$RAW/$name.csv"
              --engines "$ENGINES" --resdir "$WORK/results" --reps "$REPS" --repeat-max "$REPEAT_MAX_S"
              --timeout "$TIMEOUT_S" --deadline "$DEADLINE" --threads "$(nproc)"
              --pg-opts "$PG_OPTS" --gpu-opts "$GPU_OPTS")
  [ "$EXPLAIN" = 0 ] || args+=(--explain-dir "$RAW/explain")
  rm -f "$RAW/$name.csv"
  python3 test/bench/report.py run-suite "${args[@]}" "$@"
}
duck_load() {  # duck_load DB TABLE TAG
  [ $HAVE_DUCK = 1 ] || return 0
  python3 test/bench/report.py duck-load --db "$1" --table "$2" --tag "$3" --duck "$DUCK_DB" \
    --tmp "$WORK/csv" --jobs "$LOAD_JOBS" --threads "$(nproc)"
}
# prewarm DB TABLE: the table into shared buffers; gpugb's functions in DB; the device's description
prewarm() {
  psql -X -q -d "$1" -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" -c "SELECT pg_prewarm('$2')" >/dev/null 2>&1 || true
  psql -X -q -d "$1" -c "LOAD 'gpugb'" -c "CREATE EXTENSION IF NOT EXISTS gpugb" >/dev/null 2>&1 || true
  meta gpugb_device "$(PGOPTIONS="${PGOPTIONS:-} $GPU_OPTS" psql -X -q -At -d "$1" -c "LOAD 'gpugb'" \
                       -c "SELECT gpugb_device_info()" 2>/dev/null | tail -1 || echo '?')"
}
past_deadline() { [ "$(date +%s)" -ge "$DEADLINE" ]; }

# ---------------------------------------------------------------------------
section_tpch() {
  local db=tpch_sf${SF//./_}
  log "TPC-H SF $SF: lineitem"
  SF=$SF DB=$db test/tpch/lineitem.sh
  prewarm "$db" lineitem
  meta sf "$SF"
  meta tpch_rows "$(psql -X -At -d "$db" -c "SELECT reltuples::bigint FROM pg_class WHERE oid = 'lineitem'::regclass")"
  duck_load "$db" lineitem "tpch sf=$SF"
  suite tpch "$db" test/bench/tpch-queries.sql ${TPCH_ONLY:+--only "$TPCH_ONLY"}
}

section_hits() {
  log "hits: $HITS_ROWS rows"
  HITS_ROWS=$HITS_ROWS DB=gpugb_hits test/bench/hits.sh
  prewarm gpugb_hits hits
  meta hits_rows "$(psql -X -At -d gpugb_hits -c "SELECT reltuples::bigint FROM pg_class WHERE oid = 'hits'::regclass")"
  duck_load gpugb_hits hits "hits rows=$HITS_ROWS"
  suite hits gpugb_hits test/bench/hits-queries.sql ${HITS_ONLY:+--only "$HITS_ONLY"}
}

section_queryb() {
  local qbenv=(ROWS="$ROWS" TIMEOUT_S="$TIMEOUT_S" REPS="$QB_REPS" REPEAT_MAX_S="$REPEAT_MAX_S" BREAKDOWN="$QB_BREAKDOWN"
               CHECK_MAX_G="$QB_CHECK_MAX_G" DEADLINE="$DEADLINE" PG_WORKERS="$PG_WORKERS")
  log "Query B: atable, $ROWS rows"
  env "${qbenv[@]}" LOAD_ONLY=1 GROUP_COUNTS="$QB_GROUP_COUNTS $QB_AGG5_GROUP_COUNTS" test/bench/queryb.sh
  prewarm gpugb_bench atable
  meta qb_check_max_g "$QB_CHECK_MAX_G"
  meta qb_rows "$(psql -X -At -d gpugb_bench -c "SELECT reltuples::bigint FROM pg_class WHERE oid = 'atable'::regclass")"
  duck_load gpugb_bench atable "queryb rows=$ROWS"
  # The queries, with numeric checksums of their results (gpugb against DuckDB).
  local qf=$WORK/queryb-queries.sql g
  : >"$qf"
  for g in $QB_GROUP_COUNTS; do
    printf -- '-- @ b_g%s | Query B, g = %s\n-- checksum: SELECT count(*), sum(k), sum(c), sum(CAST(k AS bigint) * c) FROM ({Q}) q(k, c)\nSELECT mod(col1, %s), count(*) FROM atable GROUP BY 1\n\n' \
      "$g" "$g" "$g" >>"$qf"
  done
  for g in $QB_AGG5_GROUP_COUNTS; do
    printf -- '-- @ agg5_g%s | 5 aggregates, g = %s\n-- checksum: SELECT count(*), sum(k), sum(c), sum(CAST(k AS bigint) * c), sum(s), sum(mn), sum(mx), sum(a) FROM ({Q}) q(k, c, s, mn, mx, a)\nSELECT mod(col1, %s), count(*), sum(col2), min(col3), max(col4), avg(col2) FROM atable GROUP BY 1\n\n' \
      "$g" "$g" "$g" >>"$qf"
  done
  if [ $HAVE_DUCK = 1 ]; then
    log "Query B: DuckDB"
    rm -f "$RAW/queryb-duckdb.csv"
    python3 test/bench/report.py run-suite --suite queryb --db gpugb_bench --duck "$DUCK_DB" --queries "$qf" \
      --out "$RAW/queryb-duckdb.csv" --engines duckdb --results 0 --reps "$QB_REPS" \
      --repeat-max "$REPEAT_MAX_S" --timeout "$TIMEOUT_S" --deadline "$DEADLINE" --threads "$(nproc)"
  fi
  render
  local v gl
  for v in b agg5; do
    if [ $v = b ]; then gl=$QB_GROUP_COUNTS; else gl=$QB_AGG5_GROUP_COUNTS; fi
    [ -n "$gl" ] || continue
    log "Query B: PostgreSQL and gpugb, variant $v"
    mkdir -p "$RAW/queryb-$v"
    env "${qbenv[@]}" LOAD=skip VARIANTS=$v GROUP_COUNTS="$gl" OUT="$RAW/queryb-$v" test/bench/queryb.sh >/dev/null
    render
  done
  if [ $HAVE_DUCK = 1 ]; then
    log "Query B: checksums of gpugb's and DuckDB's results"
    rm -f "$RAW/queryb-check.csv"
    python3 test/bench/report.py checksum --db gpugb_bench --duck "$DUCK_DB" --queries "$qf" \
      --out "$RAW/queryb-check.csv" --timeout "$TIMEOUT_S" --deadline "$DEADLINE" --threads "$(nproc)" \
      --gpu-opts "$GPU_OPTS"
  fi
}

times=()
for s in $SECTIONS; do
  if past_deadline; then
    note "section $s skipped: the budget of $BUDGET_S s was spent"
    continue
  fi
  t=$(date +%s)
  log "== section $s"
  rc=0
  ( set -euo pipefail; "section_$s" ) || rc=$?
  [ $rc = 0 ] || note "section $s failed (exit $rc); see the run's log"
  times+=("$s $(( $(date +%s) - t ))")
  meta sections "$(IFS=,; echo "${times[*]}" | sed 's/,/, /g')"
  render
done
meta finished "$(date -u '+%Y-%m-%d %H:%M:%S UTC') (wall time $(( $(date +%s) - T0 )) s)"
render
log "done in $(( $(date +%s) - T0 )) s: $OUT/docs/BENCHMARKS.md"
