#!/usr/bin/env bash
# Run ON THE GPU MACHINE, as GPU_CHECK_EXTRA of scripts/gpu-check.sh with GPU_CHECK_PREBUILT=1
# (the binaries at /tmp/tg-bin): the packed lists' GPU tests, then packed against plain lists on
# generated graphs at a quarter budget (docs/SUBWAY.md "Packed lists"; docs/PERF.md, sessions 26-27):
#   GPU_CHECK_PREBUILT=1 GPU_CHECK_TESTS=0 GPU_CHECK_GRAPHS= GPU_CHECK_EXTRA_TAIL=60 \
#     GPU_CHECK_EXTRA='bash scripts/packed-check.sh' scripts/gpu-check.sh
# Environment:
#   PACKED_GRAPHS="kron:25"          graphs, generated with --weights 1:255 (the budget: their edge count in bytes,
#                                    a quarter of the id array, the planner records' convention)
#   PACKED_RUNS="sssp:subgraph-gpu bfs:subgraph-gpu pagerank:stream"   algorithm:placement pairs
#   PACKED_TESTS=filter              gtest filter ('' skips the tests)
#   PACKED_SOURCES=2 PACKED_TRIALS=2 bench's -n and --trials
#   PACKED_GPU_ENCODER=1             also run each packed case with the encoder on the GPU (TG_GPU_PACK=1), as "gpu"
# Prints a table of every run: ms (an iteration for pagerank), GB over the link, the SubCSR's plain GB, packed and
# plain pieces, the transfer phase and the encoder's seconds, the packing ratio.
set -u
T=${TG_TIERGRAPH_BIN:-/tmp/tg-bin/tiergraph}
tests=/tmp/tg-bin/tg_gpu_tests
out=${OUT:-out/packed-check}
mkdir -p "$out"
export TG_DATASETS_DIR=${TG_DATASETS_DIR:-$PWD/.data/datasets} TG_TIERGRAPH_BIN=$T
filter=${PACKED_TESTS-'GpuPackedEncoder*:SubwayPacked*:PackedLists*:Subway/SubwayMatrix.*/*subgraph*_v32:SubwayKron*:Hybrid*'}
if [ -n "$filter" ] && [ -x "$tests" ]; then
  t0=$(date +%s)
  timeout 300 "$tests" --gtest_filter="$filter" > "$out/packed_tests.log" 2>&1
  echo "packed lists' GPU tests: rc $? in $(( $(date +%s) - t0 )) s; $(grep -c '^\[       OK' "$out/packed_tests.log") passed"
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure" "$out/packed_tests.log" | head -20
fi
for spec in ${PACKED_GRAPHS:-kron:25}; do
  f=/tmp/packed_${spec/:/_}.tgb
  [ -f "$f" ] || "$T" convert "$spec" --weights 1:255 "$f" -q || exit 1
  m=$("$T" info "$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["edges"])')
  for run in ${PACKED_RUNS:-sssp:subgraph-gpu bfs:subgraph-gpu pagerank:stream}; do
    a=${run%%:*} p=${run#*:}
    for pk in auto off $([ "${PACKED_GPU_ENCODER:-0}" = 1 ] && echo gpu); do
      TG_GPU_PACK=$([ $pk = gpu ] && echo 1 || echo 0) timeout 200 "$T" bench "$f" -a "$a" -p "$p" --gpu-mem "$m" --packed-lists ${pk/gpu/auto} -n "${PACKED_SOURCES:-2}" \
        --trials "${PACKED_TRIALS:-2}" --verify first --no-chart -q -o "$out/${spec/:/_}_${a}_${p}_$pk" \
        > /dev/null 2>> "$out/bench.err" || echo "bench $spec $a $p $pk: rc $?"
    done
  done
  rm -f "$f"
done
python3 - "$out" <<'PY'
import glob, json, sys
print("%-10s %-8s %-14s %-4s %3s %9s %8s %8s %6s %6s %6s %6s %5s" % ("graph", "algo", "placement", "pack", "run", "ms", "GB link",
      "GB sub", "packed", "plain", "xfer_s", "pack_s", "ratio"))
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    pk = f.rsplit("_", 1)[-1][:-5]
    for i, r in enumerate(json.load(open(f))["runs"]):
        d, it = r.get("details", {}), max(r["iterations"], 1)
        pl = d.get("packed_lists", {})
        ms = 1e3 * r["compute_s"] / (it if r["algorithm"] == "pagerank" else 1)
        print("%-10s %-8s %-14s %-4s %3d %9.2f %8.2f %8.2f %6s %6s %6.2f %6.3f %5.2f %s" % (r["graph"].split("/")[-1][7:-4],
              r["algorithm"], r["placement"], pk, i, ms, r["bytes_moved"] / 1e9, d.get("subcsr_bytes", 0) / 1e9,
              d.get("subcsr_packed_pieces", "-"), d.get("subcsr_plain_pieces", "-"), r["transfer_s"], pl.get("build_s", 0),
              pl.get("ratio", 0), "" if r.get("verified", True) else "UNVERIFIED"))
PY
tar czf "$out/packed.tgz" -C "$out" $(cd "$out" && ls *.json) 2>/dev/null && rm -f "$out"/*.json "$out"/*.csv
