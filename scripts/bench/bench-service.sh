#!/usr/bin/env bash
# Benchmarks verifierd over HTTP (release build, demo configuration): POST /v1/apple/verify with the committed demo
# request, POST /v1/web/verify and POST /v1/oid4vp/verify with sessions prepared by the Python wallets,
# POST /v1/sd-jwt-vc/verify with a PID-sized SD-JWT VC the Python wallet issues under the demo's TEST-ONLY issuer (its
# CPU per request next to `verifierd-bench sdjwt`'s floor), and POST /v1/reader-tokens, each with wrk (-t2 -c16 by default), printing requests/s, latency
# percentiles and the server's CPU per request (utime+stime from /proc/PID/stat before and after), and GET /v1/admin/iaca
# (the admin list, with an admin token set for the run). For the verify
# endpoint it also runs `verifierd-bench` in the same run and prints the ratio of the cryptography floor to the
# server's CPU per request (1.0 = the service costs nothing beyond its cryptography).
#
# Usage: scripts/bench/bench-service.sh [--tls] [duration, default 10s] [connections, default 16]
#        (WEB_BODIES=8000 sessions are prepared for a WEB_DURATION=2s run of /v1/web/verify)
# With --tls: POST /v1/apple/verify over HTTP and then over HTTPS (keep-alive, a throwaway certificate made by
# TestVectors/generator/tls_test_pki.py), side by side; the other endpoints are skipped.
# Needs wrk (Debian: apt-get install -y wrk).
set -euo pipefail
# -h/--help prints the text above; --tls as described; any other option is refused before anything is built.
TLS=0
POSITIONAL=()
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --tls) TLS=1 ;;
        -*) echo "$(basename "$0"): unknown option '$arg' (see --help)" >&2; exit 2 ;;
        *) POSITIONAL+=("$arg") ;;
    esac
done
[ ${#POSITIONAL[@]} -le 2 ] || { echo "$(basename "$0"): too many arguments (see --help)" >&2; exit 2; }
cd "$(dirname "$0")/../.."
DURATION="${POSITIONAL[0]:-10s}"
CONNECTIONS="${POSITIONAL[1]:-16}"
command -v wrk >/dev/null 2>&1 || { echo "wrk not found: apt-get install -y wrk" >&2; exit 1; }

# SWIFT_RELEASE_FLAGS (e.g. "-Xswiftc -enable-testing", as .ci/run builds) reuse that build rather than rebuild.
# shellcheck disable=SC2086
swift build -c release --product verifierd ${SWIFT_RELEASE_FLAGS:-} >/dev/null
# shellcheck disable=SC2086
swift build -c release --product verifierd-bench ${SWIFT_RELEASE_FLAGS:-} >/dev/null
# shellcheck disable=SC2086
BIN="$(swift build -c release --show-bin-path ${SWIFT_RELEASE_FLAGS:-})/verifierd"
WORK="$(mktemp -d)"
PID=""
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT

source scripts/lib/serve-lib.sh
ADMIN_TOKEN="bench-admin-token-TEST-ONLY"
start_server "$WORK/log" config/verifierd.json VERIFIERD_ADMIN_TOKEN="$ADMIN_TOKEN"

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

cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
TICKS_PER_SECOND="$(getconf CLK_TCK)"

# run NAME SCRIPT URL [DURATION]: wrk plus the server's CPU per request; sets CPU_US.
run() {
    local before after requests
    before="$(cpu_ticks)"
    wrk -t2 -c"$CONNECTIONS" -d"${4:-$DURATION}" --latency -s "$2" "$3" | tee "$WORK/$1.out"
    after="$(cpu_ticks)"
    requests="$(awk '/requests in/ {print $1}' "$WORK/$1.out")"
    CPU_US="$(python3 -c "print(round(($after - $before) / $TICKS_PER_SECOND / $requests * 1e6, 1))")"
    echo "server CPU per request: $CPU_US µs ($requests requests)"
}

post_script TestVectors/demo/verify-request.json 'wrk.headers["Authorization"] = "Bearer demo-integrator-token-TEST-ONLY"' > "$WORK/verify.lua"
echo "== POST /v1/apple/verify (demo envelope, full decrypt + verify) =="
run verify "$WORK/verify.lua" "http://127.0.0.1:$PORT/v1/apple/verify"
VERIFY_CPU_US="$CPU_US"

if [ "$TLS" = 1 ]; then
    python3 TestVectors/generator/tls_test_pki.py "$WORK/pki"
    stop_server
    start_server "$WORK/log-tls" config/verifierd.json VERIFIERD_SERVER_TLS_CERTIFICATE_CHAIN="$WORK/pki/server.pem" \
        VERIFIERD_SERVER_TLS_PRIVATE_KEY="$WORK/pki/server.key"
    echo "== POST /v1/apple/verify over HTTPS (TLS 1.3, keep-alive) =="
    run verify-tls "$WORK/verify.lua" "https://127.0.0.1:$PORT/v1/apple/verify"
    python3 - "$WORK/verify.out" "$WORK/verify-tls.out" "$VERIFY_CPU_US" "$CPU_US" <<'PY'
import re, sys
rate = lambda f: float(re.search(r"Requests/sec:\s+([0-9.]+)", open(f).read()).group(1))
p99 = lambda f: re.search(r"99%\s+(\S+)", open(f).read()).group(1)
http, https = rate(sys.argv[1]), rate(sys.argv[2])
print(f"HTTP  {http:8.0f} req/s  p99 {p99(sys.argv[1]):>8}  server CPU {sys.argv[3]} µs/request")
print(f"HTTPS {https:8.0f} req/s  p99 {p99(sys.argv[2]):>8}  server CPU {sys.argv[4]} µs/request "
      f"({https / http:.2f} of HTTP)")
PY
    exit 0
fi

echo "== in process, same machine, same run (verifierd-bench) =="
"$(dirname "$BIN")/verifierd-bench" 2 | tee "$WORK/bench.out"
python3 - "$WORK/bench.out" "$VERIFY_CPU_US" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
floor = float(re.search(r"floor ([0-9.]+) µs", text).group(1))
full = float(re.search(r"full verify ([0-9.]+) µs", text).group(1))
http = float(sys.argv[2])
print(f"ratio of the cryptography floor per CPU second: over HTTP {floor / http:.2f} (floor {floor} µs, server "
      f"{http} µs per request, {http - full:.1f} µs above in-process), in process {floor / full:.2f}")
PY

# POST /v1/web/verify and /v1/oid4vp/verify: one-use bodies (a session each) made by the Python wallets against this
# server, handed out so that no body is sent twice (each wrk thread takes every other line). Replays would be cheap
# 409s, so each run reports whether it saw non-2xx answers (none expected).
WEB_BODIES="${WEB_BODIES:-8000}"
# one_use_run NAME WALLET ROUTE TITLE: prepares WEB_BODIES bodies with WALLET, then runs wrk on ROUTE.
one_use_run() {
    echo "== POST $3 ($4; $WEB_BODIES sessions prepared) =="
    python3 "TestVectors/generator/$2" --base-url "http://127.0.0.1:$PORT" --issuer demo \
        --bench-bodies "$WEB_BODIES" --out "$WORK/$1-bodies.jsonl"
    one_use_bodies_lua "$WORK/$1-bodies.jsonl" 2 > "$WORK/$1.lua"
    run "$1" "$WORK/$1.lua" "http://127.0.0.1:$PORT$3" "${WEB_DURATION:-2s}"
    grep -q "Non-2xx" "$WORK/$1.out" && echo "warning: some answers were not 2xx (bodies ran out, or failures): raise WEB_BODIES or shorten the run" || true
}
one_use_run web web_wallet.py /v1/web/verify "Annex C: HPKE open + verify + session take"
one_use_run oid4vp oid4vp_wallet.py /v1/oid4vp/verify "OpenID4VP dc_api.jwt: JWE open + verify + session take"

# POST /v1/sd-jwt-vc/verify: one presentation (the bare route takes no session, so the body repeats), every claim of
# the PID disclosed, a KB-JWT for the caller's nonce and audience at the real clock.
python3 - "$WORK/sdjwt.json" <<'PY'
import json, sys
sys.path.insert(0, "TestVectors/generator")
import oid4vp_wallet as w
issued = w.issue_sd_jwt_vc()
presentation = issued.jwt + "~" + "".join(d + "~" for d in issued.disclosures.values())
claims = {"iat": w.now(), "nonce": "bench-nonce", "aud": "origin:https://shop.example", "sd_hash": w.sd_digest(presentation)}
presentation += w.es256_jws({"alg": "ES256", "typ": w.KB_TYP}, claims, w.holder_key())
json.dump({"presentation": presentation, "nonce": "bench-nonce", "audience": "origin:https://shop.example"}, open(sys.argv[1], "w"))
PY
post_script "$WORK/sdjwt.json" 'wrk.headers["Authorization"] = "Bearer demo-integrator-token-TEST-ONLY"' > "$WORK/sdjwt.lua"
echo "== POST /v1/sd-jwt-vc/verify (PID-sized SD-JWT VC: every disclosure, KB-JWT, x5c) =="
run sdjwt "$WORK/sdjwt.lua" "http://127.0.0.1:$PORT/v1/sd-jwt-vc/verify" "${SDJWT_DURATION:-5s}"
grep -q "Non-2xx" "$WORK/sdjwt.out" && echo "warning: some answers were not 2xx" || true
SDJWT_CPU_US="$CPU_US"
"$(dirname "$BIN")/verifierd-bench" 2 sdjwt | tee "$WORK/sdjwt-bench.out"
python3 - "$WORK/sdjwt-bench.out" "$SDJWT_CPU_US" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
floor = float(re.search(r"floor \(2 ECDSA \+ hashes\) ([0-9.]+) µs", text).group(1))
http = float(sys.argv[2])
print(f"SD-JWT VC: server CPU {http} µs per request = {http / floor:.2f} x the cryptography floor ({floor} µs: the credential "
      f"and KB-JWT signatures and one SHA-256 per disclosure)")
PY

echo '{"readerInstanceIdentifier":"bench-reader"}' > "$WORK/token.json"
post_script "$WORK/token.json" 'wrk.headers["Authorization"] = "Bearer demo-client-token-TEST-ONLY"' > "$WORK/token.lua"
echo "== POST /v1/reader-tokens =="
run token "$WORK/token.lua" "http://127.0.0.1:$PORT/v1/reader-tokens"

cat > "$WORK/admin.lua" <<LUA
wrk.method = "GET"
wrk.headers["Authorization"] = "Bearer $ADMIN_TOKEN"
LUA
echo "== GET /v1/admin/iaca (admin list) =="
run admin "$WORK/admin.lua" "http://127.0.0.1:$PORT/v1/admin/iaca" "${ADMIN_DURATION:-5s}"

echo "== status codes seen (from the access log) =="
grep -o '"status":[0-9]*' "$WORK/log" | sort | uniq -c
