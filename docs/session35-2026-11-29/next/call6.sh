#!/usr/bin/env bash
# Session 35, call 6 (about 1.5 minutes): auto's rules for two to four packed sums (heuristics.c:
# LEAN_PARTITION_PACKED_SUMS_MIN_L2_MULTIPLE from 1.6 x L2, and the lean partition before sort's
# wide-states rule under a group of 10 %), set from call 5, against every strategy in one run:
# 4-byte keys, 2-4 payloads, 2^18-2^24 groups, uniform, Zipf 0.5 and 1.0.
#   run(command="bash docs/session35-2026-11-29/next/call6.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s35-call6}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 100 test/bin/kernelbench --bw-gib 1 --max-seconds 90 --keys 4 --payloads 2,3,4 \
  --dists uniform,zipf0.5,zipf1.0 --log2-groups 18:24:2 --methods global_hash,shared_hash,sort,partition,auto \
  --csv "$O/auto-multi.csv" --md "$O/auto-multi.md" > "$O/auto-multi.log" 2>&1
echo "auto, 2-4 sums rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/auto-multi.md")"
sed -n '/^## Targets/,$p' "$O/auto-multi.md" | grep -E "^\| (auto|best)" | head -3
python3 - "$O/auto-multi.csv" <<'PY'
import csv, sys, collections
pts = collections.defaultdict(dict); used = {}
for r in csv.DictReader(open(sys.argv[1])):
    k = (r["payloads"], r["dist"], r["log2_g"])
    pts[k][r["method"]] = float(r["seconds"]) * 1e3
    if r["method"] == "auto":
        used[k] = r["strategy_used"]
for k, m in sorted(pts.items()):
    best = min(v for a, v in m.items() if a not in ("auto", "thrust"))
    print(f"  4B p{k[0]} {k[1]:8s} 2^{k[2]} auto {used.get(k, '?'):12s} {m.get('auto', 0):6.1f} ms, best {best:6.1f} "
          f"({m.get('auto', 0) / best:4.2f}), thrust/auto {m['thrust'] / m.get('auto', 1):4.2f}  "
          + " ".join(f"{a}={v:.1f}" for a, v in m.items() if a != "auto"))
PY
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"
