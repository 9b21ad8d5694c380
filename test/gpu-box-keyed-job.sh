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
#     generator): global_hash, sort and auto, KB_SECONDS (150) each.
# shellcheck disable=SC1091
source "$(dirname "$0")/lib/gpu-box-steps.sh"
job_start
step_regress
step_qgen
step_selftest --quick
step_kb_ab 4 "${KB_SECONDS:-150}"
job_done
