#!/usr/bin/env bash
# Run ON THE GPU MACHINE (issue 13: BFS over 200 GTEPS in GPU memory): why some roots take longer than others.
# Runs `bench -a bfs -n N` once, prints each root's time sorted, then the per-step trace (TG_GPU_TRACE=1: direction,
# frontier in and out, edges, ms, with a device sync around each step) of the BR_PICK fastest and slowest roots, e.g.
#   GPU_CHECK_PREBUILT=1 GPU_CHECK_TESTS=0 GPU_CHECK_GRAPHS= GPU_CHECK_EXTRA=scripts/bfs-roots-trace.sh scripts/gpu-check.sh
# Environment: BR_GRAPH=kron:25 (generated to /tmp unless there), BR_PLACEMENT=device, BR_N=64, BR_PICK=2,
# BR_ARGS (more arguments for both bench and run, e.g. "--vertex-order degree"), BR_BIN (default: gpu-check's
# prebuilt tiergraph).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/bfs-roots-trace}"
mkdir -p "$out"
source scripts/find-tiergraph.sh "${BR_BIN:-}" BR_BIN
graph=${BR_GRAPH:-kron:25}
file=/tmp/br_${graph/:/_}.tgb
[ -f "$file" ] || "$bin" generate "$graph" "$file" -q || { echo "generate $file failed"; exit 1; }
placement=${BR_PLACEMENT:-device}
# shellcheck disable=SC2086
"$bin" bench "$file" -a bfs -p "$placement" -n "${BR_N:-64}" --verify first --no-chart -q ${BR_ARGS:-} \
  -o "$out/bench" >"$out/bench.log" 2>&1 || { echo "bench: rc $? $(tail -1 "$out/bench.log")"; exit 1; }
picks=$(python3 - "$out/bench.json" "${BR_PICK:-2}" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
pick = int(sys.argv[2])
rows = sorted((1e3 * r["compute_s"], r["source"], r.get("edges_traversed", 0), r.get("iterations", 0)) for r in runs)
ms = [r[0] for r in rows]
print(f"# {len(rows)} roots: mean {sum(ms) / len(ms):.3f} ms, median {ms[len(ms) // 2]:.3f}, fastest {ms[0]:.3f}, "
      f"slowest {ms[-1]:.3f}; per root (ms/source/edges/levels), fastest first:", file=sys.stderr)
print("#   " + "  ".join(f"{m:.2f}/{s}/{e}/{i}" for m, s, e, i in rows), file=sys.stderr)
print(" ".join(str(r[1]) for r in rows[:pick] + rows[-pick:]))
PY
) || exit 1
for s in $picks; do
  echo "# root $s (TG_GPU_TRACE=1 run bfs, one step a line)"
  # shellcheck disable=SC2086
  TG_GPU_TRACE=1 "$bin" run bfs --graph "$file" -p "$placement" --source "$s" ${BR_ARGS:-} --json >"$out/run_$s.json" \
    2>"$out/run_$s.err" || { echo "run: rc $? $(tail -1 "$out/run_$s.err")"; continue; }
  grep '^tg-gpu step' "$out/run_$s.err" | sed 's/^tg-gpu step /  /'
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(f\"  compute {1e3*r['time_s']['compute']:.3f} ms (traced: a sync around each step)\")" \
    "$out/run_$s.json"
done
