#!/usr/bin/env bash
# Run HERE (not on the device): stages the build dependencies that the lent GPU
# machine lacks into .deps/ (git-ignored), for scripts/gpu-check.sh to use
# there. The device image (Ubuntu 24.04, probed 2026-11-22) has cmake, g++,
# nvcc, CLI11, nlohmann-json, GoogleTest, zlib and zstd, but no liblzma
# headers and no xxHash; Debian's liblzma-dev and libxxhash-dev give them plus
# static libraries. Also copies
# a few small real graphs from ../shared/datasets into .data/datasets (the
# device gets only this checkout). Carry both: carry [".deps", ".data"].
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps/debs .data/datasets
(cd .deps/debs && apt-get download liblzma-dev libxxhash-dev 2>/dev/null)
for deb in .deps/debs/*.deb; do dpkg -x "$deb" .deps; done
rm -f .deps/usr/lib/x86_64-linux-gnu/liblzma.so .deps/usr/lib/x86_64-linux-gnu/libxxhash.so  # so that -l takes the static libraries
rm -rf .deps/usr/share
rm -rf .deps/debs
shared=../shared/datasets
for f in karate.mtx rome99.gr wiki-Vote.el.gz road-NY.el.gz soc-Slashdot0902.el.gz; do
  [ -f "$shared/$f" ] && cp -f "$shared/$f" .data/datasets/
done
du -sh .deps .data
