#!/usr/bin/env python3
"""ETSI TS 119 475 relying-party registration certificates (WRPRC, JWT form) for verifierd's tests.
EVERYTHING WRITTEN HERE IS TEST-ONLY.

Writes TestVectors/registration/ (nothing outside it is touched). Everything in that folder is deleted and rewritten
except etsi/, which holds third-party reference copies (see etsi/SOURCES.md): the script only reads etsi/ and aborts
unless every copy there still has its pinned SHA-256. Output is deterministic: keys come from public seed labels
(generate.derive_key), certificates and JWS signatures use RFC 6979 ECDSA, every time is fixed, and JSON is written
compactly in a fixed member order, so re-running gives byte-identical files.

  pki/registrar-ca.pem        self-signed P-256 CA "verifierd TEST-ONLY Registrar CA" (the tests' trust anchor)
  pki/registrar.pem           the WRPRC provider's signing certificate, issued by registrar-ca
  pki/other-ca.pem            an unrelated CA that nothing trusts
  pki/other-registrar.pem     a WRPRC signing certificate issued by other-ca
  pki/keys/<name>.pem         the private key of each, PKCS#8
  certificates/<case>.jwt     one compact JWS per case (typ rc-wrp+jwt, x5c = the signing certificate only), no
                              trailing newline
  manifest.json, README.md    what each case is and the verdict expected at 2030-01-01T00:00:00Z

The payloads follow ETSI TS 119 475 v1.2.1 as current implementations read it (`sub` a string, `srv_description` a
flat array of {lang, value}, `supervisory_authority` an object, `credentials[].claim` an array of {path}).

Before writing, the script aborts unless:
  * every JSON payload has, for each claim it uses, the name and JSON type (recursively: member sets of objects,
    element shapes of arrays, credentials[].meta per format, credentials[].claim[].path) of the ETSI TS 119 475
    v1.2.1 Annex C example in etsi/v1.2.1/; the only claims used that Annex C lacks are exp, nbf (RFC 7519
    NumericDate) and intended_use_id (string);
  * a small judge written here gives each case exactly the expected verdict, with exactly one failed check for a
    refusal case; each case differs from `valid` in exactly the one place it is meant to;
  * every case expected valid verifies with joserfc (an independent JOSE implementation) against the public key of
    pki/registrar.pem and that certificate chains to pki/registrar-ca.pem (cryptography's verify_directly_issued_by);
    joserfc also accepts every other genuinely signed case with its own x5c key and refuses bad-signature and
    alg-none.

Usage (from the repository root):  python3 TestVectors/generator/registration_certificates.py
It takes no arguments: -h/--help prints this text; anything else is refused before anything is read or written.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import datetime as dt
import hashlib
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402  (main-guarded: importing it writes nothing)

OUT = g.TV / "registration"
ETSI = OUT / "etsi"
GENERATOR = "TestVectors/generator/registration_certificates.py"

VERIFICATION_TIME = "2030-01-01T00:00:00Z"
NOW = g.d(VERIFICATION_TIME)
EXPIRING_SOON = dt.timedelta(days=30)  # a certificate valid now but expiring within this window: start-up warning
INTEGRATOR = "tests"

TYP = "rc-wrp+jwt"
ALG = "ES256"
JUDGE_ALGORITHMS = {"ES256", "ES384", "ES512"}  # what the judge here accepts; "none" never
SERVICE_PROVIDER = "https://uri.etsi.org/19475/Entitlement/Service_Provider"
SERVICE_PROVIDER_OID = "0.4.0.19475.1.1"
PID_PROVIDER = "https://uri.etsi.org/19475/Entitlement/PID_Provider"
WRP_POLICY_OID = "0.4.0.19475.3.1"

MDL_DOCTYPE = "org.iso.18013.5.1.mDL"
MDL_NS = "org.iso.18013.5.1"
PID_VCT = "urn:eudi:pid:1"

# The third-party copies in etsi/ (read only; see etsi/SOURCES.md), pinned.
ETSI_FILES = {
    "v1.2.1/annex-c-payload.eudi-transcription.json":
        "7f594b48613d10edbda58b2cfc4115552a0b817948ee4d72afa3f02b846cf0b8",
    "v1.1.1/README.md": "e14e314d722248e33c0f91cf357ad5a4ae91855f848a15b254b7191e24127bd2",
    "v1.1.1/LICENCE.md": "9320b9ca4521e5dc05b67a930970503b2be2d4e535d62d07ba5ae6659d82555f",
    "v1.1.1/wrprc-header-area-example.json": "3815abb1b29071b61bd4fe8376cfafcb4100159370dab13a99d4bf04f3c93540",
    "v1.1.1/wrprc-header-area-json-schema.json": "5ba13fe184148cce7516afd06bce7aaeee3fe10169ed9eb969ae90968ddc1879",
    "v1.1.1/wrprc-payload-example.json": "181f71cc8842eb9711e71cecbf0317b381f7d2f6af19d7e7608d81684b4448b7",
    "v1.1.1/wrprc-payload-json-schema.json": "304d6d69bf96876fa1ff2b7cb88dea6cff5294a9ef6da7c91e0587de78e25d3e",
}
ANNEX_C = "v1.2.1/annex-c-payload.eudi-transcription.json"
# Claims this generator uses that the Annex C example does not carry, with their JSON type.
EXTRA_CLAIMS = {"exp": "number", "nbf": "number", "intended_use_id": "string"}
# Annex C claims the base payload deliberately leaves out: no status list is served for these certificates, and the
# tests' relying party is neither an attestation provider nor acting through an intermediary.
OMITTED_CLAIMS = {"status", "provides_attestations", "intermediary"}

# Stable refusal reason keys (manifest `expect`), with what each means.
REASONS = {
    "typInvalid": "the JOSE header typ is not rc-wrp+jwt",
    "algorithmUnsupported": "the JOSE header alg is not an accepted ECDSA algorithm (e.g. none)",
    "signatureInvalid": "the JWS signature does not verify with the public key of x5c[0]",
    "untrustedSigner": "x5c[0] is not an end-entity signing certificate directly issued by the registrar anchor",
    "expired": "exp is at or before the verification time",
    "notYetValid": "iat or nbf is after the verification time",
    "notServiceProvider": f"entitlements lists neither {SERVICE_PROVIDER} nor {SERVICE_PROVIDER_OID}",
    "credentialsMissing": "credentials is absent or empty",
    "malformed": "not a compact JWS whose header and payload are base64url-encoded JSON objects",
}


# --------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------

def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64u_strict(text: str) -> bytes:
    """base64url without padding; anything else (padding, other characters, a lone trailing char) raises."""
    if any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for c in text) \
            or len(text) % 4 == 1:
        raise ValueError("not unpadded base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def cjson(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def epoch(text: str) -> int:
    return int(g.d(text).timestamp())


def rfc3339(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, tz=dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def lei(prefix18: str) -> str:
    """An ISO 17442 LEI: 18 characters and two ISO 7064 MOD 97-10 check digits."""
    digits = "".join(str(int(c, 36)) for c in prefix18 + "00")
    return prefix18 + f"{98 - int(digits) % 97:02d}"


def lei_valid(code: str) -> bool:
    return len(code) == 20 and int("".join(str(int(c, 36)) for c in code)) % 97 == 1


def der(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.DER)


def is_uri_or_oid(value: Any, uri: str, oid: str) -> bool:
    return value in (uri, oid)


# --------------------------------------------------------------------------------------------------
# PKI
# --------------------------------------------------------------------------------------------------

@dataclass
class Party:
    name: str
    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey
    description: str
    issuer: str | None = None


def _subject(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "DE"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "verifierd TEST-ONLY"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _serial(name: str) -> int:
    return int.from_bytes(g.seed_bytes("registration/serial/" + name, 16), "big") >> 1 | 1


def make_ca(name: str, cn: str, description: str) -> Party:
    key = g.derive_key(f"registration/{name}")
    subject = _subject(cn)
    cert = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(_serial(name))
        .not_valid_before(g.d("2024-01-01T00:00:00Z")).not_valid_after(g.d("2074-01-01T00:00:00Z"))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    return Party(name, cert, key, description)


def make_signer(name: str, cn: str, issuer: Party, description: str) -> Party:
    key = g.derive_key(f"registration/{name}")
    issuer_ski = issuer.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    cert = (
        x509.CertificateBuilder().subject_name(_subject(cn)).issuer_name(issuer.cert.subject)
        .public_key(key.public_key()).serial_number(_serial(name))
        .not_valid_before(g.d("2024-01-01T00:00:00Z")).not_valid_after(g.d("2074-01-01T00:00:00Z"))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                     crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(issuer_ski), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(issuer.key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    return Party(name, cert, key, description, issuer.name)


def build_pki() -> dict[str, Party]:
    ca = make_ca("registrar-ca", "verifierd TEST-ONLY Registrar CA",
                 "Trust anchor of the WRPRC provider (registrar). The tests configure this file as the registrar "
                 "anchor.")
    leaf = make_signer("registrar", "verifierd TEST-ONLY Registrar WRPRC Signer", ca,
                       "The WRPRC provider's signing certificate (x5c of every case signed by the registrar).")
    other_ca = make_ca("other-ca", "verifierd TEST-ONLY Other Registrar CA",
                       "An unrelated CA that nothing trusts.")
    other = make_signer("other-registrar", "verifierd TEST-ONLY Other Registrar WRPRC Signer", other_ca,
                        "A WRPRC signing certificate under other-ca (x5c of untrusted-signer).")
    return {p.name: p for p in (ca, leaf, other_ca, other)}


# --------------------------------------------------------------------------------------------------
# Payloads
# --------------------------------------------------------------------------------------------------

SUB = "LEIXG-" + lei("984500VERIFIERDTST")

MDL_CLAIMS = ["family_name", "given_name", "age_over_18", "age_over_21", "age_in_years", "issuing_country"]
PID_CLAIMS = [["given_name"], ["family_name"], ["address"]]


def mdl_credential(elements: list[str]) -> dict:
    return {"format": "mso_mdoc", "meta": {"doctype_value": MDL_DOCTYPE},
            "claim": [{"path": [MDL_NS, e]} for e in elements]}


def pid_credential() -> dict:
    return {"format": "dc+sd-jwt", "meta": {"vct_values": [PID_VCT]}, "claim": [{"path": p} for p in PID_CLAIMS]}


def payload(iat: str = "2025-01-01T00:00:00Z", nbf: str | None = None, exp: str | None = "2035-01-01T00:00:00Z",
            entitlements: list[str] | None = None, credentials: list[dict] | None | bool = True) -> dict:
    """The registration of integrator "tests", in ETSI TS 119 475 v1.2.1 member order."""
    p: dict[str, Any] = {
        "name": "verifierd tests",
        "sub": SUB,
        "sub_ln": "verifierd TEST-ONLY Relying Party",
        "country": "DE",
        "registry_uri": "https://registrar.verifierd.example/api/v1",
        "srv_description": [{"lang": "en", "value": "verifierd test integrator \"tests\" (TEST-ONLY)"},
                            {"lang": "de", "value": "verifierd Test-Integrator \"tests\" (NUR TEST)"}],
        "entitlements": entitlements if entitlements is not None else [SERVICE_PROVIDER],
        "privacy_policy": "https://tests.verifierd.example/privacy",
        "info_uri": "https://tests.verifierd.example/",
        "support_uri": "https://tests.verifierd.example/support",
        "supervisory_authority": {"email": "supervisory@dpa.verifierd.example", "phone": "+49 30 0000000",
                                  "uri": "https://dpa.verifierd.example/report"},
        "policy_id": [WRP_POLICY_OID],
        "certificate_policy": "https://registrar.verifierd.example/certificate-policy",
        "iat": epoch(iat),
    }
    if nbf is not None:
        p["nbf"] = epoch(nbf)
    if exp is not None:
        p["exp"] = epoch(exp)
    p["purpose"] = [{"lang": "en", "value": "Age and identity checks in verifierd's automated tests"},
                    {"lang": "de", "value": "Alters- und Identitätsprüfung in den automatischen Tests von verifierd"}]
    p["intended_use_id"] = "verifierd-tests-1"
    if credentials is True:
        p["credentials"] = [mdl_credential(MDL_CLAIMS), pid_credential()]
    elif credentials:
        p["credentials"] = credentials
    return p


# --------------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    description: str
    expect: str  # "valid" or a REASONS key
    defect: str  # the one thing that differs from `valid` (free text, for the manifest)
    body: dict | bytes = field(default_factory=payload)  # a dict is JSON-encoded; bytes are the payload as is
    header: dict = field(default_factory=dict)  # members replacing (None: removing) the default header's
    signer: str = "registrar"  # whose key signs
    x5c: str = "registrar"  # whose certificate is x5c[0]
    tamper: bool = False  # flip one signature byte
    # What must differ from `valid`, checked by diff_from_valid():
    header_diff: set = field(default_factory=set)
    payload_diff: set = field(default_factory=set)
    payload_not_json: bool = False
    signature_only: bool = False


def cases() -> list[Case]:
    return [
        Case("valid", "The registration of integrator \"tests\": an mDL (family_name, given_name, age_over_18, "
             "age_over_21, age_in_years, issuing_country) and the EUDI PID as dc+sd-jwt (given_name, family_name, "
             "address: the whole object, so address.locality and every other address member are covered). iat "
             "2025-01-01, exp 2035-01-01.", "valid", "none (the baseline)"),
        Case("expired", "As valid, but exp 2026-01-01: expired at the verification time.", "expired",
             "payload exp = 2026-01-01", body=payload(exp="2026-01-01T00:00:00Z"), payload_diff={"exp"}),
        Case("expiring-soon", "As valid, but exp 2030-01-20: valid at the verification time, expiring in 19 days "
             "(the service warns at start-up when fewer than 30 days remain).", "valid",
             "payload exp = 2030-01-20", body=payload(exp="2030-01-20T00:00:00Z"), payload_diff={"exp"}),
        Case("not-yet-valid", "As valid, but iat and nbf 2031-01-01: not valid before then.", "notYetValid",
             "payload iat = nbf = 2031-01-01 (the validity window starts after the verification time)",
             body=payload(iat="2031-01-01T00:00:00Z", nbf="2031-01-01T00:00:00Z"), payload_diff={"iat", "nbf"}),
        Case("wrong-typ", "As valid, but the header typ is \"jwt\".", "typInvalid", "header typ = jwt",
             header={"typ": "jwt"}, header_diff={"typ"}),
        Case("alg-none", "As valid, but the header alg is \"none\" and the signature is empty (an unsecured JWS).",
             "algorithmUnsupported", "header alg = none, empty signature", header={"alg": "none"},
             header_diff={"alg"}),
        Case("bad-signature", "valid with one signature byte flipped (byte 10, xor 0x01).", "signatureInvalid",
             "one signature bit flipped", tamper=True, signature_only=True),
        Case("untrusted-signer", "As valid, but signed by other-registrar with its certificate in x5c; it chains to "
             "other-ca, which is not the registrar anchor.", "untrustedSigner",
             "signer and x5c = other-registrar", signer="other-registrar", x5c="other-registrar",
             header_diff={"x5c"}),
        Case("self-signed-x5c", "As valid, but signed by the registrar CA's own key with the (self-signed) "
             "registrar-ca certificate as x5c[0]: a CA certificate, and the anchor itself, is no WRPRC signer.",
             "untrustedSigner", "signer and x5c = registrar-ca (self-signed)", signer="registrar-ca",
             x5c="registrar-ca", header_diff={"x5c"}),
        Case("not-service-provider", "As valid, but entitlements is [PID_Provider] only.", "notServiceProvider",
             "payload entitlements = [PID_Provider]", body=payload(entitlements=[PID_PROVIDER]),
             payload_diff={"entitlements"}),
        Case("no-credentials", "As valid, but without credentials.", "credentialsMissing",
             "payload credentials absent", body=payload(credentials=None), payload_diff={"credentials"}),
        Case("mdoc-only", "As valid, but registers only the mDL with family_name and age_over_18 (no dc+sd-jwt "
             "credential).", "valid", "payload credentials = the mDL with family_name, age_over_18",
             body=payload(credentials=[mdl_credential(["family_name", "age_over_18"])]),
             payload_diff={"credentials"}),
        Case("malformed-payload", "Correctly signed by the registrar, but the payload is the first 64 bytes of "
             "valid's payload: truncated, not JSON.", "malformed", "payload bytes not JSON",
             body=cjson(payload())[:64], payload_not_json=True),
    ]


def default_header(x5c_cert: x509.Certificate) -> dict:
    return {"alg": ALG, "typ": TYP, "x5c": [base64.b64encode(der(x5c_cert)).decode("ascii")]}


def build(case: Case, pki: dict[str, Party]) -> str:
    header = default_header(pki[case.x5c].cert)
    for k, v in case.header.items():
        if v is None:
            header.pop(k, None)
        else:
            header[k] = v
    body = case.body if isinstance(case.body, bytes) else cjson(case.body)
    signing_input = f"{b64u(cjson(header))}.{b64u(body)}"
    if header.get("alg") == "none":
        return signing_input + "."
    sig = bytearray(g.ecdsa_sign_raw(pki[case.signer].key, signing_input.encode("ascii"), hashes.SHA256()))
    if case.tamper:
        sig[10] ^= 0x01
    return f"{signing_input}.{b64u(bytes(sig))}"


# --------------------------------------------------------------------------------------------------
# The judge: a small, independent WRPRC check (cryptography only)
# --------------------------------------------------------------------------------------------------

@dataclass
class Verdict:
    failed: list[str]  # REASONS keys, in check order
    warnings: list[str]
    header: dict | None = None
    payload: dict | None = None


def leaf_is_trusted(leaf: x509.Certificate, anchor: x509.Certificate) -> bool:
    """x5c[0] must be an end-entity certificate with digitalSignature, issued (and signed) by the anchor, valid now."""
    if der(leaf) == der(anchor) or leaf.issuer != anchor.subject:
        return False
    try:
        bc = leaf.extensions.get_extension_for_class(x509.BasicConstraints).value
        if bc.ca:
            return False
    except x509.ExtensionNotFound:
        pass
    try:
        if not leaf.extensions.get_extension_for_class(x509.KeyUsage).value.digital_signature:
            return False
    except x509.ExtensionNotFound:
        return False
    try:
        aki = leaf.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
        ski = anchor.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
        if aki != ski:
            return False
    except x509.ExtensionNotFound:
        pass
    try:
        leaf.verify_directly_issued_by(anchor)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return leaf.not_valid_before_utc <= NOW <= leaf.not_valid_after_utc


def judge(token: str, anchor: x509.Certificate) -> Verdict:
    failed: list[str] = []
    parts = token.split(".")
    if len(parts) != 3:
        return Verdict(["malformed"], [])
    try:
        header = json.loads(b64u_strict(parts[0]))
        signature = b64u_strict(parts[2])
        raw_payload = b64u_strict(parts[1])
    except (ValueError, binascii.Error):
        return Verdict(["malformed"], [])
    if not isinstance(header, dict):
        return Verdict(["malformed"], [])
    body: dict | None
    try:
        body = json.loads(raw_payload.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        body = None
        failed.append("malformed")
    if header.get("typ") != TYP:
        failed.append("typInvalid")
    alg_ok = header.get("alg") in JUDGE_ALGORITHMS
    if not alg_ok:
        failed.append("algorithmUnsupported")
    leaf = None
    x5c = header.get("x5c")
    if isinstance(x5c, list) and x5c and isinstance(x5c[0], str):
        try:
            leaf = x509.load_der_x509_certificate(base64.b64decode(x5c[0], validate=True))
        except (ValueError, binascii.Error):
            leaf = None
    if leaf is None:
        failed.append("malformed")
    else:
        if not leaf_is_trusted(leaf, anchor):
            failed.append("untrustedSigner")
        if alg_ok:
            hash_alg = {"ES256": hashes.SHA256(), "ES384": hashes.SHA384(), "ES512": hashes.SHA512()}[header["alg"]]
            pub = leaf.public_key()
            if not (isinstance(pub, ec.EllipticCurvePublicKey) and g.ecdsa_verify_raw(
                    pub, signature, f"{parts[0]}.{parts[1]}".encode("ascii"), hash_alg)):
                failed.append("signatureInvalid")
    warnings: list[str] = []
    if body is not None:
        now = int(NOW.timestamp())
        if any(isinstance(body.get(k), (int, float)) and body[k] > now for k in ("iat", "nbf")):
            failed.append("notYetValid")
        exp = body.get("exp")
        if isinstance(exp, (int, float)):
            if exp <= now:
                failed.append("expired")
            elif exp - now < EXPIRING_SOON.total_seconds():
                warnings.append("expiresSoon")
        entitlements = body.get("entitlements")
        if not (isinstance(entitlements, list)
                and any(is_uri_or_oid(e, SERVICE_PROVIDER, SERVICE_PROVIDER_OID) for e in entitlements)):
            failed.append("notServiceProvider")
        credentials = body.get("credentials")
        if not (isinstance(credentials, list) and credentials):
            failed.append("credentialsMissing")
    return Verdict(failed, warnings, header, body)


# --------------------------------------------------------------------------------------------------
# Structural comparison with the ETSI TS 119 475 v1.2.1 Annex C example
# --------------------------------------------------------------------------------------------------

def json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "array" if isinstance(value, list) else "object"


def conform(ours: Any, example: Any, where: str, problems: list[str]) -> None:
    """`ours` has the shape of `example`: the same JSON type; objects with the same member set, member by member;
    arrays non-empty with every element shaped like the example's elements (which must agree among themselves).
    credentials[] elements are matched to the example element of the same `format`."""
    if json_type(ours) != json_type(example):
        problems.append(f"{where}: {json_type(ours)}, Annex C has {json_type(example)}")
        return
    if isinstance(example, dict):
        if set(ours) != set(example):
            problems.append(f"{where}: members {sorted(ours)}, Annex C has {sorted(example)}")
            return
        for k in example:
            conform(ours[k], example[k], f"{where}.{k}", problems)
    elif isinstance(example, list):
        if not ours:
            problems.append(f"{where}: empty array")
        if not example:
            problems.append(f"{where}: Annex C's array is empty, nothing to compare with")
            return
        if where.endswith(".credentials"):
            by_format = {e["format"]: e for e in example}
            for i, item in enumerate(ours):
                fmt = item.get("format") if isinstance(item, dict) else None
                if fmt not in by_format:
                    problems.append(f"{where}[{i}]: format {fmt!r} not in Annex C ({sorted(by_format)})")
                else:
                    conform(item, by_format[fmt], f"{where}[{i}]", problems)
            return
        reference = example[0]
        for e in example[1:]:
            sub: list[str] = []
            conform(e, reference, f"{where}(Annex C)", sub)
            if sub:
                problems.append(f"{where}: Annex C's own elements differ in shape: {sub[0]}")
                return
        for i, item in enumerate(ours):
            conform(item, reference, f"{where}[{i}]", problems)


def compare_with_annex_c(body: dict, annex_c: dict, case: str) -> list[str]:
    problems: list[str] = []
    for claim, value in body.items():
        if claim in annex_c:
            conform(value, annex_c[claim], f"{case}: $.{claim}", problems)
        elif claim in EXTRA_CLAIMS:
            if json_type(value) != EXTRA_CLAIMS[claim]:
                problems.append(f"{case}: {claim} is {json_type(value)}, expected {EXTRA_CLAIMS[claim]}")
        else:
            problems.append(f"{case}: claim {claim!r} is neither in Annex C nor an allowed extra claim")
    return problems


# --------------------------------------------------------------------------------------------------
# Self-checks
# --------------------------------------------------------------------------------------------------

def read_etsi() -> dict[str, bytes]:
    files = {}
    for rel, digest in ETSI_FILES.items():
        path = ETSI / rel
        if not path.is_file():
            raise SystemExit(f"missing {path.relative_to(g.REPO)} (third-party copy, see etsi/SOURCES.md)")
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != digest:
            raise SystemExit(f"{path.relative_to(g.REPO)} differs from its pinned SHA-256")
        files[rel] = data
    if not (ETSI / "SOURCES.md").is_file():
        raise SystemExit("missing TestVectors/registration/etsi/SOURCES.md")
    return files


def decode(token: str) -> tuple[dict, bytes, bytes]:
    h, p, s = token.split(".")
    return json.loads(b64u_strict(h)), b64u_strict(p), b64u_strict(s)


def diff_from_valid(case: Case, token: str, valid_token: str) -> list[str]:
    """The case differs from `valid` in exactly the declared place (and nowhere else)."""
    problems = []
    h, p, s = decode(token)
    vh, vp, vs = decode(valid_token)
    header_diff = {k for k in set(h) | set(vh) if h.get(k) != vh.get(k)}
    if header_diff != case.header_diff:
        problems.append(f"header differs from valid in {sorted(header_diff)}, declared {sorted(case.header_diff)}")
    if case.payload_not_json:
        if p == vp:
            problems.append("payload equals valid's")
    else:
        pj, vpj = json.loads(p), json.loads(vp)
        payload_diff = {k for k in set(pj) | set(vpj) if pj.get(k) != vpj.get(k)}
        if payload_diff != case.payload_diff:
            problems.append(f"payload differs from valid in {sorted(payload_diff)}, "
                            f"declared {sorted(case.payload_diff)}")
    if case.signature_only:
        flipped = [i for i in range(min(len(s), len(vs))) if s[i] != vs[i]]
        if len(s) != len(vs) or len(flipped) != 1 or bin(s[flipped[0]] ^ vs[flipped[0]]).count("1") != 1:
            problems.append("signature does not differ from valid's in exactly one bit")
    if case.name == "alg-none" and s != b"":
        problems.append("alg-none has a signature")
    return problems


def joserfc_checks(case: Case, token: str, pki: dict[str, Party]) -> list[str]:
    """joserfc (independent of the code above) accepts the genuinely signed cases with their x5c key and refuses
    bad-signature and alg-none."""
    from joserfc import jws
    from joserfc.errors import JoseError
    from joserfc.jwk import ECKey

    key = ECKey.import_key(pki[case.x5c].cert.public_key())
    registry = jws.JWSRegistry(algorithms=[ALG])
    registry.max_header_length = 4096  # joserfc's default (512 bytes) is too small for a header with x5c
    try:
        obj = jws.deserialize_compact(token, key, algorithms=[ALG], registry=registry)
        ok = True
    except JoseError:
        ok = False
    should = case.name not in ("bad-signature", "alg-none")
    if ok != should:
        return [f"joserfc {'accepted' if ok else 'refused'} it"]
    if ok:
        body = case.body if isinstance(case.body, bytes) else cjson(case.body)
        if obj.payload != body or obj.headers().get("typ") != json.loads(b64u_strict(token.split(".")[0]))["typ"]:
            return ["joserfc decoded a different header or payload"]
    return []


def self_check(pki: dict[str, Party], built: dict[str, str], all_cases: list[Case],
               etsi: dict[str, bytes]) -> tuple[list[str], dict[str, Verdict]]:
    problems: list[str] = []
    anchor = pki["registrar-ca"].cert
    annex_c = json.loads(etsi[ANNEX_C])

    # PKI profile.
    ca, leaf = pki["registrar-ca"].cert, pki["registrar"].cert
    ca_bc = ca.extensions.get_extension_for_class(x509.BasicConstraints)
    ca_ku = ca.extensions.get_extension_for_class(x509.KeyUsage)
    if not (ca_bc.critical and ca_bc.value.ca and ca_bc.value.path_length == 0 and ca_ku.critical
            and ca_ku.value.key_cert_sign and ca_ku.value.crl_sign and not ca_ku.value.digital_signature):
        problems.append("registrar-ca: not CA pathlen 0 with keyCertSign + cRLSign")
    if ca.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value != "verifierd TEST-ONLY Registrar CA":
        problems.append("registrar-ca: wrong CN")
    for name, issuer in (("registrar", "registrar-ca"), ("other-registrar", "other-ca")):
        cert, parent = pki[name].cert, pki[issuer].cert
        cert.verify_directly_issued_by(parent)  # raises on failure
        if not leaf_is_trusted(cert, parent):
            problems.append(f"{name}: not a proper end-entity signer under {issuer}")
    for name in ("registrar-ca", "other-ca"):
        pki[name].cert.verify_directly_issued_by(pki[name].cert)
    if leaf_is_trusted(pki["other-registrar"].cert, anchor):
        problems.append("other-registrar is trusted under registrar-ca")
    if not lei_valid(SUB.removeprefix("LEIXG-")):
        problems.append("sub: not a valid LEI")

    verdicts: dict[str, Verdict] = {}
    by_name = {c.name: c for c in all_cases}
    if len(by_name) != len(all_cases):
        problems.append("duplicate case names")
    for case in all_cases:
        token = built[case.name]
        v = judge(token, anchor)
        verdicts[case.name] = v
        want = [] if case.expect == "valid" else [case.expect]
        if case.expect != "valid" and case.expect not in REASONS:
            problems.append(f"{case.name}: unknown reason {case.expect}")
        if v.failed != want:
            problems.append(f"{case.name}: judge says {v.failed or 'valid'}, expected {case.expect} "
                            "(a refusal case must fail exactly one check)")
        if case.name != "valid":
            problems += [f"{case.name}: {p}" for p in diff_from_valid(case, token, built["valid"])]
        problems += [f"{case.name}: {p}" for p in joserfc_checks(case, token, pki)]
        if v.payload is not None:
            problems += compare_with_annex_c(v.payload, annex_c, case.name)
        if case.expect == "valid":
            # Independently of the judge: the x5c leaf is registrar.pem, it chains to registrar-ca, and joserfc
            # verifies the token with its key (joserfc_checks above).
            header = v.header or {}
            if header.get("x5c") != [base64.b64encode(der(leaf)).decode("ascii")]:
                problems.append(f"{case.name}: x5c is not exactly [registrar.pem]")
            leaf.verify_directly_issued_by(anchor)
    omitted = set(annex_c) - set(payload())
    if omitted != OMITTED_CLAIMS:
        problems.append(f"the base payload leaves out {sorted(omitted)} of Annex C, expected {sorted(OMITTED_CLAIMS)}")
    if verdicts["expiring-soon"].warnings != ["expiresSoon"] or verdicts["valid"].warnings:
        problems.append("expiresSoon warning not exactly on expiring-soon")

    # The payloads are v1.2.1 form: the v1.1.1 schema (sub an object, privacy_policy an array, ...) rejects them,
    # while it accepts its own v1.1.1 example.
    import jsonschema
    schema = json.loads(etsi["v1.1.1/wrprc-payload-json-schema.json"])
    validator = jsonschema.Draft202012Validator(schema)
    if not validator.is_valid(json.loads(etsi["v1.1.1/wrprc-payload-example.json"])):
        problems.append("the v1.1.1 schema rejects its own example")
    if validator.is_valid(payload()):
        problems.append("the valid payload validates against the v1.1.1 schema (expected v1.2.1 form)")
    return problems, verdicts


# --------------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------------

README = """# ETSI TS 119 475 registration certificates (WRPRC) — TEST-ONLY

**Every key and certificate in this folder is TEST-ONLY.** The private keys are derived from public seed labels
(`registration/<name>`, see `TestVectors/generator/generate.py` `derive_key`), so anyone can recompute them. Never
configure any of this as trusted material outside the tests.

Wallet-relying party registration certificates (WRPRC, ETSI TS 119 475, JWT form) for verifierd's tests, and the
verdict a verifier must reach for each at the verification time **{time}**.

## Regenerate

From the repository root:

```sh
.venv/bin/python3 TestVectors/generator/registration_certificates.py
```

The script deletes and rewrites everything in this folder except `etsi/` (third-party reference copies, which it only
reads and checks against pinned SHA-256 digests). Output is byte-identical on every run: keys come from seed labels,
ECDSA (certificates and JWS) is deterministic per RFC 6979, all times are fixed and JSON is compact in a fixed member
order. Before writing, it aborts unless:

* every payload has, claim by claim, the names and JSON types of the ETSI TS 119 475 v1.2.1 Annex C example
  (`etsi/v1.2.1/`): the same member sets of objects, the same element shapes of arrays, `credentials[].meta` per
  format and `credentials[].claim[]` = `{{"path": [...]}}`. The only claims used that Annex C lacks are `exp`,
  `nbf` (numbers) and `intended_use_id` (string); Annex C's `status`, `provides_attestations` and `intermediary`
  are not used;
* a small judge in the script gives each case exactly the expected verdict (a refusal case fails exactly one check)
  and each case differs from `valid` in exactly the declared place;
* every case expected valid verifies with joserfc against `pki/registrar.pem`'s key, and that certificate chains to
  `pki/registrar-ca.pem` (`verify_directly_issued_by`); joserfc refuses `bad-signature` and `alg-none`.

## Files

| File | What |
| --- | --- |
| `pki/registrar-ca.pem` | Self-signed P-256 CA `CN=verifierd TEST-ONLY Registrar CA`: basicConstraints CA pathLen 0 (critical), keyUsage keyCertSign + cRLSign (critical), SKI. **The registrar trust anchor.** |
| `pki/registrar.pem` | The WRPRC provider's signing certificate under registrar-ca: keyUsage digitalSignature (critical), basicConstraints not a CA (critical), AKI = registrar-ca's SKI, SKI. |
| `pki/other-ca.pem` | An unrelated self-signed CA (same profile), trusted by nothing. |
| `pki/other-registrar.pem` | A signing certificate under other-ca (same profile as registrar.pem). |
| `pki/keys/<name>.pem` | The private key of each certificate, PKCS#8 PEM. |
| `certificates/<case>.jwt` | One WRPRC per case: a compact JWS, ASCII, no trailing newline. |
| `manifest.json` | Every case with its expected verdict (below). |
| `etsi/` | ETSI TS 119 475 reference material (v1.2.1 Annex C example as transcribed by the EUDI project; v1.1.1 schemas and examples by Joel Posti). Sources, commits and licences: `etsi/SOURCES.md`. Not produced by this script. |

All certificates are valid 2024-01-01T00:00:00Z .. 2074-01-01T00:00:00Z.

## The certificates

Header (all cases except where stated): `{{"alg":"ES256","typ":"rc-wrp+jwt","x5c":[<registrar.pem, base64 DER>]}}`;
x5c holds the signing certificate only, never the root. The payload (v1.2.1 form, as current implementations read
it) is the registration of integrator `{integrator}`:

```json
{payload}
```

`sub` is `LEIXG-` + a well-formed (check-digit valid) but unassigned LEI. `iat` = 2025-01-01T00:00:00Z, `exp` =
2035-01-01T00:00:00Z. The dc+sd-jwt path `["address"]` selects the whole address object, so a request for
`["address","locality"]` is within the registration.

Note on `srv_description`: the EUDI transcription of Annex C (used here) and EUDI's implementations use a flat array of
`{{lang, value}}`; other transcriptions of the same Annex C nest it one level deeper (an array of such arrays). A
reader should accept both; these certificates use the flat form.

| Case | Expect | The one difference from `valid` | What |
| --- | --- | --- | --- |
{cases_table}

## manifest.json

```
{{"generator", "description", "verificationTime": "{time}", "integrator": "{integrator}",
 "trustAnchor": "pki/registrar-ca.pem", "typ": "rc-wrp+jwt", "expiringSoonWindowSeconds": 2592000,
 "reasons": {{<key>: <meaning>}},
 "cases": [{{"name", "file", "description", "expect": "valid" | <reason key>, "defect",
            "x5c": "pki/<certificate>.pem", "issuedAt"?, "notBefore"?, "expiresAt"? (RFC 3339, when the payload
            has them), "warnings": ["expiresSoon"] | []}}]}}
```

`expect` is `valid` or one of the stable refusal reason keys:

{reasons_list}

A refusal case is built to fail exactly one of these checks. `warnings` is `["expiresSoon"]` for a certificate valid
at the verification time whose `exp` is less than 30 days away (the service warns at start-up).
"""


def write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def clear_output() -> None:
    """Delete everything in TestVectors/registration/ except etsi/."""
    if not OUT.exists():
        return
    for child in sorted(OUT.iterdir()):
        if child.name == "etsi":
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def main() -> int:
    etsi = read_etsi()
    pki = build_pki()
    all_cases = cases()
    built = {c.name: build(c, pki) for c in all_cases}
    problems, verdicts = self_check(pki, built, all_cases, etsi)
    if problems:
        print("self-check FAILED:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1

    clear_output()
    for p in pki.values():
        write_bytes(OUT / "pki" / f"{p.name}.pem", p.cert.public_bytes(serialization.Encoding.PEM))
        write_bytes(OUT / "pki" / "keys" / f"{p.name}.pem",
                    p.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
    manifest_cases, rows = [], []
    for c in all_cases:
        token = built[c.name]
        write_bytes(OUT / "certificates" / f"{c.name}.jwt", token.encode("ascii"))
        v = verdicts[c.name]
        entry: dict[str, Any] = {"name": c.name, "file": f"certificates/{c.name}.jwt", "description": c.description,
                                 "expect": c.expect, "defect": c.defect, "x5c": f"pki/{c.x5c}.pem"}
        body = v.payload or {}
        for claim, key in (("iat", "issuedAt"), ("nbf", "notBefore"), ("exp", "expiresAt")):
            if claim in body:
                entry[key] = rfc3339(body[claim])
        entry["warnings"] = v.warnings
        manifest_cases.append(entry)
        rows.append(f"| `{c.name}` | `{c.expect}` | {c.defect} | {c.description} |")
    manifest = {
        "generator": GENERATOR,
        "description": "ETSI TS 119 475 wallet-relying party registration certificates (JWT form, typ rc-wrp+jwt) "
                       "and the verdict expected for each at verificationTime with trustAnchor as the only "
                       "registrar anchor. TEST-ONLY.",
        "verificationTime": VERIFICATION_TIME,
        "integrator": INTEGRATOR,
        "trustAnchor": "pki/registrar-ca.pem",
        "typ": TYP,
        "expiringSoonWindowSeconds": int(EXPIRING_SOON.total_seconds()),
        "reasons": REASONS,
        "cases": manifest_cases,
    }
    write_bytes(OUT / "manifest.json", (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    readme = README.format(
        time=VERIFICATION_TIME, integrator=INTEGRATOR,
        payload=json.dumps(payload(), indent=2, ensure_ascii=False),
        cases_table="\n".join(rows),
        reasons_list="\n".join(f"* `{k}`: {v}" for k, v in REASONS.items()))
    write_bytes(OUT / "README.md", readme.encode("utf-8"))
    valid = sum(1 for c in all_cases if c.expect == "valid")
    print(f"generated: TestVectors/registration ({len(all_cases)} cases: {valid} valid, {len(all_cases) - valid} "
          f"refused; every payload matches the Annex C claim shapes; valid ones verified with joserfc)")
    return 0


if __name__ == "__main__":
    # Takes no arguments: -h/--help prints the text above; anything else is refused before anything is written.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
