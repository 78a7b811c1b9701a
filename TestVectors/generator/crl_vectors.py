#!/usr/bin/env python3
"""X.509 certificate revocation by CRL (RFC 5280 sections 5 and 6.3) for every certificate chain verifierd builds.
EVERYTHING WRITTEN HERE IS TEST-ONLY.

Writes TestVectors/crl/ (nothing outside it is touched). Everything in that folder is deleted and rewritten except
  limbo/limbo-crl-subset.json, limbo/SOURCES.md   third-party data (C2SP/x509-limbo), read and pinned, never written
  crls/openssl/<ca>.crl                            CRLs made once by `openssl ca -gencrl` (ECDSA signatures from the
                                                   openssl CLI are randomised, so they cannot be remade byte for
                                                   byte); pinned by SHA-256, re-checked on every run, and only made
                                                   again (with a note to update the pin) when a file is missing.
Output is deterministic: keys come from public seed labels (generate.derive_key), certificates and CRLs use RFC 6979
ECDSA, every time is fixed, so re-running gives byte-identical files.

  pki/<name>.pem, pki/keys/<name>.pem   one chain per chain kind verifierd builds (mdoc IACA/DS, SD-JWT VC issuer
                                        incl. a 3-level chain, status-list signer, LoTE signer, registration
                                        certificate signer); P-256, valid 2024-01-01..2074-01-01; every non-anchor
                                        certificate has AKI, SKI and a CRL distribution point
                                        http://127.0.0.1:18620/crl/<issuer>.crl
  crls/<file>.crl                       DER CRLs: a base CRL and an empty CRL per CA, then refusal variants
  manifest.json, README.md              each case: the certificate checked, what the loopback server serves at which
                                        path, and the conclusion expected at 2030-01-01T00:00:00Z: good, revoked
                                        (with the CRLReason) or undetermined (with a stable code)
  limbo/manifest.json                   what verifierd's CRL checker concludes for each C2SP/x509-limbo CRL case

Before writing, the script aborts unless:
  * a small judge written here (cryptography's CertificateRevocationList: is_signature_valid,
    get_revoked_certificate_by_serial_number, extensions; plus a few lines of DER reading) gives every generated case
    and every limbo case exactly its expected conclusion and code;
  * `openssl verify -crl_check[_all] -attime` agrees or disagrees with each expectation exactly as declared here
    (the manifest records opensslAgrees and, where openssl differs, why);
  * every openssl-made CRL parses with cryptography, is signed by the CA's key, has the fixed dates, a CRLNumber and
    an AKI, and revokes exactly the serial (with reason and date) that the Python-made base CRL revokes;
  * the pinned SHA-256 of limbo/ and crls/openssl/ files match.

Usage (from the repository root):  .venv/bin/python3 TestVectors/generator/crl_vectors.py
It takes no arguments: -h/--help prints this text; anything else is refused before anything is read or written.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtensionOID, NameOID, CRLEntryExtensionOID

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402  (main-guarded: importing it writes nothing)

OUT = g.TV / "crl"
LIMBO_DIR = OUT / "limbo"
OPENSSL_DIR = OUT / "crls" / "openssl"
GENERATOR = "TestVectors/generator/crl_vectors.py"

VERIFICATION_TIME = "2030-01-01T00:00:00Z"
NOW = g.d(VERIFICATION_TIME)
DP_BASE = "http://127.0.0.1:18620/crl/"
CERT_FROM, CERT_TO = g.d("2024-01-01T00:00:00Z"), g.d("2074-01-01T00:00:00Z")
THIS_UPDATE, NEXT_UPDATE = g.d("2029-12-31T00:00:00Z"), g.d("2030-01-07T00:00:00Z")
MAX_CRL_BYTES = 1024 * 1024  # the judge refuses to process a CRL larger than this (CRL_TOO_LARGE)
OVERSIZED_EXTRA_ENTRIES = 25000
# An OID under IANA's documentation enterprise number (RFC 5612): no implementation understands it.
UNKNOWN_OID = x509.ObjectIdentifier("1.3.6.1.4.1.32473.1.1")
DER_NULL = b"\x05\x00"

CODES = {
    "CRL_UNAVAILABLE": "nothing usable could be fetched from the certificate's CRL distribution point",
    "CRL_SIGNATURE_INVALID": "the CRL signature does not verify with the issuer certificate's public key",
    "CRL_ISSUER_MISMATCH": "the CRL's issuer (name, or AKI key identifier) is not the certificate's issuer",
    "CRL_EXPIRED": "the verification time is after the CRL's nextUpdate",
    "CRL_NOT_YET_VALID": "the CRL's thisUpdate is after the verification time",
    "CRL_UNSUPPORTED": "the CRL needs processing the checker does not do: an unknown critical CRL or CRL entry "
                       "extension, a delta CRL, an indirect CRL (or a certificateIssuer entry), onlySomeReasons",
    "CRL_SCOPE_MISMATCH": "the CRL's issuingDistributionPoint does not cover the certificate (only CA certificates, "
                          "only user certificates, only attribute certificates, or another distribution point)",
    "CRL_MALFORMED": "not one DER-encoded CertificateList, or one that breaks the RFC 5280 CRL profile (version 1 "
                     "with extensions, no nextUpdate, no CRLNumber or a critical one, removeFromCRL in a base CRL)",
    "CRL_TOO_LARGE": f"the CRL is larger than {MAX_CRL_BYTES} bytes (1 MiB); it is not processed",
    "CRL_ISSUER_NOT_AUTHORIZED": "the issuer certificate has a keyUsage extension without cRLSign",
}

EUDI102 = "https://github.com/eu-digital-identity-wallet/eudi-lib-android-iso18013-data-transfer/issues/102"
EUDI102_DEFECTS = {
    "A": "The CRL's signature was never verified against the issuing CA's key: a forged CRL that leaves out a "
         "revoked certificate was believed.",
    "B": "A revocation found by the CRL check was caught and logged, but the method still returned true: a revoked "
         "certificate was accepted.",
    "C": "Only the leaf (chain.first()) was checked against a CRL: a revoked intermediate CA was accepted.",
    "D": "An expired CRL (past nextUpdate) was only logged and still used: an old CRL from before the revocation "
         "could be replayed.",
}

# The C2SP/x509-limbo subset and its reference, pinned (see limbo/SOURCES.md).
LIMBO_FILES = {
    "limbo-crl-subset.json": "38207132a8a4e257932b94c1b0b23b90209349d952f982edb936c0aa14ec1dc0",
    "SOURCES.md": None,  # checked for presence only (it describes the pinned file)
}

# crls/openssl/<ca>.crl, made once with `openssl ca -gencrl` (see make_openssl_crl); pinned here.
OPENSSL_PINS: dict[str, str] = {
    "iaca.crl": "d859de072ad533f4cd7e40c04b96df3e053e95c1e6bdea3910478b91df72afb6",
    "sdjwt-ca.crl": "5812d924fb1854b7a1275b149652c61cf1e245bb29df179d19acea724050596c",
    "status-ca.crl": "15b09a3b92de4b1400ed1520c042839d58f98035c886ca9861ed76097cb65d75",
    "lote-ca.crl": "5c0ba85f4791bce1e3610b4d496d6e54e7e676846b5c770176e13315d552508d",
    "registrar-ca.crl": "aaa25f7f65e2ef639384e335ff9b7ec969806cb0f27759a826f475e795ddeadc",
}


# --------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------

def der_cert(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.DER)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def iso(t: dt.datetime) -> str:
    return t.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def serial_of(name: str) -> int:
    return int.from_bytes(g.seed_bytes("crl/serial/" + name, 16), "big") >> 1 | 1


def key_of(name: str) -> ec.EllipticCurvePrivateKey:
    return g.derive_key(f"crl/{name}")


def write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


# Minimal DER reading/writing, enough to edit a TBSCertList and to check its shape.

def read_tlv(data: bytes, off: int) -> tuple[int, int, int]:
    """(tag, value start, value end) of the TLV at off; raises ValueError on anything but definite DER lengths."""
    if off + 2 > len(data):
        raise ValueError("truncated TLV")
    tag, first = data[off], data[off + 1]
    if tag & 0x1F == 0x1F:
        raise ValueError("multi-byte tags are not used in a CRL")
    if first < 0x80:
        start, length = off + 2, first
    else:
        n = first & 0x7F
        if n == 0 or n > 4 or off + 2 + n > len(data):
            raise ValueError("bad length")
        length = int.from_bytes(data[off + 2:off + 2 + n], "big")
        if length < 0x80 or data[off + 2] == 0:
            raise ValueError("non-minimal length")
        start = off + 2 + n
    if start + length > len(data):
        raise ValueError("truncated value")
    return tag, start, start + length


def children(data: bytes) -> list[bytes]:
    """The raw TLVs inside the constructed value `data` (without its own header)."""
    out, off = [], 0
    while off < len(data):
        _, _, end = read_tlv(data, off)
        out.append(data[off:end])
        off = end
    return out


def value_of(tlv: bytes) -> bytes:
    _, start, end = read_tlv(tlv, 0)
    return tlv[start:end]


def enc_tlv(tag: int, value: bytes) -> bytes:
    n = len(value)
    if n < 0x80:
        head = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        head = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + head + value


def resign(tbs: bytes, key: ec.EllipticCurvePrivateKey) -> bytes:
    """CertificateList = SEQUENCE {tbs, signatureAlgorithm (copied from tbs), BIT STRING ECDSA-SHA256 (RFC 6979)}."""
    alg = children(value_of(tbs))
    alg_id = alg[1] if alg[0][0] == 0x02 else alg[0]
    sig = key.sign(tbs, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    return enc_tlv(0x30, tbs + alg_id + enc_tlv(0x03, b"\x00" + sig))


# --------------------------------------------------------------------------------------------------
# PKI
# --------------------------------------------------------------------------------------------------

@dataclass
class Party:
    name: str
    kind: str  # chain kind
    role: str  # "anchor", "intermediate", "leaf"
    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey
    description: str
    issuer: str | None = None  # None: self-signed

    @property
    def dp(self) -> str | None:
        try:
            dps = self.cert.extensions.get_extension_for_class(x509.CRLDistributionPoints).value
        except x509.ExtensionNotFound:
            return None
        return dps[0].full_name[0].value


def name(attrs: list[tuple[Any, str]]) -> x509.Name:
    return x509.Name([x509.NameAttribute(oid, value) for oid, value in attrs])


def ku(sign: bool = False, cert_sign: bool = False, crl_sign: bool = False) -> x509.KeyUsage:
    return x509.KeyUsage(digital_signature=sign, content_commitment=False, key_encipherment=False,
                         data_encipherment=False, key_agreement=False, key_cert_sign=cert_sign, crl_sign=crl_sign,
                         encipher_only=False, decipher_only=False)


def crldp(ca_name: str) -> x509.CRLDistributionPoints:
    return x509.CRLDistributionPoints([x509.DistributionPoint(
        full_name=[x509.UniformResourceIdentifier(DP_BASE + ca_name + ".crl")], relative_name=None, reasons=None,
        crl_issuer=None)])


class PKI:
    def __init__(self) -> None:
        self.parties: dict[str, Party] = {}

    def __getitem__(self, item: str) -> Party:
        return self.parties[item]

    def ca(self, nm: str, kind: str, subject: x509.Name, description: str, issuer: str | None = None,
           path_length: int | None = 0, crl_sign: bool = True, ian: bool = False, role: str | None = None) -> Party:
        key = key_of(nm)
        parent = self.parties[issuer] if issuer else None
        b = (x509.CertificateBuilder().subject_name(subject)
             .issuer_name(parent.cert.subject if parent else subject)
             .public_key(key.public_key()).serial_number(serial_of(nm))
             .not_valid_before(CERT_FROM).not_valid_after(CERT_TO)
             .add_extension(x509.BasicConstraints(ca=True, path_length=path_length), critical=True)
             .add_extension(ku(cert_sign=True, crl_sign=crl_sign), critical=True)
             .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
        if parent:
            b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
                parent.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value), critical=False)
        if ian:
            b = b.add_extension(x509.IssuerAlternativeName(
                [x509.UniformResourceIdentifier(f"https://verifierd.example/{nm}")]), critical=False)
        # A self-signed CA names its own CRL (ISO 18013-5 Annex B asks this of an IACA); an intermediate its issuer's.
        b = b.add_extension(crldp(issuer or nm), critical=False)
        cert = b.sign(parent.key if parent else key, hashes.SHA256(), ecdsa_deterministic=True)
        p = Party(nm, kind, role or ("intermediate" if parent else "anchor"), cert, key, description, issuer)
        self.parties[nm] = p
        return p

    def leaf(self, nm: str, kind: str, subject: x509.Name, issuer: str, description: str,
             profile: str = "plain") -> Party:
        key = key_of(nm)
        parent = self.parties[issuer]
        b = (x509.CertificateBuilder().subject_name(subject).issuer_name(parent.cert.subject)
             .public_key(key.public_key()).serial_number(serial_of(nm))
             .not_valid_before(CERT_FROM).not_valid_after(CERT_TO))
        if profile == "ds":  # ISO 18013-5 Annex B document signer: no basicConstraints
            b = (b.add_extension(ku(sign=True), critical=True)
                 .add_extension(x509.ExtendedKeyUsage([g.OID_MDL_DS]), critical=True))
        else:
            b = (b.add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                 .add_extension(ku(sign=True), critical=True))
        b = (b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
                parent.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value), critical=False)
             .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
        if profile == "ds":
            b = b.add_extension(x509.IssuerAlternativeName(
                [x509.UniformResourceIdentifier(f"https://verifierd.example/{issuer}")]), critical=False)
        if profile == "sdjwt":
            b = b.add_extension(x509.SubjectAlternativeName(
                [x509.UniformResourceIdentifier(f"https://{nm}.verifierd.example")]), critical=False)
        b = b.add_extension(crldp(issuer), critical=False)
        cert = b.sign(parent.key, hashes.SHA256(), ecdsa_deterministic=True)
        p = Party(nm, kind, "leaf", cert, key, description, issuer)
        self.parties[nm] = p
        return p


def us(cn: str) -> x509.Name:
    return name([(NameOID.COUNTRY_NAME, "US"), (NameOID.STATE_OR_PROVINCE_NAME, "US-CA"), (NameOID.COMMON_NAME, cn)])


def de(cn: str) -> x509.Name:
    return name([(NameOID.COUNTRY_NAME, "DE"), (NameOID.ORGANIZATION_NAME, "verifierd TEST-ONLY"),
                 (NameOID.COMMON_NAME, cn)])


def eu(cn: str) -> x509.Name:
    return name([(NameOID.COUNTRY_NAME, "EU"), (NameOID.ORGANIZATION_NAME, "verifierd Test Scheme Operator"),
                 (NameOID.COMMON_NAME, cn)])


CHAIN_KINDS = {
    "mdoc": "ISO 18013-5 Annex B: IACA (trust anchor) -> document signer (DS). The DS keys sign mdocs.",
    "sdjwt-vc": "SD-JWT VC issuer x5c: a CA -> issuer, and a 3-level root -> intermediate CA -> issuer.",
    "status-list": "Token Status List signer (x5c/x5chain of a status list token) under its CA.",
    "lote": "LoTE (list of trusted entities) signer under the scheme operator's CA.",
    "registration": "ETSI TS 119 475 registration certificate (WRPRC) signer under the registrar CA.",
}


def build_pki() -> PKI:
    p = PKI()
    # mdoc
    p.ca("iaca", "mdoc", us("verifierd CRL Test IACA"), "Trust anchor: self-signed IACA (ISO 18013-5 Annex B: "
         "basicConstraints CA pathLen 0 critical, keyUsage keyCertSign + cRLSign critical, SKI, issuerAltName URI, "
         "its own CRL distribution point).", ian=True)
    for nm, what in (("ds-good", "not revoked"),
                     ("ds-revoked", "revoked in iaca.crl: keyCompromise, 2029-06-01"),
                     ("ds-revoked-hold", "revoked in iaca.crl: certificateHold, 2029-09-01"),
                     ("ds-revoked-later", "listed in iaca.crl with revocationDate 2030-06-01 (after the "
                                          "verification time) and no reasonCode")):
        p.leaf(nm, "mdoc", us(f"verifierd CRL Test DS {nm[3:]}"), "iaca",
               f"Document signer under iaca (Annex B: keyUsage digitalSignature critical, extendedKeyUsage "
               f"1.0.18013.5.1.2 critical, AKI, SKI, issuerAltName, CRL DP): {what}.", profile="ds")
    p.ca("iaca-no-crlsign", "mdoc", us("verifierd CRL Test IACA keyCertSign only"),
         "Variant IACA whose keyUsage is keyCertSign only (no cRLSign): it may not sign CRLs.", ian=True,
         crl_sign=False)
    p.leaf("ds-under-iaca-no-crlsign", "mdoc", us("verifierd CRL Test DS under keyCertSign-only IACA"),
           "iaca-no-crlsign", "Document signer under iaca-no-crlsign.", profile="ds")
    p.ca("other-ca", "mdoc", us("verifierd CRL Test Other CA"), "An unrelated CA trusted by nothing: its key forges "
         "iaca's CRL (signed-by-other-ca) and it issues a CRL naming ds-good's serial.", ian=True,
         role="untrusted-ca")
    # SD-JWT VC
    p.ca("sdjwt-ca", "sdjwt-vc", de("verifierd CRL Test SD-JWT VC Issuer CA"), "Trust anchor of the 2-level "
         "SD-JWT VC issuer chain.")
    p.leaf("sdjwt-issuer-good", "sdjwt-vc", de("verifierd CRL Test SD-JWT VC Issuer good"), "sdjwt-ca",
           "SD-JWT VC issuer under sdjwt-ca, not revoked.", profile="sdjwt")
    p.leaf("sdjwt-issuer-revoked", "sdjwt-vc", de("verifierd CRL Test SD-JWT VC Issuer revoked"), "sdjwt-ca",
           "SD-JWT VC issuer under sdjwt-ca, revoked in sdjwt-ca.crl: affiliationChanged, 2029-03-01.",
           profile="sdjwt")
    p.ca("sdjwt-root", "sdjwt-vc", de("verifierd CRL Test SD-JWT VC Root CA"), "Trust anchor of the 3-level SD-JWT "
         "VC chains (pathLen 1).", path_length=1)
    p.ca("sdjwt-intermediate-revoked", "sdjwt-vc", de("verifierd CRL Test SD-JWT VC Intermediate revoked"),
         "Intermediate CA under sdjwt-root, revoked in sdjwt-root.crl: cACompromise, 2029-02-01.",
         issuer="sdjwt-root")
    p.leaf("sdjwt-issuer-under-revoked-intermediate", "sdjwt-vc",
           de("verifierd CRL Test SD-JWT VC Issuer under revoked intermediate"), "sdjwt-intermediate-revoked",
           "SD-JWT VC issuer under sdjwt-intermediate-revoked; not listed by its own issuer's CRL (only the "
           "intermediate above it is revoked).", profile="sdjwt")
    p.ca("sdjwt-intermediate-good", "sdjwt-vc", de("verifierd CRL Test SD-JWT VC Intermediate good"),
         "Intermediate CA under sdjwt-root, not revoked.", issuer="sdjwt-root")
    p.leaf("sdjwt-issuer-under-good-intermediate", "sdjwt-vc",
           de("verifierd CRL Test SD-JWT VC Issuer under good intermediate"), "sdjwt-intermediate-good",
           "SD-JWT VC issuer under sdjwt-intermediate-good, not revoked.", profile="sdjwt")
    # status list
    p.ca("status-ca", "status-list", us("verifierd CRL Test Status List CA"), "Trust anchor of the status list "
         "signers.")
    p.leaf("status-signer-good", "status-list", us("verifierd CRL Test Status List Signer good"), "status-ca",
           "Status list signer, not revoked.")
    p.leaf("status-signer-revoked", "status-list", us("verifierd CRL Test Status List Signer revoked"), "status-ca",
           "Status list signer, revoked in status-ca.crl: superseded, 2029-04-01.")
    # LoTE
    p.ca("lote-ca", "lote", eu("verifierd TEST-ONLY LoTE Scheme Operator CA"), "Trust anchor of the LoTE signers.")
    p.leaf("lote-signer-good", "lote", eu("verifierd TEST-ONLY LoTE Signer good"), "lote-ca",
           "LoTE signer, not revoked.")
    p.leaf("lote-signer-revoked", "lote", eu("verifierd TEST-ONLY LoTE Signer revoked"), "lote-ca",
           "LoTE signer, revoked in lote-ca.crl: cessationOfOperation, 2029-05-01.")
    # registration certificates
    p.ca("registrar-ca", "registration", de("verifierd CRL Test Registrar CA"), "Trust anchor of the WRPRC "
         "signers.")
    p.leaf("registrar-good", "registration", de("verifierd CRL Test Registrar WRPRC Signer good"), "registrar-ca",
           "WRPRC signer, not revoked.")
    p.leaf("registrar-revoked", "registration", de("verifierd CRL Test Registrar WRPRC Signer revoked"),
           "registrar-ca", "WRPRC signer, revoked in registrar-ca.crl: keyCompromise, 2029-07-01.")
    return p


# Which child each CA revokes in its base CRL: (child, revocationDate, reason or None = no reasonCode extension).
REVOCATIONS: dict[str, list[tuple[str, str, x509.ReasonFlags | None]]] = {
    "iaca": [("ds-revoked", "2029-06-01T00:00:00Z", x509.ReasonFlags.key_compromise),
             ("ds-revoked-hold", "2029-09-01T00:00:00Z", x509.ReasonFlags.certificate_hold),
             ("ds-revoked-later", "2030-06-01T00:00:00Z", None)],
    "iaca-no-crlsign": [],
    "sdjwt-ca": [("sdjwt-issuer-revoked", "2029-03-01T00:00:00Z", x509.ReasonFlags.affiliation_changed)],
    "sdjwt-root": [("sdjwt-intermediate-revoked", "2029-02-01T00:00:00Z", x509.ReasonFlags.ca_compromise)],
    "sdjwt-intermediate-revoked": [],
    "sdjwt-intermediate-good": [],
    "status-ca": [("status-signer-revoked", "2029-04-01T00:00:00Z", x509.ReasonFlags.superseded)],
    "lote-ca": [("lote-signer-revoked", "2029-05-01T00:00:00Z", x509.ReasonFlags.cessation_of_operation)],
    "registrar-ca": [("registrar-revoked", "2029-07-01T00:00:00Z", x509.ReasonFlags.key_compromise)],
}
# The CA of each chain kind whose CRL is also made with `openssl ca -gencrl`, and the child it revokes there.
OPENSSL_CAS = {"mdoc": ("iaca", "ds-revoked"), "sdjwt-vc": ("sdjwt-ca", "sdjwt-issuer-revoked"),
               "status-list": ("status-ca", "status-signer-revoked"), "lote": ("lote-ca", "lote-signer-revoked"),
               "registration": ("registrar-ca", "registrar-revoked")}
GOOD_CHILD = {"iaca": "ds-good", "sdjwt-ca": "sdjwt-issuer-good", "status-ca": "status-signer-good",
              "lote-ca": "lote-signer-good", "registrar-ca": "registrar-good"}


# --------------------------------------------------------------------------------------------------
# CRLs
# --------------------------------------------------------------------------------------------------

def entry(serial: int, when: str, reason: x509.ReasonFlags | None = None,
          extra: list[tuple[x509.ExtensionType, bool]] = ()) -> x509.RevokedCertificate:
    b = x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(g.d(when))
    if reason is not None:
        b = b.add_extension(x509.CRLReason(reason), critical=False)
    for ext, critical in extra:
        b = b.add_extension(ext, critical=critical)
    return b.build()


def base_entries(pki: PKI, ca: str) -> list[x509.RevokedCertificate]:
    return [entry(pki[child].cert.serial_number, when, reason) for child, when, reason in REVOCATIONS[ca]]


def make_crl(pki: PKI, ca: str, entries: list[x509.RevokedCertificate] | None = None, number: int | None = 100,
             number_critical: bool = False, this: dt.datetime = THIS_UPDATE, nxt: dt.datetime = NEXT_UPDATE,
             extensions: list[tuple[x509.ExtensionType, bool]] = (), signer: str | None = None,
             issuer_name: x509.Name | None = None, aki_of: str | None = None) -> bytes:
    """A v2 CRL for `ca` (issuer name, AKI = its SKI, CRLNumber) signed with its key, unless overridden."""
    party = pki[ca]
    b = (x509.CertificateRevocationListBuilder().issuer_name(issuer_name or party.cert.subject)
         .last_update(this).next_update(nxt))
    ski = pki[aki_of or ca].cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski), critical=False)
    if number is not None:
        b = b.add_extension(x509.CRLNumber(number), critical=number_critical)
    for ext, critical in extensions:
        b = b.add_extension(ext, critical=critical)
    for e in (base_entries(pki, ca) if entries is None else entries):
        b = b.add_revoked_certificate(e)
    crl = b.sign(pki[signer or ca].key, hashes.SHA256(), ecdsa_deterministic=True)
    return crl.public_bytes(serialization.Encoding.DER)


def drop_tbs_field(crl_der: bytes, which: str, key: ec.EllipticCurvePrivateKey) -> bytes:
    """Remove the version INTEGER or the nextUpdate Time from the TBSCertList and sign again."""
    tbs = children(value_of(crl_der))[0]
    parts = children(value_of(tbs))
    if which == "version":
        assert parts[0][0] == 0x02
        parts = parts[1:]
    elif which == "nextUpdate":
        i = 1 if parts[0][0] == 0x02 else 0  # signature AlgorithmIdentifier
        assert parts[i + 2][0] in (0x17, 0x18) and parts[i + 3][0] in (0x17, 0x18)
        del parts[i + 3]
    return resign(enc_tlv(0x30, b"".join(parts)), key)


def flip_signature_byte(crl_der: bytes) -> bytes:
    data = bytearray(crl_der)
    data[-1] ^= 0x01  # the last byte of the ECDSA s INTEGER: the DER stays well-formed
    return bytes(data)


def to_pem(crl_der: bytes) -> bytes:
    b64 = base64.b64encode(crl_der).decode("ascii")
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    return ("-----BEGIN X509 CRL-----\n" + "\n".join(lines) + "\n-----END X509 CRL-----\n").encode("ascii")


def build_crls(pki: PKI) -> dict[str, bytes]:
    """crls/<file> -> DER bytes (or the deliberately broken bytes)."""
    out: dict[str, bytes] = {}
    for ca in REVOCATIONS:
        out[f"{ca}.crl"] = make_crl(pki, ca, number=100)
        if ca != "iaca-no-crlsign":
            out[f"{ca}-empty.crl"] = make_crl(pki, ca, entries=[], number=101)
    iaca = pki["iaca"]
    good = pki["ds-good"].cert.serial_number
    dp = iaca_dp = DP_BASE + "iaca.crl"
    stranger = serial_of("crl/stranger")  # a serial no certificate here has
    out["iaca-expired.crl"] = make_crl(pki, "iaca", entries=[], number=60, this=g.d("2029-05-25T00:00:00Z"),
                                       nxt=g.d("2029-12-31T00:00:00Z"))
    out["iaca-not-yet-valid.crl"] = make_crl(pki, "iaca", number=102, this=g.d("2030-01-02T00:00:00Z"),
                                             nxt=g.d("2030-01-09T00:00:00Z"))
    out["iaca-no-next-update.crl"] = drop_tbs_field(make_crl(pki, "iaca", number=103), "nextUpdate", iaca.key)
    out["iaca-bad-signature.crl"] = flip_signature_byte(make_crl(pki, "iaca", entries=[], number=104))
    out["iaca-signed-by-other-ca.crl"] = make_crl(pki, "iaca", entries=[], number=105, signer="other-ca")
    out["iaca-wrong-issuer-name.crl"] = make_crl(pki, "iaca", number=106, issuer_name=pki["other-ca"].cert.subject)
    out["iaca-other-issuer-lists-serial.crl"] = make_crl(
        pki, "other-ca", entries=[entry(good, "2029-06-01T00:00:00Z", x509.ReasonFlags.key_compromise)], number=7)
    out["iaca-no-crlsign.crl"] = make_crl(pki, "iaca-no-crlsign", entries=[
        entry(stranger, "2029-06-01T00:00:00Z", x509.ReasonFlags.superseded)], number=100)
    out["iaca-unknown-critical-crl-extension.crl"] = make_crl(
        pki, "iaca", number=107, extensions=[(x509.UnrecognizedExtension(UNKNOWN_OID, DER_NULL), True)])
    out["iaca-unknown-critical-entry-extension.crl"] = make_crl(pki, "iaca", number=108, entries=base_entries(
        pki, "iaca") + [entry(stranger, "2029-06-01T00:00:00Z", x509.ReasonFlags.superseded,
                              [(x509.UnrecognizedExtension(UNKNOWN_OID, DER_NULL), True)])])
    out["iaca-delta.crl"] = make_crl(pki, "iaca", number=109, extensions=[(x509.DeltaCRLIndicator(100), True)])
    out["iaca-indirect.crl"] = make_crl(
        pki, "iaca", number=110,
        extensions=[(x509.IssuingDistributionPoint(full_name=None, relative_name=None,
                                                   only_contains_user_certs=False, only_contains_ca_certs=False,
                                                   only_some_reasons=None, indirect_crl=True,
                                                   only_contains_attribute_certs=False), True)],
        entries=base_entries(pki, "iaca") + [entry(stranger, "2029-06-01T00:00:00Z", x509.ReasonFlags.superseded, [
            (x509.CertificateIssuer([x509.DirectoryName(pki["other-ca"].cert.subject)]), True)])])

    def idp(full_name: list[str] | None = None, users: bool = False, cas: bool = False) -> tuple:
        return (x509.IssuingDistributionPoint(
            full_name=[x509.UniformResourceIdentifier(u) for u in full_name] if full_name else None,
            relative_name=None, only_contains_user_certs=users, only_contains_ca_certs=cas, only_some_reasons=None,
            indirect_crl=False, only_contains_attribute_certs=False), True)

    out["iaca-idp-only-ca-certs.crl"] = make_crl(pki, "iaca", entries=[], number=111, extensions=[idp(cas=True)])
    out["iaca-idp-only-user-certs.crl"] = make_crl(pki, "iaca", number=112, extensions=[idp(users=True)])
    out["iaca-idp-wrong-distribution-point.crl"] = make_crl(
        pki, "iaca", number=113, extensions=[idp(full_name=[DP_BASE + "iaca-other-partition.crl"])])
    out["iaca-idp-matching-distribution-point.crl"] = make_crl(
        pki, "iaca", number=114, extensions=[idp(full_name=[iaca_dp], users=True)])
    out["iaca-version-1-with-extensions.crl"] = drop_tbs_field(make_crl(pki, "iaca", number=115), "version",
                                                               iaca.key)
    out["iaca-remove-from-crl.crl"] = make_crl(pki, "iaca", number=116, entries=base_entries(pki, "iaca") + [
        entry(good, "2029-08-01T00:00:00Z", x509.ReasonFlags.remove_from_crl)])
    out["iaca-crl-number-missing.crl"] = make_crl(pki, "iaca", number=None)
    out["iaca-crl-number-critical.crl"] = make_crl(pki, "iaca", number=117, number_critical=True)
    extra = [entry(serial_of(f"crl/oversized/{i}"), "2029-01-01T00:00:00Z", x509.ReasonFlags.superseded)
             for i in range(OVERSIZED_EXTRA_ENTRIES)]
    out["iaca-oversized.crl"] = make_crl(pki, "iaca", number=118, entries=base_entries(pki, "iaca") + extra)
    out["iaca-garbage.crl"] = b"verifierd TEST-ONLY: this is not a CRL\n" + g.seed_bytes("crl/garbage", 200)
    out["iaca-pem.crl"] = to_pem(out["iaca.crl"])
    out["iaca-truncated.crl"] = out["iaca.crl"][:len(out["iaca.crl"]) // 2]
    # SD-JWT variants
    out["sdjwt-ca-expired.crl"] = make_crl(pki, "sdjwt-ca", entries=[], number=60,
                                           this=g.d("2029-02-25T00:00:00Z"), nxt=g.d("2029-12-31T00:00:00Z"))
    out["sdjwt-ca-bad-signature.crl"] = flip_signature_byte(make_crl(pki, "sdjwt-ca", entries=[], number=104))
    assert dp == iaca_dp
    return out


# --------------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    kind: str
    chain: list[str]  # leaf first, trust anchor last; every certificate but the anchor is checked
    serve: dict[str, str]  # loopback path -> crls/<file>
    expect: str  # good | revoked | undetermined
    description: str
    reason: str | None = None  # revoked: RFC 5280 CRLReason name
    code: str | None = None  # undetermined: CODES key
    revoked: str | None = None  # which certificate of the chain is revoked (chain cases)
    eudi102: str | None = None
    openssl_agrees: bool = True
    openssl_note: str | None = None

    @property
    def certificate(self) -> str:
        return self.chain[0]

    @property
    def issuer(self) -> str:
        return self.chain[1]


def served(ca: str, file: str | None = None) -> dict[str, str]:
    return {f"/crl/{ca}.crl": f"crls/{file or ca + '.crl'}"}


def cases() -> list[Case]:
    m = lambda leaf: [leaf, "iaca"]  # noqa: E731
    s = served
    c = [
        Case("mdoc-ds-good", "mdoc", m("ds-good"), s("iaca"), "good",
             "iaca.crl (valid, lists the three revoked DS) does not list ds-good."),
        Case("mdoc-ds-good-empty-crl", "mdoc", m("ds-good"), s("iaca", "iaca-empty.crl"), "good",
             "iaca-empty.crl: a valid CRL without revokedCertificates."),
        Case("mdoc-ds-revoked", "mdoc", m("ds-revoked"), s("iaca"), "revoked",
             "iaca.crl lists ds-revoked (keyCompromise, 2029-06-01). The overall verification of an mdoc signed by "
             "this DS must fail: a revoked result may not be caught and dropped.", reason="keyCompromise",
             eudi102="B"),
        Case("mdoc-ds-revoked-hold", "mdoc", m("ds-revoked-hold"), s("iaca"), "revoked",
             "iaca.crl lists ds-revoked-hold with reason certificateHold: on hold is revoked for as long as it is "
             "listed (RFC 5280 6.3.3 (i)).", reason="certificateHold"),
        Case("mdoc-ds-revoked-later", "mdoc", m("ds-revoked-later"), s("iaca"), "revoked",
             "iaca.crl lists ds-revoked-later with revocationDate 2030-06-01, after the verification time, and no "
             "reasonCode. RFC 5280 6.3.3 (i) decides on the listing alone (revocationDate is not compared with the "
             "time of checking), and an absent reasonCode means unspecified (5.3.1).", reason="unspecified"),
        Case("mdoc-crl-unavailable", "mdoc", m("ds-good"), {}, "undetermined",
             "Nothing is served at /crl/iaca.crl (the server answers 404). A missing CRL is no evidence of good "
             "standing.", code="CRL_UNAVAILABLE"),
        Case("mdoc-crl-expired", "mdoc", m("ds-revoked"), s("iaca", "iaca-expired.crl"), "undetermined",
             "An older, correctly signed CRL (thisUpdate 2029-05-25, nextUpdate 2029-12-31) from before ds-revoked "
             "was revoked, replayed: it is past nextUpdate and may not be used, so it cannot vouch for ds-revoked.",
             code="CRL_EXPIRED", eudi102="D"),
        Case("mdoc-crl-not-yet-valid", "mdoc", m("ds-good"), s("iaca", "iaca-not-yet-valid.crl"), "undetermined",
             "thisUpdate 2030-01-02, after the verification time.", code="CRL_NOT_YET_VALID"),
        Case("mdoc-crl-no-next-update", "mdoc", m("ds-good"), s("iaca", "iaca-no-next-update.crl"), "undetermined",
             "As iaca.crl without nextUpdate: RFC 5280 5.1.2.5 requires conforming CRL issuers to include it; with "
             "no freshness bound the CRL is not used.", code="CRL_MALFORMED", openssl_agrees=False,
             openssl_note="openssl accepts a CRL without nextUpdate (no freshness check possible) and reports "
                          "ds-good as good."),
        Case("mdoc-crl-bad-signature", "mdoc", m("ds-revoked"), s("iaca", "iaca-bad-signature.crl"),
             "undetermined", "An empty CRL in iaca's name with one signature byte flipped: a tampered CRL that "
             "hides the revocation of ds-revoked.", code="CRL_SIGNATURE_INVALID", eudi102="A"),
        Case("mdoc-crl-signed-by-other-ca", "mdoc", m("ds-revoked"), s("iaca", "iaca-signed-by-other-ca.crl"),
             "undetermined", "A forged empty CRL: issuer name and AKI are iaca's, but other-ca's key signed it. "
             "Believing it would hide the revocation of ds-revoked.", code="CRL_SIGNATURE_INVALID", eudi102="A"),
        Case("mdoc-crl-wrong-issuer-name", "mdoc", m("ds-good"), s("iaca", "iaca-wrong-issuer-name.crl"),
             "undetermined", "Signed with iaca's key (AKI iaca's) but its issuer is other-ca's name: not a CRL of "
             "ds-good's issuer (RFC 5280 6.3.3 (b)(1)).", code="CRL_ISSUER_MISMATCH"),
        Case("mdoc-crl-other-issuer-lists-serial", "mdoc", m("ds-good"),
             s("iaca", "iaca-other-issuer-lists-serial.crl"), "undetermined",
             "Served at iaca's path: other-ca's own, correctly signed CRL listing ds-good's serial number. Status "
             "belongs to (issuer, serial): this CRL says nothing about ds-good, and iaca's CRL is missing.",
             code="CRL_ISSUER_MISMATCH"),
        Case("mdoc-crl-issuer-lacks-crlsign", "mdoc", ["ds-under-iaca-no-crlsign", "iaca-no-crlsign"],
             s("iaca-no-crlsign"), "undetermined", "iaca-no-crlsign (keyUsage keyCertSign only) signed this CRL; "
             "RFC 5280 6.3.3 (f) and 4.2.1.3 require cRLSign.", code="CRL_ISSUER_NOT_AUTHORIZED"),
        Case("mdoc-crl-unknown-critical-extension", "mdoc", m("ds-good"),
             s("iaca", "iaca-unknown-critical-crl-extension.crl"), "undetermined",
             f"As iaca.crl plus a critical CRL extension {UNKNOWN_OID.dotted_string} (NULL) nobody understands "
             "(RFC 5280 5.2: such a CRL must not be used).", code="CRL_UNSUPPORTED"),
        Case("mdoc-crl-unknown-critical-entry-extension", "mdoc", m("ds-good"),
             s("iaca", "iaca-unknown-critical-entry-extension.crl"), "undetermined",
             f"As iaca.crl plus an entry (another serial) with a critical entry extension "
             f"{UNKNOWN_OID.dotted_string}: RFC 5280 5.3 forbids using the CRL for any certificate.",
             code="CRL_UNSUPPORTED"),
        Case("mdoc-crl-delta", "mdoc", m("ds-good"), s("iaca", "iaca-delta.crl"), "undetermined",
             "A delta CRL (deltaCRLIndicator, critical, base 100) served as the CRL: not a complete CRL, and delta "
             "CRLs are not processed.", code="CRL_UNSUPPORTED"),
        Case("mdoc-crl-indirect", "mdoc", m("ds-good"), s("iaca", "iaca-indirect.crl"), "undetermined",
             "issuingDistributionPoint indirectCRL TRUE (critical) and an entry with a certificateIssuer entry "
             "extension naming other-ca: indirect CRLs are not processed.", code="CRL_UNSUPPORTED"),
        Case("mdoc-crl-idp-only-ca-certs", "mdoc", m("ds-good"), s("iaca", "iaca-idp-only-ca-certs.crl"),
             "undetermined", "issuingDistributionPoint onlyContainsCACerts: this CRL covers CA certificates only, "
             "not a document signer (RFC 5280 6.3.3 (b)(2)(iii)).", code="CRL_SCOPE_MISMATCH"),
        Case("mdoc-crl-idp-wrong-distribution-point", "mdoc", m("ds-good"),
             s("iaca", "iaca-idp-wrong-distribution-point.crl"), "undetermined",
             f"issuingDistributionPoint names {DP_BASE}iaca-other-partition.crl, not the distribution point in "
             "ds-good (RFC 5280 6.3.3 (b)(2)(i)).", code="CRL_SCOPE_MISMATCH"),
        Case("mdoc-crl-idp-matching-distribution-point", "mdoc", m("ds-revoked"),
             s("iaca", "iaca-idp-matching-distribution-point.crl"), "revoked",
             "issuingDistributionPoint (critical) names exactly ds-revoked's distribution point, with "
             "onlyContainsUserCerts: it covers the DS, which it lists (keyCompromise).", reason="keyCompromise"),
        Case("mdoc-crl-idp-only-user-certs", "mdoc", m("ds-good"), s("iaca", "iaca-idp-only-user-certs.crl"),
             "good", "issuingDistributionPoint onlyContainsUserCerts (no distribution point name) covers a DS; "
                     "ds-good is not listed."),
        Case("mdoc-crl-garbage", "mdoc", m("ds-good"), s("iaca", "iaca-garbage.crl"), "undetermined",
             "Not DER: a line of text and 200 seeded bytes.", code="CRL_MALFORMED"),
        Case("mdoc-crl-pem-instead-of-der", "mdoc", m("ds-good"), s("iaca", "iaca-pem.crl"), "undetermined",
             "iaca.crl PEM-armoured; an HTTP CRL distribution point serves one DER CRL (RFC 5280 4.2.1.13).",
             code="CRL_MALFORMED", openssl_agrees=False,
             openssl_note="openssl verify -CRLfile reads PEM as well as DER, so it accepts the file and reports "
                          "ds-good as good."),
        Case("mdoc-crl-truncated", "mdoc", m("ds-good"), s("iaca", "iaca-truncated.crl"), "undetermined",
             "The first half of iaca.crl.", code="CRL_MALFORMED"),
        Case("mdoc-crl-oversized", "mdoc", m("ds-good"), s("iaca", "iaca-oversized.crl"), "undetermined",
             f"A valid CRL of iaca with {OVERSIZED_EXTRA_ENTRIES} extra entries (seeded serials, superseded): "
             "larger than 1 MiB, refused before parsing.", code="CRL_TOO_LARGE", openssl_agrees=False,
             openssl_note="openssl has no size limit; it reads the CRL and reports ds-good as good."),
        Case("mdoc-crl-version-1-with-extensions", "mdoc", m("ds-good"),
             s("iaca", "iaca-version-1-with-extensions.crl"), "undetermined",
             "iaca.crl re-encoded without the version field (v1) but still with crlExtensions and entry "
             "extensions, re-signed: RFC 5280 5.1.2.1 requires v2 whenever extensions are present.",
             code="CRL_MALFORMED", openssl_agrees=False,
             openssl_note="openssl does not tie the version to the presence of extensions; it uses the CRL and "
                          "reports ds-good as good."),
        Case("mdoc-crl-remove-from-crl-in-base", "mdoc", m("ds-good"), s("iaca", "iaca-remove-from-crl.crl"),
             "undetermined", "A base (complete) CRL with an entry for ds-good whose reason is removeFromCRL, which "
             "RFC 5280 5.3.1 allows only in delta CRLs.", code="CRL_MALFORMED", openssl_agrees=False,
             openssl_note="openssl treats a removeFromCRL entry as not revoked and reports ds-good as good."),
        Case("mdoc-crl-number-missing", "mdoc", m("ds-good"), s("iaca", "iaca-crl-number-missing.crl"),
             "undetermined", "As iaca.crl without CRLNumber (RFC 5280 5.2.3: conforming CRL issuers MUST include "
             "it; compare limbo crl::crlnumber-missing).", code="CRL_MALFORMED", openssl_agrees=False,
             openssl_note="openssl does not require CRLNumber and reports ds-good as good."),
        Case("mdoc-crl-number-critical", "mdoc", m("ds-good"), s("iaca", "iaca-crl-number-critical.crl"),
             "undetermined", "As iaca.crl with CRLNumber marked critical (RFC 5280 5.2.3: MUST be non-critical; "
             "compare limbo crl::crlnumber-critical).", code="CRL_MALFORMED",
             openssl_note="openssl also refuses it, as an unhandled critical CRL extension."),
        # SD-JWT VC
        Case("sdjwt-issuer-good", "sdjwt-vc", ["sdjwt-issuer-good", "sdjwt-ca"], s("sdjwt-ca"), "good",
             "sdjwt-ca.crl does not list sdjwt-issuer-good."),
        Case("sdjwt-issuer-good-empty-crl", "sdjwt-vc", ["sdjwt-issuer-good", "sdjwt-ca"],
             s("sdjwt-ca", "sdjwt-ca-empty.crl"), "good", "sdjwt-ca-empty.crl lists nothing."),
        Case("sdjwt-issuer-revoked", "sdjwt-vc", ["sdjwt-issuer-revoked", "sdjwt-ca"], s("sdjwt-ca"), "revoked",
             "sdjwt-ca.crl lists sdjwt-issuer-revoked (affiliationChanged, 2029-03-01).",
             reason="affiliationChanged"),
        Case("sdjwt-intermediate-revoked", "sdjwt-vc", ["sdjwt-intermediate-revoked", "sdjwt-root"],
             s("sdjwt-root"), "revoked", "The intermediate CA itself, checked against sdjwt-root.crl "
             "(cACompromise, 2029-02-01).", reason="cACompromise"),
        Case("sdjwt-chain-revoked-intermediate", "sdjwt-vc",
             ["sdjwt-issuer-under-revoked-intermediate", "sdjwt-intermediate-revoked", "sdjwt-root"],
             {**s("sdjwt-intermediate-revoked"), **s("sdjwt-root")}, "revoked",
             "The whole x5c chain: the issuer is not listed by its issuer's CRL (sdjwt-intermediate-revoked.crl), "
             "but the intermediate is listed by sdjwt-root.crl (cACompromise). Checking only the leaf finds "
             "nothing; every certificate below the anchor must be checked.", reason="cACompromise",
             revoked="sdjwt-intermediate-revoked", eudi102="C"),
        Case("sdjwt-chain-good-intermediate", "sdjwt-vc",
             ["sdjwt-issuer-under-good-intermediate", "sdjwt-intermediate-good", "sdjwt-root"],
             {**s("sdjwt-intermediate-good"), **s("sdjwt-root")}, "good",
             "The whole chain: neither sdjwt-intermediate-good.crl nor sdjwt-root.crl lists a certificate of it."),
        Case("sdjwt-chain-root-crl-unavailable", "sdjwt-vc",
             ["sdjwt-issuer-under-good-intermediate", "sdjwt-intermediate-good", "sdjwt-root"],
             s("sdjwt-intermediate-good"), "undetermined",
             "The leaf's CRL is served and good, but nothing is served at /crl/sdjwt-root.crl, so the "
             "intermediate's status is unknown.", code="CRL_UNAVAILABLE", revoked=None),
        Case("sdjwt-crl-expired", "sdjwt-vc", ["sdjwt-issuer-revoked", "sdjwt-ca"],
             s("sdjwt-ca", "sdjwt-ca-expired.crl"), "undetermined",
             "An older empty CRL (thisUpdate 2029-02-25, nextUpdate 2029-12-31) from before the revocation, "
             "replayed.", code="CRL_EXPIRED", eudi102="D"),
        Case("sdjwt-crl-bad-signature", "sdjwt-vc", ["sdjwt-issuer-revoked", "sdjwt-ca"],
             s("sdjwt-ca", "sdjwt-ca-bad-signature.crl"), "undetermined",
             "An empty CRL in sdjwt-ca's name with one signature byte flipped, hiding the revocation.",
             code="CRL_SIGNATURE_INVALID", eudi102="A"),
        # status list, LoTE, registration
        Case("status-signer-good", "status-list", ["status-signer-good", "status-ca"], s("status-ca"), "good",
             "status-ca.crl does not list status-signer-good."),
        Case("status-signer-revoked", "status-list", ["status-signer-revoked", "status-ca"], s("status-ca"),
             "revoked", "status-ca.crl lists status-signer-revoked (superseded, 2029-04-01).", reason="superseded"),
        Case("lote-signer-good", "lote", ["lote-signer-good", "lote-ca"], s("lote-ca"), "good",
             "lote-ca.crl does not list lote-signer-good."),
        Case("lote-signer-revoked", "lote", ["lote-signer-revoked", "lote-ca"], s("lote-ca"), "revoked",
             "lote-ca.crl lists lote-signer-revoked (cessationOfOperation, 2029-05-01).",
             reason="cessationOfOperation"),
        Case("registrar-good", "registration", ["registrar-good", "registrar-ca"], s("registrar-ca"), "good",
             "registrar-ca.crl does not list registrar-good."),
        Case("registrar-revoked", "registration", ["registrar-revoked", "registrar-ca"], s("registrar-ca"),
             "revoked", "registrar-ca.crl lists registrar-revoked (keyCompromise, 2029-07-01).",
             reason="keyCompromise"),
    ]
    # The same CAs' CRLs as made by the openssl CLI (`openssl ca -revoke`, `openssl ca -gencrl`).
    for kind, (ca, child) in OPENSSL_CAS.items():
        reason = next(r for ch, _, r in REVOCATIONS[ca] if ch == child).value
        c.append(Case(f"{kind}-openssl-crl-revoked", kind, [child, ca], s(ca, f"openssl/{ca}.crl"), "revoked",
                      f"crls/openssl/{ca}.crl, made by `openssl ca -gencrl` with {ca}'s key, lists {child} "
                      f"({reason}).", reason=reason))
        c.append(Case(f"{kind}-openssl-crl-good", kind, [GOOD_CHILD[ca], ca], s(ca, f"openssl/{ca}.crl"), "good",
                      f"crls/openssl/{ca}.crl does not list {GOOD_CHILD[ca]}."))
    return c


# --------------------------------------------------------------------------------------------------
# The judge: a small, independent CRL checker (RFC 5280 6.3.3, complete CRLs only)
# --------------------------------------------------------------------------------------------------

KNOWN_CRL_EXTENSIONS = {ExtensionOID.AUTHORITY_KEY_IDENTIFIER, ExtensionOID.CRL_NUMBER,
                        ExtensionOID.ISSUING_DISTRIBUTION_POINT, ExtensionOID.ISSUER_ALTERNATIVE_NAME,
                        ExtensionOID.DELTA_CRL_INDICATOR, ExtensionOID.FRESHEST_CRL}
KNOWN_ENTRY_EXTENSIONS = {CRLEntryExtensionOID.CRL_REASON, CRLEntryExtensionOID.INVALIDITY_DATE,
                          CRLEntryExtensionOID.CERTIFICATE_ISSUER}


@dataclass
class Outcome:
    status: str  # good | revoked | undetermined
    reason: str | None = None
    code: str | None = None
    detail: str = ""
    revocation_date: str | None = None

    def key(self) -> tuple:
        return self.status, self.reason, self.code


def tbs_shape_ok(crl_der: bytes) -> str | None:
    """None, or why the bytes are not one CertificateList whose version fits its extensions."""
    _, _, end = read_tlv(crl_der, 0)
    if end != len(crl_der) or crl_der[0] != 0x30:
        return "not exactly one SEQUENCE"
    top = children(value_of(crl_der))
    if len(top) != 3:
        return "CertificateList is not {tbs, algorithm, signature}"
    parts = children(value_of(top[0]))
    has_version = parts[0][0] == 0x02
    if has_version and value_of(parts[0]) != b"\x01":
        return "version is not v2"
    has_crl_ext = parts[-1][0] == 0xA0
    has_entry_ext = False
    first = 1 if has_version else 0  # the signature AlgorithmIdentifier
    rest = parts[first + 3:]  # after signature, issuer, thisUpdate
    if rest and rest[0][0] in (0x17, 0x18):
        rest = rest[1:]
    if rest and rest[0][0] == 0x30:
        for rc in children(value_of(rest[0])):
            if len(children(value_of(rc))) == 3:
                has_entry_ext = True
    if not has_version and (has_crl_ext or has_entry_ext):
        return "version 1 CRL with extensions"
    return None


def judge_crl(cert: x509.Certificate, issuer: x509.Certificate, data: bytes, at: dt.datetime,
              dp_uri: str | None) -> Outcome:
    """The status of `cert` according to the CRL bytes `data` claimed to come from `issuer`."""
    if len(data) > MAX_CRL_BYTES:
        return Outcome("undetermined", code="CRL_TOO_LARGE", detail=f"{len(data)} bytes")
    try:
        crl = x509.load_der_x509_crl(data)
        shape = tbs_shape_ok(data)
    except ValueError as e:
        return Outcome("undetermined", code="CRL_MALFORMED", detail=f"not a DER CertificateList: {e}")
    if shape:
        return Outcome("undetermined", code="CRL_MALFORMED", detail=shape)
    # (b)(1) the CRL issuer is the certificate issuer (direct CRLs only); AKI, when both sides have one, agrees.
    if crl.issuer != issuer.subject:
        return Outcome("undetermined", code="CRL_ISSUER_MISMATCH", detail=f"issuer {crl.issuer.rfc4514_string()}")
    try:
        aki = crl.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
        ski = issuer.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
        if aki is not None and aki != ski:
            return Outcome("undetermined", code="CRL_ISSUER_MISMATCH", detail="AKI is not the issuer's SKI")
    except x509.ExtensionNotFound:
        pass
    # (f) cRLSign, when the issuer has a keyUsage extension at all.
    try:
        if not issuer.extensions.get_extension_for_class(x509.KeyUsage).value.crl_sign:
            return Outcome("undetermined", code="CRL_ISSUER_NOT_AUTHORIZED", detail="issuer keyUsage lacks cRLSign")
    except x509.ExtensionNotFound:
        pass
    # (g) the signature.
    if not crl.is_signature_valid(issuer.public_key()):
        return Outcome("undetermined", code="CRL_SIGNATURE_INVALID")
    # Profile (section 5): nextUpdate, CRLNumber present and non-critical, removeFromCRL only in a delta CRL.
    exts = {e.oid: e for e in crl.extensions}
    if crl.next_update_utc is None:
        return Outcome("undetermined", code="CRL_MALFORMED", detail="no nextUpdate")
    number = exts.get(ExtensionOID.CRL_NUMBER)
    if number is None or number.critical:
        return Outcome("undetermined", code="CRL_MALFORMED",
                       detail="no CRLNumber" if number is None else "critical CRLNumber")
    is_delta = ExtensionOID.DELTA_CRL_INDICATOR in exts
    if not is_delta:
        for rc in crl:
            try:
                if rc.extensions.get_extension_for_class(x509.CRLReason).value.reason == \
                        x509.ReasonFlags.remove_from_crl:
                    return Outcome("undetermined", code="CRL_MALFORMED", detail="removeFromCRL in a base CRL")
            except x509.ExtensionNotFound:
                pass
    # Critical extensions: only complete, direct CRLs without unknown critical (entry) extensions are used.
    for e in crl.extensions:
        if e.critical and e.oid not in KNOWN_CRL_EXTENSIONS:
            return Outcome("undetermined", code="CRL_UNSUPPORTED", detail=f"critical CRL extension {e.oid}")
    if is_delta:
        return Outcome("undetermined", code="CRL_UNSUPPORTED", detail="delta CRL")
    idp = exts.get(ExtensionOID.ISSUING_DISTRIBUTION_POINT)
    idpv = idp.value if idp else None
    if idpv is not None and (idpv.indirect_crl or idpv.only_some_reasons):
        return Outcome("undetermined", code="CRL_UNSUPPORTED", detail="indirect CRL or onlySomeReasons")
    for rc in crl:
        for e in rc.extensions:
            if e.oid == CRLEntryExtensionOID.CERTIFICATE_ISSUER:
                return Outcome("undetermined", code="CRL_UNSUPPORTED", detail="certificateIssuer entry")
            if e.critical and e.oid not in KNOWN_ENTRY_EXTENSIONS:
                return Outcome("undetermined", code="CRL_UNSUPPORTED", detail=f"critical entry extension {e.oid}")
    # (b)(2) scope of the issuingDistributionPoint.
    if idpv is not None:
        try:
            is_ca = cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
        except x509.ExtensionNotFound:
            is_ca = False
        if idpv.only_contains_ca_certs and not is_ca:
            return Outcome("undetermined", code="CRL_SCOPE_MISMATCH", detail="onlyContainsCACerts")
        if idpv.only_contains_user_certs and is_ca:
            return Outcome("undetermined", code="CRL_SCOPE_MISMATCH", detail="onlyContainsUserCerts")
        if idpv.only_contains_attribute_certs:
            return Outcome("undetermined", code="CRL_SCOPE_MISMATCH", detail="onlyContainsAttributeCerts")
        if idpv.relative_name is not None:
            return Outcome("undetermined", code="CRL_UNSUPPORTED", detail="IDP nameRelativeToCRLIssuer")
        if idpv.full_name is not None:
            names = {n.value for n in idpv.full_name if isinstance(n, x509.UniformResourceIdentifier)}
            if dp_uri is None or dp_uri not in names:
                return Outcome("undetermined", code="CRL_SCOPE_MISMATCH", detail="IDP distribution point differs")
    # (a) validity window.
    if crl.last_update_utc > at:
        return Outcome("undetermined", code="CRL_NOT_YET_VALID")
    if at > crl.next_update_utc:
        return Outcome("undetermined", code="CRL_EXPIRED")
    # (i) the listing decides; revocationDate is informational.
    rc = crl.get_revoked_certificate_by_serial_number(cert.serial_number)
    if rc is None:
        return Outcome("good")
    try:
        reason = rc.extensions.get_extension_for_class(x509.CRLReason).value.reason.value
    except x509.ExtensionNotFound:
        reason = "unspecified"
    return Outcome("revoked", reason=reason, revocation_date=iso(rc.revocation_date_utc))


def judge_case(case: Case, pki: PKI, crl_files: dict[str, bytes]) -> tuple[Outcome, str | None]:
    """Every certificate below the anchor, leaf first. Any revoked: revoked; else the first undetermined; else good.
    Returns the outcome and the name of the certificate it is about (revoked/undetermined)."""
    results = []
    for i, nm in enumerate(case.chain[:-1]):
        party, issuer = pki[nm], pki[case.chain[i + 1]]
        assert party.issuer == issuer.name
        dp = party.dp
        path = "/" + dp.split("/", 3)[3]
        file = case.serve.get(path)
        if file is None:
            out = Outcome("undetermined", code="CRL_UNAVAILABLE", detail=f"nothing served at {path}")
        else:
            out = judge_crl(party.cert, issuer.cert, crl_files[file.removeprefix("crls/")], NOW, dp)
        results.append((nm, out))
    for nm, out in results:
        if out.status == "revoked":
            return out, nm
    for nm, out in results:
        if out.status == "undetermined":
            return out, nm
    return Outcome("good"), None


# --------------------------------------------------------------------------------------------------
# openssl: `openssl ca -gencrl` CRLs and the `openssl verify` cross-check
# --------------------------------------------------------------------------------------------------

OPENSSL_CONF = """[ ca ]
default_ca = ca_default
[ ca_default ]
dir = {dir}
database = $dir/index.txt
new_certs_dir = $dir/new
certificate = $dir/ca.pem
private_key = $dir/ca-key.pem
crlnumber = $dir/crlnumber
default_md = sha256
crl_extensions = crl_ext
unique_subject = no
policy = policy_any
[ policy_any ]
commonName = supplied
[ crl_ext ]
authorityKeyIdentifier = keyid:always
"""


def openssl(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True, check=False)


def make_openssl_crl(pki: PKI, ca: str, child: str) -> bytes:
    """`openssl ca -revoke` the child, fix its revocation date in the database, `openssl ca -gencrl` with fixed
    lastUpdate/nextUpdate (OpenSSL 3.0+), DER."""
    when, reason = next((w, r) for ch, w, r in REVOCATIONS[ca] if ch == child)
    with tempfile.TemporaryDirectory(prefix="verifierd-openssl-ca-") as tmp:
        d = Path(tmp)
        (d / "new").mkdir()
        (d / "index.txt").write_text("")
        (d / "crlnumber").write_text("1000\n")
        (d / "ca.pem").write_text(g.cert_pem(pki[ca].cert))
        (d / "ca-key.pem").write_text(g.pkcs8_pem(pki[ca].key))
        (d / "child.pem").write_text(g.cert_pem(pki[child].cert))
        (d / "ca.cnf").write_text(OPENSSL_CONF.format(dir=tmp))
        r = openssl("ca", "-config", "ca.cnf", "-batch", "-revoke", "child.pem", "-crl_reason", reason.value,
                    cwd=d)
        if r.returncode:
            raise SystemExit(f"openssl ca -revoke failed: {r.stderr}")
        # index.txt: R <TAB> notAfter <TAB> revocationDate,reason <TAB> serial <TAB> unknown <TAB> subject
        cols = (d / "index.txt").read_text().rstrip("\n").split("\t")
        cols[2] = g.d(when).strftime("%y%m%d%H%M%SZ") + "," + reason.value
        (d / "index.txt").write_text("\t".join(cols) + "\n")
        r = openssl("ca", "-config", "ca.cnf", "-batch", "-gencrl", "-crl_lastupdate",
                    THIS_UPDATE.strftime("%Y%m%d%H%M%SZ"), "-crl_nextupdate", NEXT_UPDATE.strftime("%Y%m%d%H%M%SZ"),
                    "-out", "crl.pem", cwd=d)
        if r.returncode:
            raise SystemExit(f"openssl ca -gencrl failed: {r.stderr}")
        r = subprocess.run(["openssl", "crl", "-in", "crl.pem", "-outform", "DER"], cwd=d, capture_output=True,
                           check=False)
        if r.returncode:
            raise SystemExit("openssl crl -outform DER failed")
        return r.stdout


def check_openssl_crl(pki: PKI, ca: str, child: str, data: bytes, python_crl: bytes) -> list[str]:
    problems = []
    try:
        crl = x509.load_der_x509_crl(data)
    except ValueError as e:
        return [f"openssl/{ca}.crl does not parse: {e}"]
    ref = x509.load_der_x509_crl(python_crl)
    if tbs_shape_ok(data) is not None or children(value_of(children(value_of(data))[0]))[0] != b"\x02\x01\x01":
        problems.append(f"openssl/{ca}.crl is not a v2 CRL")
    if not crl.is_signature_valid(pki[ca].cert.public_key()):
        problems.append(f"openssl/{ca}.crl is not signed by {ca}'s key")
    if crl.issuer != pki[ca].cert.subject:
        problems.append(f"openssl/{ca}.crl issuer differs")
    if (crl.last_update_utc, crl.next_update_utc) != (THIS_UPDATE, NEXT_UPDATE):
        problems.append(f"openssl/{ca}.crl dates differ")
    try:
        crl.extensions.get_extension_for_class(x509.CRLNumber)
        aki = crl.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
        if aki != pki[ca].cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest:
            problems.append(f"openssl/{ca}.crl AKI differs")
    except x509.ExtensionNotFound:
        problems.append(f"openssl/{ca}.crl lacks CRLNumber or AKI")

    def listing(c: x509.CertificateRevocationList) -> set:
        out = set()
        for rc in c:
            try:
                reason = rc.extensions.get_extension_for_class(x509.CRLReason).value.reason
            except x509.ExtensionNotFound:
                reason = None
            out.add((rc.serial_number, rc.revocation_date_utc, reason))
        return out
    want = {x for x in listing(ref) if x[0] == pki[child].cert.serial_number}
    if listing(crl) != want or len(want) != 1:
        problems.append(f"openssl/{ca}.crl revokes {listing(crl)}, the Python CRL {want}")
    return problems


def openssl_verdict(chain: list[x509.Certificate], crls: list[bytes], at: dt.datetime) -> tuple[str, str]:
    """good / revoked / undetermined according to `openssl verify`, and its last output line."""
    with tempfile.TemporaryDirectory(prefix="verifierd-openssl-verify-") as tmp:
        d = Path(tmp)
        (d / "anchor.pem").write_text(g.cert_pem(chain[-1]))
        (d / "leaf.pem").write_text(g.cert_pem(chain[0]))
        args = ["verify", "-attime", str(int(at.timestamp())), "-CAfile", "anchor.pem",
                "-crl_check_all" if len(chain) > 2 else "-crl_check"]
        if len(chain) > 2:
            (d / "untrusted.pem").write_text("".join(g.cert_pem(c) for c in chain[1:-1]))
            args += ["-untrusted", "untrusted.pem"]
        for i, data in enumerate(crls):
            (d / f"crl{i}").write_bytes(data)
            args += ["-CRLfile", f"crl{i}"]
        r = openssl(*args, "leaf.pem", cwd=d)
        text = (r.stdout + r.stderr).strip()
        if r.returncode == 0 and text.endswith("OK"):
            return "good", "OK"
        if "certificate revoked" in text:
            return "revoked", "certificate revoked"
        lines = [ln for ln in text.splitlines() if ln.startswith("error ") and " at " in ln]
        return "undetermined", (lines[0] if lines else text.splitlines()[-1] if text else "no output")


# --------------------------------------------------------------------------------------------------
# C2SP/x509-limbo subset
# --------------------------------------------------------------------------------------------------

# What verifierd's CRL checker concludes for the leaf of each limbo CRL case (they have no intermediates), and the
# RFC 5280 ground. A checker that is fed the case's crls directly (limbo certificates have no CRL distribution
# point) and validates at the case's validation_time; limbo's FAILURE = the leaf is not good (hard-fail).
LIMBO_EXPECT = {
    "crl::revoked-certificate-with-crl": (
        "revoked", "unspecified", None,
        "6.3.3 (i): the leaf's serial is on a valid, complete CRL of its issuer; no reasonCode, so unspecified "
        "(5.3.1)."),
    "crl::crlnumber-missing": (
        "undetermined", None, "CRL_MALFORMED",
        "5.2.3: conforming CRL issuers MUST include CRLNumber; a CRL without it is not used, and with no usable CRL "
        "the status is undetermined (limbo: the path fails)."),
    "crl::certificate-not-on-crl": (
        "good", None, None,
        "6.3.3: a valid, complete, current CRL of the leaf's issuer does not list the leaf's serial."),
    "crl::certificate-serial-on-crl-different-issuer": (
        "good", None, None,
        "6.3.3 (b)(1): only a CRL whose issuer is the certificate's issuer applies; Root CA 2's CRL (which lists the "
        "same serial) is ignored and Root CA 1's empty CRL does not list the leaf."),
    "crl::crlnumber-critical": (
        "undetermined", None, "CRL_MALFORMED",
        "5.2.3: CRLNumber MUST be non-critical; the CRL is not used (limbo: the path fails)."),
    "crl::issuer-missing-crlsign": (
        "undetermined", None, "CRL_ISSUER_NOT_AUTHORIZED",
        "6.3.3 (f) with 4.2.1.3: the issuer's keyUsage is present without cRLSign, so its CRL is refused."),
    "crl::issuer-no-keyusage-extension": (
        "good", None, None,
        "6.3.3 (f) checks cRLSign only if a keyUsage extension is present; the root has none, so its CRL is used "
        "and does not list the leaf."),
    "crl::issuer-valid-crlsign-and-keycertsign": (
        "good", None, None,
        "6.3.3 (f): keyUsage has cRLSign (and keyCertSign); the CRL is used and does not list the leaf."),
}


def judge_limbo(tc: dict) -> Outcome:
    leaf = x509.load_pem_x509_certificate(tc["peer_certificate"].encode())
    anchors = [x509.load_pem_x509_certificate(p.encode()) for p in tc["trusted_certs"]]
    issuer = next(a for a in anchors if a.subject == leaf.issuer)
    leaf.verify_directly_issued_by(issuer)
    at = g.d(tc["validation_time"])
    crls = []
    for pem in tc["crls"]:
        data = x509.load_pem_x509_crl(pem.encode()).public_bytes(serialization.Encoding.DER)
        if x509.load_der_x509_crl(data).issuer == leaf.issuer:  # the CRLs of the leaf's issuer only
            crls.append(data)
    if len(crls) != 1:
        return Outcome("undetermined", code="CRL_UNAVAILABLE")
    return judge_crl(leaf, issuer, crls[0], at, None)


def limbo_manifest(problems: list[str]) -> dict | None:
    src = LIMBO_DIR / "limbo-crl-subset.json"
    if not src.exists() or not (LIMBO_DIR / "SOURCES.md").exists():
        problems.append("limbo/limbo-crl-subset.json or limbo/SOURCES.md is missing")
        return None
    raw = src.read_bytes()
    if sha256(raw) != LIMBO_FILES["limbo-crl-subset.json"]:
        problems.append(f"limbo/limbo-crl-subset.json changed: SHA-256 {sha256(raw)}")
        return None
    data = json.loads(raw)
    ids = [tc["id"] for tc in data["testcases"]]
    if set(ids) != set(LIMBO_EXPECT) or len(ids) != len(LIMBO_EXPECT):
        problems.append(f"limbo ids {ids} differ from LIMBO_EXPECT")
        return None
    rows = []
    for tc in data["testcases"]:
        status, reason, code, ground = LIMBO_EXPECT[tc["id"]]
        out = judge_limbo(tc)
        if out.key() != (status, reason, code):
            problems.append(f"limbo {tc['id']}: judge says {out.key()} ({out.detail}), expected "
                            f"{(status, reason, code)}")
        if (status == "good") != (tc["expected_result"] == "SUCCESS"):
            problems.append(f"limbo {tc['id']}: {status} does not fit expected_result {tc['expected_result']}")
        leaf = x509.load_pem_x509_certificate(tc["peer_certificate"].encode())
        anchors = [x509.load_pem_x509_certificate(p.encode()) for p in tc["trusted_certs"]]
        issuer = next(a for a in anchors if a.subject == leaf.issuer)
        crl_ders = [x509.load_pem_x509_crl(p.encode()).public_bytes(serialization.Encoding.DER) for p in tc["crls"]]
        o_status, o_text = openssl_verdict([leaf, issuer], crl_ders, g.d(tc["validation_time"]))
        limbo_openssl_differs = {"crl::crlnumber-missing"}
        agrees = o_status == status
        if agrees == (tc["id"] in limbo_openssl_differs):
            problems.append(f"limbo {tc['id']}: openssl says {o_status} ({o_text}); declared "
                            f"{'disagreement' if tc['id'] in limbo_openssl_differs else 'agreement'}")
        row: dict[str, Any] = {"id": tc["id"], "expected_result": tc["expected_result"],
                               "validation_time": tc["validation_time"],
                               "leaf": {"expect": status}, "intermediates": []}
        if reason:
            row["leaf"]["reason"] = reason
        if code:
            row["leaf"]["code"] = code
        row["rfc5280"] = ground
        row["opensslAgrees"] = agrees
        if not agrees:
            row["opensslNote"] = ("openssl does not require CRLNumber; it uses the CRL, which does not list the "
                                  "leaf: good.")
        rows.append(row)
    return {
        "generator": GENERATOR,
        "source": "limbo-crl-subset.json (see SOURCES.md)",
        "description": "What verifierd's CRL checker concludes for the leaf of each C2SP/x509-limbo CRL case, "
                       "with the case's own CRLs and validation_time. The cases have no intermediates. Limbo's "
                       "expected_result FAILURE corresponds to a leaf that is not good (revoked, or undetermined "
                       "under a hard-fail policy).",
        "codes": CODES,
        "cases": rows,
    }


# --------------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------------

README = """# CRL revocation test vectors (RFC 5280 sections 5 and 6.3) — TEST-ONLY

**Every key and certificate here is TEST-ONLY.** Private keys are derived from public seed labels
(`crl/<name>`, see `TestVectors/generator/generate.py` `derive_key`), so anyone can recompute them.

Certificate revocation by CRL for every chain kind verifierd builds, and the conclusion a CRL checker must reach
for each case at **{time}**: `good`, `revoked` (with the RFC 5280 CRLReason) or `undetermined` (with a stable code).

## Regenerate

From the repository root:

```sh
.venv/bin/python3 TestVectors/generator/crl_vectors.py
```

The script deletes and rewrites this folder except `limbo/limbo-crl-subset.json`, `limbo/SOURCES.md` (third-party
data, pinned) and `crls/openssl/` (made once by the openssl CLI, pinned; see below). Output is byte-identical on
every run. Before writing, it aborts unless its own small judge (cryptography's CRL API plus a little DER reading)
gives every case, and every limbo case, exactly the expected conclusion and code, and unless `openssl verify
-crl_check` (`-crl_check_all` for 3-level chains) `-attime` agrees or differs exactly where declared.

## Serving

Every non-anchor certificate has one CRL distribution point, `{base}<issuer>.crl` (its issuer's CRL; the
self-signed CAs name their own). A test runs a loopback HTTP server on port 18620 and, for a case, serves each
`serve` entry's file (bytes as stored, `Content-Type: application/pkix-crl`) at its path, and answers 404 for any
other path. All CRLs are DER except the deliberately broken ones.

## Files

| File | What |
| --- | --- |
| `pki/<name>.pem`, `pki/keys/<name>.pem` | Certificates (PEM) and PKCS#8 private keys; listed with serials in `manifest.json` `chains`. |
| `crls/<ca>.crl`, `crls/<ca>-empty.crl` | Per CA: a v2 base CRL (thisUpdate 2029-12-31, nextUpdate 2030-01-07, CRLNumber 100, AKI) listing its revoked children, and one with no entries (CRLNumber 101). |
| `crls/iaca-*.crl`, `crls/sdjwt-ca-*.crl` | Refusal variants (see the cases). |
| `crls/openssl/<ca>.crl` | Made by `openssl ca -revoke` + `openssl ca -gencrl -crl_lastupdate/-crl_nextupdate` with the same CA key, revoking the same child (same reason and date). ECDSA signatures made by the openssl CLI are randomised, so these files were made once and are pinned by SHA-256 (`manifest.json` `opensslCrls`); the script re-checks them on every run and only remakes a missing one. |
| `limbo/` | C2SP/x509-limbo's CRL cases (`limbo-crl-subset.json`, `SOURCES.md`) and `limbo/manifest.json`: what verifierd's checker concludes for each. |
| `manifest.json` | Chains and cases (below). |

## Chains

{chains_table}

## Cases

The judge checks, in this order, stopping at the first failure: served at all (`CRL_UNAVAILABLE`), at most 1 MiB
(`CRL_TOO_LARGE`), one DER CertificateList whose version fits its extensions (`CRL_MALFORMED`), CRL issuer name
and AKI = the certificate's issuer (`CRL_ISSUER_MISMATCH`), the issuer's keyUsage (when present) has cRLSign
(`CRL_ISSUER_NOT_AUTHORIZED`), the signature (`CRL_SIGNATURE_INVALID`), the profile: nextUpdate, non-critical
CRLNumber, no removeFromCRL in a base CRL (`CRL_MALFORMED`), no unknown critical CRL or entry extension, not a
delta, not indirect (`CRL_UNSUPPORTED`), issuingDistributionPoint scope (`CRL_SCOPE_MISMATCH`), thisUpdate <= t
(`CRL_NOT_YET_VALID`), t <= nextUpdate (`CRL_EXPIRED`); then the listing decides. For a chain, every certificate
below the trust anchor is checked (the anchor never is): any revoked gives `revoked`, else any undetermined gives
that code, else `good`.

A listed certificate is revoked whatever its revocationDate (RFC 5280 6.3.3 (i) compares no dates;
`mdoc-ds-revoked-later`); certificateHold is revoked while listed; no reasonCode means `unspecified`.

| Case | Certificate | Expect | Reason / code | #102 | openssl agrees | What |
| --- | --- | --- | --- | --- | --- | --- |
{cases_table}

`#102` marks the negative vector for each defect of {eudi102} (CRL validation in EUDI's
ISO 18013-5 ReaderAuth, fixed by its PR #106):

{defects}

## manifest.json

```
{{"generator", "verificationTime": "{time}", "distributionPointBase": "{base}",
 "paths": "relative to this folder", "maxCrlBytes": {max_bytes}, "codes": {{<code>: <meaning>}},
 "eudi102": {{"issue": <url>, "defects": {{"A".."D": <what>}}}},
 "chains": [{{"kind", "description", "anchors", "certificates": [{{"name", "role", "certificate", "privateKey",
             "issuer", "serial" (hex), "subject", "crlDistributionPoint", "sha256", "description"}}]}}],
 "crls": [{{"file", "bytes", "sha256"}}], "opensslCrls": [{{"file", "ca", "revokes", "sha256"}}],
 "cases": [{{"name", "chainKind", "certificate", "issuer", "chain" (leaf first, anchor last),
            "serve": {{"/crl/<ca>.crl": "crls/<file>"}}, "expect", "reason", "code",
            "decidingCertificate" (the certificate of the chain the conclusion is about: the revoked one, or
            the one whose status could not be determined; null when good),
            "revocationDate" (revoked only), "eudi102", "description", "opensslAgrees", "opensslNote"?}}]}}
```
"""


def clear_output() -> None:
    """Delete everything in TestVectors/crl/ except the pinned limbo/ sources and crls/openssl/."""
    if not OUT.exists():
        return
    for child in sorted(OUT.rglob("*"), reverse=True):
        rel = child.relative_to(OUT).as_posix()
        if rel in ("limbo", "limbo/limbo-crl-subset.json", "limbo/SOURCES.md", "crls", "crls/openssl") \
                or rel.startswith("crls/openssl/"):
            continue
        if child.is_dir() and not child.is_symlink():
            if not any(child.iterdir()):
                child.rmdir()
        else:
            child.unlink()


def main() -> int:
    if shutil.which("openssl") is None:
        print("openssl CLI not found", file=sys.stderr)
        return 1
    problems: list[str] = []
    pki = build_pki()
    crl_files = build_crls(pki)

    # openssl-made CRLs: check the pinned files, or make missing ones.
    openssl_rows, notes = [], []
    for kind, (ca, child) in OPENSSL_CAS.items():
        path = OPENSSL_DIR / f"{ca}.crl"
        if path.exists():
            data = path.read_bytes()
            pin = OPENSSL_PINS.get(f"{ca}.crl")
            if pin != sha256(data):
                problems.append(f"crls/openssl/{ca}.crl has SHA-256 {sha256(data)}, pinned {pin}")
        else:
            data = make_openssl_crl(pki, ca, child)
            notes.append(f"made crls/openssl/{ca}.crl with openssl: pin \"{ca}.crl\": \"{sha256(data)}\"")
        problems += check_openssl_crl(pki, ca, child, data, crl_files[f"{ca}.crl"])
        crl_files[f"openssl/{ca}.crl"] = data
        openssl_rows.append({"file": f"crls/openssl/{ca}.crl", "ca": ca, "revokes": child, "sha256": sha256(data)})

    all_cases = cases()
    names = [c.name for c in all_cases]
    if len(set(names)) != len(names):
        problems.append("duplicate case names")
    outcomes = {}
    for c in all_cases:
        if c.code is not None and c.code not in CODES:
            problems.append(f"{c.name}: unknown code {c.code}")
        if c.eudi102 is not None and c.eudi102 not in EUDI102_DEFECTS:
            problems.append(f"{c.name}: unknown #102 defect {c.eudi102}")
        for f in c.serve.values():
            if f.removeprefix("crls/") not in crl_files:
                problems.append(f"{c.name}: serves unknown {f}")
        out, about = judge_case(c, pki, crl_files)
        outcomes[c.name] = (out, about)
        if out.key() != (c.expect, c.reason, c.code):
            problems.append(f"{c.name}: judge says {out.key()} ({out.detail}), expected {(c.expect, c.reason, c.code)}")
        want_about = c.revoked if c.revoked else (c.certificate if c.expect != "good" else None)
        if c.name == "sdjwt-chain-root-crl-unavailable":
            want_about = "sdjwt-intermediate-good"
        if about != want_about:
            problems.append(f"{c.name}: the conclusion is about {about}, expected {want_about}")
        chain = [pki[n].cert for n in c.chain]
        for i in range(len(chain) - 1):
            chain[i].verify_directly_issued_by(chain[i + 1])
        o_status, o_text = openssl_verdict(chain, [crl_files[f.removeprefix("crls/")] for f in c.serve.values()],
                                           NOW)
        if (o_status == c.expect) != c.openssl_agrees:
            problems.append(f"{c.name}: openssl says {o_status} ({o_text}); declared "
                            f"{'agreement' if c.openssl_agrees else 'disagreement'}")
    # Each #102 defect has at least one vector.
    for d in EUDI102_DEFECTS:
        if not any(c.eudi102 == d for c in all_cases):
            problems.append(f"no vector for #102 defect {d}")
    if len(crl_files["iaca-oversized.crl"]) <= MAX_CRL_BYTES:
        problems.append("iaca-oversized.crl is not over 1 MiB")
    limbo = limbo_manifest(problems)
    if problems:
        print("self-check FAILED:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1

    clear_output()
    chains = []
    for kind, what in CHAIN_KINDS.items():
        certs = []
        for p in pki.parties.values():
            if p.kind != kind:
                continue
            write_bytes(OUT / "pki" / f"{p.name}.pem", g.cert_pem(p.cert).encode())
            write_bytes(OUT / "pki" / "keys" / f"{p.name}.pem", g.pkcs8_pem(p.key).encode())
            certs.append({"name": p.name, "role": p.role, "certificate": f"pki/{p.name}.pem",
                          "privateKey": f"pki/keys/{p.name}.pem",
                          "issuer": f"pki/{p.issuer}.pem" if p.issuer else None,
                          "serial": format(p.cert.serial_number, "x"), "subject": p.cert.subject.rfc4514_string(),
                          "crlDistributionPoint": p.dp, "sha256": sha256(der_cert(p.cert)),
                          "description": p.description})
        anchors = [c_["name"] for c_ in certs if c_["role"] == "anchor"]
        chains.append({"kind": kind, "description": what, "anchors": [f"pki/{a}.pem" for a in anchors],
                       "certificates": certs})
    crl_rows = []
    for f, data in sorted(crl_files.items()):
        if f.startswith("openssl/"):
            continue
        write_bytes(OUT / "crls" / f, data)
        crl_rows.append({"file": f"crls/{f}", "bytes": len(data), "sha256": sha256(data)})
    for f, data in crl_files.items():
        if f.startswith("openssl/") and not (OUT / "crls" / f).exists():
            write_bytes(OUT / "crls" / f, data)

    rows, manifest_cases = [], []
    for c in all_cases:
        out, about = outcomes[c.name]
        entry_: dict[str, Any] = {
            "name": c.name, "chainKind": c.kind, "certificate": f"pki/{c.certificate}.pem",
            "issuer": f"pki/{c.issuer}.pem", "chain": [f"pki/{n}.pem" for n in c.chain], "serve": c.serve,
            "expect": c.expect, "reason": c.reason, "code": c.code,
            "decidingCertificate": f"pki/{about}.pem" if about else None}
        if c.expect == "revoked":
            entry_["revocationDate"] = out.revocation_date
        entry_["eudi102"] = c.eudi102
        entry_["description"] = c.description
        entry_["opensslAgrees"] = c.openssl_agrees
        if c.openssl_note and not c.openssl_agrees:
            entry_["opensslNote"] = c.openssl_note
        manifest_cases.append(entry_)
        rows.append(f"| `{c.name}` | `{c.certificate}` | {c.expect} | {c.reason or c.code or ''} | "
                    f"{c.eudi102 or ''} | {'yes' if c.openssl_agrees else 'no: ' + (c.openssl_note or '')} | "
                    f"{c.description} |")
    manifest = {
        "generator": GENERATOR,
        "description": "CRL revocation (RFC 5280 sections 5 and 6.3) for every chain kind verifierd builds: each "
                       "case's certificate chain, the CRLs a loopback server serves, and the conclusion expected at "
                       "verificationTime. TEST-ONLY.",
        "verificationTime": VERIFICATION_TIME,
        "distributionPointBase": DP_BASE,
        "paths": "relative to this folder (TestVectors/crl/)",
        "maxCrlBytes": MAX_CRL_BYTES,
        "codes": CODES,
        "eudi102": {"issue": EUDI102, "defects": EUDI102_DEFECTS},
        "chains": chains,
        "crls": crl_rows,
        "opensslCrls": openssl_rows,
        "cases": manifest_cases,
    }
    write_bytes(OUT / "manifest.json", (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode())
    if limbo is not None:
        write_bytes(LIMBO_DIR / "manifest.json", (json.dumps(limbo, indent=2, ensure_ascii=False) + "\n").encode())
    chain_rows = ["| Kind | Certificate | Role | Issuer | Notes |", "| --- | --- | --- | --- | --- |"]
    for ch in chains:
        for c_ in ch["certificates"]:
            chain_rows.append(f"| {ch['kind']} | `{c_['name']}` | {c_['role']} | "
                              f"{(c_['issuer'] or 'self').removeprefix('pki/').removesuffix('.pem')} | "
                              f"{c_['description']} |")
    readme = README.format(time=VERIFICATION_TIME, base=DP_BASE, chains_table="\n".join(chain_rows),
                           cases_table="\n".join(rows), eudi102=EUDI102, max_bytes=MAX_CRL_BYTES,
                           defects="\n".join(f"* {k}: {v} Vectors: " + ", ".join(
                               f"`{c.name}`" for c in all_cases if c.eudi102 == k) for k, v in
                               EUDI102_DEFECTS.items()))
    write_bytes(OUT / "README.md", readme.encode())
    for n in notes:
        print("NOTE: " + n)
    counts = {s: sum(1 for c in all_cases if c.expect == s) for s in ("good", "revoked", "undetermined")}
    print(f"generated: TestVectors/crl ({len(all_cases)} cases: {counts['good']} good, {counts['revoked']} revoked, "
          f"{counts['undetermined']} undetermined; {len(limbo['cases']) if limbo else 0} limbo cases judged)")
    # The presentations signed by this PKI live in presentations/ (deleted above with everything else): remake them.
    import subprocess
    return subprocess.call([sys.executable, str(Path(__file__).with_name("crl_presentations.py"))])


if __name__ == "__main__":
    # Takes no arguments: -h/--help prints the text above; anything else is refused before anything is written.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
