#!/usr/bin/env python3
"""Second, independent build and check of the revocation vectors in TestVectors/status.

`status_lists.py` writes TestVectors/status. This script does NOT write there. It:

  1. rebuilds the core of that folder from the written specification alone, with its own token encoder, bit
     packer, signer-certificate builder and hand-written expectations (PKI read from TestVectors/pki and
     TestVectors/apple/keys; mdocs issued with generate.py's `issue_document` / `apple_seal`), into --out
     (default: a temporary folder, removed afterwards);
  2. decodes every token it built, checks its signature with `cryptography`, inflates `lst`, and judges every
     case with its own small evaluator (below), which parses the DeviceResponse bytes from disk;
  3. compares its output byte for byte with the committed TestVectors/status (lists, signer PEMs, cases,
     the Apple bodies it builds, and the manifest's case/list entries);
  4. runs the same evaluator over EVERY committed case and Apple body (including the ones this script does not
     build), and checks the committed manifest's expectations;
  5. prints the status reference of ../shared/vectors/iso18013-5-annex-d/tsl_draft_issuer_auth_with_status.hex.

It exits non-zero on any mismatch.

Usage (from the repository root):  python3 TestVectors/generator/status_lists_crosscheck.py [--out DIR]
EVERYTHING BUILT HERE IS TEST-ONLY.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import json
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402  (helpers only; its main() is behind `if __name__ == "__main__"`)

TV = g.TV
COMMITTED = TV / "status"
BASE = "http://127.0.0.1:18613"
NOW = dt.datetime(2030, 1, 1, tzinfo=dt.timezone.utc)
IAT = int(dt.datetime(2029, 12, 31, tzinfo=dt.timezone.utc).timestamp())
EXP = int(dt.datetime(2031, 1, 1, tzinfo=dt.timezone.utc).timestamp())
EXP_PAST = int(dt.datetime(2029, 6, 1, tzinfo=dt.timezone.utc).timestamp())
TTL = 3600
TYP_SL = "application/statuslist+cwt"
TYP_IL = "application/identifierlist+cwt"
MERCHANT, TEAM = "com.example.verifierd.test", "VERIFIERD1"
MDL_DS_EKU = x509.ObjectIdentifier("1.0.18013.5.1.2")
MAX_INFLATED = 1 << 20

# claim labels
SUB, IAT_C, EXP_C, TTL_C, STATUS_LIST, ID_LIST = 2, 6, 4, 65534, 65533, 65530


def list_uri(name: str) -> str:
    return f"{BASE}/lists/{name}"


def cbor(obj: Any) -> bytes:
    return cbor2.dumps(obj)


def sign_es256(key: ec.EllipticCurvePrivateKey, data: bytes) -> bytes:
    r, s = decode_dss_signature(key.sign(data, ec.ECDSA(hashes.SHA256(), deterministic_signing=True)))
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def verify_es256(pub, sig: bytes, data: bytes) -> bool:
    if not isinstance(pub, ec.EllipticCurvePublicKey) or pub.curve.name != "secp256r1" or len(sig) != 64:
        return False
    try:
        pub.verify(encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")),
                   data, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def load_cert(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def load_key(path: Path):
    return serialization.load_pem_private_key(path.read_bytes(), None)


def der(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.DER)


# ------------------------------------------------------------------------------------------------------------
# Build (from the specification)
# ------------------------------------------------------------------------------------------------------------

def make_signer(name: str, iaca_cert: x509.Certificate, iaca_key, key_encipherment_only: bool = False):
    key = g.derive_key(f"status/{name}")
    serial = int.from_bytes(g.seed_bytes(f"status/serial/{name}", 16), "big") >> 1 | 1
    usage = dict(digital_signature=not key_encipherment_only, content_commitment=False,
                 key_encipherment=key_encipherment_only, data_encipherment=False, key_agreement=False,
                 key_cert_sign=False, crl_sign=False, encipher_only=False, decipher_only=False)
    iaca_ski = iaca_cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    subject = x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
        x509.NameAttribute(NameOID.STATE_OR_PROVINCE_NAME, "US-CA"),
        x509.NameAttribute(NameOID.COMMON_NAME, "verifierd Test Status List Signer"),
    ])
    builder = x509.CertificateBuilder(
        issuer_name=iaca_cert.subject, subject_name=subject, public_key=key.public_key(), serial_number=serial,
        not_valid_before=dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc),
        not_valid_after=dt.datetime(2074, 1, 1, tzinfo=dt.timezone.utc))
    for ext, critical in ((x509.BasicConstraints(ca=False, path_length=None), True),
                          (x509.KeyUsage(**usage), True),
                          (x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(iaca_ski), False),
                          (x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)):
        builder = builder.add_extension(ext, critical=critical)
    return builder.sign(iaca_key, hashes.SHA256(), ecdsa_deterministic=True), key


def status_bytes(bits: int, count: int, values: dict[int, int]) -> bytes:
    """Status of index i at bits [i*bits, (i+1)*bits), counted from the LSB of byte (i*bits)//8."""
    total = bytearray((count * bits + 7) // 8)
    per_byte = 8 // bits
    for i, v in values.items():
        assert 0 <= v < (1 << bits) and 0 <= i < count
        total[i // per_byte] |= v << ((i % per_byte) * bits)
    return bytes(total)


def sign_token(claims: dict, typ: str, key, signer_der: bytes, *, x5_in_unprotected: bool = False,
               corrupt: bool = False) -> bytes:
    prot: dict = {1: -7, 16: typ}
    unprot: dict = {}
    (unprot if x5_in_unprotected else prot)[33] = signer_der
    prot_b = cbor(prot)
    payload = cbor(claims)
    sig = sign_es256(key, cbor(["Signature1", prot_b, b"", payload]))
    if corrupt:
        sig = bytes([sig[0] ^ 0x01]) + sig[1:]
    return cbor(CBORTag(18, [prot_b, unprot, payload, sig]))


def sl_claims(name: str, bits: int, values: dict[int, int], *, sub: str | None = None, exp: int = EXP,
              with_iat: bool = True) -> dict:
    c: dict = {SUB: sub if sub is not None else list_uri(name)}
    if with_iat:
        c[IAT_C] = IAT
    c[EXP_C] = exp
    c[TTL_C] = TTL
    c[STATUS_LIST] = {"bits": bits, "lst": zlib.compress(status_bytes(bits, 16, values), 9)}
    return c


def sl_ref(name: str, idx: int) -> dict:
    return {"status_list": {"idx": idx, "uri": list_uri(name)}}


def il_ref(name: str, ident: str) -> dict:
    return {"identifier_list": {"id": bytes.fromhex(ident), "uri": list_uri(name)}}


PASS = {"outcome": "passed"}
NA = {"outcome": "notApplicable"}


def fail(code: str) -> dict:
    return {"outcome": "failed", "code": code}


# (name, description, MSO status entry, hand-written expectation)
CASES: list[tuple[str, str, dict | None, dict]] = [
    ("status-valid", "bits1 idx 0 = 0 (VALID)", sl_ref("bits1", 0), PASS),
    ("status-revoked", "bits1 idx 1 = 1 (INVALID)", sl_ref("bits1", 1), fail("STATUS_REVOKED")),
    ("status-suspended", "bits2 idx 2 = 2 (SUSPENDED)", sl_ref("bits2", 2), fail("STATUS_SUSPENDED")),
    ("status-value3", "bits2 idx 3 = 3 (application-specific)", sl_ref("bits2", 3), fail("STATUS_UNKNOWN")),
    ("status-bits2-valid", "bits2 idx 0 = 0", sl_ref("bits2", 0), PASS),
    ("status-bits4-valid", "bits4 idx 0 = 0", sl_ref("bits4", 0), PASS),
    ("status-bits4-suspended", "bits4 idx 5 = 2", sl_ref("bits4", 5), fail("STATUS_SUSPENDED")),
    ("status-bits8-revoked", "bits8 idx 1 = 1", sl_ref("bits8", 1), fail("STATUS_REVOKED")),
    ("status-bits8-value200", "bits8 idx 9 = 200", sl_ref("bits8", 9), fail("STATUS_UNKNOWN")),
    ("status-out-of-range", "bits1 idx 1000 (16 entries)", sl_ref("bits1", 1000), fail("STATUS_UNKNOWN")),
    ("status-bad-signature", "list signature flipped", sl_ref("bad-signature", 0), fail("STATUS_UNKNOWN")),
    ("status-wrong-sub", "list sub is another URI", sl_ref("wrong-sub", 0), fail("STATUS_UNKNOWN")),
    ("status-expired-list", "list exp 2029-06-01", sl_ref("expired", 0), fail("STATUS_UNKNOWN")),
    ("status-ds-signed", "list signed by the DS", sl_ref("ds-signed", 0), fail("STATUS_UNKNOWN")),
    ("status-wrong-typ", "list typ application/cwt", sl_ref("wrong-typ", 0), fail("STATUS_UNKNOWN")),
    ("status-x5chain-unprotected", "x5chain unprotected", sl_ref("x5chain-unprotected", 0), fail("STATUS_UNKNOWN")),
    ("status-no-digitalsignature", "signer without digitalSignature", sl_ref("no-digitalsignature", 0),
     fail("STATUS_UNKNOWN")),
    ("status-no-iat", "list without iat", sl_ref("no-iat", 0), fail("STATUS_UNKNOWN")),
    ("status-not-found", "404", sl_ref("missing", 0), fail("STATUS_UNKNOWN")),
    ("status-slow", "answers after the timeout", sl_ref("slow", 0), fail("STATUS_UNKNOWN")),
    ("status-oversized", "body above the maximum", sl_ref("oversized", 0), fail("STATUS_UNKNOWN")),
    ("status-idlist-revoked", "id 0102 listed", il_ref("idlist", "0102"), fail("STATUS_REVOKED")),
    ("status-idlist-valid", "id 0304 not listed", il_ref("idlist", "0304"), PASS),
    ("status-both-valid", "bits1 idx 0 + id 0304", sl_ref("bits1", 0) | il_ref("idlist", "0304"), PASS),
    ("status-both-one-revoked", "bits1 idx 0 + id 0102", sl_ref("bits1", 0) | il_ref("idlist", "0102"),
     fail("STATUS_REVOKED")),
    ("status-none", "no status entry", None, NA),
]
APPLE_CASES = ["status-valid", "status-revoked", "status-not-found"]


def build(out: Path) -> dict[str, bytes]:
    """Return {path relative to the status folder: bytes} and write it under `out`."""
    files: dict[str, bytes] = {}
    iaca_cert, iaca_key = load_cert(TV / "pki/iaca-p256.pem"), load_key(TV / "pki/keys/iaca-p256.pem")
    ds_cert, ds_key = load_cert(TV / "pki/ds-p256.pem"), load_key(TV / "pki/keys/ds-p256.pem")
    signer, signer_key = make_signer("status-signer", iaca_cert, iaca_key)
    weak, weak_key = make_signer("status-signer-no-digitalsignature", iaca_cert, iaca_key, key_encipherment_only=True)
    for name, cert, key in (("status-signer", signer, signer_key),
                            ("status-signer-no-digitalsignature", weak, weak_key)):
        files[f"pki/{name}.pem"] = cert.public_bytes(serialization.Encoding.PEM)
        files[f"pki/keys/{name}.pem"] = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                          serialization.NoEncryption())
    s_der = der(signer)
    lists = {
        "bits1": sign_token(sl_claims("bits1", 1, {1: 1}), TYP_SL, signer_key, s_der),
        "bits2": sign_token(sl_claims("bits2", 2, {1: 1, 2: 2, 3: 3}), TYP_SL, signer_key, s_der),
        "bits4": sign_token(sl_claims("bits4", 4, {1: 1, 5: 2}), TYP_SL, signer_key, s_der),
        "bits8": sign_token(sl_claims("bits8", 8, {1: 1, 7: 2, 9: 200}), TYP_SL, signer_key, s_der),
        "bad-signature": sign_token(sl_claims("bad-signature", 1, {}), TYP_SL, signer_key, s_der, corrupt=True),
        "wrong-sub": sign_token(sl_claims("wrong-sub", 1, {}, sub=list_uri("another-list")), TYP_SL, signer_key, s_der),
        "expired": sign_token(sl_claims("expired", 1, {}, exp=EXP_PAST), TYP_SL, signer_key, s_der),
        "ds-signed": sign_token(sl_claims("ds-signed", 1, {}), TYP_SL, ds_key, der(ds_cert)),
        "wrong-typ": sign_token(sl_claims("wrong-typ", 1, {}), "application/cwt", signer_key, s_der),
        "x5chain-unprotected": sign_token(sl_claims("x5chain-unprotected", 1, {}), TYP_SL, signer_key, s_der,
                                          x5_in_unprotected=True),
        "no-digitalsignature": sign_token(sl_claims("no-digitalsignature", 1, {}), TYP_SL, weak_key, der(weak)),
        "no-iat": sign_token(sl_claims("no-iat", 1, {}, with_iat=False), TYP_SL, signer_key, s_der),
        "idlist": sign_token({SUB: list_uri("idlist"), IAT_C: IAT, EXP_C: EXP, TTL_C: TTL,
                              ID_LIST: {"identifiers": {b"\x01\x02": {}}}}, TYP_IL, signer_key, s_der),
    }
    for name, data in lists.items():
        files[f"lists/{name}.cwt.hex"] = (data.hex() + "\n").encode()

    pki = g.PKI()
    pki.entries["ds-p256"] = g.PKIEntry("ds-p256", ds_cert, ds_key, "ds", "")
    m_key = load_key(TV / "apple/keys/merchant-1.pem")
    pkr_hash = hashlib.sha256(m_key.public_key().public_bytes(serialization.Encoding.X962,
                                                             serialization.PublicFormat.UncompressedPoint)).digest()
    cases, apple = [], []
    for name, desc, status, expect in CASES:
        doc, transcript = g.issue_document(g.DocSpec(f"status/{name}", status=status), pki)
        files[f"cases/{name}.deviceresponse.hex"] = (g.device_response([doc]).hex() + "\n").encode()
        files[f"cases/{name}.transcript.hex"] = (transcript.hex() + "\n").encode()
        entry: dict = {"name": name, "description": desc, "deviceResponse": f"cases/{name}.deviceresponse.hex",
                       "sessionTranscript": f"cases/{name}.transcript.hex", "expect": expect}
        if status and "status_list" in status:
            entry["statusList"] = dict(status["status_list"])
        if status and "identifier_list" in status:
            ref = status["identifier_list"]
            entry["identifierList"] = {"id": ref["id"].hex(), "uri": ref["uri"]}
        cases.append(entry)
        if name in APPLE_CASES:
            nonce = g.seed_bytes(f"status/apple-nonce/{name}", 32)
            apple_ts = g.apple_transcript(nonce, MERCHANT, TEAM, pkr_hash)
            adoc, _ = g.issue_document(g.DocSpec(f"status/apple/{name}", status=status, transcript=apple_ts), pki)
            plaintext = cbor({"identity": {"version": "1.0", "documents": [adoc], "status": 0}})
            envelope, ts = g.apple_seal(m_key.public_key(), plaintext, nonce, MERCHANT, TEAM, f"status/{name}")
            assert ts == apple_ts
            body = {"encryptedData": base64.b64encode(envelope).decode(), "nonce": base64.b64encode(nonce).decode()}
            files[f"apple/{name}.json"] = (json.dumps(body, indent=2) + "\n").encode()
            apple.append({"case": name, "request": f"apple/{name}.json", "expect": expect})
    manifest = {"generator": "TestVectors/generator/status_lists_crosscheck.py",
                "verificationTime": "2030-01-01T00:00:00Z", "baseURI": BASE,
                "lists": [{"name": n, "path": f"/lists/{n}", "file": f"lists/{n}.cwt.hex"} for n in lists],
                "cases": cases, "apple": apple}
    files["manifest.json"] = (json.dumps(manifest, indent=2) + "\n").encode()
    for rel, data in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    return files


# ------------------------------------------------------------------------------------------------------------
# Independent evaluator (reads bytes only)
# ------------------------------------------------------------------------------------------------------------

UNKNOWN = ("failed", "STATUS_UNKNOWN")


def judge_token(body: bytes | None, kind: str, uri: str, ref: dict, iaca: x509.Certificate,
                ds: x509.Certificate, log: list[str]) -> tuple[str, str | None]:
    """The mso.status verdict for one reference, given the body served at its URI (None: nothing usable)."""
    def no(reason: str):
        log.append(reason)
        return UNKNOWN
    if body is None:
        return no("no body")
    try:
        item = cbor2.loads(body)
    except Exception:  # noqa: BLE001
        return no("not CBOR")
    if not (isinstance(item, CBORTag) and item.tag == 18 and isinstance(item.value, (list, tuple))
            and len(item.value) == 4):
        return no("not COSE_Sign1_Tagged")
    prot_b, unprot, payload, sig = item.value
    prot = cbor2.loads(prot_b) if prot_b else {}
    if prot.get(1) != -7:
        return no("alg")
    if prot.get(16) != (TYP_SL if kind == "status_list" else TYP_IL):
        return no("typ")
    if 33 not in prot or 33 in unprot:
        return no("x5chain not (only) protected")
    x5 = prot[33]
    chain = [x5] if isinstance(x5, bytes) else list(x5)
    leaf = x509.load_der_x509_certificate(chain[0])
    if not verify_es256(leaf.public_key(), sig, cbor(["Signature1", prot_b, b"", payload])):
        return no("signature")
    anchor = x509.load_der_x509_certificate(ref["certificate"]) if "certificate" in ref else iaca
    try:
        leaf.verify_directly_issued_by(anchor)
    except Exception:  # noqa: BLE001
        return no("signer not issued by the anchor")
    if leaf == ds:
        return no("signed by the document signer")
    try:
        if MDL_DS_EKU in leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value:
            return no("signer is a document signer (mdlDS EKU)")
    except x509.ExtensionNotFound:
        pass
    try:
        if leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca:
            return no("signer is a CA")
    except x509.ExtensionNotFound:
        pass
    try:
        if not leaf.extensions.get_extension_for_class(x509.KeyUsage).value.digital_signature:
            return no("no digitalSignature")
    except x509.ExtensionNotFound:
        return no("no KeyUsage")
    if not (leaf.not_valid_before_utc <= NOW <= leaf.not_valid_after_utc):
        return no("signer expired")
    claims = cbor2.loads(payload)
    if not isinstance(claims, dict) or claims.get(SUB) != uri:
        return no("sub")
    if not isinstance(claims.get(IAT_C), int):
        return no("iat")
    if EXP_C in claims and claims[EXP_C] <= NOW.timestamp():
        return no("expired")
    if kind == "identifier_list":
        if EXP_C not in claims or STATUS_LIST in claims or not isinstance(claims.get(ID_LIST), dict):
            return no("identifier list claims")
        return ("failed", "STATUS_REVOKED") if ref["id"] in claims[ID_LIST]["identifiers"] else ("passed", None)
    sl = claims.get(STATUS_LIST)
    if not isinstance(sl, dict) or sl.get("bits") not in (1, 2, 4, 8) or not isinstance(sl.get("lst"), bytes):
        return no("status list claim")
    inflater = zlib.decompressobj()
    raw = inflater.decompress(sl["lst"], MAX_INFLATED)
    if inflater.unconsumed_tail or not inflater.eof:
        return no("lst")
    bits, idx = sl["bits"], ref["idx"]
    first_bit = idx * bits
    if first_bit + bits > len(raw) * 8:
        return no(f"idx {idx} out of range")
    value = (raw[first_bit // 8] >> (first_bit % 8)) & ((1 << bits) - 1)
    verdict = {0: ("passed", None), 1: ("failed", "STATUS_REVOKED"), 2: ("failed", "STATUS_SUSPENDED")}.get(value)
    return verdict or no(f"value {value}")


def document_status(doc: dict, transcript: bytes, iaca: x509.Certificate, served: dict[str, bytes]) -> dict:
    """Check that the document is otherwise fine, then judge its MSO status entry."""
    prot_b, unprot, payload, sig = doc["issuerSigned"]["issuerAuth"]
    x5 = unprot[33]
    ds = x509.load_der_x509_certificate(x5 if isinstance(x5, bytes) else x5[0])
    ds.verify_directly_issued_by(iaca)
    assert verify_es256(ds.public_key(), sig, cbor(["Signature1", prot_b, b"", payload])), "issuer signature"
    mso = cbor2.loads(cbor2.loads(payload).value)
    keys = list(mso)
    assert "status" not in mso or keys.index("status") == keys.index("validityInfo") + 1, keys
    dk = mso["deviceKeyInfo"]["deviceKey"]
    dpub = ec.EllipticCurvePublicNumbers(int.from_bytes(dk[-2], "big"), int.from_bytes(dk[-3], "big"),
                                         ec.SECP256R1()).public_key()
    dprot, _, _, dsig = doc["deviceSigned"]["deviceAuth"]["deviceSignature"]
    da = cbor(CBORTag(24, cbor(["DeviceAuthentication", cbor2.loads(transcript), doc["docType"],
                                doc["deviceSigned"]["nameSpaces"]])))
    assert verify_es256(dpub, dsig, cbor(["Signature1", dprot, b"", da])), "device signature"
    status = mso.get("status")
    if status is None:
        return NA
    results, log = [], []
    for kind in ("status_list", "identifier_list"):
        if kind in status:
            ref = status[kind]
            body = served.get(ref["uri"][len(BASE):]) if ref["uri"].startswith(BASE + "/") else None
            results.append(judge_token(body, kind, ref["uri"], ref, iaca, ds, log))
    assert results, status
    codes = {code for _, code in results if code}
    for code in ("STATUS_REVOKED", "STATUS_SUSPENDED", "STATUS_UNKNOWN"):
        if code in codes:
            return fail(code)
    return PASS


def open_apple(body: dict, key) -> tuple[dict, bytes]:
    nonce = base64.b64decode(body["nonce"])
    env = cbor2.loads(base64.b64decode(body["encryptedData"]))
    assert env["algorithm"] == "APPLE-HPKE-v1" and env["params"]["mode"] == 0
    pub = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert env["params"]["pkRHash"] == hashlib.sha256(pub).digest()
    transcript = cbor([None, None, ["AppleIdentityPresentment_1.0", nonce, MERCHANT, TEAM, env["params"]["pkRHash"]]])
    assert env["params"]["infoHash"] == hashlib.sha256(transcript).digest()
    suite = CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)
    ctx = suite.create_recipient_context(env["params"]["pkEm"], KEMKey.from_pyca_cryptography_key(key), info=transcript)
    plaintext = cbor2.loads(ctx.open(env["data"], aad=b""))
    return plaintext["identity"]["documents"][0], transcript


def check_folder(folder: Path, label: str) -> list[str]:
    """Re-judge every case and Apple body of a status folder against its manifest. Returns error strings."""
    errors = []
    manifest = json.loads((folder / "manifest.json").read_text())
    iaca = load_cert(TV / "pki/iaca-p256.pem")
    assert manifest["verificationTime"] == "2030-01-01T00:00:00Z" and manifest["baseURI"] == BASE
    served = {}
    for entry in manifest["lists"]:
        assert entry["path"] == f"/lists/{entry['name']}"
        served[entry["path"]] = bytes.fromhex((folder / entry["file"]).read_text().strip())
    by_name = {}
    for case in manifest["cases"]:
        by_name[case["name"]] = case
        dr = cbor2.loads(bytes.fromhex((folder / case["deviceResponse"]).read_text().strip()))
        ts = bytes.fromhex((folder / case["sessionTranscript"]).read_text().strip())
        try:
            got = document_status(dr["documents"][0], ts, iaca, served)
        except Exception as exc:  # noqa: BLE001
            got = {"error": repr(exc)}
        if got != case["expect"]:
            errors.append(f"{label} case {case['name']}: manifest {case['expect']}, evaluator {got}")
    m_key = load_key(TV / "apple/keys/merchant-1.pem")
    for entry in manifest.get("apple", []):
        body = json.loads((folder / entry["request"]).read_text())
        try:
            doc, ts = open_apple(body, m_key)
            got = document_status(doc, ts, iaca, served)
        except Exception as exc:  # noqa: BLE001
            got = {"error": repr(exc)}
        if got != entry["expect"] or entry["expect"] != by_name[entry["case"]]["expect"]:
            errors.append(f"{label} apple {entry['case']}: manifest {entry['expect']}, evaluator {got}")
    print(f"{label}: judged {len(manifest['cases'])} cases and {len(manifest.get('apple', []))} Apple bodies")
    return errors


def self_check_tokens(files: dict[str, bytes]) -> list[str]:
    """Decode each built token, verify its signature, inflate lst, and print what it says."""
    errors = []
    for rel, data in sorted(files.items()):
        if not rel.startswith("lists/"):
            continue
        tok = cbor2.loads(bytes.fromhex(data.decode().strip()))
        prot_b, unprot, payload, sig = tok.value
        prot = cbor2.loads(prot_b)
        x5 = prot.get(33, unprot.get(33))
        ok = verify_es256(x509.load_der_x509_certificate(x5).public_key(), sig,
                          cbor(["Signature1", prot_b, b"", payload]))
        claims = cbor2.loads(payload)
        if STATUS_LIST in claims:
            raw = zlib.decompress(claims[STATUS_LIST]["lst"])
            bits = claims[STATUS_LIST]["bits"]
            values = [(raw[i * bits // 8] >> (i * bits % 8)) & ((1 << bits) - 1) for i in range(len(raw) * 8 // bits)]
            what = f"bits={bits} statuses={values}"
        else:
            what = f"identifiers={[k.hex() for k in claims[ID_LIST]['identifiers']]}"
        print(f"  {rel}: typ={prot.get(16)} signature={'ok' if ok else 'BAD'} sub={claims[SUB]} {what}")
        if ok == rel.endswith("bad-signature.cwt.hex"):
            errors.append(f"{rel}: signature check {ok}")
    return errors


def compare_with_committed(files: dict[str, bytes]) -> list[str]:
    errors = []
    if not COMMITTED.exists():
        return [f"{COMMITTED} is missing"]
    for rel, data in sorted(files.items()):
        if rel == "manifest.json":
            continue
        target = COMMITTED / rel
        if not target.exists():
            errors.append(f"committed {rel} is missing")
        elif target.read_bytes() != data:
            errors.append(f"committed {rel} differs from the independent build")
    mine = json.loads(files["manifest.json"])
    theirs = json.loads((COMMITTED / "manifest.json").read_text())
    for key in ("verificationTime", "baseURI"):
        if mine[key] != theirs.get(key):
            errors.append(f"manifest {key}: {theirs.get(key)} != {mine[key]}")
    their_lists = {e["name"]: e for e in theirs["lists"]}
    for e in mine["lists"]:
        if their_lists.get(e["name"]) != e:
            errors.append(f"manifest list {e['name']}: {their_lists.get(e['name'])}")
    their_cases = {c["name"]: c for c in theirs["cases"]}
    for c in mine["cases"]:
        t = their_cases.get(c["name"])
        strip = lambda x: {k: v for k, v in x.items() if k != "description"}  # noqa: E731
        if t is None or strip(t) != strip(c):
            errors.append(f"manifest case {c['name']}: committed {t and strip(t)} != {strip(c)}")
    their_apple = {a["case"]: a for a in theirs.get("apple", [])}
    for a in mine["apple"]:
        if their_apple.get(a["case"]) != a:
            errors.append(f"manifest apple {a['case']}: {their_apple.get(a['case'])}")
    extra = sorted(set(their_cases) - {c["name"] for c in mine["cases"]})
    print(f"committed: {len(files) - 1} built files compared byte for byte; committed-only cases: {extra}")
    return errors


def annex_d() -> None:
    path = g.SHARED_VECTORS / "iso18013-5-annex-d" / "tsl_draft_issuer_auth_with_status.hex"
    if not path.exists():
        print(f"note: {path} is absent; Annex D status check skipped")
        return
    auth = cbor2.loads(bytes.fromhex(path.read_text().strip()))
    if isinstance(auth, CBORTag):
        auth = auth.value
    payload = cbor2.loads(auth[2])
    mso = cbor2.loads(payload.value if isinstance(payload, CBORTag) else auth[2])
    ref = mso["status"]["status_list"]
    print(f"Annex D TSL draft IssuerAuth: status_list idx={ref['idx']} uri={ref['uri']}")
    assert ref["idx"] == 412


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, help="keep the independent build in this folder (default: a temporary folder, removed afterwards)")
    args = ap.parse_args()
    if args.out is None:
        with tempfile.TemporaryDirectory(prefix="verifierd-status-") as tmp:
            return run(Path(tmp))
    if args.out.resolve() == COMMITTED.resolve():
        print("refusing to write into TestVectors/status (status_lists.py owns it)")
        return 2
    return run(args.out)


def run(out: Path) -> int:
    files = build(out)
    print(f"built {len(files)} files into {out}")
    errors = self_check_tokens(files)
    errors += check_folder(out, "independent build")
    errors += compare_with_committed(files)
    if COMMITTED.exists():
        errors += check_folder(COMMITTED, "committed TestVectors/status")
    annex_d()
    for e in errors:
        print("MISMATCH:", e)
    print("OK" if not errors else f"{len(errors)} mismatches")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
