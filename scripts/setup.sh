#!/usr/bin/env bash
# Installs what tiergraph needs to build (Debian packages) and builds it in
# build/. Safe to re-run: packages already present are not fetched again.
# The GPU engine is built when nvcc is found (/usr/local/cuda/bin/nvcc).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make pkg-config libgtest-dev libcli11-dev nlohmann-json3-dev zlib1g-dev libzstd-dev liblzma-dev
          libxxhash-dev libbenchmark-dev clang libclang-rt-14-dev python3-matplotlib python3-dev python3-numpy
          pybind11-dev libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_type="${BUILD_TYPE:-Release}"
cmake -S . -B build -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: built build/tiergraph" >&2
# Debian's /usr/bin/python3 finds the module in build/python through a .pth
# file in the user's site-packages (docs/PYTHON.md): `import tiergraph`.
if [ -e build/python ] && ls build/python/tiergraph*.so >/dev/null 2>&1; then
  site=$(/usr/bin/python3 -m site --user-site)
  mkdir -p "$site" && echo "$PWD/build/python" >"$site/tiergraph-build.pth"
  echo "setup: /usr/bin/python3 imports tiergraph from build/python ($site/tiergraph-build.pth)" >&2
fi
