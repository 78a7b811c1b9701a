#!/usr/bin/env python3
"""ETSI TS 119 602 Lists of Trusted Entities (LoTE, JSON binding, compact JAdES JWS with x5c) for verifierd's tests.
EVERYTHING WRITTEN HERE IS TEST-ONLY.

Writes TestVectors/lote/ (nothing outside it is touched). Everything in that folder is deleted and rewritten except
eudi/, which holds third-party copies (see eudi/SOURCES.md): the script only reads eudi/ and aborts unless every copy
there still has its pinned SHA-256. Output is deterministic: keys come from public seed labels (generate.derive_key),
certificates and JWS signatures use RFC 6979 ECDSA, every time is fixed and JSON is written compactly in a fixed
member order, so re-running gives byte-identical files.

  pki/operator-ca.pem            self-signed P-256 CA "verifierd TEST-ONLY LoTE Operator CA" (the list-signer anchor)
  pki/operator-signer.pem        the scheme operator's list signer, issued by operator-ca (C=EU,
                                 O=verifierd Test Scheme Operator: the DN binding to SchemeTerritory/SchemeOperatorName)
  pki/operator-signer-wrong-o.pem, pki/operator-signer-wrong-c.pem
                                 list signers under operator-ca whose O / C do not match the lists
  pki/other-ca.pem, pki/other-signer.pem, pki/self-signed-signer.pem
                                 signers nothing trusts (other-signer and self-signed-signer have operator-signer's DN)
  pki/pid-status-ca.pem, pki/pid-status-signer.pem
                                 the PID list's Revocation service identity (a CA) and a status-list signer under it
  pki/crl-operator-ca.pem, pki/crl-operator-signer-good.pem, pki/crl-operator-signer-revoked.pem
                                 the signer revocation set: a CA named like operator-ca and two list signers under
                                 it like operator-signer plus a CRL distribution point (see signer_revocation)
  pki/keys/<name>.pem            the private key of each, PKCS#8
  crls/crl-operator-ca.crl       crl-operator-ca's DER v2 CRL, revoking crl-operator-signer-revoked
  lists/<case>.jwt               one signed list per case (compact JWS, except jws-json-serialization), no newline;
                                 lists/mdl-valid-crl-signer-{good,revoked}.jwt: mdl-valid signed by each CRL signer
  manifest.json, README.md       what each case is and the outcome expected at 2030-01-01T00:00:00Z

The certificates listed inside the lists are read from the other generators' output (TestVectors/pki/iaca-p256.pem,
iaca-other.pem, sdjwt/pki/issuer-ca.pem, issuer-ca-other.pem, registration/pki/registrar-ca.pem,
demo/reader-root.pem), so run this script after generate.py, sd_jwt_vc.py and registration_certificates.py.

Before writing, the script aborts unless:
  * every valid list validates against the ETSI TS 119 602 JSON schema (eudi/1960201_json_schema.json, jsonschema
    Draft 7 with format checks) and every refusal case is schema-valid or schema-invalid exactly as declared;
  * a small strict judge written here (clearly separated below, cryptography only) gives every case exactly its
    expected outcome, a refusal failing exactly one check, and the grants declared for every valid list;
  * each case differs from its base list in exactly the declared places (and bad-signature in exactly one bit);
  * every valid list verifies with joserfc (an independent JOSE implementation) against operator-signer's public key,
    x5c[0] is operator-signer and it chains to operator-ca (cryptography's verify_directly_issued_by); joserfc also
    verifies every other genuinely signed case with its own signer's key and refuses bad-signature, alg-none,
    alg-hs256 and crit-unknown;
  * the EUDI sample (eudi/wallet-providers.txt) gets from the judge exactly the outcome the manifest states;
  * the signer revocation set holds together (signer_revocation): each of its lists differs from mdl-valid only in
    x5c, the judge finds it valid under crl-operator-ca and LOTE_SIGNER_UNTRUSTED under operator-ca, joserfc
    verifies it, its signer chains to crl-operator-ca and names the CRL distribution point, and the CRL is a DER v2
    CRL signed by crl-operator-ca listing exactly crl-operator-signer-revoked (keyCompromise, 2029-06-01).

Usage (from the repository root):  python3 TestVectors/generator/lote_lists.py
It takes no arguments: -h/--help prints this text; anything else is refused before anything is read or written.
"""

from __future__ import annotations

import argparse
import base64
import copy
import datetime as dt
import hashlib
import hmac
import json
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402  (main-guarded: importing it writes nothing)

OUT = g.TV / "lote"
EUDI = OUT / "eudi"
GENERATOR = "TestVectors/generator/lote_lists.py"

VERIFICATION_TIME = "2030-01-01T00:00:00Z"
NOW = g.d(VERIFICATION_TIME)
ISSUED = "2029-12-01T00:00:00Z"
NEXT_UPDATE = "2030-05-01T00:00:00Z"
SIGNING_TIME = ISSUED  # header iat (or sigT) of every case: informational only, identical in every case
OPERATOR = "verifierd Test Scheme Operator"
TERRITORY = "EU"

# The third-party copies in eudi/ (read only; see eudi/SOURCES.md), pinned.
EUDI_FILES = {
    "1960201_json_schema.json": "9c26811ac550060fc76eff9292b0611899d909b7c760bf2d582f85dc6b6cc9ae",
    "wallet-providers.txt": "b441899c75abb3a083f287cba0495bef321ac86a2c022614006dad787d7548d4",
    "wallet-providers.cer": "f573fb853d78e467d631453e2c6b932bbced839379982759587ca73ae7e82c47",
}
EUDI_SAMPLE_TIME = "2026-01-01T00:00:00Z"  # inside the EUDI sample's ListIssueDateTime..NextUpdate

# Stable outcome codes (manifest `expect`), with what each means.
CODES = {
    "LOTE_SIGNATURE_INVALID": "the JWS signature does not verify with the public key of x5c[0]",
    "LOTE_SIGNER_UNTRUSTED": "x5c[0] is neither the configured list-signer anchor nor an end-entity certificate "
                             "issued by it (valid at the verification time)",
    "LOTE_SIGNER_NAME_MISMATCH": "the signing certificate's subject countryName is not SchemeTerritory, or its "
                                 "organizationName is none of the SchemeOperatorName values",
    "LOTE_HEADER_INVALID": "not a compact JWS, or the protected header is unusable: alg not an accepted asymmetric "
                           "algorithm (none, HMAC), x5c missing or not base64 DER, crit naming a parameter the reader "
                           "does not process, no claimed signing time (iat or sigT)",
    "LOTE_MALFORMED": "the payload is not a strictly valid LoTE JSON document (not JSON, duplicate member, unknown "
                      "member, wrong JSON type, empty array, missing required member, a date-time that is not "
                      "YYYY-MM-DDThh:mm:ssZ)",
    "LOTE_VERSION_UNSUPPORTED": "LoTEVersionIdentifier is not 1",
    "LOTE_SEQUENCE_REGRESSION": "LoTESequenceNumber is lower than that of the list imported before it",
    "LOTE_STALE": "NextUpdate is at or before the verification time",
    "LOTE_NOT_YET_VALID": "ListIssueDateTime is after the verification time",
    "LOTE_CLOSED": "NextUpdate is null: the scheme has ceased (TS 119 602 6.3.15), the list grants nothing",
    "LOTE_PROFILE_VIOLATION": "the list does not follow the profile it is configured as (LoTEType, explicit scheme "
                              "information, StatusDeterminationApproach, SchemeTypeCommunityRules, SchemeTerritory EU, "
                              "NextUpdate at most 6 months after issue, service types, ServiceStatus presence)",
    "LOTE_CRITICAL_EXTENSION": "a scheme extension marked critical is not understood (no case: see the README)",
}

# --------------------------------------------------------------------------------------------------
# Profiles (EU profiles of TS 119 602 Annexes D-I and the Commission's mDL list)
# --------------------------------------------------------------------------------------------------

R = "http://uri.etsi.org/19602/"
EC_MDL = "http://trust.ec.europa.eu/lists/mDL/"
PUBEAA_NOTIFIED = R + "PubEAAProvidersList/SvcStatus/notified"
PUBEAA_WITHDRAWN = R + "PubEAAProvidersList/SvcStatus/withdrawn"


@dataclass(frozen=True)
class Profile:
    kind: str
    title: str
    lote_type: str
    status_determination: tuple[str, ...]  # accepted values (the first is the one written)
    community_rules: str
    service_types: dict[str, str]  # purpose -> ServiceTypeIdentifier
    statuses: frozenset[str] | None = None  # None: ServiceStatus / StatusStartingTime must be absent
    history_allowed: bool = False  # HistoricalInformationPeriod / ServiceHistory allowed
    certificates_required: bool = True


PROFILES = {p.kind: p for p in (
    Profile("mdl", "mDL providers", EC_MDL + "mDLProvidersListType", (EC_MDL + "mDLProvidersListStatusDetn",),
            EC_MDL + "schemerules",
            {"issuance": EC_MDL + "SvcType/Issuance", "revocation": EC_MDL + "SvcType/Revocation"}),
    Profile("pid", "PID providers", R + "LoTEType/EUPIDProvidersList", (R + "PIDProvidersList/StatusDetn/EU",),
            R + "PIDProviders/schemerules/EU",
            {"issuance": R + "SvcType/PID/Issuance", "revocation": R + "SvcType/PID/Revocation"}),
    Profile("wallet", "Wallet providers", R + "LoTEType/EUWalletProvidersList",
            (R + "WalletProvidersList/StatusDetn/EU",), R + "WalletProvidersList/schemerules/EU",
            {"issuance": R + "SvcType/WalletSolution/Issuance", "revocation": R + "SvcType/WalletSolution/Revocation"}),
    Profile("wrpac", "WRPAC providers", R + "LoTEType/EUWRPACProvidersList",
            (R + "WRPACProvidersList/StatusDetn/EU",), R + "WRPACProvidersList/schemerules/EU",
            {"issuance": R + "SvcType/WRPAC/Issuance", "revocation": R + "SvcType/WRPAC/Revocation"}),
    # Table G.1 spells the status determination approach "WRPRCrovidersList"; the corrected form is written.
    Profile("wrprc", "WRPRC providers", R + "LoTEType/EUWRPRCProvidersList",
            (R + "WRPRCProvidersList/StatusDetn/EU", R + "WRPRCrovidersList/StatusDetn/EU"),
            R + "WRPRCProvidersList/schemerules/EU",
            {"issuance": R + "SvcType/WRPRC/Issuance", "revocation": R + "SvcType/WRPRC/Revocation"}),
    Profile("pubeaa", "Pub-EAA providers", R + "LoTEType/EUPubEAAProvidersList",
            (R + "PubEAAProvidersList/StatusDetn/EU",), R + "PubEAAProvidersList/schemerules/EU",
            {"issuance": R + "SvcType/PubEAA/Issuance", "revocation": R + "SvcType/PubEAA/Revocation"},
            statuses=frozenset({PUBEAA_NOTIFIED, PUBEAA_WITHDRAWN}), history_allowed=True,
            certificates_required=False),
    Profile("registrars", "Registrars and registers", R + "LoTEType/EURegistrarsAndRegistersList",
            (R + "RegistrarsAndRegistersList/StatusDetn/EU",), R + "RegistrarsAndRegistersList/schemerules/EU",
            {"register": R + "SvcType/Register"}),
)}


def purpose_of(service_type: str | None) -> str:
    if not service_type:
        return "unknown"
    tail = service_type.rsplit("/", 1)[-1]
    return {"Issuance": "issuance", "Revocation": "revocation", "Register": "register"}.get(tail, "unknown")


# --------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------

def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64u_strict(text: str) -> bytes:
    """base64url without padding; anything else (padding, other characters, a lone trailing char) raises."""
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text) or len(text) % 4 == 1:
        raise ValueError("not unpadded base64url")
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64u(raw) != text:
        raise ValueError("non-canonical base64url")
    return raw


def b64_std(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64_std_strict(text: str) -> bytes:
    """Standard base64 with padding, canonical, no whitespace."""
    if not isinstance(text, str) or not text or len(text) % 4 or not re.fullmatch(r"[A-Za-z0-9+/]+={0,2}", text):
        raise ValueError("not padded standard base64")
    raw = base64.b64decode(text, validate=True)
    if b64_std(raw) != text:
        raise ValueError("non-canonical base64")
    return raw


def cjson(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def epoch(text: str) -> int:
    return int(g.d(text).timestamp())


def der(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.DER)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def ski_of(cert: x509.Certificate) -> bytes:
    return cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest


def rel(path: Path) -> str:
    return path.relative_to(g.REPO).as_posix()


DROP = object()  # in a change map: remove the member


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


def dn(c: str, o: str, cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, c),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, o),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _serial(name: str) -> int:
    return int.from_bytes(g.seed_bytes("lote/serial/" + name, 16), "big") >> 1 | 1


def _key_usage(signer: bool) -> x509.KeyUsage:
    return x509.KeyUsage(digital_signature=signer, content_commitment=False, key_encipherment=False,
                         data_encipherment=False, key_agreement=False, key_cert_sign=not signer,
                         crl_sign=not signer, encipher_only=False, decipher_only=False)


def _builder(name: str, subject: x509.Name, issuer: x509.Name, key: ec.EllipticCurvePrivateKey):
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(key.public_key())
            .serial_number(_serial(name))
            .not_valid_before(g.d("2024-01-01T00:00:00Z")).not_valid_after(g.d("2074-01-01T00:00:00Z")))


def make_ca(name: str, subject: x509.Name, description: str) -> Party:
    key = g.derive_key(f"lote/{name}")
    cert = (_builder(name, subject, subject, key)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(_key_usage(signer=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256(), ecdsa_deterministic=True))
    return Party(name, cert, key, description)


def make_signer(name: str, subject: x509.Name, issuer: Party | None, description: str,
                crl_dp: str | None = None) -> Party:
    """An end-entity signing certificate (keyUsage digitalSignature, critical) under issuer, or self-signed; with
    crl_dp, also a cRLDistributionPoints extension (non-critical) naming that one URI, after the SKI."""
    key = g.derive_key(f"lote/{name}")
    b = (_builder(name, subject, issuer.cert.subject if issuer else subject, key)
         .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
         .add_extension(_key_usage(signer=True), critical=True))
    if issuer is not None:
        b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
            issuer.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value), critical=False)
    b = b.add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    if crl_dp is not None:
        b = b.add_extension(x509.CRLDistributionPoints([x509.DistributionPoint(
            full_name=[x509.UniformResourceIdentifier(crl_dp)], relative_name=None, reasons=None, crl_issuer=None)]),
            critical=False)
    cert = b.sign(issuer.key if issuer else key, hashes.SHA256(), ecdsa_deterministic=True)
    return Party(name, cert, key, description, issuer.name if issuer else None)


SIGNER_DN = dn(TERRITORY, OPERATOR, "verifierd TEST-ONLY LoTE Signer")


def build_pki() -> dict[str, Party]:
    ca = make_ca("operator-ca", dn(TERRITORY, OPERATOR, "verifierd TEST-ONLY LoTE Operator CA"),
                 "The scheme operator's CA. **The list-signer anchor the tests configure.**")
    parties = [
        ca,
        make_signer("operator-signer", SIGNER_DN, ca,
                    "The list signer: x5c[0] of every list except where a case says otherwise. Subject C=EU, "
                    f"O={OPERATOR}, matching SchemeTerritory and SchemeOperatorName."),
        make_signer("operator-signer-wrong-o", dn(TERRITORY, "Someone Else", "verifierd TEST-ONLY LoTE Signer"), ca,
                    "A signer under operator-ca whose O (Someone Else) is no SchemeOperatorName value."),
        make_signer("operator-signer-wrong-c", dn("DE", OPERATOR, "verifierd TEST-ONLY LoTE Signer"), ca,
                    "A signer under operator-ca whose C (DE) is not SchemeTerritory (EU)."),
    ]
    other = make_ca("other-ca", dn(TERRITORY, OPERATOR, "verifierd TEST-ONLY Other LoTE CA"),
                    "An unrelated CA that nothing trusts.")
    parties += [
        other,
        make_signer("other-signer", SIGNER_DN, other,
                    "A signer with operator-signer's exact subject DN, issued by other-ca (untrusted)."),
        make_signer("self-signed-signer", SIGNER_DN, None,
                    "A self-signed end-entity certificate with operator-signer's exact subject DN (untrusted)."),
    ]
    status_ca = make_ca("pid-status-ca", dn("DE", "verifierd TEST-ONLY", "verifierd TEST-ONLY PID Status CA"),
                        "The identity of the PID list's Revocation service (http://uri.etsi.org/19602/SvcType/PID/"
                        "Revocation): anchors status-list signers, never credentials.")
    parties += [
        status_ca,
        make_signer("pid-status-signer", dn("DE", "verifierd TEST-ONLY", "verifierd TEST-ONLY PID Status List Signer"),
                    status_ca, "A status-list signer under pid-status-ca (keyUsage digitalSignature)."),
    ]
    return {p.name: p for p in parties}


# Certificates the lists carry, by a short name: (repo-relative file, what it is).
LISTED_FILES = {
    "iaca-p256": ("TestVectors/pki/iaca-p256.pem", "our test IACA; mdocs signed by TestVectors/pki/ds-p256.pem "
                                                    "chain to it"),
    "iaca-other": ("TestVectors/pki/iaca-other.pem", "an IACA no mdoc of the tests chains to"),
    "issuer-ca": ("TestVectors/sdjwt/pki/issuer-ca.pem", "our SD-JWT VC issuer CA; credentials signed by "
                                                         "TestVectors/sdjwt/pki/issuer.pem chain to it"),
    "issuer-ca-other": ("TestVectors/sdjwt/pki/issuer-ca-other.pem", "an SD-JWT VC issuer CA not used by the "
                                                                     "tests' PID credentials"),
    "registrar-ca": ("TestVectors/registration/pki/registrar-ca.pem", "the registrar CA of the registration "
                                                                      "certificates (TestVectors/registration)"),
    "registration-other-ca": ("TestVectors/registration/pki/other-ca.pem", "a CA of TestVectors/registration that "
                                                                          "no registration certificate of the tests "
                                                                          "chains to"),
    "reader-root": ("TestVectors/demo/reader-root.pem", "the demo reader root (reader-authentication chains)"),
    "pid-status-ca": ("TestVectors/lote/pki/pid-status-ca.pem", "generated here"),
}


def load_listed(pki: dict[str, Party]) -> dict[str, x509.Certificate]:
    out = {}
    for name, (path, _) in LISTED_FILES.items():
        if name in pki:
            out[name] = pki[name].cert
            continue
        p = g.REPO / path
        if not p.is_file():
            raise SystemExit(f"missing {path}: run the generator that writes it first")
        out[name] = x509.load_pem_x509_certificate(p.read_bytes())
    return out


# --------------------------------------------------------------------------------------------------
# List documents (the writer)
# --------------------------------------------------------------------------------------------------

def ml(value: str) -> list[dict]:
    return [{"lang": "en", "value": value}]


def ml_uri(uri: str) -> dict:
    return {"lang": "en", "uriValue": uri}


def scheme_information(p: Profile, seq: int, issued: str = ISSUED, next_update: str | None = NEXT_UPDATE) -> dict:
    """ListAndSchemeInformation, explicit, with the profile's values, members in the JSON schema's order."""
    info: dict[str, Any] = {
        "LoTEVersionIdentifier": 1,
        "LoTESequenceNumber": seq,
        "LoTEType": p.lote_type,
        "SchemeOperatorName": ml(OPERATOR),
        "SchemeOperatorAddress": {
            "SchemeOperatorPostalAddress": [{"lang": "en", "StreetAddress": "1 Test Street", "Locality": "Brussels",
                                             "PostalCode": "1000", "Country": "BE"}],
            "SchemeOperatorElectronicAddress": [ml_uri("mailto:lote-operator@verifierd.example"),
                                                ml_uri("https://lote.verifierd.example/")],
        },
        "SchemeName": ml(f"{TERRITORY}:verifierd TEST-ONLY {p.title} list"),
        "SchemeInformationURI": [ml_uri(f"https://lote.verifierd.example/{p.kind}/scheme-information")],
        "StatusDeterminationApproach": p.status_determination[0],
        "SchemeTypeCommunityRules": [ml_uri(p.community_rules)],
        "SchemeTerritory": TERRITORY,
        "PolicyOrLegalNotice": [{"LoTEPolicy": ml_uri("https://lote.verifierd.example/legal-notice")}],
    }
    if p.history_allowed:
        info["HistoricalInformationPeriod"] = 65535
    info["ListIssueDateTime"] = issued
    info["NextUpdate"] = next_update
    return info


def identity(cert: x509.Certificate) -> dict:
    return {"X509Certificates": [{"val": b64_std(der(cert))}], "X509SKIs": [b64_std(ski_of(cert))]}


def service(name: str, cert: x509.Certificate, service_type: str, status: str | None = None,
            supply_point: str | None = None) -> dict:
    s: dict[str, Any] = {"ServiceName": ml(name), "ServiceDigitalIdentity": identity(cert),
                         "ServiceTypeIdentifier": service_type}
    if status is not None:
        s["ServiceStatus"] = status
        s["StatusStartingTime"] = ISSUED
    if supply_point is not None:
        s["ServiceSupplyPoints"] = [{"uriValue": supply_point}]
    return {"ServiceInformation": s}


def entity(name: str, country: str, host: str, services: list[dict]) -> dict:
    return {
        "TrustedEntityInformation": {
            "TEName": ml(name),
            "TEAddress": {
                "TEPostalAddress": [{"lang": "en", "StreetAddress": "1 Test Street", "Locality": "Testville",
                                     "PostalCode": "00000", "Country": country}],
                "TEElectronicAddress": [ml_uri(f"mailto:contact@{host}"), ml_uri(f"https://{host}/")],
            },
            "TEInformationURI": [ml_uri(f"https://{host}/")],
        },
        "TrustedEntityServices": services,
    }


def lote(info: dict, entities: list[dict]) -> dict:
    return {"LoTE": {"ListAndSchemeInformation": info, "TrustedEntitiesList": entities}}


def mdl_list(listed: dict, seq: int, iaca: str = "iaca-p256", purpose: str = "issuance", **kw) -> dict:
    p = PROFILES["mdl"]
    return lote(scheme_information(p, seq, **kw), [
        entity("verifierd TEST-ONLY mDL Provider", "US", "mdl.verifierd.example",
               [service(f"verifierd TEST-ONLY mDL {purpose.capitalize()}", listed[iaca], p.service_types[purpose])])])


def pid_list(listed: dict, seq: int, issuer: str = "issuer-ca") -> dict:
    p = PROFILES["pid"]
    return lote(scheme_information(p, seq), [
        entity("verifierd TEST-ONLY PID Provider", "DE", "pid.verifierd.example", [
            service("verifierd TEST-ONLY PID Issuance", listed[issuer], p.service_types["issuance"]),
            service("verifierd TEST-ONLY PID Status Lists", listed["pid-status-ca"], p.service_types["revocation"]),
        ])])


def registrars_list(listed: dict, seq: int) -> dict:
    p = PROFILES["registrars"]
    return lote(scheme_information(p, seq), [
        entity("verifierd TEST-ONLY Registrar", "DE", "registrar.verifierd.example", [
            service("verifierd TEST-ONLY Register", listed["registrar-ca"], p.service_types["register"],
                    supply_point="https://registrar.verifierd.example/api/v1")])])


def wrpac_list(listed: dict, seq: int, provider: str = "reader-root") -> dict:
    p = PROFILES["wrpac"]
    return lote(scheme_information(p, seq), [
        entity("verifierd TEST-ONLY WRPAC Provider", "US", "wrpac.verifierd.example", [
            service("verifierd TEST-ONLY WRPAC Issuance", listed[provider], p.service_types["issuance"])])])


def wrprc_list(listed: dict, seq: int, provider: str = "registrar-ca") -> dict:
    p = PROFILES["wrprc"]
    return lote(scheme_information(p, seq), [
        entity("verifierd TEST-ONLY WRPRC Provider", "DE", "wrprc.verifierd.example", [
            service("verifierd TEST-ONLY WRPRC Issuance", listed[provider], p.service_types["issuance"])])])


def pubeaa_list(listed: dict, seq: int, status: str) -> dict:
    p = PROFILES["pubeaa"]
    return lote(scheme_information(p, seq), [
        entity("verifierd TEST-ONLY Pub-EAA Provider", "DE", "pubeaa.verifierd.example", [
            service("verifierd TEST-ONLY Pub-EAA Issuance", listed["issuer-ca"], p.service_types["issuance"],
                    status=status)])])


def changed(doc: dict, path: str, value: Any) -> dict:
    """A deep copy of doc with the member at path ("LoTE.ListAndSchemeInformation.NextUpdate", list indices as
    numbers) replaced (order kept), added (appended) or removed (value DROP)."""
    out = copy.deepcopy(doc)
    parts = path.split(".")
    node: Any = out
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = parts[-1]
    if value is DROP:
        del node[last]
    else:
        node[last] = value
    return out


INFO = "LoTE.ListAndSchemeInformation"
SVC0 = "LoTE.TrustedEntitiesList.0.TrustedEntityServices.0.ServiceInformation"
SVC1 = "LoTE.TrustedEntitiesList.0.TrustedEntityServices.1.ServiceInformation"


# --------------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    kind: str  # the profile the list is configured as
    expect: str  # "valid" or a CODES key
    defect: str  # the one thing that differs from the base (free text, for the manifest)
    description: str
    doc: dict | None  # the payload document (None: payload-not-json)
    base: str | None = None  # the case this one is derived from
    raw: bytes | None = None  # payload bytes when they are not cjson(doc)
    header: dict = field(default_factory=dict)  # header changes (DROP removes)
    signer: str = "operator-signer"
    x5c: list[str] = field(default_factory=lambda: ["operator-signer"])
    tamper: bool = False  # flip one signature bit
    alg_none: bool = False
    hmac_key: bool = False  # HS256 keyed with operator-signer's SubjectPublicKeyInfo DER
    json_serialization: bool = False
    import_after: str | None = None
    grants: list[tuple[str, str, str | None, bool]] = field(default_factory=list)  # declared for valid lists:
    #                                            (ServiceTypeIdentifier, listed name, ServiceStatus, grantsTrust)
    schema_valid: bool = True  # declared outcome of the ETSI JSON schema on the payload (None-payload: ignored)
    diff: set[str] = field(default_factory=set)  # the places (header.<name>, payload paths, "payload-bytes",
    #                                               "serialization") that differ from the base


def cases(listed: dict) -> list[Case]:
    mdl, pid = PROFILES["mdl"], PROFILES["pid"]
    mdl3 = mdl_list(listed, 3)
    pid7 = pid_list(listed, 7)
    notified = pubeaa_list(listed, 1, PUBEAA_NOTIFIED)
    mdl_grant = [(mdl.service_types["issuance"], "iaca-p256", None, True)]
    pid_grants = [(pid.service_types["issuance"], "issuer-ca", None, True),
                  (pid.service_types["revocation"], "pid-status-ca", None, True)]
    seq = f"payload {INFO}.LoTESequenceNumber"
    cert_paths = {f"payload {SVC0}.ServiceDigitalIdentity.X509Certificates.0.val",
                  f"payload {SVC0}.ServiceDigitalIdentity.X509SKIs.0"}
    valid_bytes = cjson(mdl3)
    dup = valid_bytes.replace(b'"LoTESequenceNumber":3,', b'"LoTESequenceNumber":3,"LoTESequenceNumber":30,', 1)
    assert dup != valid_bytes
    m = "mdl-valid"
    return [
        # ---------------------------------------------------------------- valid lists
        Case(m, "mdl", "valid", "none (a base list)",
             "The mDL providers list (seq 3): one entity whose mDL Issuance service is our test IACA "
             "(TestVectors/pki/iaca-p256.pem), so the mdocs signed by ds-p256 verify.", mdl3, grants=mdl_grant),
        Case("mdl-valid-seq4", "mdl", "valid", "LoTESequenceNumber 4",
             "mdl-valid republished as seq 4 with the same content; importing it after mdl-valid is accepted.",
             changed(mdl3, f"{INFO}.LoTESequenceNumber", 4), base=m, import_after=m, grants=mdl_grant, diff={seq}),
        Case("pid-valid", "pid", "valid", "none (a base list)",
             "The PID providers list (seq 7): one entity with a PID Issuance service (the SD-JWT VC issuer CA, "
             "TestVectors/sdjwt/pki/issuer-ca.pem) and a PID Revocation service (pki/pid-status-ca.pem). The "
             "Revocation identity anchors status-list signers only; the Issuance identity anchors credentials only.",
             pid7, grants=pid_grants),
        Case("registrars-valid", "registrars", "valid", "none (a base list)",
             "The registrars and registers list (Annex I, seq 1): one Register service whose identity is the "
             "registrar CA (TestVectors/registration/pki/registrar-ca.pem), with ServiceSupplyPoints the register API.",
             registrars_list(listed, 1),
             grants=[(PROFILES["registrars"].service_types["register"], "registrar-ca", None, True)]),
        Case("wrpac-valid", "wrpac", "valid", "none (a base list)",
             "The WRPAC providers list (Annex F, seq 1): one WRPAC Issuance service whose identity is the demo "
             "reader root (TestVectors/demo/reader-root.pem).", wrpac_list(listed, 1),
             grants=[(PROFILES["wrpac"].service_types["issuance"], "reader-root", None, True)]),
        Case("wrpac-without-reader", "wrpac", "valid", "seq 2; the Issuance identity is registration-other-ca",
             "wrpac-valid republished (seq 2) listing only TestVectors/registration/pki/other-ca.pem: with it in "
             "force, the demo reader-authentication chain (TestVectors/demo/keys/reader-auth-chain.pem) chains to no "
             "listed provider.", wrpac_list(listed, 2, provider="registration-other-ca"), base="wrpac-valid",
             import_after="wrpac-valid",
             grants=[(PROFILES["wrpac"].service_types["issuance"], "registration-other-ca", None, True)],
             diff={seq} | cert_paths),
        Case("wrprc-valid", "wrprc", "valid", "none (a base list)",
             "The WRPRC providers list (Annex G, seq 1): one WRPRC Issuance service whose identity is the registrar "
             "CA of the registration certificates (TestVectors/registration/pki/registrar-ca.pem), so the "
             "registration certificates signed by TestVectors/registration/pki/registrar.pem chain to a listed "
             "provider.", wrprc_list(listed, 1),
             grants=[(PROFILES["wrprc"].service_types["issuance"], "registrar-ca", None, True)]),
        Case("wrprc-without-registrar", "wrprc", "valid", "seq 2; the Issuance identity is registration-other-ca",
             "wrprc-valid republished (seq 2) listing only TestVectors/registration/pki/other-ca.pem: with it in "
             "force, the registration certificates under registrar-ca chain to no listed provider.",
             wrprc_list(listed, 2, provider="registration-other-ca"), base="wrprc-valid", import_after="wrprc-valid",
             grants=[(PROFILES["wrprc"].service_types["issuance"], "registration-other-ca", None, True)],
             diff={seq} | cert_paths),
        Case("pid-valid-crit-sigT", "pid", "valid", "header: crit [\"sigT\"] and sigT instead of iat",
             "pid-valid signed with the older JAdES claimed signing time: sigT (an RFC 3339 string) listed in crit, "
             "no iat. A reader that processes sigT accepts it.", pid7, base="pid-valid",
             header={"iat": DROP, "crit": ["sigT"], "sigT": SIGNING_TIME}, grants=pid_grants,
             diff={"header.iat", "header.crit", "header.sigT"}),
        Case("mdl-without-iaca", "mdl", "valid", "seq 5; the Issuance identity is iaca-other instead of iaca-p256",
             "A valid mDL list (seq 5) that lists only TestVectors/pki/iaca-other.pem: with it imported, an mdoc "
             "signed under iaca-p256 does not verify (its issuer is not on the list).",
             mdl_list(listed, 5, iaca="iaca-other"), base=m,
             grants=[(mdl.service_types["issuance"], "iaca-other", None, True)], diff={seq} | cert_paths),
        Case("pid-without-issuer", "pid", "valid", "seq 8; the Issuance identity is issuer-ca-other",
             "A valid PID list (seq 8) whose Issuance service is TestVectors/sdjwt/pki/issuer-ca-other.pem: with it "
             "imported, a PID signed under issuer-ca does not verify.", pid_list(listed, 8, issuer="issuer-ca-other"),
             base="pid-valid", grants=[(pid.service_types["issuance"], "issuer-ca-other", None, True),
                                       (pid.service_types["revocation"], "pid-status-ca", None, True)],
             diff={seq} | cert_paths),
        Case("generic-notified", "pubeaa", "valid", "none (a base list)",
             "A Pub-EAA providers list (Annex H, seq 1), a profile that uses ServiceStatus: one PubEAA Issuance "
             "service (identity: the SD-JWT VC issuer CA) with status notified since 2029-12-01; "
             "HistoricalInformationPeriod 65535. The service is trusted.", notified,
             grants=[(PROFILES["pubeaa"].service_types["issuance"], "issuer-ca", PUBEAA_NOTIFIED, True)]),
        Case("generic-withdrawn", "pubeaa", "valid", "seq 2; ServiceStatus withdrawn",
             "generic-notified republished (seq 2) with the service withdrawn since 2029-12-01: a valid list whose "
             "only service grants nothing.", pubeaa_list(listed, 2, PUBEAA_WITHDRAWN), base="generic-notified",
             import_after="generic-notified",
             grants=[(PROFILES["pubeaa"].service_types["issuance"], "issuer-ca", PUBEAA_WITHDRAWN, False)],
             diff={seq, f"payload {SVC0}.ServiceStatus"}),
        Case("mdl-revocation-only", "mdl", "valid", "seq 6; the service type is mDL Revocation",
             "A valid mDL list (seq 6) where iaca-p256 appears only as an mDL Revocation service: it may anchor "
             "revocation information (status lists, CRLs) but must not anchor mdoc issuance.",
             mdl_list(listed, 6, purpose="revocation"), base=m,
             grants=[(mdl.service_types["revocation"], "iaca-p256", None, True)],
             diff={seq, f"payload {SVC0}.ServiceTypeIdentifier", f"payload {SVC0}.ServiceName.0.value"}),
        Case("pki-x5c-chain", "mdl", "valid", "header x5c = [operator-signer, operator-ca]",
             "mdl-valid with x5c carrying the chain including the anchor (RFC 7515 4.1.6 allows it; the anchor is "
             "still taken from configuration, never from x5c).", mdl3, base=m,
             x5c=["operator-signer", "operator-ca"], grants=mdl_grant, diff={"header.x5c"}),
        # ---------------------------------------------------------------- signature and signer
        Case("bad-signature", "mdl", "LOTE_SIGNATURE_INVALID", "one signature bit flipped",
             "mdl-valid with one bit of the signature flipped (byte 10, xor 0x01).", mdl3, base=m, tamper=True),
        Case("signer-not-anchored", "mdl", "LOTE_SIGNER_UNTRUSTED", "signer and x5c = other-signer",
             "mdl-valid signed by other-signer (the same subject DN as operator-signer, issued by other-ca, which is "
             "not the anchor).", mdl3, base=m, signer="other-signer", x5c=["other-signer"], diff={"header.x5c"}),
        Case("self-signed-x5c", "mdl", "LOTE_SIGNER_UNTRUSTED", "signer and x5c = self-signed-signer",
             "mdl-valid signed by a self-signed certificate with operator-signer's exact subject DN.", mdl3, base=m,
             signer="self-signed-signer", x5c=["self-signed-signer"], diff={"header.x5c"}),
        Case("signer-wrong-o", "mdl", "LOTE_SIGNER_NAME_MISMATCH", "signer and x5c = operator-signer-wrong-o",
             "mdl-valid signed by a certificate under operator-ca whose O is \"Someone Else\", not the "
             "SchemeOperatorName.", mdl3, base=m, signer="operator-signer-wrong-o", x5c=["operator-signer-wrong-o"],
             diff={"header.x5c"}),
        Case("signer-wrong-country", "mdl", "LOTE_SIGNER_NAME_MISMATCH", "signer and x5c = operator-signer-wrong-c",
             "mdl-valid signed by a certificate under operator-ca whose C is DE, not the SchemeTerritory EU.", mdl3,
             base=m, signer="operator-signer-wrong-c", x5c=["operator-signer-wrong-c"], diff={"header.x5c"}),
        # ---------------------------------------------------------------- header
        Case("alg-none", "mdl", "LOTE_HEADER_INVALID", "header alg none, empty signature",
             "mdl-valid as an unsecured JWS: alg \"none\" and an empty signature.", mdl3, base=m,
             header={"alg": "none"}, alg_none=True, diff={"header.alg"}),
        Case("alg-hs256", "mdl", "LOTE_HEADER_INVALID", "header alg HS256, HMAC signature",
             "mdl-valid with alg HS256, \"signed\" with HMAC-SHA256 keyed with the DER SubjectPublicKeyInfo of "
             "operator-signer (the classic key-confusion attack).", mdl3, base=m, header={"alg": "HS256"},
             hmac_key=True, diff={"header.alg"}),
        Case("x5c-missing", "mdl", "LOTE_HEADER_INVALID", "header without x5c",
             "mdl-valid correctly signed by operator-signer but without x5c: no signing certificate.", mdl3, base=m,
             header={"x5c": DROP}, diff={"header.x5c"}),
        Case("crit-unknown", "mdl", "LOTE_HEADER_INVALID", "header crit [\"verifierdUnknown\"] with that parameter",
             "mdl-valid whose header lists in crit a parameter no reader processes (\"verifierdUnknown\": true).",
             mdl3, base=m, header={"crit": ["verifierdUnknown"], "verifierdUnknown": True},
             diff={"header.crit", "header.verifierdUnknown"}),
        Case("jws-json-serialization", "mdl", "LOTE_HEADER_INVALID", "general JWS JSON serialization",
             "mdl-valid's exact protected header, payload and signature, but as general JWS JSON serialization "
             "({\"payload\", \"signatures\": [{\"protected\", \"signature\"}]}) instead of compact. The signature "
             "is genuine; the JSON profiles require compact JAdES.", mdl3, base=m, json_serialization=True,
             diff={"serialization"}),
        # ---------------------------------------------------------------- payload structure
        Case("duplicate-member", "mdl", "LOTE_MALFORMED", "LoTESequenceNumber twice (3, then 30)",
             "mdl-valid whose payload has \"LoTESequenceNumber\":3,\"LoTESequenceNumber\":30 (raw JSON with a "
             "member twice; a first-wins reader sees 3, a last-wins reader 30).", mdl3, base=m, raw=dup,
             diff={"payload-bytes"}),
        Case("unknown-member", "mdl", "LOTE_MALFORMED", "an extra member in ListAndSchemeInformation",
             "mdl-valid with \"UnknownMember\": \"verifierd test\" added to ListAndSchemeInformation (the schema "
             "closes every object).", changed(mdl3, f"{INFO}.UnknownMember", "verifierd test"), base=m,
             schema_valid=False, diff={f"payload {INFO}.UnknownMember"}),
        Case("empty-array", "mdl", "LOTE_MALFORMED", "TrustedEntitiesList []",
             "mdl-valid with an empty TrustedEntitiesList (every array has minItems 1; a list approving nobody "
             "leaves the member out).", changed(mdl3, "LoTE.TrustedEntitiesList", []), base=m, schema_valid=False,
             diff={"payload LoTE.TrustedEntitiesList"}),
        Case("date-with-fraction", "mdl", "LOTE_MALFORMED", "ListIssueDateTime 2029-12-01T00:00:00.000Z",
             "mdl-valid with a fractional-second ListIssueDateTime. The JSON schema's date-time format accepts it; "
             "TS 119 602 6.1.3 wants YYYY-MM-DDThh:mm:ssZ.",
             changed(mdl3, f"{INFO}.ListIssueDateTime", "2029-12-01T00:00:00.000Z"), base=m,
             diff={f"payload {INFO}.ListIssueDateTime"}),
        Case("wrong-type", "mdl", "LOTE_MALFORMED", "LoTESequenceNumber \"3\" (a string)",
             "mdl-valid with LoTESequenceNumber as the string \"3\".",
             changed(mdl3, f"{INFO}.LoTESequenceNumber", "3"), base=m, schema_valid=False, diff={seq}),
        Case("payload-not-json", "mdl", "LOTE_MALFORMED", "payload = the first 64 bytes of mdl-valid's",
             "Correctly signed by operator-signer, but the payload is mdl-valid's truncated to 64 bytes: not JSON.",
             None, base=m, raw=valid_bytes[:64], diff={"payload-bytes"}),
        Case("missing-required", "mdl", "LOTE_MALFORMED", "no NextUpdate member",
             "mdl-valid without NextUpdate (required in every LoTE).",
             changed(mdl3, f"{INFO}.NextUpdate", DROP), base=m, schema_valid=False,
             diff={f"payload {INFO}.NextUpdate"}),
        # ---------------------------------------------------------------- version, sequence, time
        Case("version-2", "mdl", "LOTE_VERSION_UNSUPPORTED", "LoTEVersionIdentifier 2",
             "mdl-valid with LoTEVersionIdentifier 2 (only 1 exists).",
             changed(mdl3, f"{INFO}.LoTEVersionIdentifier", 2), base=m,
             diff={f"payload {INFO}.LoTEVersionIdentifier"}),
        Case("mdl-seq2", "mdl", "LOTE_SEQUENCE_REGRESSION", "LoTESequenceNumber 2",
             "A genuine, valid mDL list with seq 2 (otherwise mdl-valid). On its own it is valid; imported after "
             "mdl-valid (seq 3) it is a rollback and must be refused, keeping seq 3 in force.",
             changed(mdl3, f"{INFO}.LoTESequenceNumber", 2), base=m, import_after=m, diff={seq}),
        Case("mdl-stale", "mdl", "LOTE_STALE", "issued 2029-06-01, NextUpdate 2029-11-30",
             "mdl-valid issued 2029-06-01 with NextUpdate 2029-11-30: past at the verification time.",
             mdl_list(listed, 3, issued="2029-06-01T00:00:00Z", next_update="2029-11-30T00:00:00Z"), base=m,
             diff={f"payload {INFO}.ListIssueDateTime", f"payload {INFO}.NextUpdate"}),
        Case("mdl-future", "mdl", "LOTE_NOT_YET_VALID", "ListIssueDateTime 2030-02-01",
             "mdl-valid with ListIssueDateTime 2030-02-01, a month after the verification time (NextUpdate stays "
             "2030-05-01).", changed(mdl3, f"{INFO}.ListIssueDateTime", "2030-02-01T00:00:00Z"), base=m,
             diff={f"payload {INFO}.ListIssueDateTime"}),
        Case("mdl-closed", "mdl", "LOTE_CLOSED", "NextUpdate null",
             "mdl-valid with NextUpdate null: the scheme has ceased (TS 119 602 6.3.15) and the list grants nothing "
             "(the mDL profile has no ServiceStatus, so no service can be marked expired). The JSON schema types "
             "NextUpdate as a string, so it rejects this payload; the TS text prevails.",
             changed(mdl3, f"{INFO}.NextUpdate", None), base=m, schema_valid=False,
             diff={f"payload {INFO}.NextUpdate"}),
        # ---------------------------------------------------------------- profile
        Case("pid-wrong-service-type", "pid", "LOTE_PROFILE_VIOLATION", "the Revocation service's type is "
             "WalletSolution/Issuance", "pid-valid whose second service has ServiceTypeIdentifier "
             "http://uri.etsi.org/19602/SvcType/WalletSolution/Issuance, outside the PID profile's set.",
             changed(pid7, f"{SVC1}.ServiceTypeIdentifier", R + "SvcType/WalletSolution/Issuance"),
             base="pid-valid", diff={f"payload {SVC1}.ServiceTypeIdentifier"}),
        Case("pid-service-status-present", "pid", "LOTE_PROFILE_VIOLATION", "ServiceStatus on the Issuance service",
             "pid-valid with ServiceStatus (the Pub-EAA notified URI) on the Issuance service: Annex D lists carry "
             "no ServiceStatus (being listed is the status).",
             changed(pid7, f"{SVC0}.ServiceStatus", PUBEAA_NOTIFIED), base="pid-valid",
             diff={f"payload {SVC0}.ServiceStatus"}),
        Case("pid-next-update-too-far", "pid", "LOTE_PROFILE_VIOLATION", "NextUpdate 2030-07-01 (7 months)",
             "pid-valid with NextUpdate 2030-07-01, seven months after ListIssueDateTime (EU profiles: at most 6).",
             changed(pid7, f"{INFO}.NextUpdate", "2030-07-01T00:00:00Z"), base="pid-valid",
             diff={f"payload {INFO}.NextUpdate"}),
        Case("pid-wrong-lote-type", "pid", "LOTE_PROFILE_VIOLATION", "LoTEType EUWalletProvidersList",
             "pid-valid with the Wallet providers LoTEType while it is configured as the PID list.",
             changed(pid7, f"{INFO}.LoTEType", PROFILES["wallet"].lote_type), base="pid-valid",
             diff={f"payload {INFO}.LoTEType"}),
        Case("pid-implicit", "pid", "LOTE_PROFILE_VIOLATION", "the explicit-only members removed",
             "pid-valid as implicit scheme information: SchemeName, SchemeInformationURI, "
             "StatusDeterminationApproach, SchemeTypeCommunityRules and PolicyOrLegalNotice removed (a well-formed "
             "implicit LoTE; the EU profiles require explicit).", implicit(pid7), base="pid-valid",
             diff={f"payload {INFO}.{k}" for k in EXPLICIT_ONLY}),
    ]


EXPLICIT_ONLY = ("SchemeName", "SchemeInformationURI", "StatusDeterminationApproach", "SchemeTypeCommunityRules",
                 "PolicyOrLegalNotice")


def implicit(doc: dict) -> dict:
    for k in EXPLICIT_ONLY:
        doc = changed(doc, f"{INFO}.{k}", DROP)
    return doc


def default_header(x5c: list[x509.Certificate]) -> dict:
    return {"alg": "ES256", "x5c": [b64_std(der(c)) for c in x5c], "iat": epoch(SIGNING_TIME)}


def build(case: Case, pki: dict[str, Party]) -> bytes:
    header = default_header([pki[n].cert for n in case.x5c])
    for k, v in case.header.items():
        if v is DROP:
            header.pop(k, None)
        else:
            header[k] = v
    body = case.raw if case.raw is not None else cjson(case.doc)
    protected = b64u(cjson(header))
    signing_input = f"{protected}.{b64u(body)}".encode("ascii")
    if case.alg_none:
        sig = b""
    elif case.hmac_key:
        spki = pki["operator-signer"].cert.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        sig = hmac.new(spki, signing_input, hashlib.sha256).digest()
    else:
        sig = bytearray(g.ecdsa_sign_raw(pki[case.signer].key, signing_input, hashes.SHA256()))
        if case.tamper:
            sig[10] ^= 0x01
        sig = bytes(sig)
    if case.json_serialization:
        return cjson({"payload": b64u(body), "signatures": [{"protected": protected, "signature": b64u(sig)}]})
    return signing_input + b"." + b64u(sig).encode("ascii")


# ==================================================================================================
# THE JUDGE: a small, strict LoTE reader written independently of the writer above (cryptography only).
# It is given the file bytes, the configured profile, the list-signer anchor, the time and (optionally) the
# sequence number of the list imported before, and returns the failed codes in check order and the grants.
# ==================================================================================================

JUDGE_ALGS = {
    "ES256": ("ec", hashes.SHA256, "secp256r1"), "ES384": ("ec", hashes.SHA384, "secp384r1"),
    "ES512": ("ec", hashes.SHA512, "secp521r1"),
    "PS256": ("pss", hashes.SHA256, None), "PS384": ("pss", hashes.SHA384, None), "PS512": ("pss", hashes.SHA512, None),
    "RS256": ("pkcs1", hashes.SHA256, None), "RS384": ("pkcs1", hashes.SHA384, None),
    "RS512": ("pkcs1", hashes.SHA512, None),
}
UNDERSTOOD_CRIT = {"sigT"}
JWS_REGISTERED = {"alg", "jku", "jwk", "kid", "x5u", "x5c", "x5t", "x5t#S256", "typ", "cty", "crit"}
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


@dataclass
class JudgeConfig:
    kind: str
    anchor: x509.Certificate
    now: dt.datetime
    previous_sequence: int | None = None


@dataclass
class Verdict:
    failed: list[str]
    grants: list[dict] = field(default_factory=list)
    header: dict | None = None
    doc: dict | None = None
    notes: list[str] = field(default_factory=list)


def strict_json(data: bytes) -> Any:
    text = data.decode("utf-8")  # strict: raises on invalid UTF-8
    if text.startswith("\ufeff"):
        raise ValueError("BOM")

    def pairs(items: list[tuple[str, Any]]) -> dict:
        keys = [k for k, _ in items]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate member")
        return dict(items)

    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, object_pairs_hook=pairs, parse_constant=no_constant)


def parse_date(text: Any) -> dt.datetime | None:
    if not isinstance(text, str) or not DATE_RE.fullmatch(text):
        return None
    try:
        return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
    except ValueError:
        return None


def add_months(t: dt.datetime, months: int) -> dt.datetime:
    y, m = divmod(t.month - 1 + months, 12)
    year, month = t.year + y, m + 1
    days = [31, 29 if (year % 4 == 0 and year % 100 != 0) or year % 400 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31,
            30, 31][month - 1]
    return t.replace(year=year, month=month, day=min(t.day, days))


# --- structure: a hand-written closed-object reader of the JSON binding --------------------------

Check = Callable[[Any, str, list], None]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def s_leaf(test: Callable[[Any], bool], what: str) -> Check:
    def f(v: Any, path: str, problems: list) -> None:
        if not test(v):
            problems.append(f"{path}: not {what}")
    return f


S_STR = s_leaf(lambda v: isinstance(v, str), "a string")
S_NESTR = s_leaf(lambda v: isinstance(v, str) and v != "", "a non-empty string")
S_INT = s_leaf(_is_int, "an integer")
S_URI = s_leaf(lambda v: isinstance(v, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:\S+", v) is not None,
               "an absolute URI")
S_DATE = s_leaf(lambda v: parse_date(v) is not None, "a date-time YYYY-MM-DDThh:mm:ssZ")
S_DATE_OR_NULL = s_leaf(lambda v: v is None or parse_date(v) is not None, "null or a date-time YYYY-MM-DDThh:mm:ssZ")
S_LANG = s_leaf(lambda v: isinstance(v, str) and re.fullmatch(r"[a-z]{2,3}(-[a-z0-9]{1,8})*", v) is not None,
                "a lowercase language tag")
S_COUNTRY = s_leaf(lambda v: isinstance(v, str) and re.fullmatch(r"[A-Z]{2}", v) is not None, "a country code")
S_ANY = s_leaf(lambda v: True, "anything")
S_OBJECT = s_leaf(lambda v: isinstance(v, dict), "an object")


def _b64_ok(v: Any) -> bool:
    try:
        b64_std_strict(v)
        return True
    except ValueError:
        return False


S_B64 = s_leaf(_b64_ok, "padded standard base64")


def s_array(item: Check) -> Check:
    def f(v: Any, path: str, problems: list) -> None:
        if not isinstance(v, list):
            problems.append(f"{path}: not an array")
        elif not v:
            problems.append(f"{path}: empty array")
        else:
            for i, x in enumerate(v):
                item(x, f"{path}[{i}]", problems)
    return f


def s_object(required: dict[str, Check], optional: dict[str, Check]) -> Check:
    def f(v: Any, path: str, problems: list) -> None:
        if not isinstance(v, dict):
            problems.append(f"{path}: not an object")
            return
        for k in v:
            if k not in required and k not in optional:
                problems.append(f"{path}.{k}: unknown member")
        for k, c in required.items():
            if k in v:
                c(v[k], f"{path}.{k}", problems)
            else:
                problems.append(f"{path}.{k}: missing")
        for k, c in optional.items():
            if k in v:
                c(v[k], f"{path}.{k}", problems)
    return f


def s_policy_item(v: Any, path: str, problems: list) -> None:
    if not isinstance(v, dict) or len(v) != 1:
        problems.append(f"{path}: not an object with exactly one of LoTEPolicy, LoTELegalNotice")
    elif "LoTEPolicy" in v:
        ML_URI(v["LoTEPolicy"], f"{path}.LoTEPolicy", problems)
    elif "LoTELegalNotice" in v:
        S_NESTR(v["LoTELegalNotice"], f"{path}.LoTELegalNotice", problems)
    else:
        problems.append(f"{path}: neither LoTEPolicy nor LoTELegalNotice")


ML_STRING = s_object({"lang": S_LANG, "value": S_NESTR}, {})
ML_URI = s_object({"lang": S_LANG, "uriValue": S_URI}, {})
POSTAL = s_object({"lang": S_LANG, "StreetAddress": S_STR, "Country": S_COUNTRY},
                  {"Locality": S_STR, "StateOrProvince": S_STR, "PostalCode": S_STR})
PKI_OB = s_object({"val": S_B64}, {"encoding": S_URI, "specRef": S_STR})
DIGITAL_ID = s_object({}, {"X509Certificates": s_array(PKI_OB), "X509SubjectNames": s_array(S_STR),
                           "PublicKeyValues": s_array(S_OBJECT), "X509SKIs": s_array(S_B64),
                           "OtherIds": s_array(S_STR)})
QUALIFIER = s_object({"LoTEType": S_URI, "SchemeOperatorName": s_array(ML_STRING), "MimeType": S_NESTR},
                     {"SchemeTypeCommunityRules": s_array(ML_URI), "SchemeTerritory": S_COUNTRY})
POINTER = s_object({"LoTELocation": S_URI, "ServiceDigitalIdentities": s_array(DIGITAL_ID),
                    "LoTEQualifiers": s_array(QUALIFIER)}, {})
SCHEME_INFO = s_object(
    {"LoTEVersionIdentifier": S_INT, "LoTESequenceNumber": S_INT, "SchemeOperatorName": s_array(ML_STRING),
     "ListIssueDateTime": S_DATE, "NextUpdate": S_DATE_OR_NULL},
    {"LoTEType": S_URI,
     "SchemeOperatorAddress": s_object({"SchemeOperatorPostalAddress": s_array(POSTAL),
                                        "SchemeOperatorElectronicAddress": s_array(ML_URI)}, {}),
     "SchemeName": s_array(ML_STRING), "SchemeInformationURI": s_array(ML_URI),
     "StatusDeterminationApproach": S_URI, "SchemeTypeCommunityRules": s_array(ML_URI),
     "SchemeTerritory": S_COUNTRY, "PolicyOrLegalNotice": s_array(s_policy_item),
     "HistoricalInformationPeriod": S_INT, "PointersToOtherLoTE": s_array(POINTER),
     "DistributionPoints": s_array(S_URI), "SchemeExtensions": s_array(S_ANY)})
SERVICE_INFO = s_object(
    {"ServiceName": s_array(ML_STRING), "ServiceDigitalIdentity": DIGITAL_ID},
    {"ServiceTypeIdentifier": S_URI, "ServiceStatus": S_URI, "StatusStartingTime": S_DATE,
     "SchemeServiceDefinitionURI": s_array(ML_URI),
     "ServiceSupplyPoints": s_array(s_object({"uriValue": S_URI}, {"ServiceType": S_URI})),
     "ServiceDefinitionURI": s_array(ML_URI), "ServiceInformationExtensions": s_array(S_ANY)})
HISTORY = s_object({"ServiceName": s_array(ML_STRING), "ServiceDigitalIdentity": DIGITAL_ID,
                    "ServiceStatus": S_URI, "StatusStartingTime": S_DATE},
                   {"ServiceTypeIdentifier": S_URI, "ServiceInformationExtensions": s_array(S_ANY)})
ENTITY = s_object(
    {"TrustedEntityInformation": s_object(
        {"TEName": s_array(ML_STRING),
         "TEAddress": s_object({"TEPostalAddress": s_array(POSTAL), "TEElectronicAddress": s_array(ML_URI)}, {}),
         "TEInformationURI": s_array(ML_URI)},
        {"TETradeName": s_array(ML_STRING), "TEInformationExtensions": s_array(S_ANY)}),
     "TrustedEntityServices": s_array(s_object({"ServiceInformation": SERVICE_INFO},
                                               {"ServiceHistory": s_array(HISTORY)}))}, {})
DOCUMENT = s_object({"LoTE": s_object({"ListAndSchemeInformation": SCHEME_INFO},
                                      {"TrustedEntitiesList": s_array(ENTITY)})}, {})


def all_services(doc: dict) -> list[dict]:
    return [svc["ServiceInformation"] for te in doc["LoTE"].get("TrustedEntitiesList", [])
            for svc in te["TrustedEntityServices"]]


def all_history(doc: dict) -> list[dict]:
    return [h for te in doc["LoTE"].get("TrustedEntitiesList", []) for svc in te["TrustedEntityServices"]
            for h in svc.get("ServiceHistory", [])]


# --- the checks ------------------------------------------------------------------------------------

def header_problems(header: dict) -> tuple[list[str], list[x509.Certificate]]:
    problems: list[str] = []
    if header.get("alg") not in JUDGE_ALGS:
        problems.append(f"alg {header.get('alg')!r} is not an accepted asymmetric algorithm")
    if "b64" in header:
        problems.append("b64 is not used by LoTE")
    crit = header.get("crit")
    if "crit" in header:
        if not (isinstance(crit, list) and crit and all(isinstance(c, str) for c in crit)
                and len(set(crit)) == len(crit)):
            problems.append("crit is not a non-empty array of distinct names")
        else:
            for c in crit:
                if c in JWS_REGISTERED or c not in header:
                    problems.append(f"crit names {c!r}, which is registered or absent")
                elif c not in UNDERSTOOD_CRIT:
                    problems.append(f"crit names {c!r}, which this reader does not process")
    certs: list[x509.Certificate] = []
    x5c = header.get("x5c")
    if not (isinstance(x5c, list) and x5c):
        problems.append("x5c missing or empty")
    else:
        try:
            certs = [x509.load_der_x509_certificate(b64_std_strict(c)) for c in x5c]
        except (ValueError, TypeError):
            problems.append("x5c is not standard base64 DER certificates")
            certs = []
        for child, parent in zip(certs, certs[1:]):
            try:
                child.verify_directly_issued_by(parent)
            except (ValueError, TypeError, InvalidSignature):
                problems.append("x5c: a certificate does not certify the one before it")
    iat, sig_t = header.get("iat"), header.get("sigT")
    if "iat" in header and not (_is_int(iat) and iat >= 0):
        problems.append("iat is not a NumericDate integer")
    if "sigT" in header and (parse_date(sig_t) is None or not (isinstance(crit, list) and "sigT" in crit)):
        problems.append("sigT is not a date-time listed in crit")
    if "iat" not in header and "sigT" not in header:
        problems.append("no claimed signing time (iat or sigT)")
    return problems, certs


def signature_ok(alg: str, leaf: x509.Certificate, signing_input: bytes, signature: bytes) -> bool:
    family, hash_cls, curve = JUDGE_ALGS[alg]
    pub = leaf.public_key()
    try:
        if family == "ec":
            if not isinstance(pub, ec.EllipticCurvePublicKey) or pub.curve.name != curve:
                return False
            n = (pub.curve.key_size + 7) // 8
            if len(signature) != 2 * n:
                return False
            pub.verify(encode_dss_signature(int.from_bytes(signature[:n], "big"), int.from_bytes(signature[n:], "big")),
                       signing_input, ec.ECDSA(hash_cls()))
        elif isinstance(pub, rsa.RSAPublicKey) and pub.key_size >= 2048:
            pad = (padding.PSS(mgf=padding.MGF1(hash_cls()), salt_length=hash_cls.digest_size) if family == "pss"
                   else padding.PKCS1v15())
            pub.verify(signature, signing_input, pad, hash_cls())
        else:
            return False
        return True
    except InvalidSignature:
        return False


def valid_at(cert: x509.Certificate, now: dt.datetime) -> bool:
    return cert.not_valid_before_utc <= now <= cert.not_valid_after_utc


def signer_trusted(leaf: x509.Certificate, anchor: x509.Certificate, now: dt.datetime) -> bool:
    """x5c[0] is the anchor itself (a pinned signing certificate) or an end-entity certificate issued by it."""
    if not (valid_at(leaf, now) and valid_at(anchor, now)):
        return False
    if der(leaf) == der(anchor):
        return True
    if leaf.issuer != anchor.subject:
        return False
    try:
        if not anchor.extensions.get_extension_for_class(x509.BasicConstraints).value.ca:
            return False
        if not anchor.extensions.get_extension_for_class(x509.KeyUsage).value.key_cert_sign:
            return False
    except x509.ExtensionNotFound:
        return False
    try:
        if leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca:
            return False
    except x509.ExtensionNotFound:
        pass
    try:
        ku = leaf.extensions.get_extension_for_class(x509.KeyUsage).value
        if not (ku.digital_signature or ku.content_commitment):
            return False
    except x509.ExtensionNotFound:
        return False
    try:
        aki = leaf.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
        if aki is not None and aki != ski_of(anchor):
            return False
    except x509.ExtensionNotFound:
        pass
    try:
        leaf.verify_directly_issued_by(anchor)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True


def name_binding_ok(leaf: x509.Certificate, info: dict) -> bool:
    countries = [a.value for a in leaf.subject.get_attributes_for_oid(NameOID.COUNTRY_NAME)]
    orgs = [a.value for a in leaf.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)]
    names = {n["value"] for n in info["SchemeOperatorName"]}
    return countries == [info.get("SchemeTerritory")] and any(o in names for o in orgs)


def profile_problems(doc: dict, p: Profile) -> list[str]:
    info = doc["LoTE"]["ListAndSchemeInformation"]
    problems = []
    for k in ("LoTEType", "SchemeOperatorAddress", "SchemeTerritory") + EXPLICIT_ONLY:
        if k not in info:
            problems.append(f"explicit scheme information: {k} missing")
    if "LoTEType" in info and info["LoTEType"] != p.lote_type:
        problems.append(f"LoTEType {info['LoTEType']} is not {p.lote_type}")
    if "StatusDeterminationApproach" in info and info["StatusDeterminationApproach"] not in p.status_determination:
        problems.append("StatusDeterminationApproach is not the profile's")
    if "SchemeTypeCommunityRules" in info and info["SchemeTypeCommunityRules"] != [ml_uri(p.community_rules)]:
        problems.append("SchemeTypeCommunityRules is not exactly the profile's rules URI")
    if "SchemeTerritory" in info and info["SchemeTerritory"] != TERRITORY:
        problems.append("SchemeTerritory is not EU")
    issued, next_update = parse_date(info["ListIssueDateTime"]), parse_date(info["NextUpdate"])
    if next_update is not None and next_update > add_months(issued, 6):
        problems.append("NextUpdate is more than 6 months after ListIssueDateTime")
    if not p.history_allowed and ("HistoricalInformationPeriod" in info or all_history(doc)):
        problems.append("history is not kept in this profile")
    types = set(p.service_types.values())
    for s in all_services(doc) + all_history(doc):
        if s.get("ServiceTypeIdentifier") not in types:
            problems.append(f"service type {s.get('ServiceTypeIdentifier')} is not in the profile")
    for s in all_services(doc):
        if p.statuses is None:
            if "ServiceStatus" in s or "StatusStartingTime" in s:
                problems.append("ServiceStatus / StatusStartingTime present")
        elif s.get("ServiceStatus") not in p.statuses or "StatusStartingTime" not in s:
            problems.append("ServiceStatus missing or not one of the profile's")
        if p.certificates_required and "X509Certificates" not in s["ServiceDigitalIdentity"]:
            problems.append("a service identity has no X509Certificates")
    return problems


def grants_of(doc: dict, p: Profile, now: dt.datetime) -> list[dict]:
    out = []
    for s in all_services(doc):
        stype = s.get("ServiceTypeIdentifier")
        status = s.get("ServiceStatus")
        in_force = (p.statuses is None or (status == PUBEAA_NOTIFIED and parse_date(s["StatusStartingTime"]) <= now))
        for pk in s["ServiceDigitalIdentity"].get("X509Certificates", []):
            try:
                cert_der = b64_std_strict(pk["val"])
                x509.load_der_x509_certificate(cert_der)
            except ValueError:
                continue  # an unreadable certificate is skipped, never trusted
            g_ = {"serviceType": stype, "purpose": purpose_of(stype), "sha256": sha256_hex(cert_der)}
            if status is not None:
                g_["status"] = status
            g_["grantsTrust"] = in_force
            out.append(g_)
    return out


def judge(data: bytes, cfg: JudgeConfig) -> Verdict:
    failed: list[str] = []
    notes: list[str] = []

    def fail(code: str, why: str) -> None:
        if code not in failed:
            failed.append(code)
        notes.append(f"{code}: {why}")

    # 1. Compact serialization and the protected header.
    try:
        text = data.decode("ascii")
        h64, p64, s64 = text.split(".")
        header = strict_json(b64u_strict(h64))
        if not isinstance(header, dict):
            raise ValueError("header is not an object")
    except (UnicodeDecodeError, ValueError):
        fail("LOTE_HEADER_INVALID", "not a compact JWS with a JSON object header")
        return Verdict(failed, notes=notes)
    problems, certs = header_problems(header)
    for pr in problems:
        fail("LOTE_HEADER_INVALID", pr)
    leaf = certs[0] if certs else None
    try:
        payload, signature = b64u_strict(p64), b64u_strict(s64)
    except ValueError:
        fail("LOTE_MALFORMED", "payload or signature is not base64url")
        return Verdict(failed, header=header, notes=notes)
    # 2. Signature with x5c[0]'s key (only when the algorithm is acceptable).
    if leaf is not None and header.get("alg") in JUDGE_ALGS:
        if not signature_ok(header["alg"], leaf, f"{h64}.{p64}".encode("ascii"), signature):
            fail("LOTE_SIGNATURE_INVALID", "signature does not verify with x5c[0]")
    # 3. The signer against the configured anchor.
    if leaf is not None and not signer_trusted(leaf, cfg.anchor, cfg.now):
        fail("LOTE_SIGNER_UNTRUSTED", "x5c[0] is not the anchor nor an end-entity certificate issued by it")
    # 4. The payload, strictly.
    doc: Any = None
    try:
        doc = strict_json(payload)
    except (UnicodeDecodeError, ValueError) as e:
        fail("LOTE_MALFORMED", f"payload: {e}")
    if doc is not None:
        structure: list[str] = []
        DOCUMENT(doc, "$", structure)
        if structure:
            for pr in structure:
                fail("LOTE_MALFORMED", pr)
            doc = None
    if doc is None:
        return Verdict(failed, header=header, notes=notes)
    info = doc["LoTE"]["ListAndSchemeInformation"]
    if info["LoTEVersionIdentifier"] != 1:
        fail("LOTE_VERSION_UNSUPPORTED", f"LoTEVersionIdentifier {info['LoTEVersionIdentifier']}")
        return Verdict(failed, header=header, doc=doc, notes=notes)
    # 5. Signer name binding (TS 119 602 6.8 as read by third parties).
    if leaf is not None and not name_binding_ok(leaf, info):
        fail("LOTE_SIGNER_NAME_MISMATCH", "subject C/O do not match SchemeTerritory/SchemeOperatorName")
    # 6. Time.
    issued, next_update = parse_date(info["ListIssueDateTime"]), parse_date(info["NextUpdate"])
    if issued > cfg.now:
        fail("LOTE_NOT_YET_VALID", "ListIssueDateTime is after the verification time")
    if info["NextUpdate"] is None:
        fail("LOTE_CLOSED", "NextUpdate is null")
    elif next_update <= issued:
        fail("LOTE_MALFORMED", "NextUpdate is not after ListIssueDateTime")
    elif next_update <= cfg.now:
        fail("LOTE_STALE", "NextUpdate has passed")
    # 7. Profile.
    profile = PROFILES[cfg.kind]
    for pr in profile_problems(doc, profile):
        fail("LOTE_PROFILE_VIOLATION", pr)
    # 8. Rollback.
    if cfg.previous_sequence is not None and info["LoTESequenceNumber"] < cfg.previous_sequence:
        fail("LOTE_SEQUENCE_REGRESSION", f"{info['LoTESequenceNumber']} < {cfg.previous_sequence}")
    grants = grants_of(doc, profile, cfg.now) if not failed else []
    return Verdict(failed, grants, header, doc, notes)


# ==================================================================================================
# Self-checks
# ==================================================================================================

def read_eudi() -> dict[str, bytes]:
    files = {}
    for name, digest in EUDI_FILES.items():
        path = EUDI / name
        if not path.is_file():
            raise SystemExit(f"missing {rel(path)} (third-party copy, see eudi/SOURCES.md)")
        data = path.read_bytes()
        if sha256_hex(data) != digest:
            raise SystemExit(f"{rel(path)} differs from its pinned SHA-256")
        files[name] = data
    if not (EUDI / "SOURCES.md").is_file():
        raise SystemExit("missing TestVectors/lote/eudi/SOURCES.md")
    return files


def schema_validator(schema_bytes: bytes):
    import jsonschema
    schema = json.loads(schema_bytes)
    return jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)


def parts_of(data: bytes) -> tuple[dict, bytes, bytes, bool]:
    """(header, payload bytes, signature bytes, compact?) of a case file, read loosely (for comparisons only)."""
    if data.startswith(b"{"):
        obj = json.loads(data)
        sig = obj["signatures"][0]
        return (json.loads(b64u_strict(sig["protected"])), b64u_strict(obj["payload"]),
                b64u_strict(sig["signature"]), False)
    h, p, s = data.decode("ascii").split(".")
    return json.loads(b64u_strict(h)), b64u_strict(p), b64u_strict(s), True


def json_diff(a: Any, b: Any, path: str, out: set[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                out.add(f"{path}.{k}".lstrip("."))
            else:
                json_diff(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a:
        for i, (x, y) in enumerate(zip(a, b)):
            json_diff(x, y, f"{path}.{i}", out)
    elif a != b or type(a) is not type(b):
        out.add(path.lstrip("."))


def diff_from_base(case: Case, data: bytes, base: bytes) -> list[str]:
    h, p, s, compact = parts_of(data)
    bh, bp, bs, bcompact = parts_of(base)
    found: set[str] = set()
    if compact != bcompact:
        found.add("serialization")
    found |= {f"header.{k}" for k in set(h) | set(bh) if h.get(k) != bh.get(k)}
    if case.raw is not None:
        if p != bp:
            found.add("payload-bytes")
    else:
        paths: set[str] = set()
        json_diff(json.loads(bp), json.loads(p), "", paths)
        found |= {f"payload {x}" for x in paths}
    problems = []
    if found != case.diff:
        problems.append(f"differs from {case.base} in {sorted(found)}, declared {sorted(case.diff)}")
    if case.tamper:
        flipped = [i for i in range(min(len(s), len(bs))) if s[i] != bs[i]]
        if len(s) != len(bs) or len(flipped) != 1 or bin(s[flipped[0]] ^ bs[flipped[0]]).count("1") != 1:
            problems.append("signature does not differ from the base's in exactly one bit")
    elif not case.alg_none and not case.hmac_key and case.signer == "operator-signer" and not found - {"serialization"}:
        if s != bs:
            problems.append("same signing input, different signature (not deterministic)")
    return problems


def joserfc_checks(case: Case, data: bytes, pki: dict[str, Party]) -> list[str]:
    """joserfc (independent of the code above) verifies every genuinely signed case with its signer's key and
    refuses bad-signature, alg-none, alg-hs256 and crit-unknown."""
    from joserfc import jws
    from joserfc.errors import JoseError
    from joserfc.jwk import ECKey
    from joserfc.registry import HeaderParameter

    key = ECKey.import_key(pki[case.signer].cert.public_key())
    registry = jws.JWSRegistry(header_registry={"sigT": HeaderParameter("JAdES claimed signing time", "str"),
                                                "iat": HeaderParameter("JAdES claimed signing time", "int")},
                               algorithms=["ES256"])
    registry.max_header_length = 8192
    try:
        if case.json_serialization:
            obj = jws.deserialize_json(json.loads(data), key, algorithms=["ES256"], registry=registry)
        else:
            obj = jws.deserialize_compact(data, key, algorithms=["ES256"], registry=registry)
        ok = True
    except (JoseError, ValueError):
        ok = False
    should = case.name not in ("bad-signature", "alg-none", "alg-hs256", "crit-unknown")
    if ok != should:
        return [f"joserfc {'accepted' if ok else 'refused'} it"]
    if ok:
        body = case.raw if case.raw is not None else cjson(case.doc)
        if obj.payload != body:
            return ["joserfc decoded a different payload"]
    return []


def self_check(pki: dict[str, Party], listed: dict, built: dict[str, bytes], all_cases: list[Case],
               eudi: dict[str, bytes]) -> tuple[list[str], dict[str, Verdict], dict[str, bool | None], dict]:
    problems: list[str] = []
    anchor, signer = pki["operator-ca"].cert, pki["operator-signer"].cert

    # PKI profile.
    for name, issuer in (("operator-signer", "operator-ca"), ("operator-signer-wrong-o", "operator-ca"),
                         ("operator-signer-wrong-c", "operator-ca"), ("other-signer", "other-ca"),
                         ("pid-status-signer", "pid-status-ca")):
        cert = pki[name].cert
        cert.verify_directly_issued_by(pki[issuer].cert)  # raises on failure
        ku = cert.extensions.get_extension_for_class(x509.KeyUsage)
        if not (ku.critical and ku.value.digital_signature and not ku.value.key_cert_sign):
            problems.append(f"{name}: keyUsage is not digitalSignature (critical)")
        if cert.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier != \
                ski_of(pki[issuer].cert):
            problems.append(f"{name}: AKI is not {issuer}'s SKI")
    for name in ("operator-ca", "other-ca", "pid-status-ca"):
        c = pki[name].cert
        c.verify_directly_issued_by(c)
        if not c.extensions.get_extension_for_class(x509.BasicConstraints).value.ca:
            problems.append(f"{name}: not a CA")
    if not signer_trusted(signer, anchor, NOW):
        problems.append("operator-signer is not trusted under operator-ca")
    for name in ("other-signer", "self-signed-signer"):
        if signer_trusted(pki[name].cert, anchor, NOW):
            problems.append(f"{name} is trusted under operator-ca")
        if pki[name].cert.subject != signer.subject:
            problems.append(f"{name}: subject differs from operator-signer's")
    if add_months(g.d(ISSUED), 6) < g.d(NEXT_UPDATE):
        problems.append("the base NextUpdate is more than 6 months after issue")

    validator = schema_validator(eudi["1960201_json_schema.json"])
    by_name = {c.name: c for c in all_cases}
    if len(by_name) != len(all_cases):
        problems.append("duplicate case names")
    seq_of = {c.name: c.doc["LoTE"]["ListAndSchemeInformation"]["LoTESequenceNumber"] for c in all_cases
              if c.expect == "valid"}
    sha_to_name = {sha256_hex(der(cert)): n for n, cert in listed.items()}
    verdicts: dict[str, Verdict] = {}
    schema_ok: dict[str, bool | None] = {}
    for case in all_cases:
        data = built[case.name]
        if case.expect != "valid" and case.expect not in CODES:
            problems.append(f"{case.name}: unknown code {case.expect}")
        prev = seq_of[case.import_after] if case.import_after else None
        v = judge(data, JudgeConfig(case.kind, anchor, NOW, prev))
        verdicts[case.name] = v
        want = [] if case.expect == "valid" else [case.expect]
        if v.failed != want:
            problems.append(f"{case.name}: judge says {v.failed or 'valid'} ({v.notes}), expected {case.expect}")
        if case.import_after:  # on its own (nothing imported before) every case with import_after is valid
            alone = judge(data, JudgeConfig(case.kind, anchor, NOW))
            if alone.failed:
                problems.append(f"{case.name}: on its own the judge says {alone.failed}")
        if case.expect == "valid":
            def order(t: tuple) -> tuple:
                return t[0], t[1], t[2] or "", t[3]
            got = sorted(((gr["serviceType"], sha_to_name.get(gr["sha256"], gr["sha256"]), gr.get("status"),
                           gr["grantsTrust"]) for gr in v.grants), key=order)
            if got != sorted(case.grants, key=order):
                problems.append(f"{case.name}: judge grants {got}, declared {case.grants}")
            header = v.header or {}
            if b64_std_strict(header["x5c"][0]) != der(signer):
                problems.append(f"{case.name}: x5c[0] is not operator-signer")
            signer.verify_directly_issued_by(anchor)
        # The ETSI JSON schema, on every payload that is JSON.
        body = case.raw if case.raw is not None else cjson(case.doc)
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        schema_ok[case.name] = None if parsed is None else validator.is_valid(parsed)
        if parsed is not None and schema_ok[case.name] != case.schema_valid:
            errors = [e.message for e in validator.iter_errors(parsed)][:3]
            problems.append(f"{case.name}: schema-valid is {schema_ok[case.name]}, declared {case.schema_valid} "
                            f"{errors}")
        if case.base is not None:
            problems += [f"{case.name}: {p}" for p in diff_from_base(case, data, built[case.base])]
        elif case.diff:
            problems.append(f"{case.name}: a base list declares differences")
        problems += [f"{case.name}: {p}" for p in joserfc_checks(case, data, pki)]

    eudi_facts, eudi_problems = check_eudi_sample(eudi, validator)
    problems += eudi_problems
    return problems, verdicts, schema_ok, eudi_facts


EUDI_EXPECT = {  # what the judge must say about eudi/wallet-providers.txt with the pinned certificate as anchor
    EUDI_SAMPLE_TIME: ["LOTE_SIGNER_NAME_MISMATCH"],
    VERIFICATION_TIME: ["LOTE_SIGNER_UNTRUSTED", "LOTE_SIGNER_NAME_MISMATCH", "LOTE_STALE"],
}


def check_eudi_sample(eudi: dict[str, bytes], validator) -> tuple[dict, list[str]]:
    from joserfc import jws
    from joserfc.errors import JoseError
    from joserfc.jwk import RSAKey

    problems: list[str] = []
    token = eudi["wallet-providers.txt"]
    pinned = x509.load_pem_x509_certificate(eudi["wallet-providers.cer"])
    header, payload, _, compact = parts_of(token)
    doc = json.loads(payload)
    leaf = x509.load_der_x509_certificate(b64_std_strict(header["x5c"][0]))
    info = doc["LoTE"]["ListAndSchemeInformation"]
    outcomes = {}
    for when, want in EUDI_EXPECT.items():
        v = judge(token, JudgeConfig("wallet", pinned, g.d(when)))
        outcomes[when] = v.failed
        if v.failed != want:
            problems.append(f"eudi sample at {when}: judge says {v.failed} ({v.notes}), expected {want}")
    registry = jws.JWSRegistry(algorithms=["RS512"], strict_check_header=False)
    registry.max_header_length = 8192
    try:
        jws.deserialize_compact(token, RSAKey.import_key(leaf.public_key()), algorithms=["RS512"], registry=registry)
    except JoseError as e:
        problems.append(f"eudi sample: joserfc refuses it: {e}")
    x5t_o = header.get("x5t#o", {})
    ku = leaf.extensions.get_extension_for_class(x509.KeyUsage).value
    facts = {
        "file": "eudi/wallet-providers.txt",
        "signerAnchor": "eudi/wallet-providers.cer",
        "anchorKind": "the pinned signing certificate itself (exact DER match), as the EUDI test does; its issuer "
                      "\"CommisSign - 2\" is not included",
        "kind": "wallet",
        "compact": compact,
        "header": {"alg": header.get("alg"), "typ": header.get("typ"), "cty": header.get("cty"),
                   "otherMembers": sorted(k for k in header if k not in ("alg", "typ", "cty", "x5c")),
                   "crit": header.get("crit")},
        "x5tOMatchesX5c0": x5t_o.get("digAlg") == "S512" and x5t_o.get("digVal") == b64u(
            hashlib.sha512(der(leaf)).digest()),
        "x5c0EqualsCer": der(leaf) == der(pinned),
        "signer": {"subject": leaf.subject.rfc4514_string(), "issuer": leaf.issuer.rfc4514_string(),
                   "notBefore": leaf.not_valid_before_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
                   "notAfter": leaf.not_valid_after_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
                   "keyUsage": [label for n, label in (("digital_signature", "digitalSignature"),
                                                       ("content_commitment", "nonRepudiation")) if getattr(ku, n)]},
        "schemaValid": validator.is_valid(doc),
        "sequenceNumber": info["LoTESequenceNumber"], "issued": info["ListIssueDateTime"],
        "nextUpdate": info["NextUpdate"], "schemeTerritory": info.get("SchemeTerritory"),
        "lotetype": info.get("LoTEType"),
        "outcomes": outcomes,
    }
    if not facts["schemaValid"] or not facts["x5c0EqualsCer"] or not facts["x5tOMatchesX5c0"]:
        problems.append(f"eudi sample facts changed: {facts}")
    if leaf.subject.get_attributes_for_oid(NameOID.COUNTRY_NAME)[0].value != "LU" or ku.digital_signature:
        problems.append("eudi sample: signer is not C=LU with keyUsage nonRepudiation only")
    return facts, problems


# ==================================================================================================
# Signer revocation: a separate set whose list signers name a CRL distribution point (their issuer's CRL)
# ==================================================================================================

# The loopback CRL server of TestVectors/crl (crl_vectors.py DP_BASE): a test serves CRL_FILE at CRL_PATH.
CRL_OPERATOR_CA = "crl-operator-ca"
CRL_PATH = f"/crl/{CRL_OPERATOR_CA}.crl"
CRL_URL = "http://127.0.0.1:18620" + CRL_PATH
CRL_FILE = f"crls/{CRL_OPERATOR_CA}.crl"
CRL_THIS_UPDATE, CRL_NEXT_UPDATE = "2029-12-31T00:00:00Z", "2030-01-07T00:00:00Z"  # as crl_vectors.py's base CRLs
CRL_NUMBER = 100  # as crl_vectors.py's base CRLs
# Each list of the set: (list name, its signer, expect with CRL checking, CRLReason name, revocationDate).
SIGNER_REVOCATION = [
    ("mdl-valid-crl-signer-good", "crl-operator-signer-good", "good", None, None),
    ("mdl-valid-crl-signer-revoked", "crl-operator-signer-revoked", "revoked", "keyCompromise",
     "2029-06-01T00:00:00Z"),
]
CRL_REASONS = {"keyCompromise": x509.ReasonFlags.key_compromise}


def build_crl_pki() -> dict[str, Party]:
    """crl-operator-ca (named like operator-ca) and its two list signers (operator-signer's C and O, key usage and
    validity, plus a cRLDistributionPoints naming CRL_URL)."""
    ca = make_ca(CRL_OPERATOR_CA, dn(TERRITORY, OPERATOR, "verifierd TEST-ONLY LoTE CRL Operator CA"),
                 "The list-signer anchor of the signer revocation set (`signerRevocation`) only; signs "
                 f"`{CRL_FILE}`.")
    good = make_signer("crl-operator-signer-good", dn(TERRITORY, OPERATOR, "verifierd TEST-ONLY LoTE CRL Signer Good"),
                       ca, "A list signer like operator-signer (C=EU, O=verifierd Test Scheme Operator) with the CRL "
                           f"distribution point {CRL_URL}; not revoked.", crl_dp=CRL_URL)
    revoked = make_signer("crl-operator-signer-revoked",
                          dn(TERRITORY, OPERATOR, "verifierd TEST-ONLY LoTE CRL Signer Revoked"), ca,
                          "As crl-operator-signer-good, but revoked in "
                          f"`{CRL_FILE}` (keyCompromise, 2029-06-01).", crl_dp=CRL_URL)
    return {p.name: p for p in (ca, good, revoked)}


def make_operator_crl(crl_pki: dict[str, Party]) -> bytes:
    """crl-operator-ca's v2 base CRL, built as crl_vectors.py builds its base CRLs: issuer name, thisUpdate,
    nextUpdate, AKI = the CA's SKI, CRLNumber (both non-critical), one entry per revoked signer with a reasonCode."""
    ca = crl_pki[CRL_OPERATOR_CA]
    b = (x509.CertificateRevocationListBuilder().issuer_name(ca.cert.subject)
         .last_update(g.d(CRL_THIS_UPDATE)).next_update(g.d(CRL_NEXT_UPDATE))
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
             ca.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value), critical=False)
         .add_extension(x509.CRLNumber(CRL_NUMBER), critical=False))
    for _, signer, expect, reason, when in SIGNER_REVOCATION:
        if expect == "revoked":
            b = b.add_revoked_certificate(
                x509.RevokedCertificateBuilder().serial_number(crl_pki[signer].cert.serial_number)
                .revocation_date(g.d(when)).add_extension(x509.CRLReason(CRL_REASONS[reason]), critical=False).build())
    return b.sign(ca.key, hashes.SHA256(), ecdsa_deterministic=True).public_bytes(serialization.Encoding.DER)


def _tlv(data: bytes, off: int) -> tuple[int, int, int]:
    """(tag, value start, value end) of the DER TLV at off."""
    tag, length, off = data[off], data[off + 1], off + 2
    if length & 0x80:
        n = length & 0x7F
        length, off = int.from_bytes(data[off:off + n], "big"), off + n
    return tag, off, off + length


def crl_problems(data: bytes, crl_pki: dict[str, Party]) -> list[str]:
    """The CRL as verifierd's strict reader and CRLJudge want it (cryptography plus a little DER reading)."""
    ca = crl_pki[CRL_OPERATOR_CA].cert
    problems: list[str] = []
    crl = x509.load_der_x509_crl(data)
    tag, v0, e0 = _tlv(data, 0)
    ttag, v1, _ = _tlv(data, v0)
    if tag != 0x30 or e0 != len(data) or ttag != 0x30 or data[v1:v1 + 3] != b"\x02\x01\x01":
        problems.append("not one DER CertificateList with version v2")
    if crl.public_bytes(serialization.Encoding.DER) != data:
        problems.append("does not re-encode to the same DER")
    if crl.signature_algorithm_oid != x509.SignatureAlgorithmOID.ECDSA_WITH_SHA256:
        problems.append("not ecdsa-with-SHA256")
    if not crl.is_signature_valid(ca.public_key()):
        problems.append(f"signature does not verify with {CRL_OPERATOR_CA}'s key")
    if crl.issuer != ca.subject:
        problems.append(f"issuer is not {CRL_OPERATOR_CA}")
    if (crl.last_update_utc, crl.next_update_utc) != (g.d(CRL_THIS_UPDATE), g.d(CRL_NEXT_UPDATE)):
        problems.append("thisUpdate / nextUpdate differ")
    if not crl.last_update_utc <= NOW <= crl.next_update_utc:
        problems.append("not current at the verification time")
    exts = {e.oid: e for e in crl.extensions}
    if set(exts) != {x509.ExtensionOID.AUTHORITY_KEY_IDENTIFIER, x509.ExtensionOID.CRL_NUMBER} or \
            any(e.critical for e in exts.values()):
        problems.append("extensions are not exactly AKI and CRLNumber, both non-critical")
    elif exts[x509.ExtensionOID.AUTHORITY_KEY_IDENTIFIER].value.key_identifier != ski_of(ca) or \
            exts[x509.ExtensionOID.CRL_NUMBER].value.crl_number != CRL_NUMBER:
        problems.append("AKI is not the CA's SKI, or CRLNumber differs")
    want = {(crl_pki[s].cert.serial_number, g.d(when), CRL_REASONS[reason])
            for _, s, expect, reason, when in SIGNER_REVOCATION if expect == "revoked"}
    got = set()
    for rc in crl:
        rexts = list(rc.extensions)
        if [e.oid for e in rexts] != [x509.CRLEntryExtensionOID.CRL_REASON] or rexts[0].critical:
            problems.append(f"entry {rc.serial_number:x}: extensions are not exactly a non-critical reasonCode")
            continue
        got.add((rc.serial_number, rc.revocation_date_utc, rexts[0].value.reason))
    if got != want or len(list(crl)) != len(want):
        problems.append(f"lists {got}, expected exactly {want}")
    return problems


@dataclass
class SignerRevocation:
    files: dict[str, bytes]  # folder-relative path -> bytes
    manifest: dict
    pki_rows: list[str]  # rows for the README's Files table
    list_rows: list[str]  # rows for the README's signer revocation table
    problems: list[str]


def signer_revocation(pki: dict[str, Party], built: dict[str, bytes], all_cases: list[Case]) -> SignerRevocation:
    """The signer revocation set: crl-operator-ca, its two list signers (cRLDistributionPoints CRL_URL), its CRL
    (revoking crl-operator-signer-revoked) and mdl-valid signed by each signer with x5c = [signer]. Self-checked:
    each list differs from mdl-valid in header.x5c only, the judge finds it valid (with mdl-valid's grants) under
    crl-operator-ca and LOTE_SIGNER_UNTRUSTED under operator-ca, joserfc verifies it with its signer's key, each
    signer chains to crl-operator-ca and names CRL_URL, and the CRL is exactly as make_operator_crl says; a small CRL
    lookup then gives each signer exactly its expect."""
    crl_pki = build_crl_pki()
    both = pki | crl_pki
    base = next(c for c in all_cases if c.name == "mdl-valid")
    anchor = crl_pki[CRL_OPERATOR_CA].cert
    crl_der = make_operator_crl(crl_pki)
    problems = [f"{CRL_FILE}: {p}" for p in crl_problems(crl_der, crl_pki)]
    crl = x509.load_der_x509_crl(crl_der)
    base_verdict = judge(built["mdl-valid"], JudgeConfig("mdl", pki["operator-ca"].cert, NOW))
    anchor.verify_directly_issued_by(anchor)
    if set(both) != set(pki) | set(crl_pki):
        problems.append("a signer revocation party reuses a name")

    files: dict[str, bytes] = {}
    for p in crl_pki.values():
        files[f"pki/{p.name}.pem"] = p.cert.public_bytes(serialization.Encoding.PEM)
        files[f"pki/keys/{p.name}.pem"] = p.key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    files[CRL_FILE] = crl_der
    entries, list_rows = [], []
    for name, signer, expect, reason, when in SIGNER_REVOCATION:
        cert = crl_pki[signer].cert
        description = (f"mdl-valid (same payload) signed by {signer} with x5c = [{signer}]: " +
                       ("its certificate is not on crl-operator-ca's CRL, so the list is valid and grants "
                        "iaca-p256 mDL issuance." if expect == "good" else
                        f"its certificate is on crl-operator-ca's CRL ({reason}, {when[:10]}), so a reader that "
                        "checks the signer's CRL refuses the list (it grants nothing); without the check it would "
                        "be valid."))
        case = Case(name, "mdl", "valid", f"signer and x5c = {signer}", description, base.doc, base="mdl-valid",
                    signer=signer, x5c=[signer], grants=base.grants, diff={"header.x5c"})
        data = build(case, both)
        problems += [f"{name}: {p}" for p in diff_from_base(case, data, built["mdl-valid"])]
        problems += [f"{name}: {p}" for p in joserfc_checks(case, data, both)]
        v = judge(data, JudgeConfig("mdl", anchor, NOW))
        if v.failed or v.grants != base_verdict.grants:
            problems.append(f"{name}: under {CRL_OPERATOR_CA} the judge says {v.failed or 'valid'} with grants "
                            f"{v.grants}, expected valid with mdl-valid's grants")
        if b64_std_strict((v.header or {}).get("x5c", [""])[0]) != der(cert):
            problems.append(f"{name}: x5c[0] is not {signer}")
        other = judge(data, JudgeConfig("mdl", pki["operator-ca"].cert, NOW))
        if other.failed != ["LOTE_SIGNER_UNTRUSTED"]:
            problems.append(f"{name}: under operator-ca the judge says {other.failed}, expected LOTE_SIGNER_UNTRUSTED")
        # The signer: like operator-signer apart from its CN, serial, key and the CRL distribution point.
        cert.verify_directly_issued_by(anchor)
        ref = pki["operator-signer"].cert
        if [(a.oid, a.value) for a in cert.subject if a.oid != NameOID.COMMON_NAME] != \
                [(a.oid, a.value) for a in ref.subject if a.oid != NameOID.COMMON_NAME]:
            problems.append(f"{signer}: subject C/O differ from operator-signer's")
        ext_of = {e.oid: e for e in cert.extensions}
        ref_ext = {e.oid: e for e in ref.extensions}
        for oid in (x509.ExtensionOID.BASIC_CONSTRAINTS, x509.ExtensionOID.KEY_USAGE):
            if (ext_of[oid].critical, ext_of[oid].value) != (ref_ext[oid].critical, ref_ext[oid].value):
                problems.append(f"{signer}: {oid.dotted_string} differs from operator-signer's")
        if list(ext_of) != list(ref_ext) + [x509.ExtensionOID.CRL_DISTRIBUTION_POINTS]:
            problems.append(f"{signer}: extensions are not operator-signer's plus cRLDistributionPoints")
        dps = cert.extensions.get_extension_for_class(x509.CRLDistributionPoints)
        if dps.critical or [[n.value for n in dp.full_name] for dp in dps.value] != [[CRL_URL]]:
            problems.append(f"{signer}: cRLDistributionPoints is not exactly {CRL_URL}")
        if cert.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier != ski_of(anchor):
            problems.append(f"{signer}: AKI is not {CRL_OPERATOR_CA}'s SKI")
        if (cert.not_valid_before_utc, cert.not_valid_after_utc) != (ref.not_valid_before_utc,
                                                                      ref.not_valid_after_utc):
            problems.append(f"{signer}: validity differs from operator-signer's")
        # The CRL lookup (RFC 5280 6.3.3: the CRL is of the signer's issuer and current; then the listing decides).
        listed = crl.get_revoked_certificate_by_serial_number(cert.serial_number)
        got = "good" if listed is None else "revoked"
        if crl.issuer != cert.issuer:
            problems.append(f"{name}: the CRL's issuer is not {signer}'s issuer")
        elif got != expect:
            problems.append(f"{name}: the CRL says {got}, expected {expect}")
        elif listed is not None and (listed.extensions.get_extension_for_class(x509.CRLReason).value.reason
                                     != CRL_REASONS[reason] or listed.revocation_date_utc != g.d(when)):
            problems.append(f"{name}: the CRL's reason or date differ from {reason}, {when}")
        files[f"lists/{name}.jwt"] = data
        entries.append({"name": name, "file": f"lists/{name}.jwt", "kind": "mdl", "description": description,
                        "signer": f"pki/{signer}.pem", "expect": expect, "reason": reason, "revocationDate": when})
        list_rows.append(f"| `{name}` | `{signer}` | `{expect}`{f' ({reason}, {when})' if reason else ''} | "
                         f"{description} |")
    manifest = {
        "description": "The list signer's certificate checked against its issuer's CRL: mdl-valid signed by list "
                       "signers under signerAnchor (not the top-level one) whose certificates name the CRL "
                       f"distribution point {CRL_URL}. Serve crl.file at crl.path on 127.0.0.1:18620 (DER, "
                       "application/pkix-crl). At verificationTime, with the signer's CRL checked, expect good: the "
                       "list is valid with mdl-valid's grants; revoked: the list is refused because its signer's "
                       "certificate is revoked (reason, revocationDate) and grants nothing. Without the CRL check "
                       "both are valid.",
        "signerAnchor": f"pki/{CRL_OPERATOR_CA}.pem",
        "crl": {"path": CRL_PATH, "file": CRL_FILE},
        "lists": entries,
    }
    pki_rows = [f"| `pki/{p.name}.pem` | `{p.cert.subject.rfc4514_string()}`"
                f"{', issued by ' + p.issuer if p.issuer else ', self-signed'}. {p.description} |"
                for p in crl_pki.values()]
    return SignerRevocation(files, manifest, pki_rows, list_rows, problems)


# ==================================================================================================
# Output
# ==================================================================================================

README = """# ETSI TS 119 602 Lists of Trusted Entities (LoTE) — TEST-ONLY

**Every key and certificate in `pki/` is TEST-ONLY.** The private keys are derived from public seed labels
(`lote/<name>`, see `TestVectors/generator/generate.py` `derive_key`), so anyone can recompute them. Never configure
any of this as trusted material outside the tests.

Signed lists of trusted entities (ETSI TS 119 602 V1.1.1, JSON binding; EU profiles of Annexes D–I and the
Commission's mDL providers list) for verifierd's tests, and the outcome a strict reader must reach for each at the
verification time **{time}** with **`pki/operator-ca.pem` as the only list-signer anchor** (except the
separate signer revocation set, see [Signer revocation](#signer-revocation-signerrevocation), whose anchor is
`pki/crl-operator-ca.pem`).

## Regenerate

From the repository root, after `generate.py`, `sd_jwt_vc.py` and `registration_certificates.py` (the lists carry
certificates those write):

```sh
.venv/bin/python3 TestVectors/generator/lote_lists.py
```

The script deletes and rewrites everything in this folder except `eudi/` (third-party copies, which it only reads
and checks against pinned SHA-256 digests). Output is byte-identical on every run. Before writing, it aborts unless
every valid list validates against the ETSI JSON schema (`eudi/1960201_json_schema.json`, Python `jsonschema`
Draft 7 with format checks) and every other payload is schema-valid or not exactly as `schemaValid` says; a small
strict judge in the script (cryptography only, written apart from the writer) gives each case exactly its `expect`
(a refusal fails the checks of exactly one code) and the declared grants; each case differs from its `base` in exactly the
declared places; joserfc verifies every valid list with `pki/operator-signer.pem`'s key (and refuses
`bad-signature`, `alg-none`, `alg-hs256`, `crit-unknown`), and `operator-signer.pem` chains to `operator-ca.pem`.
For the signer revocation set it also checks that each of its lists differs from `mdl-valid` only in `x5c`, is
valid under `crl-operator-ca.pem` (with mdl-valid's grants) and `LOTE_SIGNER_UNTRUSTED` under `operator-ca.pem`,
verifies with joserfc, that each signer chains to `crl-operator-ca.pem` and names exactly the CRL distribution
point, and that `{crl_file}` is a DER v2 CRL signed by `crl-operator-ca` listing exactly
`crl-operator-signer-revoked`.

## Files

| File | What |
| --- | --- |
{pki_table}
| `pki/keys/<name>.pem` | The private key of each, PKCS#8 PEM. |
| `{crl_file}` | crl-operator-ca's CRL (DER), revoking crl-operator-signer-revoked: see [Signer revocation](#signer-revocation-signerrevocation). |
| `lists/<case>.jwt` | One list per case, ASCII, no trailing newline: a compact JWS, except `jws-json-serialization.jwt`, which holds general JWS JSON serialization. The two `mdl-valid-crl-signer-*.jwt` belong to the signer revocation set, not to the cases. |
| `manifest.json` | Every case with its expected outcome and grants (below). |
| `eudi/` | Third-party copies (the ETSI JSON schema, and a real signed LoTE with its signing certificate) with `eudi/SOURCES.md`. Not produced by this script. |

All certificates here are P-256, ECDSA-SHA256, valid 2024-01-01T00:00:00Z .. 2074-01-01T00:00:00Z. CAs:
basicConstraints CA pathLen 0 (critical), keyUsage keyCertSign + cRLSign (critical), SKI. Signers: basicConstraints
not a CA (critical), keyUsage digitalSignature (critical), AKI = the issuer's SKI, SKI; the two `crl-operator-signer-*`
also a cRLDistributionPoints (non-critical) naming `{crl_url}`.

## The lists

Header of every compact list unless a case says otherwise: `{{"alg":"ES256","x5c":[<operator-signer.pem, standard
base64 DER>],"iat":{iat}}}` (JAdES baseline B: no `typ`, no `b64`, no `crit`; `iat` = {signing} in every case, so it
never differs between a case and its base). The payload is the whole `{{"LoTE": {{...}}}}` document, compact JSON in
the JSON schema's member order. Every list has explicit scheme information with its profile's values:
`SchemeOperatorName` `[{{"lang":"en","value":"{operator}"}}]`, `SchemeTerritory` `EU`, `LoTEVersionIdentifier` 1,
`ListIssueDateTime` {issued}, `NextUpdate` {next_update} (5 months), no empty array, dates `YYYY-MM-DDThh:mm:ssZ`.
Listed certificates are copied by value (`ServiceDigitalIdentity.X509Certificates[].val`, standard base64 DER) with
`X509SKIs`. No list has `ServiceStatus` except the Pub-EAA ones (`generic-*`), which also carry
`HistoricalInformationPeriod` 65535.

| Kind | LoTEType | StatusDeterminationApproach | SchemeTypeCommunityRules | Service types |
| --- | --- | --- | --- | --- |
{profile_table}

The scheme information of `mdl-valid`:

```json
{example_info}
```

## Cases

`Expect` is `valid` or the refusal code; `importAfter` names the list imported just before (the sequence number of
that list is the one in force). Grants: which listed certificate anchors what, for a valid list (`purpose` issuance:
credential issuers; revocation: status-list / CRL signers only; register: the registrar).

| Case | Kind | Seq | Expect | The one difference from its base | What |
| --- | --- | --- | --- | --- | --- |
{cases_table}

Refusal codes:

{codes_list}

## manifest.json

```
{{"generator", "description", "verificationTime": "{time}", "signerAnchor": "pki/operator-ca.pem",
 "codes": {{<code>: <meaning>}},
 "lists": [{{"name", "file", "kind": "mdl"|"pid"|"registrars"|"wrpac"|"wrprc"|"pubeaa", "description",
            "sequenceNumber", "issued", "nextUpdate" (as in the payload; null when absent or unreadable),
            "expect": "valid" | <code>, "importAfter"? (then "expectWithoutImport": "valid"), "base", "defect",
            "x5c": ["pki/<certificate>.pem", ...], "schemaValid": true|false|null (null: payload not JSON),
            "grants": [{{"serviceType", "purpose", "certificate" (REPOSITORY-relative path), "sha256" (of the DER),
                        "status"?, "grantsTrust"}}]}}],
 "omittedCases": [...], "thirdParty": [...],
 "signerRevocation": {{"description", "signerAnchor": "pki/crl-operator-ca.pem",
                      "crl": {{"path": "{crl_path}", "file": "{crl_file}"}},
                      "lists": [{{"name", "file", "kind": "mdl", "description", "signer": "pki/<certificate>.pem",
                                 "expect": "good"|"revoked", "reason": <CRLReason name>|null,
                                 "revocationDate": <date-time>|null}}]}}}}
```

`file`, `signerAnchor`, `x5c`, `signer` and `crl.file` are relative to this folder; `grants[].certificate` is relative
to the repository root; `crl.path` is the HTTP path to serve the CRL at. For a refused list every grant has
`grantsTrust` false.

## Signer revocation (`signerRevocation`)

A separate set, not among the cases above (`lists` leaves it out; its `expect` is a revocation status, not a LoTE
outcome): is the list signer's certificate checked against its issuer's CRL? Its list-signer anchor is
**`pki/crl-operator-ca.pem`**, configured instead of operator-ca (under operator-ca both lists are
`LOTE_SIGNER_UNTRUSTED`).

* `crl-operator-ca` is named and built like operator-ca (C=EU, O=verifierd Test Scheme Operator; CA, keyUsage
  keyCertSign + cRLSign). Its two list signers are like operator-signer (the same C and O, so the signer name binding
  to SchemeTerritory / SchemeOperatorName holds; the same key usage, extensions and validity) with their own CN and a
  cRLDistributionPoints naming `{crl_url}`.
* `{crl_file}` is crl-operator-ca's CRL, built like `TestVectors/crl`'s base CRLs: DER, v2,
  ecdsa-with-SHA256, thisUpdate 2029-12-31T00:00:00Z, nextUpdate 2030-01-07T00:00:00Z, CRLNumber 100 and
  AKI = crl-operator-ca's SKI (both non-critical), one entry: crl-operator-signer-revoked's serial,
  revocationDate 2029-06-01T00:00:00Z, reasonCode keyCompromise (non-critical). No other extension.
* Each list is `mdl-valid` (the same payload bytes) signed by its signer, header
  `{{"alg":"ES256","x5c":[<signer>],"iat":{iat}}}`: without a revocation check both are valid and grant iaca-p256
  mDL issuance.

Serving: a test runs a loopback HTTP server on 127.0.0.1:18620 (the port of `TestVectors/crl`) that answers
`{crl_path}` with `{crl_file}` (bytes as stored, `Content-Type: application/pkix-crl`) and 404 for
any other path. With the signer's CRL checked at {time}, `good` means the list is valid with mdl-valid's
grants, and `revoked` means it is refused because its signer's certificate is revoked (reason as given) and grants
nothing.

| List | Signer | Expect | What |
| --- | --- | --- | --- |
{revocation_table}

## Rules these vectors assume (and where they come from)

The TS PDF was not available; the rules come from the ETSI JSON schema (in `eudi/`), the EUDI Kotlin library
`eu-digital-identity-wallet/eudi-lib-kmp-etsi-1196x2` (profile constants), the TS clause texts quoted in the KDoc of
`a-sit-plus/vck`, and third-party summaries. Check them against the PDF before treating them as normative.

* Signer name binding (TS 6.8 as summarised by third parties): subject countryName = `SchemeTerritory`, subject
  organizationName = one of the `SchemeOperatorName` values. **The real Commission list in `eudi/` does not meet
  the country half** (its signer is C=LU for SchemeTerritory EU), see below.
* Signer keyUsage: our signers have digitalSignature; the Commission's signer has **nonRepudiation only**. The
  judge accepts either bit; a reader that insists on digitalSignature cannot read the Commission's lists.
* `NextUpdate` null = closed scheme (TS 6.3.15), although the JSON schema types it as a string.
* EU profiles: explicit scheme information, `NextUpdate` at most 6 calendar months after issue, no `ServiceStatus`
  (listed = trusted) except Pub-EAA (Annex H: notified / withdrawn; only notified grants trust), no history except
  Pub-EAA (`HistoricalInformationPeriod` 65535 per the third-party reading of Annex H; the EUDI library says
  absent).
* A date-time with a fraction is refused (TS 6.1.3) although the schema's `format: date-time` accepts it.
* `ServiceDigitalIdentity` is closed (the schema means to close it but puts `additionalProperties` inside
  `properties`).
* The header: `iat` (integer) or `sigT` (RFC 3339, listed in `crit`) as the claimed signing time; `crit` may name
  only `sigT`; `typ`, `cty`, `kid`, `x5t#o` and other non-critical parameters are ignored; `alg` ES256/384/512,
  PS256/384/512 or RS256/384/512 (RSA at least 2048 bits); never `none` or HMAC.
* The signer: x5c[0] is the configured anchor itself (a pinned signing certificate) or an end-entity certificate
  issued directly by it, both valid at the verification time; further x5c entries must each certify the one before
  (the anchor may be among them) but are never trusted for being there.
* A sequence number equal to the one in force is accepted (the same list fetched again); only a lower one is a
  rollback.

## Not covered: a critical scheme extension

TS 119 602 6.3.17 says every scheme extension carries an indication of its criticality and a reader rejects a list
with a critical extension it does not recognise (`LOTE_CRITICAL_EXTENSION`). The XML binding has it (the required
`Critical` attribute of `Extension`), but the JSON binding does not: the JSON schema's `SchemeExtensions` is an array
with no item structure, and neither the EUDI nor the vck data model gives a JSON member for it. Any JSON we wrote
would test our own invention, so there is no such case.

## Third-party sample (`eudi/`)

`eudi/wallet-providers.txt` is a real Commission-signed EU Wallet providers list (acceptance/test environment,
seq {e_seq}, issued {e_issued}, NextUpdate {e_next}) as a compact JWS, and `eudi/wallet-providers.cer` its signing
certificate. With that certificate pinned as the anchor and the list configured as the Wallet providers profile
(Annex E), the judge says:

{eudi_outcomes}

Everything else passes: the payload validates against the ETSI schema and the strict reader, the RS512 signature
verifies with x5c[0] (also with joserfc), the EU Wallet profile holds (no ServiceStatus, NextUpdate exactly 6
months after issue). At 2030-01-01 the signing certificate has also expired (2028-11-20) and the list is
stale. Header: `{e_header}` (JAdES `kid` and `x5t#o`; `x5t#o` matches x5c[0]). Signer: `{e_subject}`,
keyUsage {e_ku}. A reader that accepts it must therefore (a) accept RS512 (RSASSA-PKCS1-v1_5), (b) ignore `typ`
"jose", `cty` "json", `kid` and `x5t#o`, (c) not require digitalSignature, and (d) not bind the signer's country to
SchemeTerritory when the territory is EU — or it must refuse the Commission's list. The manifest's `thirdParty` gives
the same facts.
"""


def write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def clear_output() -> None:
    """Delete everything in TestVectors/lote/ except eudi/."""
    if not OUT.exists():
        return
    for child in sorted(OUT.iterdir()):
        if child.name == "eudi":
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def manifest_grants(case: Case, v: Verdict, listed: dict) -> list[dict]:
    sha_to_file = {sha256_hex(der(c)): LISTED_FILES[n][0] for n, c in listed.items()}
    if case.expect == "valid":
        grants = v.grants
    elif case.doc is None:
        grants = []
    else:  # a refused list grants nothing: every service it writes, with grantsTrust false
        grants = []
        for s in all_services(case.doc):
            for pk in s["ServiceDigitalIdentity"].get("X509Certificates", []):
                gr = {"serviceType": s.get("ServiceTypeIdentifier"), "purpose": purpose_of(
                    s.get("ServiceTypeIdentifier")), "sha256": sha256_hex(b64_std_strict(pk["val"]))}
                if "ServiceStatus" in s:
                    gr["status"] = s["ServiceStatus"]
                gr["grantsTrust"] = False
                grants.append(gr)
    out = []
    for gr in grants:
        e = {"serviceType": gr["serviceType"], "purpose": gr["purpose"], "certificate": sha_to_file[gr["sha256"]],
             "sha256": gr["sha256"]}
        if "status" in gr:
            e["status"] = gr["status"]
        e["grantsTrust"] = gr["grantsTrust"]
        out.append(e)
    return out


def main() -> int:
    eudi = read_eudi()
    pki = build_pki()
    listed = load_listed(pki)
    all_cases = cases(listed)
    built = {c.name: build(c, pki) for c in all_cases}
    problems, verdicts, schema_ok, eudi_facts = self_check(pki, listed, built, all_cases, eudi)
    revocation = signer_revocation(pki, built, all_cases)
    problems += [f"signer revocation: {p}" for p in revocation.problems]
    if problems:
        print("self-check FAILED:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1

    clear_output()
    for p in pki.values():
        write_bytes(OUT / "pki" / f"{p.name}.pem", p.cert.public_bytes(serialization.Encoding.PEM))
        write_bytes(OUT / "pki" / "keys" / f"{p.name}.pem",
                    p.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
    for path, data in revocation.files.items():
        write_bytes(OUT / path, data)
    entries, rows = [], []
    for c in all_cases:
        write_bytes(OUT / "lists" / f"{c.name}.jwt", built[c.name])
        info = c.doc["LoTE"]["ListAndSchemeInformation"] if c.doc is not None else {}
        e: dict[str, Any] = {"name": c.name, "file": f"lists/{c.name}.jwt", "kind": c.kind,
                             "description": c.description, "sequenceNumber": info.get("LoTESequenceNumber"),
                             "issued": info.get("ListIssueDateTime"), "nextUpdate": info.get("NextUpdate"),
                             "expect": c.expect}
        if c.import_after:
            e["importAfter"] = c.import_after
            e["expectWithoutImport"] = "valid"
        e["base"] = c.base
        e["defect"] = c.defect
        e["x5c"] = [] if "x5c" in c.header else [f"pki/{n}.pem" for n in c.x5c]
        e["schemaValid"] = schema_ok[c.name]
        e["grants"] = manifest_grants(c, verdicts[c.name], listed)
        entries.append(e)
        rows.append(f"| `{c.name}` | {c.kind} | {info.get('LoTESequenceNumber', '–')} | `{c.expect}`"
                     f"{' after `' + c.import_after + '`' if c.import_after else ''} | {c.defect} | {c.description} |")
    manifest = {
        "generator": GENERATOR,
        "description": "ETSI TS 119 602 lists of trusted entities (JSON binding, compact JAdES JWS with x5c) and the "
                       "outcome expected for each at verificationTime with signerAnchor as the only list-signer "
                       "anchor, each list configured as its kind's profile. TEST-ONLY.",
        "verificationTime": VERIFICATION_TIME,
        "signerAnchor": "pki/operator-ca.pem",
        "codes": CODES,
        "lists": entries,
        "omittedCases": [{"name": "critical-scheme-extension", "code": "LOTE_CRITICAL_EXTENSION",
                          "why": "TS 119 602 6.3.17 requires a criticality indication per scheme extension, but the "
                                 "JSON binding defines none (the JSON schema's SchemeExtensions items are "
                                 "unconstrained; only the XSD has the Critical attribute)."}],
        "thirdParty": [eudi_facts | {
            "expect": {t: (o[0] if len(o) == 1 else o) for t, o in eudi_facts["outcomes"].items()},
            "note": "Expected under the judge's rules: at 2026-01-01 the only failed check is the signer name "
                    "binding (subject C=LU, SchemeTerritory EU; O=European Commission does match). A reader that "
                    "does not bind the country accepts it then. At 2030-01-01 the signing certificate has expired "
                    "(2028-11-20) and the list is stale as well."}],
    }
    del manifest["thirdParty"][0]["outcomes"]
    manifest["signerRevocation"] = revocation.manifest
    write_bytes(OUT / "manifest.json", (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))

    pki_rows = [f"| `pki/{p.name}.pem` | `{p.cert.subject.rfc4514_string()}`"
                f"{', issued by ' + p.issuer if p.issuer else ', self-signed'}. {p.description} |"
                for p in pki.values()] + revocation.pki_rows
    profile_rows = [f"| {p.kind} | `{p.lote_type}` | `{p.status_determination[0]}` | `{p.community_rules}` | "
                    + ", ".join(f"`{t}`" for t in p.service_types.values()) + " |"
                    for k, p in PROFILES.items() if k != "wallet"]
    e_head = {k: v for k, v in parts_of(eudi["wallet-providers.txt"])[0].items() if k != "x5c"}
    readme = README.format(
        time=VERIFICATION_TIME, iat=epoch(SIGNING_TIME), signing=SIGNING_TIME, operator=OPERATOR, issued=ISSUED,
        next_update=NEXT_UPDATE, pki_table="\n".join(pki_rows), profile_table="\n".join(profile_rows),
        example_info=json.dumps(all_cases[0].doc["LoTE"]["ListAndSchemeInformation"], indent=2),
        cases_table="\n".join(rows), revocation_table="\n".join(revocation.list_rows), crl_url=CRL_URL,
        crl_path=CRL_PATH, crl_file=CRL_FILE, codes_list="\n".join(f"* `{k}`: {v}" for k, v in CODES.items()),
        e_seq=eudi_facts["sequenceNumber"], e_issued=eudi_facts["issued"], e_next=eudi_facts["nextUpdate"],
        eudi_outcomes="\n".join(f"* at {t}: " + ", ".join(f"`{c}`" for c in o)
                                for t, o in eudi_facts["outcomes"].items()),
        e_header=json.dumps({k: ("…" if k in ("kid", "x5t#o") else v) for k, v in e_head.items()},
                            ensure_ascii=False),
        e_subject=eudi_facts["signer"]["subject"], e_ku=", ".join(eudi_facts["signer"]["keyUsage"]))
    write_bytes(OUT / "README.md", readme.encode("utf-8"))
    valid = sum(1 for c in all_cases if c.expect == "valid")
    print(f"generated: TestVectors/lote ({len(all_cases)} lists: {valid} valid, {len(all_cases) - valid} refused; "
          "valid ones schema-checked and verified with joserfc; EUDI sample judged; "
          f"signer revocation: {len(revocation.manifest['lists'])} lists and {CRL_FILE})")
    return 0


if __name__ == "__main__":
    # Takes no arguments: -h/--help prints the text above; anything else is refused before anything is written.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
