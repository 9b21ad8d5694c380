#!/usr/bin/env bash
# Session 42, call 5 (about 2 minutes): where PARTITION's time goes at 2^24 and 2^26 groups, the farthest
# 3x misses (4-byte keys, one payload, uniform: 17.1 and about 60 ms where Thrust takes 35), next to
# test/kernelbench/partition_bound's design in the same run (session 31: 9.9-11.7 ms at 2^24, 12.9-19.1
# at 2^26). Main at 39a63a1; nothing here lands.
#  1. partition_bound, 2^20-2^26;
#  2. Nsight Compute, every kernel of forced PARTITION in launch order at 2^24 and 2^26, and with the
#     generic kernel (--partition-lean off) at 2^26;
#  3. Nsight Compute sections (speed of light, occupancy, warp states) of the lean kernel at 2^24.
#   run(command="bash docs/session42-2026-11-30/next/s42-call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=300)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s42-call5}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 120 test/bin/partition_bound > "$O/partition_bound.md" 2> "$O/partition_bound.err"
echo "partition_bound rc=$? ($(( $(date +%s) - t0 )) s)"; grep -E "^\| 1 " "$O/partition_bound.md"
seq_py() {
  python3 - "$1" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; n, m, v, u = (h.index(x) for x in ("Kernel Name", "Metric Name", "Metric Value", "Metric Unit"))
sc = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
seq = [(r[n].split("(")[0].split("<")[0].split("::")[-1].strip(), float(r[v].replace(",", "")) * sc[r[u]])
       for r in rows[1:] if r[m] == "gpu__time_duration.sum"]
out = []
for k, t in seq:
    if out and out[-1][0] == k:
        out[-1][1] += 1; out[-1][2] += t
    else:
        out.append([k, 1, t])
for k, c, t in out:
    print(f"  {t:8.3f} ms {c:3d}x  {k}")
PY
}
for g in 24 26 26g; do
  extra=""; [ $g = 26g ] && extra="--partition-lean off"
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 90 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb_|DeviceRadixSort|DeviceScan" \
    test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups ${g%g} --methods partition --reps 1 $extra \
    --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-partition-$g.csv" 2> "$O/ncu-partition-$g.err"
  echo "== ncu forced PARTITION 2^$g $extra rc=$? ($(( $(date +%s) - t0 )) s): kernels in launch order (Thrust's sort first)"
  seq_py "$O/ncu-partition-$g.csv"
done
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 90 ncu -k "regex:gpugb_partition_lean_kernel" -c 1 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
  test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 24 --methods partition --reps 1 \
  --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-lean-24.txt" 2> "$O/ncu-lean-24.err"
echo "== ncu sections, lean kernel 2^24 rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "Duration|DRAM Throughput|Compute \(SM\)|L2 Hit|L1/TEX Hit|Achieved Occupancy|Grid Size|Registers Per|Warp Cycles Per Issued|Avg. Active Threads" "$O/ncu-lean-24.txt"
gzip -9 "$O"/*.csv "$O"/*.err "$O"/*.txt 2>/dev/null
cd "$O" && tar czf s42-call5.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"
