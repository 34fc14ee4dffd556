#!/usr/bin/env bash
# Run ON THE GPU MACHINE: the same benchmark with two tiergraph programs,
# before and after a change, interleaved (old, new, old, new) on one generated
# graph, and a side-by-side table of mean compute times with the ratio
# new / old (the lower of the two rounds of each).
#   scripts/gpu-regression.sh OLD_BIN NEW_BIN SPEC OUTDIR
# Placements: device without a budget; zerocopy-aligned and subgraph with a
# quarter of the 4-byte edge array as budget. Environment: ALGOS (default
# bfs,sssp,cc,pagerank), SOURCES (default 4), ROUNDS (default 2).
set -uo pipefail
old=$1 new=$2 spec=$3 outdir=$4
algos=${ALGOS:-bfs,sssp,cc,pagerank}
sources=${SOURCES:-4}
mkdir -p "$outdir"
name=$(echo "$spec" | tr ':' '-')
file=/tmp/$name.tgb
t0=$(date +%s)
[ -f "$file" ] || timeout 400 "$new" generate "$spec" "$file" --weights 8:72 -q || { echo "generate $spec failed"; exit 1; }
edges=$("$new" info "$file" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['edges'])")
echo "== $spec: $edges edges, ready in $(($(date +%s) - t0)) s"

bench() {  # binary label round, then placement arguments
  local bin=$1 label=$2 round=$3
  shift 3
  timeout 300 "$bin" bench "$file" -a "$algos" -n "$sources" --verify first "$@" -o "/tmp/$label-$round" \
    >>"$outdir/regression.log" 2>&1 || echo "== $label round $round: rc $?"
  cp "/tmp/$label-$round.json" "$outdir/$label-$round.json" 2>/dev/null
}

for round in $(seq 1 "${ROUNDS:-2}"); do
  for who in old new; do
    bin=$old
    [ "$who" = new ] && bin=$new
    bench "$bin" "$who-device" "$round" -p device
    bench "$bin" "$who-quarter" "$round" -p zerocopy-aligned,subgraph --gpu-mem "$edges"
  done
done

python3 - "$outdir" <<'EOF'
import glob, json, os, sys
best = {}
for path in glob.glob(os.path.join(sys.argv[1], '*-*-*.json')):
    who = os.path.basename(path).split('-')[0]
    for c in json.load(open(path)).get('cells', []):
        if c.get('failed') or not c.get('mean_compute_s'):
            continue
        key = (c['algorithm'], c['placement'])
        t = c['mean_compute_s'] * 1e3
        best.setdefault(key, {})
        best[key][who] = min(best[key].get(who, t), t)
print('%-9s %-17s %10s %10s %8s' % ('algorithm', 'placement', 'old ms', 'new ms', 'new/old'))
for (a, p), v in sorted(best.items()):
    o, n = v.get('old'), v.get('new')
    ratio = '%.3f' % (n / o) if o and n else '-'
    print('%-9s %-17s %10s %10s %8s' % (a, p, '%.2f' % o if o else '-', '%.2f' % n if n else '-', ratio))
EOF
