#!/usr/bin/env bash
# Session 27, call 2: the lean probe (skew unknown: GLOBAL_HASH's probe launches take the partial
# lean table) and the hybrid deferred adds (per lane unless a warp's gids repeat), at 0bfbc11.
# Builds three kernel benchmarks: HEAD, .gpu-box/other-main (8a9c40f, session 26's landing) and
# .gpu-box/other-perlane (a8acb6f, per-lane adds); the self-test --only lean; the A/B of the three
# (3 rounds, rows in random order) and rows in key order; pg_regress in gpu mode; pgTAP and qgen
# with auto in what is left.
#   bash test/gpu-box-branch-trees.sh other-main=8a9c40f other-perlane=a8acb6f, then HEAD's
#   test/kernelbench over each; run(command="bash docs/session27-2026-11-28/scripts/call2.sh",
#   carry=[".gpu-box"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call2}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 580 - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
( make -s -j16 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j16 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
for t in main perlane; do
  ( make -s -j16 -C .gpu-box/other-$t/test/kernelbench CUDA_ARCHS=90 > "$O/kb-build-$t.log" 2>&1
    echo "kb build $t rc=$?" ) &
done
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 120 test/bin/device_selftest --require-gpu --quick --only "lean" > "$O/selftest.log" 2>&1
echo "selftest --only lean rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5; grep -E "\[auto\] lean partial" "$O/selftest.log" | cut -c1-200
t0=$(date +%s)
for round in 1 2 3; do
  for side in head main perlane; do
    tree=$([ $side = head ] && echo . || echo .gpu-box/other-$side)
    CUDA_MODULE_LOADING=EAGER timeout 60 $tree/test/bin/kernelbench --keys 4 --payloads 1,4 \
      --dists uniform,zipf0.5,zipf1.0,zipf1.5 --log2-groups 10:26:2 --methods shared_hash,auto \
      --bw-gib 1 --csv "$O/ab-$side-$round.csv" --md "$O/ab-$side-$round.md" > "$O/ab-$side-$round.log" 2>&1
    echo "kernelbench $side $round rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/ab-$side-$round.md")"
  done
done
echo "A/B took $(( $(date +%s) - t0 )) s"
for other in main perlane; do
  python3 test/kernelbench/ab_table.py "$O/ab-$other-1.csv" "$O/ab-head-1.csv" "$O/ab-$other-2.csv" \
    "$O/ab-head-2.csv" "$O/ab-$other-3.csv" "$O/ab-head-3.csv" > "$O/ab-$other-vs-head.md"
done
echo "== median time ratios, above 1: head faster. P dist g | auto main/head | shared main/head | shared perlane/head | thrust main/head"
python3 - "$O/ab-main-vs-head.md" "$O/ab-perlane-vs-head.md" <<'PY'
import sys
def rows(f):
    out = {}
    for l in open(f):
        c = [x.strip() for x in l.split('|')[1:-1]]
        if len(c) >= 7 and c[0] in ('4', '8'):
            out[(c[1], c[2], c[3])] = [x.split(' ')[0] for x in c[4:7]]
    return out
m, p = rows(sys.argv[1]), rows(sys.argv[2])
for k in m:
    print(*k, '|', m[k][0], '|', m[k][1], '|', p.get(k, ['-'] * 3)[1], '|', m[k][2])
PY
for side in head main perlane; do
  tree=$([ $side = head ] && echo . || echo .gpu-box/other-$side)
  CUDA_MODULE_LOADING=EAGER timeout 60 $tree/test/bin/kernelbench --clustered on --keys 4 \
    --payloads 1,4 --dists zipf1.0,zipf1.5 --log2-groups 12:20:4 --methods shared_hash,auto \
    --bw-gib 1 --csv "$O/cl-$side.csv" --md "$O/cl-$side.md" > "$O/cl-$side.log" 2>&1
  echo "kernelbench --clustered on $side rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH' "$O/cl-$side.md")"
done
for other in main perlane; do
  echo "== clustered: time of $other / time of head"
  python3 test/kernelbench/ab_table.py "$O/cl-$other.csv" "$O/cl-head.csv" | tee "$O/cl-$other-vs-head.md" | grep -E "^\|" | tail -12
done
t0=$(date +%s)
OUT="$O/regress" timeout 200 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
echo "left $(left) s"
if [ "$(left)" -gt 90 ]; then
  t0=$(date +%s)
  STRATEGIES=auto QGEN_STRATEGY_QUERIES=200 OUT="$O/strategies" timeout $(( $(left) - 20 )) \
    bash test/gpu-box.sh strategies > "$O/strategies.log" 2>&1
  echo "strategies auto rc=$? ($(( $(date +%s) - t0 )) s):"; grep -E '^Result|queries checked' "$O/strategies.log" | tail -3
  grep -E '^not ok|Failed test' "$O"/strategies/pgtap-*.log 2>/dev/null | head -5
fi
cd "$O" && tar czf call2.tgz ./*.log ./*.csv ./*.md strategies regress 2>/dev/null &&
  rm -rf ./*.log ./*.csv ./ab-*.md ./cl-*.md strategies regress
echo "total $(( $(date +%s) - T0 )) s"
