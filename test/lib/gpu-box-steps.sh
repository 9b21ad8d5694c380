#!/usr/bin/env bash
# test/lib/gpu-box-steps.sh — the steps the GPU-box jobs (test/gpu-box-*-job.sh) share.
# Source it from a job, which test/gpu-box-job.sh runs with OUT set; every step writes its
# logs under OUT and prints one summary line (what a closing note quotes).
#
#   source "$(dirname "$0")/lib/gpu-box-steps.sh"; job_start
#   step_regress; step_qgen; step_selftest --quick; step_strategy sort
#   step_kb_ab 8 110     # kernel benchmark, --keyed-slots on against off
#   job_done

# cd to the repository root, CUDA on PATH, and say which commit runs.
job_start() {
  cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
  export PATH=/usr/local/cuda/bin:$PATH
  echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null)"
}

job_done() { touch "$OUT/job.done"; }

# BRANCH_TREES: the absolute paths of the trees named in OTHERS (test/gpu-box-branch-trees.sh
# made them), each given this tree's .gpu-box (its test/gpu-box.sh looks for the packages
# there); returns 1 when one is missing.
branch_trees() {
  local o
  BRANCH_TREES=()
  for o in ${OTHERS:-}; do
    [ -f "$o/Makefile" ] || { echo "no $o: run test/gpu-box-branch-trees.sh"; return 1; }
    echo "branch $(basename "$o"): $(cat "$o/HEAD" 2>/dev/null)"
    ln -sfn "$PWD/.gpu-box" "$o/.gpu-box"
    BRANCH_TREES+=("$PWD/$o")
  done
}

# The kernel benchmark built in each tree given (its test/bin/kernelbench).
build_kernelbench() {
  local tree
  for tree in "$@"; do
    make -s -j"$(nproc)" -C "$tree/test/kernelbench" CUDA_ARCHS=90 \
      > "$OUT/kb-build-$(basename "$tree").log" 2>&1 || echo "kernelbench build failed in $tree"
  done
}

# kb_ab_rounds ROUNDS SECONDS "KB ARGS" TREE...: ROUNDS rounds of the kernel benchmark in every
# tree in turn (the first is the base, this tree: $PWD), SECONDS each, then per other tree the
# median time ratio base/tree of every point (test/kernelbench/ab_table.py; above 1: the tree is
# faster) in $OUT/ab-median-NAME.md.
kb_ab_rounds() {
  local rounds=$1 seconds=$2 args=$3 i tree side t0 pairs
  shift 3
  for ((i = 1; i <= rounds; i++)); do
    for tree in "$@"; do
      if [ "$tree" = "$PWD" ]; then side=base; else side=$(basename "$tree"); fi
      t0=$(date +%s)
      # shellcheck disable=SC2086
      CUDA_MODULE_LOADING=EAGER "$tree/test/bin/kernelbench" $args --max-seconds "$seconds" \
        --csv "$OUT/kb-$side-$i.csv" --md "$OUT/kb-$side-$i.md" > "$OUT/kb-$side-$i.log" 2>&1
      echo "kernelbench $side $i rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'verified' "$OUT/kb-$side-$i.md")"
    done
  done
  shift
  for tree in "$@"; do
    side=$(basename "$tree") pairs=()
    for ((i = 1; i <= rounds; i++)); do pairs+=("$OUT/kb-base-$i.csv" "$OUT/kb-$side-$i.csv"); done
    python3 test/kernelbench/ab_table.py "${pairs[@]}" | tee "$OUT/ab-median-$side.md"
  done
}

# pg_regress in gpu mode.
step_regress() {
  local t0; t0=$(date +%s)
  OUT=$OUT/regress bash test/gpu-box.sh regress > "$OUT/regress.log" 2>&1
  echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$OUT/regress.log" | tail -1)"
}

# QGEN_QUERIES (1000) qgen queries in auto mode.
step_qgen() {
  local t0; t0=$(date +%s)
  QGEN_QUERIES=${QGEN_QUERIES:-1000} OUT=$OUT/qgen bash test/gpu-box.sh qgen > "$OUT/qgen.log" 2>&1
  echo "qgen rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'all streams' "$OUT/qgen.log" | tail -1)"
}

# The device self-test with these arguments (--quick, --only TEXT...); returns its status.
step_selftest() {
  local t0 rc; t0=$(date +%s)
  make -s -C test/device CUDA_ARCHS=90 > "$OUT/selftest-build.log" 2>&1 &&
    test/bin/device_selftest --require-gpu "$@" > "$OUT/selftest.log" 2>&1
  rc=$?
  echo "device self-test $* rc=$rc ($(( $(date +%s) - t0 )) s): $(tail -1 "$OUT/selftest.log")"
  grep '^FAIL' "$OUT/selftest.log" | head -5
  return $rc
}

# One strategy forced through the pgTAP suites and QGEN_STRATEGY_QUERIES (500) qgen queries
# (test/gpu-box.sh strategies); a failure prints the failed tests and does not stop the job.
step_strategy() {
  local s=$1 t0; t0=$(date +%s)
  STRATEGIES=$s QGEN_STRATEGY_QUERIES=${QGEN_STRATEGY_QUERIES:-500} OUT=$OUT/strategies \
    bash test/gpu-box.sh strategies > "$OUT/strategies-$s.log" 2>&1
  echo "strategy $s rc=$? ($(( $(date +%s) - t0 )) s):" \
    $(grep -E '^Result|queries checked, .* with the GPU|all streams' "$OUT/strategies-$s.log")
  grep -E '^not ok|Failed test' "$OUT/strategies/pgtap-$s.log" 2>/dev/null | head -5
}

# The kernel benchmark on KEY_BYTES-byte keys with --keyed-slots on, then off (same run, same
# data), global_hash, sort and auto, SECONDS each; then the table of off/on time ratios.
step_kb_ab() {
  local key_bytes=$1 seconds=$2 keyed t0
  make -s -j"$(nproc)" -C test/kernelbench CUDA_ARCHS=90 > "$OUT/kb-build.log" 2>&1 ||
    { echo "kernelbench build failed"; return 1; }
  for keyed in on off; do
    t0=$(date +%s)
    CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --keys "$key_bytes" --payloads 1,4 \
      --dists uniform,zipf1.0 --log2-groups 8:24:2 --methods global_hash,sort,auto \
      --keyed-slots "$keyed" --max-seconds "$seconds" \
      --csv "$OUT/kb-$key_bytes-$keyed.csv" --md "$OUT/kb-$key_bytes-$keyed.md" \
      > "$OUT/kb-$key_bytes-$keyed.log" 2>&1
    echo "kernelbench --keys $key_bytes --keyed-slots $keyed rc=$? ($(( $(date +%s) - t0 )) s):" \
      "$(grep -E 'verified' "$OUT/kb-$key_bytes-$keyed.md")"
  done
  python3 test/kernelbench/ab_table.py "$OUT/kb-$key_bytes-off.csv" "$OUT/kb-$key_bytes-on.csv"
}

# --- Calls that run binaries built on the development machine, where device time is short (sessions
# 41-49 wrote these steps into each call script: docs/session49-2026-11-30/next/call2.sh is one).
# On the development machine, for each variant NAME (a git worktree per compile-time experiment):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/NAME [KB_DEFINES=-D...]
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/NAME [DEVICE_DEFINES=-D...]
#   tar cJf .gpu-box/bins-NAME.tar.xz test/bin/NAME/kernelbench test/bin/NAME/device_selftest
#   git rev-parse HEAD > .gpu-box/HEAD
# The call script, run with the device tool's carry [".gpu-box/HEAD", ".gpu-box/bins-NAME.tar.xz"]
# (and ".gpu-box/debs", ".gpu-box/scripts" for step_strategy):
#   source test/lib/gpu-box-steps.sh; call_start 570 .gpu-box/bins-NAME.tar.xz
#   prebuilt_selftest partition NAME 150 --quick --strategy partition
#   prebuilt_kb base NAME 100 --methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 18:26:2
#   prebuilt_kb exp NAME 100 ... --some-option off; ab_ratios base exp
#   ncu_in_order p24 NAME --keys 4 --payloads 1 --dists uniform --methods partition --log2-groups 24
#   [ "$(call_left)" -gt 150 ] && step_strategy partition
#   call_pack s50-call1
# A call that carries the debs builds the extension while its self-tests run, then pgTAP and qgen:
#   ext_build_start; prebuilt_selftest ...; ext_build_wait; pgtap_strategies partition auto

# call_start SECONDS TARBALL...: job_start, OUT (or /tmp/gpugb-call), the call's clock (call_left
# counts down from SECONDS) and the binaries unpacked.
call_start() {
  CALL_SECONDS=$1 CALL_T0=$(date +%s)
  shift
  job_start
  export OUT=${OUT:-/tmp/gpugb-call}
  mkdir -p "$OUT"
  local t
  for t in "$@"; do tar xJf "$t" || { echo "cannot unpack $t"; exit 1; }; done
}

call_left() { echo $(( CALL_SECONDS - ($(date +%s) - CALL_T0) )); }

# prebuilt_selftest NAME BIN LIMIT ARGS...: test/bin/BIN/device_selftest with ARGS, stopped after
# LIMIT seconds; its summary, its first failures and its "cases with" counts.
prebuilt_selftest() {
  local name=$1 bin=$2 limit=$3 t0 rc; t0=$(date +%s)
  shift 3
  timeout "$limit" "test/bin/$bin/device_selftest" --require-gpu "$@" > "$OUT/selftest-$name.log" 2>&1
  rc=$?
  echo "selftest $name ($bin $*) rc=$rc ($(( $(date +%s) - t0 )) s): $(tail -1 "$OUT/selftest-$name.log" | cut -c1-160)"
  grep -E '^FAIL' "$OUT/selftest-$name.log" | head -8 | cut -c1-300
  grep -E '^cases with' "$OUT/selftest-$name.log"
  return $rc
}

# prebuilt_kb NAME BIN LIMIT ARGS...: test/bin/BIN/kernelbench, 3 reps (unless ARGS say otherwise),
# stopped after LIMIT seconds, into $OUT/NAME.{csv,md,log}; its verified line.
prebuilt_kb() {
  local name=$1 bin=$2 limit=$3 t0; t0=$(date +%s)
  shift 3
  CUDA_MODULE_LOADING=EAGER timeout "$limit" "test/bin/$bin/kernelbench" --bw-gib 1 --reps 3 \
    --max-seconds $(( limit > 20 ? limit - 10 : limit )) --csv "$OUT/$name.csv" --md "$OUT/$name.md" "$@" \
    > "$OUT/$name.log" 2>&1
  echo "kernelbench $name ($bin) rc=$? ($(( $(date +%s) - t0 )) s):" \
    "$(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$OUT/$name.md" 2>/dev/null)"
}

# ab_ratios A B: the table of time(A)/time(B) per point of two prebuilt_kb runs (above 1: B is faster).
ab_ratios() {
  echo "== $1 -> $2 (time($1)/time($2): >1 means $2 is faster)"
  python3 test/kernelbench/ab_table.py "$OUT/$1.csv" "$OUT/$2.csv" | grep -E '^\|'
}

# ncu_in_order NAME BIN ARGS...: each gpugb and CUB kernel of one kernel-benchmark run (ARGS: one
# point, one method) timed by Nsight Compute, in launch order (test/kernelbench/ncu_phases.py).
ncu_in_order() {
  local name=$1 bin=$2 t0; t0=$(date +%s)
  shift 2
  CUDA_MODULE_LOADING=EAGER timeout 60 ncu --metrics gpu__time_duration.sum --csv \
    -k "regex:gpugb|Radix|Onesweep|Histogram|Scan|Partition" \
    "test/bin/$bin/kernelbench" --reps 1 --bw-gib 1 --max-seconds 50 --md /dev/null "$@" \
    > "$OUT/ncu-$name.csv" 2> "$OUT/ncu-$name.err"
  echo "== ncu in order, $name, rc=$? ($(( $(date +%s) - t0 )) s)"
  python3 test/kernelbench/ncu_phases.py --in-order "$OUT/ncu-$name.csv" | tail -14
}

# ext_build_start: PostgreSQL started from .gpu-box/debs and the extension built and installed there, in the
# background (EXT_BUILD_PID; ext_build_wait prints its line): session 53's call 4, as a step.
ext_build_start() {
  ( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
    make -s -j10 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$OUT/ext-build.log" 2>&1
    echo "ext build rc=$? ($(( $(date +%s) - CALL_T0 )) s)" > "$OUT/ext-build.rc" ) &
  EXT_BUILD_PID=$!
}
ext_build_wait() { wait "$EXT_BUILD_PID"; cat "$OUT/ext-build.rc"; }

# pgtap_strategies S...: pgTAP and 150 qgen queries through PostgreSQL with each strategy S forced (auto:
# the planner's), while the call has 125 s left for one (after ext_build_wait); their summary lines.
pgtap_strategies() {
  local s t0
  for s in "$@"; do
    [ "$(call_left)" -gt 125 ] || { echo "pgTAP $s skipped (time: $(call_left) s left)"; continue; }
    t0=$(date +%s)
    STRATEGIES=$s QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$OUT/$s" \
      timeout -k 5 $(( $(call_left) - 12 )) bash test/gpu-box.sh strategies > "$OUT/pg-$s.log" 2>&1
    echo "pgTAP and qgen $s rc=$? ($(( $(date +%s) - t0 )) s):"
    grep -E "^Result|queries checked|^not ok" "$OUT/pg-$s.log" | tail -10
  done
}

# call_pack NAME: everything under $OUT in one $OUT/NAME.tgz, the rest removed: the device tool
# brings back at most 8 files (session 49's call 1 lost its tarball to that).
call_pack() {
  local name=$1
  (cd "$OUT" && find . -mindepth 1 -maxdepth 1 ! -name "$name.tgz" -print0 | xargs -0 -r tar czf "$name.tgz" &&
    find . -mindepth 1 -maxdepth 1 ! -name "$name.tgz" -exec rm -rf {} +)
  echo "total $(( $(date +%s) - CALL_T0 )) s; $OUT/$name.tgz"
}
