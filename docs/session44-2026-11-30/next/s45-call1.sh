#!/usr/bin/env bash
# Session 45's first call (about 8 minutes; written in session 44, whose device time ran out): where auto's
# 1.1-1.2 ms over forced PARTITION at 2^22 groups can be won back (4-byte keys, one payload: auto 11.92 ms against
# 10.79, 2.94x Thrust against 3.25x; session 44 call 5). Auto runs a probe launch of 2^20 rows
# (GPUGB_DEVICE_PROBE_ROWS, cuda/groupby.cu), the run-time check, then the rest in one launch.
# .gpu-box/bins45.tar.xz holds two kernel benchmarks (rebuild: make -C test/kernelbench CUDA_ARCHS=90 BIN=...):
#   test/bin/s44main/    main's kernel code at 4e78ec2 (what call 5 ran)
#   test/bin/s45probe/   branch s44-hash-probe: --partition-probe hash runs auto's probe as
#                        GLOBAL_HASH where PARTITION is planned (spec.partition_hash_probe)
#   test/bin/shared_bound  main's test/kernelbench/shared_bound.cu (step 3)
#   test/bin/s45gid/      branch s44-gid-table (kernelbench, device_selftest): --lean-gid-table on runs
#                        SHARED_HASH's lean launches in a block table indexed by group id (step 4)
#   test/bin/s45probe-st/ the branch's device_selftest with that probe always on
#                        (CFLAGS with -DGPUGB_PARTITION_HASH_PROBE_DEFAULT)
# 0. the self-test with auto (the hash probe always on): cases that name the probe's strategy may fail;
#    a wrong result may not;
# 1. A/B of auto's probe: PARTITION (main's), SORT (--partition-probe off), GLOBAL_HASH (the branch), with
#    forced PARTITION beside them; both key widths and payload counts, uniform and Zipf 1.0, 2^20-2^24, 3 reps;
# (Where the gap goes was measured in session 42, call 2: the probe's kernels about 0.55 ms, mostly
# the generic partition kernel over its 2^20 rows, and 1.0 ms of allocation, its small buffers
# freed and allocated again at full size. Scratch for the whole call at the probe gained nothing
# (session 42 call 1, GPUGB_PROBE_SCRATCH_WHOLE). A GLOBAL_HASH probe allocates no partition scratch.)
# 2. Nsight Compute's sections for the scatter's count kernel at 2^22;
# 3. test/bin/shared_bound (test/kernelbench/shared_bound.cu, main): its new global mode, a dense block
#    table indexed by the group id a global probe finds, at 2^13-2^14 groups, where the floor target
#    misses (make -C test/kernelbench shared_bound CUDA_ARCHS=90);
# 4. the branch s44-gid-table: its self-test with SHARED_HASH forced and --lean-gid-table (cases that assert which lean
#    kernel ran fail by design: read the FAIL lines for a wrong result), and forced SHARED_HASH with
#    the block table indexed by group id against main's, 2^10-2^16, 3 reps.
# If the hash probe wins (auto nearer forced PARTITION, nothing slower), merge the branch with
# partition_hash_probe as the default (src/strategy.c, gpugb_spec_first_runnable), then run the whole
# self-test, pgTAP and qgen with auto, and the grid's 2^18-2^26 (next/call5.sh's shape).
#   run(command="bash docs/session44-2026-11-30/next/s45-call1.sh", carry=[".gpu-box/HEAD", ".gpu-box/bins45.tar.xz"], timeout_s=600)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-s45-call1}; mkdir -p "$O"
T0=$(date +%s)
echo "HEAD $(cat .gpu-box/HEAD)"
tar xJf .gpu-box/bins45.tar.xz || exit 1
KB=test/bin/s44main/kernelbench
t0=$(date +%s)
timeout 150 test/bin/s45probe-st/device_selftest --require-gpu --quick --strategy auto > "$O/selftest-auto-hash.log" 2>&1
echo "selftest --strategy auto (hash probe) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-auto-hash.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-auto-hash.log" | head -8 | cut -c1-400
kb() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 100 "$bin" --bw-gib 1 --max-seconds 95 --reps 3 --keys 4,8 --payloads 1,4 \
    --log2-groups 20:24:2 --dists uniform,zipf1.0 --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
kb probe-partition $KB --methods partition,auto
kb probe-sort $KB --methods auto --partition-probe off
kb probe-hash test/bin/s45probe/kernelbench --methods auto --partition-probe hash
echo "== auto: PARTITION's probe -> SORT's"; python3 test/kernelbench/ab_table.py "$O/probe-partition.csv" "$O/probe-sort.csv" | grep -E "^\|"
echo "== auto: PARTITION's probe -> GLOBAL_HASH's"; python3 test/kernelbench/ab_table.py "$O/probe-partition.csv" "$O/probe-hash.csv" | grep -E "^\|"
python3 - "$O/probe-partition.csv" "$O/probe-hash.csv" <<'PY'
import csv, sys
pts = {}
for tag, path in (("main", sys.argv[1]), ("hash", sys.argv[2])):
    for r in csv.DictReader(open(path)):
        pts.setdefault((r["key_bytes"], r["payloads"], r["dist"], r["log2_g"]), {})[(tag, r["method"])] = float(r["seconds"])
print("| key bytes | payloads | dist | log2 g | partition ms | auto ms | auto (hash probe) ms | Thrust / auto (hash probe) |")
for k, m in sorted(pts.items()):
    print(f"| {' | '.join(k)} | {m[('main', 'partition')]*1e3:.2f} | {m[('main', 'auto')]*1e3:.2f} | "
          f"{m[('hash', 'auto')]*1e3:.2f} | {m[('hash', 'thrust')] / m[('hash', 'auto')]:.2f}x |")
PY
# 2. what bounds the scatter's count kernel (1.6 ms at 2^22 for 1 GiB of keys; session 44 call 4)
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 60 ncu -k "regex:gpugb_scatter_count_kernel" -c 1 --section SpeedOfLight \
  --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats \
  $KB --keys 4 --payloads 1 --dists uniform --log2-groups 22 --methods partition --reps 1 \
  --bw-gib 1 --max-seconds 40 --md /dev/null > "$O/ncu-count-22.txt" 2> "$O/ncu-count-22.err"
echo "== ncu sections, the scatter's count kernel at 2^22 rc=$? ($(( $(date +%s) - t0 )) s)"
grep -E "Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Warp Cycles Per Issued|No Eligible|Block Limit" \
  "$O/ncu-count-22.txt" | cut -c1-140
# 3. the floor at 2^13-2^14: a dense block table indexed by the group id that a global probe finds
t0=$(date +%s)
timeout 120 test/bin/shared_bound > "$O/shared_bound.md" 2> "$O/shared_bound.err"
echo "== shared_bound rc=$? ($(( $(date +%s) - t0 )) s)"; grep -E "^\||every result|FAILURES" "$O/shared_bound.md"
# 4. the block table indexed by group id (branch s44-gid-table)
t0=$(date +%s)
timeout 200 test/bin/s45gid/device_selftest --require-gpu --quick --strategy shared_hash --lean-gid-table > "$O/selftest-gid.log" 2>&1
echo "selftest --strategy shared_hash --lean-gid-table rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest-gid.log" | cut -c1-160)"
grep -E "^FAIL" "$O/selftest-gid.log" | head -20 | cut -c1-300
kbg() {	# name, binary, options...
  local name=$1 bin=$2 t0=$(date +%s); shift 2
  CUDA_MODULE_LOADING=EAGER timeout 100 "$bin" --bw-gib 1 --max-seconds 95 --reps 3 --keys 4,8 --payloads 1,4 \
    --log2-groups 10:16:2 --dists uniform,zipf0.5,zipf1.0,zipf1.5 --csv "$O/$name.csv" --md "$O/$name.md" "$@" > "$O/$name.log" 2>&1
  echo "kernelbench $name rc=$? ($(( $(date +%s) - t0 )) s): $(grep -oE '[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors' "$O/$name.md")"
}
kbg gid-main $KB --methods shared_hash
kbg gid-on test/bin/s45gid/kernelbench --methods shared_hash --lean-gid-table on
echo "== forced SHARED_HASH: main -> block table indexed by group id"
python3 test/kernelbench/ab_table.py "$O/gid-main.csv" "$O/gid-on.csv" | grep -E "^\|"
python3 - "$O/gid-on.csv" <<'PY'
import csv, sys
print("| key bytes | payloads | dist | log2 g | shared_hash (gid table) ms | floor ms | x floor |")
for r in csv.DictReader(open(sys.argv[1])):
    if r["method"] == "shared_hash":
        s, f = float(r["seconds"]), float(r["floor_seconds"])
        print(f"| {r['key_bytes']} | {r['payloads']} | {r['dist']} | {r['log2_g']} | {s*1e3:.2f} | {f*1e3:.2f} | {s/f:.2f} |")
PY
gzip -9 "$O"/*.log "$O"/*.csv "$O"/*.err "$O"/*.txt 2>/dev/null
cd "$O" && tar czf s45-call1.tgz ./*.gz ./*.md 2>/dev/null; rm -f ./*.gz ./*.md
echo "total $(( $(date +%s) - T0 )) s"
