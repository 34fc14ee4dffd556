#!/usr/bin/env bash
# Sets up, builds, and runs every test (CTest), then a short fuzzing run of
# every file reader. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Only the tests need PyTorch (Debian's CPU build): tensors crossing into and
# out of the Python module without copies (tests/python).
if ! dpkg -s python3-torch >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends python3-torch >/dev/null ||
    echo "test: python3-torch not installed; the tensor test will be skipped" >&2
fi
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 900
if [ -x scripts/fuzz-smoke.sh ]; then
  FUZZ_SECONDS="${FUZZ_SECONDS:-15}" scripts/fuzz-smoke.sh
fi
