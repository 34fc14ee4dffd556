#!/usr/bin/env python3
"""Hit ratio of the feature store's GPU tier per tier score (issue 11, docs/FEATURES.md).

One epoch of GraphSAGE-style mini-batches (NeighborSampler, on a GPU where
there is one) over a generated power-law graph; every batch's input nodes are
gathered from a FeatureStore whose hottest --fraction rows (by each score)
form the GPU tier. The rows are one fp32 column: hits and bytes per row do not
depend on the row's width, and the counts come from the store's own stats.
Prints a table and, with --json, one JSON line per (score, fraction).

    python3 scripts/tiering-hits.py --graph kron:27 --edge-factor 6 --train-fraction 0.01   # papers100M's shape
"""
import argparse
import json
import sys
import time

import numpy as np

import tiergraph

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("--graph", default="kron:18")
p.add_argument("--edge-factor", type=int, default=16)
p.add_argument("--fanouts", default="15,10,5")
p.add_argument("--batch-size", type=int, default=1024)
p.add_argument("--train-fraction", type=float, default=0.01, help="of the nodes with in-edges")
p.add_argument("--fractions", default="0.05,0.1,0.2", help="GPU-tier fractions to try")
p.add_argument("--scores", default="degree,reverse-pagerank,weighted-reverse-pagerank")
p.add_argument("--seed", type=int, default=1)
p.add_argument("--json", action="store_true")
a = p.parse_args()
fanouts = [int(f) for f in a.fanouts.split(",")]
fractions = [float(f) for f in a.fractions.split(",")]

t = time.perf_counter()
g = tiergraph.generate(a.graph, edge_factor=a.edge_factor, seed=a.seed)
print(f"{a.graph} (edge factor {a.edge_factor}): {g.num_vertices} nodes, {g.num_edges} edges, "
      f"made in {time.perf_counter() - t:.1f} s", file=sys.stderr)
sampler = tiergraph.NeighborSampler(g, fanouts, seed=a.seed)
rng = np.random.default_rng(a.seed)
# Training nodes: a random share of the nodes that have in-edges (kron leaves many isolated).
candidates = np.flatnonzero(tiergraph.tier_scores(g, score="degree") > 0)
train = rng.choice(candidates, size=max(1, int(len(candidates) * a.train_fraction)), replace=False)
batches = [np.sort(train[i:i + a.batch_size]) for i in range(0, len(train), a.batch_size)]
t = time.perf_counter()
inputs = [sampler.sample(b)[-1]["src_nodes"] for b in batches]  # one epoch's input nodes, reused for every score
rows_read = sum(len(x) for x in inputs)
print(f"{len(train)} training nodes, {len(batches)} batches, {rows_read} input rows an epoch, sampled in "
      f"{time.perf_counter() - t:.1f} s on the {'GPU' if sampler.on_gpu else 'CPU'}", file=sys.stderr)

features = np.zeros((g.num_vertices, 1), dtype=np.float32)
print(f"{'score':<28} {'GPU rows':>9} {'hit ratio':>10} {'host bytes cut':>15} {'set up s':>9}")
for score in a.scores.split(","):
    for fraction in fractions:
        t = time.perf_counter()
        store = tiergraph.FeatureStore(features, graph=g, gpu_fraction=fraction, score=score, use_gpu=False,
                                       train_ids=train if score == "weighted-reverse-pagerank" else None)
        setup = time.perf_counter() - t
        for ids in inputs:
            store[ids]
        s = store.stats()
        print(f"{score:<28} {fraction:>9.2f} {s['hit_ratio']:>10.3f} {s['hit_ratio'] * 100:>14.1f}% {setup:>9.1f}")
        if a.json:
            print(json.dumps({"graph": a.graph, "edge_factor": a.edge_factor, "fanouts": fanouts, "score": score,
                              "gpu_fraction": fraction, "hit_ratio": s["hit_ratio"], "hits": s["hits"],
                              "batches": len(batches), "train": len(train)}), flush=True)
