#!/usr/bin/env bash
# Session 40, call 3 (about 6 minutes): session 39's two overflow experiments.
# 1. spec.partition_overflow_walks_only
# (kernelbench --partition-overflow-no-id off, self-test --overflow-walks-only). Should a PARTITION
# launch whose lookup finds no group id left stop and retry all the rest of its rows (the default),
# or retry only the rows of keys with no id, and stop only at a walk past GPUGB_PROBE_OVERFLOW_STEPS?
# Forced PARTITION at 0.95x, 0.5x, 0.2x and 0.08x the groups, 2^22, uniform and Zipf 1.0, both ways;
# then the self-test's PARTITION cases under the experiment (none must fail; case 122 may not overflow).
# 2. spec.partition_retry_repartition (kernelbench --partition-retry-repartition on, self-test
# --retry-repartition): a retry round of half a PARTITION launch's rows or more runs as a PARTITION
# launch over the retried rows gathered into columns, not GLOBAL_HASH over the retry list (39 of forced
# PARTITION's 57 ms at 0.08x). Forced PARTITION at 0.08x and auto at 1e-5x (Zipf 1.0 and uniform,
# 2^22), on and off; then the self-test's PARTITION cases under it (overflowed cases must show a
# partitioned round) and auto's.
#   (binaries as for s40-call1.sh)
#   run(command="bash docs/session39-2026-11-29/next/s40-call3.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s40-call3}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
kb() {	# name, limit, options...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout "$limit" test/bin/kernelbench --bw-gib 1 --reps 1 --max-seconds $(( limit - 10 )) \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
  grep -E "^    (partition|auto) " "$O/$name.log" | sed -E 's/create [0-9]+ ms, verify [0-9]+ ms//' | cut -c1-330
}
for scale in 0.95 0.5 0.2 0.08; do
  for noid in on off; do
    kb "s$scale-noid-$noid" 40 --keys 4 --payloads 1 --dists uniform,zipf1.0 --log2-groups 22 --methods partition \
      --estimate-scale $scale --partition-overflow-no-id $noid
  done
done
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick --strategy partition --overflow-walks-only > "$O/selftest-walks-only.log" 2>&1
echo "selftest --strategy partition --overflow-walks-only rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-walks-only.log" | cut -c1-160)"
grep -E "^cases with" "$O/selftest-walks-only.log"
grep -E "^FAIL" "$O/selftest-walks-only.log" | head -8 | cut -c1-400
for rp in on off; do
  kb "repartition-$rp" 60 --keys 4 --payloads 1,4 --dists zipf1.0,uniform --log2-groups 22 --methods partition \
    --estimate-scale 0.08 --partition-retry-repartition $rp
  kb "repartition-auto-$rp" 40 --keys 4 --payloads 1 --dists zipf1.0,uniform --log2-groups 22 --methods auto \
    --estimate-scale 1e-5 --partition-retry-repartition $rp
done
for s in partition auto; do
  t0=$(date +%s)
  timeout 150 test/bin/device_selftest --require-gpu --quick --strategy $s --retry-repartition > "$O/selftest-repartition-$s.log" 2>&1
  echo "selftest --strategy $s --retry-repartition rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-repartition-$s.log" | cut -c1-160)"
  grep -E "^cases with" "$O/selftest-repartition-$s.log"
  grep -E "^FAIL" "$O/selftest-repartition-$s.log" | head -8 | cut -c1-400
done
gzip -9 "$O"/*.log
cd "$O" && tar czf s40-call3.tgz ./*.csv ./*.md ./*.log.gz 2>/dev/null; rm -f ./*.csv ./*.md ./*.log.gz
echo "total $(( $(date +%s) - T0 )) s"
