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
#     global_hash, sort and auto, A/B in the same run, KB_SECONDS (110) each;
#  4. issue 3 item 6: each strategy forced through the pgTAP suites and QGEN_STRATEGY_QUERIES
#     (500) qgen queries, one strategy at a time so that a failure does not stop the others;
#  5. the whole kernel benchmark grid (GRID_SECONDS, 420; 0 skips it).
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
job_start
step_selftest --quick || { job_done; exit 0; }
step_regress
step_qgen
step_kb_ab 8 "${KB_SECONDS:-110}"
for s in global_hash shared_hash sort partition private_hash; do step_strategy "$s"; done
if [ "${GRID_SECONDS:-420}" != 0 ]; then
  t0=$(date +%s)
  CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --reps 1 --max-seconds "${GRID_SECONDS:-420}" \
    --csv "$OUT/kernelbench.csv" --md "$OUT/kernelbench.md" > "$OUT/kernelbench.log" 2>&1
  echo "kernelbench grid rc=$? ($(( $(date +%s) - t0 )) s)"
  sed -n '/^## Targets/,/^## Verification/p' "$OUT/kernelbench.md" | head -14
  grep -E "verified|MISMATCH" "$OUT/kernelbench.md" | head -3
fi
job_done
