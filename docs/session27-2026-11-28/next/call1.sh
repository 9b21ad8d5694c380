#!/usr/bin/env bash
# Session 28, call 1 (about 9.5 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session27-2026-11-28/next/call1.sh", carry=[".gpu-box"], timeout_s=600)
# Checks what session 27 landed after its last GPU call, and measures its two experiments:
#  - the self-test --quick, every case: ba4c663 (the lean probe only where the run-time check
#    follows; case 73, two strides, no probe; the lean-launch check after the probe), 82d6e77
#    (cases 74-75: the one-block lean table), 103a6c3 (cases 76-77: 512-thread partial blocks);
#  - A/B of spec.lean_one_block (kernelbench --lean-one-block off|on; shared_hash at 2^11-2^13
#    groups, one payload: the one-block table applies at 2^11-2^12, 2^13 is the control);
#  - A/B of spec.lean_partial_threads (--lean-partial-threads 256|512; shared_hash forced, so
#    partial tables from 2^12 groups);
#  - the full kernel benchmark grid in what is left (about 230 s: every point).
# Each A/B runs the same binary twice per round, 2 rounds; ab_table.py gives time(off)/time(on):
# above 1, the experiment is faster.  The log lines marked "(one-block lean table)" prove that
# the one-block runs took it.  Before the call, on the development machine (.gpu-box is
# git-ignored):
#   ../shared/gpu-box/fetch-debs.sh && mkdir -p .gpu-box/scripts && cp ../shared/gpu-box/*.sh .gpu-box/scripts/
#   git rev-parse HEAD > .gpu-box/HEAD
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call1}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 575 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j16 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j16 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 170 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
grep -E "\[(auto|shared_hash)\] lean (partial|one-block)" "$O/selftest.log" | grep -E "7[3-7]|one-block|512|two strides" | cut -c1-170
kb() { CUDA_MODULE_LOADING=EAGER timeout 90 test/bin/kernelbench --bw-gib 1 "$@"; }
t0=$(date +%s)
for round in 1 2; do
  for v in off on; do
    kb --lean-one-block $v --keys 4,8 --payloads 1 --log2-groups 11:13:1 --methods shared_hash \
      --csv "$O/ob-$v-$round.csv" --md "$O/ob-$v-$round.md" > "$O/ob-$v-$round.log" 2>&1
    echo "one-block $v $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/ob-$v-$round.md"), $(grep -c 'one-block lean table' "$O/ob-$v-$round.log") runs took it"
  done
  for v in 256 512; do
    kb --lean-partial-threads $v --keys 4 --payloads 1,4 --dists uniform,zipf1.0,zipf1.5 \
      --log2-groups 12:24:4 --methods shared_hash \
      --csv "$O/pt-$v-$round.csv" --md "$O/pt-$v-$round.md" > "$O/pt-$v-$round.log" 2>&1
    echo "partial threads $v $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/pt-$v-$round.md"), $(grep -c '512-thread partial' "$O/pt-$v-$round.log") runs in 512-thread blocks"
  done
done
echo "A/B took $(( $(date +%s) - t0 )) s"
echo "== one-block: time(off) / time(on), above 1: the one-block table is faster"
python3 test/kernelbench/ab_table.py "$O/ob-off-1.csv" "$O/ob-on-1.csv" "$O/ob-off-2.csv" "$O/ob-on-2.csv" \
  | tee "$O/ob-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
echo "== partial threads: time(256) / time(512), above 1: 512 is faster"
python3 test/kernelbench/ab_table.py "$O/pt-256-1.csv" "$O/pt-512-1.csv" "$O/pt-256-2.csv" "$O/pt-512-2.csv" \
  | tee "$O/pt-ab.md" | grep -E "^\|" | cut -d'|' -f2-7
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --reps 1 --max-seconds $(( $(left) - 15 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
cd "$O" && tar czf call1.tgz ./*.log ./*.csv ./*.md 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"
