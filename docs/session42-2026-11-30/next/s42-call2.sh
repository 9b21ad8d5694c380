#!/usr/bin/env bash
# Session 42, call 2 (about 4 minutes): main at 39a63a1 (the packer's direct hash, taken after call 1)
# against the branch s42-wide-scatter, whose gpugb_partition_scatter_pays lets rows wider than 8 bytes
# scatter with two rows of a tile a partition (2^11 partitions in 4096-row tiles), where they took CUB's
# two-pass sort: at 2^22 groups with four payloads, and with 8-byte keys and one payload.  Session 37
# measured that rule at 0.88-0.97x, before the wide scatter ran two blocks an SM (session 41: 1.18-1.28x).
# Binaries (.gpu-box/bins.tar.xz): test/bin/kernelbench-a (main), test/bin/wide/kernelbench (the branch).
#  1. forced PARTITION and auto, main against the branch, 2^20 (control: unchanged) and 2^22, both key
#     widths, one and four payloads, uniform, Zipf 0.5 and 1.0, three reps;
#  2. Nsight Compute of auto and forced PARTITION at 4-byte keys, one payload, uniform, 2^22 (main), every
#     kernel in launch order: what auto's probe launch costs.
#   run(command="bash docs/session42-2026-11-30/next/s42-call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=400)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s42-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 120 "$bin" --bw-gib 1 --max-seconds 110 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
for side in main wide; do
  bin=test/bin/kernelbench-a; [ $side = wide ] && bin=test/bin/wide/kernelbench
  kb $side $bin --reps 3 --log2-groups 20,22 --dists uniform,zipf0.5,zipf1.0 --methods partition,auto
done
awk '/g=2\^22:/ {h=$0} /^    partition / && h {print substr(h, 1, 60) " | " substr($0, 1, 150); h=""}' "$O/wide.log" | head -12
echo "== main -> wide"; python3 test/kernelbench/ab_table.py "$O/main.csv" "$O/wide.csv" | grep -E "^\|"
for m in auto partition; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 90 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb_|DeviceRadixSort|DeviceScan" \
    test/bin/kernelbench-a --keys 4 --payloads 1 --dists uniform --log2-groups 22 --methods $m --reps 1 \
    --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-$m.csv" 2> "$O/ncu-$m.err"
  echo "== ncu $m, 4-byte keys, one payload, uniform, 2^22 rc=$? ($(( $(date +%s) - t0 )) s): kernels in launch order"
  python3 - "$O/ncu-$m.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; n, m, v, u = (h.index(x) for x in ("Kernel Name", "Metric Name", "Metric Value", "Metric Unit"))
sc = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
seq = [(r[n].split("(")[0].split("<")[0].split("::")[-1].strip(), float(r[v].replace(",", "")) * sc[r[u]])
       for r in rows[1:] if r[m] == "gpu__time_duration.sum"]
# every launch in order, runs of one kernel merged (Thrust's sorts are the long DeviceRadixSort runs)
out = []
for k, t in seq:
    if out and out[-1][0] == k:
        out[-1][1] += 1; out[-1][2] += t
    else:
        out.append([k, 1, t])
for k, c, t in out:
    print(f"  {t:8.3f} ms {c:3d}x  {k}")
PY
done
gzip -9 "$O"/*.log "$O"/*.csv "$O"/*.err 2>/dev/null
cd "$O" && tar czf s42-call2.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"
