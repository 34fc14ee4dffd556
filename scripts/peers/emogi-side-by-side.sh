#!/usr/bin/env bash
# Run ON THE GPU MACHINE (docs/GPU.md): EMOGI's own code and tiergraph side by side on GAP's own Kronecker
# graph, in one call, the same sources, tiergraph at a quarter budget on zerocopy-aligned, subgraph-gpu and auto.
#   run(command="scripts/peers/emogi-side-by-side.sh", carry=[".data/bin", ".data/lib", ".data/gapbs", ".data/peers"])
# Needs (scripts/peers/README.md): .data/bin/tiergraph.xz (scripts/stage-gpu-binaries.sh), GAP's converter in
# .data/gapbs, EMOGI's sm_90 programs in .data/peers/emogi-sm90.tar.xz (top folder emogi/), and
# .data/peers/sg2emogi (this folder's sg2emogi.c, built static). Output: one line per EMOGI run, then one per
# tiergraph run (ms, verified, GB over the link); the bench JSON in $OUT.
# Environment: SCALE (25), SOURCES (PLATFORM.md's four), ALGOS ("sssp bfs cc pagerank").
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=scripts/peers/side-by-side-common.sh
source scripts/peers/side-by-side-common.sh
E=/tmp/peers/emogi
peer_setup .data/peers/emogi-sm90.tar.xz
.data/peers/sg2emogi "$g" /tmp/k.bel || exit 1
el "EMOGI's files written"
emogi() {  # label, program and arguments; EMOGI times its compute loop with CUDA events
  local label=$1
  shift
  timeout 300 "$@" >/tmp/emogi.log 2>&1
  echo "EMOGI $label rc $?: $(grep -E 'run +0|total time|total iterations|^iteration' /tmp/emogi.log | tr -s ' ' | tr '\n' ';')"
  cat /tmp/emogi.log >>"$out/emogi.log"
}
# -t 2 -m 2: a warp per vertex in chunks of 8, merged and aligned reads, the edges in managed memory read in place.
# One process a source: -i would reset the source to 0.
for a in $algos; do
  case $a in
    sssp | bfs) for s in $srcs; do emogi "$a $s" "$E/$a" -f /tmp/k.bel -r "$s" -t 2 -m 2; done ;;
    cc | pagerank) emogi "$a" "$E/$a" -f /tmp/k.bel -t 2 -m 2 ;;
  esac
done
rm -f /tmp/k.bel.*
tiergraph_bench
