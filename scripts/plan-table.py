#!/usr/bin/env python3
"""The planner against measured times, from one `tiergraph bench ... -p PLACEMENTS,auto --json` file.

    scripts/plan-table.py BENCH.json [LABEL]

Per algorithm: every fixed placement's mean compute time (PageRank: per iteration), auto's choice and time, the
best fixed placement and auto / best, and per placement the planner's prediction (from auto's rows,
details.plan) over the measured time: for the placement auto chose, over auto's time. A bench prepares a fixed
placement once for all its algorithms (SSSP's weights placed too, and over zero-copy cached beside the ids),
auto once for each, as the planner predicted it. A ratio within 0.75-1.25 is the issue's "within 25%".
"""
import collections
import json
import sys


def per_iteration(algorithm):
    """PageRank's rows are compared per iteration (its runs stop at different iteration counts)."""
    return algorithm == "pagerank"


def per_unit(run):
    t = run["compute_s"] * 1e3
    return t / run["iterations"] if per_iteration(run["algorithm"]) and run.get("iterations") else t


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: scripts/plan-table.py BENCH.json [LABEL]")
    try:
        with open(sys.argv[1]) as f:
            runs = list(json.load(f)["runs"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"{sys.argv[1]}: not a bench record ({e})")
    label = sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]
    times = collections.defaultdict(list)
    plans = {}
    for r in runs:
        if r.get("compute_s") is None:
            continue
        times[(r["algorithm"], r["placement"])].append(per_unit(r))
        plan = r.get("details", {}).get("plan")
        if r["placement"] == "auto" and plan:
            plans[r["algorithm"]] = plan
    algos = list(dict.fromkeys(a for a, _ in times))
    print(f"{label}: ms (PageRank per iteration); pred/meas per placement")
    for a in algos:
        fixed = {p: mean(v) for (aa, p), v in times.items() if aa == a and p != "auto"}
        auto = times.get((a, "auto"))
        plan = plans.get(a, {})
        best = min(fixed.items(), key=lambda kv: kv[1]) if fixed else ("-", float("nan"))
        auto_ms = mean(auto)
        ratios = []
        for c in plan.get("candidates", []):
            p = c["placement"]
            per_iter = per_iteration(a) and "predicted_per_iteration_s" in c
            pred = (c["predicted_per_iteration_s"] if per_iter else c["predicted_compute_s"]) * 1e3
            if c.get("fits") and p == plan.get("choice") and auto:
                ratios.append(f"{p}(auto) {pred / auto_ms:.2f}")
            elif p in fixed:
                ratios.append(f"{p} {pred / fixed[p]:.2f}")
        print(f"  {a:9} auto {plan.get('choice', '?'):17} {auto_ms:9.2f} | best {best[0]:17} {best[1]:9.2f} | "
              f"auto/best {auto_ms / best[1]:.2f} | " + ", ".join(ratios))
        print("            measured: " + ", ".join(f"{p} {t:.2f}" for p, t in sorted(fixed.items())))


if __name__ == "__main__":
    main()
