#!/usr/bin/env bash
# Session 26, call 1 (about 9 minutes), from the repository root on the GPU box, carrying .gpu-box:
#   run(command="bash docs/session25-2026-11-28/next/call1.sh", carry=[".gpu-box"], timeout_s=600)
# Checks what session 25 changed after its last GPU call (docs/session25-2026-11-28/README.md,
# sections 4 and 5): the self-test (case 69, the partial-lean choice), the kernel benchmark at
# Zipf 1.0/1.5 with the skew unknown and then known (--planned-skew on), and PostgreSQL with
# auto (pg_regress, then pgTAP and qgen in gpu mode as time allows).
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call1}; mkdir -p "$O"
T0=$(date +%s); left() { echo $(( 570 - ($(date +%s) - T0) )); }
( make -s -j16 -C test/device CUDA_ARCHS=90 > "$O/selftest-build.log" 2>&1; echo "selftest build rc=$?" ) &
( make -s -j16 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$?" ) &
( source .gpu-box/scripts/start-postgres.sh .gpu-box/debs >/dev/null 2>&1
  make -s -j16 PG_CONFIG="$PG_CONFIG" CUDA_ARCHS=90 > "$O/ext-build.log" 2>&1; echo "ext build rc=$?" ) &
wait; echo "builds done at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
timeout 150 test/bin/device_selftest --require-gpu --quick > "$O/selftest.log" 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$O/selftest.log")"
grep -E "^FAIL" "$O/selftest.log" | head -5; grep -E "zipf 1.5 over 1e5" "$O/selftest.log" | head -7
for skew in off on; do
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER timeout 120 test/bin/kernelbench --reps 1 --planned-skew $skew \
    --payloads 1,4 --dists zipf1.0,zipf1.5 --log2-groups 10:26:2 \
    --methods auto,shared_hash,sort,global_hash --max-seconds 100 \
    --csv "$O/kb-skew-$skew.csv" --md "$O/kb-skew-$skew.md" > "$O/kb-skew-$skew.log" 2>&1
  echo "kernelbench --planned-skew $skew rc=$? ($(( $(date +%s) - t0 )) s)"
  sed -n '/^## Targets/,/^## Verification/p' "$O/kb-skew-$skew.md" | grep -E "^\| auto within 20|^- " | head -8
  grep -oE "[0-9]+ verified, [0-9]+ MISMATCH" "$O/kb-skew-$skew.md"
done
t0=$(date +%s)
OUT="$O/regress" timeout 200 bash test/gpu-box.sh regress > "$O/regress.log" 2>&1
echo "regress (gpu mode) rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E 'tests passed|failed' "$O/regress.log" | tail -1)"
echo "left $(left) s"
if [ "$(left)" -gt 150 ]; then
  t0=$(date +%s)
  STRATEGIES=auto QGEN_STRATEGY_QUERIES=600 OUT="$O/strategies" timeout $(( $(left) - 10 )) \
    bash test/gpu-box.sh strategies > "$O/strategies.log" 2>&1
  echo "strategies auto rc=$? ($(( $(date +%s) - t0 )) s):"; grep -E '^Result|queries checked' "$O/strategies.log" | tail -3
fi
cd "$O" && tar czf call1.tgz ./*.log ./*.csv ./*.md strategies regress 2>/dev/null &&
  rm -rf ./*.log ./*.csv strategies regress
echo "total $(( $(date +%s) - T0 )) s"
