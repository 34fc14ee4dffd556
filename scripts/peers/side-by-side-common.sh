# shellcheck shell=bash
# Sourced by the side-by-side scripts (emogi-, subway-side-by-side.sh), from the repository root: what both do
# before and after their peer's runs. Sets root, out, bin, scale, srcs, algos, g and el; `peer_setup TARBALL`
# unpacks tiergraph and the peer's programs and makes GAP's kron-SCALE with weights 1..255 at $g;
# `tiergraph_bench` runs tiergraph at a quarter budget on the same graph, sources and algorithms.
root=$PWD
out=${OUT:-$root/out/peers}
mkdir -p "$out" /tmp/tg-bin /tmp/peers
T0=$(date +%s)
el() { echo "[$(($(date +%s) - T0)) s] $*"; }
bin=/tmp/tg-bin/tiergraph
scale=${SCALE:-25}
srcs=${SOURCES:-11861343 2853759 25261524 26472044}
algos=${ALGOS:-sssp bfs cc pagerank}
g=/tmp/kron$scale.wsg

peer_setup() {  # the peer's tarball
  xz -dc .data/bin/tiergraph.xz >"$bin" && chmod +x "$bin" || exit 1
  tar -xJf "$1" -C /tmp/peers || exit 1
  [ -d .data/lib ] && export LD_LIBRARY_PATH=$root/.data/lib
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  # GAP's generator, as the shared graphs were made (weights 1..255).
  (cd /tmp && OMP_NUM_THREADS=$(nproc) "$root/.data/gapbs/converter" -g "$scale" -k 16 -wb "$g" >/tmp/converter.log 2>&1) ||
    { tail /tmp/converter.log; exit 1; }
  el "GAP converter: $(grep -E 'Graph has' /tmp/converter.log)"
}

tiergraph_bench() {
  local edges
  edges=$("$bin" info "$g" --json | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['edges'])")
  el "tiergraph, --gpu-mem $edges (a quarter of the 4-byte edge array)"
  # shellcheck disable=SC2086  # $algos and $srcs are word lists
  timeout 400 "$bin" bench "$g" -a "$(echo $algos | tr ' ' ',')" -p zerocopy-aligned,subgraph-gpu,auto --gpu-mem "$edges" \
    --sources "$(echo $srcs | tr ' ' ',')" --verify first --profile tests/planner/data/h200-2026-12-02.profile.json \
    -o "$out/tiergraph" 2>>"$out/bench.log"
  el "bench rc $?"
}
