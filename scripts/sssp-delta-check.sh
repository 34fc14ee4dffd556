#!/usr/bin/env bash
# Run ON THE GPU MACHINE through the device tool (issue 13: SSSP in GPU memory, 50 ms asked on kron:25), e.g. as
# gpu-check.sh's extra step:
#   GPU_CHECK_PREBUILT=1 GPU_CHECK_TESTS=0 GPU_CHECK_GRAPHS= GPU_CHECK_EXTRA=scripts/sssp-delta-check.sh scripts/gpu-check.sh
# SSSP on one placement over a sweep of bucket widths: `tiergraph bench G -a sssp -p PLACEMENT -n 4 --verify first
# --delta D` (the same 4 seeded sources at every width, the first verified). Per width: ms, buckets (iterations) and
# edges relaxed over the graph's edges for each source, then the mean ms, and the GB each source's run moved (over
# zero-copy the lists' bytes across the link; the device placement counts its copy of the lists into GPU memory).
# Environment:
#   SD_GRAPH=kron:25        generated with weights 1..255 into /tmp
#   SD_DELTAS="16 32 64 128 256 512"  (128 is the automatic width on these weights: their mean; "auto" runs
#                           without --delta: the mean, halved where lists are ordered by weight, algorithms/sssp.h)
#   SD_PLACEMENT=device     SD_ARGS: more bench arguments (e.g. "--gpu-mem 1047208940")
#   SD_BIN=PATH             the tiergraph binary (default: gpu-check's prebuilt one, else build-device's)
#   SD_BY_WEIGHT=1          the graph's lists ordered by weight (generate --lists-by-weight): the resident placements
#                           then relax a bucket's light edges and its heavy ones apart (algorithms/sssp.h)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/sssp-delta-check}"
mkdir -p "$out"
source scripts/find-tiergraph.sh "${SD_BIN:-}" SD_BIN
graph=${SD_GRAPH:-kron:25}
order=by-id order_arg=
[ "${SD_BY_WEIGHT:-0}" = 1 ] && order=by-weight order_arg=--lists-by-weight
file=/tmp/sd_${graph/:/_}_w_$order.tgb
# shellcheck disable=SC2086
[ -f "$file" ] || "$bin" generate "$graph" "$file" --weights 1:255 $order_arg -q >"$out/generate.log" 2>&1 ||
  { echo "generate $graph failed"; tail -3 "$out/generate.log"; exit 1; }
edges=$("$bin" info "$file" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['edges'])")
for d in ${SD_DELTAS:-16 32 64 128 256 512}; do
  # shellcheck disable=SC2086
  width=(--delta "$d")
  [ "$d" = auto ] && width=()
  timeout 120 "$bin" bench "$file" -a sssp -p "${SD_PLACEMENT:-device}" -n 4 --verify first -q "${width[@]}" ${SD_ARGS:-} \
    -o "$out/sd_$d" >"$out/sd_$d.log" 2>&1 || echo "delta $d: rc $? $(tail -1 "$out/sd_$d.log")"
done
python3 - "$out" "$graph" "$edges" "${SD_PLACEMENT:-device}" "$order" "$bin" ${SD_DELTAS:-16 32 64 128 256 512} <<'PY'
import json, sys
out, graph, m, placement, order, binary, deltas = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7:]
print(f"SSSP on {graph} (weights 1..255, lists {order}), placement {placement}, {binary}: per source ms / buckets / edges relaxed per edge")
for d in deltas:
    try:
        runs = json.load(open(f"{out}/sd_{d}.json"))["runs"]
    except Exception as e:
        print(f"delta {d:>5}: no result ({e})")
        continue
    cells = [f"{1e3 * r['compute_s']:.1f}/{r['iterations']}/{r['edges_traversed'] / m:.2f}" for r in runs]
    mean = sum(1e3 * r["compute_s"] for r in runs) / len(runs)
    link = [r.get("bytes_moved", 0) / 1e9 for r in runs]
    moved = f"  moved GB {' '.join(f'{x:.1f}' for x in link)}" if any(link) else ""
    print(f"delta {d:>5}: mean {mean:7.1f} ms  {'  '.join(cells)}  verified {runs[0].get('verified')}{moved}")
PY
