#!/usr/bin/env bash
# Run ON THE GPU MACHINE, as GPU_CHECK_EXTRA of scripts/gpu-check.sh with GPU_CHECK_PREBUILT=1 (the binaries at
# /tmp/tg-bin), or alone after scripts/stage-gpu-binaries.sh (it unpacks .data/bin itself):
#   GPU_CHECK_PREBUILT=1 GPU_CHECK_TESTS=0 GPU_CHECK_GRAPHS= GPU_CHECK_EXTRA_TAIL=60 \
#     GPU_CHECK_EXTRA='bash scripts/heads-cache-check.sh' scripts/gpu-check.sh
# The streamed placements' heads cache (docs/GPU.md, "The streamed placements' heads cache"): the GPU tests that run
# CC on subgraph / stream / hybrid, then CC on kron and urand at a quarter budget (the edge count in bytes, the
# planner records' convention) on subgraph, hybrid-subgraph, stream, zerocopy-aligned and auto with the cache
# (--edge-cache auto, the default), and subgraph and stream without it (--edge-cache off), each verified once, and a
# traced subgraph run whose sample step says where its heads came from.
# Environment:
#   HEADS_SCALES="25 24"   scales of kron and urand (generated here)
#   HEADS_TESTS=filter     gtest filter ('' skips the tests)
#   HEADS_TRIALS=4         bench's --trials
# Prints one line a run (ms, GB over the link, the cache's bytes and the bytes read from it); the bench JSONs go
# into $OUT/heads-cache.tgz.
set -u
cd "$(dirname "$0")/.."
mkdir -p /tmp/tg-bin
for f in .data/bin/*; do
  [ -e "$f" ] || continue
  n=/tmp/tg-bin/$(basename "$f" .xz)
  [ -x "$n" ] && continue
  case "$f" in *.xz) xz -dc "$f" > "$n" ;; *) cp "$f" "$n" ;; esac
  chmod +x "$n"
done
export LD_LIBRARY_PATH="/tmp/tg-bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
T=${TG_TIERGRAPH_BIN:-/tmp/tg-bin/tiergraph}
out=${OUT:-out}/heads-cache
mkdir -p "$out"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in
  *H200*) profile=tests/planner/data/h200-2026-12-02.profile.json ;;
  *) profile=tests/planner/data/h100-2026-11-28.profile.json ;;
esac
echo "$gpu; profile $profile"
filter=${HEADS_TESTS-'SubwayHeadsCache*:Subway/SubwayMatrix.*/cc_*:SubwayKron*:SubwayCc*:HybridGpu*'}
if [ -n "$filter" ] && [ -x /tmp/tg-bin/tg_gpu_tests ]; then
  t0=$(date +%s)
  timeout 300 /tmp/tg-bin/tg_gpu_tests --gtest_filter="$filter" > "$out/tests.log" 2>&1
  echo "GPU tests: rc $? in $(( $(date +%s) - t0 )) s; $(grep -c '^\[       OK' "$out/tests.log") passed"
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]" "$out/tests.log" | head -20
  grep -B2 -A8 "Failure$" "$out/tests.log" | head -40
fi
for s in ${HEADS_SCALES:-25 24}; do
  for k in kron urand; do
    f=/tmp/heads_$k$s.tgb
    [ -f "$f" ] || timeout 150 "$T" generate "$k:$s" "$f" -q > /dev/null || { echo "generate $k:$s failed"; continue; }
    m=$("$T" info "$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["edges"])')
    timeout 150 "$T" bench "$f" -a cc -p subgraph,hybrid-subgraph,stream,zerocopy-aligned,auto --gpu-mem "$m" \
      --trials "${HEADS_TRIALS:-4}" --verify first --no-chart --profile "$profile" -q -o "$out/cc_${k}${s}_cache" \
      > /dev/null 2>> "$out/bench.err" || echo "bench $k:$s with the cache: rc $?"
    timeout 150 "$T" bench "$f" -a cc -p subgraph,stream --gpu-mem "$m" --edge-cache off \
      --trials "${HEADS_TRIALS:-4}" --verify first --no-chart -q -o "$out/cc_${k}${s}_off" \
      > /dev/null 2>> "$out/bench.err" || echo "bench $k:$s without: rc $?"
    timeout 60 "$T" run cc --graph "$f" --placement subgraph --gpu-mem "$m" --json > "$out/run_${k}${s}.json" \
      2>> "$out/bench.err" || echo "run $k:$s: rc $?"
    python3 - "$out/run_${k}${s}.json" <<'PY'
import json, sys
def records(x):
    if isinstance(x, dict):
        its = x.get("iterations")
        if isinstance(its, list) and its and isinstance(its[0], dict) and "reason" in its[0]:
            return its
        for v in x.values():
            r = records(v)
            if r:
                return r
    return None
try:
    run = json.load(open(sys.argv[1]))
except Exception as e:
    sys.exit("  traced run: %s" % e)
for r in (records(run) or [])[:2]:
    print("  step %-10s %-70s %.2f ms, %d bytes copied" % (r.get("transfer"), r.get("reason", "")[:70],
          1e3 * r.get("compute_s", 0), r.get("bytes_copied", 0)))
PY
    rm -f "$f"
  done
done
python3 - "$out" <<'PY'
import glob, json, sys
print("%-8s %-5s %-18s %3s %9s %8s %9s %9s %s" % ("graph", "cache", "placement", "run", "ms", "GB link", "cache GB", "read GB", "choice"))
for f in sorted(glob.glob(sys.argv[1] + "/cc_*.json")):
    tag = f.rsplit("_", 1)[-1][:-5]
    for i, r in enumerate(json.load(open(f))["runs"]):
        d = r.get("details", {})
        c = d.get("edge_cache", {})
        print("%-8s %-5s %-18s %3d %9.2f %8.3f %9.3f %9.3f %s%s" % (f.split("/")[-1].split("_")[1], tag, r["placement"], i,
              1e3 * r["compute_s"], r["bytes_moved"] / 1e9, c.get("bytes", 0) / 1e9, c.get("bytes_read", 0) / 1e9,
              d.get("plan", {}).get("choice", ""), "" if r.get("verified", True) else " UNVERIFIED"))
PY
tar czf "${OUT:-out}/heads-cache.tgz" -C "$out" . 2>/dev/null
