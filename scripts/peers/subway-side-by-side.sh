#!/usr/bin/env bash
# Run ON THE GPU MACHINE (docs/GPU.md): Subway's own code (patched, scripts/peers/README.md) and tiergraph side by
# side on GAP's own Kronecker graph, in one call, the same sources, both at a quarter budget: Subway's partition
# (the edges it holds in GPU memory at once) capped at a quarter of the edges with SUBWAY_MAX_EDGES, tiergraph
# with --gpu-mem a quarter of the 4-byte edge array on zerocopy-aligned, subgraph-gpu and auto.
#   run(command="scripts/peers/subway-side-by-side.sh", carry=[".data/bin", ".data/lib", ".data/gapbs", ".data/peers"])
# Needs (scripts/peers/README.md): .data/bin/tiergraph.xz (scripts/stage-gpu-binaries.sh), GAP's converter in
# .data/gapbs, Subway's sm_90 programs in .data/peers/subway-sm90.tar.xz (top folder subway/), and
# .data/peers/sg2subway (this folder's sg2subway.c, built static). Output: one line per Subway run (its own
# "Processing finished" time, which leaves out reading the graph and the first subgraph), then one per tiergraph
# run; Subway's logs and the bench JSON in $OUT.
# Environment: SCALE (25), SOURCES (PLATFORM.md's four), ALGOS ("sssp bfs cc pagerank"), SUBWAY_MODE (async or
# sync; async), SUBWAY_TIMEOUT (120 s a Subway run).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=scripts/peers/side-by-side-common.sh
source scripts/peers/side-by-side-common.sh
W=/tmp/peers/subway
mode=${SUBWAY_MODE:-async}
tmo=${SUBWAY_TIMEOUT:-120}
case $mode in async | sync) ;; *) echo "SUBWAY_MODE is async or sync, not $mode" && exit 2 ;; esac
peer_setup .data/peers/subway-sm90.tar.xz
command -v cuobjdump >/dev/null && echo "Subway's code: $(cuobjdump --list-elf "$W/bfs-$mode" | tr '\n' ' ')"
# Subway's inputs: .bwcsr (id, weight) for SSSP, .bcsr (ids, the weights dropped) for the others.
need_w=0 need_u=0
for a in $algos; do
  case $a in
    sssp) need_w=1 ;;
    bfs | cc | pagerank) need_u=1 ;;
    *) echo "unknown algorithm $a (sssp bfs cc pagerank)" && exit 2 ;;
  esac
done
if [ $need_w = 1 ]; then .data/peers/sg2subway "$g" /tmp/k.bwcsr || exit 1; fi
if [ $need_u = 1 ]; then .data/peers/sg2subway "$g" /tmp/k.bcsr || exit 1; fi
# Both files start with uint32 vertices, uint32 edges (directed, both directions of each undirected edge).
f=/tmp/k.bcsr
[ -f $f ] || f=/tmp/k.bwcsr
m=$(od -An -tu4 -j4 -N4 "$f" | tr -d ' ')
export SUBWAY_MAX_EDGES=$((m / 4))
el "Subway's files written; $m edges, partition capped at SUBWAY_MAX_EDGES=$SUBWAY_MAX_EDGES"
subway() {  # label, program and arguments; Subway prints "Processing finished in S (s)." (gettimeofday)
  local label=$1 rc
  shift
  timeout "$tmo" "$@" >/tmp/subway.log 2>&1
  rc=$?
  echo "Subway $mode $label rc $rc:" \
    "$(awk '/Processing finished in/ {ms = $4 * 1000}
            /Graph Reading finished in/ {rd = $5}
            /Max Partition Size/ {part = $4}
            /Number of iterations/ {it = $5}
            / in Global Iteration / {g = $(NF - 2); sub(",", "", g); if (g + 0 > gi) gi = g + 0; p = $NF + 1; if (p > pm) pm = p}
            END {printf "%s; read %s s; partition %s edges", (ms == "" ? "no time" : sprintf("%.1f ms", ms)), rd, part
                 if (it != "") printf "; %s iterations", it
                 if (gi) printf "; %d global iterations", gi
                 if (pm) printf "; up to %d partitions an iteration", pm}' /tmp/subway.log)"
  [ $rc = 0 ] || tail -n 3 /tmp/subway.log | sed 's/^/    /'
  { echo "=== $mode $label rc $rc: $*"; grep -v ' in Global Iteration ' /tmp/subway.log; } >>"$out/subway.log"
}
for a in $algos; do
  case $a in
    sssp) for s in $srcs; do subway "$a $s" "$W/sssp-$mode" --input /tmp/k.bwcsr --source "$s"; done ;;
    bfs) for s in $srcs; do subway "$a $s" "$W/bfs-$mode" --input /tmp/k.bcsr --source "$s"; done ;;
    cc) subway "$a" "$W/cc-$mode" --input /tmp/k.bcsr ;;
    pagerank) subway "$a (delta-based, residual 0.01)" "$W/pr-$mode" --input /tmp/k.bcsr ;;
  esac
done
rm -f /tmp/k.bcsr /tmp/k.bwcsr
tiergraph_bench
