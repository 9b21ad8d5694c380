#!/usr/bin/env bash
# Session 35, call 1 (about 6 minutes; session 34 had no GPU time left for it), with the binaries
# built here at HEAD and carried packed:
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest
#   git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session34-2026-11-29/next/call5.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
# What session 34 changed after its last GPU run (78cea50, 33b31d2, and later):
#  - the lean partition kernel from 8 rows a key (GPUGB_PARTITION_LEAN_MIN_ROWS_PER_KEY; call 4 ran
#    16), self-test cases 105-106 at about 10 rows a key;
#  - beyond 3x L2, auto takes the lean partition before SHARED_HASH's partial table for a group
#    under 10 % (LEAN_PARTITION_MAX_HOT_SHARE; only 6.3 % and 38 % were measured).
# So: the self-test with PARTITION forced and whole; auto against the strategies it chooses among
# at 2^22-2^24 (0 and 1 payloads, uniform, Zipf 0.5 and 1.0, where call 4's auto missed); and
# Zipf 1.1 and 1.2 at 2^22 (largest group about 12 and 19 %, between the measured 6.3 and 38 %) to place
# LEAN_PARTITION_MAX_HOT_SHARE.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s35-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 70 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log")"
grep -E "^FAIL" "$O/selftest-partition.log" | head -5
grep -E "10 rows a key" "$O/selftest-partition.log" | cut -c1-200
t0=$(date +%s)
timeout 200 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 75 test/bin/kernelbench --bw-gib 1 --max-seconds 65 --keys 4,8 --payloads 0,1 \
  --dists uniform,zipf0.5,zipf1.0 --log2-groups 22:24:2 --methods shared_hash,sort,partition,auto \
  --csv "$O/auto-high.csv" --md "$O/auto-high.md" > "$O/auto-high.log" 2>&1
echo "auto 2^22-2^24 rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/auto-high.md")"
grep -E "^\| (auto|best)" "$O/auto-high.md"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 --keys 4,8 --payloads 1 \
  --dists zipf1.1,zipf1.2 --log2-groups 22 --methods shared_hash,sort,partition,auto \
  --csv "$O/skew-mid.csv" --md "$O/skew-mid.md" > "$O/skew-mid.log" 2>&1
echo "Zipf 1.1-1.2 at 2^22 rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/skew-mid.md")"
python3 - "$O/auto-high.csv" "$O/skew-mid.csv" <<'PY'
import csv, sys, collections
for f in sys.argv[1:]:
    pts = collections.defaultdict(dict); used = {}
    for r in csv.DictReader(open(f)):
        k = (r["key_bytes"], r["payloads"], r["dist"], r["log2_g"])
        pts[k][r["method"]] = float(r["seconds"]) * 1e3
        if r["method"] == "auto":
            used[k] = r["strategy_used"]
    for k, m in sorted(pts.items()):
        best = min(v for a, v in m.items() if a not in ("auto", "thrust"))
        print(f"  {k[0]}B p{k[1]} {k[2]:8s} 2^{k[3]} auto {used.get(k, '?'):12s} {m.get('auto', 0):6.1f} ms, best {best:6.1f}"
              + "  " + " ".join(f"{a}={v:.1f}" for a, v in m.items() if a != "auto"))
PY
gzip -9 "$O"/*.log
cd "$O" && tar czf call1.tgz ./*.gz ./*.csv ./*.md 2>/dev/null && rm -f ./*.gz ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"
