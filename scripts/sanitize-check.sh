#!/usr/bin/env bash
# Builds the CPU test suites with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/, GCC, no CUDA, no Python module) and runs each suite, so that a
# memory error or undefined behaviour the plain tests pass over fails here. The
# CLI tests run the instrumented tiergraph program too. Not part of CI (a second
# full build would double its time on 2 cores); run it after changes to readers,
# engines or the API. Exits non-zero when a suite fails or a sanitizer reports.
#
#   scripts/sanitize-check.sh                # every CPU suite
#   SAN_SUITES="formats cli" scripts/sanitize-check.sh
#
# Environment: SAN_SUITES (default: every CPU suite), SAN_BUILD_DIR (default
# build-asan), SAN_JOBS (build parallelism, default 2).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SAN_BUILD_DIR:-$root/build-asan}"
suites="${SAN_SUITES:-formats graph generators algorithms engines cli api distributed sampling features planner}"
jobs="${SAN_JOBS:-2}"
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTG_CUDA=OFF -DTG_PYTHON=OFF \
  -DTG_BENCHMARKS=OFF -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >"$build/configure.log" 2>&1 || {
  cat "$build/configure.log"
  exit 1
}
targets=(tiergraph)
for s in $suites; do targets+=("tg_${s}_tests"); done
ninja -C "$build" -j "$jobs" "${targets[@]}" >"$build/build.log" 2>&1 || {
  tail -30 "$build/build.log"
  exit 1
}

failed=()
for s in $suites; do
  log="$build/sanitize-$s.log"
  start=$(date +%s)
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 OMP_NUM_THREADS=2 \
    "$build/tests/tg_${s}_tests" >"$log" 2>&1 &&
    ! grep -qE "ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer" "$log"; then
    printf '%-12s clean  %s  (%d s)\n' "$s" "$(grep -E '^\[  PASSED' "$log" | tail -1)" $(($(date +%s) - start))
  else
    printf '%-12s FAILED (log: %s)\n' "$s" "$log"
    grep -E "ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer|^\[  FAILED" "$log" | head -5 || true
    failed+=("$s")
  fi
done
if ((${#failed[@]} > 0)); then
  echo "sanitize check: FAILED: ${failed[*]}"
  exit 1
fi
echo "sanitize check: every suite clean"
