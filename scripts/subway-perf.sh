#!/usr/bin/env bash
# Run ON THE GPU MACHINE (see docs/PERF-subway.md): the Subway placements side
# by side with uvm and zerocopy-aligned, for every algorithm, on one generated
# graph with a quarter budget (a quarter of the 4-byte edge array).
#   scripts/subway-perf.sh BIN OUTDIR SPEC
# Writes OUTDIR/subway-SPEC.json (the quarter-budget placements) and
# OUTDIR/uvm-SPEC.json (uvm without a budget: it may not be oversubscribed on
# this GPU, see docs/GPU.md), then, with SWEEP=1, BFS and SSSP on subgraph with
# CPU and GPU gather over stream thresholds 0.2 .. 1.0 (sweep-T-SPEC.json); the
# progress lines of every bench in OUTDIR/bench-SPEC.log. Tables: scripts/subway-table.py.
# Environment: SOURCES (default 2), ALGOS, PLACEMENTS, VERIFY (default first).
set -uo pipefail
bin=$1 outdir=$2 spec=$3
sources=${SOURCES:-2}
algos=${ALGOS:-bfs,sssp,cc,pagerank,sswp,ssnsp}
placements=${PLACEMENTS:-zerocopy-aligned,subgraph,subgraph-async,stream-pt,stream-pt-opt,stream-async}
mkdir -p "$outdir"
name=$(echo "$spec" | tr ':' '-')
file=/tmp/$name.tgb
t0=$(date +%s)
[ -f "$file" ] || timeout 300 "$bin" generate "$spec" "$file" --weights 8:72 -q || { echo "generate $spec failed"; exit 1; }
edges=$("$bin" info "$file" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['edges'])")
quarter=$edges  # bytes: a quarter of the 4-byte edge array
echo "== $spec: $edges edges, generated in $(($(date +%s) - t0)) s; budget $quarter bytes"

run_bench() {  # label, then bench arguments
  local label=$1
  shift
  local t=$(date +%s)
  # Only the JSON comes back (the device tool returns a few files); logs go to one file.
  timeout "${BENCH_TIMEOUT:-420}" "$bin" bench "$file" -a "$algos" -n "$sources" --verify "${VERIFY:-first}" "$@" \
    -o "/tmp/$label-$name" 2>>"$outdir/bench-$name.log"
  echo "== $label $spec: rc $? in $(($(date +%s) - t)) s"
  cp "/tmp/$label-$name.json" "$outdir/" 2>/dev/null
}

[ "${SKIP_MAIN:-0}" = 1 ] || run_bench subway -p "$placements" --gpu-mem "$quarter" --baseline stream-pt
[ "${SKIP_UVM:-0}" = 1 ] || run_bench uvm -p uvm
if [ "${SWEEP:-0}" = 1 ]; then
  for t in ${THRESHOLDS:-0.2 0.4 0.6 0.8 1.0}; do
    VERIFY=none algos=${SWEEP_ALGOS:-bfs,sssp} run_bench "sweep-$t" -p "${SWEEP_PLACEMENTS:-subgraph-cpu,subgraph-gpu}" --gpu-mem "$quarter" \
      --stream-threshold "$t"
  done
fi
