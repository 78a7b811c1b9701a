#!/usr/bin/env bash
# Scans verifierd's HTTPS listener with independent tools: sslscan (protocols, suites, groups, renegotiation,
# compression) and, when installed, testssl.sh (vulnerability checks). Starts the service on the demo configuration
# with a throwaway certificate from TestVectors/generator/tls_test_pki.py, and stops it afterwards.
#
# Usage: scripts/bench/tls-scan.sh [path to verifierd, default .build/debug/verifierd]
# Needs sslscan (Debian: apt-get install -y sslscan); testssl.sh is optional (apt-get install -y testssl.sh).
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
command -v sslscan >/dev/null 2>&1 || { echo "sslscan not found: apt-get install -y sslscan" >&2; exit 1; }
WORK="$(mktemp -d)"
PID=""
source scripts/lib/serve-lib.sh
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT

python3 TestVectors/generator/tls_test_pki.py "$WORK/pki"
start_server "$WORK/log" config/verifierd.json VERIFIERD_SERVER_TLS_CERTIFICATE_CHAIN="$WORK/pki/server.pem" \
    VERIFIERD_SERVER_TLS_PRIVATE_KEY="$WORK/pki/server.key"

echo "== sslscan 127.0.0.1:$PORT =="
sslscan --no-colour --show-sigs "127.0.0.1:$PORT" | tee "$WORK/sslscan.txt"

if command -v testssl >/dev/null 2>&1 || command -v testssl.sh >/dev/null 2>&1; then
    TESTSSL="$(command -v testssl || command -v testssl.sh)"
    echo "== testssl.sh (protocols, ciphers, vulnerabilities) =="
    "$TESTSSL" --quiet --color 0 --warnings off --protocols --std --vulnerable --headers "127.0.0.1:$PORT" \
        | tee "$WORK/testssl.txt" || true
fi

echo "== summary =="
python3 - "$WORK/sslscan.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
enabled = re.findall(r"^(SSLv\d|TLSv1\.\d)\s+enabled", text, re.M)
accepted = re.findall(r"^(?:Preferred|Accepted)\s+(TLSv1\.\d)\s+\d+ bits\s+(\S+)", text, re.M)
weak = [s for _, s in accepted if not (("GCM" in s or "CHACHA20" in s) and (s.startswith("ECDHE") or s.startswith("TLS_")))]
print("protocols enabled:", ", ".join(enabled) or "none")
print("suites accepted:", len(accepted), "; not ECDHE+AEAD:", weak or "none")
for line in text.splitlines():
    if "renegotiation" in line.lower() or "Compression" in line:
        print(line.strip())
ok = enabled and set(enabled) <= {"TLSv1.2", "TLSv1.3"} and not weak
print("policy:", "as configured (TLS 1.2/1.3, ECDHE + AEAD only)" if ok else "NOT as configured")
sys.exit(0 if ok else 1)
PY
