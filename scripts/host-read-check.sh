#!/usr/bin/env bash
# Run ON THE 4-GPU MACHINE through the device tool (issue 14, docs/DISTRIBUTED.md):
#   run(command="GPU_CHECK_PREBUILT=1 scripts/host-read-check.sh", kind="nvidia-h100-x4",
#       carry=[".data/bin", ".data/lib"])
# Kronecker scale HOST_READ_SCALE with every rank's part left in host memory and read by zero-copy by all
# GPUs at once. PageRank reads each rank's lists whole every round, so its rounds give the links' aggregate
# rate (the run's "host_read" record: list bytes over the slowest rank's time in the kernels that read
# them); the same host's own aggregate rate comes first (tg_gather_bench's all_gpus_host: every GPU reading
# rows in order from host memory at once), so the two are compared within one call. BFS and CC are
# verified by the independent verifiers (--verify first). Summary last.
#
# Environment:
#   HOST_READ_SCALE=30          kron:SCALE, generated in the bench's own process (no file written)
#   HOST_READ_ALGOS=pagerank,cc,bfs   in this order: the rate first, should the time limit come
#   HOST_READ_ITERS=5           PageRank's rounds (--max-iters)
#   HOST_READ_RUNS=1            BFS roots (--random-sources)
#   HOST_READ_LIMIT=480         seconds the bench may take (its JSON is written at its end; the log has each run)
#   HOST_READ_GATHER=1          the host's own rate first (0: skip)
#   HOST_READ_GPUS=N            over N GPUs (default: every GPU present)
#   HOST_READ_PLACEMENT=device  the parts in GPU memory instead (issue 10's largest graph: kron:29 on 2 GPUs)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/host-read-check}"
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
[ -d .data/lib ] && export LD_LIBRARY_PATH="$PWD/.data/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
gpus=$(nvidia-smi -L | wc -l)
echo "gpus: $gpus ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)), $(nproc) cores," \
  "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), date $(date -u +%F)" | tee "$out/summary.txt"

if [ "${GPU_CHECK_PREBUILT:-0}" = 1 ]; then
  mkdir -p /tmp/tg-bin
  for program in tiergraph tg_gather_bench; do
    [ -f ".data/bin/$program.xz" ] && xz -dc ".data/bin/$program.xz" >"/tmp/tg-bin/$program" && chmod +x "/tmp/tg-bin/$program"
  done
  bin=/tmp/tg-bin/tiergraph gather=/tmp/tg-bin/tg_gather_bench
else
  bin=build-device/src/tiergraph gather=build-device/benchmarks/tg_gather_bench
fi

if [ "${HOST_READ_GATHER:-1}" = 1 ] && [ -x "$gather" ]; then
  # 4 GiB a GPU (its own registered copy), 1 GiB read in order each round, in 8 KB rows: with 1 KB rows the
  # gather kernel read 30.8 GB/s a GPU where PageRank's list reads reached 46.9 (session 12).
  TG_BENCH_ROWS=524288 TG_BENCH_ROW_BYTES=8192 TG_BENCH_IDS=131072 timeout 120 "$gather" \
    --benchmark_filter='all_gpus_host' --benchmark_min_time=2 >"$out/gather.log" 2>&1 ||
    echo "tg_gather_bench all_gpus_host FAILED (rc $?)" | tee -a "$out/summary.txt"
  grep -E "^all_gpus_host" "$out/gather.log" | tee -a "$out/summary.txt"
fi

scale=${HOST_READ_SCALE:-30}
gpus=${HOST_READ_GPUS:-$gpus}
placement=${HOST_READ_PLACEMENT:-zerocopy-aligned}
t0=$(date +%s)
# -v: peak RSS (the graph, its partition and the verifiers' arrays in one process).
timeout "${HOST_READ_LIMIT:-480}" /usr/bin/time -v "$bin" bench "kron:$scale" -a "${HOST_READ_ALGOS:-pagerank,cc,bfs}" \
 -p "$placement" --gpus "$gpus" -n "${HOST_READ_RUNS:-1}" --max-iters "${HOST_READ_ITERS:-5}" --verify first \
  --no-chart -o "$out/kron$scale" >"$out/bench.log" 2>&1
rc=$?
echo "bench kron:$scale over $gpus GPUs, $placement: rc $rc after $(($(date +%s) - t0)) s" | tee -a "$out/summary.txt"
grep -E "Maximum resident set size" "$out/bench.log" | tee -a "$out/summary.txt"
grep -v -E "^\s+(Command|User|System|Percent|Elapsed|Average|Major|Minor|Voluntary|Involuntary|Swaps|File|Socket|Signals|Page|Exit)" \
  "$out/bench.log" | tail -40 | tee -a "$out/summary.txt"

if [ -f "$out/kron$scale.json" ]; then
  python3 - "$out/kron$scale.json" <<'EOF' | tee -a "$out/summary.txt"
import json, sys
for r in json.load(open(sys.argv[1])).get("runs", []):
    d = (r.get("details") or {}).get("distributed") or {}
    h = d.get("host_read")
    line = f"{r.get('algorithm')}: compute {r.get('compute_s')} s, {r.get('iterations')} iterations, verified {r.get('verified')}"
    if h:
        line += f"; host reads {h['bytes'] / 1e9:.1f} GB in {h['seconds']:.3f} s = {h['gb_per_s']:.1f} GB/s (all links)"
    print(line)
EOF
fi
