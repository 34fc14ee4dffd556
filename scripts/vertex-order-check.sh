#!/usr/bin/env bash
# Run ON THE GPU MACHINE (issue 13, in GPU memory): the same graph numbered as generated (kron permutes its ids) and
# renumbered hubs first (`generate --vertex-order degree`), each algorithm's bench rows taking turns, e.g. as
# gpu-check.sh's extra step:
#   GPU_CHECK_PREBUILT=1 GPU_CHECK_TESTS=0 GPU_CHECK_GRAPHS= GPU_CHECK_EXTRA=scripts/vertex-order-check.sh scripts/gpu-check.sh
# Environment: VO_GRAPH=kron:25 (weights 1..255, lists by weight), VO_PLACEMENT=device, VO_ROUNDS=2,
# VO_ALGOS="pagerank cc bfs sssp", VO_BIN (default: gpu-check's prebuilt tiergraph), VO_ARGS (more bench arguments).
# Prints per row the mean ms (PageRank: ms an iteration), the first run verified.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/vertex-order-check}"
mkdir -p "$out"
source scripts/find-tiergraph.sh "${VO_BIN:-}" VO_BIN
graph=${VO_GRAPH:-kron:25}
ids=/tmp/vo_${graph/:/_}_ids.tgb hubs=/tmp/vo_${graph/:/_}_hubs.tgb
for f in "$ids" "$hubs"; do
  extra=()
  [ "$f" = "$hubs" ] && extra=(--vertex-order degree)
  [ -f "$f" ] || "$bin" generate "$graph" "$f" --weights 1:255 --lists-by-weight -q "${extra[@]}" ||
    { echo "generate $f failed"; exit 1; }
done
row() {  # ALGO FILE [bench args]
  local algo=$1 file=$2 name
  shift 2
  name=$(basename "$file" .tgb)
  # shellcheck disable=SC2086
  timeout 300 "$bin" bench "$file" -a "$algo" -p "${VO_PLACEMENT:-device}" --verify first -q ${VO_ARGS:-} "$@" \
    -o "$out/$name-$algo" >"$out/$name-$algo.log" 2>&1 || { echo "$algo $name: rc $? $(tail -1 "$out/$name-$algo.log")"; return; }
  python3 - "$out/$name-$algo.json" "$algo" "$name" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
ms = [1e3 * r["compute_s"] for r in runs]
per_iter = sys.argv[2] == "pagerank"
vals = [m / r["iterations"] for m, r in zip(ms, runs)] if per_iter else ms
unit = "ms an iteration" if per_iter else "ms"
print(f"{sys.argv[2]:9} {sys.argv[3]:18} mean {sum(vals) / len(vals):8.2f} {unit} (runs {' '.join(f'{v:.2f}' for v in vals[:6])}) "
      f"verified {runs[0].get('verified')}")
PY
}
for r in $(seq "${VO_ROUNDS:-2}"); do
  for algo in ${VO_ALGOS:-pagerank cc bfs sssp}; do
    for f in "$ids" "$hubs"; do
      case $algo in
        pagerank) row pagerank "$f" -n 1 --trials 2 ;;
        cc) row cc "$f" --trials 3 ;;
        bfs) row bfs "$f" -n 16 ;;
        sssp) row sssp "$f" -n 4 --delta 64 ;;
        *) row "$algo" "$f" -n 4 ;;
      esac
    done
  done
done
