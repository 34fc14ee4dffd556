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
cd "$(dirname "$0")/../.."
root=$PWD
out=${OUT:-$root/out/peers}
mkdir -p "$out" /tmp/tg-bin /tmp/peers
T0=$(date +%s)
el() { echo "[$(($(date +%s) - T0)) s] $*"; }
xz -dc .data/bin/tiergraph.xz >/tmp/tg-bin/tiergraph && chmod +x /tmp/tg-bin/tiergraph
tar -xJf .data/peers/emogi-sm90.tar.xz -C /tmp/peers
[ -d .data/lib ] && export LD_LIBRARY_PATH=$root/.data/lib
bin=/tmp/tg-bin/tiergraph E=/tmp/peers/emogi
scale=${SCALE:-25}
srcs=${SOURCES:-11861343 2853759 25261524 26472044}
algos=${ALGOS:-sssp bfs cc pagerank}
g=/tmp/kron$scale.wsg
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
# GAP's generator, as the shared graphs were made (weights 1..255).
(cd /tmp && OMP_NUM_THREADS=$(nproc) "$root/.data/gapbs/converter" -g "$scale" -k 16 -wb "$g" >/tmp/converter.log 2>&1) ||
  { tail /tmp/converter.log; exit 1; }
el "GAP converter: $(grep -E 'Graph has' /tmp/converter.log)"
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
edges=$("$bin" info "$g" --json | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['edges'])")
el "tiergraph, --gpu-mem $edges (a quarter of the 4-byte edge array)"
timeout 400 "$bin" bench "$g" -a "$(echo $algos | tr ' ' ',')" -p zerocopy-aligned,subgraph-gpu,auto --gpu-mem "$edges" \
  --sources "$(echo $srcs | tr ' ' ',')" --verify first --profile tests/planner/data/h200-2026-12-02.profile.json \
  -o "$out/tiergraph" 2>>"$out/bench.log"
el "bench rc $?"
