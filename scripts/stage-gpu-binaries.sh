#!/usr/bin/env bash
# Here, before a run on the lent GPU machine (docs/GPU.md): strips and
# compresses the programs of a CUDA build into .data/bin (git-ignored; carry
# it), and copies the datasets the GPU tests read into .data/datasets.
#   scripts/stage-gpu-binaries.sh [BUILD_DIR] [EXTRA_PROGRAM=NAME ...]
# e.g. scripts/stage-gpu-binaries.sh build-gpu ../old/build/src/tiergraph=tiergraph-old
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
shift || true
mkdir -p .data/bin .data/datasets
rm -f .data/bin/*
# Stripped in a folder of its own: a program given as /tmp/NAME and staged as NAME was overwritten and deleted.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage() {  # program, name
  strip -o "$work/$2" "$1"
  xz -T2 -6 -c "$work/$2" >".data/bin/$2.xz"
  rm -f "$work/$2"
}
# An object ninja holds no dependencies for is never rebuilt when a header changes: session 36's hybrid_run.cu.o
# kept an old GpuOptions layout and every hybrid run threw std::bad_alloc on the GPU. Refuse to stage such a build.
if [ -f "$build/build.ninja" ] && stale=$(ninja -C "$build" -t deps 2>/dev/null | grep '#deps 0,'); then
  echo "stage-gpu-binaries: ninja holds no dependencies for these objects; touch their sources and rebuild:" >&2
  echo "$stale" >&2
  exit 1
fi
stage "$build/src/tiergraph" tiergraph
stage "$build/tests/tg_gpu_tests" tg_gpu_tests
# Built only by a full build (gpu-check.sh runs it where present).
[ -x "$build/tests/gpu_subgraph/tg_gpu_subgraph_device_tests" ] &&
  stage "$build/tests/gpu_subgraph/tg_gpu_subgraph_device_tests" tg_gpu_subgraph_device_tests
# The host-pages probe (benchmarks/engines/host_pages_probe.cu): gpu-check unpacks it to /tmp/tg-bin beside the others.
[ -x "$build/benchmarks/tg_host_pages_probe" ] && stage "$build/benchmarks/tg_host_pages_probe" tg_host_pages_probe
for extra in "$@"; do stage "${extra%%=*}" "${extra#*=}"; done
# The library's shared object, for staged programs that link it (tg_api_tests; session 44's stopped at
# "libtiergraph.so.0: cannot open"): unpacked beside them, where gpu-check's LD_LIBRARY_PATH looks.
for extra in "$@"; do
  if ldd "${extra%%=*}" 2>/dev/null | grep -q "libtiergraph.so.0 => $PWD/$build/"; then
    stage "$build/src/libtiergraph.so.0" libtiergraph.so.0
    break
  fi
done
# Debian's libraries the programs link that the GPU machines lack (carry .data/lib with them).
mkdir -p .data/lib
for lib in libxxhash.so.0 libbenchmark.so.1debian; do
  [ -e "/lib/x86_64-linux-gnu/$lib" ] && cp -L "/lib/x86_64-linux-gnu/$lib" .data/lib/
done
for d in karate.mtx rome99.gr wiki-Vote.el.gz road-NY.el.gz soc-Slashdot0902.el.gz; do
  cp -u "../shared/datasets/$d" .data/datasets/ 2>/dev/null || true
done
du -sh .data/bin .data/lib .data/datasets
