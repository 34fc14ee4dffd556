#!/usr/bin/env python3
"""Markdown tables from `tiergraph bench` JSON files of scripts/subway-perf.sh.

  scripts/subway-table.py subway-kron-25.json uvm-kron-25.json [sweep-*.json]

Per algorithm: mean compute ms per placement (and the speedup over stream-pt),
GB moved across the link and its reduction against PT, and how the subgraph
placement's push steps were served (subgraph-cpu / subgraph-gpu / stream).
Sweep files (same placements at several --stream-threshold values) give one
row per threshold.
"""
import collections
import json
import re
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def main(paths):
    main_runs, sweeps = [], []
    for p in paths:
        j = load(p)
        m = re.search(r"--stream-threshold (\S+)", j.get("command", ""))
        (sweeps if m else main_runs).append((m.group(1) if m else None, j))
    cells = collections.OrderedDict()
    for _, j in main_runs:
        for r in j["runs"]:
            if "error" in r:
                cells.setdefault((r["algorithm"], r["placement"]), {"error": r["error"]})
                continue
            c = cells.setdefault((r["algorithm"], r["placement"]), {"ms": [], "moved": [], "needed": [], "by": collections.Counter(), "ok": 0})
            if "error" in c:
                continue
            c["ms"].append(r["compute_s"] * 1e3)
            c["moved"].append(r["bytes_moved"])
            c["needed"].append(r["bytes_needed"])
            c["ok"] += r["verified"] == "ok"
            sub = r.get("details", {}).get("subgraph", {})
            c["by"].update(sub.get("iterations_by_transfer", {}))
    algos = list(dict.fromkeys(a for a, _ in cells))
    places = list(dict.fromkeys(p for _, p in cells))
    print("| algorithm | " + " | ".join(places) + " |")
    print("| --- " * (len(places) + 1) + "|")
    for a in algos:
        pt = cells.get((a, "stream-pt"))
        pt_ms = mean(pt["ms"]) if pt and "ms" in pt else None
        row = []
        for p in places:
            c = cells.get((a, p))
            if c is None:
                row.append("-")
            elif "error" in c:
                row.append("error")
            else:
                ms = mean(c["ms"])
                row.append("%.1f" % ms + (" (%.1fx)" % (pt_ms / ms) if pt_ms and p != "stream-pt" else ""))
        print("| %s | %s |" % (a, " | ".join(row)))
    print()
    print("GB moved across the link per run (mean), and the reduction against stream-pt:")
    print()
    print("| algorithm | " + " | ".join(places) + " |")
    print("| --- " * (len(places) + 1) + "|")
    for a in algos:
        pt = cells.get((a, "stream-pt"))
        pt_gb = mean(pt["moved"]) / 1e9 if pt and "moved" in pt else None
        row = []
        for p in places:
            c = cells.get((a, p))
            if c is None or "moved" not in c:
                row.append("-")
                continue
            gb = mean(c["moved"]) / 1e9
            row.append("%.2f" % gb + (" (-%.0f%%)" % (100 * (1 - gb / pt_gb)) if pt_gb and p != "stream-pt" else ""))
        print("| %s | %s |" % (a, " | ".join(row)))
    print()
    print("Push steps of the subgraph placements by transfer (all runs):")
    print()
    for (a, p), c in cells.items():
        if p.startswith("subgraph") and "by" in c and c["by"]:
            print("- %s %s: %s" % (a, p, ", ".join("%s %d" % kv for kv in sorted(c["by"].items()))))
    if sweeps:
        print()
        print("Stream-threshold sweep (mean compute ms):")
        print()
        sweep = collections.OrderedDict()
        for t, j in sorted(sweeps, key=lambda x: float(x[0])):
            for r in j["runs"]:
                if "error" not in r:
                    sweep.setdefault((t, r["algorithm"], r["placement"]), []).append(r["compute_s"] * 1e3)
        keys = list(dict.fromkeys((a, p) for _, a, p in sweep))
        print("| threshold | " + " | ".join("%s %s" % k for k in keys) + " |")
        print("| --- " * (len(keys) + 1) + "|")
        for t in dict.fromkeys(t for t, _, _ in sweep):
            print("| %s | %s |" % (t, " | ".join("%.1f" % mean(sweep.get((t,) + k, [])) for k in keys)))


if __name__ == "__main__":
    main(sys.argv[1:])
