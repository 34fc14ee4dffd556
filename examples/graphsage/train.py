#!/usr/bin/env python3
"""GraphSAGE mini-batch training with tiergraph's sampler and feature store.

Everything is generated, nothing is downloaded: a Kronecker graph, random
features, and labels that a GraphSAGE layer can learn (each node's class is
the arg-max of a fixed random projection of its in-neighbours' mean feature).
Each epoch prints its time split into sampling, gathering and compute, and
--json adds one machine-readable line per epoch.

    python3 examples/graphsage/train.py --graph kron:18 --features 128 --epochs 3
    python3 examples/graphsage/train.py --gather cpu ...   # the baseline: torch index_select + copy

With a GPU the store keeps --gpu-fraction of the rows (by --score) in GPU
memory, the next --peer-fraction interleaved over the other GPUs (read over
NVLink; none found: they stay in host memory), gathers the rest from host memory by zero-copy and hands the batch
over as a CUDA tensor; --gather cpu is what DGL and PyG do (CPU threads
gather into a tensor that is then copied to the GPU). Without a GPU both run
on the CPU.

The three lines that matter:
    sampler = tiergraph.NeighborSampler(g, fanouts=[25, 10])
    store = tiergraph.FeatureStore(features, graph=g, gpu_fraction=0.1)
    x = store[blocks[-1]["src_nodes"]]
"""

import argparse
import json
import sys
import time

import numpy as np
import torch

import tiergraph


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graph", default="kron:16", help="a generator spec or a graph file (default kron:16)")
    p.add_argument("--features", type=int, default=64, help="feature columns, fp32 (default 64)")
    p.add_argument("--classes", type=int, default=4)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--fanouts", default="10,5", help="per layer from the batch outwards (default 10,5)")
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--train-fraction", type=float, default=0.5, help="nodes trained on, the rest evaluated")
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--gather", choices=["store", "cpu"], default="store",
                   help="store: tiergraph.FeatureStore (GPU tiers where there is a GPU); cpu: index_select + copy")
    p.add_argument("--gpu-fraction", type=float, default=0.1, help="rows kept in GPU memory (store only)")
    p.add_argument("--peer-fraction", type=float, default=0.0,
                   help="the next rows, interleaved over the other GPUs' memories (store only)")
    p.add_argument("--score", default="degree", help="which rows are hot: degree, reverse-pagerank, "
                   "weighted-reverse-pagerank")
    p.add_argument("--device", default="auto", help="auto (cuda when there is one), cpu or cuda")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="also one JSON line per epoch on stdout")
    a = p.parse_args(argv)
    try:
        a.fanouts = [int(f) for f in a.fanouts.split(",")]
    except ValueError:
        p.error(f"--fanouts: '{a.fanouts}' is not a comma-separated list of integers")
    if a.batch_size < 1 or a.epochs < 1 or a.features < 1 or a.classes < 2:
        p.error("--batch-size, --epochs and --features must be positive, --classes at least 2")
    if not 0.0 < a.train_fraction < 1.0:
        p.error("--train-fraction must lie strictly between 0 and 1")
    return a


class SageLayer(torch.nn.Module):
    """GraphSAGE with the mean aggregator: W_self h_dst + W_neigh mean(h_src over sampled in-edges)."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_weight = torch.nn.Linear(d_in, d_out)
        self.neigh_weight = torch.nn.Linear(d_in, d_out, bias=False)

    def forward(self, h_src, block):
        src, dst = block["edge_index"]
        n_dst = block["num_dst"]
        total = torch.zeros(n_dst, h_src.shape[1], device=h_src.device, dtype=h_src.dtype)
        total.index_add_(0, dst, h_src[src])
        count = torch.zeros(n_dst, device=h_src.device, dtype=h_src.dtype)
        count.index_add_(0, dst, torch.ones_like(dst, dtype=h_src.dtype))
        mean = total / count.clamp(min=1).unsqueeze(1)
        return self.self_weight(h_src[:n_dst]) + self.neigh_weight(mean)


class GraphSage(torch.nn.Module):
    def __init__(self, d_in, hidden, classes, layers):
        super().__init__()
        dims = [d_in] + [hidden] * (layers - 1) + [classes]
        self.layers = torch.nn.ModuleList(SageLayer(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, x, blocks):
        # blocks[0] ends at the batch; the features belong to the outermost hop's sources.
        h = x
        for i, block in enumerate(reversed(blocks)):
            h = self.layers[i](h, block)
            if i + 1 < len(self.layers):
                h = torch.relu(h)
        return h


def make_labels(g, features, classes, seed):
    """Learnable labels: the class of node v is argmax(P^T mean of v's in-neighbours' features)."""
    n = features.shape[0]
    hop = tiergraph.sample_neighbors(g, np.arange(n), [-1], seed=seed)[0]
    src = hop["src_nodes"][hop["edge_index"][0]]
    dst = hop["dst_nodes"][hop["edge_index"][1]]
    projection = np.random.default_rng(seed).standard_normal((features.shape[1], classes)).astype(np.float32)
    projected = features @ projection  # the mean commutes with the projection
    total = np.stack([np.bincount(dst, weights=projected[src, c], minlength=n) for c in range(classes)], axis=1)
    count = np.bincount(dst, minlength=n)
    return (total / np.maximum(count, 1)[:, None]).argmax(axis=1), count > 0


def to_torch_blocks(hops, device):
    return [{"edge_index": torch.as_tensor(h["edge_index"], device=device), "num_dst": len(h["dst_nodes"])}
            for h in hops]


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def main(argv=None):
    a = parse_args(argv)
    has_cuda = torch.cuda.is_available()
    if a.device == "cuda" and not has_cuda:
        sys.exit("train.py: --device cuda, but PyTorch sees no GPU")
    device = torch.device("cuda" if (a.device == "auto" and has_cuda) or a.device == "cuda" else "cpu")
    torch.manual_seed(a.seed)

    t0 = time.perf_counter()
    g = tiergraph.generate(a.graph, seed=a.seed) if ":" in a.graph else tiergraph.load(a.graph)
    n = g.num_vertices
    rng = np.random.default_rng(a.seed)
    features = rng.standard_normal((n, a.features), dtype=np.float32)
    labels_np, has_neighbours = make_labels(g, features, a.classes, a.seed)
    labels = torch.as_tensor(labels_np, device=device)
    nodes = rng.permutation(np.flatnonzero(has_neighbours))
    split = int(len(nodes) * a.train_fraction)
    train, held_out = nodes[:split], nodes[split:]

    sampler = tiergraph.NeighborSampler(g, fanouts=a.fanouts, seed=a.seed)
    store = None
    if a.gather == "store":
        on_gpu = device.type == "cuda"
        store = tiergraph.FeatureStore(features, graph=g, gpu_fraction=a.gpu_fraction if on_gpu else 0.0,
                                       peer_fraction=a.peer_fraction if on_gpu else 0.0,
                                       score=a.score, use_gpu=on_gpu,
                                       train_ids=train if a.score == "weighted-reverse-pagerank" else None)

    features_cpu = torch.from_numpy(features)

    def gather(ids):
        if store is not None:
            x = store[ids]
            return torch.as_tensor(x) if isinstance(x, np.ndarray) else x
        # What PyG's loaders do: torch's (multi-threaded) index_select on the CPU tensor, then a copy.
        return features_cpu.index_select(0, ids.cpu() if torch.is_tensor(ids) else torch.from_numpy(ids)).to(device)

    # A GPU sampler hands its hops over as CUDA tensors (no copy to host and back) where training runs there.
    cuda_hops = sampler.on_gpu and device.type == "cuda"

    model = GraphSage(a.features, a.hidden, a.classes, len(a.fanouts)).to(device)
    optimiser = torch.optim.Adam(model.parameters(), lr=a.lr)
    print(f"graph {a.graph}: {n} nodes, {g.num_edges} edges; features {n} x {a.features} fp32 "
          f"({features.nbytes / 2**20:.0f} MiB); train {len(train)}, held out {len(held_out)}; "
          f"gather {a.gather}{' on ' + str(device)}; fanouts {a.fanouts}; set up in {time.perf_counter() - t0:.1f} s",
          file=sys.stderr)

    accuracy = 0.0
    for epoch in range(a.epochs):
        times = {"sample": 0.0, "gather": 0.0, "compute": 0.0}
        if store is not None:
            store.reset_stats()
        model.train()
        order = rng.permutation(train)
        loss_sum = 0.0
        for b in range(0, len(order), a.batch_size):
            batch = order[b:b + a.batch_size]
            t = time.perf_counter()
            hops = sampler.sample(batch, cuda=cuda_hops)
            blocks = to_torch_blocks(hops, device)
            sync(device)
            times["sample"] += time.perf_counter() - t
            t = time.perf_counter()
            x = gather(hops[-1]["src_nodes"])
            sync(device)
            times["gather"] += time.perf_counter() - t
            t = time.perf_counter()
            loss = torch.nn.functional.cross_entropy(model(x, blocks), labels[torch.as_tensor(batch, device=device)])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            loss_sum += float(loss) * len(batch)
            sync(device)
            times["compute"] += time.perf_counter() - t
        model.eval()
        correct = 0
        with torch.no_grad():
            for b in range(0, len(held_out), a.batch_size):
                batch = held_out[b:b + a.batch_size]
                hops = sampler.sample(batch, cuda=cuda_hops)
                out = model(gather(hops[-1]["src_nodes"]), to_torch_blocks(hops, device))
                correct += int((out.argmax(1) == labels[torch.as_tensor(batch, device=device)]).sum())
        accuracy = correct / max(len(held_out), 1)
        epoch_time = sum(times.values())
        line = (f"epoch {epoch}: {epoch_time * 1000:.0f} ms (sample {times['sample'] * 1000:.0f}, gather "
                f"{times['gather'] * 1000:.0f}, compute {times['compute'] * 1000:.0f}); loss "
                f"{loss_sum / len(train):.3f}, held-out accuracy {accuracy:.3f}")
        record = {"epoch": epoch, "seconds": epoch_time, **{k + "_seconds": v for k, v in times.items()},
                  "loss": loss_sum / len(train), "accuracy": accuracy, "gather": a.gather, "device": str(device)}
        if store is not None:
            stats = store.stats()
            line += f"; store hit ratio {stats['hit_ratio']:.2f}"
            if a.peer_fraction > 0:
                line += f", peer hit ratio {stats['peer_hit_ratio']:.2f} (peers {stats['peers']})"
            record["store"] = stats
        print(line, file=sys.stderr)
        if a.json:
            print(json.dumps(record), flush=True)
    return accuracy


if __name__ == "__main__":
    main()
