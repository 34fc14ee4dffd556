#!/usr/bin/env bash
# tiergraph's CPU engine side by side with GAP (github.com/sbeamer/gapbs), on
# GAP's own graphs, with the same thread count and the same sources, in one
# run; prints a table of mean times and the ratio tiergraph / GAP.
#   scripts/compare-gap.sh GAP_CHECKOUT
# GAP_CHECKOUT is a local copy of GAP's source at commit b5e3e19 (the project
# does not vendor GAP; its Makefile builds it in place). Environment:
#   SCALES ("20")  FAMILIES ("kron urand")  THREADS (2)  SOURCES (4)  TRIALS (3)
#   ALGOS ("bfs sssp cc pr bc")  SSSP_DELTA (2: GAP's tuned delta for its 1..255 weights)
#   PR_ITERS (20: both run exactly this many PageRank iterations)  REPEAT (1)
#   TG (build/tiergraph)  WORK (/tmp/tg-gap: GAP's graphs, logs)
#   TG_SSSP_ARGS (none: tiergraph picks its delta from the weights; e.g. "--delta 2")
#   VERTEX_ORDER (as-loaded; degree: both programs run on GAP's graphs renumbered hubs first by
#                 `tiergraph convert X.sg X_degree.sg --vertex-order degree`, written in GAP's own format;
#                 the table's graph column then reads e.g. kron20hubs)
# Both run TRIALS trials per source in one process and report their mean;
# REPEAT (1) rounds of that, GAP's and tiergraph's runs taking turns, and the
# table shows the fastest round of each (a shared machine only ever adds
# time), the range of the rounds' ratios and their median (where one
# program's processes run in two modes, the fastest rounds compare the one
# that had the lucky mode; the median ratio compares rounds run side by side):
# GAP's kernels print "Average Time"; tiergraph's is the compute phase of
# `bench --trials` (the graph loaded once, as GAP does). Both read the same
# .sg/.wsg files; sources are tiergraph's random picks with out-edges
# (`bench -n`), handed to GAP with -r and to tiergraph with --sources.
set -euo pipefail
gap=${1:?usage: scripts/compare-gap.sh GAP_CHECKOUT}
cd "$(dirname "$0")/.."
tg=${TG:-$PWD/build/tiergraph}
work=${WORK:-/tmp/tg-gap}
threads=${THREADS:-2}
trials=${TRIALS:-3}
repeat=${REPEAT:-1}
mkdir -p "$work"
[ -x "$tg" ] || { echo "compare-gap: $tg not found: run scripts/setup.sh first" >&2; exit 2; }
# Only where the checkout is a git repository of its own (a copy inside
# another repository, as on the lent GPU machine, says nothing of GAP's commit).
if [ "$(git -C "$gap" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$gap" && pwd -P)" ]; then
  commit=$(git -C "$gap" rev-parse --short HEAD)
  [ "$commit" = b5e3e19 ] || echo "compare-gap: GAP at $commit, not the pinned b5e3e19" >&2
fi
# GAP's programs, built there beforehand (../shared/peers/README.md): this repository builds no peer's code.
for program in bfs sssp cc pr bc converter; do
  [ -x "$gap/$program" ] || { echo "$(basename "$0"): $gap/$program not found: build GAP's programs there first" >&2; exit 2; }
done
export OMP_NUM_THREADS=$threads OMP_PROC_BIND=${OMP_PROC_BIND:-true}

gap_ms() {  # kernel, then GAP arguments: GAP's mean trial time in ms
  local kernel=$1
  shift
  "$gap/$kernel" "$@" -n "$trials" | awk '/^Average Time:/ { printf "%.3f", $3 * 1000 }'
}
tg_ms() {  # graph file, algorithm, source or -, then bench arguments: the mean compute time of TRIALS runs, in ms
  local file=$1 algo=$2 source=$3
  shift 3
  local from=()
  [ "$source" != - ] && from=(--sources "$source")
  "$tg" bench "$file" -a "$algo" -p cpu --threads "$threads" --trials "$trials" "${from[@]}" --verify none \
    --no-chart -q -o "$work/tg-run" "$@" >/dev/null 2>>"$work/tg.log"
  python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['cells'][0]; print('%.3f' % (c['mean_compute_s'] * 1000))" \
    "$work/tg-run.json"
}

printf '%-10s %-6s %3s %12s %12s %8s  %-11s %s\n' graph algo thr 'GAP ms' 'tiergraph ms' 'tg/GAP' 'rounds' 'median'
for family in ${FAMILIES:-kron urand}; do
  for scale in ${SCALES:-20}; do
    name=$family$scale
    flag=-g
    [ "$family" = urand ] && flag=-u
    [ -f "$work/$name.sg" ] || "$gap/converter" $flag "$scale" -k 16 -b "$work/$name.sg" >/dev/null
    case " ${ALGOS:-sssp} " in
      *" sssp "*) [ -f "$work/$name.wsg" ] || "$gap/converter" $flag "$scale" -k 16 -wb "$work/$name.wsg" >/dev/null ;;
    esac
    ordered=""
    if [ "${VERTEX_ORDER:-as-loaded}" = degree ]; then  # GAP's own graph, hubs first, in GAP's format
      for ext in sg wsg; do
        if [ -f "$work/$name.$ext" ] && [ ! -f "$work/${name}_degree.$ext" ]; then
          "$tg" convert "$work/$name.$ext" "$work/${name}_degree.$ext" --vertex-order degree -q >/dev/null
        fi
      done
      ordered=${name}_degree
    fi
    file=$work/${ordered:-$name}
    label=$name
    [ -n "$ordered" ] && label=${name}hubs
    "$tg" bench "$file.sg" -a bfs -p cpu -n "${SOURCES:-4}" --verify none --no-chart -q -o "$work/sources-$name" \
      >/dev/null 2>&1
    sources=$(python3 -c "import json,sys; print(' '.join(str(r['source']) for r in json.load(open(sys.argv[1]))['runs']))" \
      "$work/sources-$name.json")
    for algo in ${ALGOS:-bfs sssp cc pr bc}; do
      gs="" ts=""
      for _ in $(seq "$repeat"); do
        g=0 t=0 n=0
        case $algo in
          cc) g=$(gap_ms cc -f "$file.sg"); t=$(tg_ms "$file.sg" cc -); n=1 ;;
          pr) g=$(gap_ms pr -f "$file.sg" -i "${PR_ITERS:-20}" -t 0)
              t=$(tg_ms "$file.sg" pagerank - --max-iters "${PR_ITERS:-20}" --tolerance 0 --pr-contributions float)
              n=1 ;;
          *)
            for s in $sources; do
              case $algo in
                bfs) g1=$(gap_ms bfs -f "$file.sg" -r "$s"); t1=$(tg_ms "$file.sg" bfs "$s") ;;
                sssp) g1=$(gap_ms sssp -f "$file.wsg" -r "$s" -d "${SSSP_DELTA:-2}")
                      t1=$(tg_ms "$file.wsg" sssp "$s" ${TG_SSSP_ARGS:-}) ;;
                bc) g1=$(gap_ms bc -f "$file.sg" -r "$s" -i 1); t1=$(tg_ms "$file.sg" bc "$s") ;;
              esac
              g=$(python3 -c "print($g + $g1)")
              t=$(python3 -c "print($t + $t1)")
              n=$((n + 1))
            done ;;
        esac
        gs="$gs $(python3 -c "print($g / $n)")"
        ts="$ts $(python3 -c "print($t / $n)")"
      done
      python3 - "$label" "$algo" "$threads" "$gs" "$ts" <<'PY'
import statistics
import sys
name, algo, threads, gs, ts = sys.argv[1:]
g = [float(x) for x in gs.split()]
t = [float(x) for x in ts.split()]
ratios = [b / a for a, b in zip(g, t) if a > 0]
spread = '%.2f-%.2f' % (min(ratios), max(ratios)) if len(ratios) > 1 else ''
median = '%.2f' % statistics.median(ratios) if len(ratios) > 1 else ''
print('%-10s %-6s %3s %12.2f %12.2f %8.2f  %-11s %s' % (name, algo, threads, min(g), min(t), min(t) / min(g), spread, median))
PY
    done
  done
done
