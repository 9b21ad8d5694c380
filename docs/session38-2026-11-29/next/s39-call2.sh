#!/usr/bin/env bash
# Session 39, call 2 (about 7 minutes): session 38's two experiments measured (kernelbench, 2^28 rows):
#  - spec.partition_overflow_abort: forced PARTITION at 0.08x the groups (Zipf 1.0 and uniform,
#    2^22; over 70 s in session 38 without it), on and off (off has a 60 s limit: it shows as
#    missing); expected on: a few grows, one round of about 2^28 retried rows, hundreds of ms;
#  - auto at 1e-5x, Zipf 1.0, 2^22 (51 s in session 38, call 4) with the abort, and with the abort and
#    spec.observed_chao1;
#  - spec.observed_chao1 at the exact estimate (auto, skewed points 2^16-2^24): its decisions must not
#    get worse where the planner was right;
#  - the default path's cost of the new code: partition, shared_hash and auto at 2^16-2^24, set
#    against session 38's call 2 (docs/session38-2026-11-29/call2/probe-on.csv).
#   (binaries and carry as for s39-call1.sh)
#   run(command="bash docs/session38-2026-11-29/next/s39-call2.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins.tar.xz"])
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s39-call2}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null)"
tar xJf .gpu-box/bins.tar.xz || exit 1
selftest() {	# name, limit, options...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout "$limit" test/bin/device_selftest --require-gpu --quick "$@" > "$O/selftest-$name.log" 2>&1
  echo "selftest $* rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$name.log" | cut -c1-160)"
  grep -E "^cases with" "$O/selftest-$name.log"
  grep -E "^FAIL" "$O/selftest-$name.log" | head -8 | cut -c1-400
}
kb() {	# name, limit, options...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout "$limit" test/bin/kernelbench --bw-gib 1 --reps 1 --max-seconds $(( limit - 10 )) \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
  grep -E "^    [a-z_]+ " "$O/$name.log" | grep -v thrust | sed -E 's/create [0-9]+ ms, verify [0-9]+ ms//' | cut -c1-330
}
kb abort-on 70 --keys 4 --payloads 1 --dists zipf1.0,uniform --log2-groups 22 --methods partition \
  --estimate-scale 0.08 --partition-overflow-abort on
kb auto-abort-on 70 --keys 4 --payloads 1 --dists zipf1.0 --log2-groups 22 --methods auto \
  --estimate-scale 1e-5 --partition-overflow-abort on
kb auto-abort-chao1 70 --keys 4 --payloads 1 --dists zipf1.0 --log2-groups 22 --methods auto \
  --estimate-scale 1e-5 --partition-overflow-abort on --observed-chao1 on
for c in off on; do
  kb chao1-$c 60 --keys 4,8 --payloads 1,4 --dists zipf0.5,zipf1.0 --log2-groups 16:24:4 --methods auto \
    --observed-chao1 $c
done
python3 test/kernelbench/ab_table.py "$O/chao1-off.csv" "$O/chao1-on.csv" | grep -E "^\|"
kb abort-off 60 --keys 4 --payloads 1 --dists zipf1.0 --log2-groups 22 --methods partition \
  --estimate-scale 0.08 --partition-overflow-abort off
kb default 80 --keys 4,8 --payloads 1,4 --dists uniform,zipf1.0 --log2-groups 16:24:2 \
  --methods partition,shared_hash,auto
python3 test/kernelbench/ab_table.py docs/session38-2026-11-29/call2/probe-on.csv "$O/default.csv" | grep -E "^\|"
gzip -9 "$O"/*.log
cd "$O" && tar czf s39-call2.tgz ./*.csv ./*.md ./*.log.gz 2>/dev/null; rm -f ./*.csv ./*.md ./*.log.gz
echo "total $(( $(date +%s) - T0 )) s"
