#!/usr/bin/env bash
# Session 34, call 1 (about 6 minutes), carrying only the HEAD file:
#   run(command="bash docs/session33-2026-11-29/next/call1.sh", carry=[".gpu-box/HEAD"], timeout_s=600)
# or, saving the box's two-minute build, with the binaries built here at HEAD and carried packed
# (session 33 left .gpu-box/bins.tar.xz built at 91b82ef; rebuild it if the code changed since):
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest
#   run(command="PREBUILT=1 bash docs/session33-2026-11-29/next/call1.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=600)
# The experiment spec.partition_lean_packed (session 33, not yet run on a GPU): PARTITION's lean
# kernel reads the sorted packed rows (8 bytes a row), and the unpack runs only where rows went to
# the retry list. First the whole self-test at HEAD and the partition self-test under
# --partition-packed (every lean launch of int32 keys and inputs must read packed rows), then an
# A/B in one run and the phases at 2^22.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s34-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
if [ -n "${PREBUILT:-}" ]; then
  tar xJf .gpu-box/bins.tar.xz || exit 1
else
  ( make -s -j8 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
  make -s -j8 -C test/kernelbench CUDA_ARCHS=90 all > "$O/kb-build.log" 2>&1; echo "kb build rc=$? at $(( $(date +%s) - T0 )) s"
  wait
fi
for opt in --partition-packed ""; do
  t0=$(date +%s)
  timeout 90 test/bin/device_selftest --require-gpu --quick --strategy partition $opt > "$O/selftest-partition$opt.log" 2>&1
  echo "selftest --strategy partition $opt rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-partition$opt.log")"
  grep -E "^FAIL" "$O/selftest-partition$opt.log" | head -5
  echo "  cases with packed launches: $(grep -c -E 'lean, [1-9][0-9]* packed' "$O/selftest-partition$opt.log")"
done
t0=$(date +%s)
timeout 170 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5
for v in off on; do
  CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 --keys 4 --payloads 0,1 \
    --dists uniform,zipf1.0 --log2-groups 14:22:2 --methods partition --partition-packed $v \
    --csv "$O/packed-$v.csv" --md "$O/packed-$v.md" > "$O/packed-$v.log" 2>&1
  echo "partition-packed $v rc=$?: $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/packed-$v.md")"
done
python3 test/kernelbench/ab_table.py "$O/packed-off.csv" "$O/packed-on.csv" | tee "$O/packed-ab.md" | grep -E "^\|"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 120 ncu --clock-control none -k "regex:gpugb_move_|Onesweep|gpugb_partition_" \
  --section SpeedOfLight -f -o "$O/phases" \
  test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 22 --methods partition --bw-gib 1 \
  --partition-packed on --max-seconds 100 --md /dev/null > "$O/phases.log" 2>&1
echo "ncu phases (packed) rc=$? ($(( $(date +%s) - t0 )) s)"
ncu -i "$O/phases.ncu-rep" --page raw --csv --metrics gpu__time_duration.sum > "$O/phases.csv" 2>> "$O/ncu-page.err"
python3 - "$O/phases.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) > 2:
    h = rows[0]
    k, d = h.index("Kernel Name"), h.index("gpu__time_duration.sum")
    for r in rows[2:]:
        print(f"  {r[k][:70]:70s} {r[d]:>12s} {rows[1][d]}")
PY
rm -f "$O"/*.ncu-rep
gzip -9 "$O"/*.log
cd "$O" && tar czf call1.tgz ./*.gz ./*.csv ./*.md ./*.err 2>/dev/null && rm -f ./*.gz ./*.csv ./*.md ./*.err
echo "total $(( $(date +%s) - T0 )) s"
