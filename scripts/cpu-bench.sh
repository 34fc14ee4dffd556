#!/usr/bin/env bash
# CPU engine benchmark for docs/PERF.md: load rates (text, compressed text,
# .tgb) and every algorithm on kron:SCALE and urand:SCALE, each run verified.
# Usage: scripts/cpu-bench.sh [BUILD_DIR] ; THREADS (2), SCALE (20), REPS (3).
set -euo pipefail
build="${1:-build}"
bin="$build/src/tiergraph"
[ -x "$bin" ] || bin="$build/tiergraph"
threads="${THREADS:-2}"
scale="${SCALE:-20}"
reps="${REPS:-3}"
work="${WORK:-$(mktemp -d)}"
export OMP_NUM_THREADS="$threads"

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }

echo "# tiergraph CPU benchmark: $(date -u +%F), $(nproc) cores here, $threads threads, scale $scale"
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
echo "| graph | step | median seconds of $reps | rate |"
echo "| --- | --- | --- | --- |"
datasets="${DATASETS:-../shared/datasets}"
for f in soc-Slashdot0902.el.gz cnr-2000.el.gz road-NE.el.gz; do
  [ -f "$datasets/$f" ] || continue
  m=$("$bin" info "$datasets/$f" --json -q | field 'j["edges"]')
  t=$(for i in $(seq "$reps"); do "$bin" run cc --graph "$datasets/$f" -q --json | field 'j["time_s"]["load"]'; done | median)
  echo "| $f | load gzip text ($m edges) | $t | $(python3 -c "print(f'{$m/$t/1e6:.1f} M edges/s')") |"
done
for gen in kron urand; do
  spec="$gen:$scale"
  tgb="$work/$gen$scale.tgb"
  wtgb="$work/$gen$scale-w.tgb"
  "$bin" generate "$spec" "$tgb" -q >/dev/null
  "$bin" generate "$spec" "$wtgb" --weights 8:72 -q >/dev/null
  m=$("$bin" info "$tgb" --json | field 'j["edges"]')
  t=$(for i in $(seq "$reps"); do "$bin" run cc --graph "$spec" -q --json | field 'j["time_s"]["load"]'; done | median)
  echo "| $spec | generate + build | $t | $(python3 -c "print(f'{$m/$t/1e6:.1f} M edges/s')") |"
  t=$(for i in $(seq "$reps"); do "$bin" run cc --graph "$tgb" -q --json | field 'j["time_s"]["load"]'; done | median)
  echo "| $spec | load .tgb, page cache warm ($m edges) | $t | $(python3 -c "print(f'{$m/$t/1e6:.0f} M edges/s')") |"
  for algo in bfs sssp cc pagerank sswp ssnsp; do
    g="$tgb"
    case $algo in sssp|sswp) g="$wtgb";; esac
    times=()
    for i in $(seq "$reps"); do
      j=$("$bin" run "$algo" --graph "$g" --engine cpu --threads "$threads" --json --verify -q)
      ok=$(echo "$j" | field 'j["verification"]["ok"]')
      [ "$ok" = "True" ] || { echo "verification failed: $j" >&2; exit 1; }
      times+=("$(echo "$j" | field 'j["time_s"]["compute"]')")
      gteps=$(echo "$j" | field 'round(j["gteps"], 3)')
      iters=$(echo "$j" | field 'j["iterations"]')
    done
    t=$(printf '%s\n' "${times[@]}" | median)
    echo "| $spec | $algo ($iters iterations) | $t | $gteps GTEPS |"
  done
done
