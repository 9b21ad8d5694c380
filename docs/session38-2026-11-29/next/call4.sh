#!/usr/bin/env bash
# Session 38, call 4 (about 2 minutes): gpugb_table_reserve (the run-time check grows the table to the
# groups it expects) on top of call 3's full-table fixes: the self-test under auto, and
# kernelbench --estimate-scale 1e-5 against 1 (call 3: auto 19.8 s at 2^22 groups planned as 42).
#   (binaries and carry as for call2.sh)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s38-call4}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 90 test/bin/device_selftest --require-gpu --quick --strategy auto > "$O/selftest-auto.log" 2>&1
echo "selftest --strategy auto rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-auto.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-auto.log" | head -8 | cut -c1-400
grep -E "^slowest [1-3]:" "$O/selftest-auto.log"
for scale in 1 1e-5; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 --keys 4,8 --payloads 1 \
    --dists uniform,zipf1.0 --log2-groups 16,22 --methods auto,global_hash,sort --estimate-scale $scale \
    --csv "$O/est-$scale.csv" --md "$O/est-$scale.md" > "$O/est-$scale.log" 2>&1
  echo "estimate x$scale rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/est-$scale.md")"
done
python3 - "$O" <<'PY'
import csv, sys
O = sys.argv[1]
t = {}
for scale in ('1', '1e-5'):
    try:
        for r in csv.DictReader(open(f"{O}/est-{scale}.csv")):
            t[(scale, r['key_bytes'], r['dist'], r['log2_g'], r['method'])] = (float(r['seconds']) * 1e3, r['strategy_used'], r['table_grows'])
    except FileNotFoundError:
        pass
for kb in ('4', '8'):
    for dist in ('uniform', 'zipf1.0'):
        for g in ('16', '22'):
            for m in ('auto', 'global_hash', 'sort', 'thrust'):
                row = [t.get((s, kb, dist, g, m)) for s in ('1', '1e-5')]
                if row[0] is None:
                    continue
                cells = "  ".join(f"x{s}: {v[0]:8.1f} ms ({v[1]}, {v[2]} grows)" if v else f"x{s}: -" for s, v in zip(('1', '1e-5'), row))
                print(f"  {kb}B {dist} 2^{g} {m:12s} {cells}")
PY
grep -E "auto .*pick" "$O/est-1e-5.log" | grep -oE "pick .*groups at the check" | head -8
gzip -9 "$O"/*.log
cd "$O" && tar czf call4.tgz ./*.csv ./*.md ./*.log.gz && rm -f ./*.csv ./*.md ./*.log.gz
echo "total $(( $(date +%s) - T0 )) s"
