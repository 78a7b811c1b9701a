#!/usr/bin/env python3
"""An independent ISO/IEC 18013-7 Annex C wallet ("org-iso-mdoc" over the W3C Digital Credentials API) that tests
verifierd's web flow end to end. TEST-ONLY: every key it uses is a public test key; never point it at anything real.

It plays the browser and the mdoc holder against a running verifierd:

  1. POST /v1/web/requests, then checks by itself what the service sent: base64url without padding, the
     EncryptionInfo shape (nonce of at least 16 bytes, a P-256 recipient key), deterministic CBOR (RFC 8949 4.2.1:
     shortest heads, definite lengths, map keys in bytewise order of their encodings, hence no duplicate keys, no
     trailing bytes), itemsRequest as tag 24, the requested elements, and the reader signatures for the configured
     mode (readerAuth over ReaderAuthentication, readerAuthAll over ReaderAuthenticationAll). The reader
     certificate must hold a P-256 key and EKU 1.0.18013.5.1.6, its authority key identifier must be the subject
     key identifier of the reader root given with --reader-root, and the root's key must verify its signature.
  2. Issues an mDL under the committed test document signer (TestVectors/pki/ds-p256.pem, chaining to
     TestVectors/pki/iaca-p256.pem) with a device signature over the dcapi SessionTranscript
     [null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]], seals the bare DeviceResponse with HPKE
     (RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, info = transcript, empty aad) to
     the session's recipient key, and POSTs /v1/web/verify as ["dcapi", {"enc", "cipherText"}].

Only cbor2, cryptography and pyhpke are used (plus helpers of generate.py in this folder); nothing of verifierd.

Run it against a service that trusts TestVectors/pki/iaca-p256.pem, allows the origins https://shop.example and
https://other.example, and whose clock lies inside the test certificates' validity (the tests fix 2030-01-01):

    python3 TestVectors/generator/web_wallet.py --base-url http://127.0.0.1:8080 \\
        --reader-root TestVectors/demo/reader-root.pem --mode both [--scenarios verified,replay,...]

--mode is what the service signs: readerAuth, readerAuthAll or both. The wallet prints one JSON line per scenario,
{"scenario", "ok", "status", "code", "detail"}, then {"summary": {"passed", "failed"}}, and exits 0 only when every
scenario met its expectation. Every HTTP call has a 30 s timeout.

For one request made by hand (README's walk-through), it answers what POST /v1/web/requests returned and prints the
body for POST /v1/web/verify, {"sessionId", "response"}, without contacting the service itself:

    python3 TestVectors/generator/web_wallet.py --issuer demo --present web-request.json [--origin https://shop.example]

Without a service:

    python3 TestVectors/generator/web_wallet.py --self-test

checks the transcript and HPKE code against the published ISO Annex C reference vector
(../shared/vectors/annex-c/annexc-iso-reference, or --reference-dir), the request checks against requests signed
here in all three modes (and that they reject tampered ones), the strict CBOR checks, and a seal/open round trip
whose DeviceResponse generate.py's MiniVerifier accepts.
"""

from __future__ import annotations

import argparse
import base64
import concurrent.futures
import datetime as dt
import hashlib
import json
import math
import secrets
import struct
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402

TV = Path(__file__).resolve().parent.parent  # TestVectors/
REFERENCE_DIR = g.SHARED_VECTORS / "annex-c" / "annexc-iso-reference"
SUITE = CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)
READER_EKU = x509.ObjectIdentifier("1.0.18013.5.1.6")
ORIGIN = "https://shop.example"
OTHER_ORIGIN = "https://other.example"
MODES = ("readerAuth", "readerAuthAll", "both")
HTTP_TIMEOUT = 30
CONCURRENCY_BUDGET = 600  # seconds for the whole concurrency scenario
B64URL_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

# Values the test holder discloses (the issuer signs exactly the disclosed elements).
VALUES: dict[str, Any] = {
    "family_name": "Mustermann",
    "given_name": "Erika",
    "birth_date": CBORTag(1004, "1971-09-01"),
    "age_over_21": True,
    "age_over_18": True,
    "document_number": "D1234567",
    "issuing_country": "US",
}
DEFAULT_ELEMENTS = ["family_name", "given_name", "birth_date", "age_over_21"]
DEFAULT_REQUEST = {g.MDL_DOCTYPE: {g.MDL_NS: {e: False for e in DEFAULT_ELEMENTS}}}


class Failure(Exception):
    """A check or a scenario's expectation failed; carries the HTTP status and code seen, if any."""

    def __init__(self, message: str, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def expect(condition: bool, message: str, status: int | None = None, code: str | None = None) -> None:
    if not condition:
        raise Failure(message, status, code)


# --------------------------------------------------------------------------------------------------
# Encodings and strict CBOR checks
# --------------------------------------------------------------------------------------------------

def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_strict(text: Any, name: str) -> bytes:
    """base64url without padding (no '=', '+', '/'), canonical (unused trailing bits zero)."""
    expect(isinstance(text, str) and text != "", f"{name} is not a non-empty string")
    bad = set(text) - B64URL_ALPHABET
    expect(not bad, f"{name} holds characters outside base64url without padding: {sorted(bad)}")
    expect(len(text) % 4 != 1, f"{name} has an impossible base64url length {len(text)}")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    expect(b64url(data) == text, f"{name} is not canonical base64url (non-zero trailing bits)")
    return data


def _preferred_float(raw: bytes, width: int) -> bool:
    """RFC 8949 4.2.1 / 4.2.2: a float is in its shortest form that keeps the value (NaN only as f97e00)."""
    value = struct.unpack({2: ">e", 4: ">f", 8: ">d"}[width], raw)[0]
    if math.isnan(value):
        return width == 2 and raw == b"\x7e\x00"
    for shorter, fmt in ((2, ">e"), (4, ">f")):
        if shorter >= width:
            break
        try:
            if struct.unpack(fmt, struct.pack(fmt, value))[0] == value:
                return False
        except OverflowError:
            continue
    return True


def check_deterministic(data: bytes, name: str) -> None:
    """Walks the raw bytes of exactly one CBOR item and demands RFC 8949 4.2.1 core deterministic encoding:
    well-formed, definite lengths, shortest heads and floats, map keys strictly ascending by their encoded bytes
    (so no duplicate keys, which cbor2 alone would silently merge), and no trailing bytes. Embedded tag-24 byte
    strings are not entered; callers check those separately."""

    def head(i: int) -> tuple[int, int, int, int]:
        expect(i < len(data), f"{name}: truncated at offset {i}")
        major, info = data[i] >> 5, data[i] & 0x1F
        if info < 24:
            return major, info, info, i + 1
        expect(info <= 27, f"{name}: indefinite length or reserved head 0x{data[i]:02x} at offset {i}")
        n = 1 << (info - 24)
        expect(i + 1 + n <= len(data), f"{name}: truncated head at offset {i}")
        arg = int.from_bytes(data[i + 1:i + 1 + n], "big")
        if major != 7:
            minimum = 24 if info == 24 else 1 << (8 * (n // 2))
            expect(arg >= minimum, f"{name}: head at offset {i} is not in its shortest form")
        return major, info, arg, i + 1 + n

    def item(i: int, depth: int) -> int:
        expect(depth <= 64, f"{name}: nested deeper than 64")
        start = i
        major, info, arg, i = head(i)
        if major in (2, 3):
            expect(i + arg <= len(data), f"{name}: truncated string at offset {start}")
            if major == 3:
                try:
                    data[i:i + arg].decode("utf-8")
                except UnicodeDecodeError:
                    raise Failure(f"{name}: text string at offset {start} is not UTF-8") from None
            return i + arg
        if major == 4:
            for _ in range(arg):
                i = item(i, depth + 1)
            return i
        if major == 5:
            previous = None
            for _ in range(arg):
                key_start = i
                i = item(i, depth + 1)
                key = data[key_start:i]
                if previous is not None:
                    expect(key != previous, f"{name}: duplicate map key {key.hex()} at offset {key_start}")
                    expect(key > previous, f"{name}: map key {key.hex()} at offset {key_start} is not in "
                                           f"bytewise order after {previous.hex()}")
                previous = key
                i = item(i, depth + 1)
            return i
        if major == 6:
            return item(i, depth + 1)
        if major == 7:
            if info == 24:
                expect(arg >= 32, f"{name}: simple value {arg} in two bytes at offset {start}")
            elif info in (25, 26, 27):
                width = 1 << (info - 24)
                expect(_preferred_float(data[start + 1:i], width), f"{name}: float at offset {start} is not in "
                                                                   f"its shortest form")
        return i

    end = item(0, 0)
    expect(end == len(data), f"{name}: {len(data) - end} trailing bytes")


def decode_strict(data: bytes, name: str) -> Any:
    """Deterministic-encoding check, then decode exactly one item (trailing bytes are an error)."""
    check_deterministic(data, name)
    try:
        return g.strict_loads(data)
    except Exception as error:  # noqa: BLE001 - any decoder complaint is a finding
        raise Failure(f"{name}: does not decode: {error}") from None


def embedded(value: Any, name: str) -> Any:
    """A #6.24(bstr .cbor X) item: checks the tag, the embedded encoding, and returns X."""
    expect(isinstance(value, CBORTag) and value.tag == 24 and isinstance(value.value, bytes),
           f"{name} is not tag 24 over a byte string")
    return decode_strict(value.value, name)


def transcript_for(encryption_info: str, origin: str) -> bytes:
    """SessionTranscript = [null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]]: a bare array, 44 bytes.
    encryptionInfo is the base64url string exactly as the service sent it."""
    info_hash = hashlib.sha256(cbor2.dumps([encryption_info, origin])).digest()
    transcript = cbor2.dumps([None, None, ["dcapi", info_hash]])
    expect(len(transcript) == 44, f"transcript is {len(transcript)} bytes, not 44")
    return transcript


# --------------------------------------------------------------------------------------------------
# Reader authentication
# --------------------------------------------------------------------------------------------------

def reader_authentication_bytes(transcript: bytes, items_request: CBORTag) -> bytes:
    """#6.24(bstr .cbor ["ReaderAuthentication", SessionTranscript, ItemsRequestBytes]); the transcript is embedded
    as an item, the tag-24 ItemsRequestBytes exactly as received (cbor2 re-encodes CBORTag(24, bytes) byte-exact)."""
    return cbor2.dumps(CBORTag(24, cbor2.dumps(["ReaderAuthentication", cbor2.loads(transcript), items_request])))


def reader_authentication_all_bytes(transcript: bytes, items_requests: list[CBORTag],
                                    device_request_info: CBORTag | None) -> bytes:
    """#6.24(bstr .cbor ["ReaderAuthenticationAll", SessionTranscript, [ItemsRequestBytes...],
    DeviceRequestInfoBytes / null])."""
    return cbor2.dumps(CBORTag(24, cbor2.dumps(["ReaderAuthenticationAll", cbor2.loads(transcript),
                                                list(items_requests), device_request_info])))


def check_reader_certificate(der: bytes, root: x509.Certificate) -> x509.Certificate:
    """P-256 key, EKU 1.0.18013.5.1.6, AKI keyIdentifier = the root's SKI, issued and signed by the root."""
    try:
        leaf = x509.load_der_x509_certificate(der)
    except ValueError as error:
        raise Failure(f"the reader certificate does not parse: {error}") from None
    key = leaf.public_key()
    expect(isinstance(key, ec.EllipticCurvePublicKey) and key.curve.name == "secp256r1",
           "the reader certificate's key is not P-256")
    try:
        eku = leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    except x509.ExtensionNotFound:
        raise Failure("the reader certificate has no extended key usage") from None
    expect(READER_EKU in eku, f"the reader certificate's EKU {[o.dotted_string for o in eku]} lacks 1.0.18013.5.1.6")
    try:
        aki = leaf.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
    except x509.ExtensionNotFound:
        raise Failure("the reader certificate has no authority key identifier") from None
    try:
        ski = root.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
    except x509.ExtensionNotFound:
        raise Failure("the reader root (--reader-root) has no subject key identifier") from None
    expect(aki is not None and aki == ski,
           f"the reader certificate's AKI {aki.hex() if aki else None} is not the root's SKI {ski.hex()}")
    try:
        leaf.verify_directly_issued_by(root)
    except (ValueError, TypeError, InvalidSignature) as error:
        raise Failure(f"the reader certificate is not issued by the reader root: {error or 'bad signature'}") from None
    return leaf


def check_sign1(sign1: Any, payload: bytes, root: x509.Certificate, what: str) -> None:
    """[protected bstr = {1: -7}, {33: x5chain}, null, 64-byte r||s] over the detached `payload`, ES256."""
    expect(isinstance(sign1, list) and len(sign1) == 4, f"{what} is not a 4-element COSE_Sign1 array")
    protected, unprotected, body, signature = sign1
    expect(isinstance(protected, bytes), f"{what}: protected header is not a byte string")
    expect(decode_strict(protected, f"{what} protected header") == {1: -7},
           f"{what}: protected header is not {{1: -7}}")
    expect(isinstance(unprotected, dict) and 33 in unprotected, f"{what}: no x5chain (33) in the unprotected header")
    expect(body is None, f"{what}: payload is not detached (null)")
    chain = unprotected[33]
    ders = [chain] if isinstance(chain, bytes) else chain
    expect(isinstance(ders, list) and len(ders) > 0 and all(isinstance(d, bytes) for d in ders),
           f"{what}: x5chain is neither a bstr nor a non-empty array of bstr")
    leaf = check_reader_certificate(ders[0], root)
    expect(isinstance(signature, bytes) and len(signature) == 64, f"{what}: signature is not 64 bytes r||s")
    to_be_signed = cbor2.dumps(["Signature1", protected, b"", payload])
    expect(g.ecdsa_verify_raw(leaf.public_key(), signature, to_be_signed, hashes.SHA256()),
           f"{what}: the ES256 signature does not verify with the reader certificate's key")


# --------------------------------------------------------------------------------------------------
# What /v1/web/requests sends, checked
# --------------------------------------------------------------------------------------------------

@dataclass
class MadeRequest:
    session_id: str
    origin: str
    encryption_info: str  # base64url text exactly as sent
    device_request: str
    transcript: bytes
    nonce: bytes
    recipient: ec.EllipticCurvePublicKey
    requested: dict[str, dict[str, dict[str, bool]]]
    version: str
    signatures: list[str] = field(default_factory=list)


def check_encryption_info(text: str) -> tuple[bytes, ec.EllipticCurvePublicKey]:
    """["dcapi", {"nonce": bstr >= 16, "recipientPublicKey": {1: 2, -1: 1, -2: x, -3: y}}]."""
    info = decode_strict(b64url_strict(text, "encryptionInfo"), "encryptionInfo")
    expect(isinstance(info, list) and len(info) == 2 and info[0] == "dcapi" and isinstance(info[1], dict),
           'encryptionInfo is not ["dcapi", {...}]')
    expect(set(info[1]) == {"nonce", "recipientPublicKey"}, f"encryptionInfo keys {sorted(info[1])}")
    nonce, key = info[1]["nonce"], info[1]["recipientPublicKey"]
    expect(isinstance(nonce, bytes) and len(nonce) >= 16, "the nonce is not a byte string of >= 16 bytes")
    expect(isinstance(key, dict) and set(key) == {1, -1, -2, -3} and key[1] == 2 and key[-1] == 1,
           f"recipientPublicKey is not an EC2 P-256 COSE_Key: {key}")
    expect(isinstance(key[-2], bytes) and len(key[-2]) == 32 and isinstance(key[-3], bytes) and len(key[-3]) == 32,
           "recipientPublicKey coordinates are not 32-byte strings")
    try:  # cryptography refuses points not on the curve
        recipient = ec.EllipticCurvePublicNumbers(int.from_bytes(key[-2], "big"), int.from_bytes(key[-3], "big"),
                                                  ec.SECP256R1()).public_key()
    except ValueError:
        raise Failure("recipientPublicKey is not a point on P-256") from None
    return nonce, recipient


def check_device_request(text: str, transcript: bytes, mode: str | None, root: x509.Certificate | None
                         ) -> tuple[dict, str, list[str]]:
    """The DeviceRequest: shape, encoding, requested elements and reader signatures for `mode` (None: unsigned,
    only for the self-test's reference vector). Returns (requested, version, what was verified)."""
    request = decode_strict(b64url_strict(text, "deviceRequest"), "deviceRequest")
    expect(isinstance(request, dict), "DeviceRequest is not a map")
    unknown = set(request) - {"version", "docRequests", "readerAuthAll", "deviceRequestInfo"}
    expect(not unknown, f"DeviceRequest has unexpected keys {sorted(map(str, unknown))}")
    version = request.get("version")
    expect(version in ("1.0", "1.1"), f"DeviceRequest version {version!r}")
    if "readerAuthAll" in request or "deviceRequestInfo" in request:
        expect(version == "1.1", f"version {version!r} with readerAuthAll/deviceRequestInfo (1.1 required)")
    doc_requests = request.get("docRequests")
    expect(isinstance(doc_requests, list) and doc_requests, "docRequests is not a non-empty array")

    info_item = request.get("deviceRequestInfo")
    if info_item is not None:
        info = embedded(info_item, "deviceRequestInfo")
        expect(isinstance(info, dict) and isinstance(info.get("useCases", []), list),
               "DeviceRequestInfo is not a map with a useCases array")

    requested: dict[str, dict[str, dict[str, bool]]] = {}
    items_requests: list[CBORTag] = []
    verified: list[str] = []
    for index, doc_request in enumerate(doc_requests):
        where = f"docRequests[{index}]"
        expect(isinstance(doc_request, dict) and "itemsRequest" in doc_request, f"{where} has no itemsRequest")
        expect(set(doc_request) <= {"itemsRequest", "readerAuth"}, f"{where} has keys {sorted(doc_request)}")
        items_request = doc_request["itemsRequest"]
        items = embedded(items_request, f"{where}.itemsRequest")
        expect(isinstance(items, dict) and isinstance(items.get("docType"), str)
               and isinstance(items.get("nameSpaces"), dict) and set(items) <= {"docType", "nameSpaces", "requestInfo"},
               f"{where}.itemsRequest is not {{docType, nameSpaces}}: {items}")
        expect(items["docType"] not in requested, f"docType {items['docType']} requested twice")
        for ns, elements in items["nameSpaces"].items():
            expect(isinstance(ns, str) and isinstance(elements, dict) and elements
                   and all(isinstance(e, str) and isinstance(v, bool) for e, v in elements.items()),
                   f"{where}: namespace {ns!r} is not {{element: intentToRetain}}")
        requested[items["docType"]] = items["nameSpaces"]
        items_requests.append(items_request)
        if mode in ("readerAuth", "both"):
            expect("readerAuth" in doc_request, f"{where} has no readerAuth (mode {mode})")
            check_sign1(doc_request["readerAuth"], reader_authentication_bytes(transcript, items_request), root,
                        f"{where}.readerAuth")
            verified.append(f"{where}.readerAuth")
        else:
            expect("readerAuth" not in doc_request, f"{where} carries readerAuth in mode {mode}")

    if mode in ("readerAuthAll", "both"):
        signatures = request.get("readerAuthAll")
        expect(isinstance(signatures, list) and signatures, f"readerAuthAll is missing (mode {mode})")
        payload = reader_authentication_all_bytes(transcript, items_requests, info_item)
        for index, sign1 in enumerate(signatures):
            check_sign1(sign1, payload, root, f"readerAuthAll[{index}]")
            verified.append(f"readerAuthAll[{index}]")
    else:
        expect("readerAuthAll" not in request, f"readerAuthAll present in mode {mode}")
    return requested, version, verified


def check_made_request(answer: Any, origin: str, mode: str | None, root: x509.Certificate | None) -> MadeRequest:
    """A 201 answer of /v1/web/requests, every byte format checked."""
    expect(isinstance(answer, dict), "the answer is not a JSON object")
    session_id, expires_at, request = answer.get("sessionId"), answer.get("expiresAt"), answer.get("request")
    expect(isinstance(session_id, str) and session_id, "sessionId is not a non-empty string")
    try:
        expiry = dt.datetime.fromisoformat(str(expires_at).replace("Z", "+00:00"))
    except ValueError:
        raise Failure(f"expiresAt {expires_at!r} is not RFC 3339") from None
    expect(expiry.tzinfo is not None and "T" in str(expires_at), f"expiresAt {expires_at!r} is not RFC 3339")
    expect(isinstance(request, dict) and request.get("protocol") == "org-iso-mdoc"
           and isinstance(request.get("data"), dict)
           and set(request["data"]) == {"deviceRequest", "encryptionInfo"},
           "request is not {protocol: org-iso-mdoc, data: {deviceRequest, encryptionInfo}}")
    encryption_info, device_request = request["data"]["encryptionInfo"], request["data"]["deviceRequest"]
    nonce, recipient = check_encryption_info(encryption_info)
    transcript = transcript_for(encryption_info, origin)
    requested, version, signatures = check_device_request(device_request, transcript, mode, root)
    return MadeRequest(session_id, origin, encryption_info, device_request, transcript, nonce, recipient, requested,
                       version, signatures)


# --------------------------------------------------------------------------------------------------
# The holder: document, DeviceResponse, HPKE sealing
# --------------------------------------------------------------------------------------------------

class _Entry:
    def __init__(self, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> None:
        self.cert, self.key = cert, key


class Issuer:
    """A committed test document signer, in the shape generate.issue_document expects (.entries["ds-p256"])."""

    def __init__(self, certificate: Path, key: Path) -> None:
        cert = x509.load_pem_x509_certificate(certificate.read_bytes())
        private_key = serialization.load_pem_private_key(key.read_bytes(), None)
        self.entries = {"ds-p256": _Entry(cert, private_key)}


ISSUERS: dict[str, Callable[[], Issuer]] = {
    # under TestVectors/pki/iaca-p256.pem, what the tests trust
    "test": lambda: Issuer(TV / "pki" / "ds-p256.pem", TV / "pki" / "keys" / "ds-p256.pem"),
    # under the demo IACA (config/verifierd.json trusts it), for benchmarks against the demo configuration
    "demo": lambda: Issuer(TV / "demo" / "issuer" / "demo-ds.pem", TV / "demo" / "issuer" / "demo-ds.key.pem"),
}
_issuer: Issuer | None = None


def issuer() -> Issuer:
    global _issuer
    if _issuer is None:
        _issuer = ISSUERS["test"]()
    return _issuer


def device_response(elements: list[str], transcript: bytes, doc_type: str = g.MDL_DOCTYPE) -> bytes:
    """A DeviceResponse with one mDL holding `elements` (values from VALUES), device-signed over `transcript`."""
    spec = g.DocSpec("web-wallet", ds="ds-p256", elements=[(e, VALUES[e]) for e in elements], transcript=transcript,
                     doc_type=doc_type, device_auth="signature")
    document, _ = g.issue_document(spec, issuer())
    return g.device_response([document])


def seal(recipient: ec.EllipticCurvePublicKey, transcript: bytes, plaintext: bytes, flip: bool = False) -> str:
    """HPKE base mode to `recipient`, info = transcript, aad empty; the b64url ["dcapi", {enc, cipherText}]."""
    enc, context = SUITE.create_sender_context(KEMKey.from_pyca_cryptography_key(recipient), info=transcript)
    ciphertext = bytearray(context.seal(plaintext, aad=b""))
    if flip:
        ciphertext[len(ciphertext) // 2] ^= 0x01
    return b64url(cbor2.dumps(["dcapi", {"enc": enc, "cipherText": bytes(ciphertext)}]))


def open_sealed(response: str, key: ec.EllipticCurvePrivateKey, transcript: bytes) -> bytes:
    """The recipient side (self-test only): raises if the envelope does not open."""
    envelope = g.strict_loads(b64url_strict(response, "response"))
    context = SUITE.create_recipient_context(envelope[1]["enc"], KEMKey.from_pyca_cryptography_key(key),
                                             info=transcript)
    return context.open(envelope[1]["cipherText"], aad=b"")


def sealed_answer(made: MadeRequest, elements: list[str], origin: str | None = None, flip: bool = False) -> str:
    """The `response` string for `made`; `origin` other than the session's gives a transcript the service won't use."""
    transcript = transcript_for(made.encryption_info, origin or made.origin)
    return seal(made.recipient, transcript, device_response(elements, transcript), flip)


# --------------------------------------------------------------------------------------------------
# HTTP
# --------------------------------------------------------------------------------------------------

@dataclass
class Reply:
    status: int
    body: Any
    text: str
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)  # lower-case names

    @property
    def retry_after(self) -> int | None:
        """Retry-After in whole seconds (RFC 9110 10.2.3), or None when absent or not delay-seconds."""
        value = self.headers.get("retry-after", "")
        return int(value) if value.isdigit() else None

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None

    def fail(self, message: str) -> Failure:
        return Failure(f"{message}; got {self.status} {self.text[:400]}", self.status, self.code)


# The integrator token of the demo configuration (config/verifierd.json); --token gives another.
DEMO_INTEGRATOR_TOKEN = "demo-integrator-token-TEST-ONLY"


class Client:
    def __init__(self, base_url: str, mode: str, root: x509.Certificate, token: str = DEMO_INTEGRATOR_TOKEN) -> None:
        self.base_url, self.mode, self.root, self.token = base_url.rstrip("/"), mode, root, token

    def post(self, path: str, body: dict) -> Reply:
        request = urllib.request.Request(self.base_url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Accept": "application/json",
                                                  "Authorization": "Bearer " + self.token})
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
                status, raw, content_type = response.status, response.read(), response.headers.get("Content-Type", "")
                headers = {k.lower(): v for k, v in response.headers.items()}
        except urllib.error.HTTPError as error:
            status, content_type = error.code, error.headers.get("Content-Type", "")
            headers = {k.lower(): v for k, v in error.headers.items()} if error.headers else {}
            try:
                raw = error.read()
            except OSError:
                raw = b""
        except (urllib.error.URLError, OSError) as error:  # refused, reset, timed out
            raise Failure(f"POST {path}: {error}") from None
        text = raw.decode("utf-8", "replace")
        try:
            parsed = json.loads(text) if text else {}
        except json.JSONDecodeError:
            parsed = {}
        return Reply(status, parsed, text, content_type, headers)

    def make(self, origin: str = ORIGIN, documents: list | None = None) -> MadeRequest:
        body: dict[str, Any] = {"origin": origin}
        if documents is not None:
            body["documents"] = documents
        reply = self.post("/v1/web/requests", body)
        if reply.status != 201:
            raise reply.fail("/v1/web/requests did not answer 201")
        return check_made_request(reply.body, origin, self.mode, self.root)

    def verify(self, session_id: str, response: str) -> Reply:
        return self.post("/v1/web/verify", {"sessionId": session_id, "response": response})


def expect_problem(reply: Reply, status: int, code: str) -> None:
    if reply.status != status or reply.code != code:
        raise reply.fail(f"expected {status} {code}")
    if not reply.content_type.startswith("application/problem+json"):
        raise reply.fail(f"{code} came as {reply.content_type!r}, not application/problem+json")


def expect_report(reply: Reply, status: int, code: str | None) -> dict:
    """A verification report: 200 verified, or 422 with `code` as the first failing code."""
    body = reply.body if isinstance(reply.body, dict) else {}
    if reply.status != status or body.get("verified") is not (status == 200) or (code and body.get("code") != code):
        raise reply.fail(f"expected {status} {'verified' if status == 200 else code}")
    return body


def only_document(reply: Reply) -> dict:
    documents = reply.body.get("documents") if isinstance(reply.body, dict) else None
    if not (isinstance(documents, list) and len(documents) == 1 and isinstance(documents[0], dict)):
        raise reply.fail("expected exactly one document in the report")
    return documents[0]


def check_of(document: dict, check_id: str) -> dict:
    return next((c for c in document.get("checks", []) if isinstance(c, dict) and c.get("id") == check_id), {})


def expect_verified_document(reply: Reply, elements: list[str]) -> dict:
    """200, verified, one mDL whose claims are exactly the disclosed values and where no check failed."""
    expect_report(reply, 200, None)
    document = only_document(reply)
    expected = g.json_claims({g.MDL_NS: {e: VALUES[e] for e in elements}})
    if document.get("docType") != g.MDL_DOCTYPE or document.get("verified") is not True:
        raise reply.fail("the document is not a verified mDL")
    if document.get("claims") != expected:
        raise reply.fail(f"claims differ from {expected}")
    failed = [c for c in document.get("checks", []) if isinstance(c, dict) and c.get("outcome") == "failed"]
    if failed:
        raise reply.fail(f"verified although checks failed: {failed}")
    return document


# --------------------------------------------------------------------------------------------------
# Scenarios: each returns (status, code, detail) or raises Failure
# --------------------------------------------------------------------------------------------------

def scenario_request_shape(c: Client) -> tuple:
    # Exactly two sessions, neither used (the Swift interop test counts them).
    first, second = c.make(), c.make()
    expect(first.requested == DEFAULT_REQUEST, f"the default request is {first.requested}")
    expect(first.session_id != second.session_id, "two sessions share a sessionId")
    expect(first.nonce != second.nonce, "two sessions share a nonce")
    expect(first.recipient.public_numbers() != second.recipient.public_numbers(), "two sessions share a recipient key")
    expect(first.encryption_info != second.encryption_info, "two sessions share an encryptionInfo")
    return 201, None, (f"mode {c.mode}, version {first.version}: {', '.join(first.signatures)} verified; reader cert "
                       f"EKU and AKI=root SKI ok; nonce {len(first.nonce)} B, fresh per session; deterministic CBOR; "
                       f"base64url without padding")


def scenario_custom_request(c: Client) -> tuple:
    asked = {g.MDL_NS: {"family_name": True, "document_number": False}}
    made = c.make(documents=[{"docType": g.MDL_DOCTYPE, "elements": asked}])
    expect(made.requested == {g.MDL_DOCTYPE: asked}, f"ItemsRequest holds {made.requested}, asked {asked}")
    reply = c.verify(made.session_id, sealed_answer(made, ["family_name", "document_number"]))
    document = expect_verified_document(reply, ["family_name", "document_number"])
    if "notReturned" in document:
        raise reply.fail("notReturned present although everything came back")
    return reply.status, None, "intentToRetain true/false carried in the ItemsRequest; both values verified"


def scenario_origin_not_allowed(c: Client) -> tuple:
    reply = c.post("/v1/web/requests", {"origin": "https://evil.example"})
    expect_problem(reply, 400, "ORIGIN_NOT_ALLOWED")
    return reply.status, reply.code, "https://evil.example refused"


_verified_body: dict = {}


def scenario_verified(c: Client) -> tuple:
    made = c.make()
    response = sealed_answer(made, DEFAULT_ELEMENTS)
    reply = c.verify(made.session_id, response)
    document = expect_verified_document(reply, DEFAULT_ELEMENTS)
    if "notReturned" in document:
        raise reply.fail("notReturned present although everything came back")
    if check_of(document, "request.elements").get("outcome") != "passed":
        raise reply.fail("check request.elements did not pass")
    _verified_body.update({"sessionId": made.session_id, "response": response})
    return reply.status, None, "the 4 requested elements verified"


def scenario_replay(c: Client) -> tuple:
    if not _verified_body:  # run alone: make the first use here
        scenario_verified(c)
    reply = c.verify(_verified_body["sessionId"], _verified_body["response"])
    expect_problem(reply, 409, "SESSION_ALREADY_USED")
    return reply.status, reply.code, "the verified body a second time"


def scenario_declined(c: Client) -> tuple:
    made = c.make()
    reply = c.verify(made.session_id, sealed_answer(made, ["family_name", "age_over_21"]))
    document = expect_verified_document(reply, ["family_name", "age_over_21"])
    not_returned = document.get("notReturned")
    ok = (isinstance(not_returned, dict) and set(not_returned) == {g.MDL_NS}
          and isinstance(not_returned[g.MDL_NS], list)
          and sorted(not_returned[g.MDL_NS]) == ["birth_date", "given_name"])
    if not ok:
        raise reply.fail(f"notReturned is {not_returned!r}, expected given_name and birth_date")
    return reply.status, None, f"notReturned {not_returned}"


def scenario_wrong_origin(c: Client) -> tuple:
    made = c.make()
    reply = c.verify(made.session_id, sealed_answer(made, DEFAULT_ELEMENTS, origin=OTHER_ORIGIN))
    expect_report(reply, 422, "DECRYPTION_FAILED")
    again = c.verify(made.session_id, sealed_answer(made, DEFAULT_ELEMENTS))
    expect_problem(again, 409, "SESSION_ALREADY_USED")
    return reply.status, reply.code, f"transcript for {OTHER_ORIGIN} refused; a correct answer then gets 409"


def scenario_tampered_ciphertext(c: Client) -> tuple:
    made = c.make()
    reply = c.verify(made.session_id, sealed_answer(made, DEFAULT_ELEMENTS, flip=True))
    expect_report(reply, 422, "DECRYPTION_FAILED")
    return reply.status, reply.code, "one bit flipped in cipherText"


def scenario_other_session_key(c: Client) -> tuple:
    a, b = c.make(), c.make()
    reply = c.verify(a.session_id, sealed_answer(b, DEFAULT_ELEMENTS))
    expect_report(reply, 422, "DECRYPTION_FAILED")
    reply_b = c.verify(b.session_id, sealed_answer(b, DEFAULT_ELEMENTS))
    try:
        expect_verified_document(reply_b, DEFAULT_ELEMENTS)
    except Failure as error:
        raise Failure(f"session B afterwards: {error}", error.status, error.code) from None
    return reply.status, reply.code, "B's answer posted to A refused; B still verifies with a fresh answer"


def scenario_element_not_requested(c: Client) -> tuple:
    made = c.make()
    reply = c.verify(made.session_id, sealed_answer(made, DEFAULT_ELEMENTS + ["document_number"]))
    expect_report(reply, 422, "ELEMENT_NOT_REQUESTED")
    check = check_of(only_document(reply), "request.elements")
    if check.get("outcome") != "failed" or check.get("code") != "ELEMENT_NOT_REQUESTED":
        raise reply.fail(f"check request.elements is {check}")
    if VALUES["document_number"] in reply.text:
        raise reply.fail("the unrequested value D1234567 appears in the body")
    if "claims" in only_document(reply):
        raise reply.fail("a failed report carries claims")
    return reply.status, reply.code, "request.elements failed; D1234567 appears nowhere in the body"


def scenario_malformed_response(c: Client) -> tuple:
    made = c.make()
    reply = c.verify(made.session_id, b64url(cbor2.dumps(["dcapi", {"enc": b"\x00"}])))
    expect_problem(reply, 400, "ENVELOPE_MALFORMED")
    return reply.status, reply.code, '["dcapi", {"enc": h\'00\'}] refused'


def scenario_unknown_session(c: Client) -> tuple:
    # A session ID of the issued shape (43 base64url characters) that was never issued, with a well-formed envelope
    # so that only the session can be what is wrong.
    key = ec.generate_private_key(ec.SECP256R1())
    transcript = transcript_for(b64url(secrets.token_bytes(32)), ORIGIN)
    reply = c.verify(b64url(secrets.token_bytes(32)), seal(key.public_key(), transcript, g.device_response([])))
    expect_problem(reply, 404, "SESSION_NOT_FOUND")
    return reply.status, reply.code, "a random sessionId"


def scenario_concurrency(c: Client, sessions: int = 500, threads: int = 16) -> tuple:
    """500 sessions made from 16 threads; each answered twice with both requests in flight together: exactly one
    200 and one 409 per session."""
    started = time.monotonic()
    deadline = started + CONCURRENCY_BUDGET
    pool = concurrent.futures.ThreadPoolExecutor(threads)
    try:
        pilot = c.make()  # a service that does not answer fails here once, not 500 times
        made_futures = [pool.submit(c.make) for _ in range(sessions - 1)]
        done, pending = concurrent.futures.wait(made_futures, timeout=max(0.0, deadline - time.monotonic()))
        expect(not pending, f"creating {sessions} sessions took over {CONCURRENCY_BUDGET} s")
        made = [pilot] + [f.result() for f in made_futures]  # raises the first Failure, if any
        created = time.monotonic()
        bodies = [sealed_answer(m, ["family_name", "age_over_21"]) for m in made]
        built = time.monotonic()

        def attempt(session_id: str, response: str) -> tuple[int | None, str | None, bool]:
            try:
                reply = c.verify(session_id, response)
            except Failure as error:
                return None, str(error), False
            verified = isinstance(reply.body, dict) and reply.body.get("verified") is True
            return reply.status, reply.code, verified

        pairs = [(pool.submit(attempt, m.session_id, body), pool.submit(attempt, m.session_id, body))
                 for m, body in zip(made, bodies)]  # adjacent in the queue: the two answers run together
        everything = [f for pair in pairs for f in pair]
        done, pending = concurrent.futures.wait(everything, timeout=max(0.0, deadline - time.monotonic()))
        expect(not pending, f"{len(pending)} verify calls unfinished after {CONCURRENCY_BUDGET} s")
        finished = time.monotonic()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)

    outcomes: dict[str, int] = {}
    ok200 = ok409 = 0
    for first, second in pairs:
        results = sorted([first.result(), second.result()], key=lambda r: (r[0] is None, r[0] or 0))
        (s1, _, v1), (s2, code2, _) = results
        good = s1 == 200 and v1 and s2 == 409 and code2 == "SESSION_ALREADY_USED"
        key = "200+409" if good else f"{results[0][:2]}+{results[1][:2]}"
        outcomes[key] = outcomes.get(key, 0) + 1
        ok200 += s1 == 200 and v1
        ok409 += s2 == 409 and code2 == "SESSION_ALREADY_USED"
    detail = (f"{sessions} sessions from {threads} threads: {ok200} verified (200), {ok409} refused (409); "
              f"create {created - started:.1f}s, build {built - created:.1f}s, verify {finished - built:.1f}s, "
              f"total {finished - started:.1f}s")
    expect(outcomes == {"200+409": sessions}, f"per-session outcomes {outcomes}; {detail}", 200)
    return 200, None, detail


SCENARIOS: dict[str, Callable[[Client], tuple]] = {
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


def run_scenarios(client: Any, names: list[str], scenarios: dict[str, Callable[[Any], tuple]] | None = None) -> int:
    """Runs each named scenario, one JSON line each, then the summary; 0 only when all met their expectation."""
    scenarios = SCENARIOS if scenarios is None else scenarios
    passed = failed = 0
    for name in names:
        try:
            scenario = scenarios.get(name)
            expect(scenario is not None, f"unknown scenario {name!r}; known: {', '.join(scenarios)}")
            status, code, detail = scenario(client)
            line = {"scenario": name, "ok": True, "status": status, "code": code, "detail": detail}
            passed += 1
        except Exception as error:  # noqa: BLE001 - a scenario's failure is reported, the others still run
            line = {"scenario": name, "ok": False, "status": getattr(error, "status", None),
                    "code": getattr(error, "code", None),
                    "detail": str(error) if isinstance(error, Failure) else f"{type(error).__name__}: {error}"}
            failed += 1
        print(json.dumps(line), flush=True)
    print(json.dumps({"summary": {"passed": passed, "failed": failed}}), flush=True)
    return 0 if failed == 0 else 1


# --------------------------------------------------------------------------------------------------
# Self-test (no service): reference vector, requests signed here, CBOR checks, holder round trip
# --------------------------------------------------------------------------------------------------

def _raw_head(major: int, n: int) -> bytes:
    """A CBOR head written by hand (independent of cbor2), shortest form."""
    if n < 24:
        return bytes([major << 5 | n])
    for info, width in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * width):
            return bytes([major << 5 | info]) + n.to_bytes(width, "big")
    raise ValueError(n)


def _raw_tstr(text: str) -> bytes:
    return _raw_head(3, len(text.encode())) + text.encode()


def _raw_tag24(inner: bytes) -> bytes:
    return b"\xd8\x18" + _raw_head(2, len(inner)) + inner


def _fake_service_answer(mode: str | None, chain: tuple, requested: dict, origin: str = ORIGIN,
                         corrupt: str | None = None) -> tuple[dict, ec.EllipticCurvePrivateKey]:
    """What a conforming service would send, built here with hand-written byte concatenation for the signed
    payloads (so the checker's cbor2 construction is compared with something independent). `corrupt` breaks one
    thing: "signature", "padding", "order", "duplicate"."""
    _, _, leaf, leaf_key = chain
    recipient = ec.generate_private_key(ec.SECP256R1())
    info = ["dcapi", {"nonce": secrets.token_bytes(16), "recipientPublicKey": g.cose_key(recipient.public_key())}]
    info_text = b64url(cbor2.dumps(info, canonical=True))
    transcript = transcript_for(info_text, origin)
    leaf_der = leaf.public_bytes(serialization.Encoding.DER)

    def sign1(payload: bytes) -> list:
        protected = bytes.fromhex("a10126")  # {1: -7}
        to_be_signed = (b"\x84" + _raw_tstr("Signature1") + _raw_head(2, 3) + protected + b"\x40"
                        + _raw_head(2, len(payload)) + payload)
        signature = g.ecdsa_sign_raw(leaf_key, to_be_signed, hashes.SHA256())
        if corrupt == "signature":
            signature = signature[:-1] + bytes([signature[-1] ^ 1])
        return [protected, {33: leaf_der}, None, signature]

    # canonical=True sorts length-first, which equals bytewise order for these short text keys
    items_raw = [cbor2.dumps({"docType": d, "nameSpaces": ns}, canonical=True) for d, ns in requested.items()]
    doc_requests = []
    for raw in items_raw:
        doc_request: dict[str, Any] = {"itemsRequest": CBORTag(24, raw)}
        if mode in ("readerAuth", "both"):
            inner = b"\x83" + _raw_tstr("ReaderAuthentication") + transcript + _raw_tag24(raw)
            doc_request["readerAuth"] = sign1(_raw_tag24(inner))
        doc_requests.append(doc_request)
    device_request: dict[str, Any] = {"version": "1.0", "docRequests": doc_requests}
    if mode in ("readerAuthAll", "both"):
        info_raw = cbor2.dumps({"useCases": [{"mandatory": True, "documentSets": [[0]]}]}, canonical=True)
        inner = (b"\x84" + _raw_tstr("ReaderAuthenticationAll") + transcript
                 + _raw_head(4, len(items_raw)) + b"".join(_raw_tag24(r) for r in items_raw) + _raw_tag24(info_raw))
        device_request.update({"version": "1.1", "readerAuthAll": [sign1(_raw_tag24(inner))],
                               "deviceRequestInfo": CBORTag(24, info_raw)})
    request_bytes = cbor2.dumps(device_request, canonical=True)
    if corrupt == "order":  # "version" (0x67...) must precede "docRequests" (0x6b...)
        request_bytes = g.enc({k: device_request[k] for k in sorted(device_request, key=lambda k: k != "docRequests")})
    if corrupt == "duplicate":  # the same key twice, in an otherwise valid map
        version_pair = _raw_tstr("version") + _raw_tstr(device_request["version"])
        body = cbor2.dumps(device_request, canonical=True)
        request_bytes = _raw_head(5, len(device_request) + 1) + version_pair + body[1:]
    request_text = b64url(request_bytes) + ("=" if corrupt == "padding" else "")
    answer = {"sessionId": b64url(secrets.token_bytes(32)), "expiresAt": "2030-01-01T00:05:00Z",
              "request": {"protocol": "org-iso-mdoc", "data": {"deviceRequest": request_text,
                                                               "encryptionInfo": info_text}}}
    return answer, recipient


def _expect_failure(what: str, action: Callable[[], Any], needle: str) -> None:
    try:
        action()
    except Failure as error:
        if needle.lower() not in str(error).lower():
            raise AssertionError(f"{what}: failed for another reason: {error}") from None
        return
    raise AssertionError(f"{what}: was accepted")


def _self_test_reference(reference: Path) -> str:
    read = lambda name: (reference / name).read_text().strip()  # noqa: E731
    info_text = read("encryption_info.b64url")
    transcript = transcript_for(info_text, read("origin.txt"))
    if transcript.hex() != read("session_transcript.cbor.hex"):
        raise AssertionError("the transcript differs from the reference's session_transcript.cbor.hex")
    nonce, recipient = check_encryption_info(info_text)
    key = ec.derive_private_key(int(read("recipient_private_key_d.hex"), 16), ec.SECP256R1())
    if key.public_key().public_numbers() != recipient.public_numbers():
        raise AssertionError("the reference private key does not match its recipientPublicKey")
    plaintext = open_sealed(read("encrypted_response.b64url"), key, transcript)
    if plaintext.hex() != read("device_response.derived.cbor.hex"):
        raise AssertionError("the decrypted plaintext differs from device_response.derived.cbor.hex")
    requested, version, _ = check_device_request(read("device_request.b64url"), transcript, None, None)
    if requested != {g.MDL_DOCTYPE: {g.MDL_NS: {"family_name": False, "document_number": False}}} or version != "1.0":
        raise AssertionError(f"the reference DeviceRequest reads as {version} {requested}")
    # The reference wallet's answer opened with another origin's transcript must fail.
    try:
        open_sealed(read("encrypted_response.b64url"), key, transcript_for(info_text, "https://example.com/"))
        raise AssertionError("the reference opened with another transcript")
    except AssertionError:
        raise
    except Exception:  # noqa: BLE001 - the AEAD refuses, as it must
        pass
    return f"reference vector: transcript, encryptionInfo ({len(nonce)} B nonce), DeviceRequest and HPKE open match"


def _self_test_requests() -> str:
    chain = g.reader_auth_chain("web-wallet-self-test", "2024-01-01T00:00:00Z", "2124-01-01T00:00:00Z")
    other_root = g.reader_auth_chain("web-wallet-self-test-other", "2024-01-01T00:00:00Z", "2124-01-01T00:00:00Z")[0]
    root = chain[0]
    asked = {g.MDL_DOCTYPE: {g.MDL_NS: {"family_name": True, "given_name": False, "age_over_21": False}}}
    for mode in MODES:
        answer, _ = _fake_service_answer(mode, chain, asked)
        made = check_made_request(answer, ORIGIN, mode, root)
        if made.requested != asked:
            raise AssertionError(f"{mode}: requested reads as {made.requested}")
        for other in MODES:
            if other != mode:
                _expect_failure(f"{mode} request checked as {other}",
                                lambda: check_made_request(answer, ORIGIN, other, root), "mode")
        _expect_failure(f"{mode}: another root", lambda: check_made_request(answer, ORIGIN, mode, other_root), "AKI")
        _expect_failure(f"{mode}: another origin's transcript",
                        lambda: check_made_request(answer, OTHER_ORIGIN, mode, root), "does not verify")
        for corrupt, needle in (("signature", "does not verify"), ("padding", "base64url"), ("order", "bytewise"),
                                ("duplicate", "duplicate")):
            bad, _ = _fake_service_answer(mode, chain, asked, corrupt=corrupt)
            _expect_failure(f"{mode}: {corrupt}", lambda: check_made_request(bad, ORIGIN, mode, root), needle)
    return "requests signed here: accepted in their own mode, refused in the others and when tampered"


def _self_test_cbor() -> str:
    check_deterministic(bytes.fromhex("a301001821002000"), "bytewise order 1, 33, -1")
    check_deterministic(bytes.fromhex("f97e00"), "NaN")
    check_deterministic(bytes.fromhex("fa47c35000"), "100000.0 as float32")
    cases = {
        "a2616101616102": "duplicate",
        # cbor2's canonical=True sorts length-first (RFC 7049): 1, -1, 33 is not RFC 8949 bytewise order
        cbor2.dumps({1: 0, -1: 0, 33: 0}, canonical=True).hex(): "bytewise",
        "1805": "shortest",
        "9f01ff": "indefinite",
        "0101": "trailing",
        "fb3ff0000000000000": "float",  # 1.0 as float64
        "fb7ff8000000000000": "float",  # NaN as float64 (deterministic NaN is f97e00)
        "f818": "simple value",
        "62c328": "UTF-8",
        "83": "truncated",
    }
    for hex_text, needle in cases.items():
        _expect_failure(f"CBOR {hex_text}", lambda: check_deterministic(bytes.fromhex(hex_text), "sample"), needle)
    _expect_failure("tag 24 over a map", lambda: embedded(CBORTag(24, {}), "x"), "tag 24")
    for text, needle in (("YQ==", "base64url"), ("a+b/", "base64url"), ("YR", "canonical")):
        _expect_failure(f"base64url {text}", lambda: b64url_strict(text, "sample"), needle)
    return "strict CBOR and base64url checks refuse duplicates, disorder, long heads, indefinite lengths, padding"


def _self_test_holder() -> str:
    # What the wallet answers opens with the recipient key, and generate.py's independent MiniVerifier accepts the
    # DeviceResponse under the test IACA with this transcript, and refuses it with another origin's transcript.
    recipient = ec.generate_private_key(ec.SECP256R1())
    info_text = b64url(cbor2.dumps(["dcapi", {"nonce": secrets.token_bytes(16),
                                              "recipientPublicKey": g.cose_key(recipient.public_key())}],
                                   canonical=True))
    made = MadeRequest("self-test", ORIGIN, info_text, "", transcript_for(info_text, ORIGIN), b"",
                       recipient.public_key(), DEFAULT_REQUEST, "1.0")
    response = sealed_answer(made, DEFAULT_ELEMENTS)
    envelope = g.strict_loads(b64url_strict(response, "response"))
    if not (envelope[0] == "dcapi" and set(envelope[1]) == {"enc", "cipherText"} and len(envelope[1]["enc"]) == 65
            and envelope[1]["enc"][0] == 4):
        raise AssertionError(f"envelope shape {envelope!r:.200}")
    plaintext = open_sealed(response, recipient, made.transcript)
    anchors = [x509.load_pem_x509_certificate((TV / "pki" / "iaca-p256.pem").read_bytes())]
    verifier = g.MiniVerifier(anchors, g.d(g.DEFAULT_VERIFICATION_TIME), "warn", None)
    report = verifier.verify_response(plaintext, made.transcript)
    for check in ("issuer.certificateChain", "issuer.signature", "issuer.valueDigests", "mso.validity",
                  "device.authentication"):
        if report["checks"].get(check, {}).get("outcome") != "passed":
            raise AssertionError(f"MiniVerifier: {check} is {report['checks'].get(check)}")
    if report["claims"][g.MDL_NS].keys() != set(DEFAULT_ELEMENTS):
        raise AssertionError(f"MiniVerifier claims {report['claims']}")
    elsewhere = verifier.verify_response(plaintext, transcript_for(info_text, OTHER_ORIGIN))
    if elsewhere["checks"]["device.authentication"]["outcome"] != "failed":
        raise AssertionError("the device signature verified with another origin's transcript")
    for kwargs in ({"flip": True}, {"origin": OTHER_ORIGIN}):
        try:
            open_sealed(sealed_answer(made, ["family_name"], **kwargs), recipient, made.transcript)
            raise AssertionError(f"an answer sealed with {kwargs} opened")
        except AssertionError:
            raise
        except Exception:  # noqa: BLE001 - the AEAD refuses, as it must
            pass
    return ("holder: seal/open round trip; MiniVerifier passes issuer and device signatures over the dcapi transcript; "
            "a flipped bit or another origin does not open")


def self_test(reference: Path) -> int:
    steps: list[Callable[[], str]] = [_self_test_cbor, _self_test_requests, _self_test_holder]
    failed = 0
    if (reference / "encrypted_response.b64url").exists():
        steps.insert(0, lambda: _self_test_reference(reference))
    else:
        print(f"reference vector not found at {reference}: skipped (use --reference-dir)")
    for step in steps:
        try:
            print("ok:", step(), flush=True)
        except Exception as error:  # noqa: BLE001
            print(f"FAILED: {type(error).__name__}: {error}", flush=True)
            failed += 1
    print("self-test", "passed" if not failed else f"failed ({failed})")
    return 0 if not failed else 1


# --------------------------------------------------------------------------------------------------
# Benchmark bodies and the command line
# --------------------------------------------------------------------------------------------------

def bench_bodies(c: Client, count: int, out: Path, threads: int = 8) -> int:
    """Makes `count` sessions and writes one /v1/web/verify body per line (each valid once), for wrk."""
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        made = list(pool.map(lambda _: c.make(), range(count)))
    with out.open("w") as file:
        for m in made:
            body = {"sessionId": m.session_id, "response": sealed_answer(m, ["family_name", "age_over_21"])}
            file.write(json.dumps(body) + "\n")
    return 0


def present(answer_file: Path, origin: str, mode: str, root: x509.Certificate) -> int:
    """The browser and the wallet for one request made by hand (README's walk-through): reads the 201 answer of
    /v1/web/requests, checks it as every scenario does, discloses every requested element this wallet holds and
    prints the body for /v1/web/verify, {"sessionId", "response"}: what the page posts to its backend."""
    try:
        answer = json.loads(answer_file.read_text())
        made = check_made_request(answer, origin, mode, root)
    except (OSError, json.JSONDecodeError, Failure) as error:
        print(f"web_wallet.py: {answer_file} is not a usable /v1/web/requests answer: {error}", file=sys.stderr)
        return 1
    elements = [e for ns in made.requested.get(g.MDL_DOCTYPE, {}).values() for e in ns if e in VALUES]
    print(json.dumps({"sessionId": made.session_id, "response": sealed_answer(made, elements)}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description="TEST-ONLY ISO 18013-7 Annex C wallet against verifierd's web flow")
    parser.add_argument("--base-url", help="the running service, e.g. http://127.0.0.1:8080")
    parser.add_argument("--token", default=DEMO_INTEGRATOR_TOKEN, help="the integrator bearer token (default: the demo's)")
    parser.add_argument("--reader-root", default=str(TV / "demo" / "reader-root.pem"),
                        help="PEM of the root the reader certificate must chain to (AKI = its SKI)")
    parser.add_argument("--mode", choices=MODES, default="both", help="what the service signs")
    parser.add_argument("--scenarios", help=f"comma-separated, default all: {','.join(SCENARIOS)}")
    parser.add_argument("--self-test", action="store_true", help="offline checks of this wallet's own code")
    parser.add_argument("--reference-dir", type=Path, default=REFERENCE_DIR,
                        help="the ISO Annex C reference vector folder for --self-test")
    parser.add_argument("--issuer", choices=sorted(ISSUERS), default="test",
                        help="document signer: test (TestVectors/pki) or demo (the demo configuration's)")
    parser.add_argument("--bench-bodies", type=int, metavar="N", help="write N one-use verify bodies to --out and exit")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--present", type=Path, metavar="FILE",
                        help="offline: answer the /v1/web/requests answer in FILE and print the /v1/web/verify body")
    parser.add_argument("--origin", default=ORIGIN, help=f"with --present: the page's origin (default {ORIGIN})")
    args = parser.parse_args()
    global _issuer
    if args.self_test:  # always the test signer: the MiniVerifier check trusts TestVectors/pki/iaca-p256.pem
        return self_test(args.reference_dir)
    _issuer = ISSUERS[args.issuer]()
    root = x509.load_pem_x509_certificate(Path(args.reader_root).read_bytes())
    if args.present:
        return present(args.present, args.origin, args.mode, root)
    if not args.base_url:
        parser.error("--base-url is required (or --self-test, or --present)")
    client = Client(args.base_url, args.mode, root, args.token)
    if args.bench_bodies:
        if not args.out:
            parser.error("--bench-bodies needs --out")
        return bench_bodies(client, args.bench_bodies, args.out)
    names = [n.strip() for n in args.scenarios.split(",") if n.strip()] if args.scenarios else list(SCENARIOS)
    return run_scenarios(client, names)


if __name__ == "__main__":
    sys.exit(main())
