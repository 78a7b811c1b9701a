"""Revocation test vectors for verifierd: IETF OAuth Token Status Lists (CWT form) and ISO identifier lists, the
mdocs that point at them, and Apple envelopes carrying such mdocs.

Writes TestVectors/status/ (deterministic: keys from seed labels, RFC 6979 ECDSA, zlib level 9):
  pki/     the list signer certificates (issued by TestVectors/pki/iaca-p256.pem) and their keys
  lists/   one token per file, `<name>.cwt.hex`, served by the tests at http://127.0.0.1:18613/lists/<name>
  cases/   DeviceResponse + SessionTranscript per case, issued by ds-p256 with an MSO `status` entry
  apple/   Apple in-app request bodies for some cases (encrypted to TestVectors/apple/keys/merchant-1.pem)
  manifest.json, README.md

Each token is checked here with `cryptography` and `zlib`, and every case's expected `mso.status` outcome is
recomputed by a small independent evaluator; the script aborts on any mismatch.

Usage (from the repository root, after generate.py):  python3 TestVectors/generator/status_lists.py
       python3 TestVectors/generator/status_lists.py --fresh NAME FILE   (list NAME dated now, into FILE only)
EVERYTHING WRITTEN HERE IS TEST-ONLY.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import shutil
import sys
import zlib
from pathlib import Path

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402

OUT = g.TV / "status"
BASE_URI = "http://127.0.0.1:18613"
IAT = g.d("2029-12-31T00:00:00Z")
EXP = g.d("2031-01-01T00:00:00Z")
TTL = 3600
VERIFICATION_TIME = "2030-01-01T00:00:00Z"
CLOCK_SKEW = 300  # verification.clockSkewSeconds: how far in the future a list's iat may lie
STATUSLIST_TYP = "application/statuslist+cwt"
OID_PRE_PUBLICATION_DS = x509.ObjectIdentifier("1.3.130.2.0.0.1.2")
IDLIST_TYP = "application/identifierlist+cwt"


def uri(name: str) -> str:
    return f"{BASE_URI}/lists/{name}"


def status_ca(name: str) -> g.PKIEntry:
    """A self-signed CA that an MSO can name in its status reference (`certificate`) for the list signer."""
    key = g.derive_key(f"status/{name}")
    subject = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                         x509.NameAttribute(NameOID.COMMON_NAME, "verifierd Test Status CA")])
    cert = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(int.from_bytes(g.seed_bytes("status/serial/" + name, 16), "big") >> 1 | 1)
        .not_valid_before(g.d("2024-01-01T00:00:00Z")).not_valid_after(g.d("2074-01-01T00:00:00Z"))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    return g.PKIEntry(name, cert, key, "status-ca", "")


def signer(name: str, iaca: g.PKIEntry, digital_signature: bool = True) -> g.PKIEntry:
    key = g.derive_key(f"status/{name}")
    ski = iaca.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                                 x509.NameAttribute(NameOID.STATE_OR_PROVINCE_NAME, "US-CA"),
                                 x509.NameAttribute(NameOID.COMMON_NAME, "verifierd Test Status List Signer")]))
        .issuer_name(iaca.cert.subject)
        .public_key(key.public_key())
        .serial_number(int.from_bytes(g.seed_bytes("status/serial/" + name, 16), "big") >> 1 | 1)
        .not_valid_before(g.d("2024-01-01T00:00:00Z"))
        .not_valid_after(g.d("2074-01-01T00:00:00Z"))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=digital_signature, content_commitment=False,
                                     key_encipherment=not digital_signature, data_encipherment=False,
                                     key_agreement=False, key_cert_sign=False, crl_sign=False, encipher_only=False,
                                     decipher_only=False), critical=True)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(iaca.key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    return g.PKIEntry(name, cert, key, "status-signer", "", iaca.name)


def pack(statuses: dict[int, int], bits: int, entries: int) -> bytes:
    raw = bytearray(entries * bits // 8)
    for index, value in statuses.items():
        bit = index * bits
        raw[bit // 8] |= value << (bit % 8)
    return bytes(raw)


def token(claims: dict, key, cert_der: bytes, typ: str = STATUSLIST_TYP, x5chain_protected: bool = True,
          flip_signature: bool = False) -> bytes:
    protected_map = {1: -7, 16: typ}
    unprotected = {}
    if x5chain_protected:
        protected_map[33] = cert_der
    else:
        unprotected[33] = cert_der
    protected = g.enc(protected_map)
    payload = g.enc(claims)
    signature = g.ecdsa_sign_raw(key, g.enc(["Signature1", protected, b"", payload]), hashes.SHA256())
    if flip_signature:
        signature = bytes([signature[0] ^ 1]) + signature[1:]
    return g.enc(CBORTag(18, [protected, unprotected, payload, signature]))


def status_claims(name: str, bits: int, statuses: dict[int, int], entries: int = 16, sub: str | None = None,
                  exp=EXP, iat=IAT, ttl=TTL) -> dict:
    """`exp`, `iat` and `ttl` are datetimes/ints written as CBOR integers, or any other value written as it is (a
    float, a tag-1 date, text, a boolean) for the NumericDate cases."""
    claims = {2: sub or uri(name)}
    if iat is not None:
        claims[6] = int(iat.timestamp()) if hasattr(iat, "timestamp") else iat
    claims[4] = int(exp.timestamp()) if hasattr(exp, "timestamp") else exp
    claims[65534] = ttl
    claims[65533] = {"bits": bits, "lst": zlib.compress(pack(statuses, bits, entries), 9)}
    return claims


# ------------------------------------------------------------------------------------------------------------
# Independent evaluator: what a correct verifier must conclude for one reference.
# ------------------------------------------------------------------------------------------------------------

def evaluate(data: bytes | None, kind: str, ref_uri: str, index: int | None, identifier: bytes | None,
             iaca: x509.Certificate, ds: x509.Certificate, now, named: bytes | None = None) -> tuple[str, str | None]:
    unknown = ("failed", "STATUS_UNKNOWN")
    if data is None:
        return unknown
    item = cbor2.loads(data)
    if not isinstance(item, CBORTag) or item.tag != 18:
        return unknown
    protected_b, unprotected, payload, signature = item.value
    protected = cbor2.loads(protected_b)
    expected_typ = STATUSLIST_TYP if kind == "status" else IDLIST_TYP
    if protected.get(16) != expected_typ or 33 not in protected:
        return unknown
    cert = x509.load_der_x509_certificate(protected[33])
    if cert == ds:
        return unknown
    ku = cert.extensions.get_extension_for_class(x509.KeyUsage).value
    if not ku.digital_signature:
        return unknown
    if not g.ecdsa_verify_raw(cert.public_key(), signature, g.enc(["Signature1", protected_b, b"", payload]),
                              hashes.SHA256()):
        return unknown
    try:
        cert.verify_directly_issued_by(x509.load_der_x509_certificate(named) if named else iaca)
    except Exception:  # noqa: BLE001
        return unknown
    claims = cbor2.loads(payload)
    if claims.get(2) != ref_uri or 6 not in claims:
        return unknown

    def numeric_date(value) -> bool:
        # RFC 8392 §2: an integer or a floating-point number, never tag 1, text or a boolean.
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)

    for claim in (6, 4, 65534):
        if claim in claims and not numeric_date(claims[claim]):
            return unknown
    if claims[6] > now.timestamp() + CLOCK_SKEW:
        return unknown
    if 65534 in claims and claims[65534] < 0:
        return unknown
    if 4 in claims and claims[4] <= now.timestamp():
        return unknown
    if kind == "identifier":
        listed = identifier in claims[65530]["identifiers"]
        return ("failed", "STATUS_REVOKED") if listed else ("passed", None)
    lst = claims[65533]
    statuses = zlib.decompress(lst["lst"])
    bits = lst["bits"]
    if index * bits >= len(statuses) * 8:
        return unknown
    value = (statuses[index * bits // 8] >> (index * bits % 8)) & ((1 << bits) - 1)
    return {0: ("passed", None), 1: ("failed", "STATUS_REVOKED"), 2: ("failed", "STATUS_SUSPENDED")}.get(value, unknown)


def combine(results: list[tuple[str, str | None]]) -> tuple[str, str | None]:
    codes = [code for _, code in results if code]
    for code in ("STATUS_REVOKED", "STATUS_SUSPENDED", "STATUS_UNKNOWN"):
        if code in codes:
            return ("failed", code)
    return ("passed", None)


def main() -> int:
    pki = g.build_pki()
    iaca = pki.entries["iaca-p256"]
    ds = pki.entries["ds-p256"]
    good = signer("status-signer", iaca)
    no_ds = signer("status-signer-no-digitalsignature", iaca, digital_signature=False)
    good_der, no_ds_der = g.cert_der(good.cert), g.cert_der(no_ds.cert)
    named_ca = status_ca("status-ca")
    named_signer = signer("status-signer-under-named-ca", named_ca)
    named_der = g.cert_der(named_signer.cert)

    lists: dict[str, bytes] = {
        "bits1": token(status_claims("bits1", 1, {0: 0, 1: 1}), good.key, good_der),
        "bits2": token(status_claims("bits2", 2, {0: 0, 1: 1, 2: 2, 3: 3}), good.key, good_der),
        "bits4": token(status_claims("bits4", 4, {0: 0, 1: 1, 5: 2}), good.key, good_der),
        "bits8": token(status_claims("bits8", 8, {0: 0, 1: 1, 7: 2, 9: 200}), good.key, good_der),
        "bad-signature": token(status_claims("bad-signature", 1, {}), good.key, good_der, flip_signature=True),
        "wrong-sub": token(status_claims("wrong-sub", 1, {}, sub=uri("another-list")), good.key, good_der),
        "expired": token(status_claims("expired", 1, {}, exp=g.d("2029-06-01T00:00:00Z")), good.key, good_der),
        "ds-signed": token(status_claims("ds-signed", 1, {}), ds.key, g.cert_der(ds.cert)),
        "wrong-typ": token(status_claims("wrong-typ", 1, {}), good.key, good_der, typ="application/cwt"),
        "x5chain-unprotected": token(status_claims("x5chain-unprotected", 1, {}), good.key, good_der,
                                     x5chain_protected=False),
        "no-digitalsignature": token(status_claims("no-digitalsignature", 1, {}), no_ds.key, no_ds_der),
        "no-iat": token(status_claims("no-iat", 1, {}, iat=None), good.key, good_der),
        "named-ca": token(status_claims("named-ca", 1, {0: 0, 1: 1}), named_signer.key, named_der),
        # NumericDates (RFC 8392 §2): floats are read like integers; any other type is refused, never taken as absent.
        "exp-float": token(status_claims("exp-float", 1, {0: 0, 1: 1}, exp=EXP.timestamp() + 0.5,
                                         iat=IAT.timestamp() + 0.25), good.key, good_der),
        "exp-float-past": token(status_claims("exp-float-past", 1, {}, exp=g.d("2029-06-01T00:00:00Z").timestamp() + 0.5),
                                good.key, good_der),
        "exp-tag1": token(status_claims("exp-tag1", 1, {}, exp=CBORTag(1, int(g.d("2029-06-01T00:00:00Z").timestamp()))),
                          good.key, good_der),
        "exp-text": token(status_claims("exp-text", 1, {}, exp="2029-06-01T00:00:00Z"), good.key, good_der),
        "exp-bool": token(status_claims("exp-bool", 1, {}, exp=False), good.key, good_der),
        "iat-future": token(status_claims("iat-future", 1, {}, iat=g.d("2030-01-01T00:10:00Z")), good.key, good_der),
        "iat-text": token(status_claims("iat-text", 1, {}, iat="2029-12-31T00:00:00Z"), good.key, good_der),
        "ttl-text": token(status_claims("ttl-text", 1, {}, ttl="3600"), good.key, good_der),
        "ttl-negative": token(status_claims("ttl-negative", 1, {}, ttl=-1), good.key, good_der),
        "idlist": token({2: uri("idlist"), 6: int(IAT.timestamp()), 4: int(EXP.timestamp()), 65534: TTL,
                         65530: {"identifiers": {bytes.fromhex("0102"): {}}}}, good.key, good_der, typ=IDLIST_TYP),
    }

    def sl(name: str, idx: int) -> dict:
        return {"status_list": {"idx": idx, "uri": uri(name)}}

    def il(name: str, ident: str) -> dict:
        return {"identifier_list": {"id": bytes.fromhex(ident), "uri": uri(name)}}

    cases: list[tuple[str, str, dict | None]] = [
        ("status-valid", "bits1 index 0: VALID", sl("bits1", 0)),
        ("status-revoked", "bits1 index 1: INVALID", sl("bits1", 1)),
        ("status-suspended", "bits2 index 2: SUSPENDED", sl("bits2", 2)),
        ("status-value3", "bits2 index 3: value 3 (application-specific, unknown here)", sl("bits2", 3)),
        ("status-bits2-valid", "bits2 index 0: VALID", sl("bits2", 0)),
        ("status-bits4-valid", "bits4 index 0: VALID", sl("bits4", 0)),
        ("status-bits4-suspended", "bits4 index 5: SUSPENDED", sl("bits4", 5)),
        ("status-bits8-revoked", "bits8 index 1: INVALID", sl("bits8", 1)),
        ("status-bits8-value200", "bits8 index 9: value 200 (unknown)", sl("bits8", 9)),
        ("status-out-of-range", "bits1 index 1000, beyond the list's 16 entries", sl("bits1", 1000)),
        ("status-bad-signature", "the list's signature does not verify", sl("bad-signature", 0)),
        ("status-wrong-sub", "the list's sub names another URI", sl("wrong-sub", 0)),
        ("status-expired-list", "the list's exp passed before the verification time", sl("expired", 0)),
        ("status-ds-signed", "the list is signed by the document signer itself", sl("ds-signed", 0)),
        ("status-wrong-typ", "the list's typ is application/cwt", sl("wrong-typ", 0)),
        ("status-x5chain-unprotected", "the signer's x5chain is in the unprotected header", sl("x5chain-unprotected", 0)),
        ("status-no-digitalsignature", "the signer certificate lacks digitalSignature", sl("no-digitalsignature", 0)),
        ("status-no-iat", "the list has no iat", sl("no-iat", 0)),
        ("status-exp-float-valid", "exp and iat are floats (valid NumericDates); index 0 VALID", sl("exp-float", 0)),
        ("status-exp-float-revoked", "exp and iat are floats (valid NumericDates); index 1 INVALID", sl("exp-float", 1)),
        ("status-exp-float-past", "exp is a float that passed before the verification time", sl("exp-float-past", 0)),
        ("status-exp-tag1", "exp is a tag-1 date (RFC 8392 forbids the tag)", sl("exp-tag1", 0)),
        ("status-exp-text", "exp is a text string", sl("exp-text", 0)),
        ("status-exp-bool", "exp is a boolean", sl("exp-bool", 0)),
        ("status-iat-future", "iat is 10 minutes after the verification time (beyond the 300 s skew)", sl("iat-future", 0)),
        ("status-iat-text", "iat is a text string", sl("iat-text", 0)),
        ("status-ttl-text", "ttl is a text string", sl("ttl-text", 0)),
        ("status-ttl-negative", "ttl is negative", sl("ttl-negative", 0)),
        ("status-not-found", "the list URI answers 404", sl("missing", 0)),
        ("status-slow", "the list server answers after the fetch timeout", sl("slow", 0)),
        ("status-oversized", "the list is larger than the configured maximum", sl("oversized", 0)),
        ("status-idlist-revoked", "identifier 0102 is listed", il("idlist", "0102")),
        ("status-idlist-valid", "identifier 0304 is not listed", il("idlist", "0304")),
        ("status-both-valid", "status list VALID and identifier not listed", sl("bits1", 0) | il("idlist", "0304")),
        ("status-both-one-revoked", "status list VALID but identifier listed", sl("bits1", 0) | il("idlist", "0102")),
        ("status-mso-certificate-valid", "the MSO names the list signer's CA in `certificate`; index 0 VALID",
         {"status_list": {"idx": 0, "uri": uri("named-ca"), "certificate": g.cert_der(named_ca.cert)}}),
        ("status-mso-certificate-revoked", "the MSO names the list signer's CA in `certificate`; index 1 INVALID",
         {"status_list": {"idx": 1, "uri": uri("named-ca"), "certificate": g.cert_der(named_ca.cert)}}),
        ("status-signer-not-under-iaca", "the same list, but the MSO names no certificate: its signer does not "
         "chain to the document's IACA", sl("named-ca", 1)),
        ("status-none", "no status entry in the MSO", None),
    ]

    # What the chain and profile checks decide gates the fetch: a list is looked up for a document that is valid as
    # issued (chain passed or granted as a warning, profile not failed, issuer signature valid), never for another.
    # Each case names its document signer and whether the IACA is named lenient (trust.profileChecksByAnchor).
    pre_publication = pki.ds("status-ds-pre-publication", iaca, "verifierd Test DS P-256 Pre-publication EKU",
                             c="US", st="US-CA", eku_oids=[OID_PRE_PUBLICATION_DS],
                             description="Document signer under iaca-p256 whose EKU is the draft 1.3.130.2.0.0.1.2.")
    anchor_cases = [
        # (name, description, ds, lenient, status, chain, profile, status outcome, code, fetched)
        ("anchor-pre-publication-lenient-revoked", "chain granted as a warning (pre-publication EKU, lenient IACA); "
         "bits1 index 1: INVALID", "status-ds-pre-publication", True, sl("bits1", 1),
         "warning", "passed", "failed", "STATUS_REVOKED", True),
        ("anchor-pre-publication-lenient-valid", "chain granted as a warning; bits1 index 0: VALID",
         "status-ds-pre-publication", True, sl("bits1", 0), "warning", "passed", "passed", None, True),
        ("anchor-pre-publication-strict-revoked", "chain failed (pre-publication EKU, IACA not lenient): the list is "
         "not looked up", "status-ds-pre-publication", False, sl("bits1", 1),
         "failed", "passed", "notApplicable", None, False),
        ("anchor-profile-warning-lenient-revoked", "profile granted as a warning (DS countryName CA under a US IACA, "
         "lenient IACA); bits1 index 1: INVALID", "ds-p256-country-mismatch", True, sl("bits1", 1),
         "passed", "warning", "failed", "STATUS_REVOKED", True),
        ("anchor-profile-failed-revoked", "profile failed (DS countryName CA under a US IACA, default mode): the "
         "list is not looked up", "ds-p256-country-mismatch", False, sl("bits1", 1),
         "passed", "failed", "notApplicable", None, False),
    ]

    if OUT.exists():
        shutil.rmtree(OUT)
    for folder in ("pki", "lists", "cases", "apple"):
        (OUT / folder).mkdir(parents=True)
    for entry in (good, no_ds, named_ca, named_signer, pre_publication):
        g.write_text(OUT / "pki" / f"{entry.name}.pem", g.cert_pem(entry.cert))
        g.write_text(OUT / "pki" / "keys" / f"{entry.name}.pem", g.pkcs8_pem(entry.key))
    for name, data in lists.items():
        g.write_hex(OUT / "lists" / f"{name}.cwt.hex", data)

    now = g.d(VERIFICATION_TIME)
    manifest_cases = []
    documents: dict[str, dict] = {}
    for name, description, status in cases:
        doc, transcript = g.issue_document(g.DocSpec(f"status/{name}", status=status), pki)
        documents[name] = {"status": status}
        g.write_hex(OUT / "cases" / f"{name}.deviceresponse.hex", g.device_response([doc]))
        g.write_hex(OUT / "cases" / f"{name}.transcript.hex", transcript)
        results = []
        for key, ref in (status or {}).items():
            list_name = ref["uri"].rsplit("/", 1)[1]
            kind = "status" if key == "status_list" else "identifier"
            results.append(evaluate(lists.get(list_name), kind, ref["uri"], ref.get("idx"), ref.get("id"),
                                    iaca.cert, ds.cert, now, ref.get("certificate")))
        outcome, code = combine(results) if status else ("notApplicable", None)
        entry = {"name": name, "description": description,
                 "deviceResponse": f"cases/{name}.deviceresponse.hex",
                 "sessionTranscript": f"cases/{name}.transcript.hex",
                 "expect": {"outcome": outcome} | ({"code": code} if code else {})}
        if status and "status_list" in status:
            entry["statusList"] = {k: (v.hex() if isinstance(v, bytes) else v) for k, v in status["status_list"].items()}
        if status and "identifier_list" in status:
            entry["identifierList"] = {"id": status["identifier_list"]["id"].hex(), "uri": status["identifier_list"]["uri"]}
        manifest_cases.append(entry)

    anchor_entries = []
    for name, description, ds_name, lenient, status, chain, profile, outcome, code, fetched in anchor_cases:
        doc, transcript = g.issue_document(g.DocSpec(f"status/{name}", ds=ds_name, status=status), pki)
        g.write_hex(OUT / "cases" / f"{name}.deviceresponse.hex", g.device_response([doc]))
        g.write_hex(OUT / "cases" / f"{name}.transcript.hex", transcript)
        list_name = status["status_list"]["uri"].rsplit("/", 1)[1]
        if fetched:  # the evaluator's verdict on the list must be the expected one
            got = combine([evaluate(lists.get(list_name), "status", status["status_list"]["uri"],
                                    status["status_list"]["idx"], None, iaca.cert, pki.entries[ds_name].cert, now, None)])
            assert got == (outcome, code), (name, got)
        anchor_entries.append({
            "name": name, "description": description, "documentSigner": f"{ds_name}.pem", "lenient": lenient,
            "deviceResponse": f"cases/{name}.deviceresponse.hex", "sessionTranscript": f"cases/{name}.transcript.hex",
            "list": list_name, "fetched": fetched,
            "expect": {"issuer.certificateChain": chain, "issuer.certificateProfile": profile, "outcome": outcome}
            | ({"code": code} if code else {})})

    # The hand-written expectations the evaluator must agree with.
    expected = {"status-valid": "passed", "status-revoked": "STATUS_REVOKED", "status-suspended": "STATUS_SUSPENDED",
                "status-bits8-revoked": "STATUS_REVOKED", "status-bits4-suspended": "STATUS_SUSPENDED",
                "status-idlist-revoked": "STATUS_REVOKED", "status-idlist-valid": "passed",
                "status-both-valid": "passed", "status-both-one-revoked": "STATUS_REVOKED", "status-none": "notApplicable",
                "status-bits2-valid": "passed", "status-bits4-valid": "passed",
                "status-mso-certificate-valid": "passed", "status-mso-certificate-revoked": "STATUS_REVOKED",
                "status-exp-float-valid": "passed", "status-exp-float-revoked": "STATUS_REVOKED"}
    for entry in manifest_cases:
        got = entry["expect"].get("code") or entry["expect"]["outcome"]
        want = expected.get(entry["name"], "STATUS_UNKNOWN")
        assert got == want, (entry["name"], got, want)

    # Apple in-app bodies for three cases: same mdocs, device-signed over the AppleHandover transcript.
    recipient = serialization.load_pem_private_key((g.TV / "apple/keys/merchant-1.pem").read_bytes(), None)
    apple_entries = []
    for name, _, _ in cases:
        nonce = g.seed_bytes(f"status/apple-nonce/{name}", 32)
        merchant, team = "com.example.verifierd.test", "VERIFIERD1"
        pkr_hash = g.hashlib.sha256(g.uncompressed(recipient.public_key())).digest()
        transcript = g.apple_transcript(nonce, merchant, team, pkr_hash)
        doc, _ = g.issue_document(g.DocSpec(f"status/apple/{name}", status=documents[name]["status"],
                                            transcript=transcript), pki)
        plaintext = g.enc({"identity": {"version": "1.0", "documents": [doc], "status": 0}})
        envelope, sealed_transcript = g.apple_seal(recipient.public_key(), plaintext, nonce, merchant, team, f"status/{name}")
        assert sealed_transcript == transcript
        request = {"encryptedData": base64.b64encode(envelope).decode(), "nonce": base64.b64encode(nonce).decode()}
        g.write_json(OUT / "apple" / f"{name}.json", request)
        expect = next(c["expect"] for c in manifest_cases if c["name"] == name)
        apple_entries.append({"case": name, "request": f"apple/{name}.json", "expect": expect})

    g.write_json(OUT / "manifest.json", {
        "generator": "TestVectors/generator/status_lists.py",
        "description": "Revocation cases: MSO status references and the lists they name. TEST-ONLY.",
        "verificationTime": VERIFICATION_TIME,
        "baseURI": BASE_URI,
        "trustAnchor": "../pki/iaca-p256.pem",
        "lists": [{"name": n, "path": f"/lists/{n}", "file": f"lists/{n}.cwt.hex"} for n in lists],
        "served": {"/lists/missing": "404", "/lists/slow": "answers after the fetch timeout",
                   "/lists/oversized": "a body larger than the configured maximum"},
        "cases": manifest_cases,
        "anchorCases": anchor_entries,
        "apple": apple_entries,
    })
    g.write_text(OUT / "README.md", README)

    annex = g.SHARED_VECTORS / "iso18013-5-annex-d" / "tsl_draft_issuer_auth_with_status.hex"
    if annex.exists():
        auth = cbor2.loads(bytes.fromhex(annex.read_text().strip()))
        auth = auth.value if isinstance(auth, CBORTag) else auth
        mso = cbor2.loads(cbor2.loads(auth[2]).value)
        print("Annex D TSL draft IssuerAuth status:", mso["status"])
    else:
        print("note: ../shared/vectors is absent; the Annex D TSL check is skipped")
    print(f"generated: TestVectors/status ({len(lists)} lists, {len(manifest_cases)} cases, {len(apple_entries)} Apple bodies)")
    return 0


README = """# Revocation vectors (TEST-ONLY)

Made by `python3 TestVectors/generator/status_lists.py` (after `generate.py`, whose PKI it reuses); byte-identical
on every run. Every key here is derived from a public seed string: never trust any of it.

* `pki/status-signer.pem`: the list signer, issued by `../pki/iaca-p256.pem` (keyUsage digitalSignature, not a CA).
  `pki/status-signer-no-digitalsignature.pem`: the same without digitalSignature. `pki/status-ca.pem` is a CA that
  an MSO names in its reference (`certificate`); `pki/status-signer-under-named-ca.pem` signs the `named-ca` list.
* `lists/<name>.cwt.hex`: tagged COSE_Sign1 (18) tokens, protected `{1: -7, 16: typ, 33: signer}`, claims
  `{2: sub, 6: iat 2029-12-31, 4: exp 2031-01-01, 65534: ttl 3600, 65533: {bits, lst (zlib)}}` or
  `65530: {identifiers}` for `idlist`. Served by the tests at `http://127.0.0.1:18613/lists/<name>`;
  `/lists/missing` answers 404, `/lists/slow` answers after the fetch timeout, `/lists/oversized` sends too much.
* `cases/<name>.deviceresponse.hex` + `.transcript.hex`: documents issued by `../pki/ds-p256.pem` whose MSO carries
  the status entry; `manifest.json` gives each case's expected `mso.status` outcome and code at 2030-01-01T00:00:00Z.
* `anchorCases` in `manifest.json`: documents whose chain or certificate profile is granted as a warning (IACA named
  lenient) or fails, each with the list verdict expected and whether the list may be fetched at all: a list is looked
  up only for a document that is valid as issued. `pki/status-ds-pre-publication.pem` has the draft mdlDS EKU.
* `apple/<case>.json`: Apple in-app request bodies (`encryptedData`, `nonce`) for every case, encrypted to
  `../apple/keys/merchant-1.pem` for merchant `com.example.verifierd.test`, team `VERIFIERD1`.

The script checks every token's signature, chain and claims and recomputes every expectation with its own small
evaluator before writing the manifest.
"""


def fresh_list(name: str, out: str) -> int:
    """Writes list `name` as `main` makes it, but dated now (iat a minute ago, exp a day ahead), to `out`: for tests
    of a running service, which judges status lists at its own clock, not at a request's verification time. Nothing
    is written into TestVectors."""
    import datetime
    statuses = {"bits1": (1, {0: 0, 1: 1})}
    if name not in statuses:
        print(f"no fresh form of list {name}", file=sys.stderr)
        return 2
    pki = g.build_pki()
    good = signer("status-signer", pki.entries["iaca-p256"])
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    bits, values = statuses[name]
    claims = status_claims(name, bits, values, iat=now - datetime.timedelta(minutes=1), exp=now + datetime.timedelta(days=1))
    Path(out).write_bytes(token(claims, good.key, g.cert_der(good.cert)))
    return 0


if __name__ == "__main__":
    # status_lists.py                      the committed vectors, into TestVectors/status
    # status_lists.py --fresh NAME FILE    one list dated now, into FILE
    # -h/--help prints the usage; any other argument is refused before anything is written.
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fresh", nargs=2, metavar=("NAME", "FILE"),
                        help="write only list NAME, dated now, to FILE (nothing is written into TestVectors)")
    arguments = parser.parse_args()
    if arguments.fresh is not None:
        name, file = arguments.fresh
        if file.startswith("-"):
            parser.error(f"--fresh: FILE may not start with '-': {file!r}")
        sys.exit(fresh_list(name, file))
    sys.exit(main())
