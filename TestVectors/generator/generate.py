#!/usr/bin/env python3
"""Independent test-vector generator for verifierd.

Builds, from fixed seeds only:
  * TestVectors/pki/    ISO 18013-5 Annex B style IACA / document-signer certificates and their keys
  * TestVectors/mdoc/   DeviceResponse cases + manifest.json with the expected verification result
  * TestVectors/apple/  "APPLE-HPKE-v1" envelope cases + manifest.json
  * TestVectors/demo/   test-only material for the service's embedded demo configuration

Every key is derived from a label (see `derive_key`), ECDSA is deterministic (RFC 6979) and HPKE
ephemeral keys are derived from labels too, so re-running produces byte-identical output.

After building each case the generator re-parses it and runs a small, independent verifier written
here with `cryptography` + `cbor2` (see `MiniVerifier`). The set of failed check codes it computes must
equal the manifest's expectation, otherwise the generator aborts. Where ../shared/vectors exists beside
the repository, the MAC and Apple transcript/HPKE code is also checked against those published vectors.

Usage (from the repository root):  python3 TestVectors/generator/generate.py

EVERY KEY WRITTEN BY THIS SCRIPT IS TEST-ONLY. Never trust any of these certificates in production.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import hmac
import io
import json
import os
import random
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.x509.oid import NameOID
from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey, KEMKeyPair

HERE = Path(__file__).resolve().parent
TV = HERE.parent  # TestVectors/
REPO = TV.parent
SHARED_VECTORS = REPO.parent / "shared" / "vectors"  # optional, only for self-checks

SEED_PREFIX = "verifierd-testvectors/"
UTC = dt.timezone.utc

MDL_DOCTYPE = "org.iso.18013.5.1.mDL"
MDL_NS = "org.iso.18013.5.1"
DEVICE_NS = "org.example.verifierd.device"
OID_MDL_DS = x509.ObjectIdentifier("1.0.18013.5.1.2")

DEFAULT_VERIFICATION_TIME = "2030-01-01T00:00:00Z"
CLOCK_SKEW = dt.timedelta(seconds=300)

CURVES = {"P-256": ec.SECP256R1(), "P-384": ec.SECP384R1(), "P-521": ec.SECP521R1()}
# Curves that may appear in hostile or negative vectors but never in a valid document.
OTHER_CURVES = {"secp256k1": ec.SECP256K1()}
CURVE_ORDERS = {
    "P-256": 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551,
    "P-384": 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973,
    "P-521": int("01FF" + "FFFFFFFF" * 7 + "FFFFFFFA" + "51868783BF2F966B7FCC0148F709A5D0"
                 "3BB5C9B8899C47AEBB6FB71E91386409", 16),
    "secp256k1": 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141,
}
COORD_LEN = {"P-256": 32, "P-384": 48, "P-521": 66, "secp256k1": 32}
# COSE header labels the verifier processes; a crit header may list only these (RFC 9052 3.1).
UNDERSTOOD_LABELS = {1, 2, 3, 4, 33}
MAX_X5CHAIN = 5
COSE_ALG = {"ES256": -7, "ES384": -35, "ES512": -36, "PS256": -37, "HMAC256": 5}
DIGEST_HASHES = {"SHA-256": hashlib.sha256, "SHA-384": hashlib.sha384, "SHA-512": hashlib.sha512}

ALL_CHECKS = [
    "issuer.certificateChain",
    "issuer.certificateProfile",
    "issuer.signature",
    "mso.docType",
    "issuer.valueDigests",
    "mso.validity",
    "mso.deviceKey",
    "device.authentication",
    "device.keyAuthorizations",
    "mso.status",
    "request.elements",
]


# --------------------------------------------------------------------------------------------------
# Deterministic primitives
# --------------------------------------------------------------------------------------------------

def seed_bytes(label: str, n: int) -> bytes:
    """n pseudo-random bytes from a label (SHA-256 in counter mode)."""
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(f"{SEED_PREFIX}{label}#{counter}".encode()).digest()
        counter += 1
    return out[:n]


_KEYS: dict[str, ec.EllipticCurvePrivateKey] = {}


def derive_key(label: str, curve: str = "P-256") -> ec.EllipticCurvePrivateKey:
    """scalar = int(SHA-512("verifierd-testvectors/" + label)) mod (n - 1) + 1."""
    k = f"{curve}/{label}"
    if k not in _KEYS:
        digest = hashlib.sha512((SEED_PREFIX + label).encode()).digest()
        n = CURVE_ORDERS[curve]
        if curve == "P-521":
            digest += hashlib.sha512((SEED_PREFIX + label + "#2").encode()).digest()
        scalar = int.from_bytes(digest, "big") % (n - 1) + 1
        _KEYS[k] = ec.derive_private_key(scalar, CURVES.get(curve) or OTHER_CURVES[curve])
    return _KEYS[k]


def curve_name(key) -> str:
    return {"secp256r1": "P-256", "secp384r1": "P-384", "secp521r1": "P-521", "secp256k1": "secp256k1"}[key.curve.name]


def uncompressed(pub: ec.EllipticCurvePublicKey) -> bytes:
    return pub.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def raw_scalar(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_numbers().private_value.to_bytes(COORD_LEN[curve_name(key)], "big")


def ecdsa_sign_raw(key: ec.EllipticCurvePrivateKey, data: bytes, hash_alg) -> bytes:
    der = key.sign(data, ec.ECDSA(hash_alg, deterministic_signing=True))
    r, s = decode_dss_signature(der)
    n = COORD_LEN[curve_name(key)]
    return r.to_bytes(n, "big") + s.to_bytes(n, "big")


def ecdsa_verify_raw(pub: ec.EllipticCurvePublicKey, sig: bytes, data: bytes, hash_alg) -> bool:
    n = COORD_LEN[curve_name(pub)]
    if len(sig) != 2 * n:
        return False
    der = encode_dss_signature(int.from_bytes(sig[:n], "big"), int.from_bytes(sig[n:], "big"))
    try:
        pub.verify(der, data, ec.ECDSA(hash_alg))
        return True
    except InvalidSignature:
        return False


def d(text: str) -> dt.datetime:
    """Parse "YYYY-MM-DDTHH:MM:SS[.fff](Z|+hh:mm)" to an aware datetime."""
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def enc(obj: Any) -> bytes:
    """CBOR: definite lengths, preferred (shortest) heads, map keys in insertion order."""
    return cbor2.dumps(obj)


def tag24(data: bytes) -> CBORTag:
    return CBORTag(24, data)


def strict_loads(data: bytes) -> Any:
    """Decode exactly one CBOR data item; trailing bytes are an error."""
    fp = io.BytesIO(data)
    obj = cbor2.CBORDecoder(fp).decode()
    if fp.tell() != len(data):
        raise ValueError(f"{len(data) - fp.tell()} trailing bytes")
    return obj


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_hex(path: Path, data: bytes) -> None:
    write_text(path, data.hex() + "\n")


def write_json(path: Path, obj: Any) -> None:
    write_text(path, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def pkcs8_pem(key) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def sec1_pem(key) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()
    ).decode()


def cert_pem(cert: x509.Certificate) -> str:
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def cert_der(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.DER)


# --------------------------------------------------------------------------------------------------
# PKI
# --------------------------------------------------------------------------------------------------

@dataclass
class PKIEntry:
    name: str
    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey
    role: str
    description: str
    issuer: str | None = None


class PKI:
    def __init__(self) -> None:
        self.entries: dict[str, PKIEntry] = {}

    @staticmethod
    def _name(cn: str, c: str | None, st: str | None) -> x509.Name:
        attrs = []
        if c is not None:
            attrs.append(x509.NameAttribute(NameOID.COUNTRY_NAME, c))
        if st is not None:
            attrs.append(x509.NameAttribute(NameOID.STATE_OR_PROVINCE_NAME, st))
        attrs.append(x509.NameAttribute(NameOID.COMMON_NAME, cn))
        return x509.Name(attrs)

    @staticmethod
    def _serial(label: str) -> int:
        return int.from_bytes(seed_bytes("serial/" + label, 16), "big") >> 1 | 1

    def iaca(self, name: str, cn: str, curve: str, c: str | None = "US", st: str | None = None,
             not_before: str = "2024-01-01T00:00:00Z", not_after: str = "2074-01-01T00:00:00Z",
             description: str = "", key_label: str | None = None) -> PKIEntry:
        key = derive_key(key_label or f"pki/{name}", curve)
        subject = self._name(cn, c, st)
        hash_alg = {"P-256": hashes.SHA256(), "P-384": hashes.SHA384(), "P-521": hashes.SHA512()}[curve]
        b = (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(subject)
            .public_key(key.public_key())
            .serial_number(self._serial(name))
            .not_valid_before(d(not_before))
            .not_valid_after(d(not_after))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                              data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                              encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .add_extension(x509.IssuerAlternativeName(
                [x509.UniformResourceIdentifier(f"https://verifierd.example/{name}")]), critical=False)
            .add_extension(x509.CRLDistributionPoints([x509.DistributionPoint(
                full_name=[x509.UniformResourceIdentifier(f"https://verifierd.example/crl/{name}.crl")],
                relative_name=None, reasons=None, crl_issuer=None)]), critical=False)
        )
        cert = b.sign(key, hash_alg, ecdsa_deterministic=True)
        e = PKIEntry(name, cert, key, "iaca", description)
        self.entries[name] = e
        return e

    def intermediate(self, name: str, issuer: PKIEntry, cn: str, ca: bool = True, key_cert_sign: bool = True,
                     description: str = "") -> PKIEntry:
        """A CA certificate issued by `issuer` (no pathLenConstraint), or with ca=False a non-CA that still
        tries to act as one."""
        curve = curve_name(issuer.key)
        key = derive_key(f"pki/{name}", curve)
        hash_alg = {"P-256": hashes.SHA256(), "P-384": hashes.SHA384(), "P-521": hashes.SHA512()}[curve]
        issuer_ski = issuer.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
        b = (
            x509.CertificateBuilder()
            .subject_name(self._name(cn, "US", "US-CA"))
            .issuer_name(issuer.cert.subject)
            .public_key(key.public_key())
            .serial_number(self._serial(name))
            .not_valid_before(d("2024-01-01T00:00:00Z"))
            .not_valid_after(d("2074-01-01T00:00:00Z"))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
            .add_extension(
                x509.KeyUsage(digital_signature=not key_cert_sign, content_commitment=False, key_encipherment=False,
                              data_encipherment=False, key_agreement=False, key_cert_sign=key_cert_sign,
                              crl_sign=key_cert_sign, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(issuer_ski), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .add_extension(x509.CRLDistributionPoints([x509.DistributionPoint(
                full_name=[x509.UniformResourceIdentifier(f"https://verifierd.example/crl/{issuer.name}.crl")],
                relative_name=None, reasons=None, crl_issuer=None)]), critical=False)
        )
        cert = b.sign(issuer.key, hash_alg, ecdsa_deterministic=True)
        e = PKIEntry(name, cert, key, "intermediate", description, issuer.name)
        self.entries[name] = e
        return e

    def ds(self, name: str, issuer: PKIEntry, cn: str, c: str | None = "US", st: str | None = None,
           not_before: str = "2024-01-01T00:00:00Z", not_after: str = "2074-01-01T00:00:00Z",
           digital_signature: bool = True, key_cert_sign: bool = False, eku: bool = True,
           crl_uri: bool = True, description: str = "", key_label: str | None = None,
           curve: str | None = None, eku_oids: list | None = None) -> PKIEntry:
        curve = curve or curve_name(issuer.key)
        key = derive_key(key_label or f"pki/{name}", curve)
        issuer_curve = curve_name(issuer.key)
        hash_alg = {"P-256": hashes.SHA256(), "P-384": hashes.SHA384(), "P-521": hashes.SHA512()}[issuer_curve]
        issuer_ski = issuer.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
        crl_name = (x509.UniformResourceIdentifier(f"https://verifierd.example/crl/{issuer.name}.crl")
                    if crl_uri else x509.DNSName("crl.verifierd.example"))
        b = (
            x509.CertificateBuilder()
            .subject_name(self._name(cn, c, st))
            .issuer_name(issuer.cert.subject)
            .public_key(key.public_key())
            .serial_number(self._serial(name))
            .not_valid_before(d(not_before))
            .not_valid_after(d(not_after))
            .add_extension(
                x509.KeyUsage(digital_signature=digital_signature, content_commitment=False,
                              key_encipherment=False, data_encipherment=False, key_agreement=False,
                              key_cert_sign=key_cert_sign, crl_sign=False, encipher_only=False,
                              decipher_only=False), critical=True)
        )
        if eku:
            b = b.add_extension(x509.ExtendedKeyUsage(eku_oids or [OID_MDL_DS]), critical=True)
        b = (
            b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(issuer_ski),
                            critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .add_extension(x509.IssuerAlternativeName(
                [x509.UniformResourceIdentifier(f"https://verifierd.example/{issuer.name}")]), critical=False)
            .add_extension(x509.CRLDistributionPoints([x509.DistributionPoint(
                full_name=[crl_name], relative_name=None, reasons=None, crl_issuer=None)]), critical=False)
        )
        cert = b.sign(issuer.key, hash_alg, ecdsa_deterministic=True)
        e = PKIEntry(name, cert, key, "ds", description, issuer.name)
        self.entries[name] = e
        return e

    def write(self, folder: Path, key_folder: Path) -> list[dict]:
        index = []
        for e in self.entries.values():
            write_text(folder / f"{e.name}.pem", cert_pem(e.cert))
            write_text(key_folder / f"{e.name}.pem", pkcs8_pem(e.key))
            index.append({
                "name": e.name,
                "role": e.role,
                "certificate": f"{e.name}.pem",
                "privateKey": f"keys/{e.name}.pem",
                "issuer": e.issuer,
                "curve": curve_name(e.key),
                "subject": e.cert.subject.rfc4514_string(),
                "notBefore": e.cert.not_valid_before_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "notAfter": e.cert.not_valid_after_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "sha256": hashlib.sha256(cert_der(e.cert)).hexdigest(),
                "description": e.description,
            })
        return index


def build_pki() -> PKI:
    p = PKI()
    i256 = p.iaca("iaca-p256", "verifierd Test IACA P-256", "P-256", c="US", st="US-CA",
                  description="Trusted test IACA root, P-256, C=US ST=US-CA.")
    p.ds("ds-p256", i256, "verifierd Test DS P-256", c="US", st="US-CA",
         description="Document signer under iaca-p256.")
    i384 = p.iaca("iaca-p384", "verifierd Test IACA P-384", "P-384", c="US",
                  description="Trusted test IACA root, P-384, C=US (no stateOrProvinceName).")
    p.ds("ds-p384", i384, "verifierd Test DS P-384", c="US",
         description="Document signer under iaca-p384 (P-384 key, ES384).")
    io_ = p.iaca("iaca-other", "verifierd Other Untrusted IACA P-256", "P-256", c="US", st="US-CA",
                 description="IACA that is never configured as a trust anchor.")
    p.ds("ds-other", io_, "verifierd Other DS P-256", c="US", st="US-CA",
         description="Document signer under the untrusted iaca-other.")
    p.ds("ds-p256-expired", i256, "verifierd Test DS P-256 Expired", c="US", st="US-CA",
         not_before="2024-01-01T00:00:00Z", not_after="2025-01-01T00:00:00Z",
         description="Document signer under iaca-p256 valid only 2024-01-01..2025-01-01.")
    ie = p.iaca("iaca-expired", "verifierd Test IACA P-256 Expired", "P-256", c="US", st="US-CA",
                not_before="2024-01-01T00:00:00Z", not_after="2025-01-01T00:00:00Z",
                description="IACA valid only 2024-01-01..2025-01-01.")
    p.ds("ds-under-expired-iaca", ie, "verifierd Test DS under Expired IACA", c="US", st="US-CA",
         description="Document signer valid 2024..2074 under the expired iaca-expired.")
    p.ds("ds-p256-no-eku", i256, "verifierd Test DS P-256 No EKU", c="US", st="US-CA", eku=False,
         description="Document signer under iaca-p256 without the mdlDS extended key usage.")
    p.ds("ds-p256-no-digitalsignature", i256, "verifierd Test DS P-256 keyCertSign only", c="US",
         st="US-CA", digital_signature=False, key_cert_sign=True,
         description="Document signer under iaca-p256 whose KeyUsage is keyCertSign only.")
    inc = p.iaca("iaca-no-country", "verifierd Test IACA P-256 No Country", "P-256", c=None, st=None,
                 description="IACA without countryName (Annex B profile violation).")
    p.ds("ds-under-no-country-iaca", inc, "verifierd Test DS under No-Country IACA", c="US", st=None,
         description="Document signer (C=US) under iaca-no-country.")
    p.ds("ds-p256-country-mismatch", i256, "verifierd Test DS P-256 Country CA", c="CA", st="US-CA",
         description="Document signer under iaca-p256 (C=US) whose own countryName is CA.")
    p.ds("ds-p256-crldp-dns", i256, "verifierd Test DS P-256 CRL DP dNSName", c="US", st="US-CA",
         crl_uri=False,
         description="Document signer under iaca-p256 whose CRL distribution point is a dNSName, not a URI.")
    i521 = p.iaca("iaca-p521", "verifierd Test IACA P-521", "P-521", c="US", st="US-NY",
                  description="Trusted test IACA root, P-521, C=US ST=US-NY.")
    p.ds("ds-p521", i521, "verifierd Test DS P-521", c="US", st="US-NY",
         description="Document signer under iaca-p521 (P-521 key, ES512).")
    ica = p.intermediate("ica-p256", i256, "verifierd Test Intermediate CA P-256",
                         description="Intermediate CA (cA true, no pathLenConstraint) issued by iaca-p256; the "
                                     "IACA profile allows no intermediate.")
    p.ds("ds-under-ica", ica, "verifierd Test DS under Intermediate", c="US", st="US-CA",
         description="Document signer issued by the intermediate ica-p256.")
    nca = p.intermediate("ica-not-ca-p256", i256, "verifierd Test Not-a-CA P-256", ca=False, key_cert_sign=False,
                         description="Certificate issued by iaca-p256 with cA false and no keyCertSign that signs "
                                     "a DS anyway.")
    p.ds("ds-under-not-ca", nca, "verifierd Test DS under Not-a-CA", c="US", st="US-CA",
         description="Document signer issued by ica-not-ca-p256 (a certificate that may not sign certificates).")
    p.ds("ds-p256-secp256k1", i256, "verifierd Test DS secp256k1", c="US", st="US-CA", curve="secp256k1",
         description="Document signer under iaca-p256 with a secp256k1 key (outside the ISO 18013-5 curves).")
    return p


# --------------------------------------------------------------------------------------------------
# mdoc issuance
# --------------------------------------------------------------------------------------------------

def fake_portrait() -> bytes:
    """A few hundred bytes framed like a JPEG (SOI, APP0/JFIF, ..., EOI). Not a decodable image."""
    body = seed_bytes("portrait", 240)
    return (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
            + b"\xff\xfe\x00\x22verifierd test portrait, TEST ONLY" + body + b"\xff\xd9")


def full_date(s: str, tagged: bool = True):
    return CBORTag(1004, s) if tagged else s


def default_elements(tagged_dates: bool = True, issuing_country: str = "US",
                     given_name: str = "Erika") -> list[tuple[str, Any]]:
    fd = lambda s: full_date(s, tagged_dates)  # noqa: E731
    return [
        ("family_name", "Mustermann"),
        ("given_name", given_name),
        ("birth_date", fd("1971-09-01")),
        ("issue_date", fd("2024-06-01")),
        ("expiry_date", fd("2034-06-01")),
        ("issuing_country", issuing_country),
        ("issuing_authority", "verifierd Test DMV"),
        ("document_number", "D1234567"),
        ("portrait", fake_portrait()),
        ("driving_privileges", [
            {"vehicle_category_code": "B", "issue_date": fd("2024-06-01"), "expiry_date": fd("2034-06-01")},
            {"vehicle_category_code": "A", "issue_date": fd("2025-03-15"), "expiry_date": fd("2034-06-01")},
        ]),
        ("un_distinguishing_sign", "USA"),
        ("age_over_18", True),
        ("age_in_years", 53),
    ]


DEFAULT_CLAIMS = {MDL_NS: {"family_name": "Mustermann", "given_name": "Erika", "birth_date": "1971-09-01",
                           "issuing_country": "US", "age_over_18": True, "age_in_years": 53}}


def cose_key(pub: ec.EllipticCurvePublicKey) -> dict:
    n = pub.public_numbers()
    crv = curve_name(pub)
    ln = COORD_LEN[crv]
    return {1: 2, -1: {"P-256": 1, "P-384": 2, "P-521": 3}[crv],
            -2: n.x.to_bytes(ln, "big"), -3: n.y.to_bytes(ln, "big")}


def default_transcript(label: str) -> bytes:
    return enc([None, None, ["verifierd-test-handover", seed_bytes("transcript/" + label, 16)]])


def qr_like_transcript(label: str, reader_key: ec.EllipticCurvePrivateKey) -> bytes:
    """[DeviceEngagementBytes, EReaderKeyBytes, null] where EReaderKey = the reader key used for MAC."""
    e_device = derive_key(f"edevice/{label}")
    device_engagement = {0: "1.0", 1: [1, tag24(enc(cose_key(e_device.public_key())))]}
    return enc([tag24(enc(device_engagement)), tag24(enc(cose_key(reader_key.public_key()))), None])


@dataclass
class DocSpec:
    """Everything needed to issue one Document. Defaults give a fully valid P-256 document."""
    label: str
    ds: str = "ds-p256"
    x5chain: list[str] | None = None  # pki names; default [ds]
    x5chain_mode: str = "bstr"  # "bstr" | "array" | "protected"
    alg: str | None = None  # COSE alg label name; default from DS curve
    sign_hash: Any = None  # hash used for the actual issuer signature; default from alg
    digest_alg: str = "SHA-256"
    digest_fn: Any = None  # hash function for digests if digest_alg unsupported
    elements: list[tuple[str, Any]] = field(default_factory=default_elements)
    extra_namespaces: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    signed: str = "2024-06-01T00:00:00Z"
    valid_from: str = "2024-06-01T00:00:00Z"
    valid_until: str = "2073-01-01T00:00:00Z"
    expected_update: str | None = None
    status: dict | None = None
    doc_type: str = MDL_DOCTYPE
    mso_doc_type: str | None = None
    device_auth: str = "signature"  # "signature" | "mac" | "none"
    device_elements: dict[str, dict[str, Any]] = field(default_factory=dict)
    key_authorizations: dict | None = None
    # post-signing tampering
    tamper: str | None = None  # "digest" | "issuer-sig" | "device-sig" | "device-mac"
    undigested_item: tuple[str, int] | None = None  # (namespace, digestID) for an item with no digest
    transcript: bytes | None = None
    reader_key: ec.EllipticCurvePrivateKey | None = None
    # extra COSE header entries (e.g. crit) for issuerAuth and for the device signature or MAC
    issuer_protected_extra: dict = field(default_factory=dict)
    issuer_unprotected_extra: dict = field(default_factory=dict)
    device_protected_extra: dict = field(default_factory=dict)
    untagged_validity: tuple = ()  # validityInfo keys written as plain tstr instead of tag 0
    # the MSO's deviceKey as written instead of the device key's COSE_Key: (x, y) -> COSE_Key map
    device_cose_key: Any = None


def issue_document(spec: DocSpec, pki: PKI) -> tuple[dict, bytes]:
    """Return (Document as a cbor2-encodable dict, SessionTranscript bytes)."""
    ds = pki.entries[spec.ds]
    ds_curve = curve_name(ds.key)
    alg = spec.alg or {"P-256": "ES256", "P-384": "ES384", "P-521": "ES512"}[ds_curve]
    sign_hash = spec.sign_hash or {"ES256": hashes.SHA256(), "ES384": hashes.SHA384(),
                                   "ES512": hashes.SHA512(), "PS256": hashes.SHA256()}[alg]
    digest_fn = spec.digest_fn or DIGEST_HASHES[spec.digest_alg]
    rng = random.Random(SEED_PREFIX + "order/" + spec.label)

    namespaces = {MDL_NS: list(spec.elements)}
    for ns, els in spec.extra_namespaces.items():
        namespaces[ns] = list(els)

    issuer_ns: dict[str, list] = {}
    value_digests: dict[str, dict[int, bytes]] = {}
    for ns, els in namespaces.items():
        ids = list(range(len(els) + 1))  # one spare digest ID for an undisclosed element
        rng.shuffle(ids)
        items = []
        digests = {}
        for (eid, value), did in zip(els, ids):
            item = {"digestID": did, "random": seed_bytes(f"random/{spec.label}/{ns}/{eid}", 32),
                    "elementIdentifier": eid, "elementValue": value}
            item_bytes = enc(tag24(enc(item)))
            digests[did] = digest_fn(item_bytes).digest()
            items.append((did, eid, item))
        # the undisclosed element: a digest with no IssuerSignedItem in the response
        digests[ids[-1]] = digest_fn(seed_bytes(f"undisclosed/{spec.label}/{ns}", 64)).digest()
        rng.shuffle(items)
        issuer_ns[ns] = items
        value_digests[ns] = dict(sorted(digests.items()))

    if spec.undigested_item is not None:
        ns, did = spec.undigested_item
        item = {"digestID": did, "random": seed_bytes(f"random/{spec.label}/{ns}/undigested", 32),
                "elementIdentifier": "resident_city", "elementValue": "Sacramento"}
        issuer_ns.setdefault(ns, []).append((did, "resident_city", item))

    device_key = derive_key("device/" + spec.label)
    written_key = cose_key(device_key.public_key())
    if spec.device_cose_key is not None:
        written_key = spec.device_cose_key(written_key[-2], written_key[-3])
    device_key_info: dict[str, Any] = {"deviceKey": written_key}
    if spec.key_authorizations is not None:
        device_key_info["keyAuthorizations"] = spec.key_authorizations

    def tdate(key: str, text: str):
        return text if key in spec.untagged_validity else CBORTag(0, text)
    validity = {"signed": tdate("signed", spec.signed), "validFrom": tdate("validFrom", spec.valid_from),
                "validUntil": tdate("validUntil", spec.valid_until)}
    if spec.expected_update:
        validity["expectedUpdate"] = CBORTag(0, spec.expected_update)
    mso: dict[str, Any] = {
        "version": "1.0",
        "digestAlgorithm": spec.digest_alg,
        "valueDigests": value_digests,
        "deviceKeyInfo": device_key_info,
        "docType": spec.mso_doc_type or spec.doc_type,
        "validityInfo": validity,
    }
    if spec.status is not None:
        mso["status"] = spec.status
    mso_bytes = enc(tag24(enc(mso)))

    chain = [cert_der(pki.entries[n].cert) for n in (spec.x5chain or [spec.ds])]
    chain_value: Any = chain[0] if (spec.x5chain_mode in ("bstr", "protected") and len(chain) == 1) else chain
    if spec.x5chain_mode == "array":
        chain_value = chain
    protected_map: dict[Any, Any] = {1: COSE_ALG[alg]}
    unprotected: dict[Any, Any] = {}
    if spec.x5chain_mode == "protected":
        protected_map[33] = chain_value
    else:
        unprotected[33] = chain_value
    protected_map.update(spec.issuer_protected_extra)
    unprotected.update(spec.issuer_unprotected_extra)
    protected = enc(protected_map)
    sig = ecdsa_sign_raw(ds.key, enc(["Signature1", protected, b"", mso_bytes]), sign_hash)
    if spec.tamper == "issuer-sig":
        sig = bytes([sig[0] ^ 0x01]) + sig[1:]
    issuer_auth = [protected, unprotected, mso_bytes, sig]

    ns_out = {}
    for ns, items in issuer_ns.items():
        lst = []
        for did, eid, item in items:
            if spec.tamper == "digest" and ns == MDL_NS and eid == "family_name":
                item = dict(item, elementValue="Musterfrau")
            lst.append(tag24(enc(item)))
        ns_out[ns] = lst

    transcript = spec.transcript if spec.transcript is not None else default_transcript(spec.label)
    device_ns_bytes = tag24(enc(spec.device_elements))
    device_auth_bytes = enc(tag24(enc(["DeviceAuthentication", cbor2.loads(transcript), spec.doc_type,
                                       device_ns_bytes])))
    # embed the transcript as a data item: check that decode+re-encode is lossless
    assert enc(cbor2.loads(transcript)) == transcript
    device_auth = {}
    if spec.device_auth in ("signature", "both"):
        dprot = enc({1: COSE_ALG["ES256"]} | spec.device_protected_extra)
        dsig = ecdsa_sign_raw(device_key, enc(["Signature1", dprot, b"", device_auth_bytes]), hashes.SHA256())
        if spec.tamper == "device-sig":
            dsig = dsig[:-1] + bytes([dsig[-1] ^ 0x01])
        device_auth["deviceSignature"] = [dprot, {}, None, dsig]
    if spec.device_auth in ("mac", "both"):
        assert spec.reader_key is not None
        mprot = enc({1: COSE_ALG["HMAC256"]} | spec.device_protected_extra)
        key = emac_key(spec.reader_key, device_key.public_key(), transcript)
        tag = hmac.new(key, enc(["MAC0", mprot, b"", device_auth_bytes]), hashlib.sha256).digest()
        if spec.tamper == "device-mac":
            tag = bytes([tag[0] ^ 0x01]) + tag[1:]
        device_auth["deviceMac"] = [mprot, {}, None, tag]

    document = {
        "docType": spec.doc_type,
        "issuerSigned": {"nameSpaces": ns_out, "issuerAuth": issuer_auth},
        "deviceSigned": {"nameSpaces": device_ns_bytes, "deviceAuth": device_auth},
    }
    return document, transcript


def emac_key(reader_priv: ec.EllipticCurvePrivateKey, device_pub: ec.EllipticCurvePublicKey,
             transcript: bytes) -> bytes:
    shared = reader_priv.exchange(ec.ECDH(), device_pub)
    salt = hashlib.sha256(enc(tag24(transcript))).digest()
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"EMacKey").derive(shared)


def device_response(documents: list[dict]) -> bytes:
    return enc({"version": "1.0", "documents": documents, "status": 0})


# --------------------------------------------------------------------------------------------------
# Independent mini verifier (sanity check of the generated vectors)
# --------------------------------------------------------------------------------------------------

COSE_CURVES = {1: "P-256", 2: "P-384", 3: "P-521"}


def device_key_from_cose(key: Any) -> tuple[ec.EllipticCurvePublicKey | None, str | None]:
    """(public key, None) for a usable EC2 COSE_Key, else (None, MSO_MALFORMED or ALGORITHM_UNSUPPORTED)."""
    if not isinstance(key, dict) or type(key.get(1)) is not int:
        return None, "MSO_MALFORMED"
    if key[1] != 2:
        return None, "ALGORITHM_UNSUPPORTED"
    if type(key.get(-1)) is not int:
        return None, "MSO_MALFORMED"
    if key[-1] not in COSE_CURVES:
        return None, "ALGORITHM_UNSUPPORTED"
    x, y = key.get(-2), key.get(-3)
    if not isinstance(x, bytes):
        return None, "MSO_MALFORMED"
    if isinstance(y, bool):
        return None, "ALGORITHM_UNSUPPORTED"
    curve = COSE_CURVES[key[-1]]
    if not isinstance(y, bytes) or len(x) != COORD_LEN[curve] or len(y) != COORD_LEN[curve]:
        return None, "MSO_MALFORMED"
    try:
        numbers = ec.EllipticCurvePublicNumbers(int.from_bytes(x, "big"), int.from_bytes(y, "big"), CURVES[curve])
        return numbers.public_key(), None
    except ValueError:  # not on the curve
        return None, "MSO_MALFORMED"


class Malformed(Exception):
    pass


def _name_attr(name: x509.Name, oid) -> str | None:
    attrs = name.get_attributes_for_oid(oid)
    return attrs[0].value if attrs else None


def crit_ok(protected: dict, unprotected: dict) -> bool:
    """RFC 9052 3.1: crit only in the protected bucket, a non-empty array of labels that are present in the
    protected bucket and understood by the verifier."""
    if 2 in unprotected:
        return False
    if 2 not in protected:
        return True
    labels = protected[2]
    if not isinstance(labels, list) or not labels:
        return False
    return all(isinstance(lab, int) and lab in protected and lab in UNDERSTOOD_LABELS for lab in labels)


class MiniVerifier:
    def __init__(self, anchors: list[x509.Certificate], now: dt.datetime, profile_mode: str,
                 reader_key: ec.EllipticCurvePrivateKey | None) -> None:
        self.anchors = anchors
        self.now = now
        self.profile_mode = profile_mode
        self.reader_key = reader_key

    def verify_response(self, data: bytes, transcript: bytes) -> dict:
        try:
            resp = strict_loads(data)
            if not isinstance(resp, dict) or resp.get("version") != "1.0" or resp.get("status") != 0:
                raise Malformed("bad DeviceResponse")
            docs = resp.get("documents")
            if not isinstance(docs, list) or not docs:
                raise Malformed("no documents")
            for doc in docs:
                if not isinstance(doc, dict) or not isinstance(doc.get("docType"), str):
                    raise Malformed("bad Document")
                doc["issuerSigned"]["issuerAuth"][2]  # noqa: B018 - structure probe
                # ISO 18013-5 9.1.3.4: exactly one of deviceSignature and deviceMac
                da = doc["deviceSigned"]["deviceAuth"]
                if ("deviceSignature" in da) == ("deviceMac" in da):
                    raise Malformed("deviceAuth holds both or neither")
                for ns, items in doc["issuerSigned"]["nameSpaces"].items():
                    ids = [cbor2.loads(it.value)["elementIdentifier"] for it in items]
                    if len(ids) != len(set(ids)):
                        raise Malformed("an element is disclosed twice")
        except Exception:  # noqa: BLE001
            return {"verified": False, "failedCodes": ["DEVICE_RESPONSE_MALFORMED"], "checks": {}}
        results = [self.verify_document(doc, transcript) for doc in docs]
        checks = results[0][0]
        failed = sorted({c["code"] for c in checks.values() if c["outcome"] == "failed"})
        return {"verified": not failed, "failedCodes": failed, "checks": checks, "claims": results[0][1],
                "deviceClaims": results[0][2]}

    def verify_document(self, doc: dict, transcript: bytes) -> tuple[dict, dict, dict]:
        checks: dict[str, dict] = {}

        def put(check: str, outcome: str, code: str | None = None):
            checks[check] = {"outcome": outcome} | ({"code": code} if code else {})

        protected_b, unprotected, payload, sig = doc["issuerSigned"]["issuerAuth"]
        protected = cbor2.loads(protected_b) if protected_b else {}
        x5 = protected.get(33, unprotected.get(33))
        chain = [x5] if isinstance(x5, bytes) else list(x5)
        mso_tagged = strict_loads(payload)
        assert isinstance(mso_tagged, CBORTag) and mso_tagged.tag == 24
        mso = strict_loads(mso_tagged.value)
        issuing_country = None

        # issuer.certificateChain: caps, DS key, then the path by names (no intermediate CA allowed), then
        # signatures from the anchor down.
        anchor = None
        ds = None
        leaf = x509.load_der_x509_certificate(chain[0])
        if (len(chain) > MAX_X5CHAIN or any(len(c) > 16384 for c in chain)
                or curve_name(leaf.public_key()) not in CURVES):
            # refused before any signature work; a key outside the ISO curves is not even a usable certificate
            put("issuer.certificateChain", "failed", "ISSUER_CERTIFICATE_INVALID")
        else:
            ds = leaf
            named = [a for a in self.anchors if a.subject == ds.issuer]
            if named:
                for a in named:
                    try:
                        ds.verify_directly_issued_by(a)
                        anchor = a
                    except Exception:  # noqa: BLE001
                        pass
                if anchor is None:
                    put("issuer.certificateChain", "failed", "ISSUER_CERTIFICATE_UNTRUSTED")
            elif any(x509.load_der_x509_certificate(c).subject == ds.issuer for c in chain[1:]):
                put("issuer.certificateChain", "failed", "ISSUER_CERTIFICATE_INVALID")  # intermediate CA
            else:
                put("issuer.certificateChain", "failed", "ISSUER_CERTIFICATE_UNTRUSTED")
        if anchor is not None:
            if not (ds.not_valid_before_utc <= self.now <= ds.not_valid_after_utc):
                put("issuer.certificateChain", "failed", "ISSUER_CERTIFICATE_EXPIRED")
            elif not (anchor.not_valid_before_utc <= self.now <= anchor.not_valid_after_utc):
                put("issuer.certificateChain", "failed", "TRUSTED_ISSUER_CERTIFICATE_EXPIRED")
            else:
                ku = ds.extensions.get_extension_for_class(x509.KeyUsage).value
                try:
                    eku = ds.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
                    has_eku = OID_MDL_DS in eku
                except x509.ExtensionNotFound:
                    has_eku = False
                if not ku.digital_signature or not has_eku:
                    put("issuer.certificateChain", "failed", "ISSUER_CERTIFICATE_INVALID")
                else:
                    put("issuer.certificateChain", "passed")

        # issuer.signature
        alg = protected.get(1)
        alg_ok = {-7: ("P-256", hashes.SHA256()), -35: ("P-384", hashes.SHA384()),
                  -36: ("P-521", hashes.SHA512())}.get(alg)
        if anchor is None:
            put("issuer.signature", "notApplicable")  # no trusted path: not checked
        elif alg_ok is None or alg_ok[0] != curve_name(ds.public_key()):
            put("issuer.signature", "failed", "ALGORITHM_UNSUPPORTED")
        elif not crit_ok(protected, unprotected):
            put("issuer.signature", "failed", "ISSUER_SIGNATURE_INVALID")
        elif ecdsa_verify_raw(ds.public_key(), sig, enc(["Signature1", protected_b, b"", payload]), alg_ok[1]):
            put("issuer.signature", "passed")
        else:
            put("issuer.signature", "failed", "ISSUER_SIGNATURE_INVALID")

        # mso.docType
        put("mso.docType", *(("passed",) if mso["docType"] == doc["docType"] else ("failed", "DOC_TYPE_MISMATCH")))

        # issuer.valueDigests
        claims: dict[str, dict] = {}
        hfn = DIGEST_HASHES.get(mso["digestAlgorithm"])
        outcome: tuple = ("passed",)
        if hfn is None:
            outcome = ("failed", "DIGEST_ALGORITHM_UNSUPPORTED")
        for ns, items in doc["issuerSigned"]["nameSpaces"].items():
            for it in items:
                item = cbor2.loads(it.value)
                claims.setdefault(ns, {})[item["elementIdentifier"]] = item["elementValue"]
                if ns == MDL_NS and item["elementIdentifier"] == "issuing_country":
                    issuing_country = item["elementValue"]
                if hfn is None:
                    continue
                expected = mso["valueDigests"].get(ns, {}).get(item["digestID"])
                if expected is None:
                    outcome = ("failed", "DIGEST_MISSING")
                elif hfn(enc(it)).digest() != expected and outcome == ("passed",):
                    outcome = ("failed", "DIGEST_MISMATCH")
        put("issuer.valueDigests", *outcome)

        # mso.validity: ISO 18013-5 9.1.2.4 profile first (tag 0, UTC, whole seconds, validFrom >= signed).
        # cbor2 turns tag 0 into an aware datetime and leaves an untagged string a str.
        vi = mso["validityInfo"]
        profile_ok = True
        values = {}
        for key in ("signed", "validFrom", "validUntil", "expectedUpdate"):
            if key not in vi:
                continue
            v = vi[key]
            if isinstance(v, str):
                profile_ok = False
                v = d(v)
            elif v.microsecond != 0 or v.utcoffset() != dt.timedelta(0):
                profile_ok = False
            values[key] = v
        signed, vf, vu = values["signed"], values["validFrom"], values["validUntil"]
        if not profile_ok or vf < signed:
            put("mso.validity", "failed", "MSO_MALFORMED")
        elif self.now + CLOCK_SKEW < vf:
            put("mso.validity", "failed", "MSO_NOT_YET_VALID")
        elif self.now - CLOCK_SKEW > vu:
            put("mso.validity", "failed", "MSO_EXPIRED")
        elif ds is not None and not (ds.not_valid_before_utc <= signed <= ds.not_valid_after_utc):
            put("mso.validity", "failed", "MSO_SIGNED_OUTSIDE_CERTIFICATE_VALIDITY")
        else:
            put("mso.validity", "passed")

        # mso.deviceKey: an EC2 COSE_Key (RFC 9053 7.1.1) on P-256/384/521, each coordinate as long as the field,
        # a point on the curve; another key type or curve (or a compressed point) is unsupported, not malformed.
        device_pub, key_code = device_key_from_cose(mso["deviceKeyInfo"]["deviceKey"])
        put("mso.deviceKey", *(("passed",) if key_code is None else ("failed", key_code)))

        # device.authentication
        dsigned = doc["deviceSigned"]
        dab = enc(tag24(enc(["DeviceAuthentication", cbor2.loads(transcript), doc["docType"],
                             dsigned["nameSpaces"]])))
        da = dsigned["deviceAuth"]
        if anchor is None:
            put("device.authentication", "notApplicable")  # the device key is not vouched for: not checked
        elif device_pub is None:
            put("device.authentication", "notApplicable")  # no usable device key: mso.deviceKey failed
        elif "deviceSignature" in da:
            p, u, _, s = da["deviceSignature"]
            ok = crit_ok(cbor2.loads(p), u) and cbor2.loads(p).get(1) == -7 and ecdsa_verify_raw(
                device_pub, s, enc(["Signature1", p, b"", dab]), hashes.SHA256())
            put("device.authentication", *(("passed",) if ok else ("failed", "DEVICE_SIGNATURE_INVALID")))
        else:
            if self.reader_key is None:
                put("device.authentication", "failed", "READER_KEY_REQUIRED")
            else:
                p, u, _, t = da["deviceMac"]
                key = emac_key(self.reader_key, device_pub, transcript)
                ok = crit_ok(cbor2.loads(p), u) and hmac.compare_digest(
                    hmac.new(key, enc(["MAC0", p, b"", dab]), hashlib.sha256).digest(), t)
                put("device.authentication", *(("passed",) if ok else ("failed", "DEVICE_MAC_INVALID")))

        # device.keyAuthorizations
        dns = cbor2.loads(dsigned["nameSpaces"].value)
        if not dns:
            put("device.keyAuthorizations", "notApplicable")
        else:
            ka = mso["deviceKeyInfo"].get("keyAuthorizations", {})
            ok = all(ns in ka.get("nameSpaces", []) or eid in ka.get("dataElements", {}).get(ns, [])
                     for ns, els in dns.items() for eid in els)
            put("device.keyAuthorizations", *(("passed",) if ok else ("failed", "DEVICE_KEY_UNAUTHORIZED")))

        # mso.status: nothing resolves status lists here, so a status reference is "unknown" (never revoked).
        put("mso.status", *(("failed", "STATUS_UNKNOWN") if "status" in mso else ("notApplicable",)))

        # issuer.certificateProfile: mandatory rules fail under "warn", recommendations (CRL DP) only warn.
        mandatory, recommended = [], []
        if ds is None:
            put("issuer.certificateProfile", "notApplicable")
        else:
            ds_c = _name_attr(ds.subject, NameOID.COUNTRY_NAME)
            if ds_c is None:
                mandatory.append("DS countryName missing")
            if issuing_country is not None and issuing_country != ds_c:
                mandatory.append("issuing_country != DS countryName")
            certs = [ds] + ([anchor] if anchor is not None else [])
            if anchor is not None:
                a_c = _name_attr(anchor.subject, NameOID.COUNTRY_NAME)
                if a_c is None:
                    mandatory.append("IACA countryName missing")
                elif ds_c is not None and a_c != ds_c:
                    mandatory.append("countryName differs")
                a_st = _name_attr(anchor.subject, NameOID.STATE_OR_PROVINCE_NAME)
                d_st = _name_attr(ds.subject, NameOID.STATE_OR_PROVINCE_NAME)
                if a_st is not None and a_st != d_st:
                    mandatory.append("stateOrProvinceName differs")
            for c in certs:
                try:
                    crl = c.extensions.get_extension_for_class(x509.CRLDistributionPoints).value
                    if not all(isinstance(n, x509.UniformResourceIdentifier) for dp in crl for n in dp.full_name or []):
                        recommended.append("CRL DP not URI")
                except x509.ExtensionNotFound:
                    recommended.append("CRL DP missing")
                if curve_name(c.public_key()) not in CURVES:
                    mandatory.append("curve")
            if not mandatory and not recommended:
                put("issuer.certificateProfile", "passed")
            else:
                fails = {"enforce": True, "warn": bool(mandatory), "lenient": False}[self.profile_mode]
                put("issuer.certificateProfile", "failed" if fails else "warning", "CERTIFICATE_PROFILE_VIOLATION")

        device_claims = {ns: dict(els) for ns, els in dns.items()}
        put("request.elements", "notApplicable")  # no request is known for these vectors
        return {k: checks[k] for k in ALL_CHECKS}, claims, device_claims


def json_claims(claims: dict) -> dict:
    def conv(v):
        if isinstance(v, (dt.date, dt.datetime)):
            return v.isoformat()
        if isinstance(v, bytes):
            return v.hex()
        if isinstance(v, list):
            return [conv(x) for x in v]
        if isinstance(v, dict):
            return {k: conv(x) for k, x in v.items()}
        if isinstance(v, CBORTag):
            return conv(v.value)
        return v
    return {ns: {k: conv(v) for k, v in els.items()} for ns, els in claims.items()}


# --------------------------------------------------------------------------------------------------
# mdoc cases
# --------------------------------------------------------------------------------------------------

def expected_checks(failed: dict[str, str] | None = None, device_signed: bool = False, status: bool = False,
                    profile: str | None = None) -> dict:
    checks = {c: {"outcome": "passed"} for c in ALL_CHECKS}
    checks["device.keyAuthorizations"] = {"outcome": "passed"} if device_signed else {"outcome": "notApplicable"}
    checks["mso.status"] = {"outcome": "failed", "code": "STATUS_UNKNOWN"} if status else {"outcome": "notApplicable"}
    # no request is given with these vectors, so the answer is not compared with one
    checks["request.elements"] = {"outcome": "notApplicable"}
    if profile:
        checks["issuer.certificateProfile"] = {"outcome": profile, "code": "CERTIFICATE_PROFILE_VIOLATION"}
    for c, code in (failed or {}).items():
        checks[c] = {"outcome": "failed", "code": code}
    return checks


@dataclass
class MdocCase:
    name: str
    description: str
    spec: DocSpec | None
    anchors: list[str]
    failed: dict[str, str] = field(default_factory=dict)
    profile_checks: str = "warn"
    profile_outcome: str | None = None  # "warning" | "failed"
    device_signed: bool = False
    status: bool = False
    verification_time: str = DEFAULT_VERIFICATION_TIME
    raw: bytes | None = None  # for malformed cases
    malformed_from: str | None = None  # "trailing" | "empty-documents" | "not-cbor"
    claims: dict | None = None
    readerPrivateKey: ec.EllipticCurvePrivateKey | None = None  # noqa: N815 - for deviceMac cases
    device_claims: dict | None = None
    overrides: dict = field(default_factory=dict)  # check -> expected result, beyond `failed`


# Without a trusted path the verifier does not check signatures whose cost the sender chooses.
NOT_CHECKED_WITHOUT_TRUST = {"issuer.signature": {"outcome": "notApplicable"},
                             "device.authentication": {"outcome": "notApplicable"}}

DEVICE_ELEMENTS = {DEVICE_NS: {"device_note": "signed by the holder's device", "device_counter": 7}}


def mdoc_cases() -> list[MdocCase]:
    reader = derive_key("reader/mac")
    C: list[MdocCase] = []
    A256 = ["../pki/iaca-p256.pem"]

    def pos(name, desc, spec, anchors=A256, **kw):
        C.append(MdocCase(name, desc, spec, anchors, claims=kw.pop("claims", DEFAULT_CLAIMS), **kw))

    def neg(name, desc, spec, failed, anchors=A256, **kw):
        C.append(MdocCase(name, desc, spec, anchors, failed=failed, **kw))

    # ---- positive
    pos("valid-p256-sha256-signature",
        "P-256 IACA + DS, ES256 issuerAuth, SHA-256 digests, ES256 deviceSignature, x5chain as a single bstr.",
        DocSpec("valid-p256-sha256-signature"))
    pos("valid-p384-sha384-signature",
        "P-384 IACA + DS, ES384 (-35) issuerAuth, SHA-384 digests; device key P-256 ES256.",
        DocSpec("valid-p384-sha384-signature", ds="ds-p384", digest_alg="SHA-384"),
        anchors=["../pki/iaca-p256.pem", "../pki/iaca-p384.pem"])
    pos("valid-p521-sha512-signature",
        "P-521 IACA + DS, ES512 (-36) issuerAuth, SHA-512 digests.",
        DocSpec("valid-p521-sha512-signature", ds="ds-p521", digest_alg="SHA-512"),
        anchors=["../pki/iaca-p521.pem"])
    pos("valid-sha512-digests",
        "P-256 DS with ES256, MSO digestAlgorithm SHA-512.",
        DocSpec("valid-sha512-digests", digest_alg="SHA-512"))
    pos("valid-x5chain-array",
        "x5chain (label 33) in the unprotected header as an array [DS].",
        DocSpec("valid-x5chain-array", x5chain_mode="array"))
    pos("valid-x5chain-array-with-iaca",
        "x5chain as an array [DS, IACA]: the trust anchor itself is also in the chain.",
        DocSpec("valid-x5chain-array-with-iaca", x5chain=["ds-p256", "iaca-p256"], x5chain_mode="array"))
    pos("valid-x5chain-protected",
        "x5chain (single bstr) in the protected header {1: -7, 33: DS}; unprotected header is {}.",
        DocSpec("valid-x5chain-protected", x5chain_mode="protected"))
    pos("valid-device-mac",
        "deviceMac (COSE_Mac0, alg 5 HMAC 256/256). EMacKey from ECDH(readerPrivateKey, MSO deviceKey), "
        "salt SHA-256(#6.24(SessionTranscript)). The transcript is [DeviceEngagementBytes, EReaderKeyBytes, null] "
        "with EReaderKey = the public key of readerPrivateKey.",
        DocSpec("valid-device-mac", device_auth="mac", reader_key=reader,
                transcript=qr_like_transcript("valid-device-mac", reader)),
        readerPrivateKey=reader)
    pos("valid-device-signed-keyauth-namespaces",
        f"Device-signed elements in {DEVICE_NS}; MSO keyAuthorizations {{nameSpaces: [{DEVICE_NS}]}}.",
        DocSpec("valid-device-signed-keyauth-namespaces", device_elements=DEVICE_ELEMENTS,
                key_authorizations={"nameSpaces": [DEVICE_NS]}), device_signed=True)
    pos("valid-device-signed-keyauth-dataelements",
        "Device-signed elements device_note and device_counter; MSO keyAuthorizations dataElements lists both.",
        DocSpec("valid-device-signed-keyauth-dataelements", device_elements=DEVICE_ELEMENTS,
                key_authorizations={"dataElements": {DEVICE_NS: ["device_note", "device_counter"],
                                                     MDL_NS: ["age_over_18"]}}), device_signed=True)
    neg("mso-tdate-fractional-seconds",
        "validityInfo tdates with fractional seconds (e.g. 2024-06-01T00:00:00.125Z): ISO 18013-5 9.1.2.4 "
        "forbids fractions of seconds.",
        DocSpec("mso-tdate-fractional-seconds", signed="2024-06-01T00:00:00.125Z",
                valid_from="2024-06-01T00:00:00.125Z", valid_until="2073-01-01T00:00:00.999Z"),
        {"mso.validity": "MSO_MALFORMED"})
    neg("mso-tdate-offset",
        "validityInfo tdates with a +02:00 offset: ISO 18013-5 9.1.2.4 wants UTC with \"Z\".",
        DocSpec("mso-tdate-offset", signed="2024-06-01T02:00:00+02:00", valid_from="2029-01-01T01:00:00+02:00",
                valid_until="2073-01-01T02:00:00+02:00"),
        {"mso.validity": "MSO_MALFORMED"})
    neg("mso-tdate-untagged",
        "validUntil is a plain text string \"2073-01-01T00:00:00Z\" without tag 0.",
        DocSpec("mso-tdate-untagged", untagged_validity=("validUntil",)), {"mso.validity": "MSO_MALFORMED"})
    neg("mso-validfrom-before-signed",
        "validFrom 2024-06-01T00:00:00Z is earlier than signed 2024-06-02T00:00:00Z (ISO 18013-5 9.1.2.4).",
        DocSpec("mso-validfrom-before-signed", signed="2024-06-02T00:00:00Z", valid_from="2024-06-01T00:00:00Z"),
        {"mso.validity": "MSO_MALFORMED"})
    # The device key is in the issuer-signed MSO: a malformed one is the issuer's defect (MSO_MALFORMED), and the
    # device signature is then not checked.
    no_device_key = {"device.authentication": {"outcome": "notApplicable"}}
    neg("mso-device-key-short-x",
        "deviceKeyInfo.deviceKey is an EC2 P-256 COSE_Key whose x is 31 bytes (the leading byte dropped); RFC 9053 "
        "7.1.1 wants exactly 32.",
        DocSpec("mso-device-key-short-x", device_cose_key=lambda x, y: {1: 2, -1: 1, -2: x[1:], -3: y}),
        {"mso.deviceKey": "MSO_MALFORMED"}, overrides=no_device_key)
    neg("mso-device-key-off-curve",
        "deviceKeyInfo.deviceKey is an EC2 P-256 COSE_Key whose point is not on the curve (last bit of y flipped).",
        DocSpec("mso-device-key-off-curve",
                device_cose_key=lambda x, y: {1: 2, -1: 1, -2: x, -3: y[:-1] + bytes([y[-1] ^ 1])}),
        {"mso.deviceKey": "MSO_MALFORMED"}, overrides=no_device_key)
    neg("mso-device-key-okp",
        "deviceKeyInfo.deviceKey is an OKP (kty 1) Ed25519 key: well formed, but not a key type this verifier "
        "implements.",
        DocSpec("mso-device-key-okp", device_cose_key=lambda x, y: {1: 1, -1: 6, -2: x}),
        {"mso.deviceKey": "ALGORITHM_UNSUPPORTED"}, overrides=no_device_key)
    pos("valid-full-date-as-text",
        "full-date elements (birth_date, issue_date, expiry_date, driving_privileges dates) as plain tstr "
        "\"1971-09-01\" instead of tag 1004.",
        DocSpec("valid-full-date-as-text", elements=default_elements(tagged_dates=False)))
    pos("valid-expected-update",
        "validityInfo carries expectedUpdate 2025-06-01T00:00:00Z (in the past at verification time: informative "
        "only, not a failure).",
        DocSpec("valid-expected-update", expected_update="2025-06-01T00:00:00Z"))
    pos("valid-validfrom-within-clock-skew",
        "MSO validFrom is 240 s after the verification time (inside the 300 s skew).",
        DocSpec("valid-validfrom-within-clock-skew", valid_from="2030-01-01T00:04:00Z"))
    pos("valid-validuntil-within-clock-skew",
        "MSO validUntil is 240 s before the verification time (inside the 300 s skew).",
        DocSpec("valid-validuntil-within-clock-skew", valid_until="2029-12-31T23:56:00Z"))
    pos("valid-extra-namespace",
        "A second issuer namespace org.iso.18013.5.1.aamva with two elements (each namespace also has one "
        "undisclosed digest).",
        DocSpec("valid-extra-namespace", extra_namespaces={"org.iso.18013.5.1.aamva": [
            ("DHS_compliance", "F"), ("sex", 2)]}))

    # ---- certificate chain
    neg("untrusted-issuer", "DS issued by iaca-other, which is not a configured trust anchor.",
        DocSpec("untrusted-issuer", ds="ds-other"),
        {"issuer.certificateChain": "ISSUER_CERTIFICATE_UNTRUSTED"},
        anchors=["../pki/iaca-p256.pem", "../pki/iaca-p384.pem"], overrides=NOT_CHECKED_WITHOUT_TRUST)
    neg("ds-expired", "DS valid 2024-01-01..2025-01-01, MSO signed 2024-06-01 (inside DS validity), verified at 2030.",
        DocSpec("ds-expired", ds="ds-p256-expired"),
        {"issuer.certificateChain": "ISSUER_CERTIFICATE_EXPIRED"})
    neg("iaca-expired", "IACA valid 2024-01-01..2025-01-01, DS under it valid to 2074, verified at 2030.",
        DocSpec("iaca-expired", ds="ds-under-expired-iaca"),
        {"issuer.certificateChain": "TRUSTED_ISSUER_CERTIFICATE_EXPIRED"}, anchors=["../pki/iaca-expired.pem"])
    neg("ds-without-mdl-eku", "DS certificate without the mdlDS EKU 1.0.18013.5.1.2.",
        DocSpec("ds-without-mdl-eku", ds="ds-p256-no-eku"),
        {"issuer.certificateChain": "ISSUER_CERTIFICATE_INVALID"})
    neg("ds-without-digital-signature", "DS certificate KeyUsage is keyCertSign only (no digitalSignature).",
        DocSpec("ds-without-digital-signature", ds="ds-p256-no-digitalsignature"),
        {"issuer.certificateChain": "ISSUER_CERTIFICATE_INVALID"})

    # ---- profile: mandatory Annex B rules fail under "warn" too; only recommendations (CRL DP) warn
    for mode, outcome in (("warn", "failed"), ("enforce", "failed")):
        neg(f"profile-iaca-without-country-{mode}",
            f"IACA without countryName (DS has C=US). profileChecks={mode}.",
            DocSpec(f"profile-iaca-without-country-{mode}", ds="ds-under-no-country-iaca"),
            {}, anchors=["../pki/iaca-no-country.pem"], profile_checks=mode, profile_outcome=outcome)
        neg(f"profile-country-mismatch-{mode}",
            f"IACA C=US but DS C=CA (issuing_country CA = DS countryName). profileChecks={mode}.",
            DocSpec(f"profile-country-mismatch-{mode}", ds="ds-p256-country-mismatch",
                    elements=default_elements(issuing_country="CA")),
            {}, profile_checks=mode, profile_outcome=outcome)
    neg("profile-issuing-country-mismatch-warn",
        "issuing_country element is \"CA\" while the DS (and IACA) countryName is US (mandatory). profileChecks=warn.",
        DocSpec("profile-issuing-country-mismatch-warn", elements=default_elements(issuing_country="CA")),
        {}, profile_checks="warn", profile_outcome="failed")
    neg("profile-country-mismatch-lenient",
        "IACA C=US but DS C=CA, with the anchor's mode lenient: every finding is a warning.",
        DocSpec("profile-country-mismatch-lenient", ds="ds-p256-country-mismatch",
                elements=default_elements(issuing_country="CA")),
        {}, profile_checks="lenient", profile_outcome="warning")
    neg("profile-crldp-dnsname-warn",
        "DS CRL distribution point is a dNSName, not a URI (a recommendation). profileChecks=warn.",
        DocSpec("profile-crldp-dnsname-warn", ds="ds-p256-crldp-dns"),
        {}, profile_checks="warn", profile_outcome="warning")
    neg("profile-crldp-dnsname-enforce",
        "DS CRL distribution point is a dNSName, not a URI. profileChecks=enforce.",
        DocSpec("profile-crldp-dnsname-enforce", ds="ds-p256-crldp-dns"),
        {}, profile_checks="enforce", profile_outcome="failed")

    # ---- certification path (the IACA profile allows no intermediate CA; caps before any signature)
    neg("chain-intermediate-ca",
        "DS issued by ica-p256, an intermediate CA that iaca-p256 signed; x5chain [DS, intermediate]. Every "
        "signature and validity period holds, but the IACA profile allows no intermediate CA.",
        DocSpec("chain-intermediate-ca", ds="ds-under-ica", x5chain=["ds-under-ica", "ica-p256"],
                x5chain_mode="array"),
        {"issuer.certificateChain": "ISSUER_CERTIFICATE_INVALID"}, overrides=NOT_CHECKED_WITHOUT_TRUST)
    neg("chain-intermediate-not-ca",
        "DS issued by ica-not-ca-p256, a certificate with cA false and no keyCertSign; x5chain [DS, it].",
        DocSpec("chain-intermediate-not-ca", ds="ds-under-not-ca", x5chain=["ds-under-not-ca", "ica-not-ca-p256"],
                x5chain_mode="array"),
        {"issuer.certificateChain": "ISSUER_CERTIFICATE_INVALID"}, overrides=NOT_CHECKED_WITHOUT_TRUST)
    neg("chain-too-long",
        "x5chain holds 6 certificates (the cap is 5): refused unread; without a trusted path the issuer and "
        "device signatures are not checked and the profile is not applicable.",
        DocSpec("chain-too-long", x5chain=["ds-p256", "iaca-p256", "ica-p256", "ica-not-ca-p256", "iaca-p384",
                                           "iaca-other"], x5chain_mode="array"),
        {"issuer.certificateChain": "ISSUER_CERTIFICATE_INVALID"},
        overrides=NOT_CHECKED_WITHOUT_TRUST | {"issuer.certificateProfile": {"outcome": "notApplicable"}})
    neg("ds-key-not-allowed",
        "DS (under iaca-p256) with a secp256k1 key; issuerAuth alg -7 signed with that key. Refused before any "
        "signature work: no usable document signer certificate, so the chain is invalid, the signatures are not "
        "checked and the profile is not applicable.",
        DocSpec("ds-key-not-allowed", ds="ds-p256-secp256k1", alg="ES256"),
        {"issuer.certificateChain": "ISSUER_CERTIFICATE_INVALID"},
        overrides=NOT_CHECKED_WITHOUT_TRUST | {"issuer.certificateProfile": {"outcome": "notApplicable"}})

    # ---- COSE crit (RFC 9052 3.1)
    pos("valid-crit-understood",
        "issuerAuth protected header {1: -7, 2: [33], 33: DS}: crit lists x5chain, which the verifier processes.",
        DocSpec("valid-crit-understood", x5chain_mode="protected", issuer_protected_extra={2: [33]}))
    neg("issuer-crit-unknown-label", "issuerAuth protected {1: -7, 2: [99], 99: \"x\"}: crit lists a label the "
        "verifier does not understand (properly signed).",
        DocSpec("issuer-crit-unknown-label", issuer_protected_extra={2: [99], 99: "x"}),
        {"issuer.signature": "ISSUER_SIGNATURE_INVALID"})
    neg("issuer-crit-unprotected", "crit [99] (and 99) in the unprotected header: crit must be protected.",
        DocSpec("issuer-crit-unprotected", issuer_unprotected_extra={2: [99], 99: "x"}),
        {"issuer.signature": "ISSUER_SIGNATURE_INVALID"})
    neg("issuer-crit-empty", "issuerAuth protected {1: -7, 2: []}: crit must be a non-empty array.",
        DocSpec("issuer-crit-empty", issuer_protected_extra={2: []}), {"issuer.signature": "ISSUER_SIGNATURE_INVALID"})
    neg("device-crit-unknown-label", "deviceSignature protected {1: -7, 2: [99], 99: \"x\"}, properly signed.",
        DocSpec("device-crit-unknown-label", device_protected_extra={2: [99], 99: "x"}),
        {"device.authentication": "DEVICE_SIGNATURE_INVALID"})
    neg("device-mac-crit-unknown-label", "deviceMac protected {1: 5, 2: [99], 99: \"x\"}, properly MACed.",
        DocSpec("device-mac-crit-unknown-label", device_auth="mac", reader_key=reader,
                device_protected_extra={2: [99], 99: "x"},
                transcript=qr_like_transcript("device-mac-crit-unknown-label", reader)),
        {"device.authentication": "DEVICE_MAC_INVALID"}, readerPrivateKey=reader)

    # ---- provenance: the holder's device signs an element the issuer also signed
    pos("valid-device-signed-overlaps-issuer",
        "keyAuthorizations nameSpaces [org.iso.18013.5.1]; the device signs family_name \"Holder-Asserted\" while "
        "the issuer signed \"Mustermann\". Both verify; they are different facts.",
        DocSpec("valid-device-signed-overlaps-issuer", device_elements={MDL_NS: {"family_name": "Holder-Asserted"}},
                key_authorizations={"nameSpaces": [MDL_NS]}),
        device_signed=True, device_claims={MDL_NS: {"family_name": "Holder-Asserted"}})

    # ---- issuer signature
    neg("issuer-signature-invalid", "First byte of the issuerAuth signature flipped (MSO, digests unchanged).",
        DocSpec("issuer-signature-invalid", tamper="issuer-sig"), {"issuer.signature": "ISSUER_SIGNATURE_INVALID"})
    neg("issuer-alg-ps256", "issuerAuth protected header alg -37 (PS256); the signature bytes are an ES256 "
        "signature from the (P-256) DS key.",
        DocSpec("issuer-alg-ps256", alg="PS256"), {"issuer.signature": "ALGORITHM_UNSUPPORTED"})
    neg("issuer-alg-es384-on-p256-key", "issuerAuth alg -35 (ES384) but the DS key is P-256 (signature made "
        "with the P-256 key over SHA-384, 64 bytes).",
        DocSpec("issuer-alg-es384-on-p256-key", alg="ES384", sign_hash=hashes.SHA384()),
        {"issuer.signature": "ALGORITHM_UNSUPPORTED"})

    # ---- MSO
    neg("doctype-mismatch", "Document.docType org.iso.18013.5.1.mDL but MSO docType org.example.not-mdl "
        "(deviceSignature is over the Document docType).",
        DocSpec("doctype-mismatch", mso_doc_type="org.example.not-mdl"), {"mso.docType": "DOC_TYPE_MISMATCH"})
    neg("digest-mismatch", "family_name changed to \"Musterfrau\" after signing.",
        DocSpec("digest-mismatch", tamper="digest"), {"issuer.valueDigests": "DIGEST_MISMATCH"})
    neg("digest-missing-id", "An extra disclosed item (resident_city, digestID 999) with no digest in the MSO.",
        DocSpec("digest-missing-id", undigested_item=(MDL_NS, 999)), {"issuer.valueDigests": "DIGEST_MISSING"})
    neg("digest-missing-namespace", "A disclosed item in namespace org.example.undigested that has no "
        "valueDigests entry at all.",
        DocSpec("digest-missing-namespace", undigested_item=("org.example.undigested", 0)),
        {"issuer.valueDigests": "DIGEST_MISSING"})
    neg("digest-algorithm-unsupported", "MSO digestAlgorithm \"SHA-1\" (digests computed with SHA-1).",
        DocSpec("digest-algorithm-unsupported", digest_alg="SHA-1", digest_fn=hashlib.sha1),
        {"issuer.valueDigests": "DIGEST_ALGORITHM_UNSUPPORTED"})
    neg("mso-expired", "MSO validUntil 2029-01-01T00:00:00Z, verified 2030-01-01.",
        DocSpec("mso-expired", valid_until="2029-01-01T00:00:00Z"), {"mso.validity": "MSO_EXPIRED"})
    neg("mso-expired-beyond-skew", "MSO validUntil 2029-12-31T23:54:59Z: 301 s before the verification time.",
        DocSpec("mso-expired-beyond-skew", valid_until="2029-12-31T23:54:59Z"), {"mso.validity": "MSO_EXPIRED"})
    neg("mso-not-yet-valid", "MSO validFrom 2031-01-01T00:00:00Z (signed 2024-06-01), verified 2030-01-01.",
        DocSpec("mso-not-yet-valid", valid_from="2031-01-01T00:00:00Z"), {"mso.validity": "MSO_NOT_YET_VALID"})
    neg("mso-not-yet-valid-beyond-skew", "MSO validFrom 2030-01-01T00:05:01Z: 301 s after the verification time.",
        DocSpec("mso-not-yet-valid-beyond-skew", valid_from="2030-01-01T00:05:01Z"),
        {"mso.validity": "MSO_NOT_YET_VALID"})
    neg("mso-signed-outside-certificate-validity",
        "MSO signed 2023-06-01 (before DS notBefore 2024-01-01); validFrom 2024-06-01, DS valid at 2030.",
        DocSpec("mso-signed-outside-certificate-validity", signed="2023-06-01T00:00:00Z"),
        {"mso.validity": "MSO_SIGNED_OUTSIDE_CERTIFICATE_VALIDITY"})

    # ---- device
    neg("device-signature-invalid", "Last byte of the deviceSignature flipped.",
        DocSpec("device-signature-invalid", tamper="device-sig"),
        {"device.authentication": "DEVICE_SIGNATURE_INVALID"})
    neg("device-mac-invalid", "First byte of the deviceMac tag flipped; readerPrivateKey given.",
        DocSpec("device-mac-invalid", device_auth="mac", reader_key=reader, tamper="device-mac",
                transcript=qr_like_transcript("device-mac-invalid", reader)),
        {"device.authentication": "DEVICE_MAC_INVALID"}, readerPrivateKey=reader)
    C.append(MdocCase("malformed-device-auth-neither",
                      "deviceAuth is an empty map: ISO 18013-5 9.1.3.4 requires exactly one of deviceSignature and "
                      "deviceMac, so the response is malformed.",
                      DocSpec("malformed-device-auth-neither", device_auth="none"), A256, malformed_from="as-issued"))
    C.append(MdocCase("malformed-device-auth-both",
                      "deviceAuth holds a valid deviceSignature and a valid deviceMac: exactly one is allowed.",
                      DocSpec("malformed-device-auth-both", device_auth="both", reader_key=reader,
                              transcript=qr_like_transcript("malformed-device-auth-both", reader)),
                      A256, malformed_from="as-issued", readerPrivateKey=reader))
    neg("device-mac-without-reader-key", "Valid deviceMac, but no readerPrivateKey is configured.",
        DocSpec("device-mac-without-reader-key", device_auth="mac", reader_key=reader,
                transcript=qr_like_transcript("device-mac-without-reader-key", reader)),
        {"device.authentication": "READER_KEY_REQUIRED"})
    neg("device-key-unauthorized", "Device signs device_note and device_counter; keyAuthorizations dataElements "
        "lists device_note only.",
        DocSpec("device-key-unauthorized", device_elements=DEVICE_ELEMENTS,
                key_authorizations={"dataElements": {DEVICE_NS: ["device_note"]}}),
        {"device.keyAuthorizations": "DEVICE_KEY_UNAUTHORIZED"}, device_signed=True)
    neg("device-key-unauthorized-no-keyauth", "Device-signed elements but the MSO has no keyAuthorizations.",
        DocSpec("device-key-unauthorized-no-keyauth", device_elements=DEVICE_ELEMENTS),
        {"device.keyAuthorizations": "DEVICE_KEY_UNAUTHORIZED"}, device_signed=True)

    # ---- status
    C.append(MdocCase("mso-status-unresolved",
                      "MSO has status {status_list: {idx: 7, uri: https://example.com/statuslists/1}}; verified "
                      "with no status evidence (as the engine alone is), mso.status fails STATUS_UNKNOWN, never "
                      "revoked. TestVectors/status has the fetched cases.",
                      DocSpec("mso-status-unresolved", status={"status_list": {
                          "idx": 7, "uri": "https://example.com/statuslists/1"}}),
                      A256, status=True, claims=DEFAULT_CLAIMS))

    # ---- malformed
    for name, desc, how in (
        ("malformed-not-cbor", "DeviceResponse bytes are not CBOR (reserved additional info 28, then text).",
         "not-cbor"),
        ("malformed-trailing-bytes", "A valid DeviceResponse followed by one extra byte 0x00.", "trailing"),
        ("malformed-empty-documents", "DeviceResponse with \"documents\": [] (otherwise valid).",
         "empty-documents"),
        ("malformed-truncated", "A valid DeviceResponse with its last byte removed.", "truncated"),
    ):
        C.append(MdocCase(name, desc, DocSpec(name), A256, malformed_from=how))
    return C


def build_mdoc(pki: PKI, out: Path) -> None:
    manifest_cases = []
    for case in mdoc_cases():
        spec = case.spec
        reader_key = case.readerPrivateKey
        doc, transcript = issue_document(spec, pki)
        if case.malformed_from is None:
            data = device_response([doc])
        elif case.malformed_from == "trailing":
            data = device_response([doc]) + b"\x00"
        elif case.malformed_from == "truncated":
            data = device_response([doc])[:-1]
        elif case.malformed_from == "empty-documents":
            data = device_response([])
        elif case.malformed_from == "as-issued":
            data = device_response([doc])
        else:
            data = b"\x1cnot CBOR: " + seed_bytes("not-cbor", 8)
        if case.malformed_from is not None:
            expect = {"verified": False, "failedCodes": ["DEVICE_RESPONSE_MALFORMED"]}
        else:
            failed = set(case.failed.values())
            if case.profile_outcome == "failed":
                failed.add("CERTIFICATE_PROFILE_VIOLATION")
            if case.status:
                failed.add("STATUS_UNKNOWN")
            checks = expected_checks(case.failed, case.device_signed, case.status, case.profile_outcome)
            checks.update(case.overrides)
            expect = {
                "verified": not failed,
                "failedCodes": sorted(failed),
                "checks": checks,
            }
            if case.claims:
                expect["claims"] = case.claims
            if case.device_claims:
                expect["deviceSignedClaims"] = case.device_claims

        # independent re-check
        anchors = [x509.load_pem_x509_certificate(Path(os.path.normpath(out / a)).read_bytes()) for a in case.anchors]
        mv = MiniVerifier(anchors, d(case.verification_time), case.profile_checks, reader_key)
        got = mv.verify_response(data, transcript)
        assert got["verified"] == expect["verified"], (case.name, got)
        assert got["failedCodes"] == expect["failedCodes"], (case.name, got["failedCodes"], expect["failedCodes"])
        if "checks" in expect:
            assert got["checks"] == expect["checks"], (case.name, got["checks"])
        if "claims" in expect:
            gc = json_claims(got["claims"])
            for ns, els in expect["claims"].items():
                for k, v in els.items():
                    assert gc[ns][k] == v, (case.name, ns, k, gc[ns][k], v)
        if "deviceSignedClaims" in expect:
            assert json_claims(got["deviceClaims"]) == expect["deviceSignedClaims"], (case.name, got["deviceClaims"])

        write_hex(out / "cases" / f"{case.name}.deviceresponse.hex", data)
        write_hex(out / "cases" / f"{case.name}.transcript.hex", transcript)
        manifest_cases.append({
            "name": case.name,
            "description": case.description,
            "deviceResponse": f"cases/{case.name}.deviceresponse.hex",
            "sessionTranscript": f"cases/{case.name}.transcript.hex",
            "trustAnchors": case.anchors,
            "readerPrivateKey": raw_scalar(reader_key).hex() if reader_key else None,
            "verificationTime": case.verification_time,
            "profileChecks": case.profile_checks,
            "expect": expect,
        })
    write_json(out / "manifest.json", {
        "generator": "TestVectors/generator/generate.py",
        "description": "ISO/IEC 18013-5 DeviceResponse verification cases. TEST-ONLY keys and certificates. "
                       "Paths are relative to this manifest's folder. checks lists every check of the first "
                       "(only) document; claims is a subset of the disclosed issuer-signed elements, JSON-typed "
                       "(full-date -> \"YYYY-MM-DD\").",
        "clockSkewSeconds": int(CLOCK_SKEW.total_seconds()),
        "cases": manifest_cases,
    })




# --------------------------------------------------------------------------------------------------
# Apple envelope
# --------------------------------------------------------------------------------------------------

HPKE_SUITE = CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)


def apple_transcript(nonce: bytes, merchant_id: str, team_id: str, pkr_hash: bytes) -> bytes:
    return enc([None, None, ["AppleIdentityPresentment_1.0", nonce, merchant_id, team_id, pkr_hash]])


def apple_seal(recipient_pub: ec.EllipticCurvePublicKey, plaintext: bytes, nonce: bytes, merchant_id: str,
               team_id: str, eph_label: str | None, algorithm: str = "APPLE-HPKE-v1",
               mode: int = 0) -> tuple[bytes, bytes]:
    """Return (envelope bytes, SessionTranscript bytes). The HPKE ephemeral key is derived from eph_label, or fresh
    and random when eph_label is None."""
    pkr_hash = hashlib.sha256(uncompressed(recipient_pub)).digest()
    transcript = apple_transcript(nonce, merchant_id, team_id, pkr_hash)
    eph = (derive_key("hpke-ephemeral/" + eph_label) if eph_label is not None
           else ec.generate_private_key(ec.SECP256R1()))
    eks = KEMKeyPair(KEMKey.from_pyca_cryptography_key(eph), KEMKey.from_pyca_cryptography_key(eph.public_key()))
    pk_em, ctx = HPKE_SUITE.create_sender_context(KEMKey.from_pyca_cryptography_key(recipient_pub),
                                                  info=transcript, eks=eks)
    assert pk_em == uncompressed(eph.public_key())
    data = ctx.seal(plaintext, aad=b"")
    envelope = enc({"algorithm": algorithm,
                    "params": {"mode": mode, "pkEm": pk_em, "pkRHash": pkr_hash,
                               "infoHash": hashlib.sha256(transcript).digest()},
                    "data": data})
    return envelope, transcript


def apple_open(envelope: bytes, keys: list[ec.EllipticCurvePrivateKey], nonce: bytes, merchant_id: str,
               team_id: str) -> tuple[str | None, bytes | None, bytes | None]:
    """Independent open: returns (error code or None, plaintext, transcript)."""
    env = strict_loads(envelope)
    if env.get("algorithm") != "APPLE-HPKE-v1" or env["params"].get("mode") != 0:
        return "ENVELOPE_UNSUPPORTED", None, None
    p = env["params"]
    key = next((k for k in keys if hashlib.sha256(uncompressed(k.public_key())).digest() == p["pkRHash"]), None)
    if key is None:
        return "RECIPIENT_KEY_UNKNOWN", None, None
    transcript = apple_transcript(nonce, merchant_id, team_id, p["pkRHash"])
    assert hashlib.sha256(transcript).digest() == p["infoHash"]
    ctx = HPKE_SUITE.create_recipient_context(p["pkEm"], KEMKey.from_pyca_cryptography_key(key), info=transcript)
    return None, ctx.open(env["data"], aad=b""), transcript


APPLE_MERCHANT = "com.example.verifierd.test"
APPLE_TEAM = "VERIFIERD1"


def build_apple(pki: PKI, out: Path) -> None:
    m1 = derive_key("apple/merchant-1")
    m2 = derive_key("apple/merchant-2")
    m3 = derive_key("apple/merchant-3-not-configured")
    write_text(out / "keys" / "merchant-1.pem", sec1_pem(m1))
    write_text(out / "keys" / "merchant-2.pem", pkcs8_pem(m2))
    write_text(out / "keys" / "not-configured" / "merchant-3.pem", pkcs8_pem(m3))
    key_files = ["keys/merchant-1.pem", "keys/merchant-2.pem"]
    configured = [m1, m2]
    anchors = ["../pki/iaca-p256.pem", "../pki/iaca-p384.pem"]

    def topics_for(label: str, recipient, nonce: bytes, spec_kw=None) -> tuple[bytes, bytes]:
        """DeviceResponse whose device signature covers the Apple transcript; returns (response, transcript)."""
        pkr_hash = hashlib.sha256(uncompressed(recipient.public_key())).digest()
        transcript = apple_transcript(nonce, APPLE_MERCHANT, APPLE_TEAM, pkr_hash)
        doc, _ = issue_document(DocSpec("apple/" + label, transcript=transcript, **(spec_kw or {})), pki)
        return device_response([doc]), transcript

    cases = []

    def add(name, desc, recipient, nonce, plaintext_fn, expect, algorithm="APPLE-HPKE-v1", mode=0,
            write_plaintext=False):
        resp, _ = topics_for(name, recipient, nonce)
        plaintext = plaintext_fn(resp)
        envelope, transcript = apple_seal(recipient.public_key(), plaintext, nonce, APPLE_MERCHANT, APPLE_TEAM,
                                          "apple/" + name, algorithm=algorithm, mode=mode)
        # independent re-check
        err, pt, tr = apple_open(envelope, configured, nonce, APPLE_MERCHANT, APPLE_TEAM)
        if err is None:
            assert pt == plaintext and tr == transcript
            anchors_c = [x509.load_pem_x509_certificate(Path(os.path.normpath(out / a)).read_bytes()) for a in anchors]
            mv = MiniVerifier(anchors_c, d(DEFAULT_VERIFICATION_TIME), "warn", None)
            try:
                topics = strict_loads(pt)
                inner = enc(topics["identity"]) if set(topics) == {"identity"} else None
            except Exception:  # noqa: BLE001
                inner = None
            if inner is None:
                got_code, got_failed = "DEVICE_RESPONSE_MALFORMED", ["DEVICE_RESPONSE_MALFORMED"]
            else:
                got = mv.verify_response(inner, transcript)
                got_failed = got["failedCodes"]
                got_code = got_failed[0] if got_failed else None
                if expect.get("claims"):
                    gc = json_claims(got["claims"])
                    for ns, els in expect["claims"].items():
                        for k, v in els.items():
                            assert gc[ns][k] == v, (name, k)
        else:
            got_code, got_failed = err, [err]
        assert got_code == expect["code"], (name, got_code, expect)
        assert got_failed == expect["failedCodes"], (name, got_failed, expect)
        write_hex(out / "cases" / f"{name}.envelope.hex", envelope)
        if write_plaintext:
            write_hex(out / "cases" / f"{name}.plaintext.hex", plaintext)
        cases.append({"name": name, "description": desc, "envelope": f"cases/{name}.envelope.hex",
                      "plaintext": f"cases/{name}.plaintext.hex" if write_plaintext else None,
                      "nonce": nonce.hex(), "merchantId": APPLE_MERCHANT, "teamId": APPLE_TEAM,
                      "keys": key_files, "trustAnchors": anchors, "verificationTime": DEFAULT_VERIFICATION_TIME,
                      "expect": expect})

    ok = {"verified": True, "code": None, "failedCodes": [], "claims": DEFAULT_CLAIMS}
    topics = lambda resp: enc({"identity": cbor2.loads(resp)})  # noqa: E731
    # re-encoding of the decoded response is byte-identical (asserted here once)
    resp0, _ = topics_for("valid-merchant-1", m1, seed_bytes("apple/nonce/valid-merchant-1", 32))
    assert enc(cbor2.loads(resp0)) == resp0

    def malformed(code="DEVICE_RESPONSE_MALFORMED"):
        return {"verified": False, "code": code, "failedCodes": [code]}

    add("valid-merchant-1", "Valid envelope sealed to merchant-1 (P-256 issuer, 32-byte nonce).", m1,
        seed_bytes("apple/nonce/valid-merchant-1", 32), topics, ok, write_plaintext=True)
    add("valid-merchant-2", "Valid envelope sealed to merchant-2 (64-byte nonce, the maximum).", m2,
        seed_bytes("apple/nonce/valid-merchant-2", 64), topics, ok, write_plaintext=True)
    add("valid-merchant-1-one-byte-nonce", "Valid envelope sealed to merchant-1 with a 1-byte nonce.", m1,
        seed_bytes("apple/nonce/one-byte", 1), topics, ok, write_plaintext=True)
    add("recipient-key-unknown", "Sealed to a third key (keys/not-configured/merchant-3.pem) that is not "
        "configured; pkRHash matches no configured key.", m3, seed_bytes("apple/nonce/unknown", 32), topics,
        malformed("RECIPIENT_KEY_UNKNOWN"))
    add("plaintext-not-cbor", "Decrypts fine; plaintext is not CBOR.", m1, seed_bytes("apple/nonce/notcbor", 32),
        lambda r: b"\x1cthis is not CBOR", malformed())
    add("plaintext-trailing-bytes", "Decrypts fine; plaintext is a valid {\"identity\": DeviceResponse} "
        "followed by one byte 0x00.", m1, seed_bytes("apple/nonce/trailing", 32),
        lambda r: topics(r) + b"\x00", malformed())
    add("plaintext-not-identity", "Decrypts fine; plaintext is {\"notIdentity\": DeviceResponse}.", m1,
        seed_bytes("apple/nonce/notidentity", 32), lambda r: enc({"notIdentity": cbor2.loads(r)}), malformed())
    add("plaintext-deep-nesting", "Decrypts fine; plaintext is {\"identity\": 100,000 nested arrays} "
        "(a1 68 'identity' then 0x81 x 100000 then f6). Must be rejected without stack exhaustion.", m1,
        seed_bytes("apple/nonce/deep", 32),
        lambda r: b"\xa1\x68identity" + b"\x81" * 100000 + b"\xf6", malformed())
    add("envelope-mode-1", "Envelope params.mode = 1 (otherwise a properly sealed base-mode envelope).", m1,
        seed_bytes("apple/nonce/mode1", 32), topics, malformed("ENVELOPE_UNSUPPORTED"), mode=1)
    add("envelope-algorithm-v2", "Envelope algorithm \"APPLE-HPKE-v2\".", m1,
        seed_bytes("apple/nonce/v2", 32), topics, malformed("ENVELOPE_UNSUPPORTED"), algorithm="APPLE-HPKE-v2")

    # broken issuer signature inside a properly sealed envelope
    name = "issuer-signature-invalid"
    nonce = seed_bytes("apple/nonce/" + name, 32)
    pkr_hash = hashlib.sha256(uncompressed(m1.public_key())).digest()
    transcript = apple_transcript(nonce, APPLE_MERCHANT, APPLE_TEAM, pkr_hash)
    doc, _ = issue_document(DocSpec("apple/" + name, transcript=transcript, tamper="issuer-sig"), pki)
    bad_resp = device_response([doc])
    add(name, "Valid envelope; the document's issuerAuth signature has its first byte flipped.", m1, nonce,
        lambda r: enc({"identity": cbor2.loads(bad_resp)}),
        {"verified": False, "code": "ISSUER_SIGNATURE_INVALID", "failedCodes": ["ISSUER_SIGNATURE_INVALID"]})

    write_json(out / "manifest.json", {
        "generator": "TestVectors/generator/generate.py",
        "description": "Apple \"Verify with Wallet\" APPLE-HPKE-v1 envelope cases. TEST-ONLY keys. Paths are "
                       "relative to this manifest's folder. expect.code is the first failing code (null when "
                       "verified); expect.failedCodes is the full set.",
        "cases": cases,
    })


# --------------------------------------------------------------------------------------------------
# Demo
# --------------------------------------------------------------------------------------------------

DEMO_MERCHANT = "com.example.verifierd.demo"
DEMO_TEAM = "DEMOTEAM01"


OID_MDL_READER_AUTH = x509.ObjectIdentifier("1.0.18013.5.1.6")


def reader_auth_chain(label: str, not_before: str, not_after: str) -> tuple:
    """A TEST-ONLY reader root CA (P-256, with SKI) and a reader certificate under it (EKU 1.0.18013.5.1.6,
    AKI = root SKI): the readerAuth material for signed web requests. Returns (root, root_key, leaf, leaf_key)."""
    root_key = derive_key(f"{label}/reader-root")
    leaf_key = derive_key(f"{label}/reader-auth")
    root_name = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                           x509.NameAttribute(NameOID.COMMON_NAME, "verifierd Demo Reader Root TEST ONLY")])
    leaf_name = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                           x509.NameAttribute(NameOID.COMMON_NAME, "verifierd Demo Reader TEST ONLY")])
    root_ski = x509.SubjectKeyIdentifier.from_public_key(root_key.public_key())
    root = (
        x509.CertificateBuilder().subject_name(root_name).issuer_name(root_name)
        .public_key(root_key.public_key()).serial_number(PKI._serial(f"{label}/reader-root"))
        .not_valid_before(d(not_before)).not_valid_after(d(not_after))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                     crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(root_ski, critical=False)
        .sign(root_key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    leaf = (
        x509.CertificateBuilder().subject_name(leaf_name).issuer_name(root_name)
        .public_key(leaf_key.public_key()).serial_number(PKI._serial(f"{label}/reader-auth"))
        .not_valid_before(d(not_before)).not_valid_after(d(not_after))
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                     crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([OID_MDL_READER_AUTH]), critical=True)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(root_ski), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(leaf_key.public_key()), critical=False)
        .sign(root_key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    return root, root_key, leaf, leaf_key


def demo_pki() -> PKI:
    """The demo IACA ("demo-iaca") and the demo document signer ("demo-ds") under it."""
    p = PKI()
    iaca = p.iaca("demo-iaca", "verifierd Demo IACA TEST ONLY", "P-256", c="US", st="US-CA",
                  not_before="2024-01-01T00:00:00Z", not_after="2124-01-01T00:00:00Z",
                  description="TEST ONLY demo IACA", key_label="demo/iaca")
    p.ds("demo-ds", iaca, "verifierd Demo DS TEST ONLY", c="US", st="US-CA",
         not_before="2024-01-01T00:00:00Z", not_after="2124-01-01T00:00:00Z",
         description="TEST ONLY demo DS", key_label="demo/ds")
    return p


def demo_envelope(nonce: bytes, p: PKI, eph_label: str | None = "demo") -> tuple[bytes, bytes, bytes]:
    """The demo APPLE-HPKE-v1 envelope for `nonce`, sealed to the demo merchant encryption key for DEMO_MERCHANT /
    DEMO_TEAM, holding the demo mDL (signed by p's demo-ds) device-signed over the Apple SessionTranscript.
    eph_label as for apple_seal (None: a random HPKE ephemeral key). Returns (envelope, plaintext, transcript)."""
    merchant = derive_key("demo/merchant-encryption")
    pkr_hash = hashlib.sha256(uncompressed(merchant.public_key())).digest()
    transcript = apple_transcript(nonce, DEMO_MERCHANT, DEMO_TEAM, pkr_hash)
    doc, _ = issue_document(DocSpec("demo", ds="demo-ds", transcript=transcript, signed="2024-01-01T00:00:00Z",
                                    valid_from="2024-01-01T00:00:00Z", valid_until="2124-01-01T00:00:00Z"), p)
    plaintext = enc({"identity": cbor2.loads(device_response([doc]))})
    envelope, tr = apple_seal(merchant.public_key(), plaintext, nonce, DEMO_MERCHANT, DEMO_TEAM, eph_label)
    return envelope, plaintext, tr


def demo_mdoc_verify_request(plaintext: bytes, transcript: bytes) -> dict:
    """The demo document as a /v1/mdoc/verify body: the DeviceResponse inside the Apple plaintext and the Apple
    SessionTranscript it is device-signed over (what /v1/apple/session-transcript gives for the demo nonce)."""
    return {"deviceResponse": base64.b64encode(enc(strict_loads(plaintext)["identity"])).decode(),
            "sessionTranscript": base64.b64encode(transcript).decode()}


def build_demo(out: Path) -> None:
    p = demo_pki()
    iaca = p.entries["demo-iaca"]
    merchant = derive_key("demo/merchant-encryption")
    reader = derive_key("demo/reader-token")
    write_text(out / "keys" / "merchant-encryption.pem", pkcs8_pem(merchant))
    write_text(out / "keys" / "reader-token.pem", pkcs8_pem(reader))
    write_text(out / "trusted-iaca" / "demo-iaca.pem", cert_pem(iaca.cert))
    reader_root, reader_root_key, reader_leaf, reader_leaf_key = reader_auth_chain(
        "demo", "2024-01-01T00:00:00Z", "2124-01-01T00:00:00Z")
    write_text(out / "keys" / "reader-auth.pem", pkcs8_pem(reader_leaf_key))
    write_text(out / "keys" / "reader-auth-chain.pem", cert_pem(reader_leaf) + cert_pem(reader_root))
    write_text(out / "reader-root.pem", cert_pem(reader_root))
    reader_root_ski = reader_root.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
    # issuer-side material, so the demo document can be re-issued (never configured in the service)
    write_text(out / "issuer" / "demo-iaca.key.pem", pkcs8_pem(iaca.key))
    write_text(out / "issuer" / "demo-ds.pem", cert_pem(p.entries["demo-ds"].cert))
    write_text(out / "issuer" / "demo-ds.key.pem", pkcs8_pem(p.entries["demo-ds"].key))

    nonce = seed_bytes("demo/nonce", 32)
    pkr_hash = hashlib.sha256(uncompressed(merchant.public_key())).digest()
    envelope, plaintext, tr = demo_envelope(nonce, p)
    # re-check: decrypt and verify now and far in the future
    err, pt, tr2 = apple_open(envelope, [merchant], nonce, DEMO_MERCHANT, DEMO_TEAM)
    assert err is None and pt == plaintext
    for when in (dt.datetime.now(UTC), d("2100-01-01T00:00:00Z")):
        got = MiniVerifier([iaca.cert], when, "enforce", None).verify_response(enc(strict_loads(pt)["identity"]), tr2)
        assert got["verified"], got
    write_json(out / "verify-request.json", {"encryptedData": base64.b64encode(envelope).decode(),
                                             "nonce": base64.b64encode(nonce).decode()})
    write_hex(out / "envelope.hex", envelope)
    write_hex(out / "plaintext.hex", plaintext)
    write_json(out / "mdoc-verify-request.json", demo_mdoc_verify_request(plaintext, tr2))
    write_text(out / "README.md", f"""# Demo material (TEST ONLY)

**TEST-ONLY. Never trust any of these keys or certificates in production.** Every private key here is derived
from a public seed string by `TestVectors/generator/generate.py`, so anyone can recompute it. Every certificate
subject says "TEST ONLY".

| File | What |
| --- | --- |
| `keys/merchant-encryption.pem` | P-256 merchant encryption private key (PKCS#8). The demo envelope is sealed to it. |
| `keys/reader-token.pem` | P-256 private key (PKCS#8) for signing demo reader tokens. |
| `keys/reader-auth.pem`, `keys/reader-auth-chain.pem` | P-256 reader signing key (PKCS#8) and its chain (reader certificate with EKU 1.0.18013.5.1.6, then the demo reader root), for `readerAuth` on web requests. |
| `reader-root.pem` | The demo reader root CA alone; its subject key identifier is `{reader_root_ski.hex()}` (what a provider app would list in `supportedAuthorityKeyIdentifiers`). |
| `trusted-iaca/demo-iaca.pem` | Demo IACA (`{iaca.cert.subject.rfc4514_string()}`), valid 2024-01-01..2124-01-01. |
| `issuer/` | Issuer-side material (demo IACA key, demo DS certificate and key, both valid 2024-01-01..2124-01-01). Not needed by the service; kept so the demo document can be re-issued. |
| `verify-request.json` | `{{"encryptedData": base64(APPLE-HPKE-v1 envelope), "nonce": base64(32-byte nonce)}}` |
| `envelope.hex`, `plaintext.hex` | The same envelope, and its decrypted plaintext `{{"identity": DeviceResponse}}`, as hex. |
| `mdoc-verify-request.json` | The same document for `/v1/mdoc/verify`: `{{"deviceResponse", "sessionTranscript"}}` (base64; the Apple SessionTranscript for the demo nonce). |

Values:

* merchantId: `{DEMO_MERCHANT}`
* teamId: `{DEMO_TEAM}`
* nonce (hex): `{nonce.hex()}`
* pkRHash = SHA-256(uncompressed merchant public key): `{pkr_hash.hex()}`
* document: docType `{MDL_DOCTYPE}`, given_name "Erika", family_name "Mustermann", issuing_country "US",
  age_over_18 true, age_in_years 53; MSO signed = validFrom = 2024-01-01T00:00:00Z, validUntil = 2124-01-01T00:00:00Z;
  issuerAuth ES256 with x5chain = the demo DS; deviceSignature over the Apple SessionTranscript.

The request verifies (with the demo IACA as the only trust anchor) at any time between 2024-01-01 and 2124-01-01.

Regenerate from the repository root with `python3 TestVectors/generator/generate.py` (this rewrites
all of `TestVectors/pki`, `mdoc`, `apple` and `demo` byte-identically).
""")


# --------------------------------------------------------------------------------------------------
# Self-checks against published vectors (skipped when ../shared/vectors is not beside the repo)
# --------------------------------------------------------------------------------------------------

def hexfile(p: Path) -> bytes:
    return bytes.fromhex(p.read_text().strip())


def self_check_published() -> list[str]:
    done = []
    ad = SHARED_VECTORS / "iso18013-5-annex-d"
    if ad.is_dir():
        reader = ec.derive_private_key(int.from_bytes(hexfile(ad / "e_reader_key_d.hex"), "big"), ec.SECP256R1())
        dev_pub = ec.EllipticCurvePublicNumbers(int.from_bytes(hexfile(ad / "static_device_key_x.hex"), "big"),
                                                int.from_bytes(hexfile(ad / "static_device_key_y.hex"), "big"),
                                                ec.SECP256R1()).public_key()
        stb = hexfile(ad / "session_transcript_bytes.hex")
        transcript = strict_loads(stb).value
        assert enc(tag24(transcript)) == stb
        key = emac_key(reader, dev_pub, transcript)
        assert key == hexfile(ad / "emac_key.hex"), "EMacKey mismatch vs Annex D"
        dab = enc(tag24(enc(["DeviceAuthentication", cbor2.loads(transcript), MDL_DOCTYPE, tag24(b"\xa0")])))
        assert dab == hexfile(ad / "device_authentication_bytes.hex")
        mac = hmac.new(key, enc(["MAC0", enc({1: 5}), b"", dab]), hashlib.sha256).digest()
        assert mac == hexfile(ad / "device_mac_tag.hex"), "device MAC mismatch vs Annex D"
        done.append("Annex D EMacKey + device MAC tag")
    ap = SHARED_VECTORS / "apple-identity-sample"
    if ap.is_dir():
        nonce = hexfile(ap / "nonce.hex")
        merchant = (ap / "merchant_id.txt").read_text().strip()
        team = (ap / "team_id.txt").read_text().strip()
        pkr = hexfile(ap / "pk_r_hash.hex")
        tr = apple_transcript(nonce, merchant, team, pkr)
        assert tr == hexfile(ap / "session_transcript.cbor.hex"), "Apple transcript mismatch"
        key = serialization.load_pem_private_key((ap / "merchant_encryption.key").read_bytes(), None)
        assert hashlib.sha256(uncompressed(key.public_key())).digest() == pkr
        err, pt, _ = apple_open((ap / "hpke_envelope.cbor").read_bytes(), [key], nonce, merchant, team)
        assert err is None and pt == (ap / "plaintext_topics.cbor").read_bytes(), "Apple HPKE open mismatch"
        done.append("Apple sample SessionTranscript + HPKE open")
    return done


# --------------------------------------------------------------------------------------------------

def main() -> int:
    checked = self_check_published()
    for sub in ("pki", "mdoc", "apple", "demo"):
        shutil.rmtree(TV / sub, ignore_errors=True)
    pki = build_pki()
    index = pki.write(TV / "pki", TV / "pki" / "keys")
    write_json(TV / "pki" / "certificates.json", {
        "generator": "TestVectors/generator/generate.py",
        "description": "TEST-ONLY certificates. Keys are PKCS#8 PEM in keys/. Paths relative to this folder.",
        "certificates": index,
    })
    build_mdoc(pki, TV / "mdoc")
    build_apple(pki, TV / "apple")
    build_demo(TV / "demo")
    print("self-checks against published vectors:", ", ".join(checked) if checked else "skipped (no ../shared)")
    print("generated:", ", ".join(str((TV / s).relative_to(REPO)) for s in ("pki", "mdoc", "apple", "demo")))
    return 0


if __name__ == "__main__":
    # Takes no arguments: -h/--help prints the text above; anything else is refused before anything is written.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
