#!/usr/bin/env bash
# Run ON THE x2 (or x4) GPU MACHINE through the device tool (docs/DISTRIBUTED.md):
#   run(command="scripts/multi-gpu-check.sh", kind="nvidia-h200-x2", carry=[".deps", ".data"])
# Builds (or takes .data/bin's prebuilt binaries with GPU_CHECK_PREBUILT=1), runs
# the several-GPU tests on real NCCL, then BFS over 1..N GPUs with bench
# (Graph500's way: random roots with edges, harmonic mean of GTEPS), and the
# one-GPU engine's direction-optimizing BFS beside it. Table last.
#
# Environment:
#   MGPU_WEAK="26:1 27:2"   scale:gpus pairs (weak scaling: the same scale per GPU)
#   MGPU_PROGRAMS="28:1 28:2 28:4"  scale:gpus pairs for the programs below (strong scaling: one scale);
#                           with 1 GPU the one-GPU engine's device runs beside them (default: none)
#   MGPU_PROGRAM_ALGOS=cc,pagerank  which; sssp needs weights: MGPU_WEIGHTS=1 generates the programs'
#                           graphs with weights 1..255 (/tmp/kron_S_w.tgb)
#   MGPU_PROGRAM_RUNS=3     runs of each (random sources for sssp; the first verified)
#   MGPU_ROOTS=64           roots per bench
#   MGPU_TESTS=0            skip the tests
#   MGPU_PLACEMENT=device   where the ranks' parts live: device, zerocopy-aligned (host memory), auto
#   MGPU_NP=N               processes of the mpirun check (default: every GPU present)
#   MGPU_MPIRUN=0           skip the mpirun check
#   MGPU_AB_ENV="NAME=1"    each bench again with these variables set, as *_ab rows beside it
#                           (for an A/B of an experimental switch while one is being measured)
#   MGPU_VARIANTS="label:ENV=1 ENV2=0:--extra args|label2::--delegate-threshold 48"
#                           each BFS bench again per variant (environment, then bench arguments), as *_label rows
#   MGPU_VARIANTS_AT="28:4" the variants at these scale:gpus pairs only (default: every pair)
#   MGPU_PROGRAM_VARIANTS="th128::--delegate-threshold 128"  the same for the programs' benches (every pair)
#   MGPU_BENCH_ARGS="--push-only"  arguments every bench and the one-root run take (here: the plain BFS, top-down only)
#   MGPU_OLD=1              each BFS bench again with .data/bin/tiergraph-old.xz (an A/B of two builds, needs
#                           GPU_CHECK_PREBUILT=1), as *_old rows beside it
#   MGPU_ONE_GPU_ENGINE=0   no bench of the one-GPU engine beside the partitioned BFS on 1 GPU
#   MGPU_TESTS_TIMEOUT=S    seconds the tests may take (default 600); the graphs are generated meanwhile
#   MGPU_MPIRUN_SCALE=S     the mpirun check's graph, kron:S (default: the smallest generated)
#   MGPU_MPIRUN_ALGOS="cc pagerank sssp"  the mpirun check's algorithms besides BFS (empty: BFS alone)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/multi-gpu-check}"
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
[ -d .data/lib ] && export LD_LIBRARY_PATH="$PWD/.data/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # staged libraries (gpu-check.sh)
gpus=$(nvidia-smi -L | wc -l)
echo "gpus: $gpus ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)), date $(date -u +%F)" | tee "$out/summary.txt"

# The graphs are generated on the host's cores while the tests run on the GPUs (kron:28 takes about two minutes).
generate_graphs() {  # the binary; every scale named by MGPU_WEAK, MGPU_PROGRAMS and MGPU_MPIRUN_SCALE
  local scales scale
  scales=$(for pair in ${MGPU_WEAK-20:1 20:2} ${MGPU_PROGRAMS:-} ${MGPU_MPIRUN_SCALE:-}; do echo "${pair%%:*}"; done | sort -un)
  for scale in $scales; do
    if [ "${MGPU_WEIGHTS:-0}" = 1 ] && echo " ${MGPU_PROGRAMS:-} " | grep -q " $scale:"; then
      [ -f "/tmp/kron_${scale}_w.tgb" ] || "$1" generate "kron:$scale" "/tmp/kron_${scale}_w.tgb" --weights 1:255 >>"$out/generate.log" 2>&1
    fi
    [ -f "/tmp/kron_$scale.tgb" ] || "$1" generate "kron:$scale" "/tmp/kron_$scale.tgb" >>"$out/generate.log" 2>&1
  done
}
if [ "${GPU_CHECK_PREBUILT:-0}" = 1 ]; then
  # A copy of its own: gpu-check.sh unpacks /tmp/tg-bin/tiergraph again, and a running program cannot be rewritten.
  mkdir -p /tmp/tg-gen && xz -dc .data/bin/tiergraph.xz >/tmp/tg-gen/tiergraph && chmod +x /tmp/tg-gen/tiergraph
  t_gen=$(date +%s)
  (generate_graphs /tmp/tg-gen/tiergraph; echo "graphs generated in $(($(date +%s) - t_gen)) s" >>"$out/generate.log") &
  gen_pid=$!
fi
GPU_CHECK_TESTS=${MGPU_TESTS:-1} GPU_CHECK_FILTER="${MGPU_FILTER:-*MultiGpu*}" GPU_CHECK_GRAPHS="" OUT="$out/gpu-check" \
  timeout "${MGPU_TESTS_TIMEOUT:-600}" scripts/gpu-check.sh >"$out/gpu-check.log" 2>&1
rc=$?
pkill -f tg_gpu_tests 2>/dev/null  # the test process outlives its script at the limit
[ "$rc" = 124 ] && echo "tests: stopped at the ${MGPU_TESTS_TIMEOUT:-600} s limit, $(cat "$out"/gpu-check/gpu_tests.*.log 2>/dev/null | grep -c '^\[       OK \]') passed by then, $(cat "$out"/gpu-check/gpu_tests.*.log 2>/dev/null | grep -cE '^\[  FAILED  \] .*\([0-9]+ ms\)$') failed" | tee -a "$out/summary.txt"
grep -E "^(build|tests|BUILD)" "$out/gpu-check/summary.txt" | tee -a "$out/summary.txt"
grep -h -B3 "^\[  FAILED  \] [A-Za-z]" "$out"/gpu-check/gpu_tests.*.log 2>/dev/null | head -30 | tee -a "$out/summary.txt"
[ "${GPU_CHECK_PREBUILT:-0}" = 1 ] && bin=/tmp/tg-bin/tiergraph || bin=build-device/src/tiergraph
if [ -n "${gen_pid:-}" ]; then wait "$gen_pid"; else generate_graphs "$bin"; fi
grep -E "^(wrote|graphs)" "$out/generate.log" | tee -a "$out/summary.txt"

# One bench on $file over $p GPUs, as $out/NAME.json: bench_gpus NAME ALGORITHMS RUNS [ENVIRONMENT [ARGUMENTS]].
bench_gpus() {
  # shellcheck disable=SC2086
  env ${4:-} "$bin" bench "$file" -a "$2" -p "${MGPU_PLACEMENT:-device}" --gpus "$p" -n "$3" --verify first --no-chart \
    ${MGPU_BENCH_ARGS:-} ${5:-} -o "$out/$1" >>"$out/bench.log" 2>&1 || { echo "bench $1 FAILED" | tee -a "$out/summary.txt"; rc=1; }
}
# That bench again for each variant of SPEC ("label:ENV=1 ENV2=0:--args|..."), as NAME_label:
# bench_variants SPEC NAME ALGORITHMS RUNS.
bench_variants() {
  local list variant rest
  [ -n "$1" ] || return 0
  IFS='|' read -ra list <<<"$1"
  for variant in "${list[@]}"; do
    rest=${variant#*:}
    bench_gpus "$2_${variant%%:*}" "$3" "$4" "${rest%%:*}" "${rest#*:}"
  done
}
ab=${MGPU_AB_ENV:+ab:$MGPU_AB_ENV:}  # MGPU_AB_ENV is the variant "ab"

for pair in ${MGPU_WEAK-20:1 20:2}; do
  scale=${pair%%:*} p=${pair##*:}
  [ "$p" -le "$gpus" ] || continue
  file=/tmp/kron_$scale.tgb
  [ -f "$file" ] || "$bin" generate "kron:$scale" "$file" >>"$out/bench.log" 2>&1
  name=kron${scale}_gpus$p
  bench_gpus "$name" bfs "${MGPU_ROOTS:-64}"
  if [ "${MGPU_OLD:-0}" = 1 ]; then
    /tmp/tg-bin/tiergraph-old bench "$file" -a bfs -p "${MGPU_PLACEMENT:-device}" --gpus "$p" -n "${MGPU_ROOTS:-64}" --verify first --no-chart \
      -o "$out/${name}_old" >>"$out/bench.log" 2>&1 || { echo "bench kron:$scale --gpus $p (old binary) FAILED" | tee -a "$out/summary.txt"; rc=1; }
  fi
  bench_variants "$ab" "$name" bfs "${MGPU_ROOTS:-64}"
  if [ -z "${MGPU_VARIANTS_AT:-}" ] || [[ " $MGPU_VARIANTS_AT " == *" $pair "* ]]; then
    bench_variants "${MGPU_VARIANTS:-}" "$name" bfs "${MGPU_ROOTS:-64}"
  fi
  if [ "$p" = 1 ] && [ "${MGPU_ONE_GPU_ENGINE:-1}" != 0 ]; then
    "$bin" bench "$file" -a bfs -p device -n "${MGPU_ROOTS:-64}" --verify first --no-chart \
      -o "$out/kron${scale}_one_gpu_engine" >>"$out/bench.log" 2>&1 || rc=1
  fi
  # shellcheck disable=SC2086
  "$bin" run bfs --graph "$file" --gpus "$p" ${MGPU_BENCH_ARGS:-} --json >"$out/${name}_run.json" 2>>"$out/bench.log" || rc=1
done

for pair in ${MGPU_PROGRAMS:-}; do
  scale=${pair%%:*} p=${pair##*:}
  [ "$p" -le "$gpus" ] || continue
  if [ "${MGPU_WEIGHTS:-0}" = 1 ]; then
    file=/tmp/kron_${scale}_w.tgb
    [ -f "$file" ] || "$bin" generate "kron:$scale" "$file" --weights 1:255 >>"$out/bench.log" 2>&1
  else
    file=/tmp/kron_$scale.tgb
    [ -f "$file" ] || "$bin" generate "kron:$scale" "$file" >>"$out/bench.log" 2>&1
  fi
  name=programs_kron${scale}_gpus$p algos=${MGPU_PROGRAM_ALGOS:-cc,pagerank}
  bench_gpus "$name" "$algos" "${MGPU_PROGRAM_RUNS:-3}"
  bench_variants "$ab" "$name" "$algos" "${MGPU_PROGRAM_RUNS:-3}"
  bench_variants "${MGPU_PROGRAM_VARIANTS:-}" "$name" "$algos" "${MGPU_PROGRAM_RUNS:-3}"
  if [ "$p" = 1 ]; then
    "$bin" bench "$file" -a "$algos" -p device -n "${MGPU_PROGRAM_RUNS:-3}" --verify first --no-chart \
      -o "$out/programs_kron${scale}_one_gpu_engine" >>"$out/bench.log" 2>&1 || rc=1
  fi
done

python3 - "$out" >>"$out/summary.txt" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
print('%-34s %5s %10s %10s %8s %10s %12s' % ('run', 'roots', 'GTEPS(hm)', 'mean ms', 'levels', 'comm ms', 'GB exchanged'))
for f in sorted(glob.glob(os.path.join(out, 'kron*.json')) + glob.glob(os.path.join(out, 'programs_*.json'))):
    if f.endswith('_run.json'):
        continue
    j = json.load(open(f))
    for c in j['cells']:
        print('%-34s %5s %10.2f %10.2f  verified %s/%s failed %s %s' % (
            os.path.basename(f)[:-5] + ' ' + str(c.get('algorithm', '')), c['runs'], c['hmean_gteps'],
            c['mean_compute_s'] * 1e3, c['verified'], c['verified'] + c['verify_failed'], c['failed'], c['error']))
# Weak scaling: each row of P > 1 GPUs against the 1-GPU row at its scale per GPU (the same variant's where it
# ran, else the plain row), as GTEPS / (P x the 1-GPU GTEPS).
import math, re
hmean = {}
for f in glob.glob(os.path.join(out, 'kron*.json')):
    m = re.match(r'kron(\d+)_gpus(\d+)(_.*)?$', os.path.basename(f)[:-5])
    if not m or f.endswith('_run.json'):
        continue
    for c in json.load(open(f))['cells']:
        if c.get('algorithm') == 'bfs' and c['hmean_gteps'] > 0:
            hmean[(int(m.group(1)), int(m.group(2)), m.group(3) or '')] = c['hmean_gteps']
for (scale, p, suffix), g in sorted(hmean.items()):
    base_scale = scale - int(round(math.log2(p))) if p > 1 and p & (p - 1) == 0 else None
    one = hmean.get((base_scale, 1, suffix)) or hmean.get((base_scale, 1, ''))
    if base_scale is not None and one:
        print('weak scaling kron%d_gpus%d%s: %.1f%% (%.2f GTEPS against %d x %.2f at kron%d on 1)' % (
            scale, p, suffix, 100 * g / (p * one), g, p, one, base_scale))
# Each BFS bench's time a root by phase (means over its roots of the sums over levels, slowest rank's, ms).
for f in sorted(glob.glob(os.path.join(out, 'kron*.json'))):
    if f.endswith('_run.json'):
        continue
    runs = [r for r in json.load(open(f)).get('runs', []) if r.get('details', {}).get('distributed', {}).get('levels')]
    if not runs:
        continue
    sums = {}
    for r in runs:
        for l in r['details']['distributed']['levels']:
            for k, v in l.get('compute_by_phase_s', {}).items():
                sums['c.' + k] = sums.get('c.' + k, 0) + v
            for k, v in l.get('communication_by_phase_s', {}).items():
                sums['m.' + k] = sums.get('m.' + k, 0) + v
            sums['compute'] = sums.get('compute', 0) + l['compute_s']
            sums['comm'] = sums.get('comm', 0) + l['communication_s']
    print('%-28s phases/root: compute %.2f (%s) comm %.2f (%s), TH %s' % (
        os.path.basename(f)[:-5], sums['compute'] * 1e3 / len(runs),
        ' '.join('%s %.2f' % (k[2:], v * 1e3 / len(runs)) for k, v in sums.items() if k.startswith('c.')),
        sums['comm'] * 1e3 / len(runs),
        ' '.join('%s %.2f' % (k[2:], v * 1e3 / len(runs)) for k, v in sums.items() if k.startswith('m.')),
        runs[0]['details']['distributed'].get('threshold')))
for f in sorted(glob.glob(os.path.join(out, 'kron*_run.json'))):
    r = json.load(open(f))
    d = r.get('details', {}).get('distributed', {})
    lv = d.get('levels', [])
    print('%-28s %5s %10.2f %10.2f %8d %10.2f %12.3f  TH %s, %s delegates' % (
        os.path.basename(f)[:-5], 1, r.get('gteps', 0), r['time_s'].get('compute', 0) * 1e3, len(lv),
        sum(l['communication_s'] for l in lv) * 1e3, d.get('bytes_exchanged', 0) / 1e9, d.get('threshold'), d.get('delegates')))
    for i, l in enumerate(lv):  # the slowest rank's split of each level, in ms
        cp, mp = l.get('compute_by_phase_s', {}), l.get('communication_by_phase_s', {})
        print('   L%-2d compute %6.2f (%s)  comm %5.2f (%s)  frontier %d, normals sent %d, bytes %d' % (
            i, l['compute_s'] * 1e3, ' '.join('%s %.2f' % (k, v * 1e3) for k, v in cp.items()), l['communication_s'] * 1e3,
            ' '.join('%s %.2f' % (k, v * 1e3) for k, v in mp.items()), l['delegate_frontier'], l['normals_exchanged'],
            l['bytes_exchanged']))
PY
# The multi-process form: one process per GPU under mpirun, each building its own part. After the benches'
# table, so that a call's time limit cuts these (each process loads the graph, each run is verified: minutes) and
# not the table (session 13's x2 call lost its rows that way).
if [ "${MGPU_MPIRUN:-1}" != 0 ] && command -v mpirun >/dev/null && [ "$gpus" -ge 2 ]; then
  if [ -n "${MGPU_MPIRUN_SCALE:-}" ]; then file=/tmp/kron_$MGPU_MPIRUN_SCALE.tgb; else file=$(ls /tmp/kron_[0-9]*.tgb 2>/dev/null | sort -V | head -1); fi
  np=${MGPU_NP:-$gpus}
  if [ -n "$file" ] && mpirun --allow-run-as-root --bind-to none -np "$np" "$bin" run bfs --graph "$file" --distributed --verify --json \
      >"$out/mpirun_run.json" 2>>"$out/bench.log"; then
    echo "mpirun -np $np --distributed on $file: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('verified' if r['verification']['ok'] else 'WRONG', '%.2f ms' % (r['time_s']['compute']*1e3))" "$out/mpirun_run.json")" | tee -a "$out/summary.txt"
  else
    echo "mpirun -np $np --distributed FAILED (bench.log)" | tee -a "$out/summary.txt"; rc=1
  fi
  for a in ${MGPU_MPIRUN_ALGOS-cc pagerank sssp}; do
    [ "$a" = bfs ] && continue
    weights=(); [ $a = sssp ] && weights=(--weights 1:255)
    if [ -n "$file" ] && mpirun --allow-run-as-root --bind-to none -np "$np" "$bin" run $a --graph "$file" "${weights[@]}" --distributed --verify --json \
        >"$out/mpirun_$a.json" 2>>"$out/bench.log"; then
      echo "mpirun -np $np --distributed $a on $file: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('verified' if r['verification']['ok'] else 'WRONG', '%.2f ms' % (r['time_s']['compute']*1e3), r.get('iterations'), 'iterations')" "$out/mpirun_$a.json")" | tee -a "$out/summary.txt"
    else
      echo "mpirun -np $np --distributed $a FAILED (bench.log)" | tee -a "$out/summary.txt"; rc=1
    fi
  done
fi

echo; echo "================ multi-gpu-check summary ================"; cat "$out/summary.txt"
exit $rc
