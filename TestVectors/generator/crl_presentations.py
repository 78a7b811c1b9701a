#!/usr/bin/env python3
"""Presentations signed by the CRL test PKI (TestVectors/crl/pki/), for end-to-end revocation tests of verifierd's
/v1/mdoc/verify and /v1/sd-jwt-vc/verify, and registration certificates for the CRL check of registrar chains. EVERYTHING WRITTEN HERE IS TEST-ONLY.

Writes TestVectors/crl/presentations/ (deleted and rewritten; nothing else in TestVectors/crl/ is touched except the
"## presentations/" section at the end of TestVectors/crl/README.md, which is replaced or appended):

  mdoc/<name>.deviceresponse.hex   an ISO 18013-5 DeviceResponse (hex, one line): one mDL (org.iso.18013.5.1.mDL,
                                   family_name, given_name, birth_date, issuing_country, age_over_18) issued under
                                   one document signer (x5chain = that DS certificate alone), MSO valid
                                   2029-12-01..2031-01-01, device-signed (ES256) over the one SessionTranscript below
  mdoc/sessiontranscript.hex       the SessionTranscript all of them are device-signed over
  sdjwt/<name>.txt                 an SD-JWT VC (typ dc+sd-jwt, ES256, x5c = [leaf] or [leaf, intermediate], vct
                                   urn:eudi:pid:1, iss https://issuer.example, five selectively disclosable claims,
                                   cnf.jwk = the holder key of sd_jwt_vc.py) with a KB-JWT for the nonce and audience
                                   of TestVectors/sdjwt; exact bytes, no trailing newline
  registration/<name>.jwt          a registration certificate (ETSI TS 119 475 WRPRC, rc-wrp+jwt, ES256, x5c =
                                   [registrar signer]) of integrator "tests", the payload of
                                   TestVectors/registration's valid case; exact bytes, no trailing newline
  manifest.json                    per presentation: files, signer, chain, the anchor to trust, nonce/audience or
                                   transcript, the verification time, the CRLs to serve when every CRL is published
                                   and the revocation conclusion then expected (from TestVectors/crl/manifest.json)

The certificates and private keys are read from TestVectors/crl/pki/ (made by crl_vectors.py) and held to the SHA-256
that TestVectors/crl/manifest.json records. Documents are made with generate.py's issue_document/device_response
(unchanged) and SD-JWT VCs with sd_jwt_vc.py's build_case (unchanged). Signatures are RFC 6979 (deterministic), so
the output is byte-identical on every run as long as the CRL PKI is unchanged.

Before anything is written, every presentation is checked here, independently of the code that built it:
  * mdoc: the COSE_Sign1 issuerAuth signature with the DS public key read from its PEM file, x5chain = that DS, every
    disclosed item's digest, the MSO validity containing 2030-01-01T00:00:00Z (and signed within the DS validity),
    the device signature with the MSO's device key over DeviceAuthentication, and the DS chain to the anchor with
    cryptography's path validator (x509.verification); then generate.py's MiniVerifier (profile checks enforced);
  * SD-JWT VC: the issuer JWT signature with the leaf key read from its PEM file, x5c = the expected certificates,
    the x5c chain to the anchor with cryptography's path validator, every disclosure digest, iat <= t <= exp, the
    KB-JWT (signature by cnf.jwk, nonce, aud, sd_hash, iat); then sd_jwt_vc.py's MiniVerifier and PyPI's sd-jwt;
  * registration certificate: the raw ES256 signature with the signer's PEM key, registration_certificates.py's judge
    (no failure, no warning), the signer's chain to registrar-ca with cryptography's path validator;
  * revocation: for the "all CRLs published" situation the CRLs to serve are derived from each chain certificate's
    CRL distribution point and must equal the CRL case's `serve`; a small judge (cryptography's CRL API) reads them
    and must reach the case's conclusion (good, revoked with its reason, or undetermined with its code).

CRL distribution points are http://127.0.0.1:18620/crl/<issuer>.crl: a test serves each `serve` entry's file
(bytes as stored, Content-Type application/pkix-crl) at its path and answers 404 for any other path.

Note: TestVectors/generator/crl_vectors.py deletes everything in TestVectors/crl/ (presentations/ too), rewrites
README.md and then runs this script (its last step).

Usage (from the repository root):  .venv/bin/python3 TestVectors/generator/crl_presentations.py
It takes no arguments: -h/--help prints this text; anything else is refused before anything is read or written.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.verification import ExtensionPolicy, PolicyBuilder, Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402  (main-guarded: importing it writes nothing)
import registration_certificates as rc  # noqa: E402  (main-guarded: importing it writes nothing)
import sd_jwt_vc as sj  # noqa: E402  (main-guarded: importing it writes nothing)

HERE = Path(__file__).resolve().parent
TV = HERE.parent
CRL = TV / "crl"
OUT = CRL / "presentations"
README_HEADING = "## presentations/"

VERIFICATION_TIME = "2030-01-01T00:00:00Z"
T = g.d(VERIFICATION_TIME)
MSO_SIGNED = "2029-12-01T00:00:00Z"
MSO_VALID_FROM = "2029-12-01T00:00:00Z"
MSO_VALID_UNTIL = "2031-01-01T00:00:00Z"
TRANSCRIPT = g.default_transcript("crl/presentations")  # [null, null, ["verifierd-test-handover", 16 seeded bytes]]
OID_MDL_DS = x509.ObjectIdentifier("1.0.18013.5.1.2")

MDOC_ELEMENTS: list[tuple[str, Any]] = [
    ("family_name", "Mustermann"),
    ("given_name", "Erika"),
    ("birth_date", CBORTag(1004, "1971-09-01")),
    ("issuing_country", "US"),  # = the DS countryName (ISO 18013-5 Annex B; our profile check compares them)
    ("age_over_18", True),
]

# (presentation name, document signer, anchor, case of TestVectors/crl/manifest.json with every CRL published)
MDOC = [
    ("mdoc-ds-good", "ds-good", "iaca", "mdoc-ds-good"),
    ("mdoc-ds-revoked", "ds-revoked", "iaca", "mdoc-ds-revoked"),
    ("mdoc-ds-revoked-hold", "ds-revoked-hold", "iaca", "mdoc-ds-revoked-hold"),
    ("mdoc-ds-revoked-later", "ds-revoked-later", "iaca", "mdoc-ds-revoked-later"),
    ("mdoc-ds-under-iaca-no-crlsign", "ds-under-iaca-no-crlsign", "iaca-no-crlsign", "mdoc-crl-issuer-lacks-crlsign"),
]
# (presentation name, x5c (leaf first, no anchor), anchor, CRL case)
SDJWT = [
    ("sdjwt-issuer-good", ("sdjwt-issuer-good",), "sdjwt-ca", "sdjwt-issuer-good"),
    ("sdjwt-issuer-revoked", ("sdjwt-issuer-revoked",), "sdjwt-ca", "sdjwt-issuer-revoked"),
    ("sdjwt-issuer-under-revoked-intermediate",
     ("sdjwt-issuer-under-revoked-intermediate", "sdjwt-intermediate-revoked"), "sdjwt-root",
     "sdjwt-chain-revoked-intermediate"),
    ("sdjwt-issuer-under-good-intermediate",
     ("sdjwt-issuer-under-good-intermediate", "sdjwt-intermediate-good"), "sdjwt-root", "sdjwt-chain-good-intermediate"),
]

# (certificate name, WRPRC signer = x5c[0], anchor, CRL case): registration certificates (ETSI TS 119 475) of integrator
# "tests", the payload of TestVectors/registration's `valid` case, signed by a registrar signer of the CRL PKI.
REGISTRATION = [
    ("registration-good", "registrar-good", "registrar-ca", "registrar-good"),
    ("registration-revoked", "registrar-revoked", "registrar-ca", "registrar-revoked"),
]

CRL_REASONS = {
    x509.ReasonFlags.unspecified: "unspecified", x509.ReasonFlags.key_compromise: "keyCompromise",
    x509.ReasonFlags.ca_compromise: "cACompromise", x509.ReasonFlags.affiliation_changed: "affiliationChanged",
    x509.ReasonFlags.superseded: "superseded", x509.ReasonFlags.cessation_of_operation: "cessationOfOperation",
    x509.ReasonFlags.certificate_hold: "certificateHold", x509.ReasonFlags.privilege_withdrawn: "privilegeWithdrawn",
    x509.ReasonFlags.aa_compromise: "aACompromise", x509.ReasonFlags.remove_from_crl: "removeFromCRL",
}


class Invalid(Exception):
    """A generated presentation (or the material it rests on) failed an independent check."""


def need(condition: bool, message: str) -> None:
    if not condition:
        raise Invalid(message)


# --------------------------------------------------------------------------------------------------
# The CRL PKI, as committed
# --------------------------------------------------------------------------------------------------

class Material:
    """Certificates and keys of TestVectors/crl/pki/, held to TestVectors/crl/manifest.json."""

    def __init__(self) -> None:
        self.manifest = json.loads((CRL / "manifest.json").read_bytes())
        need(self.manifest["verificationTime"] == VERIFICATION_TIME, "the CRL manifest's verification time changed")
        self.entries: dict[str, dict] = {}
        for chain in self.manifest["chains"]:
            for entry in chain["certificates"]:
                self.entries[entry["name"]] = entry
        self.cases = {c["name"]: c for c in self.manifest["cases"]}
        self.certs: dict[str, x509.Certificate] = {}
        self.keys: dict[str, ec.EllipticCurvePrivateKey] = {}

    def cert(self, name: str) -> x509.Certificate:
        if name not in self.certs:
            entry = self.entries[name]
            cert = x509.load_pem_x509_certificate((CRL / entry["certificate"]).read_bytes())
            need(hashlib.sha256(g.cert_der(cert)).hexdigest() == entry["sha256"],
                 f"{entry['certificate']} is not the certificate TestVectors/crl/manifest.json records")
            self.certs[name] = cert
        return self.certs[name]

    def key(self, name: str) -> ec.EllipticCurvePrivateKey:
        if name not in self.keys:
            entry = self.entries[name]
            key = serialization.load_pem_private_key((CRL / entry["privateKey"]).read_bytes(), None)
            need(isinstance(key, ec.EllipticCurvePrivateKey) and key.public_key() == self.cert(name).public_key(),
                 f"{entry['privateKey']} is not the key of {entry['certificate']}")
            self.keys[name] = key
        return self.keys[name]

    def issuer_name(self, name: str) -> str | None:
        issuer = self.entries[name]["issuer"]
        return None if issuer is None else issuer.removeprefix("pki/").removesuffix(".pem")

    @staticmethod
    def path(name: str) -> str:
        return f"pki/{name}.pem"


def path_validate(m: Material, leaf: x509.Certificate, intermediates: list[x509.Certificate],
                  anchor: str) -> list[x509.Certificate]:
    """RFC 5280 path validation by cryptography (x509.verification) at T: CA certificates under the CA/B defaults,
    the leaf's extensions not judged (neither is a TLS certificate); the chain must end at `anchor`."""
    verifier = (PolicyBuilder().store(Store([m.cert(anchor)])).time(T)
                .extension_policies(ca_policy=ExtensionPolicy.webpki_defaults_ca(),
                                    ee_policy=ExtensionPolicy.permit_all())
                .build_client_verifier())
    try:
        chain = verifier.verify(leaf, intermediates).chain
    except Exception as e:  # noqa: BLE001 - VerificationError and friends
        raise Invalid(f"{leaf.subject.rfc4514_string()} does not chain to {anchor}: {e}") from None
    need(chain[-1] == m.cert(anchor), f"the path ends at {chain[-1].subject.rfc4514_string()}, not {anchor}")
    return chain


def raw_ecdsa_ok(pub: ec.EllipticCurvePublicKey, sig: bytes, data: bytes) -> bool:
    if len(sig) != 64:
        return False
    der = encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
    try:
        pub.verify(der, data, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


# --------------------------------------------------------------------------------------------------
# Revocation: what is served when every CRL is published, and what must be concluded
# --------------------------------------------------------------------------------------------------

def served_crls(m: Material, chain: list[str]) -> dict[str, str]:
    """Every certificate below the anchor: its CRL distribution point's path -> its issuer's base CRL."""
    serve = {}
    for name in chain[:-1]:
        points = m.cert(name).extensions.get_extension_for_class(x509.CRLDistributionPoints).value
        uris = [n.value for p in points for n in (p.full_name or []) if isinstance(n, x509.UniformResourceIdentifier)]
        need(len(uris) == 1 and uris[0].startswith(m.manifest["distributionPointBase"]),
             f"{name}: unexpected CRL distribution points {uris}")
        serve[urlparse(uris[0]).path] = f"crls/{m.issuer_name(name)}.crl"
    return serve


def judge_revocation(m: Material, chain: list[str], serve: dict[str, str]) -> dict:
    """A small CRL judge for the base CRLs served: issuer name and cRLSign, signature, thisUpdate <= t <= nextUpdate,
    then the listing; any revoked certificate gives revoked, else any undetermined gives its code, else good."""
    revoked, undetermined = None, None
    for name in chain[:-1]:
        cert, issuer = m.cert(name), m.cert(m.issuer_name(name))
        points = cert.extensions.get_extension_for_class(x509.CRLDistributionPoints).value
        path = urlparse(points[0].full_name[0].value).path
        crl = x509.load_der_x509_crl((CRL / serve[path]).read_bytes())
        try:
            crl_sign = issuer.extensions.get_extension_for_class(x509.KeyUsage).value.crl_sign
        except x509.ExtensionNotFound:
            crl_sign = True
        code = None
        if crl.issuer != issuer.subject:
            code = "CRL_ISSUER_MISMATCH"
        elif not crl_sign:
            code = "CRL_ISSUER_NOT_AUTHORIZED"
        elif not crl.is_signature_valid(issuer.public_key()):
            code = "CRL_SIGNATURE_INVALID"
        elif crl.next_update_utc is None:
            code = "CRL_MALFORMED"
        elif crl.last_update_utc > T:
            code = "CRL_NOT_YET_VALID"
        elif T > crl.next_update_utc:
            code = "CRL_EXPIRED"
        if code is not None:
            undetermined = undetermined or {"code": code, "decidingCertificate": m.path(name)}
            continue
        entry = crl.get_revoked_certificate_by_serial_number(cert.serial_number)
        if entry is not None and revoked is None:
            try:
                reason = CRL_REASONS[entry.extensions.get_extension_for_class(x509.CRLReason).value.reason]
            except x509.ExtensionNotFound:
                reason = "unspecified"
            revoked = {"reason": reason, "decidingCertificate": m.path(name),
                       "revocationDate": entry.revocation_date_utc.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if revoked:
        return {"revocation": "revoked", "reason": revoked["reason"], "code": None,
                "decidingCertificate": revoked["decidingCertificate"], "revocationDate": revoked["revocationDate"]}
    if undetermined:
        return {"revocation": "undetermined", "reason": None, "code": undetermined["code"],
                "decidingCertificate": undetermined["decidingCertificate"], "revocationDate": None}
    return {"revocation": "good", "reason": None, "code": None, "decidingCertificate": None, "revocationDate": None}


def all_crls_published(m: Material, case_name: str, signer: str, chain: list[str]) -> dict:
    """The CRL case's serve map and conclusion, after checking both against the certificates and the CRLs."""
    case = m.cases[case_name]
    need(case["certificate"] == m.path(signer), f"{case_name} is about {case['certificate']}, not {signer}")
    need(case["chain"] == [m.path(n) for n in chain], f"{case_name}: chain {case['chain']} differs from {chain}")
    serve = served_crls(m, chain)
    need(case["serve"] == serve, f"{case_name} serves {case['serve']}, the distribution points name {serve}")
    expect = {"revocation": case["expect"], "reason": case["reason"], "code": case["code"],
              "decidingCertificate": case["decidingCertificate"], "revocationDate": case.get("revocationDate")}
    judged = judge_revocation(m, chain, serve)
    need(judged == expect, f"{case_name}: the CRLs give {judged}, the CRL manifest expects {expect}")
    return {"crlCase": case_name, "serve": serve, "expect": expect}


# --------------------------------------------------------------------------------------------------
# Registration certificates
# --------------------------------------------------------------------------------------------------

def make_registration(m: Material, signer: str, anchor: str) -> str:
    """The `valid` WRPRC of TestVectors/registration (same payload, same header shape), signed by `signer`; checked
    with registration_certificates.py's judge and, independently, the raw ES256 signature and the chain to `anchor`."""
    header = rc.default_header(m.cert(signer))
    signing_input = f"{rc.b64u(rc.cjson(header))}.{rc.b64u(rc.cjson(rc.payload()))}"
    signature = g.ecdsa_sign_raw(m.key(signer), signing_input.encode("ascii"), hashes.SHA256())
    token = f"{signing_input}.{rc.b64u(signature)}"
    need(raw_ecdsa_ok(m.cert(signer).public_key(), signature, signing_input.encode("ascii")),
         f"the registration certificate signed by {signer} does not verify with its certificate's key")
    verdict = rc.judge(token, m.cert(anchor))
    need(verdict.failed == [] and verdict.warnings == [],
         f"registration_certificates.py's judge refuses the certificate signed by {signer}: {verdict.failed}")
    path_validate(m, m.cert(signer), [], anchor)
    return token


# --------------------------------------------------------------------------------------------------
# mdoc
# --------------------------------------------------------------------------------------------------

def make_mdoc(m: Material, name: str, ds: str, anchor: str) -> tuple[bytes, dict]:
    # generate.issue_document needs only `.entries[<name>]` with `.cert` and `.key`.
    issuer = g.PKI()
    issuer.entries[ds] = g.PKIEntry(ds, m.cert(ds), m.key(ds), "ds", "CRL test document signer")
    spec = g.DocSpec(f"crl-presentations/{name}", ds=ds, elements=list(MDOC_ELEMENTS), signed=MSO_SIGNED,
                     valid_from=MSO_VALID_FROM, valid_until=MSO_VALID_UNTIL, transcript=TRANSCRIPT,
                     device_auth="signature")
    document, transcript = g.issue_document(spec, issuer)
    need(transcript == TRANSCRIPT, "issue_document used another transcript")
    data = g.device_response([document])
    claims = check_mdoc(m, name, data, ds, anchor)
    return data, claims


def check_mdoc(m: Material, name: str, data: bytes, ds: str, anchor: str) -> dict:
    """Independent checks of one DeviceResponse; returns the disclosed claims (JSON-friendly)."""
    ds_cert = m.cert(ds)
    ds_pub = ds_cert.public_key()
    response = g.strict_loads(data)
    need(response.get("version") == "1.0" and response.get("status") == 0 and len(response["documents"]) == 1,
         f"{name}: not one document in a version 1.0 DeviceResponse")
    doc = response["documents"][0]
    need(doc["docType"] == g.MDL_DOCTYPE, f"{name}: docType {doc['docType']}")

    # issuerAuth: COSE_Sign1 [protected, unprotected, payload, signature], x5chain = the DS alone, ES256
    protected_b, unprotected, payload, signature = doc["issuerSigned"]["issuerAuth"]
    protected = cbor2.loads(protected_b)
    need(protected == {1: -7}, f"{name}: protected header {protected}")
    need(unprotected.get(33) == g.cert_der(ds_cert), f"{name}: x5chain is not the DS certificate {ds}")
    need(raw_ecdsa_ok(ds_pub, signature, cbor2.dumps(["Signature1", protected_b, b"", payload])),
         f"{name}: the issuerAuth signature does not verify with {ds}'s public key")
    mso_tag = g.strict_loads(payload)
    need(isinstance(mso_tag, CBORTag) and mso_tag.tag == 24, f"{name}: the MSO is not tag 24")
    mso = g.strict_loads(mso_tag.value)
    need(mso["docType"] == doc["docType"] and mso["digestAlgorithm"] == "SHA-256", f"{name}: MSO docType/digest")

    # every disclosed item is digested in the MSO
    claims: dict[str, dict] = {}
    for ns, items in doc["issuerSigned"]["nameSpaces"].items():
        for tagged in items:
            item = cbor2.loads(tagged.value)
            digest = hashlib.sha256(cbor2.dumps(tagged)).digest()
            need(mso["valueDigests"][ns].get(item["digestID"]) == digest,
                 f"{name}: digest of {ns}/{item['elementIdentifier']} does not match")
            claims.setdefault(ns, {})[item["elementIdentifier"]] = item["elementValue"]
    need(list(claims) == [g.MDL_NS] and set(claims[g.MDL_NS]) == {e for e, _ in MDOC_ELEMENTS},
         f"{name}: disclosed {claims}")

    # validity: contains the verification time, signed within the DS certificate's validity
    vi = mso["validityInfo"]
    signed, valid_from, valid_until = vi["signed"], vi["validFrom"], vi["validUntil"]
    need(all(isinstance(v, dt.datetime) for v in (signed, valid_from, valid_until)), f"{name}: validity not tag 0")
    need(signed <= valid_from <= T <= valid_until, f"{name}: MSO validity {vi} does not contain {VERIFICATION_TIME}")
    need(ds_cert.not_valid_before_utc <= signed <= ds_cert.not_valid_after_utc, f"{name}: signed outside DS validity")
    need(ds_cert.not_valid_before_utc <= T <= ds_cert.not_valid_after_utc, f"{name}: DS not valid at {T}")

    # device signature: the MSO's device key over DeviceAuthentication for TRANSCRIPT
    key = mso["deviceKeyInfo"]["deviceKey"]
    need(key.get(1) == 2 and key.get(-1) == 1, f"{name}: device key is not EC2 P-256")
    device_pub = ec.EllipticCurvePublicNumbers(int.from_bytes(key[-2], "big"), int.from_bytes(key[-3], "big"),
                                               ec.SECP256R1()).public_key()
    signed_ns = doc["deviceSigned"]["nameSpaces"]
    auth_bytes = cbor2.dumps(CBORTag(24, cbor2.dumps(["DeviceAuthentication", cbor2.loads(TRANSCRIPT), doc["docType"],
                                                      signed_ns])))
    d_protected, d_unprotected, d_payload, d_signature = doc["deviceSigned"]["deviceAuth"]["deviceSignature"]
    need(cbor2.loads(d_protected) == {1: -7} and d_payload is None, f"{name}: device signature header/payload")
    need(raw_ecdsa_ok(device_pub, d_signature, cbor2.dumps(["Signature1", d_protected, b"", auth_bytes])),
         f"{name}: the device signature does not verify")

    # the DS certificate: Annex B usage, and a path to the anchor
    ku = ds_cert.extensions.get_extension_for_class(x509.KeyUsage).value
    eku = ds_cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    need(ku.digital_signature and OID_MDL_DS in eku, f"{name}: {ds} lacks digitalSignature or the mdlDS EKU")
    chain = path_validate(m, ds_cert, [], anchor)
    need(len(chain) == 2, f"{name}: path of {len(chain)} certificates")

    # second opinion: generate.py's MiniVerifier with the Annex B profile enforced
    result = g.MiniVerifier([m.cert(anchor)], T, "enforce", None).verify_response(data, TRANSCRIPT)
    need(result["verified"] and not result["failedCodes"], f"{name}: MiniVerifier refused it: {result['failedCodes']}")
    need(result["checks"]["issuer.certificateProfile"] == {"outcome": "passed"}, f"{name}: profile {result['checks']}")
    return g.json_claims(claims)


# --------------------------------------------------------------------------------------------------
# SD-JWT VC
# --------------------------------------------------------------------------------------------------

def sd_model(name: str):
    """sd_jwt_vc.py's model, cut to five disclosable claims; disclosure ids (hence salts) are per presentation."""
    def fn(model: dict) -> None:
        model.clear()
        model.update({
            "given_name": sj.SD("Erika", id=f"crl/{name}/given_name"),
            "family_name": sj.SD("Mustermann", id=f"crl/{name}/family_name"),
            "birthdate": sj.SD("1964-08-12", id=f"crl/{name}/birthdate"),
            "age_equal_or_over": sj.SD({"18": sj.SD(True, id=f"crl/{name}/age_equal_or_over/18")},
                                       id=f"crl/{name}/age_equal_or_over"),
            "issuing_country": sj.SD("DE", id=f"crl/{name}/issuing_country"),
            sj.DECOYS_KEY: 2,
        })
    return fn


def make_sdjwt(m: Material, name: str, x5c: tuple[str, ...], anchor: str) -> tuple[str, dict]:
    pki = {n: (m.cert(n), m.key(n)) for n in x5c}
    case = sj.Case(name, f"CRL test presentation {name}", signer=x5c[0], x5c=x5c, model_fn=sd_model(name))
    text, claims, _disclosed = sj.build_case(case, pki)
    check_sdjwt(m, name, text, x5c, anchor, claims)
    return text, claims


def b64u_decode(text: str) -> bytes:
    need(all(c in sj.B64U_CHARS for c in text), "not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_sdjwt(m: Material, name: str, text: str, x5c: tuple[str, ...], anchor: str, claims: dict) -> None:
    """Independent checks of one SD-JWT+KB presentation."""
    need(text.isascii() and text.count("~") >= 2, f"{name}: not an SD-JWT+KB")
    parts = text.split("~")
    jwt, disclosures, kb = parts[0], parts[1:-1], parts[-1]
    h64, p64, s64 = jwt.split(".")
    header, payload = json.loads(b64u_decode(h64)), json.loads(b64u_decode(p64))
    need(header.get("typ") == "dc+sd-jwt" and header.get("alg") == "ES256", f"{name}: header {header}")
    need(set(header) == {"alg", "typ", "x5c"}, f"{name}: header members {sorted(header)}")
    ders = [base64.b64decode(e, validate=True) for e in header["x5c"]]
    need(ders == [g.cert_der(m.cert(n)) for n in x5c], f"{name}: x5c is not {list(x5c)}")
    leaf = m.cert(x5c[0])
    need(raw_ecdsa_ok(leaf.public_key(), b64u_decode(s64), f"{h64}.{p64}".encode("ascii")),
         f"{name}: the issuer JWT signature does not verify with {x5c[0]}'s public key")
    chain = path_validate(m, leaf, [m.cert(n) for n in x5c[1:]], anchor)
    need(len(chain) == len(x5c) + 1, f"{name}: path of {len(chain)} certificates")
    ku = leaf.extensions.get_extension_for_class(x509.KeyUsage).value
    bc = leaf.extensions.get_extension_for_class(x509.BasicConstraints).value
    need(ku.digital_signature and not bc.ca, f"{name}: the leaf may not sign JWTs (keyUsage/basicConstraints)")
    need(payload["iss"] == sj.ISS and payload["vct"] == sj.VCT and payload["_sd_alg"] == "sha-256",
         f"{name}: iss/vct/_sd_alg")
    need(payload["iat"] <= sj.NOW <= payload["exp"], f"{name}: iat/exp do not contain {VERIFICATION_TIME}")

    # every disclosure's digest is named exactly once, in the payload or in another disclosure
    digests: list[str] = []

    def collect(node: Any) -> None:
        if isinstance(node, dict):
            digests.extend(node.get("_sd", []))
            for k, v in node.items():
                if k != "_sd":
                    collect(v)
        elif isinstance(node, list):
            for v in node:
                if isinstance(v, dict) and set(v) == {"..."}:
                    digests.append(v["..."])
                else:
                    collect(v)
    collect(payload)
    for disclosure in disclosures:
        collect(json.loads(b64u_decode(disclosure))[-1])
    need(len(digests) == len(set(digests)), f"{name}: a digest appears twice")
    for disclosure in disclosures:
        need(sj.sha256_b64u(disclosure) in digests, f"{name}: disclosure {disclosure[:16]}... is not digested")
    need(len(disclosures) == 6, f"{name}: {len(disclosures)} disclosures")

    # KB-JWT: signed by cnf.jwk; nonce, aud, sd_hash over everything up to the last "~"; iat within the window
    kh64, kp64, ks64 = kb.split(".")
    kb_header, kb_claims = json.loads(b64u_decode(kh64)), json.loads(b64u_decode(kp64))
    need(kb_header == {"alg": "ES256", "typ": "kb+jwt"}, f"{name}: KB-JWT header {kb_header}")
    jwk = payload["cnf"]["jwk"]
    holder = ec.EllipticCurvePublicNumbers(int.from_bytes(b64u_decode(jwk["x"]), "big"),
                                           int.from_bytes(b64u_decode(jwk["y"]), "big"), ec.SECP256R1()).public_key()
    need(raw_ecdsa_ok(holder, b64u_decode(ks64), f"{kh64}.{kp64}".encode("ascii")), f"{name}: KB-JWT signature")
    need(kb_claims["nonce"] == sj.NONCE and kb_claims["aud"] == sj.AUDIENCE, f"{name}: KB-JWT nonce/aud")
    prefix = text[:text.rindex("~") + 1]
    need(kb_claims["sd_hash"] == sj.sha256_b64u(prefix), f"{name}: sd_hash")
    need(abs(kb_claims["iat"] - sj.NOW) <= sj.KB_WINDOW, f"{name}: KB-JWT iat")

    # second opinions: sd_jwt_vc.py's MiniVerifier (chain to the anchor) and PyPI's sd-jwt (claims)
    got = sj.MiniVerifier([m.cert(anchor)], {}).verify(text, now=sj.NOW, nonce=sj.NONCE, audience=sj.AUDIENCE,
                                                       require_kb=True, query=None)
    need(got["verified"] and not got["warnings"], f"{name}: sd_jwt_vc MiniVerifier: {got}")
    need(got["claims"] == claims, f"{name}: MiniVerifier claims {got['claims']} differ from {claims}")
    oracle = sj.pypi_claims(text, leaf.public_key(), sj.AUDIENCE, sj.NONCE)
    need(oracle == claims, f"{name}: PyPI sd-jwt claims {oracle} differ from {claims}")


# --------------------------------------------------------------------------------------------------
# README section
# --------------------------------------------------------------------------------------------------

README_SECTION = """## presentations/

Made by `TestVectors/generator/crl_presentations.py` (run it from the repository root with
`.venv/bin/python3 TestVectors/generator/crl_presentations.py`; it deletes and rewrites `presentations/` and this
section). Presentations signed by the certificates above, for end-to-end CRL tests of `/v1/mdoc/verify` and
`/v1/sd-jwt-vc/verify` at **{time}**. TEST-ONLY.

* `presentations/mdoc/<name>.deviceresponse.hex`: a DeviceResponse (one mDL: family_name, given_name, birth_date,
  issuing_country US, age_over_18), x5chain = the DS certificate alone, MSO signed/validFrom {signed},
  validUntil {until}, device-signed over `presentations/mdoc/sessiontranscript.hex`. Signers:
  {mdoc_signers}.
* `presentations/sdjwt/<name>.txt`: an SD-JWT VC + KB-JWT (exact bytes, no trailing newline); `x5c` = [leaf] under
  `sdjwt-ca`, [leaf, intermediate] under `sdjwt-root`; credential `iat` 2029-12-01, `exp` 2031-01-01; KB-JWT for
  the nonce `{nonce}` and audience `{audience}` (those of `TestVectors/sdjwt`, holder key
  `TestVectors/sdjwt/pki/keys/holder.pem`). Signers:
  {sdjwt_signers}.
* `presentations/registration/<name>.jwt`: a registration certificate (ETSI TS 119 475 WRPRC, `rc-wrp+jwt`) of
  integrator `tests` with the payload of `TestVectors/registration/certificates/valid.jwt`, `x5c` = [signer] under
  `registrar-ca` (manifest key `registrationCertificates`). Signers: {registration_signers}.
* `presentations/manifest.json`: per presentation its files, signer, chain, the anchor to trust, the request values,
  and for "every CRL published" the `serve` map (the CRL case named by `crlCase`) with the revocation conclusion
  expected. Paths are relative to `TestVectors/crl/`.

Before writing, the script verifies each output itself (issuerAuth and device signatures, digests, MSO validity; issuer
JWT, disclosures and KB-JWT; every chain to its anchor with `cryptography`'s path validator; generate.py's and
sd_jwt_vc.py's mini verifiers and PyPI `sd-jwt`) and judges the served CRLs to the expected conclusion.
Signatures are RFC 6979, so output is byte-identical from run to run; were any signature randomised, a re-run would
simply overwrite the files with equally valid ones. `crl_vectors.py` deletes `presentations/` and rewrites this
README: run `crl_presentations.py` after it.
"""


def write_readme_section(mdoc_signers: list[str], sdjwt_signers: list[str], registration_signers: list[str]) -> None:
    readme = (CRL / "README.md").read_text(encoding="utf-8")
    at = readme.find("\n" + README_HEADING + "\n")
    if at >= 0:
        readme = readme[:at + 1]
    readme = readme.rstrip("\n") + "\n\n" + README_SECTION.format(
        time=VERIFICATION_TIME, signed=MSO_SIGNED, until=MSO_VALID_UNTIL, nonce=sj.NONCE, audience=sj.AUDIENCE,
        mdoc_signers=", ".join(f"`{n}`" for n in mdoc_signers), sdjwt_signers=", ".join(f"`{n}`" for n in sdjwt_signers),
        registration_signers=", ".join(f"`{n}`" for n in registration_signers))
    (CRL / "README.md").write_text(readme, encoding="utf-8")


# --------------------------------------------------------------------------------------------------

def main() -> int:
    assert sj.VERIFICATION_TIME == VERIFICATION_TIME == g.DEFAULT_VERIFICATION_TIME
    m = Material()
    made_mdoc, made_sdjwt, made_registration, entries, registrations = {}, {}, {}, [], []
    try:
        for name, ds, anchor, crl_case in MDOC:
            data, claims = make_mdoc(m, name, ds, anchor)
            made_mdoc[name] = data
            chain = [ds, anchor]
            need(m.issuer_name(ds) == anchor, f"{ds} is not issued by {anchor}")
            entries.append({
                "name": name, "format": "mso_mdoc", "endpoint": "/v1/mdoc/verify",
                "files": {"deviceResponse": f"presentations/mdoc/{name}.deviceresponse.hex",
                          "sessionTranscript": "presentations/mdoc/sessiontranscript.hex"},
                "docType": g.MDL_DOCTYPE,
                "signer": ds, "signerCertificate": m.path(ds), "x5chain": [m.path(ds)],
                "chain": [m.path(n) for n in chain], "anchor": m.path(anchor),
                "verificationTime": VERIFICATION_TIME,
                "msoValidity": {"signed": MSO_SIGNED, "validFrom": MSO_VALID_FROM, "validUntil": MSO_VALID_UNTIL},
                "claims": claims,
                "verifiedWithoutRevocation": True,
                "allCrlsPublished": all_crls_published(m, crl_case, ds, chain),
            })
        for name, x5c, anchor, crl_case in SDJWT:
            text, claims = make_sdjwt(m, name, x5c, anchor)
            made_sdjwt[name] = text
            chain = list(x5c) + [anchor]
            for child, parent in zip(chain, chain[1:]):
                need(m.issuer_name(child) == parent, f"{child} is not issued by {parent}")
            entries.append({
                "name": name, "format": "dc+sd-jwt", "endpoint": "/v1/sd-jwt-vc/verify",
                "files": {"presentation": f"presentations/sdjwt/{name}.txt"},
                "vct": sj.VCT, "iss": sj.ISS,
                "signer": x5c[0], "signerCertificate": m.path(x5c[0]), "x5c": [m.path(n) for n in x5c],
                "chain": [m.path(n) for n in chain], "anchor": m.path(anchor),
                "nonce": sj.NONCE, "audience": sj.AUDIENCE, "verificationTime": VERIFICATION_TIME,
                "claims": claims,
                "verifiedWithoutRevocation": True,
                "allCrlsPublished": all_crls_published(m, crl_case, x5c[0], chain),
            })
        for name, signer, anchor, crl_case in REGISTRATION:
            made_registration[name] = make_registration(m, signer, anchor)
            chain = [signer, anchor]
            need(m.issuer_name(signer) == anchor, f"{signer} is not issued by {anchor}")
            registrations.append({
                "name": name, "integrator": rc.INTEGRATOR, "files": {"certificate": f"presentations/registration/{name}.jwt"},
                "signer": signer, "signerCertificate": m.path(signer), "x5c": [m.path(signer)],
                "chain": [m.path(n) for n in chain], "anchor": m.path(anchor), "verificationTime": VERIFICATION_TIME,
                "registers": "TestVectors/registration/certificates/valid.jwt's payload",
                "verifiedWithoutRevocation": True,
                "allCrlsPublished": all_crls_published(m, crl_case, signer, chain),
            })
    except Invalid as e:
        print(f"check FAILED, nothing written: {e}", file=sys.stderr)
        return 1

    manifest = {
        "generator": "TestVectors/generator/crl_presentations.py",
        "description": "mdoc and SD-JWT VC presentations signed by the CRL test PKI, each with the anchor to trust, "
                       "the CRLs to serve when every CRL is published and the revocation conclusion then expected. "
                       "Every other check passes for each of them. TEST-ONLY.",
        "paths": "relative to TestVectors/crl/",
        "verificationTime": VERIFICATION_TIME,
        "distributionPointBase": m.manifest["distributionPointBase"],
        "crlContentType": "application/pkix-crl",
        "mdoc": {"docType": g.MDL_DOCTYPE, "sessionTranscript": "presentations/mdoc/sessiontranscript.hex",
                 "msoValidity": {"signed": MSO_SIGNED, "validFrom": MSO_VALID_FROM, "validUntil": MSO_VALID_UNTIL}},
        "sdJwtVc": {"nonce": sj.NONCE, "audience": sj.AUDIENCE, "iss": sj.ISS, "vct": sj.VCT,
                    "iat": sj.CRED_IAT, "exp": sj.CRED_EXP, "kbIat": sj.KB_IAT,
                    "kbIatWindowSeconds": sj.KB_WINDOW, "clockSkewSeconds": sj.CLOCK_SKEW,
                    "holderJwk": sj.jwk(sj.derive_key("sdjwt/holder").public_key()),
                    "holderKey": "TestVectors/sdjwt/pki/keys/holder.pem (repository-relative)"},
        "presentations": entries,
        "registrationCertificates": registrations,
    }

    if OUT.exists():
        shutil.rmtree(OUT)
    g.write_hex(OUT / "mdoc" / "sessiontranscript.hex", TRANSCRIPT)
    for name, data in made_mdoc.items():
        g.write_hex(OUT / "mdoc" / f"{name}.deviceresponse.hex", data)
    for name, text in made_sdjwt.items():
        sj.write_bytes(OUT / "sdjwt" / f"{name}.txt", text.encode("ascii"))
    for name, token in made_registration.items():
        sj.write_bytes(OUT / "registration" / f"{name}.jwt", token.encode("ascii"))
    sj.write_bytes(OUT / "manifest.json", (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    write_readme_section([ds for _, ds, _, _ in MDOC], [x5c[0] for _, x5c, _, _ in SDJWT],
                         [signer for _, signer, _, _ in REGISTRATION])
    counts: dict[str, int] = {}
    for e in entries + registrations:
        r = e["allCrlsPublished"]["expect"]["revocation"]
        counts[r] = counts.get(r, 0) + 1
    print(f"generated: TestVectors/crl/presentations ({len(made_mdoc)} mdoc, {len(made_sdjwt)} SD-JWT VC, "
          f"{len(made_registration)} registration certificates; with every "
          f"CRL published: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) + ")")
    return 0


if __name__ == "__main__":
    # Takes no arguments: -h/--help prints the text above; anything else is refused before anything is written.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
