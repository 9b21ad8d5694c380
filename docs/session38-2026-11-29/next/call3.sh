#!/usr/bin/env bash
# Session 38, call 3 (about 5 minutes): the full-table fixes of HEAD (cuda/hash_table.cuh: a claim reads
# the group counter before it locks a slot; cuda/key_cache.cuh: a cache whose lookup found no id left
# takes no more keys). Call 2 measured auto at 34 s with 2^22 groups planned as 42 over 2^28 rows.
#  - the whole self-test (every strategy's table path changed);
#  - kernelbench --estimate-scale 1e-5 against 1 at 2^10, 2^16 and 2^22 groups.
#   (binaries and carry as for call2.sh)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s38-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 300 test/bin/device_selftest --require-gpu --quick > "$O/selftest-all.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
echo "  $(grep -c '^ok' "$O/selftest-all.log") ok, $(grep -c '^FAIL' "$O/selftest-all.log") FAIL; $(grep -E '^cases with scattered' "$O/selftest-all.log")"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-400
grep -E "^slowest [1-5]:" "$O/selftest-all.log"
for scale in 1 1e-5; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 70 test/bin/kernelbench --bw-gib 1 --max-seconds 60 --keys 4 --payloads 1 \
    --dists uniform,zipf1.0 --log2-groups 10,16,22 --estimate-scale $scale \
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
            t[(scale, r['dist'], r['log2_g'], r['method'])] = (float(r['seconds']) * 1e3, r['strategy_used'])
    except FileNotFoundError:
        pass
for dist in ('uniform', 'zipf1.0'):
    for g in ('10', '16', '22'):
        for m in ('auto', 'private_hash', 'shared_hash', 'global_hash', 'sort', 'partition', 'thrust'):
            row = [t.get((s, dist, g, m)) for s in ('1', '1e-5')]
            if row[0] is None:
                continue
            cells = "  ".join(f"x{s}: {v[0]:8.1f} ms ({v[1]})" if v else f"x{s}: -" for s, v in zip(('1', '1e-5'), row))
            print(f"  {dist} 2^{g} {m:12s} {cells}")
PY
grep -E "auto .*pick" "$O/est-1e-5.log" | grep -oE "pick .*groups at the check" | head -8
gzip -9 "$O"/*.log
cd "$O" && tar czf call3.tgz ./*.csv ./*.md ./*.log.gz && rm -f ./*.csv ./*.md ./*.log.gz
echo "total $(( $(date +%s) - T0 )) s"
