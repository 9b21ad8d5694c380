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
