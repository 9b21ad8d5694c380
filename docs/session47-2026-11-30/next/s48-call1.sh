#!/usr/bin/env bash
# Written in session 47 for session 48's first call (about 5 minutes): what session 47 left untested on a GPU, and why
# the deferred row loop is slow.
# 1. The self-test's SHARED_HASH cases at main, default (cases 134-138 run the fast kernel) and under --lean-deferred
#    (they must take the deferred one-block table; session 47's mended assertion).
# 2. Nsight Compute of gpugb_lean_deferred_kernel (--lean-deferred on) and gpugb_lean_fast_kernel at 2^12 groups
#    (4-byte keys, one payload, uniform): session 47's call 5, refused for lack of device time.
# 3. pgTAP 04_shapes alone through PostgreSQL, SHARED_HASH forced then auto (its g4 check keyed by i % 4000), with the
#    extension built on the box while 1 and 2 run.
# Before: build test/bin/s48 from main (kernelbench and device_selftest) and tar them into .gpu-box/bins-s48.tar.xz;
# ../shared/gpu-box/fetch-debs.sh && test/gpu-box-trim-debs.sh; cp ../shared/gpu-box/*.sh .gpu-box/scripts/;
# git rev-parse HEAD > .gpu-box/HEAD.
#   run(command="bash docs/session47-2026-11-30/next/s48-call1.sh",
#       carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD", ".gpu-box/bins-s48.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s48-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins-s48.tar.xz || exit 1
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j8 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$? ($(( $(date +%s) - T0 )) s)" > "$O/ext-build.rc" ) &
BUILD=$!
for v in default:"" deferred:--lean-deferred; do
  t0=$(date +%s)
  timeout 90 test/bin/s48/device_selftest --require-gpu --quick --strategy shared_hash ${v#*:} > "$O/selftest-${v%%:*}.log" 2>&1
  echo "selftest shared_hash ${v#*:} rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-${v%%:*}.log" | cut -c1-160)"
  grep -E "^FAIL" "$O/selftest-${v%%:*}.log" | head -8 | cut -c1-300
  grep -E "lean deferred" "$O/selftest-${v%%:*}.log" | cut -c1-160
done
KB="test/bin/s48/kernelbench --keys 4 --payloads 1 --dists uniform --methods shared_hash --reps 1 --bw-gib 1 --max-seconds 30 --md /dev/null --log2-groups 12"
for v in on:gpugb_lean_deferred_kernel off:gpugb_lean_fast_kernel; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 60 ncu -k "regex:${v#*:}" -c 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" $KB --lean-deferred ${v%%:*} > "$O/ncu-${v%%:*}.txt" 2> "$O/ncu-${v%%:*}.err"
  echo "== ncu --lean-deferred ${v%%:*} (${v#*:}) rc=$? ($(( $(date +%s) - t0 )) s)"
  grep -E "stalled_[a-z_]*_per_issue_active.ratio +[a-z]* +([1-9]|0\.[2-9])|Duration|Registers Per Thread|Achieved Occupancy|Avg. Active Threads Per Warp|Executed Ipc A|DRAM Throughput|No Eligible|Warp Cycles Per Issued|Issued Warp Per Scheduler" "$O/ncu-${v%%:*}.txt" | cut -c1-150 | head -30
done
wait $BUILD; cat "$O/ext-build.rc"
source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
make -s PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 install > "$O/ext-install.log" 2>&1 || { echo "install failed"; tail -5 "$O/ext-install.log"; }
psql -qXc "ALTER SYSTEM SET shared_preload_libraries = 'gpugb'" && bash .gpu-box/scripts/restart-postgres.sh >/dev/null
psql -qXc "CREATE EXTENSION IF NOT EXISTS gpugb" && echo "device: $(psql -XAtc 'SELECT gpugb_device_info()')"
for s in shared_hash auto; do
  t0=$(date +%s)
  PG_PROVE_OPTS=-v PGOPTIONS="-c gpugb.strategy=$s" timeout 90 test/pgtap/run.sh gpu gpugb_tap test/pgtap/04_shapes.sql > "$O/pgtap04-$s.log" 2>&1
  echo "pgTAP 04 $s rc=$? ($(( $(date +%s) - t0 )) s):"
  grep -E "Failed test|^Result|queries checked|4000 groups|10000 groups" "$O/pgtap04-$s.log" | head -8
done
gzip -9 "$O"/*.log "$O"/*.txt "$O"/*.err 2>/dev/null
cd "$O" && tar czf s48-call1.tgz ./*.gz ./*.rc && rm -f ./*.gz ./*.rc
echo "total $(( $(date +%s) - T0 )) s"
