#!/usr/bin/env bash
# Run ON THE GPU MACHINE through the device tool (issue 13, docs/GPU.md "Source blocks"), e.g. as
# gpu-check.sh's extra step:
#   GPU_CHECK_PREBUILT=1 GPU_CHECK_GRAPHS= GPU_CHECK_EXTRA=scripts/source-blocks-check.sh scripts/gpu-check.sh
# PageRank on the device placement with its gather in one pass and in source blocks, on one generated
# graph, each setting in its own process (the first run of each pays the build of the blocks, reported
# apart), alternating rounds so that the machine's drift falls on every setting alike. The first run
# of each setting is verified. Table last: ms per iteration (compute over iterations), best of the
# rounds, and the blocks' build time.
#
# Environment:
#   SB_GRAPH=kron:25      generated once into /tmp (a .tgb), or a path
#   SB_BLOCKS="w1 1 2 3 6 0"  --source-blocks values (1: one pass, 0: auto); a leading w runs it with
#                         TG_GATHER_WARPS=1 (every list by a warp, as before the thread pass)
#   SB_ROUNDS=2           rounds over the settings
#   SB_BIN=PATH           the tiergraph binary (default: gpu-check's prebuilt one, else build-device's)
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out/source-blocks-check}"
mkdir -p "$out"
source scripts/find-tiergraph.sh "${SB_BIN:-}" SB_BIN
graph=${SB_GRAPH:-kron:25}
if [[ "$graph" == *:* ]]; then
  file=/tmp/sb_${graph/:/_}.tgb
  [ -f "$file" ] || { t0=$(date +%s); "$bin" generate "$graph" "$file" >"$out/generate.log" 2>&1 ||
    { echo "generate $graph failed"; tail -3 "$out/generate.log"; exit 1; }; echo "generated $graph in $(($(date +%s) - t0)) s"; }
else
  file=$graph
fi
for round in $(seq 1 "${SB_ROUNDS:-2}"); do
  for n in ${SB_BLOCKS:-w1 1 2 3 6 0}; do
    verify=""
    [ "$round" = 1 ] && verify="--verify"
    warps=0
    [[ "$n" == w* ]] && warps=1
    TG_GATHER_WARPS=$warps timeout 300 "$bin" run pagerank --graph "$file" -p device --source-blocks "${n#w}" $verify --json \
      >"$out/sb_${n}_r$round.json" 2>"$out/sb_${n}_r$round.err" || echo "blocks $n round $round: rc $? $(tail -1 "$out/sb_${n}_r$round.err")"
  done
done
python3 - "$out" "$graph" ${SB_BLOCKS:-w1 1 2 3 6 0} <<'EOF'
import glob, json, os, sys
out, graph, settings = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"PageRank on {graph}, device placement ({os.uname().nodename})")
print(f"{'--source-blocks':>15} {'blocks':>6} {'iters':>5} {'ms/iter best':>12} {'ms/iter all':>24} {'build s':>8} {'verified':>8}")
for n in settings:
    rows = []
    for f in sorted(glob.glob(f"{out}/sb_{n}_r*.json")):
        try:
            rows.append(json.load(open(f)))
        except Exception:
            pass
    if not rows:
        print(f"{n:>15} (no result)")
        continue
    per = [1e3 * r["time_s"]["compute"] / max(r["iterations"], 1) for r in rows]
    sb = (rows[0].get("details") or {}).get("source_blocks") or {}
    build = [((r.get("details") or {}).get("source_blocks") or {}).get("build_s", 0) for r in rows]
    ver = [r.get("verification") for r in rows if r.get("verification")]
    ok = all(v.get("ok", False) for v in ver) if ver else None
    print(f"{n:>15} {sb.get('blocks', '-'):>6} {rows[0]['iterations']:>5} {min(per):>12.2f} "
          f"{' '.join(f'{p:.2f}' for p in per):>24} {max(build):>8.3f} {str(ok):>8}  {sb.get('note', '')}")
EOF
