#!/usr/bin/env bash
# Session 49, call 1: session 48's next/s49-call1.sh with one more variant, s49h
# (GPUGB_PARTITION_HALF_FILL=1, built from a work tree of main with that experiment: partitions sized for half
# the lean table, the scatter up to 12 bits at two rows of a tile a partition, 2048-row deferred chunks), and
# pgTAP with auto left to call 2.  The self-test runs from s49dc: main with the publish's count of directly
# numbered groups (branch direct-count, 4893c98), so cases 139-140 fail unless direct flushes ran.
#   tar cJf .gpu-box/bins-s49.tar.xz test/bin/s49{,p,c,pc,h}/kernelbench test/bin/s49dc/device_selftest
# Session 48's header, as written:
# Written in session 48 for session 49's first call (about 9 minutes):
# 1. the self-test's new cases 139-140 (whole partitions numbered directly past max_groups, fb98aa3's path: never
#    run on a GPU);
# 2. kernel benchmark A/B of two compile-time experiments of cuda/partition_deferred.cuh (both never run), forced
#    PARTITION and auto, 2^18-2^26 groups, both key widths, one and four payloads, uniform and Zipf 1.0, 3 reps:
#    main (s49), GPUGB_DEFERRED_PREFETCH_ACROSS=1 (s49p: each warp loads its next row across a chunk's end),
#    GPUGB_DEFERRED_ADAPTIVE_CHUNKS=1 (s49c: chunks as long as the table's room), and both (s49pc);
# 3. the whole self-test at main, alone (not beside a build: session 48 call 3);
# 4. pgTAP and qgen through PostgreSQL with auto, as time allows (else a second call).
# Before (on the development machine, about 12 minutes of builds):
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s49
#   make -C test/device CUDA_ARCHS=90 BIN=$PWD/test/bin/s49
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s49p KB_DEFINES=-DGPUGB_DEFERRED_PREFETCH_ACROSS=1
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s49c KB_DEFINES=-DGPUGB_DEFERRED_ADAPTIVE_CHUNKS=1
#   make -C test/kernelbench CUDA_ARCHS=90 BIN=$PWD/test/bin/s49pc \
#     KB_DEFINES="-DGPUGB_DEFERRED_PREFETCH_ACROSS=1 -DGPUGB_DEFERRED_ADAPTIVE_CHUNKS=1"
#   tar cJf .gpu-box/bins-s49.tar.xz test/bin/s49/kernelbench test/bin/s49/device_selftest \
#     test/bin/s49p/kernelbench test/bin/s49c/kernelbench test/bin/s49pc/kernelbench
#   ../shared/gpu-box/fetch-debs.sh && test/gpu-box-trim-debs.sh; cp ../shared/gpu-box/*.sh .gpu-box/scripts/
#   git rev-parse HEAD > .gpu-box/HEAD
#   run(command="bash docs/session48-2026-11-30/next/s49-call1.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s49.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s49-call1}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( ${CALL_SECONDS:-570} - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s49.tar.xz || exit 1
t0=$(date +%s)
timeout 60 test/bin/s49dc/device_selftest --require-gpu --strategy partition --only "partition direct" > "$O/selftest-direct.log" 2>&1
echo "selftest partition direct rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-direct.log" | cut -c1-160)"
grep -E "^(ok|FAIL)|^cases with a direct" "$O/selftest-direct.log" | cut -c1-300
t0=$(date +%s)
timeout 240 test/bin/s49dc/device_selftest --require-gpu > "$O/selftest-all.log" 2>&1
echo "selftest (whole) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-all.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-all.log" | head -8 | cut -c1-300
grep -E "^cases with" "$O/selftest-all.log"
kb() {	# name, bin, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 100 test/bin/$bin/kernelbench --bw-gib 1 --max-seconds 90 --reps 3 \
    --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md" 2>/dev/null)"
}
G="--methods partition,auto --keys 4,8 --payloads 1,4 --log2-groups 18:26:2 --dists uniform,zipf1.0"
kb main s49 $G
for v in h c p pc; do
  [ "$(left)" -gt 75 ] || { echo "s49$v skipped ($(left) s left)"; continue; }
  kb exp-$v s49$v $G
  echo "== main -> s49$v (time(main)/time(s49$v): >1 means s49$v is faster)"
  python3 test/kernelbench/ab_table.py "$O/main.csv" "$O/exp-$v.csv" | grep -E "^\|"
done
# Where four payloads' time goes at 2^22 (main), and the half-fill variant's stages at 2^24 (one payload).
ncu_order() {	# name, bin, key bytes, payloads, log2 g
  [ "$(left)" -gt 70 ] || { echo "ncu $1 skipped ($(left) s left)"; return; }
  local t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 ncu --metrics gpu__time_duration.sum --csv -k "regex:gpugb|Radix|Onesweep|Histogram|Scan|Partition" \
    test/bin/$2/kernelbench --keys $3 --payloads $4 --dists uniform --methods partition --reps 1 --bw-gib 1 --max-seconds 50 \
    --md /dev/null --log2-groups $5 > "$O/ncu-$1.csv" 2> "$O/ncu-$1.err"
  echo "== ncu in order, $1, rc=$? ($(( $(date +%s) - t0 )) s)"
  python3 test/kernelbench/ncu_phases.py --in-order "$O/ncu-$1.csv" | tail -14
}
ncu_order main-4p-22 s49 4 4 22
ncu_order h-1p-24 s49h 4 1 24
ncu_order main-1p-24 s49 4 1 24
[ "$(left)" -gt 250 ] && ( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j12 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" > "$O/ext-build.rc" )
cat "$O/ext-build.rc" 2>/dev/null
for step in auto; do
  [ -f "$O/ext-build.rc" ] && [ "$(left)" -gt 120 ] || { echo "pgTAP $step skipped (time: $(left) s left)"; continue; }
  t0=$(date +%s)
  STRATEGIES="$step" QGEN_STRATEGY_QUERIES=150 QGEN_JOBS=14 OUT="$O/$step" \
    timeout -k 5 $(( $(left) - 30 )) bash test/gpu-box.sh strategies > "$O/pg-$step.log" 2>&1
  echo "pgTAP and qgen $step rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "^Result|queries checked|^not ok" "$O/pg-$step.log" | tail -10
done
gzip -9 "$O"/*.log 2>/dev/null
cd "$O" && tar czf s49-call1.tgz ./*.gz ./*.md ./*.csv ./*.rc $(ls -d */ 2>/dev/null) 2>/dev/null; rm -rf ./*.gz ./*.md ./*.rc $(ls -d */ 2>/dev/null)
echo "total $(( $(date +%s) - T0 )) s"
