#!/usr/bin/env python3
"""ptx_compare.py BEFORE.ptx AFTER.ptx — which kernels and device functions of two `nvcc -ptx` outputs
differ, function by function, once comments, the parameter block's size, block labels ($L__BB) and
local depots are renumbered alike.  Session 47 used it to show that a refactor left PARTITION's PTX
as it was, and that a field added last to GpugbAggParams moved no offset:
  nvcc -ptx -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Icuda -Isrc cuda/launch.cu -o X.ptx
(before and after), then this script.  Prints the counts and the names that differ or are new."""
import re
import sys


def funcs(path):
    text = open(path).read()
    parts = re.split(r'(?m)^(?=(?:\.visible |\.weak )?(?:\.entry|\.func))', text)
    out = {}
    for part in parts:
        m = re.search(r'\.entry\s+(\S+)\(|\.func\s+(?:\([^)]*\)\s*)?(\S+)\(', part)
        if m:
            body = re.sub(r'(?m)^\s*//.*$', '', part)
            body = re.sub(r'_param_0\[\d+\]', '_param_0[N]', body)
            body = re.sub(r'\$L__BB\d+_', '$L__BB_', body)
            body = re.sub(r'__local_depot\d+', '__local_depot', body)
            out[m.group(1) or m.group(2)] = body
    return out


def main():
    a, b = funcs(sys.argv[1]), funcs(sys.argv[2])
    differ = [k for k in a if k in b and a[k] != b[k]]
    gone = [k for k in a if k not in b]
    new = [k for k in b if k not in a]
    print(f"{len(a)} functions before, {len(b)} after: {len(differ)} differ, {len(gone)} gone, {len(new)} new")
    for k in differ:
        print("differs:", k)
    for k in gone:
        print("gone:", k)
    for k in new:
        print("new:", k)


if __name__ == "__main__":
    main()
