#!/usr/bin/env bash
# test/gpu-box-keyed-job.sh — the hash table's keyed slots (spec.key_fits_int32) on the GPU
# box, as a job of test/gpu-box-job.sh (about 8 minutes):
#
#   run(command="bash test/gpu-box-job.sh test/gpu-box-keyed-job.sh", carry=[".gpu-box"])
#
#  1. pg_regress in gpu mode and QGEN_QUERIES (1000) qgen queries (int4/int2/date/bool keys
#     take the keyed slots);
#  2. the device self-test, every case and strategy, --quick (one-key cases whose keys fit
#     int32 take the keyed slots);
#  3. the kernel benchmark on 4-byte keys with --keyed-slots on, then off (same run, same data
#     generator): global_hash, sort and auto.
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
echo "HEAD $(cat .gpu-box/HEAD 2>/dev/null || git rev-parse HEAD 2>/dev/null)"
t0=$(date +%s)
OUT=$OUT/regress bash test/gpu-box.sh regress > "$OUT/regress.log" 2>&1
echo "regress rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$OUT/regress.log" | tail -1)"
t0=$(date +%s)
QGEN_QUERIES=${QGEN_QUERIES:-1000} OUT=$OUT/qgen bash test/gpu-box.sh qgen > "$OUT/qgen.log" 2>&1
echo "qgen rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'all streams' "$OUT/qgen.log" | tail -1)"
t0=$(date +%s)
make -s -C test/device CUDA_ARCHS=90 > "$OUT/selftest-build.log" 2>&1 &&
  test/bin/device_selftest --require-gpu --quick > "$OUT/selftest.log" 2>&1
echo "device self-test --quick rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$OUT/selftest.log")"
grep '^FAIL' "$OUT/selftest.log" | head -5
t0=$(date +%s)
make -s -j"$(nproc)" -C test/kernelbench CUDA_ARCHS=90 > "$OUT/kb-build.log" 2>&1
echo "kernelbench build rc=$? ($(( $(date +%s) - t0 )) s)"
for keyed in on off; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --keys 4 --payloads 1,4 --dists uniform,zipf1.0 \
    --log2-groups 8:26:2 --methods global_hash,sort,auto --keyed-slots "$keyed" \
    --max-seconds "${KB_SECONDS:-150}" --csv "$OUT/kb-keyed-$keyed.csv" --md "$OUT/kb-keyed-$keyed.md" \
    > "$OUT/kb-keyed-$keyed.log" 2>&1
  echo "kernelbench --keyed-slots $keyed rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'verified' "$OUT/kb-keyed-$keyed.md")"
done
python3 - "$OUT/kb-keyed-on.csv" "$OUT/kb-keyed-off.csv" <<'PY'
import csv, sys
def load(path):
    t = {}
    for r in csv.DictReader(open(path)):
        t[(r['payloads'], r['dist'], int(r['log2_g']), r['method'])] = float(r['seconds'])
    return t
on, off = load(sys.argv[1]), load(sys.argv[2])
print("| payloads | dist | g | global_hash off/on | sort off/on | auto off/on |")
print("|---|---|---|---:|---:|---:|")
for k in sorted({k[:3] for k in on}, key=lambda k: (k[0], k[1], k[2])):
    cells = []
    for m in ("global_hash", "sort", "auto"):
        a, b = off.get(k + (m,)), on.get(k + (m,))
        cells.append(f"{a / b:.2f}" if a and b else "-")
    print(f"| {k[0]} | {k[1]} | 2^{k[2]} | " + " | ".join(cells) + " |")
PY
touch "$OUT/job.done"
