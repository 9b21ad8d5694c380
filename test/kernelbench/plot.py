#!/usr/bin/env python3
"""Plot the kernel benchmark's CSV: throughput against g.

    python3 test/kernelbench/plot.py kernelbench.csv kernelbench.png [--title TEXT]

One panel per (key width, payload columns, distribution), laid out with a
row per (key width, payloads) and a column per distribution; x is log2 of
the number of groups g, y is G rows/s (log scale), one line per method, and
a dashed grey line for the device-memory floor (every word read once at the
measured bandwidth).  Results that failed verification are drawn as red
crosses, so a fast wrong answer cannot pass for a fast one.

Needs matplotlib (pip install matplotlib); runs without a display.
"""
import argparse
import csv
import io
import sys
from collections import defaultdict

import matplotlib
from PIL import Image  # matplotlib's own dependency (pillow)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

METHOD_STYLE = {
    "global_hash": dict(color="tab:blue", marker="o"),
    "shared_hash": dict(color="tab:green", marker="s"),
    "sort": dict(color="tab:orange", marker="^"),
    "partition": dict(color="tab:red", marker="D"),
    "private_hash": dict(color="tab:brown", marker="P"),
    "auto": dict(color="black", marker="x", linestyle="--"),
    "thrust": dict(color="tab:purple", marker="v", linestyle=":"),
}
GOOD = {"yes", "reference", "unverified"}


def dist_key(name):
    """uniform first, then Zipf by exponent."""
    if name == "uniform":
        return (0, 0.0)
    try:
        return (1, float(name[4:]))
    except ValueError:
        return (2, 0.0)


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"plot.py: {path} has no measurements")
    return rows


def panels(rows):
    """{(key_bytes, payloads): {dist: {method: [(log2_g, rate, verified)]}}} and floors."""
    data = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    floors = defaultdict(dict)
    for r in rows:
        if not r["g_rows_per_s"]:
            continue
        combo = (int(r["key_bytes"]), int(r["payloads"]))
        lg = int(r["log2_g"])
        data[combo][r["dist"]][r["method"]].append(
            (lg, float(r["g_rows_per_s"]), r["verified"] in GOOD))
        if r["floor_seconds"] and float(r["floor_seconds"]) > 0:
            floors[(combo, r["dist"])][lg] = int(r["rows"]) / float(r["floor_seconds"]) / 1e9
    return data, floors


def draw_panel(ax, methods, floor):
    if floor:
        xs = sorted(floor)
        ax.plot(xs, [floor[x] for x in xs], color="grey", linestyle="--", linewidth=1,
                label="floor (bandwidth)")
    # Methods without a style of their own (a strategy added later) still get a line.
    extra = {m: dict(color="tab:gray", marker=".") for m in sorted(methods) if m not in METHOD_STYLE}
    for method, style in {**METHOD_STYLE, **extra}.items():
        pts = sorted(methods.get(method, []))
        if not pts:
            continue
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=method, markersize=4,
                linewidth=1.3, **style)
        bad = [p for p in pts if not p[2]]
        if bad:
            ax.scatter([p[0] for p in bad], [p[1] for p in bad], color="red", marker="X", s=60,
                       zorder=5, label=None)
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.set_xticks(range(0, 31, 4))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()

    data, floors = panels(load(args.csv))
    if not data:
        sys.exit(f"plot.py: {args.csv} has no timed measurements")
    combos = sorted(data)
    dists = sorted({d for c in combos for d in data[c]}, key=dist_key)
    fig, axes = plt.subplots(len(combos), len(dists), squeeze=False, sharex=True,
                             figsize=(4.2 * len(dists), 3.2 * len(combos)))
    for i, combo in enumerate(combos):
        for j, dist in enumerate(dists):
            ax = axes[i][j]
            draw_panel(ax, data[combo].get(dist, {}), floors.get((combo, dist)))
            kb, pl = combo
            ax.set_title(f"{kb}-byte keys, {pl} payload{'s' if pl != 1 else ''}, {dist}",
                         fontsize=9)
            if j == 0:
                ax.set_ylabel("G rows/s")
            if i == len(combos) - 1:
                ax.set_xlabel("log2(groups)")
    handles, labels = [], []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=9,
               bbox_to_anchor=(0.5, 0.0))
    rows = load(args.csv)[0]["rows"]
    fig.suptitle(args.title or f"gpugb kernel benchmark: {rows} rows resident on the device "
                 "(red X: failed verification)", fontsize=11)
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    save_palette_png(fig, args.png)
    print(f"plot.py: wrote {args.png} ({len(combos)}x{len(dists)} panels)")


def save_palette_png(fig, path):
    """The figure as a PNG of 128 colours: about a quarter of the bytes of matplotlib's RGBA
    file (0.17 against 0.64 MB for a 28-panel grid), which matters because the GPU box's device
    tool copies the working tree, tracked files included, and caps it at 64 MiB."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    buf.seek(0)
    Image.open(buf).convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(
        path, optimize=True)


if __name__ == "__main__":
    main()
