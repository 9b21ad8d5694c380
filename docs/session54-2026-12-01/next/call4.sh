#!/usr/bin/env bash
# Session 54, call 4: the experiment GPUGB_GID_FROM_GROUPS (cuda/gpugb_device.h; s54x built with 256): SHARED_HASH
# takes the group-id table's word loop from 256 groups expected, before the keyed lean tables (one key word
# without NULLs, one sum, no very hot group), its slots at most twice the groups. s54n: main's GPU code (590a71d).
# Why: the floor target misses at 2^12 groups with one payload (the one-block keyed table: 3.2-3.7 ms, 3x the
# floor is 2.93), where the word loop took 3.0-3.3 ms at 2^14 (calls 1-2).
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s54x KB_DEFINES=-DGPUGB_GID_FROM_GROUPS=256
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s54x DEVICE_DEFINES=-DGPUGB_GID_FROM_GROUPS=256
#   tar cJf .gpu-box/bins-s54x.tar.xz test/bin/s54x/kernelbench test/bin/s54x/device_selftest test/bin/s54n/kernelbench
#   run(command="bash docs/session54-2026-12-01/next/call4.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins-s54x.tar.xz"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 560 .gpu-box/bins-s54x.tar.xz
G="--methods shared_hash,auto --keys 4,8 --payloads 1 --log2-groups 8:14:1"
prebuilt_kb base s54n 120 $G
prebuilt_kb from s54x 120 $G
ab_ratios base from
# Correctness under the experiment: its instances run where the keyed tables ran (the self-test's path checks
# for the keyed tables are expected to fail; results must not).
prebuilt_selftest x-sh s54x 120 --quick --strategy shared_hash
prebuilt_selftest x-auto s54x 90 --quick --strategy auto
# Where the word loop's samples sit now (2^14, 4-byte keys, one payload, uniform), by SASS instruction.
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 100 ncu -k "regex:gpugb_lean_gid_kernel" -c 1 --section SourceCounters \
  --section WarpStateStats --page source --print-source sass --csv test/bin/s54n/kernelbench --keys 4 --payloads 1 \
  --dists uniform --methods shared_hash --reps 1 --bw-gib 1 --max-seconds 60 --md /dev/null --log2-groups 14 \
  > "$OUT/sass-gid-g14.csv" 2> "$OUT/sass-gid-g14.err"
echo "== ncu source s54n gid g14 rc=$? ($(( $(date +%s) - t0 )) s)"
python3 test/kernelbench/sass_stalls.py "$OUT/sass-gid-g14.csv" 2>&1 | sed -n '2,16p'
gzip -9 "$OUT"/*.csv
for b in s54n s54x; do
  ncu_in_order $b-sh12 $b --methods shared_hash --keys 4 --payloads 1 --log2-groups 12 --dists uniform | grep -E "gpugb|total"
done
call_pack s54-call4
