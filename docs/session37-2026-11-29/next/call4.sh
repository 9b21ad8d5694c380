#!/usr/bin/env bash
# Session 37, call 4 (about 6 minutes): the one-pass scatter of PARTITION's packed rows
# (cuda/partition_scatter.cuh), new in this session and the default: first every partition-forced
# self-test case with it (the cases check that packed launches scattered, and the summary counts
# them), then the same cases of auto, then an A/B against CUB's sort (--partition-scatter off).
#   make -s -j2 -C test/device CUDA_ARCHS=90 && make -s -j2 -C test/kernelbench CUDA_ARCHS=90 all
#   tar cJf .gpu-box/bins.tar.xz test/bin/kernelbench test/bin/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session37-2026-11-29/next/call4.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s37-call4}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
selftest() {	# name, limit, options...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout "$limit" test/bin/device_selftest --require-gpu --quick "$@" > "$O/selftest-$name.log" 2>&1
  echo "selftest $* rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$name.log" | cut -c1-160)"
  echo "  $(grep -c '^ok' "$O/selftest-$name.log") ok, $(grep -c '^FAIL' "$O/selftest-$name.log") FAIL; $(grep -E '^cases with scattered' "$O/selftest-$name.log")"
  grep -E "^FAIL" "$O/selftest-$name.log" | head -8 | cut -c1-400
}
selftest partition 170 --strategy partition
if grep -q "^FAIL" "$O/selftest-partition.log"; then gzip -9 "$O"/*.log; exit 1; fi
selftest partition-cub 60 --strategy partition --partition-cub-sort --only "one narrow sum, g=1000"
for s in on off; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 100 test/bin/kernelbench --bw-gib 1 --max-seconds 90 --keys 4,8 --payloads 1,4 \
    --dists uniform,zipf1.0 --log2-groups 16:24:2 --methods partition,auto --partition-scatter $s \
    --csv "$O/scatter-$s.csv" --md "$O/scatter-$s.md" > "$O/scatter-$s.log" 2>&1
  echo "scatter $s rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/scatter-$s.md")"
done
python3 test/kernelbench/ab_table.py "$O/scatter-off.csv" "$O/scatter-on.csv" | grep -E "^\|"
python3 - "$O/scatter-off.csv" "$O/scatter-on.csv" <<'PY'
import csv, sys
rows = [{(r['key_bytes'], r['payloads'], r['dist'], r['log2_g'], r['method']): r for r in csv.DictReader(open(f))} for f in sys.argv[1:]]
for k in sorted(rows[0]):
    if k in rows[1] and k[4] != 'thrust':
        a, b = rows[0][k], rows[1][k]
        th = rows[1].get(k[:4] + ('thrust',))
        print(f"  {k[0]}B {k[1]}P {k[2]} 2^{k[3]} {k[4]}: ms {float(a['seconds']) * 1e3:.2f} -> {float(b['seconds']) * 1e3:.2f}"
              + (f", thrust/new {float(th['seconds']) / float(b['seconds']):.2f}" if th else "")
              + f", peak {int(a['peak_device_bytes']) / 2**30:.1f} -> {int(b['peak_device_bytes']) / 2**30:.1f} GiB")
PY
grep -cE "scattered\)" "$O/scatter-on.log" | sed 's/^/  lines with scattered launches (on): /'
grep -oE "[0-9]+ scattered\)" "$O/scatter-on.log" | sort | uniq -c | head
grep -oE "[0-9]+ scattered\)" "$O/scatter-off.log" | sort | uniq -c | head
selftest auto 200 --strategy auto
gzip -9 "$O"/*.log
echo "total $(( $(date +%s) - T0 )) s"
