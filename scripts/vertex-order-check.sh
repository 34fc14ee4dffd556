#!/usr/bin/env bash
# Run ON THE GPU MACHINE (issue 13, in GPU memory): bench rows on the graph as generated (kron permutes its ids) and
# renumbered hubs first (`--vertex-order degree`, engines/vertex_order.h), taking turns, the same sources, e.g. as
# gpu-check.sh's extra step:
#   GPU_CHECK_PREBUILT=1 GPU_CHECK_TESTS=0 GPU_CHECK_GRAPHS= GPU_CHECK_EXTRA=scripts/vertex-order-check.sh scripts/gpu-check.sh
# pagerank, cc and bfs run on the unweighted graph, sssp on the same graph with weights 1..255, lists by weight.
# Environment: VO_GRAPH=kron:25, VO_PLACEMENT=device (a row's own -p wins), VO_ROUNDS=2, VO_ROWS (default below:
# "ALGO:bench args;..."),
# VO_BIN (default: gpu-check's prebuilt tiergraph), VO_ARGS (more bench arguments for every row).
# Prints per row the mean ms (PageRank: ms an iteration), the renumbering's seconds, the first run verified.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/vertex-order-check}"
mkdir -p "$out"
source scripts/find-tiergraph.sh "${VO_BIN:-}" VO_BIN
graph=${VO_GRAPH:-kron:25}
plain=/tmp/vo_${graph/:/_}.tgb weighted=/tmp/vo_${graph/:/_}_w_by-weight.tgb
[ -f "$plain" ] || "$bin" generate "$graph" "$plain" -q || { echo "generate $plain failed"; exit 1; }
[ -f "$weighted" ] || "$bin" generate "$graph" "$weighted" --weights 1:255 --lists-by-weight -q ||
  { echo "generate $weighted failed"; exit 1; }
row() {  # NAME FILE [bench args]
  local name=$1 file=$2 placement=(-p "${VO_PLACEMENT:-device}")
  shift 2
  [[ " $* " == *" -p "* ]] && placement=()  # a row naming its own placement
  # shellcheck disable=SC2086
  timeout 300 "$bin" bench "$file" "${placement[@]}" --verify first --no-chart ${VO_ARGS:-} "$@" \
    -o "$out/$name" >"$out/$name.log" 2>&1 || { echo "$name: rc $? $(tail -1 "$out/$name.log")"; return; }
  python3 - "$out/$name.json" "$name" "$out/$name.log" <<'PY'
import json, re, sys
runs = json.load(open(sys.argv[1]))["runs"]
per_iter = runs[0]["algorithm"] == "pagerank"
vals = [1e3 * r["compute_s"] / (r["iterations"] if per_iter else 1) for r in runs]
m = re.search(r"renumbered \(\w+\) in ([\d.]+) s", open(sys.argv[3]).read())
renumber = f"renumber {m.group(1)} s" if m else ""
blocks = runs[0].get("details", {}).get("source_blocks")
if blocks: renumber += f" [blocks {blocks['blocks']}: {blocks['note']}]"
link = [r.get("bytes_moved", 0) / 1e9 for r in runs]
if any(link): renumber += f" moved GB {' '.join(f'{x:.1f}' for x in link[:4])}"
print(f"{sys.argv[2]:34} mean {sum(vals) / len(vals):8.2f} {'ms an iteration' if per_iter else 'ms'} "
      f"(runs {' '.join(f'{v:.2f}' for v in vals[:6])}) {renumber} verified {runs[0].get('verified')}")
PY
}
IFS=';' read -r -a rows <<<"${VO_ROWS:-pagerank:--trials 2;cc:--trials 3;bfs:-n 16;sssp:-n 8 --delta 64}"
for r in $(seq "${VO_ROUNDS:-2}"); do
  for spec in "${rows[@]}"; do
    algo=${spec%%:*} args=${spec#*:}
    file=$plain
    [ "$algo" = sssp ] && file=$weighted
    for order in as-loaded degree; do
      # shellcheck disable=SC2086
      row "$algo-$order-$r$(echo "$args" | tr -d ' -' | cut -c1-40)" "$file" -a "$algo" --vertex-order "$order" $args
    done
  done
done
