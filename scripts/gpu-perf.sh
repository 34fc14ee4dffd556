#!/usr/bin/env bash
# Run ON THE GPU MACHINE (see docs/PERF-gpu.md): the side-by-side placement
# benchmark on generated Kronecker graphs, with a per-step trace of BFS.
#   scripts/gpu-perf.sh BIN OUTDIR SPEC[:budget] ...
# For each SPEC (kron:24, urand:22, ...): generate it once into /tmp as .tgb
# (weights 8:72), trace one BFS on device and zerocopy-aligned
# (TG_GPU_TRACE=1), then `tiergraph bench` over cpu + every GPU placement for
# BFS, SSSP, CC and PageRank with $SOURCES random sources, writing
# OUTDIR/bench-SPEC.{csv,json} (and .png/.svg where matplotlib is; else
# scripts/bench-chart.py draws them here afterwards). Each step has a timeout.
# WARMUP (default 1): bench's untimed runs of each algorithm a placement first.
set -uo pipefail
bin=$1 outdir=$2
shift 2
sources=${SOURCES:-4}
placements=${PLACEMENTS:-cpu,device,uvm,zerocopy-naive,zerocopy-merged,zerocopy-aligned}
algos=${ALGOS:-bfs,sssp,cc,pagerank}
mkdir -p "$outdir"
for spec in "$@"; do
  name=$(echo "$spec" | tr ':' '-')
  file=/tmp/$name.tgb
  t0=$(date +%s)
  [ -f "$file" ] || timeout 300 "$bin" generate "$spec" "$file" --weights 8:72 -q || { echo "generate $spec failed"; continue; }
  echo "== $spec: generated in $(($(date +%s) - t0)) s"
  for p in device zerocopy-aligned; do
    echo "== trace: bfs on $spec, $p"
    TG_GPU_TRACE=1 timeout 120 "$bin" run bfs --graph "$file" --engine gpu --placement "$p" -q
  done
  echo "== bench $spec"
  timeout "${BENCH_TIMEOUT:-300}" "$bin" bench "$file" -p "$placements" -a "$algos" -n "$sources" \
    --warmup "${WARMUP:-1}" --verify "${VERIFY:-first}" -o "$outdir/bench-$name" 2>"$outdir/bench-$name.log"
  echo "== bench $spec: rc $?"
done
