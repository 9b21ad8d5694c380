#!/usr/bin/env bash
# Session 35, call 5 (about 5 minutes): PARTITION's lean kernel for two to four integer SUMs over
# packed rows (an int32 key and int32 words), new in this session.  The self-test with PARTITION
# forced (cases 107-109: two sums packed, retries included), then with --partition-unpacked (no
# such move may happen), then whole; the kernel benchmark at 4-byte keys, 1-4 payloads, 2^18-2^24
# groups, against the strategies and Thrust, and forced PARTITION with the lean kernel off (the
# generic kernel over row numbers, what ran before) for the A/B.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest   (after both builds end)
#   run(command="bash docs/session35-2026-11-29/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s35-call5}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 70 test/bin/device_selftest --require-gpu --quick --strategy partition > "$O/selftest-partition.log" 2>&1
echo "selftest --strategy partition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition.log")"
grep -E "^FAIL" "$O/selftest-partition.log" | head -5 | cut -c1-300
grep -E "two narrow sums" "$O/selftest-partition.log" | cut -c1-330
t0=$(date +%s)
timeout 60 test/bin/device_selftest --require-gpu --quick --strategy partition --partition-unpacked --only "narrow sum" \
  > "$O/selftest-partition-unpacked.log" 2>&1
echo "selftest --strategy partition --partition-unpacked --only 'narrow sum' rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition-unpacked.log")"
grep -E "^FAIL" "$O/selftest-partition-unpacked.log" | head -5 | cut -c1-300
t0=$(date +%s)
timeout 200 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5 | cut -c1-300
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 90 test/bin/kernelbench --bw-gib 1 --max-seconds 80 --keys 4 --payloads 1,2,3,4 \
  --dists uniform,zipf0.5,zipf1.0 --log2-groups 18:24:2 --methods global_hash,shared_hash,sort,partition,auto \
  --csv "$O/multi.csv" --md "$O/multi.md" > "$O/multi.log" 2>&1
echo "multi-sum rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/multi.md")"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 50 test/bin/kernelbench --bw-gib 1 --max-seconds 40 --keys 4 --payloads 2,4 \
  --dists uniform,zipf1.0 --log2-groups 18:24:2 --methods partition --partition-lean off \
  --csv "$O/generic.csv" --md "$O/generic.md" > "$O/generic.log" 2>&1
echo "generic partition rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/generic.md")"
python3 - "$O/multi.csv" "$O/generic.csv" <<'PY'
import csv, sys, collections
pts = collections.defaultdict(dict); used = {}
for r in csv.DictReader(open(sys.argv[1])):
    k = (r["payloads"], r["dist"], r["log2_g"])
    pts[k][r["method"]] = float(r["seconds"]) * 1e3
    if r["method"] == "auto":
        used[k] = r["strategy_used"]
for r in csv.DictReader(open(sys.argv[2])):
    if r["method"] == "partition":
        pts[(r["payloads"], r["dist"], r["log2_g"])]["generic"] = float(r["seconds"]) * 1e3
for k, m in sorted(pts.items()):
    best = min(v for a, v in m.items() if a not in ("auto", "thrust", "generic"))
    print(f"  4B p{k[0]} {k[1]:8s} 2^{k[2]} auto {used.get(k, '?'):12s} {m.get('auto', 0):6.1f} ms, best {best:6.1f}, "
          f"thrust/best {m['thrust'] / best:4.2f}  " + " ".join(f"{a}={v:.1f}" for a, v in m.items() if a != "auto"))
PY
grep -E "partition launches" "$O/multi.log" | grep -E "^ +partition" | head -4 | cut -c1-200
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"
