#!/usr/bin/env bash
# Run ON THE GPU MACHINE through the device tool (docs/FEATURES.md): the
# feature store's GPU tests, the Python module's tests with CUDA tensors, and
# the gather benchmark, from binaries built here and staged by
#   scripts/stage-gpu-binaries.sh build-gpu build-gpu/benchmarks/tg_gather_bench=tg_gather_bench \
#     build-gpu/benchmarks/tg_sample_bench=tg_sample_bench
#   scripts/stage-python-module.sh build-gpu
# then run(command="scripts/gpu-features-check.sh", carry=[".data"]).
# The module is compiled there against that machine's python3 (its own
# version and NumPy) and the staged libtiergraph.so; pybind11's headers come
# from that python's torch where it has them, else from the staged copy.
#
# Environment:
#   FEATURES_CHECK_TESTS=0    skip the C++ GPU tests
#   FEATURES_CHECK_PYTHON=0   skip the Python module
#   FEATURES_CHECK_BENCH="..."  row widths for the gather benchmark (default "128 256 1024 1028 1044 4096"; empty: none)
#   FEATURES_CHECK_ROWS_GIB=4   table size of the benchmark in GiB
#   FEATURES_CHECK_BENCH_FILTER=REGEX  which of its rates (default all; the peer tier's on two GPUs:
#                             'device_resident|peer_resident|hot_local_and_peers|tiered_store')
#   FEATURES_CHECK_SAMPLE="kron:24"  graphs for the sampling benchmark (empty: none)
#   FEATURES_CHECK_FANOUTS="25,10 15,10,5"  its fanouts
#   FEATURES_CHECK_PY_SAMPLE="kron:24"  graphs for benchmarks/python/sample_bench.py (hops as NumPy and as CUDA
#                             tensors, the FANOUTS above; empty: none; needs the Python module)
#   FEATURES_CHECK_TIERING="..."  flags for scripts/tiering-hits.py (default: not run)
#   FEATURES_CHECK_GRAPHSAGE="..."  flags for examples/graphsage/train.py, run with the store and with the
#                             CPU-gather baseline (default: not run; needs the Python module)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out="${OUT:-$root/out/gpu-features}"
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
note "gpu: $(nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader 2>&1)  date: $(date -u +%F)"

bin=/tmp/tg-bin
mkdir -p "$bin"
for f in .data/bin/*; do
  case $f in
    *.xz) xz -dc "$f" >"$bin/$(basename "$f" .xz)" ;;
    *) cp "$f" "$bin/" ;;
  esac
done
chmod +x "$bin"/* 2>/dev/null
export LD_LIBRARY_PATH="$root/.data/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TG_DATASETS_DIR="$root/.data/datasets"

if [ "${FEATURES_CHECK_TESTS:-1}" != 0 ]; then
  t0=$(date +%s)
  "$bin/tg_gpu_tests" --gtest_filter='FeatureGather*:FeatureTiers*:FeaturePeerTier*:GpuSampler*' >"$out/gtest.log" 2>&1
  rc=$?
  grep -E "^\[  (FAILED|PASSED) |Failure|error" "$out/gtest.log" | head -20
  note "C++ feature and sampler tests: rc=$rc, $(grep -c '^\[       OK' "$out/gtest.log") ok, $(grep -cE '^\[  FAILED  \] .*\([0-9]+ ms\)$' "$out/gtest.log") failed, $(($(date +%s) - t0)) s"
fi

if [ "${FEATURES_CHECK_PYTHON:-1}" != 0 ]; then
  py=${FEATURES_CHECK_PY:-python3}
  suffix=$($py -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  pyinc=$($py -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
  pybind=$($py -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "include"))' 2>/dev/null)
  [ -e "$pybind/pybind11/pybind11.h" ] || pybind=.data/include
  note "python: $($py --version 2>&1), torch $($py -c 'import torch; print(torch.__version__, torch.cuda.is_available())' 2>&1 | tail -1), pybind11 from $pybind"
  mkdir -p /tmp/tg-py
  if g++ -O2 -std=c++20 -shared -fPIC -fvisibility=hidden -I"$pyinc" -I"$pybind" -Iinclude -I.data/include \
      python/tiergraph_module.cc python/feature_store.cc -L.data/lib -ltiergraph -Wl,-rpath,"$root/.data/lib" \
      -o "/tmp/tg-py/tiergraph$suffix" >"$out/module-build.log" 2>&1; then
    PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/tg-py OMP_WAIT_POLICY=passive $py -m unittest discover -s tests/python -v \
      >"$out/python.log" 2>&1
    rc=$?
    grep -E "^(FAIL|ERROR):|Error|^Ran|^OK|^FAILED" "$out/python.log" | head -30
    note "python tests: rc=$rc, $(grep -E '^Ran' "$out/python.log")"
  else
    head -30 "$out/module-build.log"
    note "python module: BUILD FAILED"
  fi
fi

if [ -e /tmp/tg-py ]; then
  for graph in ${FEATURES_CHECK_PY_SAMPLE-kron:24}; do
    note "python sampling $graph, batches of 1024 seeds (benchmarks/python/sample_bench.py):"
    # shellcheck disable=SC2086
    PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/tg-py timeout 300 ${FEATURES_CHECK_PY:-python3} benchmarks/python/sample_bench.py \
      --graph "$graph" --fanouts ${FEATURES_CHECK_FANOUTS:-25,10 15,10,5} 2>&1 | sed 's/^/  /' | tee -a "$summary"
  done
fi

if [ -n "${FEATURES_CHECK_GRAPHSAGE:-}" ] && [ -e /tmp/tg-py ]; then
  for gather in store cpu; do
    # shellcheck disable=SC2086
    PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/tg-py timeout 300 ${FEATURES_CHECK_PY:-python3} examples/graphsage/train.py \
      $FEATURES_CHECK_GRAPHSAGE --gather $gather --json >"$out/graphsage-$gather.json" 2>"$out/graphsage-$gather.log"
    note "graphsage --gather $gather (rc $?): $(head -1 "$out/graphsage-$gather.log")"
    grep "^epoch" "$out/graphsage-$gather.log" | sed 's/^/  /' | tee -a "$summary"
  done
fi

if [ -x "$bin/tg_sample_bench" ]; then
  for graph in ${FEATURES_CHECK_SAMPLE-kron:24}; do
    for fanouts in ${FEATURES_CHECK_FANOUTS:-25,10 15,10,5}; do
      name="sample-${graph//:/}-${fanouts//,/-}"
      TG_BENCH_GRAPH=$graph TG_BENCH_FANOUTS=$fanouts TG_BENCH_BATCH=1024 timeout 300 "$bin/tg_sample_bench" \
        --benchmark_format=json --benchmark_out="$out/$name.json" --benchmark_out_format=json >"$out/$name.log" 2>&1 ||
        note "sample bench $graph $fanouts: rc=$?"
      note "sampling $graph, fanouts $fanouts, batches of 1024 seeds:"
      python3 -c 'import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    print("  %-24s %8.1f M sampled edges/s, %6.2f ms a batch%s" % (b["name"], b.get("items_per_second", 0) / 1e6,
          b["real_time"] / 1e6, "  " + b["error_message"] if b.get("error_occurred") else ""))' \
        "$out/$name.json" 2>&1 | tee -a "$summary"
    done
  done
fi

if [ -n "${FEATURES_CHECK_TIERING:-}" ] && [ -e /tmp/tg-py ]; then
  # shellcheck disable=SC2086
  PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/tg-py timeout 400 ${FEATURES_CHECK_PY:-python3} scripts/tiering-hits.py \
    $FEATURES_CHECK_TIERING --json >"$out/tiering.txt" 2>"$out/tiering.log"
  note "tiering-hits $FEATURES_CHECK_TIERING (rc $?):"
  sed 's/^/  /' "$out/tiering.log" | tee -a "$summary"
  grep -v '^{' "$out/tiering.txt" | sed 's/^/  /' | tee -a "$summary"
fi

widths="${FEATURES_CHECK_BENCH-128 256 1024 1028 1044 4096}"
if [ -n "$widths" ] && [ -x "$bin/tg_gather_bench" ]; then
  gib=${FEATURES_CHECK_ROWS_GIB:-4}
  for w in $widths; do
    rows=$((gib * 1024 * 1024 * 1024 / w))
    TG_BENCH_ROWS=$rows TG_BENCH_ROW_BYTES=$w TG_BENCH_IDS=$((256 * 1024 * 1024 / w)) timeout 120 \
      "$bin/tg_gather_bench" --benchmark_filter="${FEATURES_CHECK_BENCH_FILTER:-.}" --benchmark_format=json \
      --benchmark_out="$out/gather-$w.json" --benchmark_out_format=json >"$out/gather-$w.log" 2>&1 || note "gather bench $w B: rc=$?"
    note "gather $w B rows ($rows rows, $gib GiB table):"
    python3 -c 'import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    share = "  cpu share %.2f" % b["cpu_share"] if "cpu_share" in b and "cpu_share" in b["name"] else ""
    print("  %-40s %7.1f GB/s%s%s" % (b["name"], b.get("bytes_per_second", 0) / 1e9, share, "  " + b["error_message"] if b.get("error_occurred") else ""))' \
      "$out/gather-$w.json" 2>&1 | tee -a "$summary"
  done
fi
echo "=== summary ==="
cat "$summary"
