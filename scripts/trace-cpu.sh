#!/usr/bin/env bash
# Where the CPU engine's time goes, beside GAP's own per-step log, on one
# graph and one source (docs/PERF.md, issue 9):
#   scripts/trace-cpu.sh GAP_CHECKOUT [ALGOS]
# Env: TG (the tiergraph program), WORK, THREADS, SCALE, FAMILY (kron|urand),
# TRIALS. Prints GAP's `-l` output and tiergraph's TG_CPU_TRACE lines.
set -euo pipefail
gap=$(cd "$1" && pwd)
algos=${2:-bfs cc}
tg=${TG:-$(cd "$(dirname "$0")/.." && pwd)/build/tiergraph}
work=${WORK:-/tmp/tg-trace}
threads=${THREADS:-$(nproc)} scale=${SCALE:-20} family=${FAMILY:-kron} trials=${TRIALS:-2}
mkdir -p "$work"
# GAP's programs, built there beforehand (../shared/peers/README.md): this repository builds no peer's code.
for program in bfs sssp cc pr converter; do
  [ -x "$gap/$program" ] || { echo "$(basename "$0"): $gap/$program not found: build GAP's programs there first" >&2; exit 2; }
done
export OMP_NUM_THREADS=$threads OMP_PROC_BIND=${OMP_PROC_BIND:-true}
name=$family$scale flag=-g
[ "$family" = urand ] && flag=-u
[ -f "$work/$name.sg" ] || "$gap/converter" $flag "$scale" -k 16 -b "$work/$name.sg" >/dev/null
"$tg" bench "$work/$name.sg" -a bfs -p cpu -n 1 --verify none --no-chart -q -o "$work/source" >/dev/null 2>&1
source=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][0]['source'])" "$work/source.json")
for algo in $algos; do
  echo "== $algo on $name, $threads threads, source $source"
  from=(-r "$source") tg_from=(--sources "$source") tg_algo=$algo
  case $algo in cc|pr) from=() tg_from=() ;; esac
  [ "$algo" = pr ] && tg_algo=pagerank
  "$gap/$algo" -f "$work/$name.sg" "${from[@]}" -n "$trials" -l | grep -v '^Read\|^Graph\|^Build' | sed 's/^/GAP /'
  TG_CPU_TRACE=1 "$tg" bench "$work/$name.sg" -a "$tg_algo" -p cpu --threads "$threads" --trials "$trials" \
    "${tg_from[@]}" --verify none --no-chart -q -o "$work/run" 2>&1 | grep -v '^graph\|^wrote\|^  ' | sed 's/^/TG  /'
done
