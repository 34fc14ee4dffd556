#!/usr/bin/env python3
"""The planner's test records (tests/planner/data/): measured bench times beside what the planner needs to plan
those runs again without the graphs.

    scripts/planner-records.py TIERGRAPH PROFILE.json OUT.json BENCH.json...

Each BENCH.json is a `tiergraph bench GRAPH -a ... -p PLACEMENTS,auto --json` record. Per bench and algorithm:
the graph's facts and the zero-copy edge cache of the plan auto's run recorded (details.plan), or where that plan
lacks them (records before 2026-12-02), of `tiergraph plan` run again on the graph (still on disk at the path the
record names) with the bench's budget and the profile, are kept with the mean measured time of each placement
(PageRank per iteration, as scripts/plan-table.py compares them); the profile is copied beside OUT.json as
OUT.profile.json. tests/planner/planner_records_test.cc plans
every cell again from them with the current model and counts the predictions within 25%.

Take records with `bench --warmup 1` (since session 53): without it each placement's first run pays one-time costs
in its cell's mean, and the placement a bench runs first read 5-17% slower on the H100 (docs/PERF.md, "Session 53").
"""
import collections
import json
import subprocess
import sys


def sssp_delta(command):
    """The --delta a bench command line names (--delta X or --delta=X), 0 where it names none."""
    words = command.split()
    for i, w in enumerate(words):
        if w == "--delta" and i + 1 < len(words):
            return float(words[i + 1])
        if w.startswith("--delta="):
            return float(w.split("=", 1)[1])
    return 0.0


def cells_of(bench_path, tg, profile_path):
    """The cells of one bench record: one per algorithm, each placement's mean time."""
    with open(bench_path) as f:
        bench = json.load(f)
    runs = [r for r in bench["runs"] if r.get("compute_s") is not None]
    if not runs:
        raise ValueError("no timed runs")
    times = collections.defaultdict(list)
    for r in runs:
        ms = r["compute_s"] * 1e3
        if r["algorithm"] == "pagerank":
            ms /= r["iterations"]
        times[(r["algorithm"], r["placement"])].append(ms)
    details = runs[0]["details"]
    budget = details["budget_bytes"]
    # The room the engine found for edges: the GPU's free memory less its vertex data.
    room = details["gpu_free_bytes"] - details["vertex_bytes_estimate"]
    cells = []
    for algorithm in dict.fromkeys(r["algorithm"] for r in runs):
        # The plan auto's run recorded, where it holds the graph's facts; else planned here again.
        plan = next((r["details"]["plan"] for r in runs if r["algorithm"] == algorithm and r["placement"] == "auto"
                     and "graph" in r["details"].get("plan", {})), None)
        if plan is None:
            plan = json.loads(subprocess.run(
                [tg, "plan", algorithm, "--graph", runs[0]["graph"], "--gpu-mem", str(budget), "--profile",
                 profile_path, "--json"], check=True, capture_output=True, text=True).stdout)
        measured = {p: sum(v) / len(v) for (a, p), v in times.items() if a == algorithm}
        # The placement auto's runs took. A bench prepares a fixed placement once for all its algorithms
        # (SSSP's weights placed too, and over zero-copy cached beside the ids), auto once for each: auto's
        # time is the one of the configuration the planner predicted.
        auto_plan = next((r["details"]["plan"] for r in runs if r["algorithm"] == algorithm
                          and r["placement"] == "auto" and "plan" in r["details"]), {})
        # The streamed placements' heads cache as their runs held it (bench places them once for all its
        # algorithms: CC's heads beside the others' reads), auto's runs too where it took one of them (a bench
        # of device and auto alone: kron:25 hubs first on the H200, session 62).
        def streamed(placement):
            return placement.startswith("subgraph") or placement == "stream"
        streamed_heads = max((r["details"].get("edge_cache", {}).get("heads", 0) for r in runs
                              if r["algorithm"] == algorithm
                              and (streamed(r["placement"]) or (r["placement"] == "auto"
                                                                 and streamed(auto_plan.get("choice", ""))))),
                             default=0)
        cell = {"bench": bench_path.rsplit("/", 1)[-1], "algorithm": algorithm, "budget_bytes": budget,
                "room_bytes": room, "graph": plan["graph"], "zero_copy_cache": plan["zero_copy_cache"],
                "streamed_heads": streamed_heads,
                "auto_placement": auto_plan.get("choice"), "measured_ms": measured}
        # SSSP's bucket width as the bench ran it: its --delta, else 0 (the engine's own, which the subgraph
        # placement narrows and splits over light lists). The test takes records without it as run at 128.
        if algorithm == "sssp":
            cell["sssp_delta"] = sssp_delta(bench["command"])
        cells.append(cell)
    return cells


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    tg, profile_path, out_path = sys.argv[1:4]
    if not out_path.endswith(".json"):
        sys.exit(f"{out_path}: the records' name must end in .json")
    try:
        with open(profile_path) as f:
            profile = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{profile_path}: not a profile ({e})")
    cells = []
    for bench_path in sys.argv[4:]:
        try:
            cells += cells_of(bench_path, tg, profile_path)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, subprocess.CalledProcessError) as e:
            sys.exit(f"{bench_path}: not a bench record this script can read ({type(e).__name__}: {e})")
    # One cell a line; the profile beside it, as calibrate wrote it (OUT.profile.json).
    with open(out_path, "w") as f:
        f.write('{"cells": [\n' + ",\n".join(json.dumps(c) for c in cells) + "\n]}\n")
    with open(out_path[:-len(".json")] + ".profile.json", "w") as f:
        json.dump(profile, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
