#!/usr/bin/env bash
# Fuzzes verifierd's parsers with libFuzzer + AddressSanitizer (Fuzz/ package).
#
# Usage: scripts/fuzz.sh [target: FuzzCBOR | FuzzDeviceResponse | FuzzAppleEnvelope] [seconds, default 60]
# Seeds come from TestVectors (and ../shared/vectors when present). Crashes are written to Fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
TARGET="${1:-FuzzCBOR}"
SECONDS_TO_RUN="${2:-60}"

swift build -c release --product "$TARGET" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address >/dev/null
BIN="$(swift build -c release --show-bin-path)/$TARGET"

CORPUS="$(mktemp -d)"
trap 'rm -rf "$CORPUS"' EXIT
seed() { python3 -c "import sys; open(sys.argv[2],'wb').write(bytes.fromhex(open(sys.argv[1]).read().strip()))" "$1" "$CORPUS/$(basename "$1").bin"; }
case "$TARGET" in
    FuzzAppleEnvelope) for f in ../TestVectors/apple/cases/*.envelope.hex; do seed "$f"; done ;;
    *) for f in ../TestVectors/mdoc/cases/*.deviceresponse.hex; do seed "$f"; done
       for f in ../../shared/vectors/iso18013-5-annex-d/device_response*.hex; do [ -f "$f" ] && seed "$f"; done ;;
esac
mkdir -p crashes
SWIFT_BACKTRACE=enable=no "$BIN" -max_total_time="$SECONDS_TO_RUN" -rss_limit_mb=4096 -max_len=8192 \
    -artifact_prefix=crashes/ -print_final_stats=1 "$CORPUS" 2>&1 | grep -E "^(#[0-9]+.*(DONE|pulse)|stat::|==.*ERROR|SUMMARY)" || true
