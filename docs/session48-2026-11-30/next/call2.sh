#!/usr/bin/env bash
# Session 48, call 2: PARTITION's whole partitions numbered without lookups (spec.partition_direct_gids,
# cuda/partition_deferred.cuh gpugb_deferred_flush_direct; never run before), binaries built from the
# direct-gids work tree in test/bin/s48d:
# 1. the self-test's PARTITION and auto cases under --partition-direct (the quick set);
# 2. kernel benchmark A/B, forced PARTITION, --partition-direct off then on, 2^18-2^26 groups, both key widths,
#    one and four payloads, uniform and Zipf 1.0, 3 reps.
#   run(command="bash docs/session48-2026-11-30/next/call2.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins-s48d.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s48-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s48d.tar.xz || exit 1
for s in partition auto; do
  t0=$(date +%s)
  timeout 100 test/bin/s48d/device_selftest --require-gpu --quick --partition-direct --strategy $s > "$O/selftest-$s.log" 2>&1
  echo "selftest $s --partition-direct rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$s.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/selftest-$s.log" | head -8 | cut -c1-300
  grep -E "^cases with" "$O/selftest-$s.log"
done
kb() {	# name, options...
  local name=$1 t0=$(date +%s); shift
  CUDA_MODULE_LOADING=EAGER timeout 170 test/bin/s48d/kernelbench --bw-gib 1 --max-seconds 160 --reps 3 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
}
G="--methods partition --keys 4,8 --payloads 1,4 --log2-groups 18:26:2 --dists uniform,zipf1.0"
kb direct-off $G --partition-direct off
kb direct-on $G --partition-direct on
echo "== --partition-direct off -> on (time(off)/time(on): >1 means on is faster)"
python3 test/kernelbench/ab_table.py "$O/direct-off.csv" "$O/direct-on.csv" | grep -E "^\|"
grep -oE "[0-9]+ direct\)" "$O/direct-on.log" | sort | uniq -c | sed 's/^/runs by direct launches: /'
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s48-call2.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"
