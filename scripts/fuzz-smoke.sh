#!/usr/bin/env bash
# Builds the libFuzzer targets of the readers (clang, ASan + UBSan) in a build
# folder of their own and runs each for a short time. Exits non-zero when any
# target finds a crash, a sanitizer report or an unexpected exception.
#
#   scripts/fuzz-smoke.sh                 # 20 s per target
#   FUZZ_SECONDS=300 scripts/fuzz-smoke.sh
#   FUZZ_TARGETS="edge_list binary" scripts/fuzz-smoke.sh
#
# Environment: FUZZ_SECONDS (default 20), FUZZ_TARGETS (default all),
# FUZZ_BUILD_DIR (default build-fuzz), FUZZ_JOBS (build parallelism, default 2).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${FUZZ_SECONDS:-20}"
targets="${FUZZ_TARGETS:-edge_list weighted_edge_list matrix_market dimacs binary gap profile checkpoint results}"
jobs="${FUZZ_JOBS:-2}"

mkdir -p "$build"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DTG_FUZZ=ON -DTG_CUDA=OFF -DBUILD_TESTING=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/configure.log" 2>&1 || {
  cat "$build/configure.log"
  exit 1
}
cmake --build "$build" -j "$jobs" --target fuzz_all

# Seeds: the committed text seeds plus generated binary and compressed ones.
seeds="$build/fuzz-seeds"
rm -rf "$seeds"
"$build/fuzz/fuzz_make_seeds" "$seeds" "$root/fuzz/corpus"

declare -A max_len=([binary]=65536 [gap]=8192 [checkpoint]=8192)
failed=()
for t in $targets; do
  work="$build/fuzz-corpus/$t"
  artifacts="$build/fuzz-artifacts/$t/"
  mkdir -p "$work" "$artifacts" "$seeds/$t"
  corpora=("$work" "$seeds/$t")
  [[ -d "$root/fuzz/corpus/$t" ]] && corpora+=("$root/fuzz/corpus/$t")
  echo "== fuzz_$t for ${seconds}s"
  log="$build/fuzz-$t.log"
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 OMP_NUM_THREADS=2 \
    "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len="${max_len[$t]:-4096}" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts" "${corpora[@]}" >"$log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$log" | tr '\n' ' '
    echo
  else
    echo "!! fuzz_$t FAILED; log: $log; artifacts: $artifacts"
    grep -E "ERROR|runtime error|Exception|uncaught|deadly|guarantee" "$log" | head -5 || true
    failed+=("$t")
  fi
done

if ((${#failed[@]} > 0)); then
  echo "fuzz smoke: FAILED: ${failed[*]}"
  exit 1
fi
echo "fuzz smoke: all targets clean"
