#!/usr/bin/env bash
# Run ON THE ONE-GPU MACHINE through the device tool (issue 12, docs/HOST-MEM.md "One GPU"):
#   run(command="GPU_CHECK_PREBUILT=1 GPU_CHECK_TESTS=0 GPU_CHECK_GRAPHS= GPU_CHECK_EXTRA=scripts/host-mem-check.sh \
#       scripts/gpu-check.sh; cat $OUT/extra.log", carry=[".data/bin", ".data/lib"])
# A graph larger than the host memory it may use: kron:SCALE written as a .tgb on the machine's disk, then
# PageRank and CC on the GPU's stream placement with --host-mem a third of the file (the partitions read
# from the file into registered page buffers), PageRank on the hybrid engine (the same placement beside the
# paged CPU engine) and the CPU engine's paged form beside them, each verified,
# with `dd iflag=direct` over the same file for the disk's own rate. Summary last: time, bytes read from
# the disk, rate, against dd.
#
# Environment:
#   HM_SCALE=26           kron:SCALE (26: 8.95 GB)
#   HM_ALGOS="pagerank cc"
#   HM_GPU_MEM=4G         the GPU's budget (--gpu-mem): the partitions stream through it
#   HM_CPU="pagerank cc"  which algorithms the CPU engine's --host-mem runs too, in the same call
#   HM_ITERS=5            PageRank's iterations (--max-iters; each reads the whole file once)
#   HM_HYBRID=1           PageRank on the hybrid engine too (--engine hybrid --placement stream: half the budget each side)
#   HM_HYBRID_GPU_MEM=2G  the hybrid's --gpu-mem: its GPU half holds the offsets and two partitions' page buffers
#   HM_BIN=PATH           the tiergraph binary (default: gpu-check's prebuilt one, else build-device's)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/host-mem-check}"
mkdir -p "$out"
source scripts/find-tiergraph.sh "${HM_BIN:-}" HM_BIN
scale=${HM_SCALE:-26}
dir=${HM_DIR:-/tmp}
file=$dir/hm_kron$scale.tgb
echo "$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), disk: $(df -h "$dir" | tail -1)"
if [ ! -f "$file" ]; then
  t0=$(date +%s)
  "$bin" generate "kron:$scale" "$file" >"$out/generate.log" 2>&1 || { echo "generate failed"; tail -3 "$out/generate.log"; exit 1; }
  echo "generated kron:$scale in $(($(date +%s) - t0)) s: $(stat -c %s "$file") bytes"
fi
bytes=$(stat -c %s "$file")
third=$((bytes / 3))
drop() { sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true; }
drop
failed=0
dd if="$file" of=/dev/null bs=64M iflag=direct 2>&1 | tail -1 | tee "$out/dd.txt"
for algo in ${HM_ALGOS:-pagerank cc}; do
  iters=""
  [ "$algo" = pagerank ] && iters="--max-iters ${HM_ITERS:-5}"
  drop
  timeout 400 "$bin" run "$algo" --graph "$file" --engine gpu --placement stream --gpu-mem "${HM_GPU_MEM:-4G}" \
    --host-mem "$third" $iters --verify --json >"$out/gpu_$algo.json" 2>"$out/gpu_$algo.err" ||
    { echo "gpu $algo: rc $? $(tail -2 "$out/gpu_$algo.err")"; failed=1; }
  if [ "$algo" = pagerank ] && [ "${HM_HYBRID:-1}" = 1 ]; then  # its gathers split between the GPU and the paged CPU side
    drop
    timeout 400 "$bin" run "$algo" --graph "$file" --engine hybrid --placement stream --gpu-mem "${HM_HYBRID_GPU_MEM:-2G}" \
      --host-mem "$third" $iters --verify --json >"$out/hybrid_$algo.json" 2>"$out/hybrid_$algo.err" ||
      { echo "hybrid $algo: rc $? $(tail -2 "$out/hybrid_$algo.err")"; failed=1; }
  fi
  if [[ " ${HM_CPU:-pagerank cc} " == *" $algo "* ]]; then
    drop
    timeout 300 "$bin" run "$algo" --graph "$file" --engine cpu --host-mem "$third" $iters --verify --json \
      >"$out/cpu_$algo.json" 2>"$out/cpu_$algo.err" || { echo "cpu $algo: rc $? $(tail -2 "$out/cpu_$algo.err")"; failed=1; }
  fi
done
python3 - "$out" "$bytes" <<'EOF'
import glob, json, os, re, sys
out, size = sys.argv[1], int(sys.argv[2])
dd = open(f"{out}/dd.txt").read().strip()
m = re.search(r"([\d.]+) ([GM])B/s", dd)
dd_rate = float(m.group(1)) * (1 if m.group(2) == "G" else 1e-3) if m else 0
print(f"file {size} bytes; dd iflag=direct: {dd}")
for f in sorted(glob.glob(f"{out}/gpu_*.json") + glob.glob(f"{out}/hybrid_*.json") + glob.glob(f"{out}/cpu_*.json")):
    try:
        r = json.load(open(f))
    except Exception as e:
        print(os.path.basename(f), "unreadable:", e)
        continue
    d = r.get("details") or {}
    t = r.get("time_s") or {}
    disk = (d.get("disk_bytes") or 0) + ((d.get("host_mem") or {}).get("disk_bytes") or 0)  # the hybrid: both sides
    comp = t.get("compute", 0)
    rate = disk / comp / 1e9 if comp else 0
    v = r.get("verification") or {}
    print(f"{os.path.basename(f)[:-5]:>14}: compute {comp:.2f} s, {r.get('iterations')} iterations, disk {disk / 1e9:.1f} GB, "
          f"{rate:.2f} GB/s ({rate / dd_rate if dd_rate else 0:.2f} of dd), buffers {d.get('host_mem_buffer_bytes')}, "
          f"host cache {d.get('host_mem_cache_bytes')}, "
          f"verified {v.get('ok')}")
EOF
exit $failed  # a run that failed fails the check, after the table
