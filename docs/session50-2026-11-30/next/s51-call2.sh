#!/usr/bin/env bash
# Written in session 50 for session 51 (after s51-call1.sh, same binaries): auto's probe of 2^18 rows against its
# default 2^20 (kernelbench --probe-rows, spec.device_probe_rows), over the whole grid, since the probe's size
# decides auto at every g. Auto at 2^24 (4-byte keys, one payload) took 11.80 ms uniform (2.99x Thrust) and 11.64
# with Zipf 1.0 (2.94x), about 0.5 ms behind forced PARTITION, part of it the probe, the table's clear and the
# restart. The targets to watch: auto within 20 % of the best (224/224 now) and auto >= 3x Thrust (189/224).
#   run(command="bash docs/session50-2026-11-30/next/s51-call2.sh",
#       carry=[".gpu-box/HEAD", ".gpu-box/bins-s51.tar.xz"], timeout_s=600)
# Afterwards: python3 test/kernelbench/ab_table.py probe20.csv probe18.csv, and the targets of each merged grid.
source "$(dirname "$0")/../../../test/lib/gpu-box-steps.sh"
call_start 580 .gpu-box/bins-s51.tar.xz
G="--methods auto --keys 4,8 --payloads 1,4 --log2-groups 0:26:2 --dists uniform,zipf0.5,zipf1.0,zipf1.5"
prebuilt_kb probe20 s51 270 $G
prebuilt_kb probe18 s51 270 $G --probe-rows 262144
ab_ratios probe20 probe18
call_pack s51-call2
