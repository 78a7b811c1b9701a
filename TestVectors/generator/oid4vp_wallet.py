#!/usr/bin/env python3
"""An independent OpenID4VP 1.0 (final) wallet for the mso_mdoc and dc+sd-jwt (SD-JWT VC) formats that tests
verifierd's OpenID4VP routes end to end. TEST-ONLY: every key it uses is a public test key or a fresh throwaway one;
never point it at anything real.

It plays the browser (Digital Credentials API, OpenID4VP 1.0 Appendix A) or the wallet app of the cross-device
redirect flow (response mode direct_post.jwt) against a running verifierd:

  1. POST /v1/oid4vp/requests, then checks by itself what the service sent. A signed request
     ({protocol: openid4vp-v1-signed, data: {request: <compact JWS>}}) must carry the JOSE header alg ES256,
     typ oauth-authz-req+jwt and x5c (reader leaf first, no trust anchor, nothing self-signed); the signature must
     verify with the leaf's P-256 key; every x5c certificate must be issued by the next one and the last by the root
     given with --reader-root (AKI = issuer SKI, signature); client_id must be x509_hash:<base64url SHA-256 of the
     leaf DER>; over the DC API, expected_origins must hold the origin. An unsigned request
     (openid4vp-v1-unsigned, the parameters as an object) must have no client_id. Both: response_type vp_token, the
     requested response_mode, a nonce of >= 22 base64url characters (>= 16 bytes of entropy), a DCQL query whose
     credentials are mso_mdoc with meta.doctype_value and claims {path: [namespace, element], intent_to_retain:
     bool}, or dc+sd-jwt with a non-empty meta.vct_values and claims {path: [name | null | index, ...]}, equal to
     what was asked (a dcql_query the integrator gave must come back unchanged), client_metadata.vp_formats_supported
     with mso_mdoc for mdoc queries and dc+sd-jwt {sd-jwt_alg_values, kb-jwt_alg_values} holding ES256 for SD-JWT
     VC queries (OpenID4VP B.3.4), and for the encrypted modes
     client_metadata.jwks.keys[0] a public P-256 JWK with kid, use enc, alg ECDH-ES, and
     encrypted_response_enc_values_supported within {A128GCM, A256GCM} (absent means A128GCM).
     The cross-device flow answers {authorizationRequest: "openid4vp://?client_id=...&request_uri=..."}; the wallet
     GETs request_uri (no auth, once) and checks the request object the same way, with response_mode direct_post.jwt
     and a response_uri, and its client_id equal to the one in the authorization request.
  2. Issues an mDL holding exactly the requested elements under the committed test document signer
     (TestVectors/pki/ds-p256.pem, chaining to TestVectors/pki/iaca-p256.pem), device-signed (ES256) over
       DC API:   [null, null, ["OpenID4VPDCAPIHandover", SHA-256(CBOR([origin, nonce, jwkThumbprint]))]]
       redirect: [null, null, ["OpenID4VPHandover", SHA-256(CBOR([client_id, nonce, jwkThumbprint, response_uri]))]]
     (OpenID4VP 1.0 B.2.6; jwkThumbprint = RFC 7638 SHA-256 thumbprint bytes of the response-encryption JWK, or null
     for the unencrypted dc_api mode), puts it into vp_token = {"<credential id>": ["<base64url DeviceResponse>"]}
     and, for dc_api.jwt and direct_post.jwt, encrypts {"vp_token": ...} as a compact JWE (alg ECDH-ES with a fresh
     P-256 epk, Concat KDF of RFC 7518 4.6, enc A128GCM or A256GCM, kid of the chosen JWK).
     A dc+sd-jwt query is answered with a PID-like SD-JWT VC (vct urn:eudi:pid:1, 15 selectively disclosable claims
     as in sd_jwt_vc.py, an `address` object disclosure with disclosable members, decoy digests, fresh salts) issued
     under TestVectors/sdjwt/pki/issuer.pem (header {alg: ES256, typ: dc+sd-jwt, x5c: [the leaf]}, chaining to
     issuer-ca.pem; --sdjwt-issuer-cert/--sdjwt-issuer-key give another), cnf.jwk = TestVectors/sdjwt/pki/keys/
     holder.pem, iat = now - 1 day, exp = now + 365 days. The presentation discloses exactly the requested claims
     (every disclosure on a requested path, a whole object's for a path ending at it) and ends in a KB-JWT
     ({alg: ES256, typ: kb+jwt}; {iat: now, nonce, aud, sd_hash}) where aud = "origin:" + origin over the DC API
     (signed or not, OpenID4VP A.4/B.3.6) and the request's full client_id cross-device, and sd_hash =
     base64url(SHA-256(ASCII of the presentation up to and including its last "~")). It goes into vp_token as the
     compact string itself ({"<credential id>": ["<SD-JWT+KB>"]}), encrypted (or not) exactly as for mdocs; one
     request may mix both formats, each answered in the same vp_token. "now" is --now EPOCH (default: the real time;
     the tests fix the service's clock at 2030-01-01T00:00:00Z = 1893456000).
  3. POSTs /v1/oid4vp/verify {sessionId, response: <what the browser returns as credential.data>}, or, cross-device,
     POSTs response=<JWE> form-encoded to response_uri and GETs /v1/oid4vp/sessions/{id}/result.

Transaction data (OpenID4VP 1.0 5.1, 8.4, B.3.3.1; the txdata-* scenarios; the rules and the test entries are in
transaction_data.py). A request without transaction data must carry no `transaction_data` member (not [] or null),
and its 201 no `transactionData`. With transaction data, each string must be unpadded base64url of the compact JSON
the scenario sent (same members, values and member order), the 201's `transactionData` must hold the same strings,
and every entry must name dc+sd-jwt queries that require holder binding. The KB-JWT of each SD-JWT VC presented then
gets `transaction_data_hashes` for the entries it approves, in request order: base64url of the hash of the string as
received (never decoded first). An entry that names several credentials is approved by the first of them the answer
presents. `transaction_data_hashes_alg` (one string) is added when an approved entry listed algorithms. It is the
first algorithm, in the first entry's order, that every approved entry offers (an entry without the member offers
sha-256). A verified answer must report, for each SD-JWT VC document, keyBinding.transactionData =
[{index, type, hashAlgorithm, hash}] for exactly those entries, plus `data` (equal to what was sent, member order
included) when the request asked for transactionDataReport "objects", and every entry approved once. Each negative
scenario replaces one KB-JWT's transaction data claims (missing, extra, reordered, re-encoded, another digest or
algorithm, an array algorithm, duplicated, approved twice, not addressed, malformed) and expects its code from
EXPECTED CODES. The txdata-refused-* scenarios send transaction data the service must refuse to
/v1/oid4vp/requests (dc_api and cross-device) and to /v1/presentations/requests, and expect 400 with the code. A
valid control request on each route must be accepted first. The service must accept the types listed in
TestVectors/transaction-data/README.md: urn:eudi:sca:payment:1 with the TS12 payment schema applied to `payload`,
plus qes_authorization and https://cloudsignatureconsortium.org/2025/qes, which have no schema.

Only cbor2, cryptography and joserfc are used (plus helpers of generate.py, web_wallet.py, sd_jwt_vc.py and
transaction_data.py in this folder, which bring pyhpke along; joserfc, PyPI sd-jwt with jwcrypto, and jsonschema
only in --self-test, as the independent JOSE, SD-JWT and JSON Schema implementations); nothing of verifierd.

Run it against a service that trusts TestVectors/pki/iaca-p256.pem (and, for the sdjwt-* scenarios, has the SD-JWT
VC issuer trust set TestVectors/sdjwt/pki/issuer-ca.pem), allows the origins https://shop.example and
https://other.example, signs requests with a reader certificate under --reader-root, and whose clock lies inside the
test certificates' validity (the tests fix 2030-01-01; give the same time with --now so that the SD-JWT VC and its
KB-JWT are current for it):

    python3 TestVectors/generator/oid4vp_wallet.py --base-url http://127.0.0.1:8080 \\
        --reader-root TestVectors/demo/reader-root.pem [--enc A128GCM|A256GCM] [--now 1893456000] \\
        [--scenarios replay,...]

The wallet prints one JSON line per scenario, {"scenario", "ok", "status", "code", "detail"}, then
{"summary": {"passed", "failed"}}, and exits 0 only when every scenario met its expectation. --enc is the content
encryption of the scenarios that do not fix their own. URLs the service hands out (request_uri, response_uri) are only
contacted on the --base-url host or a loopback address; --public-base-url PREFIX maps the service's public URL prefix
onto --base-url. No proxy is used, redirects are not followed, and every HTTP call has a 30 s timeout. The expected
error codes are constants below (EXPECTED CODES) so that they can be aligned with the service.

For one request made by hand (README's walk-through), --present FILE answers what POST /v1/oid4vp/requests returned:
over the DC API it prints the body for POST /v1/oid4vp/verify, {"sessionId", "response": <credential.data>}, without
contacting the service; cross-device it reads the authorizationRequest, fetches the request object and posts the
answer to response_uri (on --base-url, or on the loopback address the request_uri names), and prints what that said:

    python3 TestVectors/generator/oid4vp_wallet.py --issuer demo --present oid4vp-request.json

The format is read from the request: mso_mdoc queries get an mDL under --issuer, dc+sd-jwt queries an SD-JWT VC under
--sdjwt-issuer-cert/--sdjwt-issuer-key (default TestVectors/sdjwt/pki/issuer.pem, which the service must then have
in its SD-JWT VC issuer trust set), timed by --now.

Without a service:

    python3 TestVectors/generator/oid4vp_wallet.py --self-test

checks the transcripts against the worked examples of OpenID4VP 1.0 B.2.6.1 and B.2.6.2 byte for byte (and, when
../shared/vectors/external/eudi-verifier-endpoint is there, that a real EUDI wallet's device signature verifies over
the redirect transcript built here), the Concat KDF against RFC 7518 Appendix C, JWE round trips with joserfc in both
directions, the request checks against requests signed here with joserfc (and that they refuse tampered ones),
that generate.py's MiniVerifier accepts the DeviceResponse in every mode and refuses it over another origin, and that
the SD-JWT VC presentations verify with the PyPI sd-jwt reference implementation (SDJWTVerifier given the issuer key,
the same nonce and aud) with a recomputed sd_hash, and are judged by sd_jwt_vc.py's independent MiniVerifier as each
sdjwt-* scenario expects (verified, or refused with its code). For transaction data it checks the request reading
(and that 12 broken requests are refused), that every honest KB-JWT verifies with joserfc (signature with cnf.jwk,
claims) and PyPI sd-jwt, with its hashes recomputed with cryptography, that each txdata-* negative answer gets
exactly its expected code from a judge re-derived from the spec, that the TS12 schema (jsonschema) accepts the test
payloads, refuses the schema-mismatch cases and refuses a whole entry, and that the OpenID4VP 1.0 B.3.6 KB-JWT
example's hash is the SHA-256 of the string in TestVectors/sdjwt-spec/openid4vp-transaction-data-hash.json.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import datetime as dt
import hashlib
import ipaddress
import json
import re
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, NamedTuple

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402
import sd_jwt_vc as sv  # noqa: E402
import transaction_data as txd  # noqa: E402
import web_wallet as ww  # noqa: E402

Failure, expect, b64url, b64url_strict, Reply = ww.Failure, ww.expect, ww.b64url, ww.b64url_strict, ww.Reply

TV = Path(__file__).resolve().parent.parent  # TestVectors/
EUDI_DIR = g.SHARED_VECTORS / "external" / "eudi-verifier-endpoint"
ORIGIN = ww.ORIGIN  # https://shop.example
OTHER_ORIGIN = ww.OTHER_ORIGIN  # https://other.example
HTTP_TIMEOUT = 30
DEMO_INTEGRATOR_TOKEN = ww.DEMO_INTEGRATOR_TOKEN

PROTOCOL_SIGNED = "openid4vp-v1-signed"
PROTOCOL_UNSIGNED = "openid4vp-v1-unsigned"
REQUEST_TYP = "oauth-authz-req+jwt"
DC_API_MODES = ("dc_api", "dc_api.jwt")
ENCRYPTED_MODES = ("dc_api.jwt", "direct_post.jwt")
CONTENT_ENCRYPTIONS = {"A128GCM": 16, "A256GCM": 32}  # enc -> key bytes (HAIP: both)
DCAPI_HANDOVER = "OpenID4VPDCAPIHandover"
REDIRECT_HANDOVER = "OpenID4VPHandover"
CREDENTIAL_ID = re.compile(r"[A-Za-z0-9_-]+")
NONCE_MIN_CHARS = 22  # 16 bytes of entropy as base64url
B64URL_ALPHABET = ww.B64URL_ALPHABET
KEEP: Any = object()  # "no override" marker
MDOC_FORMAT = "mso_mdoc"
# Longfellow's proposal for zero-knowledge mdoc proofs over OpenID4VP (google/longfellow-zk docs/protocols.md):
# meta.zk_system_type lists the systems; answered by zk_wallet.py, which uses this wallet's request checks.
MDOC_ZK_FORMAT = "mso_mdoc_zk"
ZK_SYSTEM_MEMBERS = {"id", "system", "circuit_hash", "num_attributes", "version", "block_enc_hash", "block_enc_sig"}
SDJWT_FORMAT = "dc+sd-jwt"
SDJWT_TYP, KB_TYP = "dc+sd-jwt", "kb+jwt"
SDJWT_PKI = TV / "sdjwt" / "pki"
PID_VCT = "urn:eudi:pid:1"
PID_ISS = "https://issuer.example"
DAY = 86400

# --------------------------------------------------------------------------------------------------
# EXPECTED CODES. These mirror verifierd's error codes (the `code` of a 4xx problem or of a 422 report; the names
# that already exist come from Sources/MDoc/Verification/VerificationErrorCode.swift and the session desk). The
# OpenID4VP routes are not written yet: align these with the service when they are.
# --------------------------------------------------------------------------------------------------
CODE_SESSION_ALREADY_USED = "SESSION_ALREADY_USED"  # 409 problem: a session answered a second time
CODE_WALLET_DECLINED = "WALLET_DECLINED"  # 422: the wallet answered {"error": "access_denied"}
CODE_UNKNOWN_CREDENTIAL_ID = "ELEMENT_NOT_REQUESTED"  # 422: vp_token keyed by an id the DCQL query does not have
CODES_DEVICE_AUTH_FAILED = {"DEVICE_SIGNATURE_INVALID"}  # 422, check device.authentication failed
# 422: two DeviceResponses for one credential query without "multiple": true
CODES_TOO_MANY_PRESENTATIONS = {"VP_TOKEN_MALFORMED", "DEVICE_RESPONSE_MALFORMED"}
# A JWE the service must not open: 400 problem or 422 report, with one of these codes.
STATUSES_JWE_REFUSED = {400, 422}
CODES_JWE_OTHER_SESSION_KEY = {"DECRYPTION_FAILED", "RECIPIENT_KEY_UNKNOWN"}
CODES_JWE_WRONG_KID = {"RECIPIENT_KEY_UNKNOWN", "DECRYPTION_FAILED", "ENVELOPE_MALFORMED"}
CODES_JWE_EPK_OFF_CURVE = {"ENVELOPE_MALFORMED", "DECRYPTION_FAILED"}
CODES_JWE_BAD_ALG = {"ENVELOPE_UNSUPPORTED", "ALGORITHM_UNSUPPORTED", "ENVELOPE_MALFORMED"}
# Cross-device: the response posted to response_uri a second time, and the result fetched after it was delivered.
CODES_RESPONSE_POSTED_TWICE = {CODE_SESSION_ALREADY_USED}
CODES_RESULT_ALREADY_FETCHED = {CODE_SESSION_ALREADY_USED, "RESULT_ALREADY_FETCHED"}
STATUSES_REQUEST_URI_ANSWERED = {409, 410}  # once its session is answered, the request object is served no more
# SD-JWT VC (422 reports; the code of the failing check, Sources/SDJWT/SDJWTErrorCode.swift, SDJWTVCErrorCode.swift)
CODE_SDJWT_UNREQUESTED = "ELEMENT_NOT_REQUESTED"  # request.claims: a disclosure the query did not ask for
CODE_SDJWT_KB_AUDIENCE = "SDJWT_KB_AUDIENCE_MISMATCH"
CODE_SDJWT_KB_NONCE = "SDJWT_KB_NONCE_MISMATCH"
CODE_SDJWT_KB_MISSING = "SDJWT_KB_MISSING"
CODE_SDJWT_DISCLOSURE_UNREFERENCED = "SDJWT_DISCLOSURE_UNREFERENCED"  # a tampered disclosure's digest is nowhere
CODE_SDJWT_ISSUER_UNTRUSTED = "ISSUER_CERTIFICATE_UNTRUSTED"
CODE_SDJWT_VCT_NOT_REQUESTED = "SDJWT_VCT_NOT_REQUESTED"
CODE_NOT_TRUSTED_AUTHORITY = "ISSUER_NOT_TRUSTED_AUTHORITY"  # request.trustedAuthorities: no chain certificate's AKI
CODE_TRUSTED_AUTHORITY_TYPE = "TRUSTED_AUTHORITY_NOT_SUPPORTED"  # 400: a trusted_authorities type other than aki
# Transaction data (OpenID4VP 1.0 5.1, 8.4, B.3.3.1). At creation (400 problem, /v1/oid4vp/requests and
# /v1/presentations/requests):
CODE_TD_INVALID = "TRANSACTION_DATA_INVALID"  # shape: array, sizes, type, credential_ids, transaction_data_hashes_alg
CODES_TD_REPEATED_MEMBER = {"INVALID_REQUEST"}  # a member name twice inside an entry: verifierd reads every body strictly before any member (the body-level code)
CODE_TD_TYPE_NOT_ALLOWED = "TRANSACTION_DATA_TYPE_NOT_ALLOWED"  # type not in oid4vp.transactionDataTypes
CODE_TD_SCHEMA_MISMATCH = "TRANSACTION_DATA_SCHEMA_MISMATCH"  # the type's JSON Schema (TS12: on `payload`) refuses
CODE_TD_NOT_BINDABLE = "TRANSACTION_DATA_NOT_BINDABLE"  # credential_ids name an mdoc query, or one without binding
# On the answer (422 report, verified false; the failed check is sdjwt.transactionData of a dc+sd-jwt document,
# except TRANSACTION_DATA_NOT_APPROVED, which is the answer's own):
CHECK_TD = "sdjwt.transactionData"
CODE_TD_HASHES_MALFORMED = "TRANSACTION_DATA_HASHES_MALFORMED"
CODE_TD_ALG_NOT_OFFERED = "TRANSACTION_DATA_HASH_ALG_NOT_OFFERED"
CODE_TD_HASH_UNKNOWN = "TRANSACTION_DATA_HASH_UNKNOWN"
CODE_TD_HASH_DUPLICATE = "TRANSACTION_DATA_HASH_DUPLICATE"
CODE_TD_HASH_ORDER = "TRANSACTION_DATA_HASH_ORDER"
CODE_TD_HASH_MISSING = "TRANSACTION_DATA_HASH_MISSING"
CODE_TD_APPROVED_TWICE = "TRANSACTION_DATA_APPROVED_TWICE"
CODE_TD_NOT_APPROVED = "TRANSACTION_DATA_NOT_APPROVED"

# Values the test holder discloses (the issuer signs exactly the disclosed elements).
VALUES: dict[str, Any] = dict(ww.VALUES) | {
    "issue_date": CBORTag(1004, "2024-06-01"),
    "expiry_date": CBORTag(1004, "2034-06-01"),
    "issuing_authority": "verifierd Test DMV",
    "un_distinguishing_sign": "USA",
    "age_in_years": 53,
}
DEFAULT_ELEMENTS = {"family_name": False, "given_name": False, "age_over_21": True}
DEFAULT_DOCUMENTS = [{"docType": g.MDL_DOCTYPE, "elements": {g.MDL_NS: DEFAULT_ELEMENTS}}]
# The SD-JWT VC query of the sdjwt-* scenarios, and the mDL query of sdjwt-and-mdoc (DCQL as the integrator sends it).
PID_QUERY = {"id": "pid", "format": SDJWT_FORMAT, "meta": {"vct_values": [PID_VCT]},
             "claims": [{"path": ["given_name"]}, {"path": ["family_name"]}, {"path": ["address", "locality"]}]}
MDL_QUERY = {"id": "mdl", "format": MDOC_FORMAT, "meta": {"doctype_value": g.MDL_DOCTYPE},
             "claims": [{"path": [g.MDL_NS, e], "intent_to_retain": r} for e, r in DEFAULT_ELEMENTS.items()]}

_now: int | None = None  # --now


def now() -> int:
    """The wallet's clock for the SD-JWT VC and KB-JWT times: --now, else the real time."""
    return _now if _now is not None else int(time.time())


def strict_json(raw: bytes | str, name: str) -> Any:
    """JSON with no duplicate member names (json.loads alone keeps the last one silently)."""
    def pairs(items: list[tuple[str, Any]]) -> dict:
        names = [k for k, _ in items]
        duplicates = sorted({k for k in names if names.count(k) > 1})
        expect(not duplicates, f"{name}: duplicate member(s) {duplicates}")
        return dict(items)
    try:
        return json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, UnicodeDecodeError) as error:
        raise Failure(f"{name} is not JSON: {error}") from None


def check_expires_at(text: Any) -> None:
    try:
        expiry = dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        raise Failure(f"expiresAt {text!r} is not RFC 3339") from None
    expect(expiry.tzinfo is not None and "T" in str(text), f"expiresAt {text!r} is not RFC 3339")


# --------------------------------------------------------------------------------------------------
# The request object, checked
# --------------------------------------------------------------------------------------------------

@dataclass
class CredentialQuery:
    id: str
    doctype: str  # mso_mdoc; "" for dc+sd-jwt
    claims: dict[str, dict[str, bool]]  # mso_mdoc: namespace -> element -> intent_to_retain; {} for dc+sd-jwt
    multiple: bool = False
    format: str = MDOC_FORMAT
    vct_values: list[str] = field(default_factory=list)  # dc+sd-jwt: meta.vct_values
    paths: list[list] = field(default_factory=list)  # dc+sd-jwt: claims[].path (names, null, indices)
    zk_systems: list[dict] = field(default_factory=list)  # mso_mdoc_zk: meta.zk_system_type as sent
    holder_binding: bool = True  # dc+sd-jwt: require_cryptographic_holder_binding (default true)


@dataclass
class Session:
    """One presentation request as the wallet understood it."""
    session_id: str
    flow: str  # "dc_api" | "cross-device"
    origin: str
    signed: bool
    response_mode: str
    params: dict
    client_id: str | None
    nonce: str
    credentials: list[CredentialQuery]
    jwk: dict | None = None  # the response-encryption key chosen (keys[0]), public JWK as sent
    enc_values: list[str] = field(default_factory=list)
    response_uri: str | None = None
    leaf: x509.Certificate | None = None
    transaction_data: list[txd.Entry] = field(default_factory=list)  # the request's, as received and checked
    route: str = "oid4vp"  # "oid4vp" (/v1/oid4vp/...) or "presentations" (/v1/presentations/...)
    protocol: str | None = None  # presentations: the protocol answered
    report_objects: bool = False  # the integrator asked transactionDataReport "objects"

    @property
    def requested(self) -> dict[str, dict[str, dict[str, bool]]]:
        return requested_of(self.credentials)

    @property
    def kb_audience(self) -> str:
        """The KB-JWT aud (OpenID4VP A.4, B.3.6): "origin:" + origin over the DC API, signed or not; the full
        client_id (with its prefix) cross-device."""
        if self.flow == "dc_api":
            return "origin:" + self.origin
        expect(isinstance(self.client_id, str) and self.client_id, "a cross-device session without client_id")
        return self.client_id


def requested_of(credentials: list[CredentialQuery]) -> dict[str, dict[str, dict[str, bool]]]:
    """The mso_mdoc queries' elements by docType (dc+sd-jwt queries are compared as DCQL, see Client.make)."""
    out: dict[str, dict[str, dict[str, bool]]] = {}
    for query in credentials:
        if query.format not in (MDOC_FORMAT, MDOC_ZK_FORMAT):
            continue
        for ns, elements in query.claims.items():
            out.setdefault(query.doctype, {}).setdefault(ns, {}).update(elements)
    return out


def requested_by(documents: list[dict]) -> dict[str, dict[str, dict[str, bool]]]:
    return {d["docType"]: d["elements"] for d in documents}


def _self_signed(cert: x509.Certificate) -> bool:
    if cert.issuer != cert.subject:
        return False
    try:
        cert.verify_directly_issued_by(cert)
        return True
    except (ValueError, TypeError, InvalidSignature):
        return False


def check_x5c(x5c: Any, root: x509.Certificate) -> tuple[x509.Certificate, bytes]:
    """x5c (RFC 7515 4.1.6: standard base64 DER, leaf first): no trust anchor, nothing self-signed (HAIP), a P-256
    leaf, each certificate issued by the next and the last by `root` (AKI = issuer SKI, and the signature).
    Returns (leaf, leaf DER)."""
    expect(isinstance(x5c, list) and x5c and all(isinstance(c, str) for c in x5c),
           "x5c is not a non-empty array of strings")
    root_der = root.public_bytes(serialization.Encoding.DER)
    chain: list[tuple[bytes, x509.Certificate]] = []
    for index, text in enumerate(x5c):
        try:
            der = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise Failure(f"x5c[{index}] is not standard base64 (RFC 7515 4.1.6; base64url is wrong here)") from None
        expect(base64.b64encode(der).decode() == text, f"x5c[{index}] is not canonical padded base64")
        try:
            cert = x509.load_der_x509_certificate(der)
        except ValueError as error:
            raise Failure(f"x5c[{index}] does not parse as an X.509 certificate: {error}") from None
        expect(der != root_der, f"x5c[{index}] is the trust anchor itself (HAIP: the anchor is not sent in x5c)")
        expect(not _self_signed(cert), f"x5c[{index}] is self-signed (HAIP: no self-signed signer, no anchor in x5c)")
        chain.append((der, cert))
    leaf_der, leaf = chain[0]
    key = leaf.public_key()
    expect(isinstance(key, ec.EllipticCurvePublicKey) and key.curve.name == "secp256r1",
           "the x5c leaf's key is not P-256 (alg ES256)")
    certs = [c for _, c in chain] + [root]
    for index, (child, parent) in enumerate(zip(certs, certs[1:])):
        what = f"x5c[{index}]"
        parent_name = "the reader root (--reader-root)" if parent is root else f"x5c[{index + 1}]"
        try:
            aki = child.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
        except x509.ExtensionNotFound:
            raise Failure(f"{what} has no authority key identifier") from None
        try:
            ski = parent.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
        except x509.ExtensionNotFound:
            raise Failure(f"{parent_name} has no subject key identifier") from None
        expect(aki is not None and aki == ski,
               f"{what}'s AKI {aki.hex() if aki else None} is not the SKI {ski.hex()} of {parent_name}")
        try:
            child.verify_directly_issued_by(parent)
        except (ValueError, TypeError, InvalidSignature) as error:
            raise Failure(f"{what} is not issued by {parent_name}: {error or 'bad signature'}") from None
    return leaf, leaf_der


def x509_hash_client_id(leaf_der: bytes) -> str:
    return "x509_hash:" + b64url(hashlib.sha256(leaf_der).digest())


def check_signed_request(jws: Any, root: x509.Certificate) -> tuple[dict, dict, x509.Certificate]:
    """A compact JWS request object: header {alg: ES256, typ: oauth-authz-req+jwt, x5c}, the ES256 signature by the
    x5c leaf, the chain to `root`, client_id = x509_hash of the leaf. Returns (header, payload, leaf)."""
    expect(isinstance(jws, str) and jws, "the signed request is not a non-empty string")
    parts = jws.split(".")
    expect(len(parts) == 3, f"the signed request is not a compact JWS (3 parts, got {len(parts)})")
    header = strict_json(b64url_strict(parts[0], "JWS protected header"), "JWS protected header")
    expect(isinstance(header, dict), "the JWS protected header is not a JSON object")
    expect(header.get("alg") == "ES256", f"JWS alg is {header.get('alg')!r}, not ES256")
    expect(header.get("typ") == REQUEST_TYP, f"JWS typ is {header.get('typ')!r}, not {REQUEST_TYP!r} "
                                             f"(OpenID4VP 5: wallets MUST NOT process it otherwise)")
    expect("crit" not in header, f"JWS header has crit {header.get('crit')!r}, which this wallet does not understand")
    expect("x5c" in header, "JWS header has no x5c")
    payload_raw = b64url_strict(parts[1], "JWS payload")
    signature = b64url_strict(parts[2], "JWS signature")
    # the key first, from the leaf as sent; the chain check follows
    try:
        leaf_for_key = x509.load_der_x509_certificate(base64.b64decode(header["x5c"][0], validate=True))
    except (binascii.Error, ValueError, TypeError, KeyError, IndexError):
        leaf_for_key = None
    expect(leaf_for_key is not None, "x5c[0] is not a base64 DER certificate")
    key = leaf_for_key.public_key()
    expect(isinstance(key, ec.EllipticCurvePublicKey) and key.curve.name == "secp256r1",
           "the x5c leaf's key is not P-256 (alg ES256)")
    expect(len(signature) == 64, f"the JWS signature is {len(signature)} bytes, not 64 (ES256 r||s)")
    expect(g.ecdsa_verify_raw(key, signature, f"{parts[0]}.{parts[1]}".encode(), hashes.SHA256()),
           "the JWS signature does not verify with the x5c leaf's key")
    leaf, leaf_der = check_x5c(header["x5c"], root)
    payload = strict_json(payload_raw, "request object")
    expect(isinstance(payload, dict), "the request object is not a JSON object")
    expected_client_id = x509_hash_client_id(leaf_der)
    expect(payload.get("client_id") == expected_client_id,
           f"client_id {payload.get('client_id')!r} is not the leaf's x509_hash {expected_client_id!r}")
    return header, payload, leaf


def check_enc_jwk(jwk: Any, where: str) -> ec.EllipticCurvePublicKey:
    """A public P-256 EC JWK for ECDH-ES response encryption, with kid, use enc, alg ECDH-ES, no private part."""
    expect(isinstance(jwk, dict), f"{where} is not a JSON object")
    expect(jwk.get("kty") == "EC" and jwk.get("crv") == "P-256", f"{where} is not an EC P-256 JWK: "
                                                                 f"kty {jwk.get('kty')!r}, crv {jwk.get('crv')!r}")
    expect(isinstance(jwk.get("kid"), str) and jwk["kid"], f"{where} has no kid")
    expect(jwk.get("use") == "enc", f"{where}: use is {jwk.get('use')!r}, not 'enc'")
    expect(jwk.get("alg") == "ECDH-ES", f"{where}: alg is {jwk.get('alg')!r}, not 'ECDH-ES'")
    expect("d" not in jwk, f"{where} carries its private key d")
    x = b64url_strict(jwk.get("x"), f"{where}.x")
    y = b64url_strict(jwk.get("y"), f"{where}.y")
    expect(len(x) == 32 and len(y) == 32, f"{where}: x and y are not 32 bytes each")
    try:
        return ec.EllipticCurvePublicNumbers(int.from_bytes(x, "big"), int.from_bytes(y, "big"),
                                             ec.SECP256R1()).public_key()
    except ValueError:
        raise Failure(f"{where} is not a point on P-256") from None


def check_sdjwt_query(credential: dict, where: str, cid: str, multiple: bool) -> CredentialQuery:
    """A dc+sd-jwt credential query (OpenID4VP 6.1, 7, B.3.5): meta.vct_values a non-empty array of strings, claims
    (optional: none means no disclosure) with paths of names, null and non-negative indices, each path once;
    require_cryptographic_holder_binding a boolean when present. `values` is refused: this wallet does not match
    values."""
    meta = credential.get("meta")
    vct_values = meta.get("vct_values") if isinstance(meta, dict) else None
    expect(isinstance(vct_values, list) and vct_values and all(isinstance(v, str) and v for v in vct_values),
           f"{where}.meta.vct_values is not a non-empty array of strings (B.3.5: required)")
    binding = credential.get("require_cryptographic_holder_binding", True)
    expect(isinstance(binding, bool), f"{where}.require_cryptographic_holder_binding is not a boolean")
    claims = credential.get("claims", [])
    expect(isinstance(claims, list), f"{where}.claims is not an array")
    paths: list[list] = []
    for claim_index, claim in enumerate(claims):
        at = f"{where}.claims[{claim_index}]"
        expect(isinstance(claim, dict), f"{at} is not an object")
        path = claim.get("path")
        expect(isinstance(path, list) and path and all(
            (isinstance(p, str) and p) or p is None or (isinstance(p, int) and not isinstance(p, bool) and p >= 0)
            for p in path), f"{at}.path {path!r} is not a non-empty claims path pointer (OpenID4VP 7)")
        expect("values" not in claim, f"{at}.values: this test wallet does not match claim values")
        expect(path not in paths, f"{at}.path {path} is requested twice")
        paths.append(path)
    return CredentialQuery(cid, "", {}, multiple, SDJWT_FORMAT, list(vct_values), paths, holder_binding=binding)


def check_dcql(query: Any) -> list[CredentialQuery]:
    """DCQL (OpenID4VP 6) for mso_mdoc (B.2.3, B.2.4): credential queries with a unique id, format mso_mdoc,
    meta.doctype_value, and claims with path [namespace, element] and a boolean intent_to_retain; and for dc+sd-jwt
    (B.3.5) as check_sdjwt_query says."""
    expect(isinstance(query, dict), "dcql_query is missing or not a JSON object")
    credentials = query.get("credentials")
    expect(isinstance(credentials, list) and credentials, "dcql_query.credentials is not a non-empty array")
    out: list[CredentialQuery] = []
    for index, credential in enumerate(credentials):
        where = f"dcql_query.credentials[{index}]"
        expect(isinstance(credential, dict), f"{where} is not an object")
        cid = credential.get("id")
        expect(isinstance(cid, str) and CREDENTIAL_ID.fullmatch(cid) is not None,
               f"{where}.id {cid!r} is not a non-empty [A-Za-z0-9_-] string")
        expect(all(q.id != cid for q in out), f"{where}.id {cid!r} is used twice")
        expect(credential.get("format") in (MDOC_FORMAT, MDOC_ZK_FORMAT, SDJWT_FORMAT),
               f"{where}.format is {credential.get('format')!r}, not mso_mdoc, mso_mdoc_zk or dc+sd-jwt")
        multiple = credential.get("multiple", False)
        expect(isinstance(multiple, bool), f"{where}.multiple is not a boolean")
        if credential["format"] == SDJWT_FORMAT:
            out.append(check_sdjwt_query(credential, where, cid, multiple))
            continue
        meta = credential.get("meta")
        expect(isinstance(meta, dict) and isinstance(meta.get("doctype_value"), str) and meta["doctype_value"],
               f"{where}.meta.doctype_value is missing")
        zk_systems: list[dict] = []
        if credential["format"] == MDOC_ZK_FORMAT:
            zk_systems = meta.get("zk_system_type")
            expect(isinstance(zk_systems, list) and zk_systems
                   and all(isinstance(s, dict) and set(s) <= ZK_SYSTEM_MEMBERS and s.get("system") == "longfellow-libzk-v1"
                           and isinstance(s.get("circuit_hash"), str) and all(isinstance(s.get(k), int) for k in
                           ("num_attributes", "version", "block_enc_hash", "block_enc_sig")) for s in zk_systems),
                   f"{where}.meta.zk_system_type is not a non-empty array of Longfellow systems: {zk_systems!r}")
        claims = credential.get("claims")
        expect(isinstance(claims, list) and claims, f"{where}.claims is not a non-empty array")
        by_ns: dict[str, dict[str, bool]] = {}
        for claim_index, claim in enumerate(claims):
            at = f"{where}.claims[{claim_index}]"
            expect(isinstance(claim, dict), f"{at} is not an object")
            path = claim.get("path")
            expect(isinstance(path, list) and len(path) == 2 and all(isinstance(p, str) and p for p in path),
                   f"{at}.path {path!r} is not [namespace, element] (OpenID4VP 7.2)")
            intent = claim.get("intent_to_retain")
            expect(isinstance(intent, bool), f"{at}.intent_to_retain is {intent!r}, not a boolean")
            ns, element = path
            expect(element not in by_ns.get(ns, {}), f"{at}.path {path} is requested twice")
            by_ns.setdefault(ns, {})[element] = intent
        out.append(CredentialQuery(cid, meta["doctype_value"], by_ns, multiple, format=credential["format"],
                                   zk_systems=zk_systems))
    sets = query.get("credential_sets")
    if sets is not None:
        expect(isinstance(sets, list) and sets, "dcql_query.credential_sets is not a non-empty array")
        known = {q.id for q in out}
        for index, entry in enumerate(sets):
            options = entry.get("options") if isinstance(entry, dict) else None
            expect(isinstance(options, list) and options
                   and all(isinstance(o, list) and o and set(o) <= known for o in options),
                   f"dcql_query.credential_sets[{index}].options do not reference known credential ids")
    return out


def check_request_object(params: Any, *, signed: bool, response_mode: str, origin: str | None) -> dict:
    """The request parameters (the signed payload or the unsigned object). `origin` is the DC API caller's (None for
    the redirect flow, where expected_origins does not apply). Returns what the holder needs."""
    expect(isinstance(params, dict), "the request parameters are not a JSON object")
    if signed:
        if origin is not None:
            origins = params.get("expected_origins")
            expect(isinstance(origins, list) and origins and all(isinstance(o, str) for o in origins),
                   "expected_origins is missing or not a non-empty array of strings (A.2: required when signed)")
            expect(origin in origins, f"the origin {origin!r} is not in expected_origins {origins}")
    else:
        expect("client_id" not in params, "the unsigned request carries client_id (A.2: it MUST be omitted)")
        expect("expected_origins" not in params, "the unsigned request carries expected_origins (signed only)")
        expect("request" not in params, "the unsigned request carries a request parameter")
    expect(params.get("response_type") == "vp_token", f"response_type is {params.get('response_type')!r}, "
                                                       f"not 'vp_token'")
    expect(params.get("response_mode") == response_mode,
           f"response_mode is {params.get('response_mode')!r}, not {response_mode!r}")
    nonce = params.get("nonce")
    expect(isinstance(nonce, str) and len(nonce) >= NONCE_MIN_CHARS and set(nonce) <= B64URL_ALPHABET,
           f"nonce {nonce!r} is not a base64url string of >= {NONCE_MIN_CHARS} characters (16 bytes of entropy)")
    expect("scope" not in params, "the request has a scope next to dcql_query")
    credentials = check_dcql(params.get("dcql_query"))
    # transaction_data (OpenID4VP 5.1, B.3.3): absent unless the integrator sent some; when present, read as
    # transaction_data.read_request says (a request without it must not carry the member at all, not even [] or null)
    entries: list[txd.Entry] = []
    if "transaction_data" in params:
        try:
            entries = txd.read_request(params["transaction_data"],
                                       {q.id: (q.format, q.holder_binding) for q in credentials})
        except txd.TransactionDataError as error:
            raise Failure(f"the request's {error}") from None
    metadata = params.get("client_metadata")
    expect(isinstance(metadata, dict), "client_metadata is missing or not a JSON object")
    formats = metadata.get("vp_formats_supported")
    expect(isinstance(formats, dict), "client_metadata.vp_formats_supported is missing or not a JSON object")
    if any(q.format == MDOC_FORMAT for q in credentials):
        expect(isinstance(formats.get(MDOC_FORMAT), dict), "client_metadata.vp_formats_supported.mso_mdoc is missing")
    if any(q.format == MDOC_ZK_FORMAT for q in credentials):
        expect(isinstance(formats.get(MDOC_ZK_FORMAT), dict), "client_metadata.vp_formats_supported.mso_mdoc_zk is missing")
    if any(q.format == SDJWT_FORMAT for q in credentials):
        sdjwt = formats.get(SDJWT_FORMAT)
        expect(isinstance(sdjwt, dict), "client_metadata.vp_formats_supported has no dc+sd-jwt for a dc+sd-jwt query")
        for name in ("sd-jwt_alg_values", "kb-jwt_alg_values"):
            values = sdjwt.get(name)
            expect(isinstance(values, list) and "ES256" in values,
                   f"client_metadata.vp_formats_supported.dc+sd-jwt.{name} {values!r} does not hold ES256 "
                   f"(B.3.4, HAIP)")
    parsed: dict[str, Any] = {"nonce": nonce, "credentials": credentials, "jwk": None, "enc_values": [],
                              "response_uri": None, "transaction_data": entries}
    if response_mode in ENCRYPTED_MODES:
        jwks = metadata.get("jwks")
        keys = jwks.get("keys") if isinstance(jwks, dict) else None
        expect(isinstance(keys, list) and keys, "client_metadata.jwks.keys is missing or empty")
        kids = [k.get("kid") if isinstance(k, dict) else None for k in keys]
        expect(all(isinstance(k, str) and k for k in kids) and len(set(kids)) == len(kids),
               f"every JWK in client_metadata.jwks needs its own kid: {kids}")
        check_enc_jwk(keys[0], "client_metadata.jwks.keys[0]")
        enc_values = metadata.get("encrypted_response_enc_values_supported", ["A128GCM"])
        expect(isinstance(enc_values, list) and enc_values and set(enc_values) <= set(CONTENT_ENCRYPTIONS),
               f"encrypted_response_enc_values_supported {enc_values!r} is not a non-empty subset of "
               f"{sorted(CONTENT_ENCRYPTIONS)}")
        parsed.update(jwk=keys[0], enc_values=enc_values)
    if response_mode.startswith("direct_post"):
        uri = params.get("response_uri")
        parts = urllib.parse.urlsplit(uri) if isinstance(uri, str) else None
        expect(parts is not None and parts.scheme in ("http", "https") and parts.netloc,
               f"response_uri {uri!r} is not an absolute http(s) URL")
        expect("redirect_uri" not in params, "redirect_uri next to response_uri (OpenID4VP 8.2)")
        parsed["response_uri"] = uri
    return parsed


def check_dc_api_answer(answer: Any, origin: str, signed: bool, mode: str, root: x509.Certificate) -> Session:
    """A 201 answer of POST /v1/oid4vp/requests for the DC API flow."""
    expect(isinstance(answer, dict), "the answer is not a JSON object")
    session_id, request = answer.get("sessionId"), answer.get("request")
    expect(isinstance(session_id, str) and session_id, "sessionId is not a non-empty string")
    check_expires_at(answer.get("expiresAt"))
    protocol = PROTOCOL_SIGNED if signed else PROTOCOL_UNSIGNED
    expect(isinstance(request, dict) and request.get("protocol") == protocol and isinstance(request.get("data"), dict),
           f"request is not {{protocol: {protocol}, data: {{...}}}}: {json.dumps(request)[:200]}")
    data = request["data"]
    leaf = None
    if signed:
        expect(set(data) == {"request"}, f"signed data has members {sorted(data)}, not just 'request'")
        _, params, leaf = check_signed_request(data["request"], root)
    else:
        params = data
    parsed = check_request_object(params, signed=signed, response_mode=mode, origin=origin)
    return Session(session_id, "dc_api", origin, signed, mode, params, params.get("client_id") if signed else None,
                   parsed["nonce"], parsed["credentials"], parsed["jwk"], parsed["enc_values"], None, leaf,
                   transaction_data=parsed["transaction_data"])


def parse_authorization_request(text: Any) -> tuple[str, str]:
    """openid4vp://?client_id=...&request_uri=... -> (client_id, request_uri)."""
    expect(isinstance(text, str), "authorizationRequest is not a string")
    parts = urllib.parse.urlsplit(text)
    expect(parts.scheme == "openid4vp", f"authorizationRequest {text!r} does not use the openid4vp: scheme")
    try:
        query = urllib.parse.parse_qs(parts.query, keep_blank_values=True, strict_parsing=True)
    except ValueError as error:
        raise Failure(f"authorizationRequest query does not parse: {error}") from None
    for name, values in query.items():
        expect(len(values) == 1, f"authorizationRequest has {name} {len(values)} times")
    expect("client_id" in query and "request_uri" in query,
           f"authorizationRequest lacks client_id or request_uri: {sorted(query)}")
    method = query.get("request_uri_method", ["get"])[0]
    expect(method == "get", f"request_uri_method {method!r}: this wallet only GETs")
    return query["client_id"][0], query["request_uri"][0]


# --------------------------------------------------------------------------------------------------
# The holder: transcripts, DeviceResponse, vp_token, JWE
# --------------------------------------------------------------------------------------------------

def jwk_thumbprint(jwk: dict) -> bytes:
    """RFC 7638 SHA-256 thumbprint of an EC JWK: the required members crv, kty, x, y in lexicographic order, no
    whitespace."""
    canonical = "{" + ",".join(f'"{k}":"{jwk[k]}"' for k in ("crv", "kty", "x", "y")) + "}"
    return hashlib.sha256(canonical.encode()).digest()


def handover_info_bytes(info: list) -> bytes:
    return cbor2.dumps(info)


def transcript_of(handover_name: str, info: list) -> bytes:
    return cbor2.dumps([None, None, [handover_name, hashlib.sha256(handover_info_bytes(info)).digest()]])


def dcapi_transcript(origin: str, nonce: str, thumbprint: bytes | None) -> bytes:
    """B.2.6.2: [null, null, ["OpenID4VPDCAPIHandover", SHA-256(CBOR([origin, nonce, jwkThumbprint / null]))]]."""
    return transcript_of(DCAPI_HANDOVER, [origin, nonce, thumbprint])


def redirect_transcript(client_id: str, nonce: str, thumbprint: bytes | None, response_uri: str) -> bytes:
    """B.2.6.1: [null, null, ["OpenID4VPHandover", SHA-256(CBOR([client_id, nonce, jwkThumbprint / null,
    response_uri]))]]."""
    return transcript_of(REDIRECT_HANDOVER, [client_id, nonce, thumbprint, response_uri])


def session_transcript(s: Session, *, origin: str | None = None, nonce: str | None = None,
                       handover_name: str | None = None, thumbprint: Any = KEEP) -> bytes:
    """The transcript for `s`; each keyword replaces one input (for the negative scenarios)."""
    if thumbprint is KEEP:
        thumbprint = jwk_thumbprint(s.jwk) if s.response_mode in ENCRYPTED_MODES else None
    nonce = nonce if nonce is not None else s.nonce
    if s.flow == "dc_api":
        return transcript_of(handover_name or DCAPI_HANDOVER, [origin or s.origin, nonce, thumbprint])
    return transcript_of(handover_name or REDIRECT_HANDOVER, [s.client_id, nonce, thumbprint, s.response_uri])


def device_response(doctype: str, claims: dict[str, dict[str, bool]], transcript: bytes,
                    label: str = "oid4vp-wallet") -> bytes:
    """A DeviceResponse with one document holding exactly `claims` (values from VALUES), device-signed over
    `transcript` under the test (or --issuer) document signer."""
    unknown = [f"{ns}/{e}" for ns, els in claims.items() for e in els if ns != g.MDL_NS or e not in VALUES]
    expect(not unknown, f"this test wallet holds no value for {unknown}")
    elements = [(e, VALUES[e]) for e in claims.get(g.MDL_NS, {})]
    spec = g.DocSpec(label, ds="ds-p256", elements=elements, transcript=transcript, doc_type=doctype,
                     device_auth="signature")
    document, _ = g.issue_document(spec, ww.issuer())
    return g.device_response([document])


def vp_token(s: Session, transcript: bytes, *, key: str | None = None, copies: int = 1,
             only: list[str] | None = None, tx_claims: dict[str, dict] | None = None, **sdjwt: Any) -> dict:
    """{credential id: [base64url DeviceResponse or SD-JWT+KB string, ...]}; `key` replaces the id of the first query,
    `copies` > 1 puts that many distinct presentations under it; `sdjwt` goes to sd_jwt_presentation (the negative
    SD-JWT VC scenarios). `only` presents just those credential queries (an optional credential set left out);
    `tx_claims` replaces, per credential id, the transaction data claims of its KB-JWT (the negative txdata-*
    scenarios; {} adds none); the others carry the honest ones."""
    token: dict[str, list[str]] = {}
    presented = [q.id for q in s.credentials if only is None or q.id in only]
    for index, query in enumerate(s.credentials):
        if query.id not in presented:
            continue
        count = copies if index == 0 else 1
        if query.format == SDJWT_FORMAT:
            claims = (tx_claims or {}).get(query.id, KEEP)
            presentations = [sd_jwt_presentation(s, query, presented_ids=presented, tx_claims=claims, **sdjwt)
                             for _ in range(count)]
        else:
            presentations = [b64url(device_response(query.doctype, query.claims, transcript,
                                                    "oid4vp-wallet" + (f"-{n}" if n else "")))
                             for n in range(count)]
        token[key if (key and index == 0) else query.id] = presentations
    return token


# --------------------------------------------------------------------------------------------------
# The holder: SD-JWT VC (dc+sd-jwt)
# --------------------------------------------------------------------------------------------------

class SdJwtIssuer:
    """An SD-JWT VC issuer: its x5c leaf (sent alone: no anchor, HAIP) and ES256 key."""

    def __init__(self, certificate: Path, key: Path) -> None:
        self.cert = x509.load_pem_x509_certificate(certificate.read_bytes())
        self.key = serialization.load_pem_private_key(key.read_bytes(), None)
        expect(isinstance(self.key, ec.EllipticCurvePrivateKey) and self.key.curve.name == "secp256r1",
               f"{key}: not a P-256 key (ES256)")


SDJWT_ISSUERS: dict[str, Callable[[], SdJwtIssuer]] = {
    # under TestVectors/sdjwt/pki/issuer-ca.pem, the SD-JWT VC issuer trust set of the tests
    "test": lambda: SdJwtIssuer(SDJWT_PKI / "issuer.pem", SDJWT_PKI / "keys" / "issuer.pem"),
    # under issuer-ca-other.pem, which nothing trusts (sdjwt-untrusted-issuer)
    "untrusted": lambda: SdJwtIssuer(SDJWT_PKI / "issuer-other.pem", SDJWT_PKI / "keys" / "issuer-other.pem"),
}
_sdjwt_issuer: SdJwtIssuer | None = None
_holder_key: ec.EllipticCurvePrivateKey | None = None


def sdjwt_issuer() -> SdJwtIssuer:
    global _sdjwt_issuer
    if _sdjwt_issuer is None:
        _sdjwt_issuer = SDJWT_ISSUERS["test"]()
    return _sdjwt_issuer


def holder_key() -> ec.EllipticCurvePrivateKey:
    """The key of cnf.jwk, which signs the KB-JWT (TestVectors/sdjwt/pki/keys/holder.pem)."""
    global _holder_key
    if _holder_key is None:
        _holder_key = serialization.load_pem_private_key((SDJWT_PKI / "keys" / "holder.pem").read_bytes(), None)
    return _holder_key


def compact_json(value: Any) -> str:
    """Compact JSON, UTF-8 (not ASCII-escaped: address.locality is "München")."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def sd_digest(text: str) -> str:
    """base64url(SHA-256(ASCII)): a disclosure's digest (RFC 9901 4.2.3) and the KB-JWT's sd_hash (4.3.1)."""
    return b64url(hashlib.sha256(text.encode("ascii")).digest())


def es256_jws(header: dict, payload: dict, key: ec.EllipticCurvePrivateKey) -> str:
    signing_input = b64url(compact_json(header).encode()) + "." + b64url(compact_json(payload).encode())
    return signing_input + "." + b64url(g.ecdsa_sign_raw(key, signing_input.encode("ascii"), hashes.SHA256()))


def _plain(model: Any) -> Any:
    """A model value as the verifier sees it with everything below disclosed."""
    if isinstance(model, sv.SD):
        return _plain(model.value)
    if isinstance(model, dict):
        return {k: _plain(v) for k, v in model.items() if k != sv.DECOYS_KEY}
    if isinstance(model, list):
        return [_plain(v) for v in model if not isinstance(v, sv.Decoy)]
    return model


@dataclass
class IssuedSdJwt:
    """An issued SD-JWT VC: the issuer-signed JWT and every disclosure by its claim path (names and indices into the
    arrays as the holder holds them, decoys not counted), in document order."""
    jwt: str
    disclosures: dict[tuple, str]
    model: dict


def issue_sd_jwt_vc(*, vct: str = PID_VCT, issuer: SdJwtIssuer | None = None) -> IssuedSdJwt:
    """The PID of sd_jwt_vc.pid_model() (the claims of the committed vectors), with fresh 128-bit salts and random
    decoy digests, _sd sorted, cnf.jwk = the holder key, iat = now - 1 day, exp = now + 365 days."""
    issuer = issuer or sdjwt_issuer()
    model = sv.pid_model()
    disclosures: dict[tuple, str] = {}

    def disclose(path: tuple, items: list, value: Any) -> str:
        encoded = b64url(compact_json([b64url(secrets.token_bytes(16))] + items + [value]).encode("utf-8"))
        disclosures[path] = encoded
        return sd_digest(encoded)

    def encode(node: Any, path: tuple) -> Any:
        if isinstance(node, dict):
            out: dict[str, Any] = {}
            digests = []
            for name, value in node.items():
                if name == sv.DECOYS_KEY:
                    continue
                if isinstance(value, sv.SD):
                    digests.append(disclose(path + (name,), [name], encode(value.value, path + (name,))))
                else:
                    out[name] = encode(value, path + (name,))
            digests += [b64url(secrets.token_bytes(32)) for _ in range(node.get(sv.DECOYS_KEY, 0))]
            if digests:
                out["_sd"] = sorted(digests)
            return out
        if isinstance(node, list):
            out_list: list = []
            held = 0  # the index among the elements the holder holds (decoys are not elements)
            for value in node:
                if isinstance(value, sv.Decoy):
                    out_list.append({"...": b64url(secrets.token_bytes(32))})
                    continue
                sub = path + (held,)
                held += 1
                if isinstance(value, sv.SD):
                    out_list.append({"...": disclose(sub, [], encode(value.value, sub))})
                else:
                    out_list.append(encode(value, sub))
            return out_list
        return node

    body = encode(model, ())
    issued_at = now()
    holder = holder_key().public_key().public_numbers()
    payload: dict[str, Any] = {"iss": PID_ISS, "iat": issued_at - DAY, "exp": issued_at + 365 * DAY, "vct": vct,
                               "cnf": {"jwk": {"kty": "EC", "crv": "P-256", "x": b64url(holder.x.to_bytes(32, "big")),
                                               "y": b64url(holder.y.to_bytes(32, "big"))}}}
    payload |= {k: v for k, v in body.items() if k != "_sd"}
    payload["_sd"] = body.get("_sd", [])
    payload["_sd_alg"] = "sha-256"
    header = {"alg": "ES256", "typ": SDJWT_TYP,
              "x5c": [base64.b64encode(issuer.cert.public_bytes(serialization.Encoding.DER)).decode("ascii")]}
    return IssuedSdJwt(es256_jws(header, payload, issuer.key), disclosures, model)


def select_disclosures(model: dict, paths: list[list]) -> list[tuple]:
    """The disclosure paths to present for the claims path pointers `paths` (OpenID4VP 7.1): every selectively
    disclosable claim on a path, and everything below where a path ends (a whole object or array with its members).
    Returns them in document order (parents before their members)."""
    chosen: set[tuple] = set()

    def everything(node: Any, at: tuple) -> None:
        if isinstance(node, sv.SD):
            chosen.add(at)
            node = node.value
        if isinstance(node, dict):
            for name, value in node.items():
                if name != sv.DECOYS_KEY:
                    everything(value, at + (name,))
        elif isinstance(node, list):
            for index, value in enumerate(v for v in node if not isinstance(v, sv.Decoy)):
                everything(value, at + (index,))

    def walk(node: Any, pointer: list, at: tuple, full: list) -> None:
        if isinstance(node, sv.SD):
            chosen.add(at)
            node = node.value
        if not pointer:
            everything(node, at)
            return
        head, rest = pointer[0], pointer[1:]
        if isinstance(head, str):
            expect(isinstance(node, dict) and head in node and head != sv.DECOYS_KEY,
                   f"this test wallet holds no claim {full} (nothing at {head!r})")
            walk(node[head], rest, at + (head,), full)
            return
        expect(isinstance(node, list), f"this test wallet holds no array at {full}")
        held = [v for v in node if not isinstance(v, sv.Decoy)]
        indices = range(len(held)) if head is None else [head]
        expect(all(i < len(held) for i in indices), f"this test wallet holds no claim {full} (index {head})")
        for index in indices:
            walk(held[index], rest, at + (index,), full)

    for path in paths:
        walk(model, list(path), (), path)
    order = {path: n for n, path in enumerate(_document_order(model))}
    return sorted(chosen, key=lambda path: order[path])


def _document_order(node: Any, at: tuple = ()) -> list[tuple]:
    """Every disclosable path of a model, parents before members."""
    out: list[tuple] = []
    if isinstance(node, sv.SD):
        node = node.value
    if isinstance(node, dict):
        for name, value in node.items():
            if name != sv.DECOYS_KEY:
                out += ([at + (name,)] if isinstance(value, sv.SD) else []) + _document_order(value, at + (name,))
    elif isinstance(node, list):
        for index, value in enumerate(v for v in node if not isinstance(v, sv.Decoy)):
            out += ([at + (index,)] if isinstance(value, sv.SD) else []) + _document_order(value, at + (index,))
    return out


def expected_sdjwt_claims(paths: list[list], model: dict | None = None) -> dict:
    """What the service reports as claims for name-only paths: the requested claims with the issued values, nested as
    in the credential (OpenID4VP 7.1 projection)."""
    model = model if model is not None else sv.pid_model()
    out: dict = {}
    for path in paths:
        expect(all(isinstance(p, str) for p in path), f"expected claims are computed for names only, not {path}")
        node: Any = _plain(model)
        target = out
        for index, name in enumerate(path):
            node = node[name]
            if index == len(path) - 1:
                target[name] = node
            else:
                target = target.setdefault(name, {})
    return out


def tamper_disclosure(encoded: str) -> str:
    """The same disclosure with another value (salt and name kept): its digest is then referenced nowhere."""
    decoded = json.loads(b64url_strict(encoded, "disclosure"))
    decoded[-1] = "Eve" if decoded[-1] != "Eve" else "Mallory"
    return b64url(compact_json(decoded).encode("utf-8"))


def sd_jwt_presentation(s: Session, query: CredentialQuery, *, extra_paths: tuple = (), audience: str | None = None,
                        nonce: str | None = None, key_binding: bool = True, tamper: bool = False,
                        vct: str = PID_VCT, issuer: SdJwtIssuer | None = None,
                        issued: IssuedSdJwt | None = None, presented_ids: list[str] | None = None,
                        tx_claims: Any = KEEP) -> str:
    """<issuer JWT>~<disclosure>~...~<KB-JWT> answering `query` for session `s`: the disclosures of exactly the
    requested claims, a KB-JWT {iat: now, nonce, aud, sd_hash} signed by the holder key, plus
    transaction_data_hashes (and transaction_data_hashes_alg) for the request's transaction data this credential
    approves among the `presented_ids` credential ids (default: every query of the request), as transaction_data.py
    says. The keywords break one thing for the negative scenarios: `extra_paths` are disclosed too,
    `audience`/`nonce` replace the KB-JWT's, `key_binding` False ends the presentation in "~", `tamper` alters the
    first disclosure's value, `vct`/`issuer` change the credential, `tx_claims` (a dict) replaces the transaction
    data claims."""
    issued = issued or issue_sd_jwt_vc(vct=vct, issuer=issuer)
    paths = list(query.paths) + [list(p) for p in extra_paths]
    presented = [issued.disclosures[path] for path in select_disclosures(issued.model, paths)]
    if tamper:
        expect(presented, "no disclosure to tamper with")
        presented[0] = tamper_disclosure(presented[0])
    prefix = issued.jwt + "~" + "".join(d + "~" for d in presented)
    if not key_binding:
        return prefix
    claims = {"iat": now(), "nonce": nonce if nonce is not None else s.nonce,
              "aud": audience if audience is not None else s.kb_audience, "sd_hash": sd_digest(prefix)}
    if tx_claims is KEEP:
        try:
            tx_claims = txd.kb_claims(approved_by(s, query.id, presented_ids))
        except txd.TransactionDataError as error:
            raise Failure(f"this wallet cannot approve the request's {error}") from None
    claims |= tx_claims
    return prefix + es256_jws({"alg": "ES256", "typ": KB_TYP}, claims, holder_key())


def approved_by(s: Session, credential_id: str, presented: list[str] | None = None) -> list[txd.Entry]:
    """The request's transaction data entries the presentation for `credential_id` approves (the first presented
    credential each entry names), in request order."""
    presented = presented if presented is not None else [q.id for q in s.credentials]
    return txd.approved_by(s.transaction_data, credential_id, presented)


def concat_kdf(z: bytes, enc: str, key_length: int, apu: bytes = b"", apv: bytes = b"") -> bytes:
    """RFC 7518 4.6.2 (NIST SP 800-56A Concat KDF, SHA-256) for direct key agreement: AlgorithmID = enc."""
    def counted(data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + data
    other_info = counted(enc.encode()) + counted(apu) + counted(apv) + (8 * key_length).to_bytes(4, "big")
    out = b""
    counter = 1
    while len(out) < key_length:
        out += hashlib.sha256(counter.to_bytes(4, "big") + z + other_info).digest()
        counter += 1
    return out[:key_length]


def jwk_public_key(jwk: dict) -> ec.EllipticCurvePublicKey:
    return ec.EllipticCurvePublicNumbers(int.from_bytes(b64url_strict(jwk["x"], "x"), "big"),
                                         int.from_bytes(b64url_strict(jwk["y"], "y"), "big"),
                                         ec.SECP256R1()).public_key()


def _epk(key: ec.EllipticCurvePublicKey) -> dict:
    numbers = key.public_numbers()
    return {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
            "y": b64url(numbers.y.to_bytes(32, "big"))}


def _off_curve(epk: dict) -> dict:
    """The same x with a y one bit off: not a point of P-256 (checked)."""
    y = bytearray(b64url_strict(epk["y"], "y"))
    y[-1] ^= 0x01
    bad = dict(epk, y=b64url(bytes(y)))
    try:
        jwk_public_key(bad)
    except ValueError:
        return bad
    raise AssertionError("the altered epk is still on the curve")


def jwe_encrypt(jwk: dict, plaintext: bytes, enc: str = "A128GCM", *, kid: Any = KEEP, alg: str = "ECDH-ES",
                epk_off_curve: bool = False, encrypted_key: bytes = b"") -> str:
    """Compact JWE (RFC 7516) to `jwk`: ECDH-ES direct key agreement with a fresh P-256 ephemeral key, Concat KDF,
    AES-GCM with the protected header's base64url as AAD. The keywords break one thing for negative scenarios (the
    content is still encrypted with the ECDH-ES key, so only that one thing is wrong)."""
    ephemeral = ec.generate_private_key(ec.SECP256R1())
    z = ephemeral.exchange(ec.ECDH(), jwk_public_key(jwk))
    epk = _epk(ephemeral.public_key())
    header: dict[str, Any] = {"alg": alg, "enc": enc}
    kid = jwk.get("kid") if kid is KEEP else kid
    if kid is not None:
        header["kid"] = kid
    header["epk"] = _off_curve(epk) if epk_off_curve else epk
    protected = b64url(json.dumps(header, separators=(",", ":")).encode())
    cek = concat_kdf(z, enc, CONTENT_ENCRYPTIONS[enc])
    iv = secrets.token_bytes(12)
    sealed = AESGCM(cek).encrypt(iv, plaintext, protected.encode("ascii"))
    return ".".join([protected, b64url(encrypted_key), b64url(iv), b64url(sealed[:-16]), b64url(sealed[-16:])])


def jwe_decrypt(compact: str, key: ec.EllipticCurvePrivateKey) -> tuple[dict, bytes]:
    """The recipient side (self-test only): ECDH-ES + A128GCM/A256GCM compact JWE -> (header, plaintext)."""
    protected, encrypted_key, iv, ciphertext, tag = compact.split(".")
    header = strict_json(b64url_strict(protected, "JWE header"), "JWE header")
    expect(header.get("alg") == "ECDH-ES" and header.get("enc") in CONTENT_ENCRYPTIONS and encrypted_key == "",
           f"unsupported JWE header {header}")
    z = key.exchange(ec.ECDH(), jwk_public_key(header["epk"]))
    apu = b64url_strict(header["apu"], "apu") if "apu" in header else b""
    apv = b64url_strict(header["apv"], "apv") if "apv" in header else b""
    cek = concat_kdf(z, header["enc"], CONTENT_ENCRYPTIONS[header["enc"]], apu, apv)
    plaintext = AESGCM(cek).decrypt(b64url_strict(iv, "iv"), b64url_strict(ciphertext, "ciphertext")
                                    + b64url_strict(tag, "tag"), protected.encode("ascii"))
    return header, plaintext


def answer(s: Session, *, transcript: bytes | None = None, vp: dict | None = None, enc: str | None = None,
           recipient: dict | None = None, **jwe_options: Any) -> dict:
    """What the wallet returns: {vp_token} for dc_api, {response: <JWE>} for the encrypted modes (for
    direct_post.jwt the value goes into the form)."""
    transcript = transcript if transcript is not None else session_transcript(s)
    vp = vp if vp is not None else vp_token(s, transcript)
    if s.response_mode not in ENCRYPTED_MODES:
        return {"vp_token": vp}
    enc = enc or "A128GCM"
    expect(enc in s.enc_values, f"the service does not offer {enc} in encrypted_response_enc_values_supported "
                                f"{s.enc_values} (HAIP: verifiers support A128GCM and A256GCM)")
    payload = json.dumps({"vp_token": vp}, separators=(",", ":")).encode()
    return {"response": jwe_encrypt(recipient or s.jwk, payload, enc, **jwe_options)}


# --------------------------------------------------------------------------------------------------
# HTTP
# --------------------------------------------------------------------------------------------------

class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:  # a 30x comes back as an HTTPError
        return None


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Client:
    def __init__(self, base_url: str, root: x509.Certificate, token: str = DEMO_INTEGRATOR_TOKEN,
                 enc: str = "A128GCM", public_base_url: str | None = None) -> None:
        self.base_url, self.root, self.token, self.enc = base_url.rstrip("/"), root, token, enc
        self.public_base_url = public_base_url.rstrip("/") if public_base_url else None

    def local(self, url: str) -> str:
        """A path under --base-url, or a URL the service gave: mapped from --public-base-url, and only on the base
        URL's host or a loopback address."""
        if url.startswith("/"):
            url = self.base_url + url
        elif self.public_base_url and (url == self.public_base_url or url.startswith(self.public_base_url + "/")):
            url = self.base_url + url[len(self.public_base_url):]
        parts = urllib.parse.urlsplit(url)
        expect(parts.scheme in ("http", "https") and parts.hostname, f"{url!r} is not an http(s) URL")
        expect(parts.hostname == urllib.parse.urlsplit(self.base_url).hostname or _loopback(parts.hostname),
               f"refusing to contact {parts.hostname} ({url}): neither the --base-url host nor loopback "
               f"(map the service's public URL with --public-base-url)")
        return url

    def send(self, method: str, url: str, data: bytes | None = None, content_type: str | None = None,
             auth: bool = True, accept: str = "application/json") -> Reply:
        headers = {"Accept": accept}
        if content_type:
            headers["Content-Type"] = content_type
        if auth:
            headers["Authorization"] = "Bearer " + self.token
        target = self.local(url)
        request = urllib.request.Request(target, data=data, method=method, headers=headers)
        try:
            with _OPENER.open(request, timeout=HTTP_TIMEOUT) as response:
                status, raw, ctype = response.status, response.read(), response.headers.get("Content-Type", "")
                headers = {k.lower(): v for k, v in response.headers.items()}
        except urllib.error.HTTPError as error:
            status, ctype = error.code, error.headers.get("Content-Type", "") if error.headers else ""
            headers = {k.lower(): v for k, v in error.headers.items()} if error.headers else {}
            try:
                raw = error.read()
            except OSError:
                raw = b""
        except (urllib.error.URLError, OSError) as error:  # refused, reset, timed out
            raise Failure(f"{method} {target}: {error}") from None
        text = raw.decode("utf-8", "replace")
        try:
            parsed = json.loads(text) if text else {}
        except json.JSONDecodeError:
            parsed = {}
        return Reply(status, parsed, text, ctype, headers)

    def post_json(self, path: str, body: dict) -> Reply:
        return self.send("POST", path, json.dumps(body).encode(), "application/json")

    def create(self, origin: str = ORIGIN, documents: list | None = DEFAULT_DOCUMENTS, response_mode: str | None = None,
               signed: bool | None = None, flow: str | None = None, dcql_query: dict | None = None,
               transaction_data: Any = None, report: str | None = None) -> Reply:
        """POST /v1/oid4vp/requests with `documents`, or with `dcql_query` instead (then documents is not sent);
        `transaction_data` and `report` (transactionDataReport) only when given."""
        body: dict[str, Any] = {"origin": origin}
        for name, value in (("documents", documents if dcql_query is None else None), ("dcql_query", dcql_query),
                            ("responseMode", response_mode), ("signed", signed), ("flow", flow),
                            ("transaction_data", transaction_data), ("transactionDataReport", report)):
            if value is not None:
                body[name] = value
        return self.post_json("/v1/oid4vp/requests", body)

    @staticmethod
    def _transaction_data_sent(session: Session, body: dict, sent: list[dict] | None, report: str | None) -> None:
        """The wallet's view of the integrator's transaction data: none sent, no `transaction_data` member in the
        request object and no `transactionData` in the 201; else the entries exactly as sent, in order, and the 201's
        `transactionData` the request's strings."""
        if sent is None:
            expect("transaction_data" not in session.params, "a request without transaction data carries a "
                                                            "transaction_data member")
            expect("transactionData" not in body, "the 201 of a request without transaction data has transactionData")
            return
        try:
            txd.check_sent(session.transaction_data, sent)
        except txd.TransactionDataError as error:
            raise Failure(str(error)) from None
        expect(body.get("transactionData") == session.params.get("transaction_data"),
               f"the 201's transactionData {json.dumps(body.get('transactionData'))[:200]} is not the request's "
               f"transaction_data")
        session.report_objects = report == "objects"

    @staticmethod
    def _asked(session: Session, documents: list, dcql_query: dict | None) -> None:
        if dcql_query is None:
            expect(session.requested == requested_by(documents),
                   f"the DCQL query asks {session.requested}, the integrator asked {requested_by(documents)}")
        else:  # sent on unchanged (member order aside)
            expect(session.params.get("dcql_query") == dcql_query,
                   f"the request's dcql_query {json.dumps(session.params.get('dcql_query'))[:300]} is not the "
                   f"integrator's {json.dumps(dcql_query)[:300]}")

    def make(self, signed: bool = True, mode: str = "dc_api.jwt", documents: list = DEFAULT_DOCUMENTS,
             origin: str = ORIGIN, dcql_query: dict | None = None, transaction_data: list[dict] | None = None,
             report: str | None = None) -> Session:
        reply = self.create(origin, documents, mode, signed, "dc_api", dcql_query, transaction_data, report)
        if reply.status != 201:
            raise reply.fail("/v1/oid4vp/requests did not answer 201")
        session = check_dc_api_answer(reply.body, origin, signed, mode, self.root)
        self._asked(session, documents, dcql_query)
        self._transaction_data_sent(session, reply.body, transaction_data, report)
        return session

    def make_cross_device(self, documents: list = DEFAULT_DOCUMENTS, dcql_query: dict | None = None,
                          transaction_data: list[dict] | None = None,
                          report: str | None = None) -> tuple[Session, str]:
        """Creates a cross-device session and fetches its request object once. Returns (session, request_uri)."""
        reply = self.create(ORIGIN, documents, None, None, "cross-device", dcql_query, transaction_data, report)
        if reply.status != 201:
            raise reply.fail("/v1/oid4vp/requests (cross-device) did not answer 201")
        session, request_uri = self.open_cross_device(reply.body)
        self._asked(session, documents, dcql_query)
        self._transaction_data_sent(session, reply.body, transaction_data, report)
        return session, request_uri

    def create_presentation(self, dcql_query: dict, transaction_data: Any = None, report: str | None = None,
                            origin: str = ORIGIN) -> Reply:
        """POST /v1/presentations/requests (one request offered over every protocol the service allows)."""
        body: dict[str, Any] = {"origin": origin, "dcql_query": dcql_query}
        for name, value in (("transaction_data", transaction_data), ("transactionDataReport", report)):
            if value is not None:
                body[name] = value
        return self.post_json("/v1/presentations/requests", body)

    def make_presentation(self, dcql_query: dict, transaction_data: list[dict] | None = None,
                          report: str | None = None) -> Session:
        """A /v1/presentations/requests session answered over OpenID4VP: the 201 is {sessionId, expiresAt, protocols,
        digital: {requests}, transactionData?}; every OpenID4VP request offered is checked (and carries the same
        transaction_data), and the signed one is answered (else the unsigned one)."""
        reply = self.create_presentation(dcql_query, transaction_data, report)
        if reply.status != 201:
            raise reply.fail("/v1/presentations/requests did not answer 201")
        body = reply.body
        expect(isinstance(body, dict) and set(body) - {"transactionData"} == {"sessionId", "expiresAt", "protocols",
                                                                             "digital"},
               f"the presentations answer has members {sorted(body) if isinstance(body, dict) else body!r}")
        requests = body["digital"].get("requests") if isinstance(body["digital"], dict) else None
        expect(isinstance(requests, list) and all(isinstance(r, dict) for r in requests)
               and body["protocols"] == [r.get("protocol") for r in requests],
               "digital.requests do not follow protocols")
        sessions: list[Session] = []
        for request in requests:
            if request.get("protocol") not in (PROTOCOL_SIGNED, PROTOCOL_UNSIGNED):
                continue
            single = {"sessionId": body["sessionId"], "expiresAt": body["expiresAt"], "request": request}
            signed = request["protocol"] == PROTOCOL_SIGNED
            session = check_dc_api_answer(single, ORIGIN, signed, _response_mode_of(request), self.root)
            session.route, session.protocol = "presentations", request["protocol"]
            self._asked(session, [], dcql_query)
            self._transaction_data_sent(session, body, transaction_data, report)
            sessions.append(session)
        expect(sessions, f"/v1/presentations/requests offers no OpenID4VP request: {body['protocols']}")
        return next((x for x in sessions if x.signed), sessions[0])

    def verify_presentation(self, s: Session, data: dict) -> Reply:
        return self.post_json("/v1/presentations/verify", {"sessionId": s.session_id,
                                                           "credential": {"protocol": s.protocol, "data": data}})

    def open_cross_device(self, body: Any) -> tuple[Session, str]:
        """The wallet's side of a cross-device answer: reads its authorizationRequest (the QR code's text), fetches
        the request object once and checks it. Returns (session, request_uri)."""
        expect(isinstance(body, dict) and isinstance(body.get("sessionId"), str) and body["sessionId"],
               "sessionId is not a non-empty string")
        check_expires_at(body.get("expiresAt"))
        expect("request" not in body, "a cross-device answer carries a DC API request")
        client_id, request_uri = parse_authorization_request(body.get("authorizationRequest"))
        fetched = self.send("GET", request_uri, auth=False, accept="application/oauth-authz-req+jwt")
        if fetched.status != 200:
            raise fetched.fail("GET request_uri did not answer 200")
        expect(fetched.content_type.split(";")[0].strip() == "application/oauth-authz-req+jwt",
               f"request_uri answered {fetched.content_type!r}, not application/oauth-authz-req+jwt")
        _, params, leaf = check_signed_request(fetched.text.strip(), self.root)
        expect(params.get("client_id") == client_id,
               f"the request object's client_id {params.get('client_id')!r} is not the authorization request's "
               f"{client_id!r}")
        parsed = check_request_object(params, signed=True, response_mode="direct_post.jwt", origin=None)
        session = Session(body["sessionId"], "cross-device", ORIGIN, True, "direct_post.jwt", params, client_id,
                          parsed["nonce"], parsed["credentials"], parsed["jwk"], parsed["enc_values"],
                          parsed["response_uri"], leaf, transaction_data=parsed["transaction_data"])
        return session, request_uri

    def verify(self, session_id: str, response: dict) -> Reply:
        return self.post_json("/v1/oid4vp/verify", {"sessionId": session_id, "response": response})

    def post_response(self, s: Session, jwe: str) -> Reply:
        form = urllib.parse.urlencode({"response": jwe}).encode()
        return self.send("POST", s.response_uri, form, "application/x-www-form-urlencoded", auth=False)

    def result(self, session_id: str) -> Reply:
        return self.send("GET", f"/v1/oid4vp/sessions/{urllib.parse.quote(session_id, safe='')}/result")


# --------------------------------------------------------------------------------------------------
# What the service answers, checked
# --------------------------------------------------------------------------------------------------

def reply_code(reply: Reply) -> str | None:
    body = reply.body if isinstance(reply.body, dict) else {}
    return body.get("code") or body.get("failureCode")


def expect_refused(reply: Reply, statuses: set[int], codes: set[str] | None, what: str) -> None:
    """A 4xx problem or a 422 report that did not verify, with one of `codes` (None: any)."""
    body = reply.body if isinstance(reply.body, dict) else {}
    if reply.status not in statuses or body.get("verified") is True or (codes is not None
                                                                        and reply_code(reply) not in codes):
        raise reply.fail(f"{what}: expected status {sorted(statuses)} with code "
                         f"{'any' if codes is None else sorted(codes)}")


def expect_device_auth_failed(reply: Reply, what: str) -> None:
    expect_refused(reply, {422}, CODES_DEVICE_AUTH_FAILED, what)
    documents = reply.body.get("documents") if isinstance(reply.body, dict) else None
    if documents:
        check = ww.check_of(documents[0], "device.authentication")
        if check.get("outcome") != "failed":
            raise reply.fail(f"{what}: check device.authentication is {check or 'absent'}, not failed")
        if "claims" in documents[0]:
            raise reply.fail(f"{what}: a failed report carries claims")


def expect_sdjwt_verified(reply: Reply, s: Session, query: CredentialQuery, document: dict) -> None:
    """One verified SD-JWT VC document: format dc+sd-jwt, the PID vct, claims exactly the requested ones with the
    issued values, every requested path among `disclosed`, the KB-JWT audience the session's, no failed check and
    request.claims passed."""
    if document.get("vct") != PID_VCT or document.get("verified") is not True:
        raise reply.fail(f"the dc+sd-jwt document is not a verified {PID_VCT}")
    expected = expected_sdjwt_claims(query.paths)
    if document.get("claims") != expected:
        raise reply.fail(f"dc+sd-jwt claims differ from {expected}")
    disclosed = document.get("disclosed")
    wanted = {".".join(path) for path in query.paths}
    if not (isinstance(disclosed, list) and wanted <= set(disclosed)):
        raise reply.fail(f"disclosed {disclosed!r} does not name every requested path {sorted(wanted)}")
    binding = document.get("keyBinding")
    if not (isinstance(binding, dict) and binding.get("audience") == s.kb_audience):
        raise reply.fail(f"keyBinding {binding!r} does not carry the audience {s.kb_audience!r}")
    # what the holder's key approved: exactly the entries this wallet bound in this credential's KB-JWT
    expected_approvals = txd.expected_report(approved_by(s, query.id), s.report_objects)
    if expected_approvals or "transactionData" in binding:
        if txd.ordered(binding.get("transactionData")) != txd.ordered(expected_approvals):
            raise reply.fail(f"keyBinding.transactionData of {query.id!r} is not {json.dumps(expected_approvals)[:400]}")
    if expected_approvals and ww.check_of(document, "sdjwt.transactionData").get("outcome") != "passed":
        raise reply.fail(f"check sdjwt.transactionData of {query.id!r} did not pass")
    failed = [c for c in document.get("checks", []) if isinstance(c, dict) and c.get("outcome") == "failed"]
    if failed:
        raise reply.fail(f"verified although checks failed: {failed}")
    if ww.check_of(document, "request.claims").get("outcome") != "passed":
        raise reply.fail("check request.claims did not pass")


def expect_verified(reply: Reply, s: Session) -> list[dict]:
    """200, verified, one document per credential query whose claims are exactly the disclosed values and where no
    check failed (request.elements or request.claims passed), credentialIds naming each document's query."""
    body = reply.body if isinstance(reply.body, dict) else {}
    if reply.status != 200 or body.get("verified") is not True:
        raise reply.fail("expected 200 verified")
    documents = body.get("documents")
    if not (isinstance(documents, list) and len(documents) == len(s.credentials)
            and all(isinstance(d, dict) for d in documents)):
        raise reply.fail(f"expected {len(s.credentials)} document(s) in the report")
    ids = body.get("credentialIds")
    if any(q.format == SDJWT_FORMAT for q in s.credentials) or ids is not None:
        if not (isinstance(ids, list) and len(ids) == len(documents)
                and sorted(ids) == sorted(q.id for q in s.credentials)):
            raise reply.fail(f"credentialIds {ids!r} are not the queries' ids {[q.id for q in s.credentials]}")
    for query in s.credentials:
        if query.format == SDJWT_FORMAT:
            at = [i for i, d in enumerate(documents) if d.get("format") == SDJWT_FORMAT
                  and (ids is None or ids[i] == query.id)]
            if len(at) != 1:
                raise reply.fail(f"not one dc+sd-jwt document for {query.id!r}")
            expect_sdjwt_verified(reply, s, query, documents[at[0]])
            continue
        document = next((d for d in documents if d.get("docType") == query.doctype), None)
        if document is None or document.get("verified") is not True:
            raise reply.fail(f"no verified {query.doctype} in the report")
        if document.get("format") != MDOC_FORMAT:
            raise reply.fail(f"the {query.doctype} document's format is {document.get('format')!r}, not mso_mdoc")
        expected = g.json_claims({ns: {e: VALUES[e] for e in els} for ns, els in query.claims.items()})
        if document.get("claims") != expected:
            raise reply.fail(f"claims differ from {expected}")
        failed = [c for c in document.get("checks", []) if isinstance(c, dict) and c.get("outcome") == "failed"]
        if failed:
            raise reply.fail(f"verified although checks failed: {failed}")
        if ww.check_of(document, "request.elements").get("outcome") != "passed":
            raise reply.fail("check request.elements did not pass")
        if document.get("notReturned"):
            raise reply.fail("notReturned present although everything came back")
    return documents


# --------------------------------------------------------------------------------------------------
# Scenarios: each returns (status, code, detail) or raises Failure
# --------------------------------------------------------------------------------------------------

_verified_body: dict = {}


def _elements(s: Session) -> str:
    return ", ".join(f"{e}{'(retain)' if r else ''}" for q in s.credentials for els in q.claims.values()
                     for e, r in els.items())


def scenario_verified(signed: bool, mode: str, enc: str | None) -> Callable[[Client], tuple]:
    def run(c: Client) -> tuple:
        s = c.make(signed, mode)
        response = answer(s, enc=enc)
        reply = c.verify(s.session_id, response)
        expect_verified(reply, s)
        _verified_body.setdefault("body", {"sessionId": s.session_id, "response": response})
        how = f"{'signed' if signed else 'unsigned'} {mode}" + (f" {enc}, kid {s.jwk['kid']!r}" if enc else "")
        return reply.status, None, f"{how}: {_elements(s)} verified"
    return run


def scenario_cross_device(c: Client) -> tuple:
    s, _ = c.make_cross_device()
    posted = c.post_response(s, answer(s, enc=c.enc)["response"])
    if posted.status != 200 or not isinstance(posted.body, dict):
        raise posted.fail("the response_uri POST did not answer 200 with a JSON object")
    redirect = posted.body.get("redirect_uri")
    expect(redirect is None or isinstance(redirect, str), f"redirect_uri {redirect!r} is not a string")
    result = c.result(s.session_id)
    expect_verified(result, s)
    return result.status, None, (f"direct_post.jwt {c.enc} to {s.response_uri}; result verified ({_elements(s)})"
                                 + (f"; redirect_uri {redirect}" if redirect else ""))


def scenario_cross_device_request_fetched_again(c: Client) -> tuple:
    """OpenID4VP 1.0 does not make request_uri single use: a second GET gets a valid request object with the same
    claims (the answer goes to the one session); once the session is answered, it is served no more."""
    s, request_uri = c.make_cross_device()
    again = c.send("GET", request_uri, auth=False, accept="application/oauth-authz-req+jwt")
    if again.status != 200:
        raise again.fail("a second GET of request_uri did not answer 200")
    _, params, _ = check_signed_request(again.text.strip(), c.root)
    expect(params == s.params, "the request object fetched again carries other claims than the first")
    reply = c.post_response(s, answer(s)["response"])
    if reply.status != 200:
        raise reply.fail("the answer after two fetches was not received with 200")
    after = c.send("GET", request_uri, auth=False, accept="application/oauth-authz-req+jwt")
    if after.status not in STATUSES_REQUEST_URI_ANSWERED:
        raise after.fail(f"GET of request_uri after the answer: expected {sorted(STATUSES_REQUEST_URI_ANSWERED)}")
    result = c.result(s.session_id)
    expect_verified(result, s)
    return after.status, reply_code(after), "fetched twice, answered once; served no more after the answer"


def scenario_cross_device_posted_twice(c: Client) -> tuple:
    s, _ = c.make_cross_device()
    jwe = answer(s, enc=c.enc)["response"]
    first = c.post_response(s, jwe)
    if first.status != 200:
        raise first.fail("the first response_uri POST did not answer 200")
    second = c.post_response(s, jwe)
    expect_refused(second, {409}, CODES_RESPONSE_POSTED_TWICE, "the same response posted again")
    return second.status, reply_code(second), "first POST 200, the same response again 409"


def scenario_cross_device_result(c: Client) -> tuple:
    s, _ = c.make_cross_device()
    pending = c.result(s.session_id)
    if pending.status != 202:
        raise pending.fail("the result before the wallet answered: expected 202")
    posted = c.post_response(s, answer(s, enc=c.enc)["response"])
    if posted.status != 200:
        raise posted.fail("the response_uri POST did not answer 200")
    expect_verified(c.result(s.session_id), s)
    third = c.result(s.session_id)
    expect_refused(third, {409}, CODES_RESULT_ALREADY_FETCHED, "the result fetched again")
    return third.status, reply_code(third), "result 202 before the answer, 200 verified after, then 409"


def scenario_replay(c: Client) -> tuple:
    if not _verified_body:  # run alone: make the first use here
        scenario_verified(True, "dc_api.jwt", c.enc)(c)
    body = _verified_body["body"]
    reply = c.verify(body["sessionId"], body["response"])
    ww.expect_problem(reply, 409, CODE_SESSION_ALREADY_USED)
    return reply.status, reply.code, "the verified body a second time"


def scenario_wallet_error(c: Client) -> tuple:
    s = c.make()
    reply = c.verify(s.session_id, {"error": "access_denied", "error_description": "the user declined"})
    expect_refused(reply, {422}, {CODE_WALLET_DECLINED}, "{error: access_denied}")
    return reply.status, reply_code(reply), "the wallet's access_denied reported"


def scenario_other_session_key(c: Client) -> tuple:
    a, b = c.make(), c.make()
    reply = c.verify(a.session_id, answer(a, enc=c.enc, recipient=b.jwk))
    expect_refused(reply, STATUSES_JWE_REFUSED, CODES_JWE_OTHER_SESSION_KEY, "a JWE to another session's key")
    return reply.status, reply_code(reply), "A's answer encrypted to B's key (and kid) posted to A: refused"


def scenario_wrong_kid(c: Client) -> tuple:
    s = c.make()
    reply = c.verify(s.session_id, answer(s, enc=c.enc, kid="not-" + s.jwk["kid"]))
    expect_refused(reply, STATUSES_JWE_REFUSED, CODES_JWE_WRONG_KID, "a JWE with a kid the session does not have")
    return reply.status, reply_code(reply), "right key, kid of no key: refused"


def scenario_epk_off_curve(c: Client) -> tuple:
    s = c.make()
    reply = c.verify(s.session_id, answer(s, enc=c.enc, epk_off_curve=True))
    expect_refused(reply, STATUSES_JWE_REFUSED, CODES_JWE_EPK_OFF_CURVE, "a JWE whose epk is not on P-256")
    return reply.status, reply_code(reply), "epk with y one bit off (invalid-curve attack shape): refused"


def scenario_bad_alg(alg: str) -> Callable[[Client], tuple]:
    def run(c: Client) -> tuple:
        s = c.make()
        extra = {"encrypted_key": secrets.token_bytes(256)} if alg.startswith("RSA") else {}
        reply = c.verify(s.session_id, answer(s, enc=c.enc, alg=alg, **extra))
        expect_refused(reply, STATUSES_JWE_REFUSED, CODES_JWE_BAD_ALG, f"a JWE with alg {alg}")
        return reply.status, reply_code(reply), f"JWE header alg {alg!r} (content still ECDH-ES encrypted): refused"
    return run


def scenario_device_auth(what: str, **overrides: Any) -> Callable[[Client], tuple]:
    def run(c: Client) -> tuple:
        s = c.make()
        kwargs = dict(overrides)
        if kwargs.get("nonce") == "fresh":
            kwargs["nonce"] = b64url(secrets.token_bytes(32))
        transcript = session_transcript(s, **kwargs)
        reply = c.verify(s.session_id, answer(s, transcript=transcript, enc=c.enc))
        expect_device_auth_failed(reply, what)
        return reply.status, reply_code(reply), f"DeviceResponse over {what}: device.authentication failed"
    return run


def scenario_unknown_credential_id(c: Client) -> tuple:
    s = c.make()
    transcript = session_transcript(s)
    reply = c.verify(s.session_id, answer(s, vp=vp_token(s, transcript, key="not_asked_for"), enc=c.enc))
    expect_refused(reply, {422}, {CODE_UNKNOWN_CREDENTIAL_ID}, "vp_token keyed by an unknown credential id")
    return reply.status, reply_code(reply), f"vp_token {{not_asked_for: [...]}} for query {s.credentials[0].id!r}"


def scenario_two_presentations(c: Client) -> tuple:
    s = c.make()
    expect(not s.credentials[0].multiple, "the query allows multiple credentials: nothing to test")
    transcript = session_transcript(s)
    reply = c.verify(s.session_id, answer(s, vp=vp_token(s, transcript, copies=2), enc=c.enc))
    expect_refused(reply, {422}, CODES_TOO_MANY_PRESENTATIONS, "two DeviceResponses for one credential query")
    return reply.status, reply_code(reply), "two valid DeviceResponses under one id without multiple: true"


def scenario_request_shape(c: Client) -> tuple:
    asked = [{"docType": g.MDL_DOCTYPE, "elements": {g.MDL_NS: {"family_name": True, "document_number": False}}}]
    first, second = c.make(documents=asked), c.make(documents=asked)
    unsigned = c.make(signed=False, mode="dc_api", documents=asked)
    expect(first.session_id != second.session_id, "two sessions share a sessionId")
    expect(len({first.nonce, second.nonce, unsigned.nonce}) == 3, "two sessions share a nonce")
    expect(first.jwk["x"] != second.jwk["x"], "two sessions share a response-encryption key")
    return 201, None, (f"signed: client_id {first.client_id}, leaf {first.leaf.subject.rfc4514_string()}; "
                       f"nonce {len(first.nonce)} chars, fresh per session; enc {first.enc_values}; "
                       f"intent_to_retain true/false carried; unsigned request without client_id")


PID_DCQL = {"credentials": [PID_QUERY]}
PID_AND_MDL_DCQL = {"credentials": [MDL_QUERY, PID_QUERY]}


def _sdjwt_session(c: Client, dcql_query: dict, cross_device: bool, **make: Any) -> Session:
    if cross_device:
        return c.make_cross_device(dcql_query=dcql_query)[0]
    return c.make(dcql_query=dcql_query, **make)


def _deliver(c: Client, s: Session, vp: dict | None = None, enc: str | None = None) -> Reply:
    """The answer with `vp` (default: the honest vp_token) to /v1/oid4vp/verify, or cross-device to response_uri
    (which must say 200 whatever the verdict) and then the result route."""
    if s.route == "presentations":
        return c.verify_presentation(s, answer(s, vp=vp, enc=enc or c.enc))
    if s.flow == "dc_api":
        return c.verify(s.session_id, answer(s, vp=vp, enc=enc or c.enc))
    posted = c.post_response(s, answer(s, vp=vp, enc=enc or c.enc)["response"])
    if posted.status != 200:
        raise posted.fail("the response_uri POST did not answer 200")
    return c.result(s.session_id)


def scenario_sdjwt_verified(signed: bool, mode: str, enc: str | None, *, cross_device: bool = False,
                            dcql_query: dict = PID_DCQL) -> Callable[[Client], tuple]:
    def run(c: Client) -> tuple:
        s = _sdjwt_session(c, dcql_query, cross_device, signed=signed, mode=mode)
        expect(any(q.format == SDJWT_FORMAT for q in s.credentials), "the session has no dc+sd-jwt query")
        reply = _deliver(c, s, enc=enc)
        documents = expect_verified(reply, s)
        how = "cross-device direct_post.jwt" if cross_device else f"{'signed' if signed else 'unsigned'} {mode}"
        if s.response_mode in ENCRYPTED_MODES:
            how += " " + (enc or c.enc)
        formats = ", ".join(str(d.get("format")) for d in documents)
        claims = [expected_sdjwt_claims(q.paths) for q in s.credentials if q.format == SDJWT_FORMAT]
        return reply.status, None, (f"{how}: {formats} verified (credentialIds {reply.body.get('credentialIds')}), "
                                    f"KB-JWT aud {s.kb_audience!r}, claims {compact_json(claims)}")
    return run


def expect_sdjwt_refused(reply: Reply, code: str, what: str) -> None:
    """422 not verified with `code`; the dc+sd-jwt document (when the report has documents) has that failed check
    and no claims."""
    expect_refused(reply, {422}, {code}, what)
    documents = reply.body.get("documents") if isinstance(reply.body, dict) else None
    if documents:
        document = next((d for d in documents if isinstance(d, dict) and d.get("format") == SDJWT_FORMAT), None)
        if document is None:
            raise reply.fail(f"{what}: no dc+sd-jwt document in the report")
        if not any(isinstance(ch, dict) and ch.get("outcome") == "failed" and ch.get("code") == code
                   for ch in document.get("checks", [])):
            raise reply.fail(f"{what}: no failed check with code {code}")
        if "claims" in document:
            raise reply.fail(f"{what}: a failed report carries claims")


def scenario_sdjwt_refused(code: str, what: str, *, cross_device: bool = False,
                           **options: Any) -> Callable[[Client], tuple]:
    """One defect in the SD-JWT VC answer (sd_jwt_presentation's keywords; "untrusted" for issuer, "fresh" for nonce
    and "dc-api" for audience are resolved per session)."""
    def run(c: Client) -> tuple:
        s = _sdjwt_session(c, PID_DCQL, cross_device)
        kwargs = dict(options)
        if kwargs.get("issuer") == "untrusted":
            kwargs["issuer"] = SDJWT_ISSUERS["untrusted"]()
        if kwargs.get("nonce") == "fresh":
            kwargs["nonce"] = b64url(secrets.token_bytes(32))
        if kwargs.get("audience") == "dc-api":
            kwargs["audience"] = "origin:" + s.origin
        expect(kwargs.get("audience") != s.kb_audience, "the wrong audience is the session's")
        reply = _deliver(c, s, vp_token(s, session_transcript(s), **kwargs))
        expect_sdjwt_refused(reply, code, what)
        return reply.status, reply_code(reply), f"{what}: refused"
    return run


def scenario_sdjwt_unrequested_claim(c: Client) -> tuple:
    """birthdate disclosed next to the requested claims: 422 ELEMENT_NOT_REQUESTED, and the answer never echoes the
    birthdate (neither its value nor its disclosure)."""
    s = c.make(dcql_query=PID_DCQL)
    issued = issue_sd_jwt_vc()
    query = next(q for q in s.credentials if q.format == SDJWT_FORMAT)
    presentation = sd_jwt_presentation(s, query, extra_paths=(["birthdate"],), issued=issued)
    secret_value = _plain(issued.model)["birthdate"]
    secret_disclosure = issued.disclosures[("birthdate",)]
    expect(secret_disclosure + "~" in presentation, "the birthdate disclosure is not in the presentation")
    reply = c.verify(s.session_id, answer(s, vp={query.id: [presentation]}, enc=c.enc))
    expect_sdjwt_refused(reply, CODE_SDJWT_UNREQUESTED, "an unrequested birthdate disclosure")
    for leaked in (secret_value, secret_disclosure):
        if leaked in reply.text:
            raise reply.fail(f"the answer contains the unrequested birthdate ({leaked[:20]}...)")
    return reply.status, reply_code(reply), f"birthdate disclosed too: refused, {secret_value} not in the answer"


def authority_key_identifier(certificate: x509.Certificate) -> str:
    """OpenID4VP 1.0 6.1.1.1: base64url of the keyIdentifier of the certificate's AuthorityKeyIdentifier (the key
    identifier bytes, not the extension's DER), read with cryptography."""
    return b64url(certificate.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier)


def scenario_trusted_authorities(c: Client) -> tuple:
    """DCQL trusted_authorities of type aki (HAIP: verifiers MUST support it): sent to the wallet unchanged and held to
    the answer. The mDL's document signer names the test IACA as its authority and the SD-JWT VC's x5c leaf names the
    issuer CA: with those values both verify; with another key identifier (the leaf's own subject key identifier,
    which no AKI in the chain names) each is refused with its own check; an etsi_tl entry is refused at creation."""
    mdl_aki = authority_key_identifier(ww.issuer().entries["ds-p256"].cert)
    pid_aki = authority_key_identifier(sdjwt_issuer().cert)
    other = b64url(x509.SubjectKeyIdentifier.from_public_key(ww.issuer().entries["ds-p256"].cert.public_key()).digest)
    facts = []
    for name, query, aki in (("mso_mdoc", MDL_QUERY, mdl_aki), ("dc+sd-jwt", PID_QUERY, pid_aki)):
        for value, verified in ((aki, True), (other, False)):
            dcql = {"credentials": [dict(query, trusted_authorities=[{"type": "aki", "values": [value]}])]}
            s = c.make(dcql_query=dcql)  # _asked checks the query reached the wallet unchanged
            reply = c.verify(s.session_id, answer(s, enc=c.enc))
            if verified:
                expect_verified(reply, s)
            else:
                expect_refused(reply, {422}, {CODE_NOT_TRUSTED_AUTHORITY}, f"{name} with an aki its chain does not name")
            facts.append(f"{name} aki {value[:8]}… {reply.status}")
    refused = c.create(ORIGIN, None, "dc_api.jwt", True, "dc_api", {"credentials": [
        dict(MDL_QUERY, trusted_authorities=[{"type": "etsi_tl", "values": ["https://lotl.example.com"]}])]})
    expect_refused(refused, {400}, {CODE_TRUSTED_AUTHORITY_TYPE}, "an etsi_tl trusted authority")
    return 201, None, "; ".join(facts) + "; etsi_tl refused"


# --------------------------------------------------------------------------------------------------
# Transaction data (txdata-*): OpenID4VP 1.0 5.1, 8.4, B.3.3.1 (the rules and the test entries: transaction_data.py)
# --------------------------------------------------------------------------------------------------

# A second PID query (another claim), for entries that name two credentials; the same two with a credential set that
# lets the wallet present either; a PID query without holder binding (which transaction data cannot use).
PID2_QUERY = {"id": "pid2", "format": SDJWT_FORMAT, "meta": {"vct_values": [PID_VCT]},
              "claims": [{"path": ["birthdate"]}]}
TWO_PIDS_DCQL = {"credentials": [PID_QUERY, PID2_QUERY]}
EITHER_PID_DCQL = {"credentials": [PID_QUERY, PID2_QUERY], "credential_sets": [{"options": [["pid"], ["pid2"]]}]}
UNBOUND_PID_DCQL = {"credentials": [dict(PID_QUERY, require_cryptographic_holder_binding=False)]}
TX_FLOWS = {"": "dc_api", "-cross-device": "cross-device"}  # scenario name suffix -> flow
TX_CREATION_ROUTES = ("dc_api", "cross-device", "presentations")


def _tx_session(c: Client, flow: str, dcql: dict, sent: list[dict] | None, report: str | None = None) -> Session:
    """A session whose request carries `sent` (checked by the wallet: the entries exactly as sent, or no member)."""
    if flow == "dc_api":
        return c.make(dcql_query=dcql, transaction_data=sent, report=report)
    if flow == "dc_api-unsigned":
        return c.make(signed=False, mode="dc_api", dcql_query=dcql, transaction_data=sent, report=report)
    if flow == "cross-device":
        return c.make_cross_device(dcql_query=dcql, transaction_data=sent, report=report)[0]
    expect(flow == "presentations", f"unknown flow {flow!r}")
    return c.make_presentation(dcql, sent, report)


def _how(s: Session) -> str:
    if s.route == "presentations":
        return f"/v1/presentations {s.protocol} {s.response_mode}"
    if s.flow == "cross-device":
        return "cross-device direct_post.jwt"
    return f"{'signed' if s.signed else 'unsigned'} {s.response_mode}"


class TxHappy(NamedTuple):
    name: str
    what: str
    entries: Callable[[], list[dict]]
    dcql: dict = PID_DCQL
    objects: bool = False  # transactionDataReport "objects"


TXDATA_VERIFIED = [
    TxHappy("payment", "TS12 payment, sha-256 offered", lambda: [txd.payment(["pid"])]),
    TxHappy("payment-sha384", "TS12 payment offering sha-384 then sha-256 (the wallet takes sha-384)",
            lambda: [txd.payment(["pid"], ["sha-384", "sha-256"])]),
    TxHappy("payment-sha512", "TS12 payment offering sha-512 only", lambda: [txd.payment(["pid"], ["sha-512"])]),
    TxHappy("qes-authorization", "qes_authorization without transaction_data_hashes_alg (sha-256, not named)",
            lambda: [txd.qes_authorization(["pid"])]),
    TxHappy("csc-qes", "a CSC 2025/qes signature request", lambda: [txd.csc_qes(["pid"])]),
    TxHappy("two-entries", "a payment and a qes_authorization for one credential",
            lambda: [txd.payment(["pid"]), txd.qes_authorization(["pid"])]),
    TxHappy("two-credentials", "one payment naming pid2 and pid, approved by pid2 only",
            lambda: [txd.payment(["pid2", "pid"])], TWO_PIDS_DCQL),
    TxHappy("report-objects", 'transactionDataReport "objects": the report echoes each entry as sent',
            lambda: [txd.payment(["pid"]), txd.qes_authorization(["pid"], ["sha-256"])], objects=True),
]


def scenario_txdata_verified(case: TxHappy, flow: str) -> Callable[[Client], tuple]:
    """An honest answer to a request with transaction data: verified, and each SD-JWT VC document's
    keyBinding.transactionData lists exactly what its KB-JWT approved (index, type, hashAlgorithm, hash; data only
    with "objects"), every entry approved once across the answer."""
    def run(c: Client) -> tuple:
        sent = case.entries()
        s = _tx_session(c, flow, case.dcql, sent, "objects" if case.objects else None)
        reply = _deliver(c, s)
        documents = expect_verified(reply, s)
        indices = sorted(item.get("index") for d in documents if isinstance(d.get("keyBinding"), dict)
                         for item in d["keyBinding"].get("transactionData", []) if isinstance(item, dict))
        if indices != list(range(len(sent))):
            raise reply.fail(f"the report approves transaction_data {indices}, not each of the {len(sent)} once")
        approvals = [f"[{a['index']}] {a['type']} {a['hashAlgorithm']} by {q.id}" for q in s.credentials
                     for a in txd.expected_report(approved_by(s, q.id), False)]
        return reply.status, None, (f"{_how(s)}: {case.what}; approved {', '.join(approvals)}"
                                    + ("; data echoed as sent" if case.objects else ""))
    return run


# Negative answers: what each credential's KB-JWT carries instead of the honest claims.
Mutation = Callable[[Session], tuple[dict[str, dict], list[str] | None]]


def _honest(s: Session, cid: str = "pid") -> dict:
    return txd.kb_claims(approved_by(s, cid))


def _claims(hashes: Any, alg: Any = None) -> dict:
    """KB-JWT transaction data claims; None leaves a claim out."""
    out: dict[str, Any] = {}
    if hashes is not None:
        out["transaction_data_hashes"] = hashes
    if alg is not None:
        out["transaction_data_hashes_alg"] = alg
    return out


def _first(s: Session) -> txd.Entry:
    return s.transaction_data[0]


def _never_sent() -> str:
    return txd.encode(txd.payment(["pid"], transaction_id="00000000-NEVER-SENT-0000"))


def _digest_all(s: Session, text: Callable[[txd.Entry], str], alg: str) -> list[str]:
    return [txd.digest(text(e), alg) for e in s.transaction_data]


def _malformed(hashes: Any) -> Mutation:
    return lambda s: ({"pid": _claims(hashes, "sha-256")}, None)


class TxRefused(NamedTuple):
    name: str
    code: str
    what: str
    entries: Callable[[], list[dict]] | None  # None: a request without transaction data
    mutations: tuple[Mutation, ...]  # one session each
    dcql: dict = PID_DCQL
    answer_level: bool = False  # the answer's own code, no per-document check


TXDATA_REFUSED = [
    TxRefused("hashes-missing", CODE_TD_HASH_MISSING, "no transaction_data_hashes for a qes_authorization only pid "
              "can approve", lambda: [txd.qes_authorization(["pid"])], (lambda s: ({"pid": {}}, None),)),
    TxRefused("extra-hash", CODE_TD_HASH_UNKNOWN, "the payment's hash and the hash of an entry never sent",
              lambda: [txd.payment(["pid"])],
              (lambda s: ({"pid": _claims(_honest(s)["transaction_data_hashes"] + [txd.digest(_never_sent())],
                                          "sha-256")}, None),)),
    TxRefused("reordered", CODE_TD_HASH_ORDER, "two entries' hashes in reverse order",
              lambda: [txd.payment(["pid"]), txd.qes_authorization(["pid"])],
              (lambda s: ({"pid": _claims(_honest(s)["transaction_data_hashes"][::-1], "sha-256")}, None),)),
    TxRefused("re-encoded-spaces", CODE_TD_HASH_UNKNOWN, "the hash of the entry re-serialised with spaces",
              lambda: [txd.payment(["pid"])],
              (lambda s: ({"pid": _claims(_digest_all(s, txd.reencoded_with_spaces, "sha-256"), "sha-256")}, None),)),
    TxRefused("re-encoded-reordered", CODE_TD_HASH_UNKNOWN, "the hash of the entry re-serialised with its members "
              "reordered", lambda: [txd.payment(["pid"])],
              (lambda s: ({"pid": _claims(_digest_all(s, txd.reencoded_reordered, "sha-256"), "sha-256")}, None),)),
    TxRefused("hash-of-decoded", CODE_TD_HASH_UNKNOWN, "the hash of the decoded JSON instead of the string",
              lambda: [txd.payment(["pid"])],
              (lambda s: ({"pid": _claims([txd.decoded_bytes_hash(_first(s))], "sha-256")}, None),)),
    TxRefused("sha384-not-offered", CODE_TD_ALG_NOT_OFFERED, "a sha-384 digest named sha-384 when only sha-256 was "
              "offered", lambda: [txd.payment(["pid"], ["sha-256"])],
              (lambda s: ({"pid": _claims(_digest_all(s, lambda e: e.encoded, "sha-384"), "sha-384")}, None),)),
    TxRefused("sha384-unnamed", CODE_TD_HASH_UNKNOWN, "a sha-384 digest, no algorithm named, for an entry that "
              "offers sha-256 by default", lambda: [txd.qes_authorization(["pid"])],
              (lambda s: ({"pid": _claims(_digest_all(s, lambda e: e.encoded, "sha-384"))}, None),)),
    TxRefused("alg-missing", CODE_TD_ALG_NOT_OFFERED, "no transaction_data_hashes_alg though the entry listed "
              "algorithms", lambda: [txd.payment(["pid"])],
              (lambda s: ({"pid": _claims(_honest(s)["transaction_data_hashes"])}, None),)),
    TxRefused("alg-array", CODE_TD_ALG_NOT_OFFERED, 'transaction_data_hashes_alg ["sha-256"] (an array, as '
              "wwWallet sends it)", lambda: [txd.payment(["pid"])],
              (lambda s: ({"pid": _claims(_honest(s)["transaction_data_hashes"], ["sha-256"])}, None),)),
    TxRefused("duplicate-hash", CODE_TD_HASH_DUPLICATE, "the payment's hash twice", lambda: [txd.payment(["pid"])],
              (lambda s: ({"pid": _claims(_honest(s)["transaction_data_hashes"] * 2, "sha-256")}, None),)),
    TxRefused("hashes-malformed", CODE_TD_HASHES_MALFORMED, "transaction_data_hashes a string, [], [\"not "
              "base64url!\"], [42]", lambda: [txd.payment(["pid"])],
              (lambda s: ({"pid": _claims(_honest(s)["transaction_data_hashes"][0], "sha-256")}, None),
               _malformed([]), _malformed(["not base64url!"]), _malformed([42]))),
    TxRefused("approved-twice", CODE_TD_APPROVED_TWICE, "a payment naming pid and pid2 approved by both",
              lambda: [txd.payment(["pid", "pid2"])], (lambda s: ({"pid2": _honest(s)}, None),), TWO_PIDS_DCQL),
    TxRefused("hashes-not-addressed", CODE_TD_HASH_UNKNOWN, "pid2's KB-JWT approves a payment addressed to pid only",
              lambda: [txd.payment(["pid"])], (lambda s: ({"pid2": _honest(s)}, None),), TWO_PIDS_DCQL),
    TxRefused("hashes-without-request", CODE_TD_HASH_UNKNOWN, "transaction_data_hashes in answer to a request "
              "without transaction data", None,
              (lambda s: ({"pid": _claims([txd.digest(_never_sent())], "sha-256")}, None),)),
    TxRefused("none-approves", CODE_TD_HASH_MISSING, "a payment naming pid and pid2, both presented, neither approves",
              lambda: [txd.payment(["pid", "pid2"])], (lambda s: ({"pid": {}, "pid2": {}}, None),), TWO_PIDS_DCQL),
    TxRefused("not-approved", CODE_TD_NOT_APPROVED, "a payment naming pid2 only, pid2 left out (credential set: "
              "either)", lambda: [txd.payment(["pid2"])], (lambda s: ({"pid": {}}, ["pid"]),), EITHER_PID_DCQL,
              answer_level=True),
]


def expect_txdata_refused(reply: Reply, code: str, what: str, answer_level: bool) -> None:
    """422 not verified with `code`; unless it is the answer's own code, a dc+sd-jwt document (when the report has
    documents) whose sdjwt.transactionData failed with it, and no document with a failed check carries claims."""
    expect_refused(reply, {422}, {code}, what)
    documents = reply.body.get("documents") if isinstance(reply.body, dict) else None
    if answer_level or not documents:
        return
    if not any(isinstance(d, dict) and d.get("format") == SDJWT_FORMAT and any(
            isinstance(ch, dict) and ch.get("id") == CHECK_TD and ch.get("outcome") == "failed"
            and ch.get("code") == code for ch in d.get("checks", [])) for d in documents):
        raise reply.fail(f"{what}: no dc+sd-jwt document whose {CHECK_TD} failed with {code}")
    for document in documents:
        failed = any(isinstance(ch, dict) and ch.get("outcome") == "failed" for ch in document.get("checks", []))
        if failed and "claims" in document:
            raise reply.fail(f"{what}: a document with a failed check carries claims")


def scenario_txdata_refused(case: TxRefused, flow: str) -> Callable[[Client], tuple]:
    def run(c: Client) -> tuple:
        reply: Reply | None = None
        for mutate in case.mutations:
            s = _tx_session(c, flow, case.dcql, case.entries() if case.entries else None)
            claims, only = mutate(s)
            reply = _deliver(c, s, vp_token(s, session_transcript(s), tx_claims=claims, only=only))
            expect_txdata_refused(reply, case.code, case.what, case.answer_level)
        assert reply is not None
        return reply.status, reply_code(reply), f"{_how(s)}: {case.what}: refused"
    return run


# Creation refusals: (what, DCQL, transaction_data as the integrator sends it).
def _entry_of_size(size: int) -> dict:
    """A qes_authorization entry whose compact JSON is exactly `size` bytes (its document label padded)."""
    entry = txd.qes_authorization(["pid"])
    base = len(txd.compact_bytes(entry))
    entry["documentDigests"][0]["label"] += "x" * (size - base)
    assert len(txd.compact_bytes(entry)) == size
    return entry


def _with(entry: dict, **changes: Any) -> dict:
    """`entry` with members replaced in place (order kept), added at the end, or (None) removed."""
    out = dict(entry)
    for name, value in changes.items():
        if value is None:
            out.pop(name, None)
        else:
            out[name] = value
    return out


def _qes() -> dict:
    return txd.qes_authorization(["pid"])


def _pay(**payload_changes: Any) -> dict:
    return txd.payment(["pid"], **payload_changes)


TD_INVALID_CASES: list[tuple[str, dict, Callable[[], Any]]] = [
    ("an object, not an array", PID_DCQL, _qes),
    ("an empty array", PID_DCQL, lambda: []),
    ("nine entries", PID_DCQL, lambda: [_qes() for _ in range(9)]),
    ("an entry that is a string (already encoded)", PID_DCQL, lambda: [txd.encode(_qes())]),
    ("an entry of 4097 bytes", PID_DCQL, lambda: [_entry_of_size(4097)]),
    ("five entries of 3300 bytes (16500 in all)", PID_DCQL, lambda: [_entry_of_size(3300) for _ in range(5)]),
    ("type missing", PID_DCQL, lambda: [_with(_qes(), type=None)]),
    ("type empty", PID_DCQL, lambda: [_with(_qes(), type="")]),
    ("type a number", PID_DCQL, lambda: [_with(_qes(), type=7)]),
    ("credential_ids missing", PID_DCQL, lambda: [_with(_qes(), credential_ids=None)]),
    ("credential_ids empty", PID_DCQL, lambda: [_with(_qes(), credential_ids=[])]),
    ("credential_ids a string", PID_DCQL, lambda: [_with(_qes(), credential_ids="pid")]),
    ("credential_ids holding a number", PID_DCQL, lambda: [_with(_qes(), credential_ids=["pid", 1])]),
    ("credential_ids naming pid twice", PID_DCQL, lambda: [_with(_qes(), credential_ids=["pid", "pid"])]),
    ("credential_ids naming no credential query", PID_DCQL, lambda: [_with(_qes(), credential_ids=["passport"])]),
    ("transaction_data_hashes_alg a string", PID_DCQL, lambda: [_with(_pay(), transaction_data_hashes_alg="sha-256")]),
    ("transaction_data_hashes_alg empty", PID_DCQL, lambda: [_with(_pay(), transaction_data_hashes_alg=[])]),
    ("transaction_data_hashes_alg md5", PID_DCQL, lambda: [_with(_pay(), transaction_data_hashes_alg=["md5"])]),
    ("transaction_data_hashes_alg sha3-256", PID_DCQL,
     lambda: [_with(_pay(), transaction_data_hashes_alg=["sha3-256"])]),
    ("transaction_data_hashes_alg SHA-256 (names are case-sensitive)", PID_DCQL,
     lambda: [_with(_pay(), transaction_data_hashes_alg=["SHA-256"])]),
    ("transaction_data_hashes_alg holding a number", PID_DCQL,
     lambda: [_with(_pay(), transaction_data_hashes_alg=["sha-256", 256])]),
]
TD_TYPE_CASES: list[tuple[str, dict, Callable[[], Any]]] = [
    ("a TS12 type the service does not list", PID_DCQL, lambda: [_with(_pay(), type=txd.TYPE_NOT_CONFIGURED)]),
    ("urn:eudi:sca:payment:2", PID_DCQL, lambda: [_with(_pay(), type="urn:eudi:sca:payment:2")]),
    ("the payment type in upper case", PID_DCQL, lambda: [_with(_pay(), type=txd.TYPE_PAYMENT.upper())]),
    ("the spec's example_type", PID_DCQL, lambda: [{"type": "example_type", "credential_ids": ["pid"]}]),
    ("qes_authorisation (one letter off) after an accepted payment", PID_DCQL,
     lambda: [_pay(), _with(_qes(), type="qes_authorisation")]),
]
TD_SCHEMA_CASES: list[tuple[str, dict, Callable[[], Any]]] = [
    ("payment without payload (its members at the top level)", PID_DCQL,
     lambda: [_with(_pay(), payload=None) | txd.payment_payload()]),
    ("payload not an object", PID_DCQL, lambda: [_with(_pay(), payload="23.58 EUR to the test shop")]),
    ("payload without amount", PID_DCQL, lambda: [_pay(amount=None)]),
    ("payload.payee without id", PID_DCQL, lambda: [_pay(payee={"name": "Test Shop"})]),
    ("payload with tip_requested (additionalProperties false)", PID_DCQL, lambda: [_pay(tip_requested=True)]),
    ("payload.currency in lower case", PID_DCQL, lambda: [_pay(currency="eur")]),
    ("payload.amount a string", PID_DCQL, lambda: [_pay(amount="23.58")]),
    ("payload.transaction_id of 37 characters", PID_DCQL, lambda: [_pay(transaction_id="X" * 37)]),
    ("payload.recurrence without frequency", PID_DCQL,
     lambda: [_pay(recurrence={"start_date": "2030-01-01T00:00:00+00:00"})]),
    ("payload.recurrence.frequency MONTHLY", PID_DCQL, lambda: [_pay(recurrence={"frequency": "MONTHLY"})]),
    ("a valid qes_authorization, then a payment whose payee.name is a number", PID_DCQL,
     lambda: [_qes(), _pay(payee={"name": 5, "id": "DE89370400440532013000"})]),
]
TD_NOT_BINDABLE_CASES: list[tuple[str, dict, Callable[[], Any]]] = [
    ("a qes_authorization naming the mso_mdoc query", PID_AND_MDL_DCQL,
     lambda: [txd.qes_authorization(["mdl"])]),
    ("a payment naming the dc+sd-jwt and the mso_mdoc query", PID_AND_MDL_DCQL,
     lambda: [txd.payment(["pid", "mdl"])]),
    ("a payment naming a dc+sd-jwt query with require_cryptographic_holder_binding false", UNBOUND_PID_DCQL,
     lambda: [txd.payment(["pid"])]),
]


def _create_on(c: Client, route: str, dcql: dict, transaction_data: Any, raw: str | None = None) -> Reply:
    """POST the request creation of `route` (dc_api and cross-device: /v1/oid4vp/requests; presentations:
    /v1/presentations/requests) with `transaction_data`, or with the JSON text `raw` in its place."""
    if route == "presentations":
        path, body = "/v1/presentations/requests", {"origin": ORIGIN, "dcql_query": dcql}
    else:
        path, body = "/v1/oid4vp/requests", {"origin": ORIGIN, "dcql_query": dcql, "flow": route}
        if route == "dc_api":
            body |= {"responseMode": "dc_api.jwt", "signed": True}
    if raw is None:
        return c.post_json(path, body | {"transaction_data": transaction_data})
    marker = "TRANSACTION-DATA-PLACEHOLDER"
    text = json.dumps(body | {"transaction_data": marker}).replace(json.dumps(marker), raw)
    return c.send("POST", path, text.encode(), "application/json")


def scenario_txdata_creation_refused(code: str, cases: list[tuple[str, dict, Callable[[], Any]]],
                                     repeated_member: bool = False) -> Callable[[Client], tuple]:
    """Each case refused with 400 `code` over /v1/oid4vp/requests (dc_api, cross-device) and
    /v1/presentations/requests, after a valid payment + qes_authorization request was accepted on each (so the
    refusals are not the route's or the configuration's)."""
    def run(c: Client) -> tuple:
        count = 0
        for route in TX_CREATION_ROUTES:
            control = _create_on(c, route, PID_DCQL, [_pay(), _qes()])
            if control.status != 201:
                raise control.fail(f"the valid control request over {route} was not accepted")
            for what, dcql, entries in cases:
                reply = _create_on(c, route, dcql, entries())
                expect_refused(reply, {400}, {code}, f"{what} over {route}")
                count += 1
            if repeated_member:
                entry = txd.compact_bytes(_qes()).decode()
                raw = '[{"type":"qes_authorization",' + entry[1:] + "]"
                reply = _create_on(c, route, PID_DCQL, None, raw)
                expect_refused(reply, {400}, CODES_TD_REPEATED_MEMBER, f"an entry with type twice over {route}")
                count += 1
        return 400, code, f"{count} refusals over {', '.join(TX_CREATION_ROUTES)} (each route's valid control 201)"
    return run


def scenario_no_txdata_member(c: Client) -> tuple:
    """A request without transaction data carries no transaction_data member (not [] or null) and its 201 no
    transactionData: signed and unsigned DC API, cross-device, /v1/presentations, and the documents shorthand."""
    made = [("signed dc_api.jwt", c.make(dcql_query=PID_DCQL)),
            ("unsigned dc_api", c.make(signed=False, mode="dc_api", dcql_query=PID_DCQL)),
            ("cross-device", c.make_cross_device(dcql_query=PID_DCQL)[0]),
            ("/v1/presentations", c.make_presentation(PID_DCQL)),
            ("mdoc documents shorthand", c.make())]
    for what, s in made:  # _transaction_data_sent checked the 201 already
        expect("transaction_data" not in s.params and not s.transaction_data, f"{what}: transaction_data present")
    return 201, None, "no transaction_data member, no transactionData: " + ", ".join(w for w, _ in made)


def txdata_scenarios() -> dict[str, Callable[[Client], tuple]]:
    out: dict[str, Callable[[Client], tuple]] = {}
    for case in TXDATA_VERIFIED:
        for suffix, flow in TX_FLOWS.items():
            out[f"txdata-{case.name}{suffix}"] = scenario_txdata_verified(case, flow)
    out["txdata-payment-unsigned"] = scenario_txdata_verified(TXDATA_VERIFIED[0], "dc_api-unsigned")
    out["txdata-presentations"] = scenario_txdata_verified(
        TxHappy("presentations", "payment and qes_authorization, objects reported",
                lambda: [txd.payment(["pid"]), txd.qes_authorization(["pid"])], objects=True), "presentations")
    for case in TXDATA_REFUSED:
        for suffix, flow in TX_FLOWS.items():
            out[f"txdata-{case.name}{suffix}"] = scenario_txdata_refused(case, flow)
    out["txdata-refused-invalid"] = scenario_txdata_creation_refused(CODE_TD_INVALID, TD_INVALID_CASES,
                                                                     repeated_member=True)
    out["txdata-refused-type-not-allowed"] = scenario_txdata_creation_refused(CODE_TD_TYPE_NOT_ALLOWED, TD_TYPE_CASES)
    out["txdata-refused-schema-mismatch"] = scenario_txdata_creation_refused(CODE_TD_SCHEMA_MISMATCH,
                                                                             TD_SCHEMA_CASES)
    out["txdata-refused-not-bindable"] = scenario_txdata_creation_refused(CODE_TD_NOT_BINDABLE,
                                                                          TD_NOT_BINDABLE_CASES)
    out["no-txdata-member"] = scenario_no_txdata_member
    return out


SCENARIOS: dict[str, Callable[[Client], tuple]] = {
    "trusted-authorities": scenario_trusted_authorities,
    "request-shape": scenario_request_shape,
    "verified-signed-jwt-a128gcm": scenario_verified(True, "dc_api.jwt", "A128GCM"),
    "verified-signed-jwt-a256gcm": scenario_verified(True, "dc_api.jwt", "A256GCM"),
    "verified-signed-plain": scenario_verified(True, "dc_api", None),
    "verified-unsigned-jwt-a128gcm": scenario_verified(False, "dc_api.jwt", "A128GCM"),
    "verified-unsigned-jwt-a256gcm": scenario_verified(False, "dc_api.jwt", "A256GCM"),
    "verified-unsigned-plain": scenario_verified(False, "dc_api", None),
    "cross-device": scenario_cross_device,
    "replay": scenario_replay,
    "wallet-error": scenario_wallet_error,
    "other-session-key": scenario_other_session_key,
    "wrong-kid": scenario_wrong_kid,
    "epk-off-curve": scenario_epk_off_curve,
    "alg-none": scenario_bad_alg("none"),
    "alg-dir": scenario_bad_alg("dir"),
    "alg-rsa-oaep": scenario_bad_alg("RSA-OAEP"),
    "other-origin": scenario_device_auth(f"the origin {OTHER_ORIGIN}", origin=OTHER_ORIGIN),
    "other-nonce": scenario_device_auth("another nonce", nonce="fresh"),
    "wrong-handover-name": scenario_device_auth(f"the handover name {REDIRECT_HANDOVER}",
                                                handover_name=REDIRECT_HANDOVER),
    "thumbprint-null": scenario_device_auth("a null jwkThumbprint in dc_api.jwt", thumbprint=None),
    "unknown-credential-id": scenario_unknown_credential_id,
    "two-presentations": scenario_two_presentations,
    "cross-device-request-fetched-again": scenario_cross_device_request_fetched_again,
    "cross-device-posted-twice": scenario_cross_device_posted_twice,
    "cross-device-result": scenario_cross_device_result,
    "sdjwt-signed-jwt-a128gcm": scenario_sdjwt_verified(True, "dc_api.jwt", "A128GCM"),
    "sdjwt-unsigned-jwt-a256gcm": scenario_sdjwt_verified(False, "dc_api.jwt", "A256GCM"),
    "sdjwt-signed-plain": scenario_sdjwt_verified(True, "dc_api", None),
    "sdjwt-cross-device": scenario_sdjwt_verified(True, "direct_post.jwt", None, cross_device=True),
    "sdjwt-and-mdoc": scenario_sdjwt_verified(True, "dc_api.jwt", None, dcql_query=PID_AND_MDL_DCQL),
    "sdjwt-unrequested-claim": scenario_sdjwt_unrequested_claim,
    "sdjwt-wrong-audience": scenario_sdjwt_refused(CODE_SDJWT_KB_AUDIENCE, f"KB-JWT aud origin:{OTHER_ORIGIN}",
                                                   audience="origin:" + OTHER_ORIGIN),
    "sdjwt-wrong-nonce": scenario_sdjwt_refused(CODE_SDJWT_KB_NONCE, "KB-JWT nonce of no session", nonce="fresh"),
    "sdjwt-no-kb": scenario_sdjwt_refused(CODE_SDJWT_KB_MISSING, "no KB-JWT (ends in ~)", key_binding=False),
    "sdjwt-tampered-disclosure": scenario_sdjwt_refused(CODE_SDJWT_DISCLOSURE_UNREFERENCED,
                                                        "given_name disclosure re-encoded with another value",
                                                        tamper=True),
    "sdjwt-untrusted-issuer": scenario_sdjwt_refused(CODE_SDJWT_ISSUER_UNTRUSTED, "issued under issuer-ca-other",
                                                     issuer="untrusted"),
    "sdjwt-vct-not-requested": scenario_sdjwt_refused(CODE_SDJWT_VCT_NOT_REQUESTED, "vct urn:other:1",
                                                      vct="urn:other:1"),
    "sdjwt-cross-device-dc-api-audience": scenario_sdjwt_refused(CODE_SDJWT_KB_AUDIENCE,
                                                                 "cross-device KB-JWT with aud origin:<origin>",
                                                                 cross_device=True, audience="dc-api"),
}
SCENARIOS |= txdata_scenarios()


def run_scenarios(client: Client, names: list[str]) -> int:
    return ww.run_scenarios(client, names, SCENARIOS)


# --------------------------------------------------------------------------------------------------
# Self-test (no service)
# --------------------------------------------------------------------------------------------------

# OpenID4VP 1.0 final (openid/OpenID4VP tag 1.0-final), B.2.6.1 and B.2.6.2: inputs and expected bytes.
SPEC_JWK = {"kty": "EC", "crv": "P-256", "x": "DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0",
            "y": "XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc", "use": "enc", "alg": "ECDH-ES", "kid": "1"}
SPEC_NONCE = "exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA"
SPEC_THUMBPRINT = "4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047"
SPEC_REDIRECT = {  # B.2.6.1
    "client_id": "x509_san_dns:example.com", "response_uri": "https://example.com/response",
    "info": "847818783530395f73616e5f646e733a6578616d706c652e636f6d782b6578633767426b786a7831726463397564527276654b76"
            "53734a4971383061766c58654c4868477771744158204283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd66"
            "9047781c68747470733a2f2f6578616d706c652e636f6d2f726573706f6e7365",
    "handover": "82714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722a"
                "ad38ac",
    "transcript": "83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d95240d254b046b11b680"
                  "13722aad38ac",
}
SPEC_DC_API = {  # B.2.6.2
    "origin": "https://example.com",
    "info": "837368747470733a2f2f6578616d706c652e636f6d782b6578633767426b786a7831726463397564527276654b7653734a497138"
            "3061766c58654c4868477771744158204283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047",
    "handover": "82764f70656e4944345650444341504948616e646f7665725820fbece366f4212f9762c74cfdbf83b8c69e371d5d68cea09cb4"
                "c48ca6daab761a",
    "transcript": "83f6f682764f70656e4944345650444341504948616e646f7665725820fbece366f4212f9762c74cfdbf83b8c69e371d5d68"
                  "cea09cb4c48ca6daab761a",
}
# RFC 7518 Appendix C (ECDH-ES, A128GCM, apu "Alice", apv "Bob"): the two private keys and the derived key.
RFC7518_C = {"alice_d": "0_NxaRPUMQoAJt50Gz8YiTr8gRTwyEaCumd-MToTmIo",
             "bob_d": "VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw", "key": "VqqN6vgjbSBcIijNcacQGg"}
# shared/vectors/external/eudi-verifier-endpoint/README.md: the inputs of 08-mdl-session_transcript.derived.cbor.hex
EUDI_08 = {"client_id": "Verifier", "nonce": "706f6c4d-c92d-4472-9dbf-d814c94f90c2",
           "response_uri": "http://localhost:0/wallet/direct_post/1234567890"}


def _expect_failure(what: str, action: Callable[[], Any], needle: str) -> None:
    try:
        action()
    except Failure as error:
        if needle.lower() not in str(error).lower():
            raise AssertionError(f"{what}: failed for another reason: {error}") from None
        return
    raise AssertionError(f"{what}: was accepted")


def _raw_transcript(handover_name: str, info: list) -> bytes:
    """The transcript written byte by byte (independent of cbor2): tstr, bstr and null items only."""
    def item(value: Any) -> bytes:
        if value is None:
            return b"\xf6"
        if isinstance(value, bytes):
            return ww._raw_head(2, len(value)) + value
        return ww._raw_tstr(value)
    info_bytes = ww._raw_head(4, len(info)) + b"".join(item(v) for v in info)
    handover = b"\x82" + ww._raw_tstr(handover_name) + b"\x58\x20" + hashlib.sha256(info_bytes).digest()
    return b"\x83\xf6\xf6" + handover


def device_signature_ok(document: dict, transcript: bytes) -> bool:
    """ES256 deviceSignature of one Document over `transcript` with the MSO's device key (the self-test's own small
    check, for documents no test IACA vouches for)."""
    mso = cbor2.loads(cbor2.loads(document["issuerSigned"]["issuerAuth"][2]).value)
    key, _ = g.device_key_from_cose(mso["deviceKeyInfo"]["deviceKey"])
    protected, _, payload, signature = document["deviceSigned"]["deviceAuth"]["deviceSignature"]
    assert payload is None and cbor2.loads(protected).get(1) == -7
    signed = document["deviceSigned"]
    authentication = cbor2.dumps(CBORTag(24, cbor2.dumps(["DeviceAuthentication", cbor2.loads(transcript),
                                                          document["docType"], signed["nameSpaces"]])))
    return g.ecdsa_verify_raw(key, signature, cbor2.dumps(["Signature1", protected, b"", authentication]),
                              hashes.SHA256())


def _self_test_transcripts(eudi_dir: Path) -> str:
    from joserfc.jwk import ECKey
    thumbprint = jwk_thumbprint(SPEC_JWK)
    if thumbprint.hex() != SPEC_THUMBPRINT:
        raise AssertionError(f"thumbprint {thumbprint.hex()}")
    if b64url(thumbprint) != ECKey.import_key(SPEC_JWK).thumbprint():
        raise AssertionError("joserfc computes another RFC 7638 thumbprint")
    r, dc = SPEC_REDIRECT, SPEC_DC_API
    cases = [
        ("B.2.6.1", REDIRECT_HANDOVER, [r["client_id"], SPEC_NONCE, thumbprint, r["response_uri"]], r,
         redirect_transcript(r["client_id"], SPEC_NONCE, thumbprint, r["response_uri"])),
        ("B.2.6.2", DCAPI_HANDOVER, [dc["origin"], SPEC_NONCE, thumbprint], dc,
         dcapi_transcript(dc["origin"], SPEC_NONCE, thumbprint)),
    ]
    for name, handover_name, info, expected, transcript in cases:
        if handover_info_bytes(info).hex() != expected["info"]:
            raise AssertionError(f"{name}: handover info {handover_info_bytes(info).hex()}")
        handover = cbor2.dumps([handover_name, hashlib.sha256(handover_info_bytes(info)).digest()])
        if handover.hex() != expected["handover"]:
            raise AssertionError(f"{name}: handover {handover.hex()}")
        if transcript.hex() != expected["transcript"] or _raw_transcript(handover_name, info) != transcript:
            raise AssertionError(f"{name}: transcript {transcript.hex()}")
    # the Session plumbing gives the same bytes
    s = Session("x", "dc_api", dc["origin"], False, "dc_api.jwt", {}, None, SPEC_NONCE, [], SPEC_JWK)
    if session_transcript(s).hex() != dc["transcript"]:
        raise AssertionError("session_transcript (DC API) differs from B.2.6.2")
    s = Session("x", "cross-device", "", True, "direct_post.jwt", {}, r["client_id"], SPEC_NONCE, [], SPEC_JWK,
                response_uri=r["response_uri"])
    if session_transcript(s).hex() != r["transcript"]:
        raise AssertionError("session_transcript (redirect) differs from B.2.6.1")
    plain = dcapi_transcript(dc["origin"], SPEC_NONCE, None)
    if plain != _raw_transcript(DCAPI_HANDOVER, [dc["origin"], SPEC_NONCE, None]) or plain == bytes.fromhex(
            dc["transcript"]):
        raise AssertionError("the dc_api (null thumbprint) transcript")
    done = "B.2.6.1 and B.2.6.2 (thumbprint, handover info, handover, SessionTranscript) byte-exact"
    if not (eudi_dir / "08-mdl-device_response.cbor").exists():
        return done + f"; EUDI wallet vector not found at {eudi_dir}: skipped"
    jwk = json.loads((eudi_dir / "08-mdl-ephemeral-encryption-key.jwk.json").read_text())
    transcript = redirect_transcript(EUDI_08["client_id"], EUDI_08["nonce"], jwk_thumbprint(jwk),
                                     EUDI_08["response_uri"])
    if transcript.hex() != (eudi_dir / "08-mdl-session_transcript.derived.cbor.hex").read_text().strip():
        raise AssertionError("the EUDI 08 redirect transcript differs")
    document = g.strict_loads((eudi_dir / "08-mdl-device_response.cbor").read_bytes())["documents"][0]
    if not device_signature_ok(document, transcript):
        raise AssertionError("the EUDI wallet's device signature does not verify over the redirect transcript")
    wrong = redirect_transcript(EUDI_08["client_id"], "nonce", jwk_thumbprint(jwk), EUDI_08["response_uri"])
    if device_signature_ok(document, wrong):
        raise AssertionError("the EUDI wallet's device signature verifies with nonce 'nonce'")
    return done + "; a real EUDI wallet's device signature verifies over the OpenID4VPHandover built here"


def _self_test_jwe() -> str:
    from joserfc import jwe
    from joserfc.jwk import ECKey
    algorithms = ["ECDH-ES", "A128GCM", "A256GCM"]
    alice = ec.derive_private_key(int.from_bytes(b64url_strict(RFC7518_C["alice_d"], "d"), "big"), ec.SECP256R1())
    bob = ec.derive_private_key(int.from_bytes(b64url_strict(RFC7518_C["bob_d"], "d"), "big"), ec.SECP256R1())
    derived = concat_kdf(alice.exchange(ec.ECDH(), bob.public_key()), "A128GCM", 16, b"Alice", b"Bob")
    if b64url(derived) != RFC7518_C["key"]:
        raise AssertionError(f"Concat KDF gives {b64url(derived)}, RFC 7518 C says {RFC7518_C['key']}")
    key = ec.generate_private_key(ec.SECP256R1())
    jwk = ECKey.import_key(key.public_key()).as_dict(private=False) | {"kid": "k-1", "use": "enc", "alg": "ECDH-ES"}
    private = ECKey.import_key(key)
    plaintext = json.dumps({"vp_token": {"mdl": ["AAAA"]}}).encode()
    for enc in CONTENT_ENCRYPTIONS:
        mine = jwe_encrypt(jwk, plaintext, enc)
        opened = jwe.decrypt_compact(mine, private, algorithms=algorithms)
        header = opened.headers()
        if opened.plaintext != plaintext or header.get("kid") != "k-1" or header.get("enc") != enc \
                or header.get("alg") != "ECDH-ES" or header["epk"].get("crv") != "P-256":
            raise AssertionError(f"{enc}: joserfc reads {header} / {opened.plaintext!r}")
        if mine.split(".")[1] != "":
            raise AssertionError("ECDH-ES direct: the encrypted key part is not empty")
        theirs = jwe.encrypt_compact({"alg": "ECDH-ES", "enc": enc, "kid": "k-1"}, plaintext,
                                     ECKey.import_key(jwk), algorithms=algorithms)
        their_header, their_plaintext = jwe_decrypt(theirs, key)
        if their_plaintext != plaintext or their_header.get("kid") != "k-1":
            raise AssertionError(f"{enc}: joserfc's JWE opens here as {their_header} / {their_plaintext!r}")
        if jwe_decrypt(mine, key)[1] != plaintext:
            raise AssertionError(f"{enc}: own round trip")
    # a flipped tag bit, the wrong key, and the hostile builders
    broken = jwe_encrypt(jwk, plaintext)
    broken = broken[:-2] + ("A" if broken[-2] != "A" else "B") + broken[-1]
    for what, compact, opener in (("flipped tag", broken, key), ("other key", jwe_encrypt(jwk, plaintext),
                                                                  ec.generate_private_key(ec.SECP256R1()))):
        try:
            jwe_decrypt(compact, opener)
            raise AssertionError(f"{what}: opened")
        except InvalidTag:
            pass
    off = strict_json(b64url_strict(jwe_encrypt(jwk, plaintext, epk_off_curve=True).split(".")[0], "h"), "h")
    try:
        jwk_public_key(off["epk"])
        raise AssertionError("the off-curve epk loads")
    except ValueError:
        pass
    for alg in ("none", "dir", "RSA-OAEP"):
        compact = jwe_encrypt(jwk, plaintext, alg=alg, encrypted_key=b"\x01" * 256 if alg == "RSA-OAEP" else b"")
        if strict_json(b64url_strict(compact.split(".")[0], "h"), "h")["alg"] != alg:
            raise AssertionError(f"alg {alg} not in the header")
        try:
            jwe.decrypt_compact(compact, private, algorithms=algorithms)
            raise AssertionError(f"joserfc opened a JWE with alg {alg}")
        except AssertionError:
            raise
        except Exception:  # noqa: BLE001 - joserfc refuses, as a verifier must
            pass
    wrong_kid = jwe_encrypt(jwk, plaintext, kid="other")
    if strict_json(b64url_strict(wrong_kid.split(".")[0], "h"), "h")["kid"] != "other":
        raise AssertionError("kid override")
    return ("Concat KDF = RFC 7518 C; A128GCM/A256GCM JWE opens with joserfc and joserfc's opens here; "
            "tampered tag and other key refused; hostile epk/alg/kid variants built as intended")


def _fake_service(chain: tuple, *, signed: bool = True, mode: str = "dc_api.jwt", origin: str = ORIGIN,
                  documents: list = DEFAULT_DOCUMENTS, flow: str = "dc_api", tamper: str | None = None,
                  dcql_query: dict | None = None,
                  transaction_data: list | None = None) -> tuple[Any, ec.EllipticCurvePrivateKey]:
    """What a conforming service would send (DC API answer, or for flow cross-device the request object JWS),
    signed with joserfc; `dcql_query` replaces the query built from `documents` (with dc+sd-jwt metadata when it asks
    for an SD-JWT VC); `transaction_data` (a list, even empty) becomes the request's member. `tamper` breaks one
    thing. Returns (answer or JWS, response-encryption private key)."""
    from joserfc import jws
    from joserfc.jwk import ECKey
    root, _, leaf, leaf_key = chain
    key = ec.generate_private_key(ec.SECP256R1())
    jwk = ECKey.import_key(key.public_key()).as_dict(private=False) | {"kid": b64url(secrets.token_bytes(8)),
                                                                       "use": "enc", "alg": "ECDH-ES"}
    if tamper == "kid":
        del jwk["kid"]
    if tamper == "private-jwk":
        jwk["d"] = ECKey.import_key(key).as_dict(private=True)["d"]
    metadata: dict[str, Any] = {"vp_formats_supported": {"mso_mdoc": {"issuerauth_alg_values": [-7],
                                                                       "deviceauth_alg_values": [-7]}}}
    if mode in ENCRYPTED_MODES:
        metadata["jwks"] = {"keys": [jwk]}
        metadata["encrypted_response_enc_values_supported"] = (["A128GCM", "A128CBC-HS256"] if tamper == "enc"
                                                               else ["A128GCM", "A256GCM"])
    if dcql_query is not None and any(q.get("format") == SDJWT_FORMAT for q in dcql_query["credentials"]) \
            and tamper != "no-sdjwt-format":
        metadata["vp_formats_supported"][SDJWT_FORMAT] = {
            "sd-jwt_alg_values": ["ES256"], "kb-jwt_alg_values": ["ES384"] if tamper == "kb-alg" else ["ES256"]}
    if tamper == "no-vp-formats":
        del metadata["vp_formats_supported"]
    credentials = []
    for index, document in enumerate(documents):
        claims = [{"path": [ns, e], "intent_to_retain": retain}
                  for ns, els in document["elements"].items() for e, retain in els.items()]
        if tamper == "path":
            claims[0]["path"] = claims[0]["path"] + ["extra"]
        credentials.append({"id": f"mdl{index}", "format": "jwt_vc_json" if tamper == "format" else "mso_mdoc",
                            "meta": {"doctype_value": document["docType"]}, "claims": claims})
    params: dict[str, Any] = {
        "response_type": "vp_token",
        "response_mode": "dc_api" if tamper == "mode" else mode,
        "nonce": b64url(secrets.token_bytes(8 if tamper == "nonce" else 32)),
        "dcql_query": dcql_query if dcql_query is not None else {"credentials": credentials},
        "client_metadata": metadata,
    }
    if transaction_data is not None:
        params["transaction_data"] = transaction_data
    if tamper == "transaction-data-null":
        params["transaction_data"] = None
    leaf_der = leaf.public_bytes(serialization.Encoding.DER)
    root_der = root.public_bytes(serialization.Encoding.DER)
    if signed:
        params["client_id"] = x509_hash_client_id(root_der if tamper == "x509_hash" else leaf_der)
        if flow == "dc_api" and tamper != "no-expected-origins":
            params["expected_origins"] = ["https://evil.example"] if tamper == "other-origin" else [origin]
        if flow == "cross-device":
            params["response_uri"] = "https://verifier.example/v1/oid4vp/responses/" + b64url(secrets.token_bytes(16))
        x5c = [base64.b64encode(d).decode() for d in ([leaf_der, root_der] if tamper == "x5c-root" else [leaf_der])]
        header = {"alg": "ES256", "typ": "JWT" if tamper == "typ" else REQUEST_TYP, "x5c": x5c}
        payload = json.dumps(params).encode()
        if tamper == "alg":  # claims ES384, signed ES256 by hand (joserfc will not mix them)
            text = b64url(json.dumps(header | {"alg": "ES384"}).encode()) + "." + b64url(payload)
            token = text + "." + b64url(g.ecdsa_sign_raw(leaf_key, text.encode(), hashes.SHA256()))
        else:
            token = jws.serialize_compact(header, payload, ECKey.import_key(leaf_key))
        if tamper == "signature":
            head, body, signature = token.split(".")
            raw = bytearray(b64url_strict(signature, "sig"))
            raw[5] ^= 0x01
            token = f"{head}.{body}.{b64url(bytes(raw))}"
        if flow == "cross-device":
            return token, key
        data: Any = {"request": token}
    else:
        if tamper == "client_id":
            params["client_id"] = "x509_hash:" + b64url(secrets.token_bytes(32))
        data = params
    protocol = PROTOCOL_SIGNED if signed else PROTOCOL_UNSIGNED
    return {"sessionId": b64url(secrets.token_bytes(32)), "expiresAt": "2030-01-01T00:05:00Z",
            "request": {"protocol": protocol, "data": data}}, key


def _self_test_requests() -> str:
    chain = g.reader_auth_chain("oid4vp-wallet-self-test", "2024-01-01T00:00:00Z", "2124-01-01T00:00:00Z")
    other_root = g.reader_auth_chain("oid4vp-wallet-self-test-other", "2024-01-01T00:00:00Z",
                                     "2124-01-01T00:00:00Z")[0]
    root = chain[0]
    asked = requested_by(DEFAULT_DOCUMENTS)
    for signed in (True, False):
        for mode in DC_API_MODES:
            answer_, _ = _fake_service(chain, signed=signed, mode=mode)
            s = check_dc_api_answer(answer_, ORIGIN, signed, mode, root)
            if s.requested != asked:
                raise AssertionError(f"{signed} {mode}: requested reads as {s.requested}")
            other_mode = "dc_api" if mode == "dc_api.jwt" else "dc_api.jwt"
            _expect_failure(f"{mode} checked as {other_mode}",
                            lambda: check_dc_api_answer(answer_, ORIGIN, signed, other_mode, root), "response_mode")
            _expect_failure(f"{'signed' if signed else 'unsigned'} checked as the other",
                            lambda: check_dc_api_answer(answer_, ORIGIN, not signed, mode, root), "protocol")
    signed_cases = [
        ("x509_hash", "x509_hash"), ("typ", "typ"), ("no-expected-origins", "expected_origins"),
        ("other-origin", "not in expected_origins"), ("x5c-root", "trust anchor"), ("signature", "does not verify"),
        ("alg", "ES256"), ("kid", "kid"), ("private-jwk", "private key"), ("enc", "subset"), ("nonce", "nonce"),
        ("mode", "response_mode"), ("format", "mso_mdoc"), ("path", "[namespace, element]"),
        ("no-vp-formats", "vp_formats_supported"),
    ]
    for tamper, needle in signed_cases:
        bad, _ = _fake_service(chain, tamper=tamper)
        _expect_failure(f"signed, {tamper}", lambda: check_dc_api_answer(bad, ORIGIN, True, "dc_api.jwt", root),
                        needle)
    good, _ = _fake_service(chain)
    _expect_failure("another reader root", lambda: check_dc_api_answer(good, ORIGIN, True, "dc_api.jwt", other_root),
                    "AKI")
    _expect_failure("another origin", lambda: check_dc_api_answer(good, OTHER_ORIGIN, True, "dc_api.jwt", root),
                    "not in expected_origins")
    bad, _ = _fake_service(chain, signed=False, tamper="client_id")
    _expect_failure("unsigned with client_id", lambda: check_dc_api_answer(bad, ORIGIN, False, "dc_api.jwt", root),
                    "client_id")
    token, _ = _fake_service(chain, mode="direct_post.jwt", flow="cross-device")
    _, params, _ = check_signed_request(token, root)
    parsed = check_request_object(params, signed=True, response_mode="direct_post.jwt", origin=None)
    if not parsed["response_uri"] or requested_of(parsed["credentials"]) != asked:
        raise AssertionError(f"cross-device request object reads as {parsed}")
    client_id, request_uri = parse_authorization_request(
        "openid4vp://?client_id=" + urllib.parse.quote(params["client_id"], safe="")
        + "&request_uri=" + urllib.parse.quote("http://127.0.0.1:8080/v1/oid4vp/request-objects/abc", safe=""))
    if client_id != params["client_id"] or not request_uri.endswith("/abc"):
        raise AssertionError("authorizationRequest parsing")
    return (f"requests signed here with joserfc accepted (signed/unsigned x dc_api/dc_api.jwt, cross-device); "
            f"{len(signed_cases) + 4} tampered variants refused for the right reason")


def _self_test_holder() -> str:
    from joserfc import jwe
    from joserfc.jwk import ECKey
    chain = g.reader_auth_chain("oid4vp-wallet-self-test", "2024-01-01T00:00:00Z", "2124-01-01T00:00:00Z")
    anchors = [x509.load_pem_x509_certificate((TV / "pki" / "iaca-p256.pem").read_bytes())]
    verifier = g.MiniVerifier(anchors, g.d(g.DEFAULT_VERIFICATION_TIME), "warn", None)
    done = []
    for flow, mode in (("dc_api", "dc_api"), ("dc_api", "dc_api.jwt"), ("cross-device", "direct_post.jwt")):
        made, key = _fake_service(chain, mode=mode, flow=flow)
        if flow == "dc_api":
            s = check_dc_api_answer(made, ORIGIN, True, mode, chain[0])
            info = [ORIGIN, s.nonce, jwk_thumbprint(s.jwk) if s.jwk else None]
            expected = _raw_transcript(DCAPI_HANDOVER, info)
        else:
            _, params, leaf = check_signed_request(made, chain[0])
            parsed = check_request_object(params, signed=True, response_mode=mode, origin=None)
            s = Session("self-test", flow, ORIGIN, True, mode, params, params["client_id"], parsed["nonce"],
                        parsed["credentials"], parsed["jwk"], parsed["enc_values"], parsed["response_uri"], leaf)
            expected = _raw_transcript(REDIRECT_HANDOVER, [s.client_id, s.nonce, jwk_thumbprint(s.jwk),
                                                           s.response_uri])
        if session_transcript(s) != expected:
            raise AssertionError(f"{mode}: the transcript differs from the hand-written one")
        for enc in (["A128GCM", "A256GCM"] if mode in ENCRYPTED_MODES else [None]):
            sent = answer(s, enc=enc)
            if mode in ENCRYPTED_MODES:
                opened = jwe.decrypt_compact(sent["response"], ECKey.import_key(key), algorithms=["ECDH-ES", enc])
                if opened.headers().get("kid") != s.jwk["kid"] or opened.headers().get("enc") != enc:
                    raise AssertionError(f"{mode}: JWE header {opened.headers()}")
                body = strict_json(opened.plaintext, "JWE payload")
            else:
                body = sent
            if set(body) != {"vp_token"} or set(body["vp_token"]) != {"mdl0"} or len(body["vp_token"]["mdl0"]) != 1:
                raise AssertionError(f"{mode}: vp_token shape {json.dumps(body)[:200]}")
            response = b64url_strict(body["vp_token"]["mdl0"][0], "DeviceResponse")
            report = verifier.verify_response(response, expected)
            for check in ("issuer.certificateChain", "issuer.signature", "issuer.valueDigests", "mso.validity",
                          "device.authentication"):
                if report["checks"].get(check, {}).get("outcome") != "passed":
                    raise AssertionError(f"{mode}: MiniVerifier {check} is {report['checks'].get(check)}")
            if report["claims"] != {g.MDL_NS: {e: VALUES[e] for e in DEFAULT_ELEMENTS}}:
                raise AssertionError(f"{mode}: MiniVerifier claims {report['claims']}")
        # the negative scenarios' transcripts do not verify
        response = b64url_strict(vp_token(s, session_transcript(s))["mdl0"][0], "DeviceResponse")
        variants = {"another nonce": session_transcript(s, nonce="x" * 43),
                    "a null thumbprint": session_transcript(s, thumbprint=None)}
        if flow == "dc_api":
            variants |= {"another origin": session_transcript(s, origin=OTHER_ORIGIN),
                         "the redirect handover name": session_transcript(s, handover_name=REDIRECT_HANDOVER)}
        for what, transcript in variants.items():
            if transcript == expected:
                if what == "a null thumbprint" and mode == "dc_api":
                    continue  # the unencrypted mode's thumbprint is null already
                raise AssertionError(f"{mode}: {what} gives the same transcript")
            if verifier.verify_response(response, transcript)["checks"]["device.authentication"]["outcome"] \
                    != "failed":
                raise AssertionError(f"{mode}: the device signature verified over {what}")
        done.append(mode)
    s = check_dc_api_answer(_fake_service(chain)[0], ORIGIN, True, "dc_api.jwt", chain[0])
    two = vp_token(s, session_transcript(s), copies=2)["mdl0"]
    unknown = vp_token(s, session_transcript(s), key="not_asked_for")
    if len(two) != 2 or two[0] == two[1] or set(unknown) != {"not_asked_for"}:
        raise AssertionError("the vp_token variants")
    return (f"holder ({', '.join(done)}): MiniVerifier passes issuer and device signatures over the transcript "
            f"(also hand-written); joserfc opens A128GCM/A256GCM; another origin/nonce/handover name/thumbprint "
            f"fails device.authentication")


# The claims the PID query must yield (sd_jwt_vc.pid_model()), written out by hand.
PID_QUERY_CLAIMS = {"given_name": "Erika", "family_name": "Mustermann", "address": {"locality": "München"}}


def _jwt_part(compact: str, index: int) -> dict:
    return strict_json(b64url_strict(compact.split(".")[index], "JWT part"), "JWT part")


def _check_sdjwt_presentation(presentation: str, s: Session, query: dict, *, tx: dict | None = None,
                              expected_claims: dict | None = None) -> str:
    """One wallet presentation against the PyPI sd-jwt reference implementation, sd_jwt_vc.py's MiniVerifier and a
    hand-made sd_hash; the KB-JWT carries exactly the transaction data claims `tx` besides its own. Returns a
    one-word summary."""
    expected_claims = PID_QUERY_CLAIMS if expected_claims is None else expected_claims
    from jwcrypto.jwk import JWK
    from sd_jwt.verifier import SDJWTVerifier
    issuer = SDJWT_ISSUERS["test"]()
    anchor = x509.load_pem_x509_certificate((SDJWT_PKI / "issuer-ca.pem").read_bytes())
    jwt, *disclosures, kb = presentation.split("~")
    if not kb or any(not d for d in disclosures):
        raise AssertionError("the presentation does not end in a KB-JWT or has an empty disclosure")
    header = _jwt_part(jwt, 0)
    if header != {"alg": "ES256", "typ": SDJWT_TYP,
                  "x5c": [base64.b64encode(issuer.cert.public_bytes(serialization.Encoding.DER)).decode()]}:
        raise AssertionError(f"issuer JWT header {header}")
    payload = _jwt_part(jwt, 1)
    if (payload["iat"], payload["exp"]) != (now() - DAY, now() + 365 * DAY) or payload["vct"] != PID_VCT:
        raise AssertionError(f"issuer JWT iat/exp/vct {payload['iat']}/{payload['exp']}/{payload['vct']}")
    kb_header, kb_payload = _jwt_part(kb, 0), _jwt_part(kb, 1)
    prefix = presentation[:presentation.rindex("~") + 1]
    hand_made = base64.urlsafe_b64encode(hashlib.sha256(prefix.encode("ascii")).digest()).rstrip(b"=").decode()
    if kb_header != {"alg": "ES256", "typ": KB_TYP} or kb_payload != {
            "iat": now(), "nonce": s.nonce, "aud": s.kb_audience, "sd_hash": hand_made} | (tx or {}):
        raise AssertionError(f"KB-JWT {kb_header} {kb_payload}")
    # the reference implementation (it checks the KB-JWT's signature with cnf.jwk, nonce and aud)
    key = JWK.from_pem(issuer.cert.public_key().public_bytes(serialization.Encoding.PEM,
                                                             serialization.PublicFormat.SubjectPublicKeyInfo))
    verified = SDJWTVerifier(presentation, lambda _iss, _header: key, expected_aud=s.kb_audience,
                             expected_nonce=s.nonce).get_verified_payload()
    base = {k: payload[k] for k in ("iss", "iat", "exp", "vct", "cnf")}
    if verified != base | expected_claims:
        raise AssertionError(f"PyPI sd-jwt reads {verified}")
    for wrong in ({"expected_aud": "origin:https://nowhere.example", "expected_nonce": s.nonce},
                  {"expected_aud": s.kb_audience, "expected_nonce": "another-nonce"}):
        try:
            SDJWTVerifier(presentation, lambda _iss, _header: key, **wrong).get_verified_payload()
        except Exception:  # noqa: BLE001 - refused, as it must be
            continue
        raise AssertionError(f"PyPI sd-jwt accepted the presentation with {wrong}")
    # sd_jwt_vc.py's independent verifier, with the DCQL query
    judged = sv.MiniVerifier([anchor], {}).verify(presentation, now=now(), nonce=s.nonce, audience=s.kb_audience,
                                                  require_kb=True, query=query)
    if not judged["verified"] or judged["claims"] != base | expected_claims:
        raise AssertionError(f"sd_jwt_vc.MiniVerifier: {judged}")
    return "ok"


def _self_test_sdjwt() -> str:
    """The dc+sd-jwt holder: requests with dc+sd-jwt queries accepted (and refused when broken), presentations in
    every mode verified by PyPI sd-jwt and sd_jwt_vc.MiniVerifier, each negative scenario's presentation refused by
    MiniVerifier with the code that scenario expects."""
    global _now
    from joserfc import jwe
    from joserfc.jwk import ECKey
    saved, _now = _now, sv.NOW
    try:
        if expected_sdjwt_claims([q["path"] for q in PID_QUERY["claims"]]) != PID_QUERY_CLAIMS:
            raise AssertionError("expected_sdjwt_claims")
        chain = g.reader_auth_chain("oid4vp-wallet-self-test", "2024-01-01T00:00:00Z", "2124-01-01T00:00:00Z")
        root = chain[0]
        # request checks
        for tamper, needle in (("no-sdjwt-format", "dc+sd-jwt"), ("kb-alg", "kb-jwt_alg_values")):
            bad, _ = _fake_service(chain, dcql_query=PID_DCQL, tamper=tamper)
            _expect_failure(f"dc+sd-jwt request, {tamper}",
                            lambda: check_dc_api_answer(bad, ORIGIN, True, "dc_api.jwt", root), needle)
        broken_queries = {"meta.vct_values": dict(PID_QUERY, meta={}),
                          "claims path pointer": dict(PID_QUERY, claims=[{"path": ["a", -1]}]),
                          "values": dict(PID_QUERY, claims=[{"path": ["given_name"], "values": ["Erika"]}])}
        for needle, broken in broken_queries.items():
            bad, _ = _fake_service(chain, dcql_query={"credentials": [broken]})
            _expect_failure(f"dc+sd-jwt query, {needle}",
                            lambda: check_dc_api_answer(bad, ORIGIN, True, "dc_api.jwt", root), needle)
        # honest presentations in every mode; both formats in one vp_token
        done = []
        cases = [(True, "dc_api.jwt", "dc_api", PID_DCQL), (False, "dc_api.jwt", "dc_api", PID_DCQL),
                 (True, "dc_api", "dc_api", PID_DCQL), (False, "dc_api", "dc_api", PID_DCQL),
                 (True, "direct_post.jwt", "cross-device", PID_DCQL), (True, "dc_api.jwt", "dc_api", PID_AND_MDL_DCQL)]
        for signed, mode, flow, dcql_query in cases:
            made, key = _fake_service(chain, signed=signed, mode=mode, flow=flow, dcql_query=dcql_query)
            if flow == "dc_api":
                s = check_dc_api_answer(made, ORIGIN, signed, mode, root)
                if s.kb_audience != "origin:" + ORIGIN:
                    raise AssertionError(f"{mode}: KB audience {s.kb_audience}")
            else:
                _, params, leaf = check_signed_request(made, root)
                parsed = check_request_object(params, signed=True, response_mode=mode, origin=None)
                s = Session("self-test", flow, ORIGIN, True, mode, params, params["client_id"], parsed["nonce"],
                            parsed["credentials"], parsed["jwk"], parsed["enc_values"], parsed["response_uri"], leaf)
                if not s.kb_audience.startswith("x509_hash:") or s.kb_audience != params["client_id"]:
                    raise AssertionError(f"cross-device KB audience {s.kb_audience}")
            if s.params["dcql_query"] != dcql_query:
                raise AssertionError("the dcql_query read back differs")
            for enc in (["A128GCM", "A256GCM"] if mode in ENCRYPTED_MODES else [None]):
                sent = answer(s, enc=enc)
                if mode in ENCRYPTED_MODES:
                    opened = jwe.decrypt_compact(sent["response"], ECKey.import_key(key), algorithms=["ECDH-ES", enc])
                    body = strict_json(opened.plaintext, "JWE payload")
                else:
                    body = sent
                ids = [q["id"] for q in dcql_query["credentials"]]
                if set(body) != {"vp_token"} or sorted(body["vp_token"]) != sorted(ids) \
                        or any(len(v) != 1 or not isinstance(v[0], str) for v in body["vp_token"].values()):
                    raise AssertionError(f"{mode}: vp_token shape {json.dumps(body)[:200]}")
                _check_sdjwt_presentation(body["vp_token"]["pid"][0], s, PID_QUERY)
                if "mdl" in body["vp_token"]:
                    b64url_strict(body["vp_token"]["mdl"][0], "DeviceResponse")  # the mdoc stays base64url CBOR
                    if "~" in body["vp_token"]["mdl"][0]:
                        raise AssertionError("the mdoc presentation is not base64url")
            done.append(f"{'signed' if signed else 'unsigned'} {mode}" + (" +mdoc" if len(dcql_query["credentials"]) > 1
                                                                           else ""))
        # each negative scenario's presentation, judged by sd_jwt_vc.MiniVerifier
        anchor = x509.load_pem_x509_certificate((SDJWT_PKI / "issuer-ca.pem").read_bytes())
        dc_api = check_dc_api_answer(_fake_service(chain, dcql_query=PID_DCQL)[0], ORIGIN, True, "dc_api.jwt", root)
        token, _ = _fake_service(chain, mode="direct_post.jwt", flow="cross-device", dcql_query=PID_DCQL)
        _, params, leaf = check_signed_request(token, root)
        parsed = check_request_object(params, signed=True, response_mode="direct_post.jwt", origin=None)
        cross = Session("self-test", "cross-device", ORIGIN, True, "direct_post.jwt", params, params["client_id"],
                        parsed["nonce"], parsed["credentials"], parsed["jwk"], parsed["enc_values"],
                        parsed["response_uri"], leaf)
        negatives = [
            ("sdjwt-unrequested-claim", dc_api, CODE_SDJWT_UNREQUESTED, {"extra_paths": (["birthdate"],)}),
            ("sdjwt-wrong-audience", dc_api, CODE_SDJWT_KB_AUDIENCE, {"audience": "origin:" + OTHER_ORIGIN}),
            ("sdjwt-wrong-nonce", dc_api, CODE_SDJWT_KB_NONCE, {"nonce": b64url(secrets.token_bytes(32))}),
            ("sdjwt-no-kb", dc_api, CODE_SDJWT_KB_MISSING, {"key_binding": False}),
            ("sdjwt-tampered-disclosure", dc_api, CODE_SDJWT_DISCLOSURE_UNREFERENCED, {"tamper": True}),
            ("sdjwt-untrusted-issuer", dc_api, CODE_SDJWT_ISSUER_UNTRUSTED, {"issuer": SDJWT_ISSUERS["untrusted"]()}),
            ("sdjwt-vct-not-requested", dc_api, CODE_SDJWT_VCT_NOT_REQUESTED, {"vct": "urn:other:1"}),
            ("sdjwt-cross-device-dc-api-audience", cross, CODE_SDJWT_KB_AUDIENCE, {"audience": "origin:" + ORIGIN}),
        ]
        for name, s, code, options in negatives:
            query = next(q for q in s.credentials if q.format == SDJWT_FORMAT)
            presentation = vp_token(s, b"", **options)[query.id][0]
            if name == "sdjwt-no-kb" and not presentation.endswith("~"):
                raise AssertionError("sdjwt-no-kb: the presentation does not end in ~")
            judged = sv.MiniVerifier([anchor], {}).verify(presentation, now=now(), nonce=s.nonce,
                                                          audience=s.kb_audience, require_kb=True, query=PID_QUERY)
            if judged["verified"] or judged["code"] != code:
                raise AssertionError(f"{name}: MiniVerifier says {judged['verified']} {judged['code']}, not {code}")
        unrequested = sd_jwt_presentation(dc_api, dc_api.credentials[0], extra_paths=(["birthdate"],))
        if not any(json.loads(b64url_strict(d, "d"))[1:] == ["birthdate", "1964-08-12"]
                   for d in unrequested.split("~")[1:-1]):
            raise AssertionError("sdjwt-unrequested-claim: no birthdate disclosure")
        return (f"SD-JWT VC ({', '.join(done)}): PyPI sd-jwt and sd_jwt_vc.MiniVerifier verify with the session's "
                f"nonce and aud, sd_hash recomputes, PyPI refuses another aud/nonce; {len(negatives)} negative "
                f"scenarios refused by MiniVerifier with their codes; 5 broken dc+sd-jwt requests refused")
    finally:
        _now = saved


# The claims of PID2_QUERY (sd_jwt_vc.pid_model()), written out by hand.
PID2_QUERY_CLAIMS = {"birthdate": "1964-08-12"}
SPEC_DIR = TV / "sdjwt-spec"
TS12_PAYMENT_SCHEMA = TV / "transaction-data" / "ts12-urn-eudi-sca-payment-1-data-model.json"


def _independent_digest(text: str, alg: str) -> str:
    """base64url(HASH(ASCII of text)) with cryptography's hashes and the base64 module (not transaction_data.py)."""
    algorithm = {"sha-256": hashes.SHA256, "sha-384": hashes.SHA384, "sha-512": hashes.SHA512}[alg]()
    digest = hashes.Hash(algorithm)
    digest.update(text.encode("ascii"))
    return base64.urlsafe_b64encode(digest.finalize()).decode().rstrip("=")


def _judge_transaction_data(strings: list[str], kb: dict[str, dict], presented: list[str]) -> list[str]:
    """OpenID4VP B.3.3.1 and 5.1 as the brief gives verifierd's codes, re-derived for the self-test: each presented
    credential's KB-JWT claims against the entries addressed to it, then every entry approved exactly once. Returns
    the failure codes (empty: verified)."""
    objects = [json.loads(base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))) for s in strings]
    codes: list[str] = []
    failed: set[str] = set()
    approved: dict[int, list[str]] = {i: [] for i in range(len(strings))}
    for cid in presented:
        claims = kb.get(cid, {})
        addressed = [i for i, o in enumerate(objects) if cid in o["credential_ids"]]

        def fail(code: str) -> None:
            codes.append(code)
            failed.add(cid)
        if not addressed:
            if "transaction_data_hashes" in claims or "transaction_data_hashes_alg" in claims:
                fail(CODE_TD_HASH_UNKNOWN)
            continue
        mine: list[int] = []
        value = claims.get("transaction_data_hashes")
        if "transaction_data_hashes" in claims:  # a KB-JWT that approves nothing needs no algorithm
            listed = any("transaction_data_hashes_alg" in objects[i] for i in addressed)
            alg = claims.get("transaction_data_hashes_alg", None if listed else "sha-256")
            if alg not in ("sha-256", "sha-384", "sha-512"):  # missing when listed, not a string, or unknown
                fail(CODE_TD_ALG_NOT_OFFERED)
                continue
            if not (isinstance(value, list) and value and all(
                    isinstance(x, str) and x and set(x) <= B64URL_ALPHABET for x in value)):
                fail(CODE_TD_HASHES_MALFORMED)
                continue
            expected = [_independent_digest(strings[i], alg) for i in addressed]
            problem, last = None, -1
            for text in value:
                if text not in expected:
                    problem = CODE_TD_HASH_UNKNOWN
                    break
                position = expected.index(text)
                if addressed[position] in mine:
                    problem = CODE_TD_HASH_DUPLICATE
                    break
                if position < last:
                    problem = CODE_TD_HASH_ORDER
                    break
                last = position
                if alg not in objects[addressed[position]].get("transaction_data_hashes_alg", ["sha-256"]):
                    problem = CODE_TD_ALG_NOT_OFFERED
                    break
                mine.append(addressed[position])
            if problem:
                fail(problem)
                continue
        if any(objects[i]["credential_ids"] == [cid] and i not in mine for i in addressed):
            fail(CODE_TD_HASH_MISSING)
            continue
        for i in mine:
            approved[i].append(cid)
    for i, by in approved.items():
        if len(by) > 1:
            codes.append(CODE_TD_APPROVED_TWICE)
        elif not by:
            naming = [cid for cid in presented if cid in objects[i]["credential_ids"]]
            if not naming:
                return codes + [CODE_TD_NOT_APPROVED]
            if not any(cid in failed for cid in naming):
                codes.append(CODE_TD_HASH_MISSING)
    return codes


def _tx_fake_session(chain: tuple, flow: str, dcql: dict, sent: list[dict] | None,
                     objects: bool = False) -> Session:
    """A session the wallet reads from a request made here (signed dc_api.jwt, or a cross-device request object)
    carrying `sent` as a conforming service encodes it."""
    strings = [txd.encode(e) for e in sent] if sent is not None else None
    root = chain[0]
    if flow == "dc_api":
        made, _ = _fake_service(chain, dcql_query=dcql, transaction_data=strings)
        s = check_dc_api_answer(made, ORIGIN, True, "dc_api.jwt", root)
    else:
        token, _ = _fake_service(chain, mode="direct_post.jwt", flow="cross-device", dcql_query=dcql,
                                 transaction_data=strings)
        _, params, leaf = check_signed_request(token, root)
        parsed = check_request_object(params, signed=True, response_mode="direct_post.jwt", origin=None)
        s = Session("self-test", "cross-device", ORIGIN, True, "direct_post.jwt", params, params["client_id"],
                    parsed["nonce"], parsed["credentials"], parsed["jwk"], parsed["enc_values"],
                    parsed["response_uri"], leaf, transaction_data=parsed["transaction_data"])
    if sent is None:
        expect("transaction_data" not in s.params and not s.transaction_data, "transaction_data appeared")
    else:
        txd.check_sent(s.transaction_data, sent)
    s.report_objects = objects
    return s


def _kb_claims_by_joserfc(presentation: str) -> tuple[dict, dict]:
    """The KB-JWT of an SD-JWT+KB, signature verified by joserfc with the issuer-signed cnf.jwk: (header, claims)."""
    from joserfc import jwt
    from joserfc.jwk import ECKey
    issuer_jwt, kb = presentation.split("~")[0], presentation.split("~")[-1]
    cnf = _jwt_part(issuer_jwt, 1)["cnf"]["jwk"]
    token = jwt.decode(kb, ECKey.import_key(cnf), algorithms=["ES256"])
    return dict(token.header), dict(token.claims)


def _self_test_txdata() -> str:
    """Transaction data: the wallet's request checks (and refusals), its KB-JWT claims checked with joserfc (signature,
    claims) and PyPI sd-jwt (the whole SD-JWT+KB, valid cases) with hashes recomputed with cryptography, every
    negative scenario's answer judged by _judge_transaction_data with the code it expects, the TS12 schema with
    jsonschema, the creation-refusal cases' sizes, and the OpenID4VP KB-JWT example's hash."""
    global _now
    try:
        import jsonschema
    except ImportError:  # the pinned environment has it (requirements.txt); elsewhere the schema step is skipped
        jsonschema = None
    saved, _now = _now, sv.NOW
    try:
        chain = g.reader_auth_chain("oid4vp-wallet-self-test", "2024-01-01T00:00:00Z", "2124-01-01T00:00:00Z")
        root = chain[0]
        # 1. the request: read, compared with what was sent, refused when broken
        sent = [txd.payment(["pid"]), txd.qes_authorization(["pid"])]
        s = _tx_fake_session(chain, "dc_api", PID_DCQL, sent)
        for what, other in (("reordered", sent[::-1]), ("member order", [dict(reversed(list(sent[0].items()))),
                                                                          sent[1]]),
                            ("one entry fewer", sent[:1])):
            try:
                txd.check_sent(s.transaction_data, other)
                raise AssertionError(f"check_sent accepted the entries {what}")
            except txd.TransactionDataError:
                pass
        strings = [txd.encode(e) for e in sent]
        padded = strings[0] + "=" * (-len(strings[0]) % 4)
        if padded == strings[0]:
            padded = strings[0] + "=="
        broken = {
            "non-empty array": (PID_DCQL, []),
            "not a string": (PID_DCQL, [sent[0]]),
            "unpadded base64url": (PID_DCQL, [padded]),
            "not compact JSON": (PID_DCQL, [txd.b64url(json.dumps(sent[0], ensure_ascii=False).encode())]),
            "repeats member": (PID_DCQL, [txd.b64url(b'{"type":"a","type":"b","credential_ids":["pid"]}')]),
            "no credential query": (PID_DCQL, [txd.encode(txd.payment(["passport"]))]),
            "mso_mdoc query": (PID_AND_MDL_DCQL, [txd.encode(txd.payment(["mdl"]))]),
            "require_cryptographic_holder_binding": (UNBOUND_PID_DCQL, [txd.encode(txd.payment(["pid"]))]),
            "transaction_data_hashes_alg": (PID_DCQL, [txd.encode(dict(txd.payment(["pid"]),
                                                                     transaction_data_hashes_alg="sha-256"))]),
            "type is not": (PID_DCQL, [txd.encode({"type": "", "credential_ids": ["pid"]})]),
            "distinct ids": (PID_DCQL, [txd.encode(txd.payment(["pid", "pid"]))]),
        }
        for needle, (dcql, value) in broken.items():
            bad, _ = _fake_service(chain, dcql_query=dcql, transaction_data=value)
            _expect_failure(f"transaction_data, {needle}", lambda: check_dc_api_answer(bad, ORIGIN, True, "dc_api.jwt",
                                                                                      root), needle)
        null, _ = _fake_service(chain, dcql_query=PID_DCQL, tamper="transaction-data-null")
        _expect_failure("transaction_data null", lambda: check_dc_api_answer(null, ORIGIN, True, "dc_api.jwt", root),
                        "non-empty array")
        # 2. honest answers: joserfc, PyPI sd-jwt, the hashes recomputed, the judge
        happy = list(TXDATA_VERIFIED) + [TxHappy("presentations", "", lambda: [txd.payment(["pid"]),
                                                                               txd.qes_authorization(["pid"])],
                                                 objects=True)]
        checked = 0
        for case in happy:
            for flow in ("dc_api", "cross-device"):
                s = _tx_fake_session(chain, flow, case.dcql, case.entries(), case.objects)
                vp = vp_token(s, b"")
                strings = s.params["transaction_data"]
                presented = [q.id for q in s.credentials]
                kb_claims: dict[str, dict] = {}
                for query in case.dcql["credentials"]:
                    presentation = vp[query["id"]][0]
                    header, claims = _kb_claims_by_joserfc(presentation)
                    if header.get("typ") != KB_TYP or claims.get("nonce") != s.nonce or claims.get("aud") != s.kb_audience:
                        raise AssertionError(f"{case.name}: joserfc reads {header} {claims}")
                    # independently: the first named presented credential approves; the first common algorithm
                    mine = [i for i, text in enumerate(strings) if next(
                        c for c in json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))["credential_ids"]
                        if c in presented) == query["id"]]
                    offers = [json.loads(base64.urlsafe_b64decode(strings[i] + "=" * (-len(strings[i]) % 4))).get(
                        "transaction_data_hashes_alg") for i in mine]
                    tx: dict[str, Any] = {}
                    if mine:
                        named = any(o is not None for o in offers)
                        lists = [o or ["sha-256"] for o in offers]
                        alg = next(a for a in lists[0] if all(a in other for other in lists)) if named else "sha-256"
                        tx["transaction_data_hashes"] = [_independent_digest(strings[i], alg) for i in mine]
                        if named:
                            tx["transaction_data_hashes_alg"] = alg
                    if {k: v for k, v in claims.items() if k.startswith("transaction_data")} != tx:
                        raise AssertionError(f"{case.name} {flow} {query['id']}: KB-JWT {claims}, expected {tx}")
                    kb_claims[query["id"]] = tx
                    _check_sdjwt_presentation(presentation, s, query, tx=tx, expected_claims=PID_QUERY_CLAIMS
                                              if query["id"] == "pid" else PID2_QUERY_CLAIMS)
                    checked += 1
                if _judge_transaction_data(strings, kb_claims, presented):
                    raise AssertionError(f"{case.name}: the judge refuses the honest answer: "
                                         f"{_judge_transaction_data(strings, kb_claims, presented)}")
        # 3. each negative scenario's answer: exactly its code
        for case in TXDATA_REFUSED:
            for flow in ("dc_api", "cross-device"):
                for mutate in case.mutations:
                    s = _tx_fake_session(chain, flow, case.dcql, case.entries() if case.entries else None)
                    claims_override, only = mutate(s)
                    vp = vp_token(s, b"", tx_claims=claims_override, only=only)
                    presented = list(vp)
                    kb = {cid: {k: v for k, v in _kb_claims_by_joserfc(vp[cid][0])[1].items()
                                if k.startswith("transaction_data")} for cid in presented}
                    codes = _judge_transaction_data(s.params.get("transaction_data", []), kb, presented)
                    if codes != [case.code]:
                        raise AssertionError(f"txdata-{case.name} ({flow}): judged {codes}, not [{case.code}]")
        # 4. TS12: the schema applies to payload; the test payloads pass or fail it as their cases say
        valid: list[dict] = []
        if jsonschema is not None:
            schema = json.loads(TS12_PAYMENT_SCHEMA.read_text())
            validator = jsonschema.Draft202012Validator(schema)

            def payments(entries: Any) -> list[dict]:
                return [e for e in (entries if isinstance(entries, list) else [entries])
                        if isinstance(e, dict) and e.get("type") == txd.TYPE_PAYMENT]
            valid = [e for case in TXDATA_VERIFIED for e in payments(case.entries())]
            valid += [e for case in TXDATA_REFUSED if case.entries for e in payments(case.entries())]
            for cases in (TD_INVALID_CASES, TD_TYPE_CASES, TD_NOT_BINDABLE_CASES):
                valid += [e for _, _, entries in cases for e in payments(entries()) if "payload" in e]
            for entry in valid:
                if not validator.is_valid(entry["payload"]):
                    raise AssertionError(f"a payload the tests send as valid fails TS12: {entry['payload']}")
            if validator.is_valid(txd.payment(["pid"])):
                raise AssertionError("a whole TS12 entry passes the payload schema")
            for what, _, entries in TD_SCHEMA_CASES:
                if all("payload" in e and validator.is_valid(e["payload"]) for e in payments(entries())):
                    raise AssertionError(f"schema case {what!r}: every payment payload passes TS12")
        # 5. the creation cases are what they say
        sizes = {what: [len(txd.compact_bytes(e)) for e in entries()] for what, _, entries in TD_INVALID_CASES
                 if "bytes" in what}
        big, total = sizes["an entry of 4097 bytes"], sizes["five entries of 3300 bytes (16500 in all)"]
        if big != [4097] or sum(total) <= 16384 or max(total) > 4096:
            raise AssertionError(f"the size cases: {sizes}")
        # 6. OpenID4VP 1.0 B.3.6: the KB-JWT example's hash is the SHA-256 of the string in the vector file
        example = json.loads((SPEC_DIR / "openid4vp-1.0" / "response" / "kb_jwt_unsecured.json").read_text())
        vector = json.loads((SPEC_DIR / "openid4vp-transaction-data-hash.json").read_text())
        if example["transaction_data_hashes"] != [vector["transactionDataHash"]] \
                or "transaction_data_hashes_alg" in example \
                or _independent_digest(vector["hashedString"], "sha-256") != vector["transactionDataHash"] \
                or txd.digest(vector["hashedString"]) != vector["transactionDataHash"] \
                or json.loads(b64url_strict(vector["hashedString"], "hashedString")) != vector["hashedStringDecoded"]:
            raise AssertionError("the OpenID4VP KB-JWT example's transaction data hash")
        return (f"transaction data: request read, compared with what was sent, {len(broken) + 1} broken requests "
                f"refused; {checked} honest KB-JWTs verified by joserfc and PyPI sd-jwt with hashes recomputed; "
                f"{sum(len(c.mutations) for c in TXDATA_REFUSED) * 2} negative answers judged with their codes; "
                + (f"TS12 payloads {len(valid)} valid, {len(TD_SCHEMA_CASES)} mismatches, schema on payload; "
                   if jsonschema is not None else "TS12 schema step skipped (no jsonschema); ")
                + "size cases; the OpenID4VP B.3.6 example hash = SHA-256 of the SD-JWT draft's address disclosure")
    finally:
        _now = saved


def self_test(eudi_dir: Path) -> int:
    steps: list[Callable[[], str]] = [lambda: _self_test_transcripts(eudi_dir), _self_test_jwe, _self_test_requests,
                                      _self_test_holder, _self_test_sdjwt, _self_test_txdata]
    failed = 0
    for step in steps:
        try:
            print("ok:", step(), flush=True)
        except Exception as error:  # noqa: BLE001
            print(f"FAILED: {type(error).__name__}: {error}", flush=True)
            failed += 1
    print("self-test", "passed" if not failed else f"failed ({failed})")
    return 0 if not failed else 1


# --------------------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------------------

def bench_bodies(c: "Client", count: int, out: Path, threads: int = 8) -> int:
    """Makes `count` signed dc_api.jwt sessions and writes one /v1/oid4vp/verify body per line (each valid once), for
    wrk (scripts/bench/bench-service.sh)."""
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        made = list(pool.map(lambda _: c.make(), range(count)))
    with out.open("w") as file:
        for session in made:
            file.write(json.dumps({"sessionId": session.session_id, "response": answer(session)}) + "\n")
    return 0


def _response_mode_of(request: Any) -> str:
    """The response_mode a DC API request names (read before the checks, which need to know what to expect)."""
    data = request.get("data") if isinstance(request, dict) else None
    if isinstance(data, dict) and isinstance(data.get("request"), str) and data["request"].count(".") == 2:
        data = strict_json(b64url_strict(data["request"].split(".")[1], "JWS payload"), "request object")
    mode = data.get("response_mode") if isinstance(data, dict) else None
    return mode if isinstance(mode, str) else "dc_api.jwt"


def present(answer_file: Path, origin: str, base_url: str | None, root: x509.Certificate, token: str, enc: str,
            public_base_url: str | None) -> int:
    """The browser and the wallet for one request made by hand (README's walk-through): reads the 201 answer of
    POST /v1/oid4vp/requests and checks it as every scenario does. DC API: prints the body for /v1/oid4vp/verify,
    {"sessionId", "response": <credential.data>}, without contacting the service. Cross-device: takes its
    authorizationRequest (what the QR code shows), GETs the request object, POSTs the JWE to response_uri and
    prints what that answered."""
    try:
        answer_json = json.loads(answer_file.read_text())
        expect(isinstance(answer_json, dict), "not a JSON object")
        if "authorizationRequest" in answer_json:
            _, request_uri = parse_authorization_request(answer_json.get("authorizationRequest"))
            if base_url is None:  # the service named in the QR code, only when it is on this machine
                parts = urllib.parse.urlsplit(request_uri)
                expect(parts.hostname is not None and _loopback(parts.hostname),
                       f"request_uri {request_uri} is not on a loopback address: give --base-url")
                base_url = f"{parts.scheme}://{parts.netloc}"
            client = Client(base_url, root, token, enc, public_base_url)
            s, _ = client.open_cross_device(answer_json)
            posted = client.post_response(s, answer(s, enc=enc)["response"])
            if posted.status != 200:
                raise posted.fail("the response_uri POST did not answer 200")
            print(posted.text)
            return 0
        request = answer_json.get("request")
        signed = isinstance(request, dict) and request.get("protocol") == PROTOCOL_SIGNED
        s = check_dc_api_answer(answer_json, origin, signed, _response_mode_of(request), root)
        print(json.dumps({"sessionId": s.session_id, "response": answer(s, enc=enc)}))
        return 0
    except (OSError, json.JSONDecodeError, Failure) as error:
        print(f"oid4vp_wallet.py: cannot present {answer_file}: {error}", file=sys.stderr)
        return 1


def main() -> int:
    parser = argparse.ArgumentParser(description="TEST-ONLY OpenID4VP 1.0 mso_mdoc and dc+sd-jwt wallet against "
                                                 "verifierd")
    parser.add_argument("--base-url", help="the running service, e.g. http://127.0.0.1:8080")
    parser.add_argument("--token", default=DEMO_INTEGRATOR_TOKEN,
                        help="the integrator bearer token (default: the demo's)")
    parser.add_argument("--reader-root", default=str(TV / "demo" / "reader-root.pem"),
                        help="PEM of the root the request signer's x5c must chain to (AKI = its SKI)")
    parser.add_argument("--enc", choices=sorted(CONTENT_ENCRYPTIONS), default="A128GCM",
                        help="JWE enc for the scenarios that do not fix their own")
    parser.add_argument("--public-base-url", help="the service's public URL prefix in request_uri/response_uri, "
                                                  "mapped onto --base-url")
    parser.add_argument("--scenarios", help=f"comma-separated, default all: {','.join(SCENARIOS)}")
    parser.add_argument("--self-test", action="store_true", help="offline checks of this wallet's own code")
    parser.add_argument("--bench-bodies", type=int, help="write this many one-use /v1/oid4vp/verify bodies to --out")
    parser.add_argument("--out", type=Path, help="where --bench-bodies writes (JSON lines)")
    parser.add_argument("--eudi-dir", type=Path, default=EUDI_DIR,
                        help="shared/vectors/external/eudi-verifier-endpoint, for --self-test (skipped if absent)")
    parser.add_argument("--issuer", choices=sorted(ww.ISSUERS), default="test",
                        help="document signer: test (TestVectors/pki) or demo (the demo configuration's)")
    parser.add_argument("--present", type=Path, metavar="FILE",
                        help="answer the /v1/oid4vp/requests answer in FILE: DC API, print the /v1/oid4vp/verify "
                             "body; cross-device, post to its response_uri")
    parser.add_argument("--origin", default=ORIGIN, help=f"with --present: the page's origin (default {ORIGIN})")
    parser.add_argument("--now", type=int, metavar="EPOCH",
                        help="the wallet's time in seconds since 1970 for the SD-JWT VC (iat = now - 1 day, exp = "
                             "now + 365 days) and its KB-JWT (iat = now); default the real time; the tests' service "
                             "clock is 1893456000 (2030-01-01T00:00:00Z)")
    parser.add_argument("--sdjwt-issuer-cert", type=Path, default=SDJWT_PKI / "issuer.pem",
                        help="PEM of the SD-JWT VC issuer leaf (x5c) answering dc+sd-jwt queries (default "
                             "TestVectors/sdjwt/pki/issuer.pem, under issuer-ca.pem)")
    parser.add_argument("--sdjwt-issuer-key", type=Path, default=SDJWT_PKI / "keys" / "issuer.pem",
                        help="its PKCS#8 PEM key (default TestVectors/sdjwt/pki/keys/issuer.pem)")
    args = parser.parse_args()
    if args.self_test:  # always the test signers: the MiniVerifiers trust TestVectors/pki and TestVectors/sdjwt/pki
        return self_test(args.eudi_dir)
    global _now, _sdjwt_issuer
    _now = args.now
    ww._issuer = ww.ISSUERS[args.issuer]()
    try:
        _sdjwt_issuer = SdJwtIssuer(args.sdjwt_issuer_cert, args.sdjwt_issuer_key)
    except (OSError, ValueError, Failure) as error:
        parser.error(f"--sdjwt-issuer-cert/--sdjwt-issuer-key: {error}")
    root = x509.load_pem_x509_certificate(Path(args.reader_root).read_bytes())
    if args.present:
        return present(args.present, args.origin, args.base_url, root, args.token, args.enc, args.public_base_url)
    if not args.base_url:
        parser.error("--base-url is required (or --self-test, or --present)")
    client = Client(args.base_url, root, args.token, args.enc, args.public_base_url)
    if args.bench_bodies:
        if not args.out:
            parser.error("--bench-bodies needs --out")
        return bench_bodies(client, args.bench_bodies, args.out)
    names = [n.strip() for n in args.scenarios.split(",") if n.strip()] if args.scenarios else list(SCENARIOS)
    return run_scenarios(client, names)


if __name__ == "__main__":
    sys.exit(main())
