#!/usr/bin/env bash
# Run ON THE GPU MACHINE (docs/HYBRID.md, docs/PERF.md "The hybrid engine"):
# the hybrid engine beside the CPU engine and the GPU engine's placements, on
# one generated graph with a quarter budget (a quarter of the 4-byte edge
# array), in one bench per graph so every engine runs on the same loaded graph.
#   scripts/hybrid-perf.sh BIN OUTDIR SPEC...
# Writes OUTDIR/hybrid-SPEC.json and the bench's progress lines to
# OUTDIR/bench-SPEC.log. Environment: ALGOS (default pagerank,cc,bfs),
# PLACEMENTS, SOURCES (default 2), VERIFY (default first).
set -uo pipefail
bin=$1 outdir=$2
shift 2
algos=${ALGOS:-pagerank,cc,bfs}
placements=${PLACEMENTS:-cpu,zerocopy-aligned,hybrid-zerocopy,subgraph,hybrid-subgraph}
mkdir -p "$outdir"
for spec in "$@"; do
  name=$(echo "$spec" | tr ':' '-')
  file=/tmp/$name.tgb
  t0=$(date +%s)
  [ -f "$file" ] || timeout 300 "$bin" generate "$spec" "$file" -q || { echo "generate $spec failed"; exit 1; }
  edges=$("$bin" info "$file" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['edges'])")
  echo "== $spec: $edges edges, generated in $(($(date +%s) - t0)) s; budget $edges bytes"
  t=$(date +%s)
  timeout "${BENCH_TIMEOUT:-400}" "$bin" bench "$file" -a "$algos" -n "${SOURCES:-2}" --verify "${VERIFY:-first}" \
    -p "$placements" --gpu-mem "$edges" -o "/tmp/hybrid-$name" 2>>"$outdir/bench-$name.log"
  echo "== hybrid $spec: rc $? in $(($(date +%s) - t)) s"
  cp "/tmp/hybrid-$name.json" "$outdir/" 2>/dev/null
  python3 - "/tmp/hybrid-$name.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
for r in runs:
    h = (r.get("details") or {}).get("hybrid")
    extra = ""
    if h:
        e = h["edges_gpu"] + h["edges_cpu"]
        extra = "  cpu %.0f%% of edges, idle gpu %.3f cpu %.3f s, exchange %.3f s" % (
            100.0 * h["edges_cpu"] / e if e else 0, h["gpu_idle_s"], h["cpu_idle_s"], h["exchange_s"])
    print("%-9s %-16s %9.1f ms  %3d it  %s%s%s" % (r["algorithm"], r["placement"], 1000 * r["compute_s"],
          r["iterations"], r["verified"], extra, ("  ERROR " + r["error"]) if "error" in r else ""))
PY
done
