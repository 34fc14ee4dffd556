#!/usr/bin/env bash
# Run ON THE GPU MACHINE (e.g. in gpu-check.sh's GPU_CHECK_EXTRA): one run of
# an algorithm with TG_GPU_TRACE=1 (the GPU engine's line per edge_map, each
# timed between device syncs, engines/gpu/gpu_engine.cuh), summed: how much
# of the run's compute time the edge_maps take, and so how much goes to the
# rest (filters, buckets, host syncs). The syncs slow the traced run itself;
# its compute time is printed beside an untraced run's (the second of two: the first faults its memory in).
#   scripts/gpu-trace-summary.sh GRAPH.tgb [ALGO (sssp)] [PLACEMENT (device)] [more bench arguments]
# TRACE_LINES=1 prints the traced run's lines (one an edge_map) before the sum.
set -uo pipefail
cd "$(dirname "$0")/.."
file=${1:?usage: scripts/gpu-trace-summary.sh GRAPH.tgb [ALGO] [PLACEMENT] [bench arguments]}
algo=${2:-sssp} placement=${3:-device}
shift $(($# < 3 ? $# : 3))
source scripts/find-tiergraph.sh "${TRACE_BIN:-}" TRACE_BIN
out=$(mktemp -d)
compute_ms() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][-1]; print('%.1f' % (1e3 * r['compute_s']))" "$1"; }
"$bin" bench "$file" -a "$algo" -p "$placement" -n 1 --trials 2 -q "$@" -o "$out/plain" >/dev/null 2>&1 || { echo "bench failed"; exit 1; }
TG_GPU_TRACE=1 "$bin" bench "$file" -a "$algo" -p "$placement" -n 1 -q "$@" -o "$out/traced" >/dev/null 2>"$out/trace.log" ||
  { echo "traced bench failed"; tail -3 "$out/trace.log"; exit 1; }
[ "${TRACE_LINES:-0}" = 1 ] && grep "tg-gpu step" "$out/trace.log"
awk -v plain="$(compute_ms "$out/plain.json")" -v traced="$(compute_ms "$out/traced.json")" -v what="$algo on $placement" '
  /tg-gpu step/ { n++; ms += $13; edges += $10; if ($3 == "pull") pulls++ }
  END { printf "%s: %d edge_maps (%d pulls), %.1f ms in them, %.0f edges; run %s ms traced, %s ms untraced\n",
               what, n, pulls, ms, edges, traced, plain }' "$out/trace.log"
rm -rf "$out"
