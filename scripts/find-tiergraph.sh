# Sourced by the device-side check scripts: sets $bin to the tiergraph binary to run, $1 if given (the
# script's override), else gpu-check.sh's prebuilt one, else a device or local build's; exits if none.
bin=${1:-}
if [ -z "$bin" ]; then
  for b in /tmp/tg-bin/tiergraph build-device/src/tiergraph build-gpu/src/tiergraph; do
    [ -x "$b" ] && bin=$b && break
  done
fi
[ -x "$bin" ] || { echo "$(basename "$0"): no tiergraph binary (set ${2:-the override})"; exit 1; }
