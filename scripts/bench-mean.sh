#!/usr/bin/env bash
# Run ON THE GPU MACHINE (or anywhere): one `tiergraph bench` row and its mean compute time, for A/B runs of two
# binaries taking turns in one device call.
#   scripts/bench-mean.sh BIN GRAPH.tgb ALGO PLACEMENT [more bench arguments]
# Prints "ALGO PLACEMENT BIN: mean X ms (per run ...)", each run's compute time, the first run verified.
set -uo pipefail
bin=${1:?usage: scripts/bench-mean.sh BIN GRAPH.tgb ALGO PLACEMENT [bench arguments]}
file=${2:?graph}
algo=${3:?algorithm}
placement=${4:?placement}
shift 4
out=$(mktemp -d)
"$bin" bench "$file" -a "$algo" -p "$placement" --verify first -q "$@" -o "$out/b" >"$out/log" 2>&1 ||
  { echo "$algo $placement $bin: rc $? $(tail -1 "$out/log")"; exit 1; }
python3 - "$out/b.json" "$algo" "$placement" "$bin" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
ms = [1e3 * r["compute_s"] for r in runs]
print(f"{sys.argv[2]} {sys.argv[3]} {sys.argv[4]}: mean {sum(ms) / len(ms):.2f} ms (per run {' '.join(f'{x:.2f}' for x in ms)}), "
      f"verified {runs[0].get('verified')}")
PY
rm -rf "$out"
