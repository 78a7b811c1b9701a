#!/usr/bin/env bash
# Runs the hostile-input generator at full size against a release build of verifierd and fails when any kind of
# hostile request costs more than 5 ms of server CPU, or /healthz or /readyz takes more than 50 ms to answer,
# while 16 clients send them.
#   scripts/ci/hostile-check.sh [path/to/release/verifierd] [seconds]
set -euo pipefail
# -h/--help prints the text above; any other option is refused before anything is built, started or written.
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "$(basename "$0"): unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done
[ $# -le 2 ] || { echo "$(basename "$0"): too many arguments (see --help)" >&2; exit 2; }
cd "$(dirname "$0")/../.."
BIN=${1:-.build/release/verifierd}
SECONDS_TOTAL=${2:-14}
WORK=$(mktemp -d)
trap '[ -n "${PID:-}" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT

python3 scripts/ci/hostile-inputs.py generate "$WORK/bodies" > /dev/null
mkdir -p "$WORK/trust"
cp TestVectors/pki/iaca-p256.pem "$WORK/trust/"
cat > "$WORK/config.json" <<JSON
{"server": {"host": "127.0.0.1", "port": 0}, "trust": {"iacaDirectory": "$WORK/trust", "pollSeconds": 0},
 "integrators": {"tokens": {"hostile-check": "hostile-check-integrator-token"}}}
JSON
"$BIN" serve --config "$WORK/config.json" > "$WORK/log" 2>&1 &
PID=$!
# shellcheck source=scripts/lib/serve-lib.sh
source scripts/lib/serve-lib.sh
wait_for_port "$WORK/log" || { echo "verifierd did not start"; cat "$WORK/log"; exit 1; }
python3 scripts/ci/hostile-inputs.py attack "http://127.0.0.1:$PORT" --dir "$WORK/bodies" --clients 16 \
    --seconds "$SECONDS_TOTAL" --pid "$PID" --max-cpu-ms 5 --max-health-ms 50
