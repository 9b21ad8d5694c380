#!/usr/bin/env bash
# Session 24, call 1: self-test (lean launch stat, lean NULLs, partial lean tables), then the
# kernel benchmark at 2^10-2^20 groups where a partial lean table is new.
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
t0=$(date +%s)
( make -s -j16 -C test/device CUDA_ARCHS=90 > $O/selftest-build.log 2>&1; echo "selftest build rc=$?" ) &
make -s -j16 -C test/kernelbench CUDA_ARCHS=90 > $O/kb-build.log 2>&1; echo "kb build rc=$?"
wait; echo "builds $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
timeout 200 test/bin/device_selftest --require-gpu --quick > $O/selftest.log 2>&1
echo "selftest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 $O/selftest.log)"; grep -E "^FAIL" $O/selftest.log | head
grep -E "lean partial" $O/selftest.log | grep shared_hash | head -4
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 200 test/bin/kernelbench --keys 4 --payloads 1,4 --dists uniform,zipf0.5,zipf1.0,zipf1.5 \
  --log2-groups 10:20:2 --methods shared_hash,global_hash,sort,auto --max-seconds 170 \
  --csv $O/kb.csv --md $O/kb.md > $O/kb.log 2>&1
echo "kb rc=$? ($(( $(date +%s) - t0 )) s)"; grep -E "verified|MISMATCH" $O/kb.md | head -3
cd $O && tar czf all.tgz *.log kb.csv kb.md 2>/dev/null; rm -f *.log kb.md
