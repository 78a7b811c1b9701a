#!/usr/bin/env python3
"""Apple Wallet for verifierd's in-app flow with issued nonces. TEST-ONLY: every key it uses is a public test key;
never point it at anything real.

For each envelope it POSTs {} to /v1/apple/nonces, expects 201 {"nonce": base64 of 32 bytes, "expiresAt"}, and seals
the demo mDL exactly as generate.py's build_demo seals TestVectors/demo/envelope.hex (demo DS under the demo IACA,
the demo merchant encryption key, merchantId com.example.verifierd.demo, teamId DEMOTEAM01), but with the device
signature and the HPKE info bound to the issued nonce, and with a fresh HPKE ephemeral key. It writes one
/v1/apple/verify body per line, {"encryptedData": base64(APPLE-HPKE-v1 envelope), "nonce": the nonce as issued},
each valid once. Only cbor2, cryptography and pyhpke are used (through generate.py in this folder).

Against a service in the demo configuration (config/verifierd.json), 8 threads, 30 s per HTTP call:

    python3 TestVectors/generator/apple_wallet.py --base-url http://127.0.0.1:8080 --count 1000 --out apple.jsonl

For one given nonce, offline:   python3 TestVectors/generator/apple_wallet.py --nonce B64 --out apple.jsonl
Checks of its own code:         python3 TestVectors/generator/apple_wallet.py --self-test
"""

from __future__ import annotations

import argparse
import base64
import binascii
import concurrent.futures
import datetime as dt
import hashlib
import json
import secrets
import sys
import urllib.error
import urllib.request
from pathlib import Path

from pyhpke import KEMKey

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402

HTTP_TIMEOUT = 30
THREADS = 8
NONCE_BYTES = 32
MERCHANT_KEY = g.derive_key("demo/merchant-encryption")
DEMO_PKI = g.demo_pki()


class WalletError(Exception):
    pass


def decode_nonce(text: object) -> bytes:
    """The bytes of a standard base64 nonce of exactly 32 bytes."""
    try:
        nonce = base64.b64decode(text, validate=True) if isinstance(text, str) else b""
    except (binascii.Error, ValueError):
        nonce = b""
    if len(nonce) != NONCE_BYTES:
        raise WalletError(f"nonce {text!r} is not standard base64 of {NONCE_BYTES} bytes")
    return nonce


def envelope_for(nonce: bytes) -> bytes:
    """The demo envelope bound to `nonce`, with a random HPKE ephemeral key."""
    return g.demo_envelope(nonce, DEMO_PKI, eph_label=None)[0]


def verify_body(nonce_text: str) -> str:
    """One JSON line for POST /v1/apple/verify; the nonce string is passed through exactly as given."""
    envelope = envelope_for(decode_nonce(nonce_text))
    return json.dumps({"encryptedData": base64.b64encode(envelope).decode(), "nonce": nonce_text})


# The integrator token of the demo configuration (config/verifierd.json); --token gives another.
DEMO_INTEGRATOR_TOKEN = "demo-integrator-token-TEST-ONLY"


def issue_nonce(base_url: str, token: str) -> str:
    """POST {base}/v1/apple/nonces with {} as the integrator `token`; the nonce string of the 201 answer."""
    request = urllib.request.Request(base_url.rstrip("/") + "/v1/apple/nonces", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json",
                                              "Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    except (urllib.error.URLError, OSError) as error:
        raise WalletError(f"POST /v1/apple/nonces failed: {error}") from None
    if status != 201:
        raise WalletError(f"POST /v1/apple/nonces answered {status}, expected 201: {raw[:300].decode(errors='replace')}")
    try:
        answer = json.loads(raw)
    except ValueError:
        raise WalletError(f"POST /v1/apple/nonces answered 201 with no JSON: {raw[:300]!r}") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("expiresAt"), str):
        raise WalletError(f"POST /v1/apple/nonces answered 201 without nonce and expiresAt: {answer!r}")
    decode_nonce(answer.get("nonce"))
    return answer["nonce"]


def write_lines(out: Path, lines: list[str]) -> None:
    out.write_text("".join(line + "\n" for line in lines))


def run_service(base_url: str, count: int, out: Path, token: str) -> None:
    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        lines = list(pool.map(lambda _: verify_body(issue_nonce(base_url, token)), range(count)))
    write_lines(out, lines)


def fails(action) -> bool:
    try:
        action()
    except Exception:  # noqa: BLE001 - any failure to open counts
        return True
    return False


def self_test() -> int:
    now = dt.datetime.now(g.UTC)
    verifier = g.MiniVerifier([DEMO_PKI.entries["demo-iaca"].cert], now, "enforce", None)

    def opened(envelope: bytes, nonce: bytes) -> tuple[dict, bytes]:
        err, plaintext, transcript = g.apple_open(envelope, [MERCHANT_KEY], nonce, g.DEMO_MERCHANT, g.DEMO_TEAM)
        assert err is None, err
        return g.strict_loads(plaintext), transcript

    # (1) the fixed demo nonce: opens, holds one mDL that verifies under the demo IACA
    demo_nonce = g.seed_bytes("demo/nonce", NONCE_BYTES)
    committed = g.TV / "demo" / "envelope.hex"
    if committed.is_file():  # the labelled ephemeral key reproduces the committed demo envelope byte for byte
        assert g.demo_envelope(demo_nonce, DEMO_PKI)[0] == g.hexfile(committed), "differs from demo/envelope.hex"
    body = json.loads(verify_body(base64.b64encode(demo_nonce).decode()))
    payload, transcript = opened(base64.b64decode(body["encryptedData"]), demo_nonce)
    identity = payload["identity"]
    assert isinstance(identity, dict) and identity.get("version") == "1.0" and identity.get("status") == 0
    documents = identity.get("documents")
    assert isinstance(documents, list) and len(documents) == 1 and documents[0]["docType"] == g.MDL_DOCTYPE
    assert verifier.verify_response(g.enc(identity), transcript)["verified"]

    # (2) a random nonce: opens with it and verifies; another nonce neither opens the envelope nor the signature
    nonce, other = secrets.token_bytes(NONCE_BYTES), secrets.token_bytes(NONCE_BYTES)
    envelope = envelope_for(nonce)
    payload, transcript = opened(envelope, nonce)
    assert verifier.verify_response(g.enc(payload["identity"]), transcript)["verified"]
    assert fails(lambda: opened(envelope, other)), "opened with another nonce"
    env = g.strict_loads(envelope)
    other_info = g.apple_transcript(other, g.DEMO_MERCHANT, g.DEMO_TEAM, env["params"]["pkRHash"])
    assert fails(lambda: g.HPKE_SUITE.create_recipient_context(
        env["params"]["pkEm"], KEMKey.from_pyca_cryptography_key(MERCHANT_KEY), info=other_info
    ).open(env["data"], aad=b"")), "HPKE opened with another nonce's info"
    assert not verifier.verify_response(g.enc(payload["identity"]), other_info)["verified"]
    assert envelope_for(nonce) != envelope, "the HPKE ephemeral key is not fresh"
    print("self-test ok")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description="TEST-ONLY Apple Wallet for verifierd's issued-nonce in-app flow")
    parser.add_argument("--base-url", help="the running service, e.g. http://127.0.0.1:8080")
    parser.add_argument("--token", default=DEMO_INTEGRATOR_TOKEN, help="the integrator bearer token (default: the demo's)")
    parser.add_argument("--count", type=int, default=1, help="envelopes to make with --base-url (default 1)")
    parser.add_argument("--nonce", help="offline: one envelope for this nonce (standard base64 of 32 bytes)")
    parser.add_argument("--out", type=Path, help="the JSON lines file to write")
    parser.add_argument("--self-test", action="store_true", help="offline checks of this wallet's own code")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.out or bool(args.base_url) == bool(args.nonce):
        parser.error("give --out and exactly one of --base-url and --nonce (or --self-test)")
    if args.count < 1:
        parser.error("--count must be at least 1")
    try:
        if args.base_url:
            run_service(args.base_url, args.count, args.out, args.token)
        else:
            write_lines(args.out, [verify_body(args.nonce)])
    except WalletError as error:
        print(f"apple_wallet: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
