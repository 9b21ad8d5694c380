#!/usr/bin/env bash
# test/gpu-box-pair-job.sh — the hash table's pair slots (one 64-bit key word in a 16-byte
# slot, cuda/hash_table.cuh) on the GPU box, as a job of test/gpu-box-job.sh (about 30
# minutes: call it again on the warm machine until JOB-DONE):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-pair-job.sh", carry=[".gpu-box"])
#
#  1. the device self-test, every case and strategy, --quick (the one-key cases with int64
#     keys take pair slots; INT64_MIN/MAX, -1, 0 and the salt's key among them); stops here
#     if it fails;
#  2. pg_regress in gpu mode and QGEN_QUERIES (1000) qgen queries;
#  3. the kernel benchmark on 8-byte keys with --keyed-slots on (pairs), then off (tagged):
#     global_hash, sort and auto, A/B in the same run;
#  4. issue 3 item 6: each strategy forced through the pgTAP suites and QGEN_STRATEGY_QUERIES
#     (500) qgen queries, one strategy at a time so that a failure does not stop the others;
#  5. the whole kernel benchmark grid (GRID_SECONDS, 420; 0 skips it).
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null)"
t0=$(date +%s)
make -s -C test/device CUDA_ARCHS=90 > "$OUT/selftest-build.log" 2>&1 &&
  test/bin/device_selftest --require-gpu --quick > "$OUT/selftest.log" 2>&1
rc=$?
echo "device self-test --quick rc=$rc ($(( $(date +%s) - t0 )) s): $(tail -1 "$OUT/selftest.log")"
grep '^FAIL' "$OUT/selftest.log" | head -5
if [ $rc != 0 ]; then touch "$OUT/job.done"; exit 0; fi
t0=$(date +%s)
OUT=$OUT/regress bash test/gpu-box.sh regress > "$OUT/regress.log" 2>&1
echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$OUT/regress.log" | tail -1)"
t0=$(date +%s)
QGEN_QUERIES=${QGEN_QUERIES:-1000} OUT=$OUT/qgen bash test/gpu-box.sh qgen > "$OUT/qgen.log" 2>&1
echo "qgen rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'all streams' "$OUT/qgen.log" | tail -1)"
t0=$(date +%s)
make -s -j"$(nproc)" -C test/kernelbench CUDA_ARCHS=90 > "$OUT/kb-build.log" 2>&1
echo "kernelbench build rc=$? ($(( $(date +%s) - t0 )) s)"
for keyed in on off; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --keys 8 --payloads 1,4 --dists uniform,zipf1.0 \
    --log2-groups 8:24:2 --methods global_hash,sort,auto --keyed-slots "$keyed" \
    --max-seconds "${KB_SECONDS:-110}" --csv "$OUT/kb-pair-$keyed.csv" --md "$OUT/kb-pair-$keyed.md" \
    > "$OUT/kb-pair-$keyed.log" 2>&1
  echo "kernelbench --keys 8 --keyed-slots $keyed rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'verified' "$OUT/kb-pair-$keyed.md")"
done
python3 - "$OUT/kb-pair-on.csv" "$OUT/kb-pair-off.csv" <<'PY'
import csv, sys
def load(path):
    t = {}
    for r in csv.DictReader(open(path)):
        t[(r['payloads'], r['dist'], int(r['log2_g']), r['method'])] = float(r['seconds'])
    return t
on, off = load(sys.argv[1]), load(sys.argv[2])
print("tagged (off) time / pair (on) time, 8-byte keys:")
print("| payloads | dist | g | global_hash | sort | auto |")
print("|---|---|---|---:|---:|---:|")
for k in sorted({k[:3] for k in on}, key=lambda k: (k[0], k[1], k[2])):
    cells = []
    for m in ("global_hash", "sort", "auto"):
        a, b = off.get(k + (m,)), on.get(k + (m,))
        cells.append(f"{a / b:.2f}" if a and b else "-")
    print(f"| {k[0]} | {k[1]} | 2^{k[2]} | " + " | ".join(cells) + " |")
PY
for s in global_hash shared_hash sort partition private_hash; do
  t0=$(date +%s)
  STRATEGIES=$s QGEN_STRATEGY_QUERIES=${QGEN_STRATEGY_QUERIES:-500} OUT=$OUT/strategies \
    bash test/gpu-box.sh strategies > "$OUT/strategies-$s.log" 2>&1
  echo "strategy $s rc=$? ($(( $(date +%s) - t0 )) s):" \
    $(grep -E '^Result|queries checked, .* with the GPU|all streams' "$OUT/strategies-$s.log")
  grep -E '^not ok|Failed test' "$OUT/strategies/pgtap-$s.log" | head -5
done
if [ "${GRID_SECONDS:-420}" != 0 ]; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --reps 1 --max-seconds "${GRID_SECONDS:-420}" \
    --csv "$OUT/kernelbench.csv" --md "$OUT/kernelbench.md" > "$OUT/kernelbench.log" 2>&1
  echo "kernelbench grid rc=$? ($(( $(date +%s) - t0 )) s)"
  sed -n '/^## Targets/,/^## Verification/p' "$OUT/kernelbench.md" | head -14
  grep -E "verified|MISMATCH" "$OUT/kernelbench.md" | head -3
fi
touch "$OUT/job.done"
