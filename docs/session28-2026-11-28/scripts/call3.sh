#!/usr/bin/env bash
# Session 28, call 3: the full kernel benchmark grid at the commit that plans the two lean
# experiments (auto now takes the one-block table at 2^11-2^12 groups with one payload, and
# partial tables run in 512-thread blocks).
#   run(command="bash docs/session28-2026-11-28/scripts/call3.sh", carry=[".gpu-box"], timeout_s=LIMIT)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/gpugb-call3}; mkdir -p "$O"
T0=$(date +%s); LIMIT=${LIMIT:-400}; left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
echo "HEAD $(cat .gpu-box/HEAD)"
make -s -j16 -C test/kernelbench CUDA_ARCHS=90 > "$O/kb-build.log" 2>&1; echo "kb build rc=$? at $(( $(date +%s) - T0 )) s"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER test/bin/kernelbench --reps 1 --max-seconds $(( $(left) - 15 )) \
  --csv "$O/grid.csv" --md "$O/grid.md" > "$O/grid.log" 2>&1
echo "kernelbench (full grid) rc=$? ($(( $(date +%s) - t0 )) s)"
sed -n '/^## Targets/,/^Missed/p' "$O/grid.md" | grep -E "^\|" | tail -5
grep -oE "[0-9]+ verified, [0-9]+ MISMATCH, [0-9]+ errors" "$O/grid.md"
grep -c "one-block lean table" "$O/grid.log"
cd "$O" && tar czf call3.tgz ./*.log ./*.csv ./*.md 2>/dev/null && rm -rf ./*.log ./*.csv ./*.md
echo "total $(( $(date +%s) - T0 )) s"
