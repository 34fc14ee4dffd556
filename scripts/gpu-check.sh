#!/usr/bin/env bash
# Run ON THE GPU MACHINE through the device tool (see docs/GPU.md):
#   run(command="scripts/gpu-check.sh", carry=[".deps", ".data"])
# Builds tiergraph and the GPU tests for sm_90, runs every GPU test, then a
# short benchmark (BFS, SSSP, CC, PageRank per placement on generated
# Kronecker graphs), and prints a compact pass/fail and timing table last.
# Logs and JSON records go to $OUT (the device tool's folder) or out/gpu-check.
#
# Environment:
#   GPU_CHECK_TESTS=0        skip the tests
#   GPU_CHECK_GRAPHS="..."   benchmark graphs (default "kron:20 kron:22"; empty: no benchmark)
#   GPU_CHECK_ALGOS="..."    benchmark algorithms (default "bfs sssp cc pagerank")
#   GPU_CHECK_FILTER=...     gtest filter for the tests (default: all)
#   GPU_CHECK_SHARDS=N       test processes side by side, each a gtest shard (default 1: see below)
#   GPU_CHECK_SHARD_GPUS=1   shard i sees only GPU i mod (GPUs present): on a machine of several GPUs the
#                            shards then run on GPUs of their own instead of sharing one by time slices
#   GPU_CHECK_PART=K/N       only part K (0-based) of N of the tests, as gtest shards in one process: the whole
#                            suite (477 tests, about 650 s on the H100 in session 44) passes one call's 600 s, so
#                            run GPU_CHECK_PART=0/2 and 1/2 in two calls (with GPU_CHECK_SHARDS=1)
#   GPU_CHECK_EXTRA="..."    extra commands run after the benchmark (bash -c), output to $OUT/extra.log, whose
#                            last GPU_CHECK_EXTRA_TAIL (40) lines end the summary
#   GPU_CHECK_PREBUILT=1     use .data/bin/{tiergraph,tg_gpu_tests,tg_gpu_subgraph_device_tests}[.xz] built elsewhere
#                            (same x86-64 Linux; scripts/stage-gpu-binaries.sh strips and compresses them there)
#                            instead of building: saves device time
#   GPU_CHECK_RUN_TIMEOUT=N  seconds allowed per benchmark run (default 120)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out="${OUT:-$root/out/gpu-check}"
mkdir -p "$out"
graphs="${GPU_CHECK_GRAPHS-kron:20 kron:22}"
algos="${GPU_CHECK_ALGOS:-bfs sssp cc pagerank bc}"
summary="$out/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

note "gpu: $(nvidia-smi --query-gpu=name,memory.used,memory.total,driver_version --format=csv,noheader 2>&1)  date: $(date -u +%F)"

# ---- dependencies staged by scripts/stage-device-deps.sh (liblzma-dev, libxxhash-dev) ----
if ls .deps/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc >/dev/null 2>&1; then
  mkdir -p .deps/pkgconfig
  for pc in .deps/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc; do
    sed -e "s#^prefix=.*#prefix=$root/.deps/usr#" -e "s#^exec_prefix=.*#exec_prefix=$root/.deps/usr#" \
        -e "s#^libdir=.*#libdir=$root/.deps/usr/lib/x86_64-linux-gnu#" -e "s#^includedir=.*#includedir=$root/.deps/usr/include#" \
        "$pc" >".deps/pkgconfig/$(basename "$pc")"
  done
  export PKG_CONFIG_PATH="$root/.deps/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
fi
export TG_DATASETS_DIR="$root/.data/datasets"

# ---- build ----
t0=$(date +%s)
if [ "${GPU_CHECK_PREBUILT:-0}" = 1 ]; then
  mkdir -p /tmp/tg-bin
  for f in .data/bin/*; do
    case $f in
      *.xz) xz -dc "$f" >"/tmp/tg-bin/$(basename "$f" .xz)" ;;
      *) cp "$f" /tmp/tg-bin/ ;;
    esac
  done
  chmod +x /tmp/tg-bin/*
  # Shared libraries the binaries need and the machine lacks (libxxhash.so.0), staged beside them.
  [ -d .data/lib ] && export LD_LIBRARY_PATH="$root/.data/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export LD_LIBRARY_PATH="/tmp/tg-bin:$LD_LIBRARY_PATH"  # libtiergraph.so.0, where staged
  bin=/tmp/tg-bin/tiergraph
  export TG_TIERGRAPH_BIN=$bin  # the end-to-end tests run this program (tests/support/datasets.h)
  tests=/tmp/tg-bin/tg_gpu_tests
  subgraph_tests=/tmp/tg-bin/tg_gpu_subgraph_device_tests
  note "build: prebuilt binaries from .data/bin"
else
if ! cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/cmake.log" 2>&1; then
  tail -30 "$out/cmake.log"
  note "BUILD: cmake FAILED"
  exit 1
fi
if ! cmake --build build-device -j16 --target tiergraph tg_gpu_tests tg_gpu_subgraph_device_tests >"$out/build.log" 2>&1; then
  grep -E "error|Error" "$out/build.log" | head -30
  note "BUILD: FAILED"
  exit 1
fi
note "build: ok in $(($(date +%s) - t0)) s"
bin=build-device/src/tiergraph
tests=build-device/tests/tg_gpu_tests
subgraph_tests=build-device/tests/gpu_subgraph/tg_gpu_subgraph_device_tests
fi

# ---- tests ----
tests_rc=0
if [ "${GPU_CHECK_TESTS:-1}" != 0 ]; then
  t0=$(date +%s)
  # One process by default: processes side by side share the GPU by time
  # slices, and a test of many small synchronised steps then waits a slice
  # per step (4 shards on the H100: 22 s per BFS placement test, not 1 s).
  shards=${GPU_CHECK_SHARDS:-1}
  part_index=0 part_count=1
  if [ -n "${GPU_CHECK_PART:-}" ]; then
    part_index=${GPU_CHECK_PART%/*} part_count=${GPU_CHECK_PART#*/}
    if ! [[ "$part_index" =~ ^[0-9]+$ && "$part_count" =~ ^[1-9][0-9]*$ ]] || [ "$part_index" -ge "$part_count" ] || [ "$shards" != 1 ]; then
      note "GPU_CHECK_PART must be K/N with 0 <= K < N, and GPU_CHECK_SHARDS 1 (got '$GPU_CHECK_PART', $shards)"
      exit 2
    fi
    note "tests: part $part_index of $part_count"
  fi
  pids=()
  ngpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  for i in $(seq 0 $((shards - 1))); do
    if [ "${GPU_CHECK_SHARD_GPUS:-0}" = 1 ] && [ "$ngpus" -gt 0 ]; then export CUDA_VISIBLE_DEVICES=$((i % ngpus)); fi
    GTEST_TOTAL_SHARDS=$((shards * part_count)) GTEST_SHARD_INDEX=$((i + part_index)) OMP_NUM_THREADS=$(( $(nproc) / shards > 0 ? $(nproc) / shards : 1 )) \
      "$tests" --gtest_filter="${GPU_CHECK_FILTER:-*}" >"$out/gpu_tests.$i.log" 2>&1 &
    pids+=($!)
  done
  unset CUDA_VISIBLE_DEVICES
  tests_rc=0
  for pid in "${pids[@]}"; do wait "$pid" || tests_rc=$?; done
  cat "$out"/gpu_tests.*.log >"$out/gpu_tests.log"
  passed=$(grep -c '^\[       OK \]' "$out/gpu_tests.log")
  # A result line ends with its time; gtest lists the failed and skipped names again at the end.
  failed=$(grep -cE '^\[  FAILED  \] .*\([0-9]+ ms\)$' "$out/gpu_tests.log")
  skipped=$(grep -cE '^\[  SKIPPED \] .*\([0-9]+ ms\)$' "$out/gpu_tests.log")
  note "tests: $passed passed, $failed failed, $skipped skipped in $(($(date +%s) - t0)) s (rc $tests_rc)"
  if [ "$tests_rc" != 0 ]; then
    grep -E "Failure|FAILED|error|gpu [-0-9]|vertex " "$out/gpu_tests.log" | head -40
  fi
  if [ -x "${subgraph_tests:-}" ]; then
    "$subgraph_tests" >"$out/gpu_subgraph_tests.log" 2>&1
    rc=$?
    [ "$rc" = 0 ] || tests_rc=$rc
    note "subgraph building-block tests: $(grep -c '^\[       OK \]' "$out/gpu_subgraph_tests.log") passed, $(grep -cE '^\[  FAILED  \] .*\([0-9]+ ms\)$' "$out/gpu_subgraph_tests.log") failed (rc $rc)"
  fi
  # pass/fail matrices: algorithm x placement (resident, then streamed variants), v32/v64; the contract per placement
  python3 - "$out/gpu_tests.log" >>"$summary" <<'EOF'
import re, sys, collections
lines = open(sys.argv[1]).read().splitlines()
mark = {'OK': 'ok', 'FAILED': 'FAIL', 'SKIPPED': 'skip'}
def table(pattern, title):
    res, cols = collections.OrderedDict(), []
    for line in lines:
        m = re.match(r'^\[ +(OK|FAILED|SKIPPED) +\] ' + pattern + r'/([a-z]+)_(\w+?)_(v32|v64)\b', line)
        if m:
            res.setdefault(m.group(2), {})[(m.group(3), m.group(4))] = mark[m.group(1)]
            if m.group(3) not in cols: cols.append(m.group(3))
    if not res: return
    print('%-9s' % title + ''.join('%-14s' % c.replace('zerocopy_', 'zc-')[:13] for c in cols) + '  (v32/v64)')
    for a, r in res.items():
        print('%-9s' % a + ''.join('%-14s' % (r.get((c, 'v32'), '-') + '/' + r.get((c, 'v64'), '-')) for c in cols))
table(r'AllPlacements/GpuMatrix\.MatchesCpuOnEveryShape', 'resident')
table(r'Subway/SubwayMatrix\.MatchesCpuOnEveryShape', 'streamed')
table(r'ZeroCopy/EdgeCacheMatrix\.MatchesCpuWithEveryFill', 'cached')
contract = collections.OrderedDict()
for line in lines:
    m = re.match(r'^\[ +(OK|FAILED|SKIPPED) +\] Gpu/EngineContract/(\w+)\.(\w+)', line)
    if m:
        contract.setdefault(m.group(2), collections.Counter())[mark[m.group(1)]] += 1
if contract:
    print('contract: ' + ', '.join('%s %s' % (k, '/'.join('%d %s' % (n, s) for s, n in sorted(v.items()))) for k, v in contract.items()))
for l in lines:
    if re.match(r'^\[ +(OK|FAILED|SKIPPED) +\] (Gpu(Datasets|Placement|Accounting)|Subway(Kron|Errors|Accounting)|EdgeCache)\.', l):
        print(l.strip())
EOF
fi

# ---- benchmark ----
bench_rc=0
if [ -n "$graphs" ]; then
  : >"$out/bench.jsonl"
  for spec in $graphs; do
    file="/tmp/$(echo "$spec" | tr ':' '_').tgb"
    t0=$(date +%s)
    if [ ! -f "$file" ]; then
      "$bin" generate "$spec" "$file" --weights 1:255 >>"$out/bench.log" 2>&1 || { note "generate $spec FAILED"; bench_rc=1; continue; }
    fi
    edges=$("$bin" info "$file" --json 2>>"$out/bench.log" | python3 -c "import json,sys; print(json.load(sys.stdin)['edges'])" 2>/dev/null || echo 0)
    quarter=$edges  # bytes: a quarter of the 4-byte edge array
    note "graph $spec: $edges directed edges, generated in $(($(date +%s) - t0)) s; zero-copy runs with --gpu-mem $quarter"
    for algo in $algos; do
      for p in device uvm zerocopy-naive zerocopy-merged zerocopy-aligned+nocache zerocopy-aligned subgraph subgraph+async stream stream+async; do
        budget=() extra=()
        case $p in zerocopy*|subgraph*|stream*) budget=(--gpu-mem "$quarter") ;; esac
        case $p in *+async) extra=(--async) p=${p%+async} ;; esac
        case $p in *+nocache) extra=(--edge-cache off) p=${p%+nocache} ;; esac
        timeout "${GPU_CHECK_RUN_TIMEOUT:-120}" "$bin" run "$algo" --graph "$file" --engine gpu --placement "$p" "${extra[@]}" "${budget[@]}" --verify --json \
          >>"$out/bench.jsonl" 2>>"$out/bench.log" || { echo "{\"failed\": \"$spec $algo $p (rc $?)\"}" >>"$out/bench.jsonl"; bench_rc=1; }
      done
    done
  done
  python3 - "$out/bench.jsonl" >>"$summary" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print('%-14s %-8s %-17s %9s %9s %7s %8s %6s %s' % ('graph', 'algo', 'placement', 'compute', 'transfer', 'GTEPS', 'GB/s', 'ampl', 'verified'))
def place(r):
    d = r.get('details', {})
    return r['placement'] + ('-async' if d.get('async') else '') + (
        '-nocache' if d.get('edge_cache', {}).get('mode') == 'off' else '')
for r in rows:
    if 'failed' in r:
        print('FAILED: ' + r['failed']); continue
    t = r['time_s']; c = t.get('compute', 0)
    eff = r['bytes_needed'] / c / 1e9 if c else 0
    amp = r['io_amplification']
    print('%-14s %-8s %-17s %8.2fms %8.2fms %7.2f %8.1f %6s %s' % (
        r['graph']['name'][-14:], r['algorithm'], place(r), c * 1e3, t.get('transfer', 0) * 1e3, r['gteps'], eff,
        '%.2f' % amp if amp is not None else '-', 'ok' if r['verification'] and r['verification']['ok'] else 'FAIL'))
EOF
fi

if [ -n "${GPU_CHECK_EXTRA:-}" ]; then
  bash -c "$GPU_CHECK_EXTRA" >"$out/extra.log" 2>&1
  note "extra: rc $? (extra.log, its last ${GPU_CHECK_EXTRA_TAIL:-40} lines below)"
  # Into the summary too: the device tool returns only $OUT's files, and an OUT set elsewhere lost a whole sweep.
  tail -n "${GPU_CHECK_EXTRA_TAIL:-40}" "$out/extra.log" >>"$summary"
fi

echo
echo "================ gpu-check summary ================"
cat "$summary"
[ "$tests_rc" = 0 ] && [ "$bench_rc" = 0 ]
