#!/usr/bin/env bash
# Run ON THE GPU MACHINE (or anywhere): one `tiergraph bench` row and its mean compute time, for A/B runs of two
# binaries taking turns in one device call.
#   scripts/bench-mean.sh BIN GRAPH.tgb ALGO PLACEMENT [more bench arguments]
# Prints "ALGO PLACEMENT BIN ARGS: mean X ms (per run ..., iterations)", each run's compute time, the first run
# verified, and with --vertex-order the renumbering's seconds.
set -uo pipefail
bin=${1:?usage: scripts/bench-mean.sh BIN GRAPH.tgb ALGO PLACEMENT [bench arguments]}
file=${2:?graph}
algo=${3:?algorithm}
placement=${4:?placement}
shift 4
out=$(mktemp -d)
"$bin" bench "$file" -a "$algo" -p "$placement" --verify first -q "$@" -o "$out/b" >"$out/log" 2>&1 ||
  { echo "$algo $placement $bin: rc $? $(tail -1 "$out/log")"; exit 1; }
python3 - "$out/b.json" "$algo" "$placement" "$bin" "$out/log" "$*" <<'PY'
import json, re, sys
runs = json.load(open(sys.argv[1]))["runs"]
ms = [1e3 * r["compute_s"] for r in runs]
m = re.search(r"renumbered \(\w+\) in ([\d.]+) s", open(sys.argv[5]).read())
renumbered = f", renumbered in {m.group(1)} s" if m else ""
print(f"{sys.argv[2]} {sys.argv[3]} {sys.argv[4]} {sys.argv[6]}: mean {sum(ms) / len(ms):.2f} ms "
      f"(per run {' '.join(f'{x:.2f}' for x in ms)}, {runs[0]['iterations']} iterations), verified {runs[0].get('verified')}"
      f"{renumbered}")
PY
rm -rf "$out"
