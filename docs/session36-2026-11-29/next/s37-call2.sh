#!/usr/bin/env bash
# Session 37, call 2 (about 5 minutes): the experiment spec.partition_lazy_scratch (session 36, off by
# default, not run on a GPU): PARTITION allocates the row numbers' permutations and CUB's scratch for
# them only where a launch sorts row numbers. Moved launches need neither: about 4 GB of 21.8 at
# 2^28 rows with one payload. First every partition case with it, then an A/B of time, `alloc` and
# peak memory, then the trace of what it still allocates.
#   (binaries and carry as for s37-call1.sh)
#   run(command="bash docs/session36-2026-11-29/next/s37-call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s37-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
t0=$(date +%s)
timeout 140 test/bin/device_selftest --require-gpu --quick --strategy partition --partition-lazy-scratch \
  > "$O/selftest-lazy.log" 2>&1
echo "selftest --strategy partition --partition-lazy-scratch rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-lazy.log" | cut -c1-160)"
echo "  $(grep -c '^ok' "$O/selftest-lazy.log") ok, $(grep -c '^FAIL' "$O/selftest-lazy.log") FAIL"
grep -E "^FAIL" "$O/selftest-lazy.log" | head -5 | cut -c1-300
if grep -q "^FAIL" "$O/selftest-lazy.log"; then gzip -9 "$O"/*.log; exit 1; fi
for l in off on; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 test/bin/kernelbench --bw-gib 1 --max-seconds 50 --keys 4,8 --payloads 1,4 \
    --dists uniform --log2-groups 20:24:2 --methods partition,auto --partition-lazy-scratch $l --alloc-trace on \
    --csv "$O/lazy-$l.csv" --md "$O/lazy-$l.md" > "$O/lazy-$l.log" 2>&1
  echo "lazy scratch $l rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/lazy-$l.md")"
done
python3 test/kernelbench/ab_table.py "$O/lazy-off.csv" "$O/lazy-on.csv" | grep -E "^\|"
python3 - "$O/lazy-off.csv" "$O/lazy-on.csv" <<'PY'
import csv, sys
rows = [{(r['key_bytes'], r['payloads'], r['log2_g'], r['method']): r for r in csv.DictReader(open(f))} for f in sys.argv[1:]]
for k in sorted(rows[0]):
    if k in rows[1] and k[3] != 'thrust':
        a, b = rows[0][k], rows[1][k]
        print(f"  {k[0]}B {k[1]}P 2^{k[2]} {k[3]}: peak {int(a['peak_device_bytes']) / 2**30:.1f} -> {int(b['peak_device_bytes']) / 2**30:.1f} GiB, "
              f"ms {float(a['seconds']) * 1e3:.2f} -> {float(b['seconds']) * 1e3:.2f}")
PY
grep -E "alloc trace" "$O/lazy-on.log" | head -40 | cut -c1-160
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"
