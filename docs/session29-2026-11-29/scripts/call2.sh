#!/usr/bin/env bash
# Session 29, call 2 (about 7 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session29-2026-11-29/scripts/call2.sh", carry=[".gpu-box"], timeout_s=600)
# f1a738c made the one-block partial lean table the plan: the whole self-test (cases 64-79
# check it), the full kernel benchmark grid, and forced shared_hash against global_hash at the
# odd powers 2^13 and 2^15 (does auto's "at most twice the slots" rule want the one-block
# table's slots?).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 180 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 --keys 4 --payloads 1,4 \
  --dists uniform,zipf0.5,zipf1.0 --log2-groups 13:15:2 --methods shared_hash,global_hash,auto \
  --csv "$O/odd.csv" --md "$O/odd.md" > "$O/odd.log" 2>&1
echo "odd powers rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/odd.md")"
python3 - "$O/odd.csv" <<'PY'
import csv, sys, collections
t = collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    t[(r['payloads'], r['dist'], r['log2_g'])][r['method']] = (float(r['seconds']) * 1e3, r['strategy_used'])
for k in sorted(t):
    print(' '.join(k), ' '.join('%s %.2f%s' % (m, v[0], '(' + v[1] + ')' if m == 'auto' else '') for m, v in sorted(t[k].items())))
PY
left=$(( 575 - ($(date +%s) - T0) ))
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout $(( left - 5 )) test/bin/kernelbench --reps 1 --max-seconds $(( left - 20 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
sed -n '/^Missed: auto within 20/,/^Missed: best/p' "$O/grid.md" | grep "^- "
echo "runs with the one-block partial table: $(grep -c 'one-block partial lean table' "$O/grid.log")"
cd "$O" && tar czf call2.tgz ./*.log ./*.csv ./*.md 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"
