#!/usr/bin/env bash
# Benchmarks the HTTPServer module: builds http-echo in release, starts it on a free port, runs
# wrk -t2 -c64 -d10s --latency against /hello, prints the figures and stops the server.
#
# Usage: scripts/bench/bench-http.sh [duration, default 10s] [connections, default 64]
# Needs wrk (Debian: apt-get install -y wrk). On a shared machine, serialize the build:
#   flock /tmp/swift-build.lock scripts/bench/bench-http.sh
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
DURATION="${1:-10s}"
CONNECTIONS="${2:-64}"

if ! command -v wrk >/dev/null 2>&1; then
    echo "wrk not found: apt-get update && apt-get install -y wrk" >&2
    exit 1
fi

swift build -c release --product http-echo >/dev/null
BIN="$(swift build -c release --show-bin-path)/http-echo"

OUT="$(mktemp)"
"$BIN" --host 127.0.0.1 --port 0 >"$OUT" &
PID=$!
cleanup() {
    if kill -0 "$PID" 2>/dev/null; then kill -TERM "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
    rm -f "$OUT"
}
trap cleanup EXIT

PORT=""
for _ in $(seq 1 100); do
    PORT="$(sed -n 's/^listening on \([0-9]*\)$/\1/p' "$OUT")"
    [ -n "$PORT" ] && break
    sleep 0.1
done
if [ -z "$PORT" ]; then echo "http-echo did not report its port" >&2; exit 1; fi

curl -fsS "http://127.0.0.1:$PORT/hello" >/dev/null
echo "http-echo (release) on port $PORT, pid $PID"
wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "http://127.0.0.1:$PORT/hello"
echo "server RSS: $(awk '/VmRSS/ {print $2, $3}' /proc/"$PID"/status 2>/dev/null || echo unknown)"

kill -TERM "$PID"
STATUS=0
wait "$PID" || STATUS=$?
echo "http-echo exited with status $STATUS"
