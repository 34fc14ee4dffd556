#!/usr/bin/python3
"""Charts of a `tiergraph bench` run, as PNG and SVG.

  scripts/bench-chart.py PREFIX.json [-o OUT]
  scripts/bench-chart.py PREFIX.csv [-o OUT] [--baseline PLACEMENT] [--title TEXT]

Above: the mean compute time of every graph x algorithm x placement (ms, log
scale); below: its speedup over the baseline placement (log scale). A cell
whose runs all failed is marked with an x. Writes OUT.png and OUT.svg (OUT
defaults to the input path without its extension).

The JSON's cells are drawn as bench computed them. A CSV (one row per run,
as bench writes it; older runs left only that) is averaged here the same way:
over the runs without an error; the baseline is --baseline, else uvm when it
ran, else the first placement.

Needs matplotlib (Debian: python3-matplotlib); `tiergraph bench` runs this
script itself at the end when it finds one.
"""
import argparse
import collections
import csv
import json
import os
import sys
import textwrap


def cells_from_json(path):
    with open(path) as f:
        j = json.load(f)
    cells = [
        {
            "graph": c["graph"],
            "algorithm": c["algorithm"],
            "placement": c["placement"],
            "ok": c["runs"] - c["failed"],
            "mean_s": c["mean_compute_s"],
            "speedup": c.get("speedup_over_baseline", 0.0),
        }
        for c in j["cells"]
    ]
    placements = j.get("placements") or list(dict.fromkeys(c["placement"] for c in cells))
    title = "tiergraph bench" + (" on " + j["gpu"] if j.get("gpu") else "")
    sources = j.get("sources", {})
    if "fixed" in sources:
        title += ", sources " + ", ".join(str(s) for s in sources["fixed"])
    elif "random" in sources:
        title += ", %d random sources per source-based algorithm" % sources["random"]
    if "cpu" in placements and j.get("threads"):
        title += ", cpu: %d threads" % j["threads"]
    return cells, placements, j.get("baseline", ""), title


def cells_from_csv(path, baseline):
    runs = collections.OrderedDict()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["placement"] == "*":  # refused before any placement
                continue
            cell = runs.setdefault((r["graph"], r["algorithm"], r["placement"]), [])
            if not r["error"]:
                cell.append(float(r["compute_s"]))
    placements = list(dict.fromkeys(p for _, _, p in runs))
    if not baseline:
        baseline = "uvm" if "uvm" in placements else (placements[0] if placements else "")
    means = {k: sum(v) / len(v) for k, v in runs.items() if v}
    cells = []
    for (g, a, p), times in runs.items():
        mean = means.get((g, a, p), 0.0)
        base = means.get((g, a, baseline), 0.0)
        cells.append({"graph": g, "algorithm": a, "placement": p, "ok": len(times), "mean_s": mean,
                      "speedup": base / mean if base > 0 and mean > 0 else 0.0})
    return cells, placements, baseline, "tiergraph bench: " + os.path.basename(path)


def draw(cells, placements, baseline, title, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.transforms import blended_transform_factory

    # Stable SVG ids and no date, so that a re-drawn chart differs only where the data does.
    plt.rcParams["svg.hashsalt"] = "tiergraph-bench"
    # Text as text, not glyph outlines: half the size, and searchable.
    plt.rcParams["svg.fonttype"] = "none"
    groups = list(dict.fromkeys((c["graph"], c["algorithm"]) for c in cells))
    at = {(c["graph"], c["algorithm"], c["placement"]): c for c in cells}
    n = max(len(placements), 1)
    width = 0.8 / n
    fig_w = max(6.0, 0.9 + len(groups) * (0.25 * n + 0.5))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(fig_w, 7.5), sharex=True)
    colors = plt.get_cmap("tab10" if n <= 10 else "tab20").colors
    for pi, p in enumerate(placements):
        xs, ms, sx, sp, failed = [], [], [], [], []
        for gi, (g, a) in enumerate(groups):
            c = at.get((g, a, p))
            if c is None:
                continue
            x = gi - 0.4 + width * (pi + 0.5)
            if c["ok"] == 0 or c["mean_s"] <= 0:
                failed.append(x)
                continue
            xs.append(x)
            ms.append(c["mean_s"] * 1e3)
            if c["speedup"] > 0:
                sx.append(x)
                sp.append(c["speedup"])
        color = colors[pi % len(colors)]
        top.bar(xs, ms, width * 0.9, color=color)
        bottom.bar(sx, sp, width * 0.9, color=color)
        at_bottom = blended_transform_factory(top.transData, top.transAxes)
        for x in failed:
            top.text(x, 0.02, "x", color="#999999", ha="center", transform=at_bottom)
    top.set_yscale("log")
    top.set_ylabel("mean compute time (ms, log scale)")
    top.grid(axis="y", which="major", color="#dddddd")
    top.set_axisbelow(True)
    bottom.set_yscale("log")
    bottom.set_ylabel("speedup over %s (log scale)" % baseline)
    bottom.axhline(1.0, color="#888888", linewidth=0.8)
    if not any(c["speedup"] > 0 for c in cells):
        bottom.text(0.5, 0.5, "no %s runs to compare with" % baseline, color="#999999", ha="center",
                    transform=bottom.transAxes)
    bottom.grid(axis="y", which="major", color="#dddddd")
    bottom.set_axisbelow(True)
    bottom.set_xlim(-0.5, len(groups) - 0.5)
    bottom.set_xticks(range(len(groups)))
    bottom.set_xticklabels(["%s\n%s" % (a, os.path.basename(g)) for g, a in groups])
    top.set_title(textwrap.fill(title, int(fig_w * 11)), fontsize=10)
    # Every placement in the legend, also one whose runs all failed (it has no bars to take a colour from).
    legend = [Patch(color=colors[pi % len(colors)], label=p) for pi, p in enumerate(placements)]
    top.legend(handles=legend, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="placement",
               title_fontsize=8)
    fig.tight_layout()
    written = []
    for ext in ("png", "svg"):
        path = out + "." + ext
        fig.savefig(path, dpi=120, metadata={"Date": None} if ext == "svg" else None, bbox_inches="tight")
        written.append(path)
    plt.close(fig)
    return written


def main(argv):
    ap = argparse.ArgumentParser(description="Draw a tiergraph bench run (JSON or CSV) as PNG and SVG charts.")
    ap.add_argument("input", help="PREFIX.json (or PREFIX.csv) written by tiergraph bench")
    ap.add_argument("-o", "--output", help="OUT: writes OUT.png and OUT.svg (default: the input without its extension)")
    ap.add_argument("--baseline",
                    help="CSV input: the placement speedups are measured against (default: uvm, else the first)")
    ap.add_argument("--title", help="the chart's title")
    args = ap.parse_args(argv)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.exit("bench-chart.py: no matplotlib for %s (Debian: apt-get install python3-matplotlib)" % sys.executable)
    out = args.output or os.path.splitext(args.input)[0]
    if os.path.splitext(out)[1] in (".png", ".svg"):
        out = os.path.splitext(out)[0]
    try:
        if args.input.endswith(".csv"):
            cells, placements, baseline, title = cells_from_csv(args.input, args.baseline)
        else:
            cells, placements, baseline, title = cells_from_json(args.input)
    except (OSError, ValueError, KeyError) as e:
        sys.exit("bench-chart.py: %s: %s" % (args.input, e))
    if not cells:
        sys.exit("bench-chart.py: %s: no cells to draw" % args.input)
    written = draw(cells, placements, baseline, args.title or title, out)
    print("wrote " + ", ".join(written))


if __name__ == "__main__":
    main(sys.argv[1:])
