#!/usr/bin/env bash
# Session 35, call 2: why auto, which takes PARTITION after its run-time check, is 1.2-1.5x slower
# than forced PARTITION at 2^24 groups with one payload (call 1: 26.8 ms against 17.8, 4-byte keys,
# uniform).  The kernel benchmark's log now names the PARTITION launches (moved, lean, packed) and
# the groups at the check; three repetitions tell noise from cost; ncu lists auto's kernels.
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest
#   run(command="bash docs/session35-2026-11-29/next/call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s35-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 80 test/bin/kernelbench --bw-gib 1 --reps 3 --max-seconds 70 --keys 4,8 --payloads 0,1 \
  --dists uniform,zipf0.5 --log2-groups 22:24:2 --methods partition,auto \
  --csv "$O/diag.csv" --md "$O/diag.md" > "$O/diag.log" 2>&1
echo "diag rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/diag.md")"
grep -E "payload|partition |auto " "$O/diag.log" | grep -v "^kernelbench" | cut -c1-260
for m in auto partition; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 100 ncu --clock-control none -k "regex:gpugb_|Onesweep|DeviceRadix|Scan" \
    --metrics gpu__time_duration.sum --csv \
    test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 24 --methods $m --bw-gib 1 \
    --max-seconds 80 --md /dev/null > "$O/ncu-$m.csv" 2> "$O/ncu-$m.err"
  echo "ncu $m rc=$? ($(( $(date +%s) - t0 )) s)"
  python3 - "$O/ncu-$m.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; n, mi, v, u = h.index("Kernel Name"), h.index("Metric Name"), h.index("Metric Value"), h.index("Metric Unit")
sc = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1, "msecond": 1}
for r in rows[1:]:
    if r[mi] == "gpu__time_duration.sum":
        print(f"  {r[n].split('(')[0][:90]:90s} {float(r[v].replace(',', '')) * sc[r[u]]:9.3f} ms")
PY
done
gzip -9 "$O"/*.log "$O"/*.csv "$O"/*.err
cd "$O" && tar czf call2.tgz ./*.gz ./*.md 2>/dev/null && rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"
