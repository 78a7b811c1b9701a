#!/usr/bin/env bash
# Rotation under load: 16 clients verify one valid document continuously while two writers add, delete and
# replace trusted IACAs through the admin API every 50 ms (the document's own anchor among them, plus 20 throwaway
# IACAs). Passes only with zero 5xx, zero connection errors or timeouts, no unexpected answer (only 200 verified or
# 422 ISSUER_CERTIFICATE_UNTRUSTED), every admin change logged once with its request ID and consecutive versions,
# and every verdict consistent with a trust set that was in force at some instant of that request: a document is
# never verified by an anchor removed before the request began, nor refused when its anchor was trusted throughout.
# See scripts/ci/rotation-under-load.py for how verdicts are judged; `--self-test` there checks the checker.
#   scripts/ci/rotation-under-load.sh [path/to/release/verifierd] [seconds]    (defaults: .build/release/verifierd, 60)
# KEEP_WORK=1 keeps the temporary directory (service log, records.json) and prints its path.
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
DURATION=${2:-60}
[ -x "$BIN" ] || { echo "no executable verifierd at $BIN (build it: swift build -c release)"; exit 1; }
WORK=$(mktemp -d)
source scripts/lib/serve-lib.sh
trap 'stop_server; if [ -n "${KEEP_WORK:-}" ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi' EXIT

python3 scripts/ci/rotation-under-load.py --self-test > "$WORK/self-test" || { cat "$WORK/self-test"; exit 1; }

mkdir -p "$WORK/trust"
cp TestVectors/pki/iaca-p256.pem "$WORK/trust/"
ROTATION_ADMIN_TOKEN=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
export ROTATION_ADMIN_TOKEN
cat > "$WORK/config.json" <<JSON
{"server": {"host": "127.0.0.1", "port": 0}, "trust": {"iacaDirectory": "$WORK/trust", "pollSeconds": 0},
 "verification": {"allowVerificationTimeOverride": true}, "admin": {"token": "$ROTATION_ADMIN_TOKEN"},
 "integrators": {"tokens": {"rotation": "rotation-integrator-token-TEST"}}}
JSON

start_server "$WORK/log" "$WORK/config.json"
python3 scripts/ci/rotation-under-load.py load --url "http://127.0.0.1:$PORT" --records "$WORK/records.json" \
    --seconds "$DURATION" --clients 16 --writers 2 --interval 0.05 --extras 20 \
    --anchor TestVectors/pki/iaca-p256.pem --case TestVectors/mdoc/cases/valid-p256-sha256-signature
stop_server
python3 scripts/ci/rotation-under-load.py check --records "$WORK/records.json" --log "$WORK/log"
