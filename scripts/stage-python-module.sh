#!/usr/bin/env bash
# Here, before scripts/gpu-features-check.sh runs on the lent GPU machine:
# the machine's python3 is not this one's (3.12 with its own NumPy and torch),
# so the module is compiled there, against the library built here. Stages into
# .data (git-ignored; carry it) the stripped libtiergraph.so, the shared
# libraries it needs that the machine's image lacks, the public headers with
# the build's generated version.h, and Debian's pybind11 headers as a fallback.
#   scripts/stage-python-module.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
# The build's own library, not a copy a test installed (tests/install_embed holds an older one after a rebuild).
lib=$(find "$build" -path '*/install_embed' -prune -o \( -name 'libtiergraph.so.*.*' -o -name 'libtiergraph.so' \) -print | sort | tail -1)
[ -n "$lib" ] || { echo "stage-python-module: no libtiergraph.so in $build" >&2; exit 1; }
rm -rf .data/lib .data/include
mkdir -p .data/lib .data/include
strip -o .data/lib/libtiergraph.so "$lib"
# The soname the module records at link time must resolve there too.
soname=$(objdump -p .data/lib/libtiergraph.so | awk '/SONAME/ {print $2}')
[ -n "$soname" ] && [ "$soname" != libtiergraph.so ] && ln -sf libtiergraph.so ".data/lib/$soname"
# Libraries the device image may lack (it has CUDA, NCCL, zlib, zstd, liblzma, OpenMP), and
# Google Benchmark for tg_gather_bench.
for dep in $(ldd "$lib" | awk '/=> \// {print $3}'); do
  case $(basename "$dep") in
    libxxhash.so*) cp -L "$dep" .data/lib/ ;;
  esac
done
cp -L "$(ldconfig -p | awk '/libbenchmark.so.1/ {print $NF; exit}')" .data/lib/ 2>/dev/null || true
version_h=$(find "$build" -path '*tiergraph/version.h' | head -1)
cp -r include/tiergraph .data/include/
[ -n "$version_h" ] && cp "$version_h" .data/include/tiergraph/
cp -r /usr/include/pybind11 .data/include/
du -sh .data/lib .data/include
