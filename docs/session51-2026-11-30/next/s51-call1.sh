#!/usr/bin/env bash
# Written in session 50 for session 51's first call, at main (after 46d6b9a):
# 1. the whole device self-test, alone, now that each case's data and CPU reference are made once for all
#    strategies (46d6b9a; never run on a GPU: session 50's whole run at 35bf335 stopped at 555 s after 617
#    cases, none failed, and most of its time was the references built again for each strategy);
# 2. the kernel benchmark's 2^18-2^26 points for partition, auto and Thrust with Zipf 0.5 as well (session 50
#    measured mixed words, now the default, on uniform and Zipf 1.0 only; 4-byte keys, one payload, Zipf 0.5,
#    2^24 was 12.56 ms against 35.1 for Thrust before them);
# 3. as time allows, test/bench/gather_rows.cu (written in session 50, never run).
# Before (on the development machine, about 6 minutes):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s51; make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s51
#   tar cJf .gpu-box/bins-s51.tar.xz test/bin/s51/kernelbench test/bin/s51/device_selftest; git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session50-2026-11-30/next/s51-call1.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins-s51.tar.xz"], timeout_s=600)
# Afterwards: python3 docs/session48-2026-11-30/merge_grid.py docs/session50-2026-11-30/grid-full.csv grid.csv OUT.csv
# and python3 docs/session41-2026-11-30/merge_targets.py OUT.csv OUT.csv for the targets.
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 580 .gpu-box/bins-s51.tar.xz
prebuilt_selftest all s51 430
grep -cE '^ok' "$OUT/selftest-all.log" | sed 's/^/ok lines: /'
[ "$(call_left)" -gt 100 ] &&
  prebuilt_kb grid s51 $(( $(call_left) - 20 )) --methods partition,auto --keys 4,8 --payloads 1,4 \
    --log2-groups 18:26:2 --dists uniform,zipf0.5,zipf1.0
# 3. test/bench/gather_rows.cu: CUB's sort of row numbers and a gather, against today's sort of rows
#    (four payloads' idea, docs/session50-2026-11-30/pending/next-steps.md).
if [ "$(call_left)" -gt 45 ]; then
  nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/gather_rows test/bench/gather_rows.cu &&
    timeout $(( $(call_left) - 10 )) /tmp/gather_rows --bits 12 --reps 3 | tee "$OUT/gather-rows.md"
fi
call_pack s51-call1
