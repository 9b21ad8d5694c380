#!/usr/bin/env bash
# Session 34, call 3 (about 6 minutes), with the binaries built here at HEAD and carried packed:
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest
#   run(command="bash docs/session34-2026-11-29/next/call3.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
# 1. The whole self-test with packed rows the default (12fff07).
# 2. The experiment --partition-lean-rows: PARTITION's lean kernel from 4 rows a key (2^24 and
#    2^26 groups of 2^28 rows), against the heuristic's 32 (the generic kernel there), sort in the
#    same runs; every result verified.
# 3. Nsight Compute's kernel times at 2^24 with the lean kernel there.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s34-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 200 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
echo "  cases with packed launches: $(grep -c -E 'lean, [1-9][0-9]* packed' "$O/selftest.log")"
for r in 0 4; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 130 test/bin/kernelbench --bw-gib 1 --max-seconds 115 --keys 4,8 --payloads 0,1 \
    --dists uniform,zipf1.0 --log2-groups 22:26:2 --methods partition,sort --partition-lean-rows $r \
    --csv "$O/leanrows-$r.csv" --md "$O/leanrows-$r.md" > "$O/leanrows-$r.log" 2>&1
  echo "partition-lean-rows $r rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/leanrows-$r.md")"
done
python3 test/kernelbench/ab_table.py "$O/leanrows-0.csv" "$O/leanrows-4.csv" | tee "$O/leanrows-ab.md" | grep -E "^\|"
python3 - "$O/leanrows-0.csv" "$O/leanrows-4.csv" <<'PY'
import csv, sys
for f in sys.argv[1:]:
    print(f.split("/")[-1])
    for r in csv.DictReader(open(f)):
        if r["method"] in ("partition", "sort", "thrust"):
            print(f"  {r['key_bytes']}B p{r['payloads']} {r['dist']:8s} 2^{r['log2_g']} {r['method']:9s} {float(r['seconds'])*1e3:7.2f} ms")
PY
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 100 ncu --clock-control none -k "regex:gpugb_|Onesweep" \
  --section SpeedOfLight -f -o "$O/phases24" \
  test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 24 --methods partition --bw-gib 1 \
  --partition-lean-rows 4 --max-seconds 80 --md /dev/null > "$O/phases24.log" 2>&1
echo "ncu phases 2^24 lean rc=$? ($(( $(date +%s) - t0 )) s)"
ncu -i "$O/phases24.ncu-rep" --page raw --csv --metrics gpu__time_duration.sum > "$O/phases24.csv" 2>> "$O/ncu-page.err"
python3 - "$O/phases24.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) > 2:
    h = rows[0]
    k, d = h.index("Kernel Name"), h.index("gpu__time_duration.sum")
    for r in rows[2:]:
        if "policy_hub<long" not in r[k]:
            print(f"  {r[k][:70]:70s} {r[d]:>12s} {rows[1][d]}")
PY
rm -f "$O"/*.ncu-rep
gzip -9 "$O"/*.log
cd "$O" && tar czf call3.tgz ./*.gz ./*.csv ./*.md ./*.err 2>/dev/null && rm -f ./*.gz ./*.csv ./*.md ./*.err
echo "total $(( $(date +%s) - T0 )) s"
