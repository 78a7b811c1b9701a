#!/usr/bin/env bash
# Benchmarks verifierd over HTTP (release build, demo configuration): POST /v1/apple/verify with the committed demo
# request, and POST /v1/reader-tokens, each with wrk (-t2 -c16 by default), printing requests/s and latency
# percentiles. The in-process costs are printed by `swift run -c release verifierd-bench`.
#
# Usage: scripts/bench-service.sh [duration, default 10s] [connections, default 16]
# Needs wrk (Debian: apt-get install -y wrk).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-10s}"
CONNECTIONS="${2:-16}"
command -v wrk >/dev/null 2>&1 || { echo "wrk not found: apt-get install -y wrk" >&2; exit 1; }

swift build -c release --product verifierd >/dev/null
BIN="$(swift build -c release --show-bin-path)/verifierd"
WORK="$(mktemp -d)"
PID=""
cleanup() {
    if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

VERIFIERD_SERVER_PORT=0 VERIFIERD_TRUST_POLL_SECONDS=0 "$BIN" serve --config config/verifierd.json > "$WORK/log" &
PID=$!
PORT=""
for _ in $(seq 1 100); do
    PORT="$(grep -o '"port":"[0-9]*"' "$WORK/log" | head -1 | grep -o '[0-9]\+' || true)"
    [ -n "$PORT" ] && break
    sleep 0.1
done
[ -n "$PORT" ] || { echo "verifierd did not start"; cat "$WORK/log"; exit 1; }

post_script() {  # $1 = body file, $2 = extra header line (may be empty)
    local body
    body="$(python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read()))' "$1")"
    cat <<LUA
wrk.method = "POST"
wrk.body = $body
wrk.headers["Content-Type"] = "application/json"
$2
LUA
}

post_script TestVectors/demo/verify-request.json "" > "$WORK/verify.lua"
echo "== POST /v1/apple/verify (demo envelope, full decrypt + verify) =="
wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/verify.lua" "http://127.0.0.1:$PORT/v1/apple/verify"

echo '{"readerInstanceIdentifier":"bench-reader"}' > "$WORK/token.json"
post_script "$WORK/token.json" 'wrk.headers["Authorization"] = "Bearer demo-client-token-TEST-ONLY"' > "$WORK/token.lua"
echo "== POST /v1/reader-tokens =="
wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/token.lua" "http://127.0.0.1:$PORT/v1/reader-tokens"

echo "== status codes seen (from the access log) =="
grep -o '"status":"[0-9]*"' "$WORK/log" | sort | uniq -c
