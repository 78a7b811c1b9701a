#!/usr/bin/env bash
# Soak test: runs a release verifierd under steady mixed traffic and fails unless it stays flat and clean.
#
#   scripts/bench/soak.sh [BIN] [SECONDS] [RATE] [--rate N] [--seconds N] [--threads N] [--samples FILE] [--keep DIR]
#     BIN      the verifierd executable (default .build/release/verifierd; this script never builds)
#     SECONDS  length of the traffic (default 600)
#     RATE     total requests per second (default 100), paced on a fixed schedule from THREADS (default 8) client
#              threads with persistent connections
#     --samples FILE  keep the CSV of server samples (t_s, rss_kib, fds, threads, cpu_s, requests)
#     --keep DIR      keep the server log, its stderr, the configuration and the run state in DIR
#
# The service runs on a throwaway configuration (port 0, trust = TestVectors/pki/iaca-p256.pem and the demo IACA,
# verification-time override on, a random admin token, the demo Apple merchant key, a web section with 30 s
# sessions). Traffic, each kind a fixed share (see scripts/bench/soak.py): valid verifications (mdoc and the Apple demo
# envelope, 200), invalid ones (the failing TestVectors/mdoc cases, 422 with their code), hostile requests
# (scripts/ci/hostile-inputs.py bodies plus garbage: not JSON, truncated JSON, bad base64, unknown field, unknown
# route, wrong method, an oversized Content-Length, a malformed request line, a body cut short), admin reads (200 with
# the token, 401 without), health/readiness/metrics probes, and web request creation (201).
#
# What it proves (each a criterion; exit 1 when one fails, 2 when the pre-flight fails):
#   * RSS flat: median VmRSS of the samples in the 10% of the run after warm-up vs. the median of the last 10% of
#     the run (each window at least four sample intervals) grows less than 5%. Warm-up is the first 20% of the run
#     (at least 30 s for runs of 150 s and more). Samples every 5 s from /proc/PID/status.
#   * Open file descriptors flat: the same medians of /proc/PID/fd entries; growth at most max(5%, +2 fds); and
#     once the clients have disconnected (up to 5 s to settle) at most 2 more than before the traffic.
#   * No error in the logs: no line at level error or critical, no status >= 500, every access line has the status
#     and code expected for its request (matched by X-Request-Id; server-made answers to raw requests by count),
#     exactly one access line per answered request, nothing on stderr, exit status 0 after SIGTERM.
#   * Client side: zero connection errors or timeouts on well-formed requests, every answer as its kind expects
#     (status, problem code, body checks, X-Request-Id echo), achieved rate at least 95% of the target, and the
#     server still running at the end.
# It prints requests per kind, the achieved rate, p50/p99 latency per kind, RSS (MiB) and fds at start, after
# warm-up, at the end and the maximum, and the growth in percent.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=.build/release/verifierd
DURATION=600
RATE=100
THREADS=8
SAMPLES=""
KEEP=""
POSITIONAL=()
# value OPTION VALUE...: the value after OPTION, refused when missing or when it looks like an option itself.
value() {
    if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        echo "soak.sh: $1 needs a value (see --help)" >&2; exit 2
    fi
    printf '%s' "$2"
}
while [ $# -gt 0 ]; do
    case "$1" in
        --rate) RATE="$(value "$@")"; shift 2 ;;
        --seconds) DURATION="$(value "$@")"; shift 2 ;;
        --threads) THREADS="$(value "$@")"; shift 2 ;;
        --samples) SAMPLES="$(value "$@")"; shift 2 ;;
        --keep) KEEP="$(value "$@")"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "soak.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) POSITIONAL+=("$1"); shift ;;
    esac
done
[ ${#POSITIONAL[@]} -le 3 ] || { echo "soak.sh: too many arguments (see --help)" >&2; exit 2; }
[ ${#POSITIONAL[@]} -ge 1 ] && BIN="${POSITIONAL[0]}"
[ ${#POSITIONAL[@]} -ge 2 ] && DURATION="${POSITIONAL[1]}"
[ ${#POSITIONAL[@]} -ge 3 ] && RATE="${POSITIONAL[2]}"
[ -x "$BIN" ] || { echo "no executable at $BIN (build it first; this script does not)" >&2; exit 1; }

WORK="$(mktemp -d)"
PID=""
cleanup() {
    stop_server
    if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp -r "$WORK"/log "$WORK"/stderr "$WORK"/config.json "$WORK"/state.json \
        "$WORK"/samples.csv "$KEEP"/ 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
source scripts/lib/serve-lib.sh

python3 scripts/ci/hostile-inputs.py generate "$WORK/hostile" --chain-length 100 --unique 8 > /dev/null
mkdir -p "$WORK/trust"
cp TestVectors/pki/iaca-p256.pem TestVectors/demo/trusted-iaca/demo-iaca.pem "$WORK/trust/"
TOKEN="soak-$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
cat > "$WORK/config.json" <<JSON
{
  "server": {"host": "127.0.0.1", "port": 0},
  "trust": {"iacaDirectory": "$WORK/trust", "pollSeconds": 0},
  "verification": {"allowVerificationTimeOverride": true},
  "admin": {"token": "$TOKEN"},
  "integrators": {"requireToken": false},
  "apple": {"merchantId": "com.example.verifierd.demo", "teamId": "DEMOTEAM01",
            "encryptionKeys": ["$PWD/TestVectors/demo/keys/merchant-encryption.pem"]},
  "web": {"allowedOrigins": ["https://shop.example"], "sessionTTLSeconds": 30}
}
JSON

start_server "$WORK/log" "$WORK/config.json" 2> "$WORK/stderr"
echo "verifierd $("$BIN" --version 2>/dev/null || echo '?') pid $PID port $PORT; soak ${DURATION} s at ${RATE} req/s"
python3 scripts/bench/soak.py run --url "http://127.0.0.1:$PORT" --pid "$PID" --admin-token "$TOKEN" \
    --hostile-dir "$WORK/hostile" --state "$WORK/state.json" --seconds "$DURATION" --rate "$RATE" \
    --threads "$THREADS" --samples-csv "$WORK/samples.csv"
# stop_server, keeping the exit status (SIGTERM must drain and exit 0)
EXIT_STATUS=0
if kill -0 "$PID" 2>/dev/null; then kill -TERM "$PID"; wait "$PID" || EXIT_STATUS=$?; else wait "$PID" || EXIT_STATUS=$?; fi
PID=""
if [ -n "$SAMPLES" ]; then cp "$WORK/samples.csv" "$SAMPLES"; fi
python3 scripts/bench/soak.py verdict --state "$WORK/state.json" --log "$WORK/log" --stderr "$WORK/stderr" \
    --exit-status "$EXIT_STATUS"
