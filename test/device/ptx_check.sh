#!/usr/bin/env bash
# test/device/ptx_check.sh PTX...: fails when a PTX file stores through a
# generic address that nvcc folded to "0 + offset", the miscompile that gave
# gpugb_lean_fast_kernel an illegal address on the H200 (session 30, call 1):
# nvcc 13.0 turned the generic address of a dynamic shared-memory variable
# into its shared offset added to 0 ("add.s64 %rd, 0, %rd") and stored it
# with st.global.  No GPU is needed to see it, and the emulator, which runs
# no kernels, cannot; so CI looks at the PTX.  No kernel of ours adds a
# literal 0 to a 64-bit register otherwise.
status=0
for f in "$@"; do
  hits=$(grep -nP 'add\.s64\s+%rd\d+,\s*0,\s*%rd\d+;' "$f")
  if [ -n "$hits" ]; then
    echo "ptx_check: $f: a generic address folded to 0 + offset (a shared-memory pointer stored as global?):"
    echo "$hits" | head -5
    status=1
  fi
done
exit $status
