#!/usr/bin/env python3
"""Neighbour sampling from Python as a training loop calls it (issue 11): sampled edges per second for
tiergraph.NeighborSampler on a GPU, the hops handed back as NumPy arrays (copied to host memory) and as CUDA
tensors (sample(seeds, cuda=True): torch's allocator, torch's current stream, no copy), the graph in GPU memory
and read from host memory by zero-copy. Each batch has fresh distinct random seeds with in-edges; its time ends
when the hops are usable (torch.cuda.synchronize() for the CUDA form). Prints one line per form, or --json.

  PYTHONPATH=build/python python3 benchmarks/python/sample_bench.py --graph kron:24 --fanouts 25,10 --batches 50
"""
import argparse
import json
import sys
import time

import numpy as np

import tiergraph


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--graph", default="kron:16", help="a file or a generator spec (default kron:16)")
    p.add_argument("--fanouts", nargs="+", default=["25,10"],
                   help="per hop, comma-separated; several sets measure each on one graph (default 25,10)")
    p.add_argument("--batch", type=int, default=1024, help="seeds a batch (default 1024)")
    p.add_argument("--batches", type=int, default=50, help="timed batches a form (default 50, after 5 untimed)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    a = p.parse_args()
    try:
        fanout_sets = [[int(f) for f in spec.split(",")] for spec in a.fanouts]
    except ValueError:
        p.error(f"--fanouts {' '.join(a.fanouts)!r}: integers separated by commas")
    if a.batch < 1 or a.batches < 1:
        p.error("--batch and --batches must be at least 1")
    try:
        import torch
    except ImportError:
        sys.exit("sample_bench: needs torch with CUDA")
    if not torch.cuda.is_available():
        sys.exit("sample_bench: torch sees no GPU")
    g = tiergraph.generate(a.graph) if ":" in a.graph else tiergraph.load(a.graph)
    rng = np.random.default_rng(1)
    # Seeds with edges, as tg_sample_bench's (the degree score counts in-edges on an undirected graph).
    pool = np.flatnonzero(tiergraph.tier_scores(g, score="degree"))
    rows = []
    for spec, fanouts in zip(a.fanouts, fanout_sets):
        for zero_copy in (False, True):
            sampler = tiergraph.NeighborSampler(g, fanouts, use_gpu=True, zero_copy=zero_copy)
            rows += measure(sampler, spec, zero_copy, pool, rng, a, torch)
    if a.json:
        print(json.dumps({"rows": rows}))
    else:
        for r in rows:
            print("%-8s %-10s %-14s %-6s %8.2f ms a batch %8.1f M sampled edges/s" % (
                r["graph"], r["fanouts"], "zero-copy" if r["zero_copy"] else "in GPU memory", r["hops_out"],
                r["ms_per_batch"], r["m_edges_per_s"]))


def measure(sampler, spec, zero_copy, pool, rng, a, torch):
    """Both forms of the hops, the NumPy one first, each after 5 untimed batches."""
    rows = []
    for cuda in (False, True):
        edges, elapsed = 0, 0.0
        for i in range(5 + a.batches):
            # Distinct seeds without rng.choice's permutation of the whole pool.
            picked = np.unique(rng.integers(0, len(pool), 2 * a.batch))[:a.batch]
            seeds = pool[rng.permutation(picked)]
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            hops = sampler.sample(seeds, cuda=cuda)
            if cuda:
                torch.cuda.synchronize()
            t = time.perf_counter() - t0
            if i >= 5:
                elapsed += t
                edges += sum(int(h["edge_index"].shape[1]) for h in hops)
        rows.append({"graph": a.graph, "fanouts": spec, "batch": a.batch, "zero_copy": zero_copy,
                     "hops_out": "cuda" if cuda else "numpy", "batches": a.batches,
                     "ms_per_batch": 1e3 * elapsed / a.batches, "m_edges_per_s": edges / elapsed / 1e6,
                     "edges_per_batch": edges / a.batches})
    return rows


if __name__ == "__main__":
    main()
