#!/usr/bin/env bash
# Session 55, call 7: main with the L1 reserve (the group-id table's launch slots, cuda/launch.cu and
# src/heuristics.c) through PostgreSQL: the extension built on the box, pgTAP and 150 qgen queries with auto and
# with SHARED_HASH forced.
#   run(command="bash docs/session55-2026-12-01/next/call7.sh", carry=[".gpu-box/debs", ".gpu-box/scripts", ".gpu-box/HEAD"])
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 470
ext_build_start
ext_build_wait
pgtap_strategies auto shared_hash
call_pack s55-call7
