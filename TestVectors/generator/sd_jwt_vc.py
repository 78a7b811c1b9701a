"""SD-JWT VC (`dc+sd-jwt`) presentation vectors for verifierd. EVERYTHING WRITTEN HERE IS TEST-ONLY.

Writes TestVectors/sdjwt/ (deleted and rewritten; nothing else is touched), deterministically: keys from public seed
labels, RFC 6979 ECDSA, salts and decoy digests from labels, compact JSON.

  pki/        issuer CA (the trust anchor), issuer leaves (valid, expired, untrusted, self-signed), status-list signer
  pki/keys/   PKCS#8 for every key, including the holder's (`holder.pem`)
  cases/      one compact SD-JWT(+KB) presentation per case, exact bytes, no trailing newline
  lists/      Token Status List JWTs, served by the tests at http://127.0.0.1:18614/lists/<name>
  manifest.json, README.md

Rules follow shared/notes/sd-jwt-vc.md (RFC 9901, SD-JWT VC, OpenID4VP 1.0, HAIP 1.0, Token Status List). The script
re-judges every case with its own small verifier (`MiniVerifier`, written for this file) and aborts unless verdict,
failing check, code and processed claims equal the manifest. Every VALID case is also processed by the PyPI `sd-jwt`
reference implementation (fed the issuer key directly) and its claims must be the same; `sd-jwt` is lenient, so it
is never consulted for refusals.

Usage (from the repository root):  python3 TestVectors/generator/sd_jwt_vc.py
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import hmac
import json
import shutil
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
from cryptography.x509.oid import NameOID

HERE = Path(__file__).resolve().parent
TV = HERE.parent
OUT = TV / "sdjwt"

SEED_PREFIX = "verifierd-testvectors/"
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
UTC = dt.timezone.utc


def d(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def ts(text: str) -> int:
    return int(d(text).timestamp())


VERIFICATION_TIME = "2030-01-01T00:00:00Z"
NOW = ts(VERIFICATION_TIME)  # 1893456000
assert NOW == 1893456000
CRED_IAT = ts("2029-12-01T00:00:00Z")
CRED_EXP = ts("2031-01-01T00:00:00Z")
KB_IAT = NOW - 60
KB_WINDOW = 300
CLOCK_SKEW = 300
NONCE = "n-0S6_WzA2Mj"
AUDIENCE = "origin:https://verifier.example"
ISS = "https://issuer.example"
VCT = "urn:eudi:pid:1"
BASE_URI = "http://127.0.0.1:18614"
LIST_IAT = ts("2029-12-31T00:00:00Z")
LIST_EXP = ts("2031-01-01T00:00:00Z")
LIST_TTL = 3600
CERT_FROM, CERT_TO = d("2024-01-01T00:00:00Z"), d("2074-01-01T00:00:00Z")

CHECKS = ["sdjwt.issuerSignature", "sdjwt.issuerCertificateChain", "sdjwt.disclosures", "sdjwt.claims",
          "sdjwt.validity", "sdjwt.keyBinding", "sdjwt.status", "request.claims"]
# SD-JWT VC §2.2.2.3 (and RFC 9901 §9.7 for aud): never from a disclosure, nor anything below them.
PROTECTED = {"iss", "nbf", "exp", "cnf", "vct", "vct#integrity", "aka_vcts", "status", "aud"}


# ------------------------------------------------------------------------------------------------------------
# Encoding helpers
# ------------------------------------------------------------------------------------------------------------

def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64std(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def cjson(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def seed_hash(label: str) -> bytes:
    return hashlib.sha256((SEED_PREFIX + label).encode()).digest()


def salt(label: str) -> str:
    return b64u(seed_hash("sdjwt/salt/" + label)[:16])


def sha256_b64u(text: str) -> str:
    return b64u(hashlib.sha256(text.encode("ascii")).digest())


_KEYS: dict[str, ec.EllipticCurvePrivateKey] = {}


def derive_key(label: str) -> ec.EllipticCurvePrivateKey:
    """scalar = int(SHA-512("verifierd-testvectors/" + label)) mod (n - 1) + 1 (P-256)."""
    if label not in _KEYS:
        digest = hashlib.sha512((SEED_PREFIX + label).encode()).digest()
        _KEYS[label] = ec.derive_private_key(int.from_bytes(digest, "big") % (P256_N - 1) + 1, ec.SECP256R1())
    return _KEYS[label]


def es_sign(key: ec.EllipticCurvePrivateKey, data: bytes, hash_alg=None) -> bytes:
    """Deterministic (RFC 6979) ECDSA, JOSE form r || s."""
    hash_alg = hash_alg or hashes.SHA256()
    der = key.sign(data, ec.ECDSA(hash_alg, deterministic_signing=True))
    r, s = decode_dss_signature(der)
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def es_verify(pub: ec.EllipticCurvePublicKey, sig: bytes, data: bytes) -> bool:
    if len(sig) != 64:
        return False
    try:
        pub.verify(encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")), data,
                   ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def sec1(pub: ec.EllipticCurvePublicKey) -> bytes:
    return pub.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def jwk(pub: ec.EllipticCurvePublicKey) -> dict:
    point = sec1(pub)
    return {"kty": "EC", "crv": "P-256", "x": b64u(point[1:33]), "y": b64u(point[33:])}


def der(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.DER)


def write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


# ------------------------------------------------------------------------------------------------------------
# PKI
# ------------------------------------------------------------------------------------------------------------

def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "DE"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "verifierd TEST-ONLY"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _ku(sign: bool, ca: bool) -> x509.KeyUsage:
    return x509.KeyUsage(digital_signature=sign, content_commitment=False, key_encipherment=False,
                         data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                         encipher_only=False, decipher_only=False)


def make_cert(name: str, cn: str, issuer: tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None, ca: bool,
              not_after: dt.datetime = CERT_TO) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = derive_key(f"sdjwt/{name}")
    subject = _name(cn)
    builder = (x509.CertificateBuilder().subject_name(subject)
               .issuer_name(issuer[0].subject if issuer else subject)
               .public_key(key.public_key())
               .serial_number(int.from_bytes(seed_hash(f"sdjwt/serial/{name}")[:16], "big") >> 1 | 1)
               .not_valid_before(CERT_FROM).not_valid_after(not_after)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=0 if ca else None), critical=True)
               .add_extension(_ku(sign=not ca, ca=ca), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
    if issuer:
        ski = issuer[0].extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
        builder = builder.add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski),
                                        critical=False)
    cert = builder.sign(issuer[1] if issuer else key, hashes.SHA256(), ecdsa_deterministic=True)
    return cert, key


def build_pki() -> dict[str, tuple[x509.Certificate, ec.EllipticCurvePrivateKey]]:
    pki = {}
    pki["issuer-ca"] = make_cert("issuer-ca", "verifierd TEST-ONLY SD-JWT VC issuer CA", None, ca=True)
    pki["issuer"] = make_cert("issuer", "verifierd TEST-ONLY PID issuer", pki["issuer-ca"], ca=False)
    pki["issuer-expired"] = make_cert("issuer-expired", "verifierd TEST-ONLY PID issuer (expired)", pki["issuer-ca"],
                                      ca=False, not_after=d("2025-01-01T00:00:00Z"))
    pki["issuer-ca-other"] = make_cert("issuer-ca-other", "verifierd TEST-ONLY untrusted SD-JWT VC issuer CA", None,
                                       ca=True)
    pki["issuer-other"] = make_cert("issuer-other", "verifierd TEST-ONLY PID issuer (untrusted CA)",
                                    pki["issuer-ca-other"], ca=False)
    pki["issuer-self-signed"] = make_cert("issuer-self-signed", "verifierd TEST-ONLY PID issuer (self-signed)", None,
                                          ca=False)
    pki["status-signer"] = make_cert("status-signer", "verifierd TEST-ONLY status list signer", pki["issuer-ca"],
                                     ca=False)
    return pki


CERT_DESCRIPTIONS = {
    "issuer-ca": "Self-signed CA; the only trust anchor (manifest trustAnchors).",
    "issuer": "PID issuer leaf under issuer-ca; signs every case unless stated otherwise.",
    "issuer-expired": "Leaf under issuer-ca valid 2024-01-01..2025-01-01.",
    "issuer-ca-other": "Self-signed CA that is never configured as a trust anchor.",
    "issuer-other": "Leaf under issuer-ca-other (untrusted); also signs the untrusted-signer status list.",
    "issuer-self-signed": "Self-signed leaf (cA false, digitalSignature); never a trust anchor.",
    "status-signer": "Status list signer under issuer-ca (digitalSignature).",
}


# ------------------------------------------------------------------------------------------------------------
# Credential model: which claims are selectively disclosable
# ------------------------------------------------------------------------------------------------------------

@dataclass
class SD:
    value: Any
    id: str | None = None  # disclosure id (defaults to the path of original names/indices joined by "/")


class Decoy:
    pass


DECOYS_KEY = "__decoys__"  # model-only: number of decoy digests added to that object's `_sd`


def pid_model() -> dict:
    return {
        "given_name": SD("Erika"),
        "family_name": SD("Mustermann"),
        "birthdate": SD("1964-08-12"),
        "age_equal_or_over": SD({"18": SD(True), "21": SD(True)}),
        "age_in_years": SD(65),
        "age_birth_year": SD(1964),
        "birth_family_name": SD("Gabler"),
        "place_of_birth": SD({"locality": "Berlin", "country": "DE"}),
        "address": SD({"street_address": SD("Heidestraße 17"), "locality": SD("München"), "postal_code": SD("80331"),
                       "country": SD("DE"), DECOYS_KEY: 1}),
        "nationalities": SD([SD("DE", id="nationalities/DE"), Decoy(), SD("FR", id="nationalities/FR")]),
        "issuing_authority": SD("DE"),
        "issuing_country": SD("DE"),
        "document_number": SD("T22000129"),
        "date_of_issuance": SD("2029-12-01"),
        "date_of_expiry": SD("2034-11-30"),
        DECOYS_KEY: 3,
    }


@dataclass
class Disc:
    id: str
    text: str  # the JSON text inside the disclosure
    encoded: str
    digest: str


def disclosure(text: str, id: str = "") -> Disc:
    encoded = b64u(text.encode("utf-8"))
    return Disc(id, text, encoded, sha256_b64u(encoded))


def decoy(label: str) -> str:
    return b64u(hashlib.sha256(seed_hash("sdjwt/decoy/" + label)).digest())


Override = Callable[[str, Any, Any, dict], str]  # (salt, name or None, encoded value, discs so far) -> JSON text


def encode(model: Any, path: str, discs: dict[str, Disc], overrides: dict[str, Override], order: list[str]) -> Any:
    """The issuer side: the model with SD markers -> payload structure with digests; fills discs (id -> Disc)."""
    if isinstance(model, dict):
        out, digests = {}, []
        for key, value in model.items():
            if key == DECOYS_KEY:
                continue
            sub = f"{path}/{key}" if path else key
            if isinstance(value, SD):
                did = value.id or sub
                order.append(did)
                inner = encode(value.value, sub, discs, overrides, order)
                s = salt(did)
                text = overrides[did](s, key, inner, discs) if did in overrides else cjson([s, key, inner])
                discs[did] = disclosure(text, did)
                digests.append(discs[did].digest)
            else:
                out[key] = encode(value, sub, discs, overrides, order)
        digests += [decoy(f"{path or '$'}/{i}") for i in range(model.get(DECOYS_KEY, 0))]
        if digests:
            out["_sd"] = sorted(digests)
        return out
    if isinstance(model, list):
        out = []
        for index, value in enumerate(model):
            sub = f"{path}/{index}"
            if isinstance(value, Decoy):
                out.append({"...": decoy(sub)})
            elif isinstance(value, SD):
                did = value.id or sub
                order.append(did)
                inner = encode(value.value, sub, discs, overrides, order)
                s = salt(did)
                text = overrides[did](s, None, inner, discs) if did in overrides else cjson([s, inner])
                discs[did] = disclosure(text, did)
                out.append({"...": discs[did].digest})
            else:
                out.append(encode(value, sub, discs, overrides, order))
        return out
    return model


def expected_claims(model: Any, selected: set[str], path: list, disclosed: list, prefix: str = "") -> Any:
    """The holder/verifier outcome computed from the model (not from the encoded payload)."""
    if isinstance(model, dict):
        out = {}
        for key, value in model.items():
            if key == DECOYS_KEY:
                continue
            sub = f"{prefix}/{key}" if prefix else key
            if isinstance(value, SD):
                if (value.id or sub) in selected:
                    disclosed.append(path + [key])
                    out[key] = expected_claims(value.value, selected, path + [key], disclosed, sub)
            else:
                out[key] = expected_claims(value, selected, path + [key], disclosed, sub)
        return out
    if isinstance(model, list):
        out = []
        for index, value in enumerate(model):
            sub = f"{prefix}/{index}"
            if isinstance(value, Decoy):
                continue
            if isinstance(value, SD):
                if (value.id or sub) in selected:
                    disclosed.append(path + [len(out)])
                    out.append(expected_claims(value.value, selected, path + [len(out)], disclosed, sub))
            else:
                out.append(expected_claims(value, selected, path + [len(out)], disclosed, sub))
        return out
    return model


# ------------------------------------------------------------------------------------------------------------
# Status lists
# ------------------------------------------------------------------------------------------------------------

def list_uri(name: str) -> str:
    return f"{BASE_URI}/lists/{name}"


def pack(statuses: dict[int, int], bits: int, entries: int) -> bytes:
    raw = bytearray(entries * bits // 8)
    for index, value in statuses.items():
        raw[index * bits // 8] |= value << (index * bits % 8)
    return bytes(raw)


def jws(header: dict, payload: dict | str, key, flip: bool = False) -> str:
    """payload: a claims dict, or the exact payload JSON text (for spellings cjson cannot produce, e.g. 1e19)."""
    payload_text = payload if isinstance(payload, str) else cjson(payload)
    signing_input = b64u(cjson(header).encode()) + "." + b64u(payload_text.encode())
    sig = es_sign(key, signing_input.encode("ascii"))
    if flip:
        sig = bytes([sig[0] ^ 0x01]) + sig[1:]
    return signing_input + "." + b64u(sig)


def build_lists(pki) -> dict[str, dict]:
    signer_cert, signer_key = pki["status-signer"]
    other_cert, other_key = pki["issuer-other"]
    specs = {
        # name: (description, bits, statuses, entries, overrides)
        "valid": ("bits 1; every entry INVALID except index 3 (VALID)", 1, {i: 1 for i in range(16) if i != 3}, 16, {}),
        "revoked": ("bits 1; index 5 INVALID, the rest VALID", 1, {5: 1}, 16, {}),
        "suspended": ("bits 2; index 7 SUSPENDED (2), index 6 INVALID, the rest VALID", 2, {6: 1, 7: 2}, 16, {}),
        "expired": ("exp 2029-06-01, before the verification time", 1, {}, 16, {"exp": ts("2029-06-01T00:00:00Z")}),
        "wrong-sub": ("sub names another list", 1, {}, 16, {"sub": list_uri("another-list")}),
        "wrong-typ": ("header typ JWT", 1, {}, 16, {"typ": "JWT"}),
        "bad-signature": ("signature does not verify (one bit flipped)", 1, {}, 16, {"flip": True}),
        "untrusted-signer": ("signed by issuer-other (its CA is not a trust anchor)", 1, {}, 16, {"signer": "other"}),
        "exp-float-past": ("exp 1893455999.5, half a second before the verification time", 1, {}, 16,
                           {"exp": 1893455999.5}),
        "iat-huge": ("iat is the JSON number 1e19, spelled literally `\"iat\":1e19` in the payload (beyond year 9999: "
                     "no NumericDate; also beyond Int64)", 1, {}, 16, {"iat_json": "1e19"}),
        "ttl-zero": ("ttl 0 (TSL: ttl is a positive number)", 1, {}, 16, {"ttl": 0}),
    }
    lists = {}
    for name, (description, bits, statuses, entries, ov) in specs.items():
        cert, key = (other_cert, other_key) if ov.get("signer") == "other" else (signer_cert, signer_key)
        header = {"alg": "ES256", "typ": ov.get("typ", "statuslist+jwt"), "x5c": [b64std(der(cert))]}
        payload = {"sub": ov.get("sub", list_uri(name)), "iat": LIST_IAT, "exp": ov.get("exp", LIST_EXP),
                   "ttl": ov.get("ttl", LIST_TTL),
                   "status_list": {"bits": bits, "lst": b64u(zlib.compress(pack(statuses, bits, entries), 9))}}
        if "iat_json" in ov:  # json.dumps would write 1e19 as 1e+19: splice the literal spelling into the text
            text = cjson(payload)
            old = f'"iat":{LIST_IAT},'
            assert text.count(old) == 1
            payload = text.replace(old, f'"iat":{ov["iat_json"]},')
        lists[name] = {"description": description, "token": jws(header, payload, key, flip=ov.get("flip", False))}
    return lists


# ------------------------------------------------------------------------------------------------------------
# Cases
# ------------------------------------------------------------------------------------------------------------

ALL = None  # select every disclosure


@dataclass
class Case:
    name: str
    description: str
    check: str | None = None
    code: str | None = None
    select: set[str] | None = ALL
    require_kb: bool = True
    audience: str = AUDIENCE
    query: dict | None = None
    status: dict | None = None
    cnf: bool = True
    kb: bool = True
    vct: str = VCT
    aka_vcts: list | None = None  # plain aka_vcts (placed right after vct)
    warnings: list | None = None
    model_fn: Callable[[dict], None] | None = None
    overrides: dict[str, Override] = field(default_factory=dict)
    payload_fn: Callable[[dict, dict], None] | None = None  # (payload, discs)
    header_fn: Callable[[dict], None] | None = None
    header_bytes: bytes | None = None
    payload_bytes_fn: Callable[[bytes], bytes] | None = None
    sig_fn: Callable[[bytes, Any], bytes] | None = None  # (signing input, pki) -> signature
    signer: str = "issuer"
    x5c: tuple[str, ...] = ("issuer",)
    jwt_fn: Callable[[str], str] | None = None
    discs_fn: Callable[[list[str], dict], list[str]] | None = None  # (presented disclosure strings, discs)
    inject: list[tuple[str, str, str]] = field(default_factory=list)  # (target object path, id, JSON text)
    kb_header: dict | None = None
    kb_claims_fn: Callable[[dict], None] | None = None
    kb_key: str = "holder"
    kb_sig_fn: Callable[[bytes], bytes] | None = None
    sd_hash_fn: Callable[[str, str, list[str]], str] | None = None  # (presented prefix, jwt, discs) -> hashed text
    final_fn: Callable[[str], str] | None = None


def status_ref(name: str, idx: int) -> dict:
    return {"status_list": {"idx": idx, "uri": list_uri(name)}}


def dcql(*paths, vct_values=(VCT,), values: dict | None = None) -> dict:
    claims = []
    for p in paths:
        c = {"path": list(p)}
        if values and tuple(p) in values:
            c["values"] = values[tuple(p)]
        claims.append(c)
    return {"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": list(vct_values)}, "claims": claims}


def j(obj) -> str:
    return cjson(obj)


def replace_disc(target: str, new_text: Callable[[Disc], str]):
    def fn(presented: list[str], discs: dict) -> list[str]:
        old = discs[target].encoded
        return [disclosure(new_text(discs[target])).encoded if x == old else x for x in presented]
    return fn


def cases() -> list[Case]:
    gs = salt("given_name")
    protected = {
        "iss": ISS, "exp": CRED_EXP, "nbf": CRED_IAT, "vct": VCT,
        "status": status_ref("valid", 3),
    }
    out = [
        # ---------------- valid ----------------
        Case("valid", "Every disclosure presented (recursive object, nested address members, array elements)."),
        Case("valid-partial", "Some claims disclosed: address with locality and country only, nationalities with DE "
             "only (the withheld FR element and the decoy element are removed).",
             select={"given_name", "family_name", "address", "address/locality", "address/country", "nationalities",
                     "nationalities/DE"}),
        Case("valid-no-disclosures", "No disclosures at all: only the plain claims remain.", select=set()),
        Case("valid-recursive", "age_equal_or_over disclosed with only its nested member 18.",
             select={"age_equal_or_over", "age_equal_or_over/18"}),
        Case("valid-cross-device-aud", "KB-JWT aud is the client_id with its prefix (cross-device flow); the case's "
             "`audience` overrides the manifest default.",
             audience="x509_hash:" + b64u(seed_hash("sdjwt/verifier-request-signer"))),
        Case("valid-no-kb-when-not-required", "No cnf in the credential, no KB-JWT (presentation ends in `~`), key "
             "binding not required by the request.", cnf=False, kb=False, require_kb=False,
             select={"given_name", "family_name", "birthdate"}),
        Case("valid-anchor-in-x5c", "x5c = [issuer, issuer-ca]: the trust anchor is carried in x5c (HAIP forbids it); "
             "verified with a warning.", x5c=("issuer", "issuer-ca"),
             warnings=[{"check": "sdjwt.issuerCertificateChain", "code": "SDJWT_X5C_CONTAINS_ANCHOR"}]),
        Case("valid-status", "status_list idx 3 in list `valid` (VALID; every other entry is INVALID).",
             status=status_ref("valid", 3)),
        # ---------------- presentation structure ----------------
        Case("no-trailing-tilde", "SD-JWT without KB whose final `~` is missing: the last element is a disclosure, "
             "which is not a compact JWS, so it cannot be a KB-JWT (no cnf, key binding not required).",
             None, "SDJWT_MALFORMED", cnf=False, kb=False, require_kb=False, final_fn=lambda s: s[:-1]),
        Case("empty-disclosure", "An empty element (`~~`) between disclosures; the KB-JWT hashes the string as sent.",
             None, "SDJWT_MALFORMED", discs_fn=lambda p, _d: p[:2] + [""] + p[2:]),
        Case("jwt-not-three-parts", "The issuer JWT has two dot-separated parts (signature dropped).", None,
             "SDJWT_MALFORMED", jwt_fn=lambda s: s.rsplit(".", 1)[0]),
        Case("payload-duplicate-member", "The issuer JWT payload JSON contains `\"a\":1,\"a\":2` (signed).", None,
             "SDJWT_MALFORMED", payload_bytes_fn=lambda b: b'{"a":1,"a":2,' + b[1:]),
        Case("header-not-json", "The issuer JWT protected header is `not json` (signed).", None, "SDJWT_MALFORMED",
             header_bytes=b"not json"),
        # ---------------- issuer signature ----------------
        Case("typ-vc-sd-jwt", "typ vc+sd-jwt (the pre -13 media type; refused).", "sdjwt.issuerSignature",
             "SDJWT_TYP_INVALID", header_fn=lambda h: h.update(typ="vc+sd-jwt")),
        Case("typ-missing", "No typ in the issuer JWT header.", "sdjwt.issuerSignature", "SDJWT_TYP_INVALID",
             header_fn=lambda h: h.pop("typ")),
        Case("alg-none", "alg none with an empty signature.", "sdjwt.issuerSignature", "ALGORITHM_UNSUPPORTED",
             header_fn=lambda h: h.update(alg="none"), sig_fn=lambda _i, _p: b""),
        Case("alg-hs256", "alg HS256, MAC keyed with the issuer certificate's public key (SEC1 uncompressed point).",
             "sdjwt.issuerSignature", "ALGORITHM_UNSUPPORTED", header_fn=lambda h: h.update(alg="HS256"),
             sig_fn=lambda i, p: hmac.new(sec1(p["issuer"][1].public_key()), i, hashlib.sha256).digest()),
        Case("alg-es384", "alg ES384 (signed with the P-256 issuer key over SHA-384); only ES256 is allowed.",
             "sdjwt.issuerSignature", "ALGORITHM_UNSUPPORTED", header_fn=lambda h: h.update(alg="ES384"),
             sig_fn=lambda i, p: es_sign(p["issuer"][1], i, hashes.SHA384())),
        Case("crit-unknown", "crit names an extension header parameter that is not understood.",
             "sdjwt.issuerSignature", "SDJWT_CRIT_UNSUPPORTED",
             header_fn=lambda h: h.update({"crit": ["urn:example:verifierd:unknown"],
                                           "urn:example:verifierd:unknown": True})),
        Case("bad-signature", "The issuer signature has one bit flipped.", "sdjwt.issuerSignature",
             "ISSUER_SIGNATURE_INVALID",
             sig_fn=lambda i, p: (lambda s: bytes([s[0] ^ 1]) + s[1:])(es_sign(p["issuer"][1], i))),
        Case("x5c-missing", "No x5c in the issuer JWT header.", "sdjwt.issuerSignature", "SDJWT_X5C_MISSING",
             header_fn=lambda h: h.pop("x5c")),
        # ---------------- issuer certificate chain ----------------
        Case("untrusted-issuer", "Signed by issuer-other, x5c = [issuer-other]; its CA is not a trust anchor.",
             "sdjwt.issuerCertificateChain", "ISSUER_CERTIFICATE_UNTRUSTED", signer="issuer-other",
             x5c=("issuer-other",)),
        Case("self-signed-x5c", "Signed by issuer-self-signed, x5c = [issuer-self-signed].",
             "sdjwt.issuerCertificateChain", "ISSUER_CERTIFICATE_UNTRUSTED", signer="issuer-self-signed",
             x5c=("issuer-self-signed",)),
        Case("expired-issuer-cert", "Signed by issuer-expired (valid until 2025-01-01).",
             "sdjwt.issuerCertificateChain", "ISSUER_CERTIFICATE_EXPIRED", signer="issuer-expired",
             x5c=("issuer-expired",)),
        # ---------------- disclosures ----------------
        Case("digest-duplicate", "The given_name digest appears twice in the top-level _sd.", "sdjwt.disclosures",
             "SDJWT_DIGEST_DUPLICATE",
             payload_fn=lambda p, ds: p.update(_sd=sorted(p["_sd"] + [ds["given_name"].digest]))),
        Case("digest-duplicate-in-disclosure", "The address disclosure's _sd repeats the top-level given_name digest.",
             "sdjwt.disclosures", "SDJWT_DIGEST_DUPLICATE",
             overrides={"address": lambda s, n, v, ds:
                        j([s, n, dict(v, _sd=sorted(v["_sd"] + [ds["given_name"].digest]))])}),
        Case("disclosure-repeated", "The given_name disclosure is sent twice.", "sdjwt.disclosures",
             "SDJWT_DISCLOSURE_DUPLICATE",
             discs_fn=lambda p, ds: p + [ds["given_name"].encoded]),
        Case("disclosure-unreferenced", "An extra well-formed disclosure that no digest names.", "sdjwt.disclosures",
             "SDJWT_DISCLOSURE_UNREFERENCED",
             discs_fn=lambda p, ds: p + [disclosure(j([salt("extra/nickname"), "nickname", "Eri"])).encoded]),
        Case("disclosure-tampered", "The given_name disclosure re-encoded with the value Eve (same salt).",
             "sdjwt.disclosures", "SDJWT_DISCLOSURE_UNREFERENCED",
             discs_fn=replace_disc("given_name", lambda _d: j([gs, "given_name", "Eve"]))),
        Case("disclosure-reencoded", "The given_name disclosure with the same JSON content spelled with spaces "
             "(`[ \"salt\", \"given_name\", \"Erika\" ]`): a different string, so a different digest.",
             "sdjwt.disclosures", "SDJWT_DISCLOSURE_UNREFERENCED",
             discs_fn=replace_disc("given_name", lambda _d: f'[ "{gs}", "given_name", "Erika" ]')),
        Case("name-sd", "A referenced disclosure whose claim name is _sd.", "sdjwt.disclosures",
             "SDJWT_DISCLOSURE_NAME_INVALID", inject=[("", "inject/name-sd", j([salt("inject/name-sd"), "_sd", "x"]))]),
        Case("name-dots", "A referenced disclosure whose claim name is `...`.", "sdjwt.disclosures",
             "SDJWT_DISCLOSURE_NAME_INVALID",
             inject=[("", "inject/name-dots", j([salt("inject/name-dots"), "...", "x"]))]),
        Case("name-sd-alg", "A referenced top-level disclosure `[salt, \"_sd_alg\", \"sha-256\"]`: `_sd_alg` is "
             "reserved (RFC 9901 §4.1.1) and never comes from a disclosure. The plain top-level `_sd_alg` is still "
             "there, so the name also collides; the reserved-name check comes first.", "sdjwt.disclosures",
             "SDJWT_DISCLOSURE_NAME_INVALID",
             inject=[("", "inject/name-sd-alg", j([salt("inject/name-sd-alg"), "_sd_alg", "sha-256"]))]),
        Case("name-collision", "given_name is both a plain claim and disclosed in the same (top-level) object.",
             "sdjwt.disclosures", "SDJWT_CLAIM_NAME_COLLISION",
             payload_fn=lambda p, _d: p.update(given_name="Erika")),
        Case("array-disclosure-in-sd", "A 2-element (array element) disclosure referenced from the top-level _sd.",
             "sdjwt.disclosures", "SDJWT_DISCLOSURE_MALFORMED",
             inject=[("", "inject/array-in-sd", j([salt("inject/array-in-sd"), "x"]))]),
        Case("object-disclosure-in-array", "A 3-element disclosure `[salt, \"nationality\", \"DE\"]` referenced from "
             "a `{\"...\": digest}` element of nationalities.", "sdjwt.disclosures", "SDJWT_DISCLOSURE_MALFORMED",
             overrides={"nationalities/DE": lambda s, _n, v, _ds: j([s, "nationality", v])}),
        Case("disclosure-not-array", "A referenced disclosure that decodes to a JSON object.", "sdjwt.disclosures",
             "SDJWT_DISCLOSURE_MALFORMED",
             inject=[("", "inject/not-array", j({"salt": salt("inject/not-array"), "nickname": "Eri"}))]),
        Case("disclosure-salt-not-string", "A referenced disclosure whose salt is a number.", "sdjwt.disclosures",
             "SDJWT_DISCLOSURE_MALFORMED", inject=[("", "inject/salt-number", j([1234, "nickname", "Eri"]))]),
        Case("disclosure-duplicate-member", "A referenced disclosure whose value object repeats the member `first`.",
             "sdjwt.disclosures", "SDJWT_DISCLOSURE_MALFORMED",
             inject=[("", "inject/dup-member",
                      f'["{salt("inject/dup-member")}","nickname",{{"first":"A","first":"B"}}]')]),
        Case("sd-alg-unknown", "_sd_alg is sha-1.", "sdjwt.disclosures", "SDJWT_SD_ALG_UNSUPPORTED",
             payload_fn=lambda p, _d: p.update(_sd_alg="sha-1")),
        Case("sd-not-array", "The top-level _sd is the string \"x\" (no disclosures sent).", "sdjwt.disclosures",
             "SDJWT_PAYLOAD_MALFORMED", select=set(), payload_fn=lambda p, _d: p.update(_sd="x")),
        Case("dots-with-other-members", "nationalities is a plain array whose first element is `{\"...\": digest, "
             "\"x\": 1}`; only the FR element is disclosed.", "sdjwt.disclosures", "SDJWT_PAYLOAD_MALFORMED",
             select={"nationalities/FR"},
             model_fn=lambda m: m.update(nationalities=m["nationalities"].value),
             payload_fn=lambda p, _d: p["nationalities"][0].update(x=1)),
        Case("sd-alg-nested", "place_of_birth is a plain object that carries `_sd_alg`.", "sdjwt.disclosures",
             "SDJWT_PAYLOAD_MALFORMED", model_fn=lambda m: m.update(place_of_birth=m["place_of_birth"].value),
             payload_fn=lambda p, _d: p["place_of_birth"].update(_sd_alg="sha-256")),
    ]
    for claim, value in protected.items():
        out.append(Case(
            f"protected-{claim}", f"`{claim}` is not a plain claim but comes from a disclosure.", "sdjwt.disclosures",
            "SDJWT_PROTECTED_CLAIM_DISCLOSED", model_fn=lambda m, c=claim, v=value: m.update({c: SD(v)}),
            payload_fn=lambda p, _d, c=claim: p.pop(c, None)))
    out.insert(len(out) - 2, Case(  # keep the order iss, exp, nbf, cnf, vct, status
        "protected-cnf", "`cnf` is not a plain claim but comes from a disclosure (the KB-JWT is signed by that key).",
        "sdjwt.disclosures", "SDJWT_PROTECTED_CLAIM_DISCLOSED", cnf=False,
        model_fn=lambda m: m.update(cnf=SD({"jwk": jwk(derive_key("sdjwt/holder").public_key())}))))
    more_protected = {  # name suffix: (claim, value); none of them is in the plain payload
        "aud": ("aud", "https://verifier.example"),
        "aka-vcts": ("aka_vcts", ["urn:eudi:pid:de:1"]),
        "vct-integrity": ("vct#integrity",
                          "sha256-" + b64std(hashlib.sha256(seed_hash("sdjwt/type-metadata")).digest())),
    }
    for suffix, (claim, value) in more_protected.items():
        out.append(Case(
            f"protected-{suffix}", f"`{claim}` comes from a top-level disclosure (never selectively disclosable: "
            + ("RFC 9901 §9.7" if claim == "aud" else "SD-JWT VC §2.2.2.3") + ").", "sdjwt.disclosures",
            "SDJWT_PROTECTED_CLAIM_DISCLOSED", model_fn=lambda m, c=claim, v=value: m.update({c: SD(v)})))
    out += [
        Case("protected-under-cnf", "cnf carries an _sd whose disclosure adds cnf.kid.", "sdjwt.disclosures",
             "SDJWT_PROTECTED_CLAIM_DISCLOSED",
             inject=[("cnf", "inject/cnf-kid", j([salt("inject/cnf-kid"), "kid", "holder-1"]))]),
        # ---------------- claims and validity ----------------
        Case("vct-missing", "No vct.", "sdjwt.claims", "SDJWT_VCT_MISSING", payload_fn=lambda p, _d: p.pop("vct")),
        Case("vct-not-string", "vct is the number 1.", "sdjwt.claims", "SDJWT_VCT_MISSING",
             payload_fn=lambda p, _d: p.update(vct=1)),
        Case("expired", "exp 2029-12-31T00:00:00Z.", "sdjwt.validity", "SDJWT_EXPIRED",
             payload_fn=lambda p, _d: p.update(exp=ts("2029-12-31T00:00:00Z"))),
        Case("not-yet-valid", "nbf 2030-01-02T00:00:00Z.", "sdjwt.validity", "SDJWT_NOT_YET_VALID",
             payload_fn=lambda p, _d: p.update(nbf=ts("2030-01-02T00:00:00Z"))),
        # ---------------- key binding ----------------
        Case("kb-missing", "cnf present, no KB-JWT (the presentation ends in `~`).", "sdjwt.keyBinding",
             "SDJWT_KB_MISSING", kb=False),
        Case("kb-missing-cnf-absent-but-required", "No cnf and no KB-JWT while the request requires key binding.",
             "sdjwt.keyBinding", "SDJWT_CNF_MISSING", cnf=False, kb=False),
        Case("kb-sent-not-required-no-cnf", "No cnf, key binding not required by the request, but a KB-JWT (signed "
             "by the holder key) is attached: it cannot be checked without cnf.jwk, so it is refused, not ignored.",
             "sdjwt.keyBinding", "SDJWT_CNF_MISSING", cnf=False, require_kb=False,
             select={"given_name", "family_name", "birthdate"}),
        Case("kb-typ-jwt", "KB-JWT typ JWT.", "sdjwt.keyBinding", "SDJWT_KB_TYP_INVALID",
             kb_header={"alg": "ES256", "typ": "JWT"}),
        Case("kb-wrong-key", "KB-JWT signed by holder-other, not by cnf.jwk.", "sdjwt.keyBinding",
             "SDJWT_KB_SIGNATURE_INVALID", kb_key="holder-other"),
        Case("kb-alg-none", "KB-JWT alg none with an empty signature.", "sdjwt.keyBinding",
             "SDJWT_KB_SIGNATURE_INVALID", kb_header={"alg": "none", "typ": "kb+jwt"}, kb_sig_fn=lambda _i: b""),
        Case("kb-sd-hash-wrong", "sd_hash computed without the trailing `~`.", "sdjwt.keyBinding",
             "SDJWT_KB_SD_HASH_MISMATCH", sd_hash_fn=lambda prefix, _j, _p: prefix[:-1]),
        Case("kb-sd-hash-reordered", "sd_hash computed over the disclosures in reverse order; they are sent in the "
             "original order.", "sdjwt.keyBinding", "SDJWT_KB_SD_HASH_MISMATCH",
             sd_hash_fn=lambda _prefix, jwt, p: jwt + "~" + "".join(x + "~" for x in reversed(p))),
        Case("kb-nonce-wrong", "KB-JWT nonce differs.", "sdjwt.keyBinding", "SDJWT_KB_NONCE_MISMATCH",
             kb_claims_fn=lambda c: c.update(nonce="n-wrong-nonce")),
        Case("kb-aud-wrong", "KB-JWT aud origin:https://attacker.example.", "sdjwt.keyBinding",
             "SDJWT_KB_AUDIENCE_MISMATCH", kb_claims_fn=lambda c: c.update(aud="origin:https://attacker.example")),
        Case("kb-aud-trailing-slash", "KB-JWT aud origin:https://verifier.example/ (origins compare as strings).",
             "sdjwt.keyBinding", "SDJWT_KB_AUDIENCE_MISMATCH",
             kb_claims_fn=lambda c: c.update(aud=AUDIENCE + "/")),
        Case("kb-aud-array", "KB-JWT aud is an array holding the expected value (must be one string).",
             "sdjwt.keyBinding", "SDJWT_KB_AUDIENCE_MISMATCH", kb_claims_fn=lambda c: c.update(aud=[AUDIENCE])),
        Case("kb-iat-old", "KB-JWT iat one hour before the verification time.", "sdjwt.keyBinding",
             "SDJWT_KB_IAT_OUT_OF_WINDOW", kb_claims_fn=lambda c: c.update(iat=NOW - 3600)),
        Case("kb-iat-future", "KB-JWT iat one hour after the verification time.", "sdjwt.keyBinding",
             "SDJWT_KB_IAT_OUT_OF_WINDOW", kb_claims_fn=lambda c: c.update(iat=NOW + 3600)),
        Case("kb-missing-sd-hash", "KB-JWT without sd_hash.", "sdjwt.keyBinding", "SDJWT_KB_MALFORMED",
             kb_claims_fn=lambda c: c.pop("sd_hash")),
        # ---------------- status ----------------
        Case("status-revoked", "List `revoked`, idx 5: INVALID.", "sdjwt.status", "STATUS_REVOKED",
             status=status_ref("revoked", 5)),
        Case("status-suspended", "List `suspended` (bits 2), idx 7: SUSPENDED.", "sdjwt.status", "STATUS_SUSPENDED",
             status=status_ref("suspended", 7)),
        Case("status-expired-list", "List `expired`: its exp passed.", "sdjwt.status", "STATUS_UNKNOWN",
             status=status_ref("expired", 3)),
        Case("status-wrong-sub", "List `wrong-sub`: sub is not the referenced URI.", "sdjwt.status", "STATUS_UNKNOWN",
             status=status_ref("wrong-sub", 3)),
        Case("status-wrong-typ", "List `wrong-typ`: header typ JWT.", "sdjwt.status", "STATUS_UNKNOWN",
             status=status_ref("wrong-typ", 3)),
        Case("status-bad-signature", "List `bad-signature`: signature does not verify.", "sdjwt.status",
             "STATUS_UNKNOWN", status=status_ref("bad-signature", 3)),
        Case("status-untrusted-signer", "List `untrusted-signer`: signed by issuer-other.", "sdjwt.status",
             "STATUS_UNKNOWN", status=status_ref("untrusted-signer", 3)),
        Case("status-exp-float-past", "List `exp-float-past`: exp 1893455999.5 (a float NumericDate) has passed.",
             "sdjwt.status", "STATUS_UNKNOWN", status=status_ref("exp-float-past", 3)),
        Case("status-iat-huge", "List `iat-huge`: iat is the JSON number 1e19, outside the years 0001-9999, so no "
             "NumericDate.", "sdjwt.status", "STATUS_UNKNOWN", status=status_ref("iat-huge", 3)),
        Case("status-ttl-zero", "List `ttl-zero`: ttl 0 (TSL: ttl is a positive number).", "sdjwt.status",
             "STATUS_UNKNOWN", status=status_ref("ttl-zero", 3)),
        Case("status-index-out-of-range", "List `valid` has 16 entries; idx 16.", "sdjwt.status", "STATUS_UNKNOWN",
             status=status_ref("valid", 16)),
        # ---------------- DCQL ----------------
        Case("dcql-ok", "Query asks for given_name, family_name and address (whole object); exactly those disclosed.",
             select={"given_name", "family_name", "address", "address/street_address", "address/locality",
                     "address/postal_code", "address/country"},
             query=dcql(["given_name"], ["family_name"], ["address"])),
        Case("dcql-vct-not-requested", "meta.vct_values is [\"urn:other\"].", "request.claims",
             "SDJWT_VCT_NOT_REQUESTED", select={"given_name"},
             query=dcql(["given_name"], vct_values=("urn:other",))),
        Case("dcql-unrequested-disclosure", "birthdate is disclosed but not requested.", "request.claims",
             "ELEMENT_NOT_REQUESTED", select={"given_name", "family_name", "birthdate"},
             query=dcql(["given_name"], ["family_name"])),
        Case("dcql-missing-claim", "document_number is requested but not disclosed.", "request.claims",
             "CLAIM_MISSING", select={"given_name"}, query=dcql(["given_name"], ["document_number"])),
        Case("dcql-null-wildcard", "Query path [\"nationalities\", null]; nationalities and both elements disclosed.",
             select={"nationalities", "nationalities/DE", "nationalities/FR"}, query=dcql(["nationalities", None])),
        Case("dcql-values-mismatch", "values [\"X\"] for given_name; the disclosed value is Erika.", "request.claims",
             "CLAIM_VALUE_MISMATCH", select={"given_name"},
             query=dcql(["given_name"], values={("given_name",): ["X"]})),
        Case("dcql-values-match", "values [\"Erika\"] for given_name; the disclosed value is Erika.",
             select={"given_name"}, query=dcql(["given_name"], values={("given_name",): ["Erika"]})),
        Case("aka-vcts-match", "vct urn:eudi:pid:de:1 with the plain claim aka_vcts [\"urn:eudi:pid:1\"]; "
             "meta.vct_values [\"urn:eudi:pid:1\"] matches through aka_vcts (SD-JWT VC -18 and later). Query and "
             "disclosures: given_name only.", vct="urn:eudi:pid:de:1", aka_vcts=[VCT], select={"given_name"},
             query=dcql(["given_name"])),
        Case("dcql-wrong-type-path", "Query paths [\"given_name\"] and [\"nationalities\", null, \"code\"]; "
             "given_name, nationalities and both elements disclosed. The elements are strings, and a name applied to "
             "a non-object is an error (OpenID4VP 1.0 §7.1): the claim is not present.", "request.claims",
             "CLAIM_MISSING", select={"given_name", "nationalities", "nationalities/DE", "nationalities/FR"},
             query=dcql(["given_name"], ["nationalities", None, "code"])),
        Case("dcql-index-after-withheld", "nationalities disclosed with FR only (DE withheld, the decoy element "
             "removed): the processed array is [\"FR\"]. Query path [\"nationalities\", 1] (FR's index in the "
             "holder's view [DE, FR]) selects nothing: an integer counts like null for \"was it requested\" (so "
             "the FR disclosure is requested) but must select an element for \"is it present\".", "request.claims",
             "CLAIM_MISSING", select={"nationalities", "nationalities/FR"}, query=dcql(["nationalities", 1])),
    ]
    return out


def build_case(case: Case, pki) -> tuple[str, dict | None, list | None]:
    """Returns the presentation and, for the model's view, the expected processed claims and disclosed paths."""
    holder_pub = derive_key("sdjwt/holder").public_key()
    model = pid_model()
    if case.model_fn:
        case.model_fn(model)
    discs: dict[str, Disc] = {}
    order: list[str] = []
    body = encode(model, "", discs, case.overrides, order)
    payload: dict = {"iss": ISS, "iat": CRED_IAT, "exp": CRED_EXP, "vct": case.vct}
    if case.aka_vcts is not None:
        payload["aka_vcts"] = case.aka_vcts
    if case.cnf:
        payload["cnf"] = {"jwk": jwk(holder_pub)}
    if case.status:
        payload["status"] = case.status
    payload.update({k: v for k, v in body.items() if k != "_sd"})
    payload["_sd"] = body.get("_sd", [])
    payload["_sd_alg"] = "sha-256"
    injected = []
    for target, iid, text in case.inject:
        dsc = disclosure(text, iid)
        obj = payload if target == "" else payload[target]
        obj["_sd"] = sorted(obj.get("_sd", []) + [dsc.digest])
        injected.append(dsc.encoded)
    if case.payload_fn:
        case.payload_fn(payload, discs)

    selected = set(order) if case.select is ALL else case.select
    presented = [discs[i].encoded for i in order if i in selected] + injected
    if case.discs_fn:
        presented = case.discs_fn(presented, discs)

    header: dict = {"alg": "ES256", "typ": "dc+sd-jwt", "x5c": [b64std(der(pki[n][0])) for n in case.x5c]}
    if case.header_fn:
        case.header_fn(header)
    header_b = case.header_bytes if case.header_bytes is not None else cjson(header).encode("utf-8")
    payload_b = cjson(payload).encode("utf-8")
    if case.payload_bytes_fn:
        payload_b = case.payload_bytes_fn(payload_b)
    signing_input = (b64u(header_b) + "." + b64u(payload_b)).encode("ascii")
    sig = case.sig_fn(signing_input, pki) if case.sig_fn else es_sign(pki[case.signer][1], signing_input)
    jwt = signing_input.decode() + "." + b64u(sig)
    if case.jwt_fn:
        jwt = case.jwt_fn(jwt)

    prefix = jwt + "~" + "".join(x + "~" for x in presented)
    text = prefix
    if case.kb:
        kb_header = case.kb_header or {"alg": "ES256", "typ": "kb+jwt"}
        hashed = case.sd_hash_fn(prefix, jwt, presented) if case.sd_hash_fn else prefix
        claims = {"iat": KB_IAT, "nonce": NONCE, "aud": case.audience, "sd_hash": sha256_b64u(hashed)}
        if case.kb_claims_fn:
            case.kb_claims_fn(claims)
        kb_input = (b64u(cjson(kb_header).encode()) + "." + b64u(cjson(claims).encode())).encode("ascii")
        kb_sig = case.kb_sig_fn(kb_input) if case.kb_sig_fn else es_sign(derive_key(f"sdjwt/{case.kb_key}"), kb_input)
        text = prefix + kb_input.decode() + "." + b64u(kb_sig)
    if case.final_fn:
        text = case.final_fn(text)

    if case.code is not None:
        return text, None, None
    base = {"iss": ISS, "iat": CRED_IAT, "exp": CRED_EXP, "vct": case.vct}
    if case.aka_vcts is not None:
        base["aka_vcts"] = case.aka_vcts
    if case.cnf:
        base["cnf"] = {"jwk": jwk(holder_pub)}
    if case.status:
        base["status"] = case.status
    disclosed: list = []
    claims = base | expected_claims(model, selected, [], disclosed)
    return text, claims, disclosed


# ------------------------------------------------------------------------------------------------------------
# Independent verifier (follows shared/notes/sd-jwt-vc.md; shares nothing with the builder above)
# ------------------------------------------------------------------------------------------------------------

class Refused(Exception):
    def __init__(self, check: str | None, code: str):
        super().__init__(f"{check}: {code}")
        self.check, self.code = check, code


B64U_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def strict_b64u(text: str) -> bytes:
    if not set(text) <= B64U_CHARS or len(text) % 4 == 1:
        raise ValueError("not base64url")
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64u(raw) != text:  # non-canonical trailing bits
        raise ValueError("non-canonical base64url")
    return raw


def _no_dups(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate member {k!r}")
        out[k] = v
    return out


def _no_constants(name):
    raise ValueError(f"non-standard JSON constant {name}")


def strict_json(raw: bytes) -> Any:
    return json.loads(raw.decode("utf-8"), object_pairs_hook=_no_dups, parse_constant=_no_constants)


def is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


NUMERIC_DATE_MIN = ts("0001-01-01T00:00:00Z")  # -62135596800
NUMERIC_DATE_END = ts("9999-12-31T23:59:59Z") + 1  # 253402300800 (exclusive)


def is_numeric_date(v) -> bool:
    """A JSON number that is a date in the years 0001-9999 (1e19 is a number but no date)."""
    return is_number(v) and NUMERIC_DATE_MIN <= v < NUMERIC_DATE_END


def compact_jws_shape(text: str, allow_empty_sig: bool = True) -> bool:
    parts = text.split(".")
    if len(parts) != 3 or not parts[0] or not parts[1]:
        return False
    return all(set(p) <= B64U_CHARS for p in parts) and (allow_empty_sig or bool(parts[2]))


class MiniVerifier:
    def __init__(self, anchors: list[x509.Certificate], lists: dict[str, str]):
        self.anchors = anchors
        self.anchor_ders = {der(a) for a in anchors}
        self.lists = lists  # uri -> compact JWS

    # ---- certificates ----
    def chain(self, x5c: list[bytes], now: int, check: str) -> list[dict]:
        warnings = []
        certs = list(x5c)
        while len(certs) > 1 and certs[-1] in self.anchor_ders:
            certs.pop()
            warnings.append({"check": check, "code": "SDJWT_X5C_CONTAINS_ANCHOR"})
        try:
            parsed = [x509.load_der_x509_certificate(c) for c in certs]
        except ValueError:
            raise Refused(check, "ISSUER_CERTIFICATE_UNTRUSTED")
        when = dt.datetime.fromtimestamp(now, UTC)
        path = []
        for i, cert in enumerate(parsed):
            if i + 1 < len(parsed):
                issuer = parsed[i + 1]
            else:
                issuer = next((a for a in self.anchors if a.subject == cert.issuer), None)
                if issuer is None:
                    raise Refused(check, "ISSUER_CERTIFICATE_UNTRUSTED")
            try:
                cert.verify_directly_issued_by(issuer)
            except (ValueError, TypeError, InvalidSignature):
                raise Refused(check, "ISSUER_CERTIFICATE_UNTRUSTED")
            try:
                if not issuer.extensions.get_extension_for_class(x509.BasicConstraints).value.ca:
                    raise Refused(check, "ISSUER_CERTIFICATE_UNTRUSTED")
            except x509.ExtensionNotFound:
                raise Refused(check, "ISSUER_CERTIFICATE_UNTRUSTED")
            path.append(cert)
        path.append(issuer)
        leaf = parsed[0]
        try:
            ku = leaf.extensions.get_extension_for_class(x509.KeyUsage).value
        except x509.ExtensionNotFound:
            raise Refused(check, "ISSUER_CERTIFICATE_UNTRUSTED")
        try:
            leaf_is_ca = leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
        except x509.ExtensionNotFound:
            leaf_is_ca = False
        if not ku.digital_signature or leaf_is_ca:
            raise Refused(check, "ISSUER_CERTIFICATE_UNTRUSTED")
        for cert in path:
            if not (cert.not_valid_before_utc <= when <= cert.not_valid_after_utc):
                raise Refused(check, "ISSUER_CERTIFICATE_EXPIRED")
        return warnings

    # ---- keys (overridable) ----
    def issuer_key(self, header: dict, payload: dict, signature: bytes, signing_input: bytes, now: int) -> list[dict]:
        """x5c: the leaf's key must verify the issuer JWT and the chain must end at an anchor; returns warnings."""
        c = "sdjwt.issuerSignature"
        x5c = header.get("x5c")
        if not isinstance(x5c, list) or not x5c or not all(isinstance(e, str) for e in x5c):
            raise Refused(c, "SDJWT_X5C_MISSING")
        try:
            chain = [base64.b64decode(e, validate=True) for e in x5c]
            leaf_key = x509.load_der_x509_certificate(chain[0]).public_key()
        except ValueError:
            raise Refused(c, "SDJWT_X5C_MISSING")
        if not isinstance(leaf_key, ec.EllipticCurvePublicKey) or leaf_key.curve.name != "secp256r1":
            raise Refused(c, "ALGORITHM_UNSUPPORTED")
        if not es_verify(leaf_key, signature, signing_input):
            raise Refused(c, "ISSUER_SIGNATURE_INVALID")
        return self.chain(chain, now, "sdjwt.issuerCertificateChain")

    def list_key(self, header: dict, now: int):
        """The status list signer's key: x5c chaining to an anchor (raises Refused/ValueError/KeyError if not)."""
        chain = [base64.b64decode(e, validate=True) for e in header["x5c"]]
        self.chain(chain, now, "sdjwt.status")
        return x509.load_der_x509_certificate(chain[0]).public_key()

    # ---- presentation ----
    def verify(self, presentation: str, *, now: int, nonce: str, audience: str, require_kb: bool,
               query: dict | None) -> dict:
        warnings: list = []
        try:
            claims, disclosed = self._verify(presentation, now, nonce, audience, require_kb, query, warnings)
        except Refused as r:
            return {"verified": False, "check": r.check, "code": r.code, "claims": None, "disclosed": None}
        return {"verified": True, "check": None, "code": None, "claims": claims, "disclosed": disclosed,
                "warnings": warnings}

    def _verify(self, presentation, now, nonce, audience, require_kb, query, warnings):
        # 1. split
        if not presentation.isascii():
            raise Refused(None, "SDJWT_MALFORMED")
        parts = presentation.split("~")
        if len(parts) < 2:
            raise Refused(None, "SDJWT_MALFORMED")
        jwt, disc_strings, kb = parts[0], parts[1:-1], parts[-1]
        if any(s == "" for s in disc_strings):
            raise Refused(None, "SDJWT_MALFORMED")
        if kb and not compact_jws_shape(kb):
            raise Refused(None, "SDJWT_MALFORMED")
        if not compact_jws_shape(jwt):
            raise Refused(None, "SDJWT_MALFORMED")
        h64, p64, s64 = jwt.split(".")
        try:
            header = strict_json(strict_b64u(h64))
            payload = strict_json(strict_b64u(p64))
            signature = strict_b64u(s64)
        except ValueError:
            raise Refused(None, "SDJWT_MALFORMED")
        if not isinstance(header, dict) or not isinstance(payload, dict):
            raise Refused(None, "SDJWT_MALFORMED")

        # 2. issuer signature
        c = "sdjwt.issuerSignature"
        if header.get("typ") != "dc+sd-jwt":
            raise Refused(c, "SDJWT_TYP_INVALID")
        if header.get("alg") != "ES256":
            raise Refused(c, "ALGORITHM_UNSUPPORTED")
        if "crit" in header:  # nothing beyond the registered parameters is processed here
            raise Refused(c, "SDJWT_CRIT_UNSUPPORTED")
        # 2b-3. the issuer's key, its signature and its trust (x5c here; jwt_vc_issuer_metadata.py overrides it)
        warnings += self.issuer_key(header, payload, signature, f"{h64}.{p64}".encode("ascii"), now)

        # 4. disclosures
        c = "sdjwt.disclosures"
        if "_sd_alg" in payload and payload["_sd_alg"] != "sha-256":
            raise Refused(c, "SDJWT_SD_ALG_UNSUPPORTED")
        if len(set(disc_strings)) != len(disc_strings):
            raise Refused(c, "SDJWT_DISCLOSURE_DUPLICATE")
        by_digest = {}
        for s in disc_strings:
            try:
                arr = strict_json(strict_b64u(s))
            except ValueError:
                raise Refused(c, "SDJWT_DISCLOSURE_MALFORMED")
            if not isinstance(arr, list) or len(arr) not in (2, 3) or not isinstance(arr[0], str):
                raise Refused(c, "SDJWT_DISCLOSURE_MALFORMED")
            if len(arr) == 3 and not isinstance(arr[1], str):
                raise Refused(c, "SDJWT_DISCLOSURE_MALFORMED")
            by_digest[b64u(hashlib.sha256(s.encode("ascii")).digest())] = arr
        seen: set[str] = set()
        used: set[str] = set()
        disclosed: list[list] = []

        def note_digest(dg):
            if dg in seen:
                raise Refused(c, "SDJWT_DIGEST_DUPLICATE")
            seen.add(dg)

        def walk(node, path, top=False):
            if isinstance(node, dict):
                if "_sd_alg" in node and not top:
                    raise Refused(c, "SDJWT_PAYLOAD_MALFORMED")
                sd = node.get("_sd", [])
                if not isinstance(sd, list) or not all(isinstance(x, str) for x in sd):
                    raise Refused(c, "SDJWT_PAYLOAD_MALFORMED")
                result = {}
                for k, v in node.items():
                    if k == "_sd" or (top and k == "_sd_alg"):
                        continue
                    result[k] = walk(v, path + [k])
                for dg in sd:
                    note_digest(dg)
                    if dg not in by_digest:
                        continue
                    used.add(dg)
                    arr = by_digest[dg]
                    if len(arr) != 3:
                        raise Refused(c, "SDJWT_DISCLOSURE_MALFORMED")
                    name = arr[1]
                    if name in ("_sd", "...", "_sd_alg"):
                        raise Refused(c, "SDJWT_DISCLOSURE_NAME_INVALID")
                    if name in result:
                        raise Refused(c, "SDJWT_CLAIM_NAME_COLLISION")
                    disclosed.append(path + [name])
                    result[name] = walk(arr[2], path + [name])
                return result
            if isinstance(node, list):
                result = []
                for el in node:
                    if isinstance(el, dict) and "..." in el:
                        if len(el) != 1 or not isinstance(el["..."], str):
                            raise Refused(c, "SDJWT_PAYLOAD_MALFORMED")
                        dg = el["..."]
                        note_digest(dg)
                        if dg not in by_digest:
                            continue
                        used.add(dg)
                        arr = by_digest[dg]
                        if len(arr) != 2:
                            raise Refused(c, "SDJWT_DISCLOSURE_MALFORMED")
                        disclosed.append(path + [len(result)])
                        result.append(walk(arr[1], path + [len(result)]))
                    else:
                        result.append(walk(el, path + [len(result)]))
                return result
            return node

        processed = walk(payload, [], top=True)
        if set(by_digest) - used:
            raise Refused(c, "SDJWT_DISCLOSURE_UNREFERENCED")
        if any(p[0] in PROTECTED for p in disclosed):
            raise Refused(c, "SDJWT_PROTECTED_CLAIM_DISCLOSED")

        # 5. claims, 6. validity
        if not isinstance(processed.get("vct"), str) or not processed["vct"]:
            raise Refused("sdjwt.claims", "SDJWT_VCT_MISSING")
        c = "sdjwt.validity"
        for claim in ("exp", "nbf", "iat"):
            if claim in processed and not is_number(processed[claim]):
                raise Refused(c, "SDJWT_PAYLOAD_MALFORMED")
        if "exp" in processed and now >= processed["exp"] + CLOCK_SKEW:
            raise Refused(c, "SDJWT_EXPIRED")
        if "nbf" in processed and now < processed["nbf"] - CLOCK_SKEW:
            raise Refused(c, "SDJWT_NOT_YET_VALID")

        # 7. key binding (the bar is set before looking at the KB-JWT)
        c = "sdjwt.keyBinding"
        cnf = processed.get("cnf")
        required = require_kb or cnf is not None
        if required or kb:
            if cnf is None:
                raise Refused(c, "SDJWT_CNF_MISSING")
            if not kb:
                raise Refused(c, "SDJWT_KB_MISSING")
            key_jwk = cnf.get("jwk") if isinstance(cnf, dict) else None
            try:
                assert key_jwk["kty"] == "EC" and key_jwk["crv"] == "P-256"
                holder = ec.EllipticCurvePublicNumbers(int.from_bytes(strict_b64u(key_jwk["x"]), "big"),
                                                       int.from_bytes(strict_b64u(key_jwk["y"]), "big"),
                                                       ec.SECP256R1()).public_key()
            except (AssertionError, KeyError, TypeError, ValueError):
                raise Refused(c, "SDJWT_CNF_MISSING")
            kh64, kp64, ks64 = kb.split(".")
            try:
                kb_header = strict_json(strict_b64u(kh64))
                kb_claims = strict_json(strict_b64u(kp64))
                kb_sig = strict_b64u(ks64)
            except ValueError:
                raise Refused(c, "SDJWT_KB_MALFORMED")
            if not isinstance(kb_header, dict) or not isinstance(kb_claims, dict):
                raise Refused(c, "SDJWT_KB_MALFORMED")
            if kb_header.get("typ") != "kb+jwt":
                raise Refused(c, "SDJWT_KB_TYP_INVALID")
            if kb_header.get("alg") != "ES256" or not es_verify(holder, kb_sig, f"{kh64}.{kp64}".encode("ascii")):
                raise Refused(c, "SDJWT_KB_SIGNATURE_INVALID")
            if not all(k in kb_claims for k in ("iat", "nonce", "aud", "sd_hash")) or not is_number(kb_claims["iat"]):
                raise Refused(c, "SDJWT_KB_MALFORMED")
            hashed_part = presentation[: presentation.rindex("~") + 1]
            if kb_claims["sd_hash"] != b64u(hashlib.sha256(hashed_part.encode("ascii")).digest()):
                raise Refused(c, "SDJWT_KB_SD_HASH_MISMATCH")
            if kb_claims["nonce"] != nonce or not isinstance(kb_claims["nonce"], str):
                raise Refused(c, "SDJWT_KB_NONCE_MISMATCH")
            if not isinstance(kb_claims["aud"], str) or kb_claims["aud"] != audience:
                raise Refused(c, "SDJWT_KB_AUDIENCE_MISMATCH")
            if not (now - KB_WINDOW <= kb_claims["iat"] <= now + KB_WINDOW):
                raise Refused(c, "SDJWT_KB_IAT_OUT_OF_WINDOW")

        # 8. status
        if "status" in processed:
            self.status(processed["status"], now)

        # 9. DCQL
        if query is not None:
            self.dcql(query, processed, disclosed)
        return processed, disclosed

    def status(self, status, now):
        unknown = Refused("sdjwt.status", "STATUS_UNKNOWN")
        ref = status.get("status_list") if isinstance(status, dict) else None
        if not isinstance(ref, dict) or not isinstance(ref.get("uri"), str):
            raise unknown
        idx = ref.get("idx")
        if not isinstance(idx, int) or isinstance(idx, bool) or idx < 0:
            raise unknown
        token = self.lists.get(ref["uri"])
        if token is None or not compact_jws_shape(token, allow_empty_sig=False):
            raise unknown
        h64, p64, s64 = token.split(".")
        try:
            header, claims, sig = strict_json(strict_b64u(h64)), strict_json(strict_b64u(p64)), strict_b64u(s64)
            if header.get("typ") != "statuslist+jwt" or header.get("alg") != "ES256" or "crit" in header:
                raise unknown
            if not es_verify(self.list_key(header, now), sig, f"{h64}.{p64}".encode("ascii")):
                raise unknown
            if claims.get("sub") != ref["uri"] or not is_numeric_date(claims.get("iat")):
                raise unknown
            if "exp" in claims and (not is_numeric_date(claims["exp"]) or claims["exp"] <= now):
                raise unknown
            if "ttl" in claims and (not is_number(claims["ttl"]) or claims["ttl"] <= 0):
                raise unknown
            bits = claims["status_list"]["bits"]
            if bits not in (1, 2, 4, 8) or isinstance(bits, bool):
                raise unknown
            inflater = zlib.decompressobj()
            raw = inflater.decompress(strict_b64u(claims["status_list"]["lst"]), 1 << 20)
            if inflater.unconsumed_tail or not inflater.eof:
                raise unknown
        except Refused:
            raise unknown
        except (ValueError, KeyError, TypeError, AttributeError, zlib.error):
            raise unknown
        if (idx + 1) * bits > len(raw) * 8:
            raise unknown
        value = (raw[idx * bits // 8] >> (idx * bits % 8)) & ((1 << bits) - 1)
        if value == 1:
            raise Refused("sdjwt.status", "STATUS_REVOKED")
        if value == 2:
            raise Refused("sdjwt.status", "STATUS_SUSPENDED")
        if value != 0:
            raise unknown

    def dcql(self, query, processed, disclosed):
        c = "request.claims"
        aka = processed.get("aka_vcts")
        names = [processed.get("vct")] + ([a for a in aka if isinstance(a, str)] if isinstance(aka, list) else [])
        if not any(n in query["meta"]["vct_values"] for n in names):
            raise Refused(c, "SDJWT_VCT_NOT_REQUESTED")
        requested = [cl["path"] for cl in query.get("claims", [])]
        for cl in query.get("claims", []):
            selection = [processed]
            for comp in cl["path"]:
                nxt = []
                for node in selection:
                    if isinstance(comp, str):
                        if not isinstance(node, dict):
                            raise Refused(c, "CLAIM_MISSING")
                        if comp in node:
                            nxt.append(node[comp])
                    else:
                        if not isinstance(node, list):
                            raise Refused(c, "CLAIM_MISSING")
                        nxt += node if comp is None else node[comp:comp + 1]
                selection = nxt
            if not selection:
                raise Refused(c, "CLAIM_MISSING")
            if "values" in cl:
                def same(a, b):
                    return type(a) is type(b) and a == b
                if not all(any(same(v, w) for w in cl["values"]) for v in selection):
                    raise Refused(c, "CLAIM_VALUE_MISMATCH")

        def compatible(dpath, rpath):  # one is a prefix of the other; null/integers match any index
            for a, b in zip(dpath, rpath):
                if isinstance(b, str):
                    if a != b:
                        return False
                elif not isinstance(a, int):
                    return False
            return True
        for dpath in disclosed:
            if not any(compatible(dpath, r) for r in requested):
                raise Refused(c, "ELEMENT_NOT_REQUESTED")


# ------------------------------------------------------------------------------------------------------------
# PyPI sd-jwt oracle (valid inputs only)
# ------------------------------------------------------------------------------------------------------------

def pypi_claims(presentation: str, issuer_pub, audience: str | None, nonce: str | None) -> dict:
    from jwcrypto.jwk import JWK
    from sd_jwt.verifier import SDJWTVerifier
    key = JWK.from_pem(issuer_pub.public_bytes(serialization.Encoding.PEM,
                                               serialization.PublicFormat.SubjectPublicKeyInfo))
    verifier = SDJWTVerifier(presentation, lambda _iss, _header: key, expected_aud=audience, expected_nonce=nonce)
    return verifier.get_verified_payload()


# ------------------------------------------------------------------------------------------------------------

README = """# SD-JWT VC (`dc+sd-jwt`) presentation vectors (TEST-ONLY)

**Every key and certificate here is TEST-ONLY.** Each private key is derived from a public seed string
(`scalar = int(SHA-512("verifierd-testvectors/" + label)) mod (n - 1) + 1`, labels `sdjwt/<name>`), so anyone can
recompute it. Never configure any of this as trusted material outside tests.

Regenerate from the repository root (deletes and rewrites only `TestVectors/sdjwt/`; byte-identical on every run):

```sh
pip install -r TestVectors/generator/requirements.txt
python3 TestVectors/generator/sd_jwt_vc.py
```

Determinism: keys from labels, RFC 6979 ECDSA (certificates, JWTs, KB-JWTs), salts = base64url(SHA-256(
"verifierd-testvectors/sdjwt/salt/" + id)[:16]), decoy digests from labels, `_sd` arrays sorted, compact JSON
(`separators=(",", ":")`, UTF-8, not ASCII-escaped: `address.locality` is "München").

## Folders

* `pki/`: `issuer-ca.pem` (self-signed P-256 CA, the only trust anchor), `issuer.pem` (the PID issuer leaf),
  `issuer-expired.pem` (valid 2024-01-01..2025-01-01), `issuer-ca-other.pem` + `issuer-other.pem` (an untrusted CA
  and its leaf), `issuer-self-signed.pem` (self-signed, not a CA), `status-signer.pem` (list signer under
  issuer-ca). Unless stated otherwise certificates are valid 2024-01-01..2074-01-01. `pki/keys/<name>.pem`: PKCS#8
  for each of them, plus `holder.pem` (the `cnf.jwk` key) and `holder-other.pem` (signs `kb-wrong-key`).
* `trusted-issuers/issuer-ca.pem`: the trust anchor alone, the folder the demo configuration seeds its SD-JWT VC
  issuer trust set from (`sdJwtVc.seedDirectory`).
* `cases/<name>.txt`: one compact SD-JWT+KB presentation (`<issuer JWT>~<disclosure>~...~<KB-JWT>`, or ending in `~`
  without KB), exact bytes, no trailing newline. Hash and verify the bytes as stored.
* `lists/<name>.jwt`: Token Status List JWTs (compact, no trailing newline), served by the tests at
  `http://127.0.0.1:18614/lists/<name>` (`manifest.json` `statusBaseURI` + each list's `path`). `iat-huge` spells
  its `iat` literally as `1e19` in the payload JSON (a number, but no NumericDate).
* `manifest.json`: verification time 2030-01-01T00:00:00Z, trust anchors, nonce, default audience,
  `kbIatWindowSeconds` (KB-JWT iat allowed in [time - 300, time + 300]), `clockSkewSeconds` (credential exp/nbf;
  a list's exp gets no skew), the lists and the cases.

## Cases

Each case: `name`, `file`, `description`, `requireKeyBinding` (the request's `require_cryptographic_holder_binding`),
optional `audience` (overrides the manifest's), optional `query` (a DCQL credential query; without it there is no
`request.claims` check), and `expect`:

* `verified`, `check` (the failing check id, or null for presentation-level `SDJWT_MALFORMED` and for verified
  cases), `code` (stable code or null);
* `claims`: for verified cases the processed payload (disclosures applied, `_sd` and `_sd_alg` removed, undisclosed
  array elements removed; plain claims such as `iss`, `cnf`, `status` included), else null;
* `disclosed`: for verified cases the paths (arrays of names and indices into the processed arrays) of every claim
  that came from a disclosure, in document order; else null;
* `warnings` (only `valid-anchor-in-x5c`): `[{check, code}]`.

Check ids, in the order a verifier evaluates them: `sdjwt.issuerSignature`, `sdjwt.issuerCertificateChain`,
`sdjwt.disclosures`, `sdjwt.claims`, `sdjwt.validity`, `sdjwt.keyBinding`, `sdjwt.status`, `request.claims`. Every
refused case has exactly one defect.

Credential: `iss` https://issuer.example, `iat` 2029-12-01, `exp` 2031-01-01, `vct` urn:eudi:pid:1, `cnf.jwk` =
holder, `_sd_alg` sha-256, 15 selectively disclosable claims (`age_equal_or_over` with disclosable members 18 and 21;
`address` with disclosable street_address, locality, postal_code, country; `nationalities` a disclosable array of
disclosable elements DE and FR with a decoy element between them), three top-level decoy digests and one in
`address`. KB-JWT: `{"alg":"ES256","typ":"kb+jwt"}`, `iat` = time - 60, `nonce`, `aud`, `sd_hash` over everything up
to and including the last `~`. `aka-vcts-match` alone has another `vct`, urn:eudi:pid:de:1, and a plain `aka_vcts`
["urn:eudi:pid:1"].

Generated by `TestVectors/generator/sd_jwt_vc.py`, which re-judges every case with its own small verifier and
checks every valid case's claims against the PyPI `sd-jwt` reference implementation.
"""


def main() -> int:
    pki = build_pki()
    anchor = pki["issuer-ca"][0]
    lists = build_lists(pki)
    all_cases = cases()
    names = [c.name for c in all_cases]
    assert len(names) == len(set(names)), "duplicate case names"

    built = {}
    for case in all_cases:
        built[case.name] = build_case(case, pki)

    # Self-check: the independent verifier must agree with every hand-written expectation.
    verifier = MiniVerifier([anchor], {list_uri(n): v["token"] for n, v in lists.items()})
    failures = []
    for case in all_cases:
        text, claims, disclosed = built[case.name]
        got = verifier.verify(text, now=NOW, nonce=NONCE, audience=case.audience, require_kb=case.require_kb,
                              query=case.query)
        want_verified = case.code is None
        if (got["verified"], got["check"], got["code"]) != (want_verified, case.check, case.code):
            failures.append(f"{case.name}: expected {(want_verified, case.check, case.code)}, "
                            f"got {(got['verified'], got['check'], got['code'])}")
            continue
        if want_verified:
            if got["claims"] != claims:
                failures.append(f"{case.name}: claims differ\n  model:    {claims}\n  verifier: {got['claims']}")
            if sorted(map(cjson, got["disclosed"])) != sorted(map(cjson, disclosed)):
                failures.append(f"{case.name}: disclosed paths differ: {disclosed} vs {got['disclosed']}")
            if got["warnings"] != (case.warnings or []):
                failures.append(f"{case.name}: warnings differ: {got['warnings']}")
            try:
                oracle = pypi_claims(text, pki["issuer"][1].public_key(),
                                     case.audience if case.kb else None, NONCE if case.kb else None)
            except Exception as e:  # noqa: BLE001
                failures.append(f"{case.name}: PyPI sd-jwt refused a valid case: {e!r}")
            else:
                if oracle != claims:
                    failures.append(f"{case.name}: PyPI sd-jwt claims differ\n  model: {claims}\n  sd-jwt: {oracle}")
    if failures:
        print("self-check FAILED:\n" + "\n".join(failures), file=sys.stderr)
        return 1

    # Write.
    if OUT.exists():
        shutil.rmtree(OUT)
    for name, (cert, key) in pki.items():
        write_bytes(OUT / "pki" / f"{name}.pem", cert.public_bytes(serialization.Encoding.PEM))
    # The trust set alone (the only anchor), a directory verifierd's demo configuration seeds its issuer set from.
    write_bytes(OUT / "trusted-issuers" / "issuer-ca.pem", pki["issuer-ca"][0].public_bytes(serialization.Encoding.PEM))
    key_names = list(pki) + ["holder", "holder-other"]
    for name in key_names:
        key = pki[name][1] if name in pki else derive_key(f"sdjwt/{name}")
        write_bytes(OUT / "pki" / "keys" / f"{name}.pem",
                    key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    for name, entry in lists.items():
        write_bytes(OUT / "lists" / f"{name}.jwt", entry["token"].encode("ascii"))
    manifest_cases = []
    for case in all_cases:
        text, claims, disclosed = built[case.name]
        write_bytes(OUT / "cases" / f"{case.name}.txt", text.encode("ascii"))
        entry = {"name": case.name, "file": f"cases/{case.name}.txt", "description": case.description,
                 "requireKeyBinding": case.require_kb}
        if case.audience != AUDIENCE:
            entry["audience"] = case.audience
        if case.query is not None:
            entry["query"] = case.query
        expect = {"verified": case.code is None, "code": case.code, "check": case.check, "claims": claims,
                  "disclosed": disclosed}
        if case.warnings:
            expect["warnings"] = case.warnings
        entry["expect"] = expect
        manifest_cases.append(entry)
    manifest = {
        "generator": "TestVectors/generator/sd_jwt_vc.py",
        "description": "SD-JWT VC (dc+sd-jwt) presentations with key binding, their status lists and the verdicts "
                       "a verifier must reach. TEST-ONLY.",
        "verificationTime": VERIFICATION_TIME,
        "trustAnchors": ["pki/issuer-ca.pem"],
        "nonce": NONCE,
        "audience": AUDIENCE,
        "kbIatWindowSeconds": KB_WINDOW,
        "clockSkewSeconds": CLOCK_SKEW,
        "statusBaseURI": BASE_URI,
        "checks": CHECKS,
        "certificates": [{"name": n, "file": f"pki/{n}.pem", "key": f"pki/keys/{n}.pem",
                          "description": CERT_DESCRIPTIONS[n]} for n in pki],
        "holderKey": "pki/keys/holder.pem",
        "lists": [{"name": n, "path": f"/lists/{n}", "file": f"lists/{n}.jwt", "description": v["description"]}
                  for n, v in lists.items()],
        "cases": manifest_cases,
    }
    write_bytes(OUT / "manifest.json", (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    write_bytes(OUT / "README.md", README.encode("utf-8"))
    valid = sum(1 for c in all_cases if c.code is None)
    print(f"generated: TestVectors/sdjwt ({len(all_cases)} cases, {valid} valid and cross-checked with PyPI sd-jwt; "
          f"{len(lists)} status lists)")
    return 0


if __name__ == "__main__":
    # Takes no arguments: -h/--help prints the text above; anything else is refused before anything is written.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
