#!/usr/bin/env bash
# Run ON THE GPU MACHINE through the device tool (issues 13 and 11: scattered zero-copy reads and the GPU's
# address translation, PLATFORM.md), e.g. as gpu-check.sh's extra step:
#   GPU_CHECK_PREBUILT=1 GPU_CHECK_TESTS=0 GPU_CHECK_GRAPHS= GPU_CHECK_EXTRA=scripts/host-pages-check.sh scripts/gpu-check.sh
# 1. tg_host_pages_probe: random 128-byte lines of host memory by allocation kind (cudaHostAlloc, registered
#    malloc, the driver's virtual memory API on the host) and size.
# 2. The zero-copy placement's algorithms on one generated graph with its edges pinned as today and with
#    TG_HOST_PAGES=vmm (engines/gpu/vmm_host.h), alternating rounds, with and without the edge cache: `tiergraph
#    bench G -a ALGOS -p zerocopy-aligned --gpu-mem EDGES -n 2 --verify first`. Table last: ms (PageRank per
#    iteration), pinned against vmm.
# Environment:
#   HP_GIB="0.25,1,4,8"   the probe's sizes (GiB)
#   HP_GRAPH=kron:25      generated with weights 1..255 into /tmp
#   HP_ALGOS=bfs,sssp,cc,pagerank
#   HP_ROUNDS=2
#   HP_CACHE="auto off"   the --edge-cache settings
#   HP_BIN=PATH           the tiergraph binary (default: gpu-check's prebuilt one, else build-device's)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/host-pages-check}"
mkdir -p "$out"
source scripts/find-tiergraph.sh "${HP_BIN:-}" HP_BIN
probe=$(dirname "$bin")/tg_host_pages_probe
[ -x "$probe" ] || probe=build-device/benchmarks/tg_host_pages_probe
if [ -x "$probe" ]; then
  timeout 240 "$probe" --gib "${HP_GIB:-0.25,1,4,8}" --kinds alloc,register,vmm,vmm-numa | tee "$out/probe.txt"
else
  echo "no tg_host_pages_probe beside $bin"
fi
graph=${HP_GRAPH:-kron:25}
file=/tmp/hp_${graph/:/_}_w.tgb
if [ ! -f "$file" ]; then
  t0=$(date +%s)
  "$bin" generate "$graph" "$file" --weights 1:255 -q >"$out/generate.log" 2>&1 || { echo "generate failed"; tail -3 "$out/generate.log"; exit 1; }
  echo "generated $graph (weights 1..255) in $(($(date +%s) - t0)) s"
fi
edges=$("$bin" info "$file" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['edges'])")
for round in $(seq 1 "${HP_ROUNDS:-2}"); do
  for cache in ${HP_CACHE:-auto off}; do
    for pages in pinned vmm; do
      env_pages=""
      [ "$pages" = vmm ] && env_pages=vmm
      TG_HOST_PAGES=$env_pages timeout 300 "$bin" bench "$file" -a "${HP_ALGOS:-bfs,sssp,cc,pagerank}" -p zerocopy-aligned \
        --gpu-mem "$edges" --edge-cache "$cache" -n 2 --verify first -q -o "$out/hp_${pages}_${cache}_r$round" \
        >"$out/hp_${pages}_${cache}_r$round.log" 2>&1 || echo "bench $pages $cache round $round: rc $? $(tail -1 "$out/hp_${pages}_${cache}_r$round.log")"
    done
  done
done
python3 - "$out" "$graph" "$edges" <<'EOF'
import collections, glob, json, os, re, sys
out, graph, edges = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = collections.defaultdict(list)  # (algo, cache, pages) -> ms
verified = collections.defaultdict(set)
for f in glob.glob(f"{out}/hp_*_r*.json"):
    pages, cache = re.match(r".*/hp_([a-z]+)_([a-z]+)_r\d+\.json", f).groups()
    for r in json.load(open(f)).get("runs", []):
        it = max(r.get("iterations") or 1, 1) if r["algorithm"] == "pagerank" else 1
        rows[(r["algorithm"], cache, pages)].append(1e3 * r["compute_s"] / it)
        verified[(r["algorithm"], cache, pages)].add(str(r.get("verified")))
print(f"{graph} with weights, zerocopy-aligned, --gpu-mem {edges} (a quarter of the ids); ms (pagerank a iteration), best of the runs")
print(f"{'algorithm':<10} {'cache':<6} {'pinned':>9} {'vmm':>9} {'pinned/vmm':>11}  verified")
for algo in ["bfs", "sssp", "cc", "pagerank"]:
    for cache in ["auto", "off"]:
        p, v = rows.get((algo, cache, "pinned")), rows.get((algo, cache, "vmm"))
        if not p and not v:
            continue
        bp, bv = min(p) if p else float("nan"), min(v) if v else float("nan")
        ver = sorted(verified[(algo, cache, "pinned")] | verified[(algo, cache, "vmm")])
        print(f"{algo:<10} {cache:<6} {bp:>9.2f} {bv:>9.2f} {bp / bv if p and v else float('nan'):>11.2f}  {','.join(ver)}")
EOF
