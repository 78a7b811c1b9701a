#!/usr/bin/env bash
# Interoperability check of reader tokens with an independent JWT library (PyJWT):
# starts the built verifierd on a free port with the demo reader-token key, mints a token over HTTP and one with
# the CLI, and verifies both with scripts/ci/verify-reader-token.py against the public key; also validates the served
# OpenAPI document with openapi-spec-validator.
#
# Usage: scripts/ci/interop-reader-token.sh [path to verifierd, default .build/debug/verifierd]
set -euo pipefail
# -h/--help prints the text above; any other option is refused before anything is built, started or written.
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "$(basename "$0"): unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done
[ $# -le 1 ] || { echo "$(basename "$0"): too many arguments (see --help)" >&2; exit 2; }
cd "$(dirname "$0")/../.."
BIN="${1:-.build/debug/verifierd}"
WORK="$(mktemp -d)"
PID=""
cleanup() {
    if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

KEY="$PWD/TestVectors/demo/keys/reader-token.pem"
mkdir -p "$WORK/trust"
cp TestVectors/demo/trusted-iaca/demo-iaca.pem "$WORK/trust/"
cat > "$WORK/config.json" <<JSON
{
  "server": {"host": "127.0.0.1", "port": 0},
  "trust": {"iacaDirectory": "trust", "pollSeconds": 0},
  "readerTokens": {"brandId": "INTEROP-BRAND", "keyId": "INTEROP-KID", "signingKey": "$KEY",
                   "lifetimeSeconds": 300, "clientTokens": ["interop-client-token"]}
}
JSON
python3 -c "
from cryptography.hazmat.primitives import serialization
key = serialization.load_pem_private_key(open('$KEY','rb').read(), None)
open('$WORK/public.pem','wb').write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))"

"$BIN" serve --config "$WORK/config.json" > "$WORK/log" &
PID=$!
# shellcheck source=scripts/lib/serve-lib.sh
source scripts/lib/serve-lib.sh
wait_for_port "$WORK/log" || { echo "verifierd did not start"; cat "$WORK/log"; exit 1; }

passed=0; failed=0
check() {
    if python3 scripts/ci/verify-reader-token.py "$1" "$WORK/public.pem" --kid INTEROP-KID --iss INTEROP-BRAND --sub "$2"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
}
RESPONSE="$(curl -fsS -H 'Authorization: Bearer interop-client-token' --data '{"readerInstanceIdentifier":"reader \"42\" \\ x"}' "http://127.0.0.1:$PORT/v1/reader-tokens")"
TOKEN="$(python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])' <<<"$RESPONSE")"
check "$TOKEN" 'reader "42" \ x'
CLI_TOKEN="$("$BIN" token mint --config "$WORK/config.json" --reader-instance-id reader-cli 2>/dev/null)"
check "$CLI_TOKEN" reader-cli
# The served OpenAPI document must be valid OpenAPI 3.1 for an independent validator.
curl -fsS "http://127.0.0.1:$PORT/openapi.json" > "$WORK/openapi.json"
if python3 -c "import json, sys; from openapi_spec_validator import validate; validate(json.load(open(sys.argv[1])))" "$WORK/openapi.json"; then
    passed=$((passed + 1))
else
    echo "FAIL: /openapi.json is not a valid OpenAPI 3.1 document"
    failed=$((failed + 1))
fi
echo "interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
