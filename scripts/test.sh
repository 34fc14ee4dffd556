#!/usr/bin/env bash
# Sets up, builds, and runs every test (CTest), then a short fuzzing run of
# every file reader. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 900
if [ -x scripts/fuzz-smoke.sh ]; then
  FUZZ_SECONDS="${FUZZ_SECONDS:-15}" scripts/fuzz-smoke.sh
fi
