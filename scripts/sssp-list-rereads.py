#!/usr/bin/python3
"""How often SSSP's bucket rounds read each out-list, simulated on a GAP .wsg file.

    /usr/bin/python3 scripts/sssp-list-rereads.py GRAPH.wsg SOURCE WIDTH_SCALE [HUB]

Delta-stepping as the GPU engine's subgraph placement runs it without the light split: each round
of a bucket reads the whole out-lists of the bucket's pending vertices, so a list whose vertex is
improved again within its bucket is read (and, on that placement, moved over the link) again. The
width is WIDTH_SCALE times the mean weight. Prints the rounds, the entries read over the graph's
entries, the read count by degree class, and the share of the entries read that a cache of the
longest lists (or, as a bound, of the most-read ones) would serve. HUB > 0 defers a bucket's lists
of HUB entries or more until its shorter ones are done; HUB < 0 takes them first (both measured to
read more: docs/SUBWAY.md "Lists read again"). numpy, Debian's /usr/bin/python3.
"""
import sys

import numpy as np

if len(sys.argv) < 4:
    sys.exit(__doc__)
path, src, scale = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]); hub = int(sys.argv[4]) if len(sys.argv) > 4 else 1 << 62
with open(path, 'rb') as f:
    directed = np.fromfile(f, np.uint8, 1)[0]
    m, n = (int(x) for x in np.fromfile(f, np.int64, 2))
    off = np.fromfile(f, np.int64, n + 1)
    nw = np.fromfile(f, np.int32, 2 * m) if 0 <= m < 1 << 40 and 0 < n < 1 << 40 else np.zeros(0, np.int32)
if nw.size != 2 * m or off.size != n + 1 or off[0] != 0 or off[-1] != m or not (0 <= src < n):
    sys.exit(f"{path}: not a weighted GAP graph (.wsg) of {m} edges and {n} vertices holding source {src}")
nw = nw.reshape(-1, 2)
nbr, w = nw[:, 0].astype(np.int64), nw[:, 1].astype(np.float64)
deg = np.diff(off)
delta = scale * w.mean()
dist = np.full(n, np.inf); dist[src] = 0
reads = np.zeros(n, np.int64)
pending = np.zeros(n, bool); pending[src] = True
rounds = 0
while pending.any():
    b = np.floor(dist[pending] / delta).min()
    while True:
        fr = np.nonzero(pending & (np.floor(dist / delta) == b))[0]
        if fr.size == 0: break
        if hub > 0:
            small = fr[deg[fr] < hub]
            if small.size > 0: fr = small  # hubs wait until the bucket's other vertices settle
        else:
            big = fr[deg[fr] >= -hub]
            if big.size > 0: fr = big  # hubs first
        pending[fr] = False
        reads[fr] += 1
        rounds += 1
        d = deg[fr]
        starts = np.repeat(off[fr], d) + (np.arange(d.sum()) - np.repeat(np.cumsum(d) - d, d))
        u = np.repeat(fr, d)
        cand = dist[u] + w[starts]
        t = nbr[starts]
        order = np.lexsort((cand, t))
        t, cand = t[order], cand[order]
        first = np.ones(t.size, bool); first[1:] = t[1:] != t[:-1]
        t, cand = t[first], cand[first]
        better = cand < dist[t]
        dist[t[better]] = cand[better]
        pending[t[better]] = True
read_entries = (reads * deg).sum()
print(f"n {n} m {m} delta {delta:.1f} rounds {rounds} entries read {read_entries/m:.4f} x m, lists read {reads.sum()}, {(reads>0).sum()} reached")
byd = np.argsort(-deg)
cum_bytes = np.cumsum(deg[byd]) / m
cum_read = np.cumsum((reads * deg)[byd]) / read_entries
for f in [0.05, 0.1, 0.15, 0.2, 0.3, 0.5]:
    k = np.searchsorted(cum_bytes, f)
    print(f"cache {f:.2f} of the entries (longest lists, {k} lists): serves {cum_read[k]:.3f} of entries read; reads/list there {(reads[byd[:k]]*deg[byd[:k]]).sum()/max(1,deg[byd[:k]].sum()):.2f}")
# the best possible cache by reads*deg per entry = reads
byr = np.argsort(-reads, kind='stable')
cb = np.cumsum(deg[byr]) / m; cr = np.cumsum((reads * deg)[byr]) / read_entries
for f in [0.1, 0.2, 0.3]:
    k = np.searchsorted(cb, f); print(f"oracle cache {f:.2f}: serves {cr[k]:.3f}")
for lo, hi in [(0, 16), (16, 256), (256, 4096), (4096, 1 << 40)]:
    sel = (deg >= lo) & (deg < hi)
    print(f"  degree [{lo},{hi}): {deg[sel].sum()/m:.3f} of entries, read {(reads[sel]*deg[sel]).sum()/max(1,deg[sel].sum()):.2f} times")
print("reads histogram (entries-weighted):", {int(r): round(float((deg[reads == r]).sum() / m), 3) for r in range(0, 6)})
