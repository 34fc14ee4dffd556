#!/usr/bin/env bash
# Run ON THE GPU MACHINE through the device tool (issue 13, part 1: the device kernels against bandwidth, measured
# with ncu). Profiles one tiergraph command under Nsight Compute and prints, per kernel name, the launches, the
# kernels' own time (summed), DRAM bytes and L2 sectors, and the share of the command's kernel time; then the sum
# against the command's own compute time (what the kernels do not explain is launches, copies and host waits).
#   NCU_ARGS="run pagerank --graph /tmp/sb_kron_25.tgb -p device --max-iters 3 --json" scripts/ncu-kernels.sh
# Environment:
#   NCU_ARGS       the tiergraph arguments (required); with --json the run's compute time is printed beside
#   NCU_BIN=PATH   the tiergraph binary (default: gpu-check's prebuilt one, else build-device's)
#   NCU_KERNELS    a regular expression: profile only the kernels it matches (ncu --kernel-name regex:...)
#   NCU_FLAGS      more ncu flags, e.g. "--cache-control none --clock-control none": each kernel in the caches and
#                  clocks the run leaves it (ncu flushes the caches before each kernel by default)
#   NCU_METRICS    ncu's metrics (default: time, DRAM bytes read and written, L2 sectors); any beyond those four get a
#                  column each: the mean over launches for rates (.pct, .ratio, .pct_of_peak...), else the sum in millions
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/ncu-kernels}"
mkdir -p "$out"
source scripts/find-tiergraph.sh "${NCU_BIN:-}" NCU_BIN
[ -n "${NCU_ARGS:-}" ] || { echo "ncu-kernels.sh: NCU_ARGS (the tiergraph arguments) is empty" >&2; exit 2; }
command -v ncu >/dev/null || { echo "ncu-kernels.sh: no ncu on PATH" >&2; exit 2; }
base=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors.sum
metrics=$base${NCU_METRICS:+,$NCU_METRICS}
filter=()
[ -n "${NCU_KERNELS:-}" ] && filter=(--kernel-name "regex:$NCU_KERNELS")
# shellcheck disable=SC2086
ncu "${filter[@]}" ${NCU_FLAGS:-} --metrics "$metrics" --csv --print-units base --log-file "$out/ncu.log" "$bin" $NCU_ARGS >"$out/run.json" 2>"$out/run.err"
rc=$?
[ "$rc" = 0 ] || { echo "ncu-kernels.sh: rc $rc"; tail -3 "$out/run.err"; tail -3 "$out/ncu.log"; }
python3 - "$out" <<'EOF'
import collections, csv, io, json, sys
out = sys.argv[1]
text = open(f"{out}/ncu.log").read()
start = text.find('"ID"')
if start < 0:
    print("no kernel rows in ncu.log")
    sys.exit(0)
rows = list(csv.DictReader(io.StringIO(text[start:])))
base = {"gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors.sum"}
extra = list(dict.fromkeys(r["Metric Name"] for r in rows if r["Metric Name"] not in base))
is_rate = lambda m: ".pct" in m or m.endswith(".ratio")
agg = collections.OrderedDict()
for r in rows:
    name = r["Kernel Name"].replace("(anonymous namespace)::", "").split("(")[0].split("<")[0]
    name = name.replace("void ", "").strip().split("::")[-1]
    a = agg.setdefault(name, collections.Counter())
    value = float(r["Metric Value"].replace(",", "")) if r["Metric Value"] not in ("", "n/a") else 0.0
    a[r["Metric Name"]] += value
    if r["Metric Name"] == "gpu__time_duration.sum":
        a["launches"] += 1
total_ns = sum(a["gpu__time_duration.sum"] for a in agg.values())
short = lambda m: m.split("__")[-1][:14]
print(f"{'kernel':<40} {'launches':>8} {'ms':>9} {'share':>6} {'DRAM GB':>8} {'GB/s':>7} {'L2 Msect':>9}"
      + "".join(f" {short(m):>14}" for m in extra))
if extra:
    print("extra columns: " + ", ".join(m + (" (mean)" if is_rate(m) else " (sum, M)") for m in extra))
for name, a in sorted(agg.items(), key=lambda kv: -kv[1]["gpu__time_duration.sum"]):
    ns = a["gpu__time_duration.sum"]
    dram = a["dram__bytes_read.sum"] + a["dram__bytes_write.sum"]
    print(f"{name[:40]:<40} {int(a['launches']):>8} {ns / 1e6:>9.2f} {ns / total_ns if total_ns else 0:>6.1%} "
          f"{dram / 1e9:>8.2f} {dram / ns if ns else 0:>7.0f} {a['lts__t_sectors.sum'] / 1e6:>9.1f}"
          + "".join(f" {(a[m] / a['launches'] if is_rate(m) else a[m] / 1e6):>14.1f}" for m in extra))
line = f"kernels: {total_ns / 1e6:.2f} ms in all"
try:
    r = json.load(open(f"{out}/run.json"))
    line += f"; the run's compute {1e3 * r['time_s']['compute']:.2f} ms ({r.get('iterations')} iterations, under ncu)"
except Exception:
    pass
print(line)
EOF
exit $rc
