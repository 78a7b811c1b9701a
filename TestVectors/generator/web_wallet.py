#!/usr/bin/env python3
"""An independent ISO/IEC 18013-7 Annex C wallet ("org-iso-mdoc" over the Digital Credentials API) for testing
verifierd's web flow end to end. TEST-ONLY: every key it uses is a public test key.

It plays the browser and the mdoc holder against a running verifierd:
  1. POST /v1/web/requests, then checks by itself what came back: base64url without padding, the EncryptionInfo
     shape and nonce, deterministic CBOR without duplicate keys, itemsRequest as tag 24, and the reader signatures
     (readerAuth over ReaderAuthentication, readerAuthAll over ReaderAuthenticationAll) with the reader
     certificate, whose EKU must be 1.0.18013.5.1.6 and whose authority key identifier must be the subject key
     identifier of the reader root given on the command line (the link identity provider apps check).
  2. Issues an mDL under the committed test document signer (TestVectors/pki/ds-p256.pem) with a device signature
     over the dcapi SessionTranscript, seals the bare DeviceResponse with HPKE (base mode, DHKEM(P-256, HKDF-SHA256),
     HKDF-SHA256, AES-128-GCM, info = transcript) to the session's recipient key and POSTs /v1/web/verify.

Only cbor2, cryptography and pyhpke are used (plus helpers from generate.py in this folder); nothing of verifierd.

Usage (the service must trust TestVectors/pki/iaca-p256.pem, allow the origins https://shop.example and
https://other.example, and run with a clock inside the test certificates' validity):

    python3 TestVectors/generator/web_wallet.py --base-url http://127.0.0.1:8080 \\
        --reader-root TestVectors/demo/reader-root.pem --mode both [--scenarios verified,replay,...]

It prints one JSON line per scenario ({"scenario", "ok", "status", "code", "detail"}) and a summary line, and exits
0 only when every scenario met its expectation. `--self-test` checks the transcript and HPKE code against the
published ISO Annex C reference vector (../shared/vectors) and a seal/open round trip, without a service.
"""

from __future__ import annotations

import argparse
import base64
import concurrent.futures
import hashlib
import json
import secrets
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402

TV = Path(__file__).resolve().parent.parent
SUITE = CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)
READER_EKU = x509.ObjectIdentifier("1.0.18013.5.1.6")
ORIGIN = "https://shop.example"
OTHER_ORIGIN = "https://other.example"
B64URL_ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

# Values the test holder discloses (the issuer signs exactly what is disclosed).
VALUES: dict[str, Any] = {
    "family_name": "Mustermann",
    "given_name": "Erika",
    "birth_date": CBORTag(1004, "1971-09-01"),
    "age_over_21": True,
    "age_over_18": True,
    "document_number": "D1234567",
    "issuing_country": "US",
}
DEFAULT_REQUEST = {g.MDL_DOCTYPE: {g.MDL_NS: {"family_name": False, "given_name": False, "birth_date": False,
                                              "age_over_21": False}}}


class Failure(Exception):
    """A scenario's expectation was not met."""


# --------------------------------------------------------------------------------------------------
# Encodings and strict CBOR checks
# --------------------------------------------------------------------------------------------------

def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_strict(text: str, name: str) -> bytes:
    """base64url without padding, as browsers demand for org-iso-mdoc strings."""
    if not text or not set(text) <= B64URL_ALPHABET or len(text) % 4 == 1:
        raise Failure(f"{name} is not base64url without padding")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_well_formed(data: bytes, name: str) -> None:
    """Walks the raw bytes: definite lengths only, no duplicate map keys (by their encoded bytes), no trailing
    bytes. cbor2 alone would silently keep the last of two equal keys."""

    def head(i: int) -> tuple[int, int, int]:
        if i >= len(data):
            raise Failure(f"{name}: truncated")
        major, info = data[i] >> 5, data[i] & 0x1F
        i += 1
        if info < 24:
            return major, info, i
        if info in (24, 25, 26, 27):
            n = 1 << (info - 24)
            if i + n > len(data):
                raise Failure(f"{name}: truncated head")
            return major, int.from_bytes(data[i:i + n], "big"), i + n
        raise Failure(f"{name}: indefinite length or reserved head at offset {i - 1}")

    def item(i: int, depth: int) -> int:
        if depth > 32:
            raise Failure(f"{name}: too deep")
        major, arg, i = head(i)
        if major in (2, 3):
            if i + arg > len(data):
                raise Failure(f"{name}: truncated string")
            return i + arg
        if major == 4:
            for _ in range(arg):
                i = item(i, depth + 1)
            return i
        if major == 5:
            seen = set()
            for _ in range(arg):
                start = i
                i = item(i, depth + 1)
                key = data[start:i]
                if key in seen:
                    raise Failure(f"{name}: duplicate map key {key.hex()}")
                seen.add(key)
                i = item(i, depth + 1)
            return i
        if major == 6:
            return item(i, depth + 1)
        return i

    end = item(0, 0)
    if end != len(data):
        raise Failure(f"{name}: {len(data) - end} trailing bytes")


def check_deterministic(data: bytes, name: str) -> None:
    """RFC 8949 4.2.1: re-encoding the decoded value deterministically gives the same bytes."""
    if cbor2.dumps(cbor2.loads(data), canonical=True) != data:
        raise Failure(f"{name} is not deterministically encoded")


def transcript_for(encryption_info: str, origin: str) -> bytes:
    """[null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]]: 44 bytes, a bare array."""
    info_hash = hashlib.sha256(cbor2.dumps([encryption_info, origin])).digest()
    transcript = cbor2.dumps([None, None, ["dcapi", info_hash]])
    assert len(transcript) == 44
    return transcript


# --------------------------------------------------------------------------------------------------
# Reader authentication
# --------------------------------------------------------------------------------------------------

def check_reader_certificate(der: bytes, root: x509.Certificate) -> x509.Certificate:
    leaf = x509.load_der_x509_certificate(der)
    key = leaf.public_key()
    if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != "secp256r1":
        raise Failure("the reader certificate's key is not P-256")
    eku = leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    if READER_EKU not in eku:
        raise Failure("the reader certificate lacks EKU 1.0.18013.5.1.6")
    aki = leaf.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
    ski = root.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
    if aki != ski:
        raise Failure(f"the reader certificate's AKI {aki.hex()} is not the root's SKI {ski.hex()}")
    try:
        root.public_key().verify(leaf.signature, leaf.tbs_certificate_bytes, ec.ECDSA(leaf.signature_hash_algorithm))
    except InvalidSignature:
        raise Failure("the reader certificate is not signed by the reader root") from None
    if leaf.issuer != root.subject:
        raise Failure("the reader certificate's issuer is not the root's subject")
    return leaf


def check_sign1(sign1: Any, payload: bytes, root: x509.Certificate, what: str) -> None:
    """A detached-payload ES256 COSE_Sign1 with x5chain in the unprotected bucket."""
    if not isinstance(sign1, list) or len(sign1) != 4:
        raise Failure(f"{what} is not a COSE_Sign1 array")
    protected, unprotected, body, signature = sign1
    if cbor2.loads(protected) != {1: -7}:
        raise Failure(f"{what}: protected header is not {{1: -7}}")
    if body is not None:
        raise Failure(f"{what}: payload is not detached (null)")
    chain = unprotected.get(33)
    ders = [chain] if isinstance(chain, bytes) else chain
    if not ders or not all(isinstance(d, bytes) for d in ders):
        raise Failure(f"{what}: no x5chain")
    leaf = check_reader_certificate(ders[0], root)
    to_be_signed = cbor2.dumps(["Signature1", protected, b"", payload])
    if len(signature) != 64 or not g.ecdsa_verify_raw(leaf.public_key(), signature, to_be_signed, hashes.SHA256()):
        raise Failure(f"{what}: the signature does not verify")


class MadeRequest:
    """A /v1/web/requests answer, checked."""

    def __init__(self, answer: dict, origin: str, mode: str, root: x509.Certificate):
        self.session_id = answer["sessionId"]
        request = answer["request"]
        if request.get("protocol") != "org-iso-mdoc" or set(request.get("data", {})) != {"deviceRequest", "encryptionInfo"}:
            raise Failure("request is not {protocol: org-iso-mdoc, data: {deviceRequest, encryptionInfo}}")
        self.encryption_info = request["data"]["encryptionInfo"]
        self.device_request = request["data"]["deviceRequest"]
        self.origin = origin
        self.transcript = transcript_for(self.encryption_info, origin)

        info_bytes = b64url_strict(self.encryption_info, "encryptionInfo")
        check_well_formed(info_bytes, "encryptionInfo")
        check_deterministic(info_bytes, "encryptionInfo")
        info = cbor2.loads(info_bytes)
        if not (isinstance(info, list) and len(info) == 2 and info[0] == "dcapi" and isinstance(info[1], dict)
                and set(info[1]) == {"nonce", "recipientPublicKey"}):
            raise Failure("encryptionInfo is not [\"dcapi\", {nonce, recipientPublicKey}]")
        self.nonce = info[1]["nonce"]
        if not isinstance(self.nonce, bytes) or len(self.nonce) < 16:
            raise Failure("the nonce is shorter than 16 bytes")
        key = info[1]["recipientPublicKey"]
        if set(key) != {1, -1, -2, -3} or key[1] != 2 or key[-1] != 1 or len(key[-2]) != 32 or len(key[-3]) != 32:
            raise Failure("recipientPublicKey is not an EC2 P-256 COSE_Key")
        self.recipient = ec.EllipticCurvePublicNumbers(int.from_bytes(key[-2], "big"), int.from_bytes(key[-3], "big"),
                                                       ec.SECP256R1()).public_key()

        request_bytes = b64url_strict(self.device_request, "deviceRequest")
        check_well_formed(request_bytes, "deviceRequest")
        check_deterministic(request_bytes, "deviceRequest")
        device_request = cbor2.loads(request_bytes)
        expected_version = "1.0" if mode == "readerAuth" else "1.1"
        if device_request.get("version") != expected_version:
            raise Failure(f"DeviceRequest version {device_request.get('version')}, expected {expected_version}")
        items = []
        self.requested: dict[str, dict[str, dict[str, bool]]] = {}
        for index, doc_request in enumerate(device_request["docRequests"]):
            items_request = doc_request["itemsRequest"]
            if not isinstance(items_request, CBORTag) or items_request.tag != 24:
                raise Failure("itemsRequest is not tag 24")
            check_well_formed(items_request.value, "ItemsRequest")
            check_deterministic(items_request.value, "ItemsRequest")
            decoded = cbor2.loads(items_request.value)
            self.requested.setdefault(decoded["docType"], {}).update(decoded["nameSpaces"])
            items.append(items_request)
            if mode in ("readerAuth", "both"):
                payload = cbor2.dumps(CBORTag(24, cbor2.dumps(
                    ["ReaderAuthentication", cbor2.loads(self.transcript), items_request])))
                check_sign1(doc_request.get("readerAuth"), payload, root, f"docRequests[{index}].readerAuth")
            elif "readerAuth" in doc_request:
                raise Failure("per-DocRequest readerAuth present in mode readerAuthAll")
        if mode in ("readerAuthAll", "both"):
            info_item = device_request.get("deviceRequestInfo")
            if info_item is not None and (not isinstance(info_item, CBORTag) or info_item.tag != 24):
                raise Failure("deviceRequestInfo is not tag 24")
            payload = cbor2.dumps(CBORTag(24, cbor2.dumps(
                ["ReaderAuthenticationAll", cbor2.loads(self.transcript), items, info_item])))
            signatures = device_request.get("readerAuthAll")
            if not isinstance(signatures, list) or not signatures:
                raise Failure("readerAuthAll is missing")
            for index, sign1 in enumerate(signatures):
                check_sign1(sign1, payload, root, f"readerAuthAll[{index}]")
        elif "readerAuthAll" in device_request:
            raise Failure("readerAuthAll present in mode readerAuth")


# --------------------------------------------------------------------------------------------------
# The holder: documents and sealing
# --------------------------------------------------------------------------------------------------

class _Entry:
    def __init__(self, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey):
        self.cert, self.key = cert, key


class _Issuer:
    """A committed test document signer, in the shape generate.issue_document expects."""

    def __init__(self, certificate: Path, key: Path) -> None:
        cert = x509.load_pem_x509_certificate(certificate.read_bytes())
        private_key = serialization.load_pem_private_key(key.read_bytes(), None)
        self.entries = {"ds-p256": _Entry(cert, private_key)}


ISSUERS = {
    # under TestVectors/pki/iaca-p256.pem (what the tests trust)
    "test": lambda: _Issuer(TV / "pki" / "ds-p256.pem", TV / "pki" / "keys" / "ds-p256.pem"),
    # under the demo IACA (what config/verifierd.json trusts), for benchmarks against the demo configuration
    "demo": lambda: _Issuer(TV / "demo" / "issuer" / "demo-ds.pem", TV / "demo" / "issuer" / "demo-ds.key.pem"),
}
ISSUER = ISSUERS["test"]()


def answer(made: MadeRequest, elements: list[str], origin: str | None = None, doc_type: str = g.MDL_DOCTYPE) -> bytes:
    """A DeviceResponse with the given mDL elements, device-signed over the transcript for `origin`."""
    transcript = transcript_for(made.encryption_info, origin or made.origin)
    spec = g.DocSpec("web-wallet", ds="ds-p256", elements=[(e, VALUES[e]) for e in elements], transcript=transcript,
                     doc_type=doc_type)
    document, _ = g.issue_document(spec, ISSUER)
    return g.device_response([document])


def seal(recipient: ec.EllipticCurvePublicKey, transcript: bytes, plaintext: bytes, flip: bool = False) -> str:
    enc, context = SUITE.create_sender_context(KEMKey.from_pyca_cryptography_key(recipient), info=transcript)
    ciphertext = bytearray(context.seal(plaintext, aad=b""))
    if flip:
        ciphertext[len(ciphertext) // 2] ^= 0x01
    return b64url(cbor2.dumps(["dcapi", {"enc": enc, "cipherText": bytes(ciphertext)}]))


def sealed_answer(made: MadeRequest, elements: list[str], origin: str | None = None, flip: bool = False) -> str:
    transcript = transcript_for(made.encryption_info, origin or made.origin)
    return seal(made.recipient, transcript, answer(made, elements, origin), flip)


# --------------------------------------------------------------------------------------------------
# HTTP
# --------------------------------------------------------------------------------------------------

class Client:
    def __init__(self, base_url: str, mode: str, root: x509.Certificate):
        self.base_url, self.mode, self.root = base_url.rstrip("/"), mode, root

    def post(self, path: str, body: dict) -> tuple[int, dict, str]:
        request = urllib.request.Request(self.base_url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
                return response.status, json.loads(text or "{}"), text
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            try:
                return error.code, json.loads(text or "{}"), text
            except json.JSONDecodeError:
                return error.code, {}, text

    def make(self, origin: str = ORIGIN, documents: list | None = None) -> MadeRequest:
        body: dict[str, Any] = {"origin": origin}
        if documents is not None:
            body["documents"] = documents
        status, answer_json, text = self.post("/v1/web/requests", body)
        if status != 201:
            raise Failure(f"/v1/web/requests answered {status}: {text[:300]}")
        return MadeRequest(answer_json, origin, self.mode, self.root)

    def verify(self, session_id: str, response: str) -> tuple[int, dict, str]:
        return self.post("/v1/web/verify", {"sessionId": session_id, "response": response})


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise Failure(message)


def expect_problem(result: tuple[int, dict, str], status: int, code: str) -> None:
    got_status, body, text = result
    expect(got_status == status and body.get("code") == code, f"expected {status} {code}, got {got_status}: {text[:300]}")


def check_of(body: dict, check_id: str) -> dict:
    for document in body.get("documents", []):
        for check in document.get("checks", []):
            if check.get("id") == check_id:
                return check
    return {}


# --------------------------------------------------------------------------------------------------
# Scenarios: each returns (status, code, detail) or raises Failure
# --------------------------------------------------------------------------------------------------

def scenario_request_shape(c: Client) -> tuple:
    first, second = c.make(), c.make()
    expect(first.requested == DEFAULT_REQUEST, f"default request is {first.requested}")
    expect(first.nonce != second.nonce, "two sessions share a nonce")
    expect(first.recipient.public_numbers() != second.recipient.public_numbers(), "two sessions share a key")
    expect(first.session_id != second.session_id, "two sessions share an ID")
    return 201, None, f"mode {c.mode}: signatures, AKI/SKI, EKU, nonce ({len(first.nonce)} B), deterministic CBOR ok"


def scenario_custom_request(c: Client) -> tuple:
    made = c.make(documents=[{"docType": g.MDL_DOCTYPE, "elements": {g.MDL_NS: {"family_name": True,
                                                                               "document_number": False}}}])
    expect(made.requested == {g.MDL_DOCTYPE: {g.MDL_NS: {"family_name": True, "document_number": False}}},
           f"ItemsRequest holds {made.requested}")
    status, body, text = c.verify(made.session_id, sealed_answer(made, ["family_name", "document_number"]))
    expect(status == 200 and body.get("verified") is True, f"{status}: {text[:300]}")
    claims = body["documents"][0]["claims"][g.MDL_NS]
    expect(claims == {"family_name": "Mustermann", "document_number": "D1234567"}, f"claims {claims}")
    return status, None, "intentToRetain carried; both values verified"


def scenario_origin_not_allowed(c: Client) -> tuple:
    result = c.post("/v1/web/requests", {"origin": "https://evil.example"})
    expect_problem(result, 400, "ORIGIN_NOT_ALLOWED")
    return result[0], "ORIGIN_NOT_ALLOWED", ""


_verified_body: dict = {}


def scenario_verified(c: Client) -> tuple:
    made = c.make()
    response = sealed_answer(made, ["family_name", "given_name", "birth_date", "age_over_21"])
    status, body, text = c.verify(made.session_id, response)
    expect(status == 200 and body.get("verified") is True, f"{status}: {text[:400]}")
    document = body["documents"][0]
    expect(document["claims"][g.MDL_NS] == {"family_name": "Mustermann", "given_name": "Erika",
                                            "birth_date": "1971-09-01", "age_over_21": True},
           f"claims {document['claims']}")
    expect("notReturned" not in document, "notReturned present although everything came back")
    expect(check_of(body, "request.elements").get("outcome") == "passed", "request.elements did not pass")
    _verified_body.update({"sessionId": made.session_id, "response": response})
    return status, None, "4 requested elements verified"


def scenario_replay(c: Client) -> tuple:
    if not _verified_body:
        scenario_verified(c)
    result = c.verify(_verified_body["sessionId"], _verified_body["response"])
    expect_problem(result, 409, "SESSION_ALREADY_USED")
    return result[0], "SESSION_ALREADY_USED", "the same body a second time"


def scenario_declined(c: Client) -> tuple:
    made = c.make()
    status, body, text = c.verify(made.session_id, sealed_answer(made, ["family_name", "age_over_21"]))
    expect(status == 200 and body.get("verified") is True, f"{status}: {text[:300]}")
    not_returned = body["documents"][0].get("notReturned")
    expect(not_returned == {g.MDL_NS: ["birth_date", "given_name"]} or not_returned == {g.MDL_NS: ["given_name", "birth_date"]},
           f"notReturned {not_returned}")
    return status, None, f"notReturned {not_returned}"


def scenario_wrong_origin(c: Client) -> tuple:
    made = c.make()
    status, body, text = c.verify(made.session_id, sealed_answer(made, ["family_name"], origin=OTHER_ORIGIN))
    expect(status == 422 and body.get("code") == "DECRYPTION_FAILED", f"{status}: {text[:300]}")
    expect_problem(c.verify(made.session_id, sealed_answer(made, ["family_name"])), 409, "SESSION_ALREADY_USED")
    return status, "DECRYPTION_FAILED", "then 409: the failed attempt burned the session"


def scenario_tampered_ciphertext(c: Client) -> tuple:
    made = c.make()
    status, body, text = c.verify(made.session_id, sealed_answer(made, ["family_name"], flip=True))
    expect(status == 422 and body.get("code") == "DECRYPTION_FAILED", f"{status}: {text[:300]}")
    return status, "DECRYPTION_FAILED", ""


def scenario_other_session_key(c: Client) -> tuple:
    a, b = c.make(), c.make()
    status, body, text = c.verify(a.session_id, sealed_answer(b, ["family_name"]))
    expect(status == 422 and body.get("code") == "DECRYPTION_FAILED", f"{status}: {text[:300]}")
    status_b, body_b, text_b = c.verify(b.session_id, sealed_answer(b, ["family_name"]))
    expect(status_b == 200 and body_b.get("verified") is True, f"session B afterwards: {status_b}: {text_b[:300]}")
    return status, "DECRYPTION_FAILED", "B's answer on A fails; B still verifies"


def scenario_element_not_requested(c: Client) -> tuple:
    made = c.make()
    elements = ["family_name", "given_name", "birth_date", "age_over_21", "document_number"]
    status, body, text = c.verify(made.session_id, sealed_answer(made, elements))
    expect(status == 422 and body.get("code") == "ELEMENT_NOT_REQUESTED", f"{status}: {text[:300]}")
    check = check_of(body, "request.elements")
    expect(check.get("outcome") == "failed" and check.get("code") == "ELEMENT_NOT_REQUESTED", f"check {check}")
    expect("D1234567" not in text, "the unrequested value appears in the answer")
    return status, "ELEMENT_NOT_REQUESTED", "the value of document_number is nowhere in the body"


def scenario_malformed_response(c: Client) -> tuple:
    made = c.make()
    result = c.verify(made.session_id, b64url(cbor2.dumps(["dcapi", {"enc": b"\x00"}])))
    expect_problem(result, 400, "ENVELOPE_MALFORMED")
    return result[0], "ENVELOPE_MALFORMED", ""


def scenario_unknown_session(c: Client) -> tuple:
    result = c.verify(b64url(secrets.token_bytes(32)), "gmVkY2Fwaa")
    expect_problem(result, 404, "SESSION_NOT_FOUND")
    return result[0], "SESSION_NOT_FOUND", ""


def scenario_concurrency(c: Client, sessions: int = 500, threads: int = 16) -> tuple:
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        made = list(pool.map(lambda _: c.make(), range(sessions)))
        created = time.monotonic()
        bodies = [sealed_answer(m, ["family_name", "age_over_21"]) for m in made]
        built = time.monotonic()
        futures = []
        for m, body in zip(made, bodies):
            # Both answers of a session are in flight together.
            futures.append((m.session_id, pool.submit(c.verify, m.session_id, body), pool.submit(c.verify, m.session_id, body)))
        outcomes: dict[tuple, int] = {}
        for session_id, first, second in futures:
            pair = tuple(sorted((first.result()[0], second.result()[0])))
            outcomes[pair] = outcomes.get(pair, 0) + 1
    done = time.monotonic()
    expect(outcomes == {(200, 409): sessions}, f"per-session outcomes {outcomes}")
    return 200, None, (f"{sessions} sessions from {threads} threads, each verified exactly once (the other answer 409); "
                       f"create {created - started:.1f}s, build {built - created:.1f}s, verify {done - built:.1f}s")


SCENARIOS = {
    "request-shape": scenario_request_shape,
    "custom-request": scenario_custom_request,
    "origin-not-allowed": scenario_origin_not_allowed,
    "verified": scenario_verified,
    "replay": scenario_replay,
    "declined": scenario_declined,
    "wrong-origin": scenario_wrong_origin,
    "tampered-ciphertext": scenario_tampered_ciphertext,
    "other-session-key": scenario_other_session_key,
    "element-not-requested": scenario_element_not_requested,
    "malformed-response": scenario_malformed_response,
    "unknown-session": scenario_unknown_session,
    "concurrency": scenario_concurrency,
}


# --------------------------------------------------------------------------------------------------
# Self-test against the published ISO reference vector (no service needed)
# --------------------------------------------------------------------------------------------------

def self_test() -> int:
    reference = TV.parent.parent / "shared" / "vectors" / "annex-c" / "annexc-iso-reference"
    if reference.exists():
        read = lambda name: (reference / name).read_text().strip()  # noqa: E731
        transcript = transcript_for(read("encryption_info.b64url"), read("origin.txt"))
        assert transcript.hex() == read("session_transcript.cbor.hex"), "transcript differs from the reference"
        key = ec.derive_private_key(int(read("recipient_private_key_d.hex"), 16), ec.SECP256R1())
        response = cbor2.loads(b64url_strict(read("encrypted_response.b64url"), "response"))
        context = SUITE.create_recipient_context(response[1]["enc"], KEMKey.from_pyca_cryptography_key(key),
                                                 info=transcript)
        plaintext = context.open(response[1]["cipherText"], aad=b"")
        assert plaintext.hex() == read("device_response.derived.cbor.hex"), "plaintext differs from the reference"
        print("reference vector: transcript and HPKE open match")
    key = ec.generate_private_key(ec.SECP256R1())
    transcript = transcript_for("gmVkY2Fwaa", ORIGIN)
    sealed = cbor2.loads(b64url_strict(seal(key.public_key(), transcript, b"hello"), "sealed"))
    context = SUITE.create_recipient_context(sealed[1]["enc"], KEMKey.from_pyca_cryptography_key(key), info=transcript)
    assert context.open(sealed[1]["cipherText"], aad=b"") == b"hello"
    check_well_formed(cbor2.dumps({"a": 1, "b": [1, 2]}), "sample")
    try:
        check_well_formed(bytes.fromhex("a2616101616102"), "duplicate")
        raise AssertionError("a duplicate key passed")
    except Failure:
        pass
    print("seal/open round trip and strict CBOR checks ok")
    return 0


def bench_bodies(c: Client, count: int, out: Path, threads: int = 8) -> int:
    """Makes `count` sessions and writes one /v1/web/verify body per line (each valid once), for wrk."""
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        made = list(pool.map(lambda _: c.make(), range(count)))
    with out.open("w") as file:
        for m in made:
            file.write(json.dumps({"sessionId": m.session_id, "response": sealed_answer(m, ["family_name", "age_over_21"])}) + "\n")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url")
    parser.add_argument("--reader-root", default=str(TV / "demo" / "reader-root.pem"))
    parser.add_argument("--mode", choices=["readerAuth", "readerAuthAll", "both"], default="both")
    parser.add_argument("--scenarios", help="comma-separated; default all")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--issuer", choices=sorted(ISSUERS), default="test",
                        help="document signer: test (TestVectors/pki) or demo (the demo configuration's)")
    parser.add_argument("--bench-bodies", type=int, metavar="N", help="write N one-use verify bodies to --out and exit")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    global ISSUER
    ISSUER = ISSUERS[args.issuer]()
    if args.self_test:
        return self_test()
    if not args.base_url:
        parser.error("--base-url is required")
    root = x509.load_pem_x509_certificate(Path(args.reader_root).read_bytes())
    client = Client(args.base_url, args.mode, root)
    if args.bench_bodies:
        if not args.out:
            parser.error("--bench-bodies needs --out")
        return bench_bodies(client, args.bench_bodies, args.out)
    names = args.scenarios.split(",") if args.scenarios else list(SCENARIOS)
    passed = failed = 0
    for name in names:
        try:
            status, code, detail = SCENARIOS[name](client)
            line = {"scenario": name, "ok": True, "status": status, "code": code, "detail": detail}
            passed += 1
        except Exception as error:  # a scenario's failure is reported, the others still run
            line = {"scenario": name, "ok": False, "status": None, "code": None,
                    "detail": f"{type(error).__name__}: {error}"}
            failed += 1
        print(json.dumps(line), flush=True)
    print(json.dumps({"summary": {"passed": passed, "failed": failed}}), flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
