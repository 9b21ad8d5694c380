#!/usr/bin/env bash
# Session 47's second call: two blocks an SM for PARTITION's lean kernel (branch s47-two-blocks, test/bin/s47t, built
# with -DGPUGB_PARTITION_LEAN_BLOCKS_PER_SM=2: 512 threads a block, half the slots) against main's one block
# (test/bin/s47c, main at 04f29c2: the compact flush with its trap), forced PARTITION at 30 points (2^18-2^26, both
# key widths, one payload, uniform, Zipf 1.0 and 1.5), 3 reps; then, if it finished, the self-test's PARTITION and
# auto cases on s47t, and the PARTITION cases on s47c.  Session 46's call 6 without the lost pairs branch.
#   run(command="bash docs/session47-2026-11-30/next/call2.sh",
#       carry=[".gpu-box/bins-s47c.tar.xz", ".gpu-box/bins-s47t.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s47-call2}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 585 - ($(date +%s) - T0) )); }
for t in s47c s47t; do tar xJf .gpu-box/bins-$t.tar.xz || exit 1; done
kb() {	# name, bin, seconds, options...
  local name=$1 bin=$2 secs=$3 t0=$(date +%s); shift 3
  CUDA_MODULE_LOADING=EAGER timeout $(( secs + 5 )) test/bin/$bin/kernelbench --bw-gib 1 --max-seconds $secs --reps 3 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  local rc=$?
  echo "kernelbench $name rc=$rc ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
  return $rc
}
st() {	# name, bin, strategy
  local t0=$(date +%s) secs=$(( $(left) - 20 ))
  [ $secs -gt 140 ] && secs=140
  [ $secs -lt 30 ] && { echo "selftest $1 $3 skipped (time)"; return; }
  timeout $secs test/bin/$2/device_selftest --require-gpu --quick --strategy $3 > "$O/selftest-$1-$3.log" 2>&1
  echo "selftest $1 $3 rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-$1-$3.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/selftest-$1-$3.log" | head -8 | cut -c1-300
}
G="--methods partition --keys 4,8 --payloads 1 --log2-groups 18:26:2 --dists uniform,zipf1.0,zipf1.5"
kb part-compact s47c 60 $G
for v in two:s47t; do
  name=${v%%:*} bin=${v##*:}
  if kb part-$name $bin 60 $G; then
    echo "== forced PARTITION, the compact flush -> $name"
    python3 test/kernelbench/ab_table.py "$O/part-compact.csv" "$O/part-$name.csv" | grep -E "^\|"
    st $name $bin partition
  fi
done
for v in two:s47t; do
  [ -f "$O/selftest-${v%%:*}-partition.log" ] && st ${v%%:*} ${v##*:} auto
done
[ -f "$O/selftest-two-partition.log" ] && st compact s47c partition
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s47-call2.tgz ./*.gz ./*.md ./*.csv 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"
