#!/usr/bin/env python3
"""test/kernelbench/ncu_phases.py NCU.csv — the sort strategy's time by phase, per launch, next to
Thrust's pipeline, from an `ncu --metrics gpu__time_duration.sum --csv` run of the kernel benchmark
at one point with `--methods sort` (test/gpu-box-sort-profile-job.sh).

The benchmark's Thrust reference and gpugb's sort run in one process, and both use CUB's radix sort,
so kernel names alone cannot tell their sorts apart: this walks the launch order instead.  A gpugb
launch runs from gpugb_sort_key_kernel to gpugb_sorted_agg_kernel (or gpugb_agg_kernel before
session 19); Thrust's pipeline from its tabulate (for_each) to its reduce_by_key, before the
checksums.  Every phase is the mean over the launches found (the benchmark's warm-up and timed runs).

ncu_phases.py --by-kernel NCU.csv — any such run (any method): every kernel's time summed over the
run, the 14 largest, with how many launches each.

ncu_phases.py --in-order NCU.csv — any such run: the kernels in launch order, consecutive launches
of one kernel merged (time and count), and the total: where a probe launch's kernels stand apart
from the main launch's (the GPU-box call scripts of sessions 42-45 each carried this as a copy).
"""
import collections
import csv
import sys

SCALE = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0,
         "s": 1e3, "second": 1e3}


def kernels(path):
    rows = [r for r in csv.reader(open(path)) if len(r) > 10]
    if not rows:
        sys.exit(f"{path}: no ncu rows")
    head = rows[0]
    name_i, metric_i = head.index("Kernel Name"), head.index("Metric Name")
    value_i, unit_i = head.index("Metric Value"), head.index("Metric Unit")
    for r in rows[1:]:
        if r[metric_i] == "gpu__time_duration.sum":
            name = r[name_i].split("(")[0].split("<")[0].split("::")[-1].strip()
            yield name, float(r[value_i].replace(",", "")) * SCALE[r[unit_i]]


def gpugb_phase(name):
    if name.startswith("gpugb_"):
        return name[len("gpugb_"):].replace("_kernel", "")
    if "RadixSort" in name:
        return "radix sort"
    if "Scan" in name:
        return "run starts (scan)"
    return "other (" + name + ")"


def thrust_phase(name):
    if "RadixSort" in name:
        return "radix sort"
    if name in ("transform_kernel",):
        return "gather"
    if "_kernel_agent" in name:
        return "reduce_by_key"
    return "other (" + name + ")"


def by_kernel(path):
    total, launches = collections.Counter(), collections.Counter()
    for name, ms in kernels(path):
        total[name] += ms
        launches[name] += 1
    for name, ms in total.most_common(14):
        print(f"  {ms:10.3f} ms {launches[name]:4d}x  {name}")


def in_order(path):
    runs, total, n = [], 0.0, 0
    for name, ms in kernels(path):
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
            runs[-1][2] += ms
        else:
            runs.append([name, 1, ms])
        total, n = total + ms, n + 1
    for name, count, ms in runs:
        print(f"  {ms:8.3f} ms {count:3d}x  {name}")
    print(f"  total {total:.3f} ms over {n} kernels")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--by-kernel":
        by_kernel(sys.argv[2])
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--in-order":
        in_order(sys.argv[2])
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    ours, thrust = collections.OrderedDict(), collections.OrderedDict()
    n_ours = n_thrust = 0
    state = None
    for name, ms in kernels(sys.argv[1]):
        if name == "gpugb_sort_key_kernel":
            state, n_ours = "ours", n_ours + 1
        elif name == "static_kernel" and state != "thrust":
            state, n_thrust = "thrust", n_thrust + 1
        if state == "ours":
            phase = gpugb_phase(name)
            ours[phase] = ours.get(phase, 0.0) + ms
            if name in ("gpugb_sorted_agg_kernel", "gpugb_agg_kernel"):
                state = None
        elif state == "thrust":
            if name.startswith("Device") and "Reduce" in name:
                state = None        # the checksums: verification, not the pipeline
                continue
            phase = thrust_phase(name)
            thrust[phase] = thrust.get(phase, 0.0) + ms
    for label, phases, n in (("gpugb sort", ours, n_ours), ("thrust", thrust, n_thrust)):
        if n == 0:
            print(f"  {label}: no launch found")
            continue
        total = sum(phases.values()) / n
        print(f"  {label}: {total:8.3f} ms a launch ({n} launches)")
        for phase, ms in phases.items():
            print(f"    {ms / n:8.3f} ms  {phase}")


if __name__ == "__main__":
    main()
