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
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/multi-gpu-check}"
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
gpus=$(nvidia-smi -L | wc -l)
echo "gpus: $gpus ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)), date $(date -u +%F)" | tee "$out/summary.txt"

GPU_CHECK_TESTS=${MGPU_TESTS:-1} GPU_CHECK_FILTER='*MultiGpu*' GPU_CHECK_GRAPHS="" OUT="$out/gpu-check" \
  scripts/gpu-check.sh >"$out/gpu-check.log" 2>&1
rc=$?
grep -E "^(build|tests|BUILD)" "$out/gpu-check/summary.txt" | tee -a "$out/summary.txt"
[ "${GPU_CHECK_PREBUILT:-0}" = 1 ] && bin=/tmp/tg-bin/tiergraph || bin=build-device/src/tiergraph

for pair in ${MGPU_WEAK-20:1 20:2}; do
  scale=${pair%%:*} p=${pair##*:}
  [ "$p" -le "$gpus" ] || continue
  file=/tmp/kron_$scale.tgb
  [ -f "$file" ] || "$bin" generate "kron:$scale" "$file" >>"$out/bench.log" 2>&1
  "$bin" bench "$file" -a bfs -p "${MGPU_PLACEMENT:-device}" --gpus "$p" -n "${MGPU_ROOTS:-64}" --verify first --no-chart \
    -o "$out/kron${scale}_gpus$p" >>"$out/bench.log" 2>&1 || { echo "bench kron:$scale --gpus $p FAILED" | tee -a "$out/summary.txt"; rc=1; }
  if [ -n "${MGPU_AB_ENV:-}" ]; then
    env ${MGPU_AB_ENV} "$bin" bench "$file" -a bfs -p "${MGPU_PLACEMENT:-device}" --gpus "$p" -n "${MGPU_ROOTS:-64}" --verify first \
      --no-chart -o "$out/kron${scale}_gpus${p}_ab" >>"$out/bench.log" 2>&1 || { echo "bench kron:$scale --gpus $p with $MGPU_AB_ENV FAILED" | tee -a "$out/summary.txt"; rc=1; }
  fi
  if [ "$p" = 1 ]; then
    "$bin" bench "$file" -a bfs -p device -n "${MGPU_ROOTS:-64}" --verify first --no-chart \
      -o "$out/kron${scale}_one_gpu_engine" >>"$out/bench.log" 2>&1 || rc=1
  fi
  "$bin" run bfs --graph "$file" --gpus "$p" --json >"$out/kron${scale}_gpus${p}_run.json" 2>>"$out/bench.log" || rc=1
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
  "$bin" bench "$file" -a "${MGPU_PROGRAM_ALGOS:-cc,pagerank}" -p "${MGPU_PLACEMENT:-device}" --gpus "$p" -n "${MGPU_PROGRAM_RUNS:-3}" --verify first --no-chart \
    -o "$out/programs_kron${scale}_gpus$p" >>"$out/bench.log" 2>&1 || { echo "bench ${MGPU_PROGRAM_ALGOS:-cc,pagerank} kron:$scale --gpus $p FAILED" | tee -a "$out/summary.txt"; rc=1; }
  if [ -n "${MGPU_AB_ENV:-}" ]; then
    env ${MGPU_AB_ENV} "$bin" bench "$file" -a "${MGPU_PROGRAM_ALGOS:-cc,pagerank}" -p "${MGPU_PLACEMENT:-device}" --gpus "$p" \
      -n "${MGPU_PROGRAM_RUNS:-3}" --verify first --no-chart -o "$out/programs_kron${scale}_gpus${p}_ab" >>"$out/bench.log" 2>&1 ||
      { echo "bench ${MGPU_PROGRAM_ALGOS:-cc,pagerank} kron:$scale --gpus $p with $MGPU_AB_ENV FAILED" | tee -a "$out/summary.txt"; rc=1; }
  fi
  if [ "$p" = 1 ]; then
    "$bin" bench "$file" -a "${MGPU_PROGRAM_ALGOS:-cc,pagerank}" -p device -n "${MGPU_PROGRAM_RUNS:-3}" --verify first --no-chart \
      -o "$out/programs_kron${scale}_one_gpu_engine" >>"$out/bench.log" 2>&1 || rc=1
  fi
done

# The multi-process form: one process per GPU under mpirun, each building its own part.
if [ "${MGPU_MPIRUN:-1}" != 0 ] && command -v mpirun >/dev/null && [ "$gpus" -ge 2 ]; then
  file=$(ls /tmp/kron_*.tgb 2>/dev/null | head -1)
  np=${MGPU_NP:-$gpus}
  if [ -n "$file" ] && mpirun --allow-run-as-root --bind-to none -np "$np" "$bin" run bfs --graph "$file" --distributed --verify --json \
      >"$out/mpirun_run.json" 2>>"$out/bench.log"; then
    echo "mpirun -np $np --distributed on $file: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('verified' if r['verification']['ok'] else 'WRONG', '%.2f ms' % (r['time_s']['compute']*1e3))" "$out/mpirun_run.json")" | tee -a "$out/summary.txt"
  else
    echo "mpirun -np $np --distributed FAILED (bench.log)" | tee -a "$out/summary.txt"; rc=1
  fi
  for a in cc pagerank sssp; do
    weights=(); [ $a = sssp ] && weights=(--weights 1:255)
    if [ -n "$file" ] && mpirun --allow-run-as-root --bind-to none -np "$np" "$bin" run $a --graph "$file" "${weights[@]}" --distributed --verify --json \
        >"$out/mpirun_$a.json" 2>>"$out/bench.log"; then
      echo "mpirun -np $np --distributed $a on $file: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('verified' if r['verification']['ok'] else 'WRONG', '%.2f ms' % (r['time_s']['compute']*1e3), r.get('iterations'), 'iterations')" "$out/mpirun_$a.json")" | tee -a "$out/summary.txt"
    else
      echo "mpirun -np $np --distributed $a FAILED (bench.log)" | tee -a "$out/summary.txt"; rc=1
    fi
  done
fi

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
for f in sorted(glob.glob(os.path.join(out, 'kron*_run.json'))):
    r = json.load(open(f))
    d = r.get('details', {}).get('distributed', {})
    lv = d.get('levels', [])
    print('%-28s %5s %10.2f %10.2f %8d %10.2f %12.3f  TH %s, %s delegates' % (
        os.path.basename(f)[:-5], 1, r.get('gteps', 0), r['time_s'].get('compute', 0) * 1e3, len(lv),
        sum(l['communication_s'] for l in lv) * 1e3, d.get('bytes_exchanged', 0) / 1e9, d.get('threshold'), d.get('delegates')))
PY
echo; echo "================ multi-gpu-check summary ================"; cat "$out/summary.txt"
exit $rc
