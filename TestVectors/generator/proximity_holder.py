#!/usr/bin/env python3
"""An independent ISO 18013-5 mdoc holder for testing verifierd's proximity sessions end to end. TEST-ONLY.

It plays the wallet on the other side of a reader that relays bytes to verifierd:
  1. makes a QR DeviceEngagement with a fresh P-256 eDeviceKey ("mdoc:" + base64url);
  2. POSTs /v1/proximity/sessions, reads the SessionEstablishment, rebuilds the SessionTranscript
     [#6.24(DeviceEngagement), EReaderKeyBytes (as received), null], derives SKReader/SKDevice itself
     (ECDH, HKDF-SHA256 with salt SHA-256(SessionTranscriptBytes)), decrypts the DeviceRequest and checks its
     reader signatures (web_wallet.check_device_request);
  3. answers with a DeviceResponse issued under the committed test document signer, authenticated by a device
     signature or a device MAC (EMacKey from its device key and the reader's eReaderKey), encrypted with SKDevice
     (IV = 00000000 00000001 || counter 1), and POSTs it to /v1/proximity/sessions/{id}/messages.

Only cbor2, cryptography (and generate.py / web_wallet.py helpers in this folder) are used; nothing of verifierd.

    python3 TestVectors/generator/proximity_holder.py --base-url http://127.0.0.1:8080 \\
        --reader-root TestVectors/demo/reader-root.pem --mode readerAuth

The service must trust TestVectors/pki/iaca-p256.pem (or, with --issuer demo, the demo IACA) and sign with the demo
reader chain in the given mode. One JSON line per scenario and a summary line; exit 0 only when every scenario met
its expectation.

By hand (README's walk-through), the two holder steps around a reader's own calls, without contacting the service:

    python3 TestVectors/generator/proximity_holder.py --state holder.json --engage        # prints mdoc:...
    python3 TestVectors/generator/proximity_holder.py --state holder.json --issuer demo \
        --answer proximity-session.json                                                # prints {"sessionData": ...}
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402
import web_wallet as w  # noqa: E402

TERMINATION = bytes.fromhex("a16673746174757314")  # {"status": 20}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def engagement(device_key: ec.EllipticCurvePrivateKey, suite: int = 1) -> bytes:
    """{0: "1.0", 1: [suite, EDeviceKeyBytes], 2: [[2, 1, {0: false, 1: true, 11: uuid}]]} (BLE, central client)."""
    return cbor2.dumps({0: "1.0", 1: [suite, CBORTag(24, cbor2.dumps(g.cose_key(device_key.public_key())))],
                        2: [[2, 1, {0: False, 1: True, 11: bytes(range(16))}]]})


class ReaderSide:
    """Stands in for the reader's private key in generate.issue_document's MAC branch: ECDH is symmetric, so the
    holder computes the same shared secret from its device key and the reader's public key."""

    def __init__(self, device_key: ec.EllipticCurvePrivateKey, reader_public: ec.EllipticCurvePublicKey) -> None:
        self.device_key, self.reader_public = device_key, reader_public

    def exchange(self, algorithm: Any, _device_public: Any) -> bytes:
        return self.device_key.exchange(ec.ECDH(), self.reader_public)


class Holder:
    """The mdoc's side of one session: its eDeviceKey and DeviceEngagement, then the keys and the request the
    reader's SessionEstablishment brings."""

    def __init__(self, e_device: ec.EllipticCurvePrivateKey, engagement_bytes: bytes) -> None:
        self.e_device, self.engagement = e_device, engagement_bytes

    @property
    def qr_text(self) -> str:
        """What the QR code shows: "mdoc:" + base64url of the DeviceEngagement, without padding."""
        return "mdoc:" + base64.urlsafe_b64encode(self.engagement).rstrip(b"=").decode()

    def establish(self, body: dict, mode: str, root: x509.Certificate) -> None:
        """`body`: the 201 answer of POST /v1/proximity/sessions (sessionEstablishment, eReaderKey, sessionId)."""
        self.session_id = body.get("sessionId")
        establishment = cbor2.loads(base64.b64decode(body["sessionEstablishment"]))
        w.expect(isinstance(establishment, dict) and set(establishment) == {"eReaderKey", "data"},
                 "SessionEstablishment is not {eReaderKey, data}")
        e_reader_bytes = cbor2.dumps(establishment["eReaderKey"])
        w.expect(establishment["eReaderKey"].tag == 24 and establishment["eReaderKey"].value == base64.b64decode(body["eReaderKey"]),
                 "eReaderKey in the SessionEstablishment is not the one returned")
        key = cbor2.loads(establishment["eReaderKey"].value)
        self.e_reader = ec.EllipticCurvePublicNumbers(int.from_bytes(key[-2], "big"), int.from_bytes(key[-3], "big"),
                                                      ec.SECP256R1()).public_key()
        self.transcript = cbor2.dumps([CBORTag(24, self.engagement), cbor2.loads(e_reader_bytes), None])
        salt = hashlib.sha256(cbor2.dumps(CBORTag(24, self.transcript))).digest()
        shared = self.e_device.exchange(ec.ECDH(), self.e_reader)
        derive = lambda info: HKDF(hashes.SHA256(), 32, salt, info).derive(shared)  # noqa: E731
        self.sk_reader, self.sk_device = derive(b"SKReader"), derive(b"SKDevice")
        request = AESGCM(self.sk_reader).decrypt(bytes(8) + (1).to_bytes(4, "big"), establishment["data"], None)
        self.device_request = request
        self.requested, _, self.verified = w.check_device_request(w.b64url(request), self.transcript, mode, root)

    def answer(self, elements: list[str], device_auth: str = "signature", key: str = "device", counter: int = 1,
               flip: bool = False) -> bytes:
        label = "proximity-holder"
        spec = g.DocSpec(label, ds="ds-p256", elements=[(e, w.VALUES[e]) for e in elements], transcript=self.transcript,
                         device_auth=device_auth,
                         reader_key=ReaderSide(g.derive_key("device/" + label), self.e_reader) if device_auth == "mac" else None)
        document, _ = g.issue_document(spec, w.issuer())
        plaintext = g.device_response([document])
        secret = self.sk_device if key == "device" else self.sk_reader
        data = bytearray(AESGCM(secret).encrypt((1).to_bytes(8, "big") + counter.to_bytes(4, "big"), plaintext, None))
        if flip:
            data[len(data) // 2] ^= 1
        return cbor2.dumps({"data": bytes(data)})


class Session(Holder):
    """A session this holder opens itself over HTTP (the scenarios)."""

    def __init__(self, client: w.Client, mode: str, root: x509.Certificate, suite: int = 1) -> None:
        e_device = ec.generate_private_key(ec.SECP256R1())
        super().__init__(e_device, engagement(e_device, suite))
        self.reply = client.post("/v1/proximity/sessions", {"deviceEngagement": self.qr_text})
        if suite != 1:
            return
        w.expect(self.reply.status == 201, f"/v1/proximity/sessions answered {self.reply.status}: {self.reply.text[:300]}")
        self.establish(self.reply.body, mode, root)

    def send(self, client: w.Client, session_data: bytes) -> w.Reply:
        return client.post(f"/v1/proximity/sessions/{self.session_id}/messages", {"sessionData": b64(session_data)})


ALL = ["family_name", "given_name", "birth_date", "age_over_21"]


def verified(reply: w.Reply, authentication: str) -> None:
    w.expect(reply.status == 200 and reply.body.get("verified") is True, f"{reply.status}: {reply.text[:400]}")
    document = reply.body["documents"][0]
    w.expect(document.get("deviceAuthentication") == authentication, f"deviceAuthentication {document.get('deviceAuthentication')}")
    w.expect(document["claims"][g.MDL_NS]["family_name"] == "Mustermann", f"claims {document['claims']}")
    w.expect(base64.b64decode(reply.body.get("reply", "")) == TERMINATION, "reply is not SessionData {status: 20}")


def failed(reply: w.Reply, status: int, code: str) -> None:
    w.expect(reply.status == status and reply.body.get("code") == code, f"expected {status} {code}, got {reply.status}: {reply.text[:300]}")


def scenarios(client: w.Client, mode: str, root: x509.Certificate) -> dict:
    def signature() -> str:
        session = Session(client, mode, root)
        w.expect(session.requested == {g.MDL_DOCTYPE: {g.MDL_NS: {e: False for e in ALL}}}, f"requested {session.requested}")
        verified(session.send(client, session.answer(ALL)), "signature")
        failed(session.send(client, session.answer(ALL)), 409, "SESSION_ALREADY_USED")
        return f"reader signatures checked: {', '.join(session.verified) or 'none'}; then 409 on replay"

    def mac() -> str:
        session = Session(client, mode, root)
        verified(session.send(client, session.answer(ALL, device_auth="mac")), "mac")
        return "device MAC with EMacKey from the holder's side of ECDH"

    def tampered() -> str:
        session = Session(client, mode, root)
        failed(session.send(client, session.answer(ALL, flip=True)), 422, "DECRYPTION_FAILED")
        return ""

    def wrong_counter() -> str:
        session = Session(client, mode, root)
        failed(session.send(client, session.answer(ALL, counter=2)), 422, "SESSION_COUNTER_INVALID")
        return ""

    def wrong_key() -> str:
        session = Session(client, mode, root)
        failed(session.send(client, session.answer(ALL, key="reader")), 422, "SESSION_KEY_MISMATCH")
        return ""

    def unsupported_suite() -> str:
        session = Session(client, mode, root, suite=2)
        failed(session.reply, 400, "DEVICE_ENGAGEMENT_INVALID")
        return ""

    def not_requested() -> str:
        session = Session(client, mode, root)
        reply = session.send(client, session.answer(ALL + ["document_number"]))
        failed(reply, 422, "ELEMENT_NOT_REQUESTED")
        w.expect("D1234567" not in reply.text, "the unrequested value is in the answer")
        return ""

    return {"signature": signature, "mac": mac, "tampered-ciphertext": tampered, "wrong-counter": wrong_counter,
            "reader-key": wrong_key, "unsupported-cipher-suite": unsupported_suite, "element-not-requested": not_requested}


def engage(state: Path) -> int:
    """Step 1 by hand: a fresh eDeviceKey and QR engagement, kept in `state` (mode 0600); prints the QR text."""
    e_device = ec.generate_private_key(ec.SECP256R1())
    holder = Holder(e_device, engagement(e_device))
    pem = e_device.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption()).decode()
    state.touch(mode=0o600)
    state.write_text(json.dumps({"eDeviceKey": pem, "deviceEngagement": b64(holder.engagement)}))
    print(holder.qr_text)
    return 0


def answer_by_hand(state: Path, answer_file: Path, mode: str, root: x509.Certificate) -> int:
    """Step 2 by hand: reads the 201 answer of POST /v1/proximity/sessions (what the reader relays: its
    sessionEstablishment), checks the DeviceRequest, discloses every requested mDL element this holder has and prints
    the body for POST /v1/proximity/sessions/{id}/messages, {"sessionData": base64}."""
    try:
        kept = json.loads(state.read_text())
        key = serialization.load_pem_private_key(kept["eDeviceKey"].encode(), None)
        w.expect(isinstance(key, ec.EllipticCurvePrivateKey), f"{state} holds no P-256 key")
        holder = Holder(key, base64.b64decode(kept["deviceEngagement"]))
        body = json.loads(answer_file.read_text())
        w.expect(isinstance(body, dict) and isinstance(body.get("sessionEstablishment"), str),
                 f"{answer_file} has no sessionEstablishment: {json.dumps(body)[:300]}")
        holder.establish(body, mode, root)
    except (OSError, KeyError, ValueError, w.Failure) as error:
        print(f"proximity_holder.py: cannot answer {answer_file}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    elements = [e for e in holder.requested.get(g.MDL_DOCTYPE, {}).get(g.MDL_NS, {}) if e in w.VALUES]
    print(json.dumps({"sessionData": b64(holder.answer(elements))}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", help="the running service: run every scenario against it")
    parser.add_argument("--token", default=w.DEMO_INTEGRATOR_TOKEN, help="the integrator bearer token (default: the demo's)")
    parser.add_argument("--reader-root", default=str(w.TV / "demo" / "reader-root.pem"))
    parser.add_argument("--mode", choices=["readerAuth", "readerAuthAll", "both"], default="both",
                        help="what the service signs (default both, as the demo configuration)")
    parser.add_argument("--issuer", choices=sorted(w.ISSUERS), default="test",
                        help="document signer: test (TestVectors/pki) or demo (the demo configuration's)")
    parser.add_argument("--state", type=Path, help="by hand: the file keeping the holder's key between the two steps")
    parser.add_argument("--engage", action="store_true", help="by hand, step 1: make the engagement, print its QR text")
    parser.add_argument("--answer", type=Path, metavar="FILE",
                        help="by hand, step 2: answer the POST /v1/proximity/sessions answer in FILE, print the "
                             "messages body")
    args = parser.parse_args()
    w._issuer = w.ISSUERS[args.issuer]()
    root = x509.load_pem_x509_certificate(Path(args.reader_root).read_bytes())
    if args.engage or args.answer:
        if not args.state or (args.engage and args.answer):
            parser.error("--engage or --answer FILE, each with --state FILE")
        return engage(args.state) if args.engage else answer_by_hand(args.state, args.answer, args.mode, root)
    if not args.base_url:
        parser.error("--base-url is required (or --engage / --answer with --state)")
    client = w.Client(args.base_url, args.mode, root, args.token)
    passed = failures = 0
    for name, run in scenarios(client, args.mode, root).items():
        try:
            line = {"scenario": name, "ok": True, "detail": run()}
            passed += 1
        except Exception as error:  # reported; the other scenarios still run
            line = {"scenario": name, "ok": False, "detail": f"{type(error).__name__}: {error}"}
            failures += 1
        print(json.dumps(line), flush=True)
    print(json.dumps({"summary": {"passed": passed, "failed": failures}}), flush=True)
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
