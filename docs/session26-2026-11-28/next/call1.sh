#!/usr/bin/env bash
# Session 27, call 1 (about 9 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session26-2026-11-28/next/call1.sh", carry=[".gpu-box"], timeout_s=600)
# Checks what session 26 landed after its last GPU call (docs/session26-2026-11-28/README.md,
# section 6): the lean self-test cases (70: deferred rows retried after growth; 71-72: rows in
# key order), the kernel A/B of 0a217f1's warp combine of deferred rows against a8acb6f's
# per-lane adds (the measured ones), pg_regress in gpu mode (strategy.sql's 10 % / 3 % plans),
# then the kernel benchmark grid in what is left (the full grid, 230 s, needs a second call).
# Before the call, on the development machine (.gpu-box is git-ignored):
#   ../shared/gpu-box/fetch-debs.sh && mkdir -p .gpu-box/scripts && cp ../shared/gpu-box/*.sh .gpu-box/scripts/
#   bash test/gpu-box-branch-trees.sh other-perlane=a8acb6f &&
#     git archive HEAD test/kernelbench | tar -x -C .gpu-box/other-perlane   # its --clustered option
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call1}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
( make -s -j16 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j16 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
[ -f .gpu-box/other-perlane/Makefile ] &&
  ( make -s -j16 -C .gpu-box/other-perlane/test/kernelbench CUDA_ARCHS=90 > "$O/kb-build-perlane.log" 2>&1
    echo "kb build perlane rc=$?" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 120 test/bin/device_selftest --require-gpu --quick --only "lean" > "$O/selftest.log" 2>&1
echo "selftest --only lean rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5; grep -E "estimate 20000" "$O/selftest.log" | cut -c1-220
if [ -x .gpu-box/other-perlane/test/bin/kernelbench ]; then
  for round in 1 2; do
    for tree in . .gpu-box/other-perlane; do
      side=$([ "$tree" = . ] && echo base || echo perlane)
      CUDA_MODULE_LOADING=EAGER timeout 60 $tree/test/bin/kernelbench --keys 4 --payloads 1,4 \
        --dists uniform,zipf1.0,zipf1.5 --log2-groups 12:20:2 --methods shared_hash,auto --bw-gib 1 \
        --csv "$O/ab-$side-$round.csv" --md "$O/ab-$side-$round.md" > "$O/ab-$side-$round.log" 2>&1
      echo "kernelbench $side $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/ab-$side-$round.md")"
    done
  done
  python3 test/kernelbench/ab_table.py "$O/ab-base-1.csv" "$O/ab-perlane-1.csv" "$O/ab-base-2.csv" \
    "$O/ab-perlane-2.csv" | tee "$O/ab-median.md" | tail -32
  # Rows in key order (--clustered on): where per-lane adds meet one address 32 times a warp.
  for tree in . .gpu-box/other-perlane; do
    side=$([ "$tree" = . ] && echo base || echo perlane)
    CUDA_MODULE_LOADING=EAGER timeout 60 $tree/test/bin/kernelbench --clustered on --keys 4 \
      --payloads 1,4 --dists zipf1.0,zipf1.5 --log2-groups 12:20:4 --methods shared_hash,auto \
      --bw-gib 1 --csv "$O/cl-$side.csv" --md "$O/cl-$side.md" > "$O/cl-$side.log" 2>&1
    echo "kernelbench --clustered on $side rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/cl-$side.md")"
  done
  python3 test/kernelbench/ab_table.py "$O/cl-base.csv" "$O/cl-perlane.csv" | tee "$O/cl-ab.md" | tail -14
else
  echo "no .gpu-box/other-perlane: no A/B (bash test/gpu-box-branch-trees.sh other-perlane=a8acb6f)"
fi
t0=$(date +%s)
OUT="$O/regress" timeout 200 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
echo "left $(left) s"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --reps 1 --max-seconds $(( $(left) - 15 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
cd "$O" && tar czf call1.tgz ./*.log ./*.csv ./*.md regress 2>/dev/null && rm -rf ./*.log ./*.csv regress
echo "total $(( $(date +%s) - T0 )) s"
