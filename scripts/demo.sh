#!/usr/bin/env bash
# The main job: set up, then BFS and PageRank on a generated Kronecker graph
# (Graph500 parameters), on the GPU when one is usable, else on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scale="${SCALE:-20}"
build/tiergraph run bfs --graph "kron:$scale" --engine auto --verify
build/tiergraph run pagerank --graph "kron:$scale" --engine auto --verify
