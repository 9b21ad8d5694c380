#!/usr/bin/env bash
# Session 40, call 5 (about 5 minutes; the session's last 400 s of device time): the experiment
# spec.sort_slot_order (SORT sorts a launch's rows by their home slots, so run heads look their
# groups up in slot order; call 4's Nsight Compute: gpugb_run_groups_kernel 20.9 of SORT's 49.9 ms
# at 2^26 groups, 4-byte keys, one payload, uniform):
#  1. the self-test's SORT cases with and without it, and auto's with it;
#  2. SORT with and without it at 2^16-2^26 (both key widths and payload counts, uniform and Zipf 1.0);
#  3. Nsight Compute of SORT with it at 2^26, as time allows.
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session40-2026-11-30/next/call5.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"], timeout_s=330)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s40-call5}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( ${BUDGET:-300} - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins.tar.xz || exit 1
st() {	# name, options...
  local name=$1 t0=$(date +%s); shift
  timeout 90 test/bin/device_selftest --require-gpu --quick "$@" > "$O/selftest-$name.log" 2>&1
  echo "selftest $* rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$name.log" | cut -c1-160)"
  grep -E "^cases with SORT" "$O/selftest-$name.log"
  grep -E "^FAIL" "$O/selftest-$name.log" | head -6 | cut -c1-400
}
st sort-slot --strategy sort --sort-slot-order
st sort --strategy sort
for v in off on; do
  [ "$(left)" -gt 60 ] || { echo "kernelbench slot-$v skipped (time)"; continue; }
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout $(( $(left) - 20 )) test/bin/kernelbench --bw-gib 1 --reps 1 --max-seconds $(( $(left) - 30 )) \
    --log2-groups 16:26:2 --dists uniform,zipf1.0 --methods sort --sort-slot-order $v \
    --csv "$O/slot-$v.csv" --md "$O/slot-$v.md" > "$O/slot-$v.log" 2>&1
  echo "kernelbench slot-$v rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/slot-$v.md")"
  grep -c "sorted by home slot" "$O/slot-$v.log" | sed 's/^/  runs sorted by home slot: /'
done
[ -f "$O/slot-on.csv" ] && python3 test/kernelbench/ab_table.py "$O/slot-off.csv" "$O/slot-on.csv" | grep -E "^\|"
[ "$(left)" -gt 40 ] && st auto-slot --strategy auto --sort-slot-order
if [ "$(left)" -gt 25 ]; then
  CUDA_MODULE_LOADING=EAGER timeout $(( $(left) - 5 )) ncu --metrics gpu__time_duration.sum --csv \
    test/bin/kernelbench --keys 4 --payloads 1 --dists uniform --log2-groups 26 --methods sort --reps 1 \
    --bw-gib 1 --max-seconds 60 --md /dev/null --sort-slot-order on > "$O/ncu-sort-slot-g26.csv" 2> "$O/ncu-sort-slot-g26.err"
  echo "== ncu sort (slot order) 2^26 rc=$?"
  python3 test/kernelbench/ncu_phases.py "$O/ncu-sort-slot-g26.csv"
fi
gzip -9 "$O"/*.log "$O"/*.err "$O"/ncu-*.csv 2>/dev/null
cd "$O" && tar czf s40-call5.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md ./*.csv
echo "total $(( $(date +%s) - T0 )) s"
