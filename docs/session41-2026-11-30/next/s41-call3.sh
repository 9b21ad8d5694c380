#!/usr/bin/env bash
# Session 41, call 3 (about 2 minutes): why PARTITION's scatter moves rows at 0.6-0.7 TB/s
# (call 2: 4-byte keys, one payload, 2^22 groups, gpugb_scatter_rows_kernel 6.2 ms and
# gpugb_scatter_count_kernel 1.9 ms a launch; four payloads at 2^20, 18.6 and 2.0 ms).
# Nsight Compute's full set on the first launch's count and scatter kernels at both points.
#   run(command="bash docs/session41-2026-11-30/next/s41-call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=300)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s41-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
for spec in "4 1 uniform 22" "4 4 uniform 20"; do
  set -- $spec
  name=k$1-p$2-$3-g$4 t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 120 ncu --set full -k "regex:gpugb_scatter_(count|rows)" -c 2 -o "$O/ncu-$name" \
    test/bin/kernelbench --keys $1 --payloads $2 --dists $3 --log2-groups $4 --methods partition --reps 1 \
    --bw-gib 1 --max-seconds 60 --md /dev/null > "$O/ncu-$name.log" 2>&1
  echo "== ncu full $name rc=$? ($(( $(date +%s) - t0 )) s)"
  ncu --import "$O/ncu-$name.ncu-rep" --page details > "$O/ncu-$name.txt" 2>&1
  grep -E "^  [a-z_]+.*gpugb_scatter|Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Shared Memory Configuration Size|Dynamic Shared|L2 Hit Rate|L1/TEX Hit|Warp Cycles Per Issued|Issue Slots Busy|Compute \(SM\) Throughput|Waves Per SM|Mem Busy|Max Bandwidth" "$O/ncu-$name.txt" | head -80
  ncu --import "$O/ncu-$name.ncu-rep" --page raw --csv --metrics smsp__pcsamp_warps_issue_stalled_long_scoreboard,smsp__average_warp_latency_issue_stalled_barrier,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum > "$O/ncu-$name-stalls.csv" 2>&1
  python3 - "$O/ncu-$name-stalls.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
if len(rows) < 3: print(open(sys.argv[1]).read()[:2000]); sys.exit()
head, units = rows[0], rows[1]
for r in rows[2:]:
    name = r[head.index("Kernel Name")][:40]
    print(name, "; ".join(f"{h.replace('smsp__warp_issue_stalled_','stall_').replace('_per_warp_active.pct','%')}={v}{u}" for h, u, v in zip(head, units, r) if h.startswith(("smsp", "lts", "dram"))))
PY
done
cd "$O" && tar czf s41-call3.tgz ./*.txt ./*.csv ./*.log 2>/dev/null; rm -f ./*.txt ./*.csv ./*.log
echo "total $(( $(date +%s) - T0 )) s"
