#!/usr/bin/env bash
# Fuzzes verifierd's parsers with libFuzzer + AddressSanitizer (Fuzz/ package).
#
# Usage: scripts/fuzz.sh [target: FuzzCBOR | FuzzDeviceResponse | FuzzAppleEnvelope | FuzzWebResponse | FuzzProximity] [seconds, default 60]
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
    FuzzProximity)
        # The first byte selects the parser (see FuzzProximity.swift).
        annexd=../../shared/vectors/iso18013-5-annex-d
        for pair in "00:device_engagement" "00:session_transcript_device_engagement" "02:session_data" \
                    "02:session_termination" "03:handover_nfc"; do
            f="$annexd/${pair#*:}.hex"
            [ -f "$f" ] && python3 -c "import sys; open(sys.argv[3],'wb').write(bytes.fromhex(sys.argv[1]) + bytes.fromhex(open(sys.argv[2]).read().strip()))" \
                "${pair%%:*}" "$f" "$CORPUS/${pair#*:}.bin"
        done
        printf '\x01mdoc:omMxLjABgg' > "$CORPUS/qr.bin"
        ;;
    FuzzWebResponse)
        # The first byte selects the parser (see FuzzWebResponse.swift): seeds for each.
        python3 - "$CORPUS" <<'PY'
import base64, pathlib, sys
out = pathlib.Path(sys.argv[1])
ref = pathlib.Path("../../shared/vectors/annex-c/annexc-iso-reference")
def b64(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
if ref.exists():
    resp = (ref / "encrypted_response.b64url").read_text().strip()
    info = (ref / "encryption_info.b64url").read_text().strip()
    (out / "ref-response.bin").write_bytes(b"\x00" + b64(resp))
    (out / "ref-response-text.bin").write_bytes(b"\x01" + resp.encode())
    (out / "ref-info.bin").write_bytes(b"\x02" + info.encode())
    (out / "ref-plaintext.bin").write_bytes(b"\x03" + bytes.fromhex((ref / "device_response.derived.cbor.hex").read_text().strip()))
(out / "origin.bin").write_bytes(b"\x04https://shop.example:8443")
for f in pathlib.Path("../TestVectors/mdoc/cases").glob("*.deviceresponse.hex"):
    (out / (f.name + ".bin")).write_bytes(b"\x03" + bytes.fromhex(f.read_text().strip()))
PY
        ;;
    *) for f in ../TestVectors/mdoc/cases/*.deviceresponse.hex; do seed "$f"; done
       for f in ../../shared/vectors/iso18013-5-annex-d/device_response*.hex; do [ -f "$f" ] && seed "$f"; done ;;
esac
mkdir -p crashes
SWIFT_BACKTRACE=enable=no "$BIN" -max_total_time="$SECONDS_TO_RUN" -rss_limit_mb=4096 -max_len=8192 \
    -artifact_prefix=crashes/ -print_final_stats=1 "$CORPUS" 2>&1 | grep -E "^(#[0-9]+.*(DONE|pulse)|stat::|==.*ERROR|SUMMARY)" || true
