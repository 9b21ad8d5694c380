#!/usr/bin/env bash
# Session 31, call 2 (about 7 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session31-2026-11-29/scripts/call2.sh", carry=[".gpu-box"], timeout_s=600)
# PARTITION with its rows moved by the sort (cuda/partition_move.cu, never run on a GPU before):
#  - the whole self-test: forced PARTITION must move the rows of every one-key case without NULLs
#    (the self-test fails a case that did not), cases 94-97 move 4-byte words and retry;
#  - the kernel benchmark at 2^14-2^26 groups: partition, sort, auto and Thrust in the same run.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s31-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 200 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -8
grep -E "^ok +\[partition\] partition moved" "$O/selftest.log" | cut -c1-230
echo "partition cases with moved launches: $(grep -c '^ok   \[partition\].*moved launches' "$O/selftest.log")"
left=$(( 585 - ($(date +%s) - T0) ))
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout $(( left - 5 )) test/bin/kernelbench --reps 1 --max-seconds $(( left - 25 )) \
  --keys 4,8 --payloads 1,4 --dists uniform,zipf0.5,zipf1.0 --log2-groups 14:26:2 --methods partition,sort,auto \
  --csv "$O/moved.csv" --md "$O/moved.md" > "$O/moved.log" 2>&1
echo "kernelbench rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/moved.md")"
python3 - "$O/moved.csv" <<'PY'
import csv, sys
t = {}
for r in csv.DictReader(open(sys.argv[1])):
    t[(r['key_bytes'], r['payloads'], r['dist'], int(r['log2_g']), r['method'])] = (float(r['seconds']) * 1000, r['verified'], r['strategy_used'])
print("key pay dist g: thrust sort partition auto (ms); thrust/partition")
for k in sorted({k[:4] for k in t}, key=lambda k: (k[0], k[1], k[2], k[3])):
    g = lambda m: t.get(k + (m,), (float('nan'), '', ''))
    th, so, pa, au = g('thrust'), g('sort'), g('partition'), g('auto')
    print(f"{k[0]} {k[1]} {k[2]} 2^{k[3]}: {th[0]:.1f} {so[0]:.1f} {pa[0]:.1f}{'' if pa[1]=='yes' else ' '+pa[1]} {au[0]:.1f}({au[2]}); {th[0]/pa[0]:.2f}x")
PY
cd "$O" && tar czf call2.tgz ./*.log ./*.csv ./*.md 2>/dev/null && rm -f ./*.log ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"
