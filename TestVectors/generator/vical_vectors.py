#!/usr/bin/env python3
"""VICAL test vectors for verifierd (ISO/IEC 18013-5 Annex C, Verified Issuer Certificate Authority List).

Writes TestVectors/vical/ (deterministic: keys from seed labels, RFC 6979 ECDSA, fixed serials and dates):
  signer-root.pem, signer.pem, ...   the VICAL signer PKI (P-256) and, in keys/, its PKCS#8 private keys
  test-vical-*.cbor                  signed VICALs (untagged COSE_Sign1, ES256), raw bytes
  manifest.json, README.md

The IACAs listed in the VICALs are read from TestVectors/pki/ (written by generate.py); they are not regenerated.
The real AAMVA and RDW lists in ../shared/vectors/vical/ cover the real-world quirks; these files add the cases
the real files cannot give (rollback, stale, future, wrong signer, wrong EKU, duplicates, an unparsable entry).

After building, every file is re-read from disk and judged by a small independent evaluator written here
(COSE signature against the x5chain leaf, chain to the configured root, EKU, date/nextUpdate, rollback, entry
parsing and merging); the script aborts unless that evaluator agrees with the manifest's `expect`. The whole output
is built twice in-process and must be byte-identical, and files whose bytes did not change are not rewritten.

Usage (from the repository root, after generate.py):  python3 TestVectors/generator/vical_vectors.py
          python3 TestVectors/generator/vical_vectors.py --check   (compare with the files on disk, write nothing)
EVERYTHING WRITTEN HERE IS TEST-ONLY.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402  (helpers only; its main() is behind `if __name__ == "__main__"`)

OUT = g.TV / "vical"
PKI_DIR = g.TV / "pki"

OID_VICAL_SIGNER = x509.ObjectIdentifier("1.0.18013.5.1.8")
PROVIDER = "verifierd test"
VERIFICATION_TIME = "2030-01-01T00:00:00Z"
CONFIGURED_ANCHOR = "signer-root.pem"
ROLLBACK_BASE_ISSUE_ID = 10  # the issue ID a verifier is assumed to have accepted before (test-vical-10.cbor)

MDL = "org.iso.18013.5.1.mDL"
PHOTOID = "org.iso.23220.photoid.1"

PROTECTED = g.enc({1: -7})  # a10126, ES256
assert PROTECTED == bytes.fromhex("a10126")


# --------------------------------------------------------------------------------------------------
# VICAL signer PKI (P-256)
# --------------------------------------------------------------------------------------------------

def _serial(label: str) -> int:
    return int.from_bytes(g.seed_bytes("vical/serial/" + label, 16), "big") >> 1 | 1


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "verifierd TEST ONLY"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def vical_root(name: str, cn: str, description: str) -> g.PKIEntry:
    key = g.derive_key(f"vical/{name}")
    subject = _name(cn)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(_serial(name))
        .not_valid_before(g.d("2025-01-01T00:00:00Z")).not_valid_after(g.d("2045-01-01T00:00:00Z"))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    return g.PKIEntry(name, cert, key, "vical-root", description)


def vical_signer(name: str, issuer: g.PKIEntry, cn: str, eku: x509.ObjectIdentifier, description: str) -> g.PKIEntry:
    """KeyUsage nonRepudiation (critical), EKU (critical), SKI, AKI; no BasicConstraints (like both real signers)."""
    key = g.derive_key(f"vical/{name}")
    issuer_ski = issuer.cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(cn)).issuer_name(issuer.cert.subject).public_key(key.public_key())
        .serial_number(_serial(name))
        .not_valid_before(g.d("2025-01-01T00:00:00Z")).not_valid_after(g.d("2045-01-01T00:00:00Z"))
        .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=True, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                     crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([eku]), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(issuer_ski), critical=False)
        .sign(issuer.key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    return g.PKIEntry(name, cert, key, "vical-signer", description, issuer.name)


def build_signer_pki() -> dict[str, g.PKIEntry]:
    root = vical_root("signer-root", "verifierd Test VICAL Root",
                      "VICAL signer root; the anchor a verifier is configured with for these vectors.")
    other = vical_root("signer-root-other", "verifierd Other Test VICAL Root",
                       "Unrelated VICAL signer root; never configured.")
    entries = [
        root,
        vical_signer("signer", root, "verifierd Test VICAL Signer", OID_VICAL_SIGNER,
                     "VICAL signer under signer-root (KeyUsage nonRepudiation, EKU 1.0.18013.5.1.8)."),
        other,
        vical_signer("signer-other", other, "verifierd Other Test VICAL Signer", OID_VICAL_SIGNER,
                     "VICAL signer under signer-root-other (correct profile, untrusted root)."),
        vical_signer("signer-wrong-eku", root, "verifierd Test VICAL Signer serverAuth EKU",
                     ExtendedKeyUsageOID.SERVER_AUTH,
                     "Signer under signer-root with EKU serverAuth instead of 1.0.18013.5.1.8."),
    ]
    return {e.name: e for e in entries}


# --------------------------------------------------------------------------------------------------
# VICAL encoding
# --------------------------------------------------------------------------------------------------

def tdate(text: str) -> CBORTag:
    return CBORTag(0, text)


def rfc3339(t: dt.datetime) -> str:
    return t.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def load_iaca(name: str) -> x509.Certificate:
    return x509.load_pem_x509_certificate((PKI_DIR / f"{name}.pem").read_bytes())


def cert_info(cert: x509.Certificate, doc_types: list[str], country: str, state: str | None = None,
              ski_der_wrapped: bool = False, serial_der_content: bool = False, extensions_key: str | None = None
              ) -> dict:
    """One CertificateInfo. Quirk switches imitate the real AAMVA list:
    ski_der_wrapped: `ski` = 04 16 04 14 || keyIdentifier (the SKI extension's whole extnValue);
    serial_der_content: `serialNumber` = the DER INTEGER content bytes (a 0x00 pad when the top bit is set);
    extensions_key: "extensions" or the capitalised "Extensions" (value {}), or None for no key."""
    ski_ext = cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    ski = ski_ext.public_bytes() if ski_der_wrapped else ski_ext.digest  # public_bytes = inner OCTET STRING
    if ski_der_wrapped:
        ski = bytes([0x04, len(ski)]) + ski
        assert ski[:4] == b"\x04\x16\x04\x14" and len(ski) == 24
    n = cert.serial_number
    serial = n.to_bytes((n.bit_length() + 7) // 8, "big")
    if serial_der_content and serial[0] & 0x80:
        serial = b"\x00" + serial
    info: dict[str, Any] = {
        "certificate": g.cert_der(cert),
        "serialNumber": CBORTag(2, serial),
        "ski": ski,
        "docType": list(doc_types),
        "issuingAuthority": cert.subject.rfc4514_string(),
        "issuingCountry": country,
    }
    if state is not None:
        info["stateOrProvinceName"] = state
    info["notBefore"] = tdate(rfc3339(cert.not_valid_before_utc))
    info["notAfter"] = tdate(rfc3339(cert.not_valid_after_utc))
    if extensions_key is not None:
        info[extensions_key] = {}
    return info


def garbage_info() -> dict:
    junk = g.seed_bytes("vical/garbage-certificate", 20)
    junk = bytes([0x5A]) + junk[1:]  # not a SEQUENCE tag, so no DER parser gets anywhere
    return {
        "certificate": junk,
        "serialNumber": CBORTag(2, b"\x01"),
        "ski": g.seed_bytes("vical/garbage-ski", 20),
        "docType": [MDL],
        "issuingAuthority": "CN=verifierd Test Unparsable Entry",
        "issuingCountry": "US",
        "notBefore": tdate("2024-01-01T00:00:00Z"),
        "notAfter": tdate("2074-01-01T00:00:00Z"),
    }


def payload(issue_id: int, date: str, next_update: str, infos: list[dict]) -> bytes:
    return g.enc({
        "version": "1.0",
        "vicalProvider": PROVIDER,
        "date": tdate(date),
        "vicalIssueID": issue_id,
        "nextUpdate": tdate(next_update),
        "certificateInfos": infos,
    })


def sig_structure(protected: bytes, payload_bytes: bytes) -> bytes:
    return g.enc(["Signature1", protected, b"", payload_bytes])


def sign_vical(payload_bytes: bytes, signer: g.PKIEntry, chain: list[x509.Certificate], as_array: bool) -> bytes:
    ders = [g.cert_der(c) for c in chain]
    assert ders[0] == g.cert_der(signer.cert)
    x5chain: Any = ders if as_array else ders[0]
    if not as_array:
        assert len(ders) == 1
    sig = g.ecdsa_sign_raw(signer.key, sig_structure(PROTECTED, payload_bytes), hashes.SHA256())
    assert len(sig) == 64
    return g.enc([PROTECTED, {33: x5chain}, payload_bytes, sig])


# --------------------------------------------------------------------------------------------------
# Build (pure: returns {relative path: bytes} and the manifest)
# --------------------------------------------------------------------------------------------------

def build() -> dict[str, bytes]:
    pki = build_signer_pki()
    root, signer, other_root, other_signer, wrong = (pki[n] for n in
                                                     ("signer-root", "signer", "signer-root-other", "signer-other",
                                                      "signer-wrong-eku"))
    i256, i384, i521, inc = (load_iaca(n) for n in ("iaca-p256", "iaca-p384", "iaca-p521", "iaca-no-country"))

    # Entries. Quirks spread over entries: p256 has the AAMVA DER-wrapped ski, p384 the capitalised
    # "Extensions": {}, p521 the serial as DER INTEGER content bytes (equal to the minimal bytes when the top bit
    # of the serial is clear, which is the case for every IACA in TestVectors/pki).
    e256 = cert_info(i256, [MDL], "US", "US-CA", ski_der_wrapped=True)
    e384 = cert_info(i384, [PHOTOID], "US", extensions_key="Extensions")
    e521 = cert_info(i521, [MDL, PHOTOID], "US", "US-NY", serial_der_content=True, extensions_key="extensions")
    enc_ = cert_info(inc, [MDL], "US", extensions_key="extensions")
    base_entries = [e256, e384, e521]

    D, NU = "2025-06-01T00:00:00Z", "2045-01-01T00:00:00Z"
    p10 = payload(10, D, NU, base_entries)
    chain = [signer.cert, root.cert]

    vicals: list[dict] = []

    def add(file: str, issue_id: int, date: str, next_update: str, payload_bytes: bytes, who: g.PKIEntry,
            chain_certs: list[x509.Certificate], chain_files: list[str], as_array: bool, expect: dict,
            description: str, listed: list[str], extra: dict | None = None) -> None:
        data = sign_vical(payload_bytes, who, chain_certs, as_array)
        item = {
            "file": file,
            "description": description,
            "vicalIssueID": issue_id,
            "date": date,
            "nextUpdate": next_update,
            "x5chain": {"shape": "array" if as_array else "bstr", "certificates": chain_files},
            "signer": f"{who.name}.pem",
            "listed": listed,
            "expect": expect,
        }
        if extra:
            item.update(extra)
        item["sha256"] = hashlib.sha256(data).hexdigest()
        vicals.append({"bytes": data, "manifest": item})

    def anchors(*pairs: tuple[x509.Certificate, str, list[str]]) -> list[dict]:
        return [{"iaca": name, "sha256": hashlib.sha256(g.cert_der(c)).hexdigest(), "docTypes": dts}
                for c, name, dts in pairs]

    a10 = anchors((i256, "iaca-p256.pem", [MDL]), (i384, "iaca-p384.pem", [PHOTOID]),
                  (i521, "iaca-p521.pem", [MDL, PHOTOID]))
    a11 = anchors((i256, "iaca-p256.pem", [MDL]), (i384, "iaca-p384.pem", [PHOTOID]),
                  (inc, "iaca-no-country.pem", [MDL]))
    a15 = anchors((i256, "iaca-p256.pem", [MDL, PHOTOID]))
    L10 = ["iaca-p256.pem", "iaca-p384.pem", "iaca-p521.pem"]

    def accepted(a: list[dict], skipped: int = 0) -> dict:
        return {"outcome": "accepted", "anchors": a, "skipped": skipped}

    def refused(reason: str) -> dict:
        return {"outcome": "refused", "reason": reason}

    chain_files = ["signer.pem", "signer-root.pem"]
    add("test-vical-10.cbor", 10, D, NU, p10, signer, chain, chain_files, True, accepted(a10),
        "Baseline. iaca-p384 is scoped to org.iso.23220.photoid.1 only. Quirks: iaca-p256 `ski` DER-wrapped "
        "(04 16 04 14 || keyIdentifier), iaca-p384 uses the capitalised key `Extensions`, iaca-p521 `serialNumber` "
        "as DER INTEGER content bytes (no 0x00 pad needed: its top bit is clear).", L10)
    add("test-vical-11.cbor", 11, D, NU, payload(11, D, NU, [e256, e384, enc_]), signer, [signer.cert],
        ["signer.pem"], False, accepted(a11),
        "Successor of 10 with a single-bstr x5chain (signer only): iaca-p521 removed, iaca-no-country added "
        "(org.iso.18013.5.1.mDL; the IACA itself has no countryName, the entry says issuingCountry US).",
        ["iaca-p256.pem", "iaca-p384.pem", "iaca-no-country.pem"])
    add("test-vical-9.cbor", 9, D, NU, payload(9, D, NU, base_entries), signer, chain, chain_files, True,
        refused("rollback-relative-to-10"),
        "Like 10 with vicalIssueID 9 and a valid signature: refused only by a verifier that already accepted "
        "issue 10 (accepted on its own, see expectWithoutPriorList).", L10,
        {"expectWithoutPriorList": accepted(a10)})
    add("test-vical-10-other-signer.cbor", 10, D, NU, p10, other_signer, [other_signer.cert, other_root.cert],
        ["signer-other.pem", "signer-root-other.pem"], True, refused("signature/chain"),
        "The payload bytes of test-vical-10.cbor, signed by the signer under the unrelated signer-root-other "
        "(the COSE signature verifies with its own x5chain leaf; the chain does not reach signer-root).", L10)
    add("test-vical-12-wrong-eku.cbor", 12, D, NU, payload(12, D, NU, base_entries), wrong, [wrong.cert, root.cert],
        ["signer-wrong-eku.pem", "signer-root.pem"], True, refused("eku"),
        "Signed by a certificate under signer-root whose EKU is serverAuth, not 1.0.18013.5.1.8.", L10)
    add("test-vical-13-stale.cbor", 13, "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z",
        payload(13, "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z", base_entries), signer, chain, chain_files, True,
        refused("stale"), "Valid signature; nextUpdate 2025-02-01T00:00:00Z is in the past at any time after "
                          "February 2025.", L10)
    add("test-vical-14-future.cbor", 14, "2044-01-01T00:00:00Z", NU,
        payload(14, "2044-01-01T00:00:00Z", NU, base_entries), signer, chain, chain_files, True, refused("future"),
        "Valid signature; date 2044-01-01T00:00:00Z lies in the future for clocks 2026..2043.", L10)
    dup_a = cert_info(i256, [MDL], "US", "US-CA")
    dup_b = cert_info(i256, [PHOTOID], "US", "US-CA")
    add("test-vical-15-duplicates.cbor", 15, D, NU, payload(15, D, NU, [dup_a, dup_b, garbage_info()]), signer,
        chain, chain_files, True, accepted(a15, skipped=1),
        "iaca-p256 listed twice (docType [mDL] and [photoid], like RDW #16/#44) plus an entry whose `certificate` "
        "is 20 garbage bytes. Expected: one anchor with the union of docTypes, one skipped entry, list accepted.",
        ["iaca-p256.pem", "iaca-p256.pem", "(20 garbage bytes)"])

    files: dict[str, bytes] = {}
    for e in pki.values():
        files[f"{e.name}.pem"] = g.cert_pem(e.cert).encode()
        files[f"keys/{e.name}.pem"] = g.pkcs8_pem(e.key).encode()
    for v in vicals:
        files[v["manifest"]["file"]] = v["bytes"]

    manifest = {
        "generator": "TestVectors/generator/vical_vectors.py",
        "description": "TEST-ONLY VICALs (ISO/IEC 18013-5 Annex C). Paths relative to this folder; IACA paths "
                       "relative to ../pki/.",
        "verificationTime": VERIFICATION_TIME,
        "configuredSignerAnchor": CONFIGURED_ANCHOR,
        "rollbackBase": {"file": "test-vical-10.cbor", "vicalIssueID": ROLLBACK_BASE_ISSUE_ID,
                         "rule": "a VICAL whose vicalIssueID is lower than that of a VICAL accepted earlier from "
                                 "the same provider is refused (rollback-relative-to-10)"},
        "reasons": {
            "signature/chain": "COSE_Sign1 signature does not verify with the x5chain leaf, or the chain does not "
                               "lead to the configured signer anchor",
            "eku": "the signer certificate lacks ExtendedKeyUsage 1.0.18013.5.1.8",
            "stale": "nextUpdate is before the verification time",
            "future": "date is after the verification time",
            "rollback-relative-to-10": "vicalIssueID below 10 after test-vical-10.cbor was accepted",
        },
        "signerCertificates": [{
            "name": e.name, "certificate": f"{e.name}.pem", "privateKey": f"keys/{e.name}.pem",
            "issuer": e.issuer, "role": e.role, "subject": e.cert.subject.rfc4514_string(),
            "notBefore": rfc3339(e.cert.not_valid_before_utc), "notAfter": rfc3339(e.cert.not_valid_after_utc),
            "sha256": hashlib.sha256(g.cert_der(e.cert)).hexdigest(), "description": e.description,
        } for e in pki.values()],
        "vicals": [v["manifest"] for v in vicals],
    }
    files["manifest.json"] = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()
    files["README.md"] = readme(manifest).encode()
    return files


def readme(manifest: dict) -> str:
    rows = []
    for v in manifest["vicals"]:
        e = v["expect"]
        outcome = (f"accepted: {len(e['anchors'])} anchor(s), {e['skipped']} skipped" if e["outcome"] == "accepted"
                   else f"refused: {e['reason']}")
        chain = ("[" + ", ".join(v["x5chain"]["certificates"]) + "]" if v["x5chain"]["shape"] == "array"
                 else v["x5chain"]["certificates"][0] + " (single bstr)")
        rows.append(f"| `{v['file']}` | {v['vicalIssueID']} | {v['date']} | {v['nextUpdate']} | {chain} | {outcome} |")
    table = "\n".join(rows)
    return f"""# VICAL test vectors (TEST ONLY)

**TEST-ONLY. Never trust any of these keys or certificates in production.** Every private key here is derived
from a public seed string, so anyone can recompute it.

Signed VICALs (ISO/IEC 18013-5 Annex C) for cases the real AAMVA and RDW lists (`../shared/vectors/vical/`, beside
the repository) cannot give. Each `.cbor` file is an untagged COSE_Sign1 (protected `{{1: -7}}`, ES256, unprotected
`{{33: x5chain}}`, payload = bstr of the VICAL map, 64-byte r || s signature over
`["Signature1", protected, h'', payload]`), vicalProvider `"{PROVIDER}"`. The listed IACAs are
`../pki/iaca-*.pem`.

Expected outcomes assume the configured VICAL signer anchor `{CONFIGURED_ANCHOR}` and the clock
`{VERIFICATION_TIME}`; for the rollback case, that `test-vical-10.cbor` was accepted before.
`manifest.json` has per file the anchors (SHA-256 of the IACA DER) with their docTypes, the skipped-entry count
or the refusal reason, and the file's SHA-256.

| File | Issue | date | nextUpdate | x5chain | Expected |
| --- | --- | --- | --- | --- | --- |
{table}

Signer PKI (P-256, valid 2025-01-01..2045-01-01, keys in `keys/` as PKCS#8):

* `signer-root.pem`: self-signed "verifierd Test VICAL Root"; BasicConstraints CA (critical), KeyUsage keyCertSign +
  cRLSign (critical), SKI.
* `signer.pem`: "verifierd Test VICAL Signer" under signer-root; KeyUsage nonRepudiation (critical), EKU
  1.0.18013.5.1.8 (critical), SKI, AKI, no BasicConstraints.
* `signer-root-other.pem` / `signer-other.pem`: the same profile under an unrelated root.
* `signer-wrong-eku.pem`: under signer-root, EKU serverAuth (critical) instead of 1.0.18013.5.1.8.

Quirks copied from the real lists: in every file except 15 the iaca-p256 `ski` is DER-wrapped (`04 16 04 14` ||
keyIdentifier, as AAMVA) and the iaca-p384 entry has the capitalised key `Extensions` (as AAMVA). The
iaca-p521 `serialNumber` is written as DER INTEGER content bytes; as no IACA serial here has its top bit set, that
is the same as the minimal bytes (no leading 0x00; the real AAMVA file has those).

Regenerate from the repository root, after `generate.py`, with `python3 TestVectors/generator/vical_vectors.py`
(`--check` compares with the files on disk and writes nothing). The output is byte-identical on every run (seeded
keys, fixed serials and dates, RFC 6979 ECDSA); unchanged files are not rewritten. Before writing, the script
re-judges every VICAL with its own small evaluator and aborts on any disagreement with `manifest.json`.
"""


# --------------------------------------------------------------------------------------------------
# Independent evaluator (reads only the bytes on disk)
# --------------------------------------------------------------------------------------------------

def _verify_cert_sig(cert: x509.Certificate, issuer: x509.Certificate) -> bool:
    if cert.issuer != issuer.subject:
        return False
    try:
        issuer.public_key().verify(cert.signature, cert.tbs_certificate_bytes,
                                   ec.ECDSA(cert.signature_hash_algorithm))
        return True
    except InvalidSignature:
        return False


def _ski_key_id(ski: bytes) -> bytes:
    """Strip the AAMVA DER wrapping (04 len 04 len ...) when present."""
    if len(ski) >= 4 and ski[0] == 0x04 and ski[1] == len(ski) - 2 and ski[2] == 0x04 and ski[3] == len(ski) - 4:
        return ski[4:]
    return ski


def _keep_tag(tag: int):
    def hook(value: Any, *_: Any) -> CBORTag:
        # cbor2 6.x passes the decoded content; older versions pass the decoder
        return CBORTag(tag, value.decode() if isinstance(value, cbor2.CBORDecoder) else value)
    return hook


def raw_loads(data: bytes) -> Any:
    """Strict decode of one item (definite lengths, no duplicate keys, no trailing bytes) that keeps tags 0 and 2
    as CBORTag, so their encoding can be checked."""
    fp = io.BytesIO(data)
    obj = cbor2.CBORDecoder(fp, allow_indefinite=False, allow_duplicate_keys=False,
                            semantic_decoders={0: _keep_tag(0), 2: _keep_tag(2)}).decode()
    if fp.tell() != len(data):
        raise ValueError(f"{len(data) - fp.tell()} trailing bytes")
    return obj


def _time(v: Any) -> dt.datetime:
    assert isinstance(v, CBORTag) and v.tag == 0 and isinstance(v.value, str) and v.value.endswith("Z"), v
    return g.d(v.value)


def evaluate(data: bytes, anchor: x509.Certificate, now: dt.datetime, previous_issue_id: int | None) -> dict:
    cose = raw_loads(data)
    assert isinstance(cose, list) and len(cose) == 4, "untagged COSE_Sign1 expected"
    protected, unprotected, payload_bytes, sig = cose
    assert data[0] == 0x84 and protected == PROTECTED and raw_loads(protected) == {1: -7}
    assert isinstance(unprotected, dict) and set(unprotected) == {33} and isinstance(payload_bytes, bytes)
    x5 = unprotected[33]
    ders = [x5] if isinstance(x5, bytes) else x5
    assert isinstance(ders, list) and ders and all(isinstance(b, bytes) for b in ders)
    chain = [x509.load_der_x509_certificate(b) for b in ders]
    leaf = chain[0]

    reasons: set[str] = set()
    # 1. COSE signature with the leaf
    if not g.ecdsa_verify_raw(leaf.public_key(), sig, sig_structure(protected, payload_bytes), hashes.SHA256()):
        reasons.add("signature/chain")
    # 2. chain to the configured anchor (each element signed by the next; the last is the anchor or signed by it)
    anchor_der = g.cert_der(anchor)
    ok = all(_verify_cert_sig(chain[i], chain[i + 1]) for i in range(len(chain) - 1))
    last = chain[-1]
    ok = ok and (g.cert_der(last) == anchor_der or _verify_cert_sig(last, anchor))
    ok = ok and all(c.not_valid_before_utc <= now <= c.not_valid_after_utc for c in chain + [anchor])
    if not ok:
        reasons.add("signature/chain")
    # signer profile
    try:
        ekus = list(leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value)
    except x509.ExtensionNotFound:
        ekus = []
    if OID_VICAL_SIGNER not in ekus:
        reasons.add("eku")
    ku = leaf.extensions.get_extension_for_class(x509.KeyUsage).value
    assert ku.content_commitment

    body = raw_loads(payload_bytes)
    assert g.enc(body) == payload_bytes and g.enc(cose) == data  # preferred encoding, nothing lost
    assert body["version"] == "1.0" and body["vicalProvider"] == PROVIDER
    date, next_update, issue_id = _time(body["date"]), _time(body["nextUpdate"]), body["vicalIssueID"]
    if date > now:
        reasons.add("future")
    if next_update < now:
        reasons.add("stale")
    rollback = previous_issue_id is not None and issue_id < previous_issue_id

    anchors: dict[bytes, list[str]] = {}
    skipped = 0
    for info in body["certificateInfos"]:
        try:
            cert = x509.load_der_x509_certificate(info["certificate"])
        except ValueError:
            skipped += 1
            continue
        ski = cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
        assert _ski_key_id(info["ski"]) == ski
        sn = info["serialNumber"]
        assert isinstance(sn, CBORTag) and sn.tag == 2 and int.from_bytes(sn.value, "big") == cert.serial_number
        assert _time(info["notBefore"]) == cert.not_valid_before_utc
        assert _time(info["notAfter"]) == cert.not_valid_after_utc
        assert info["docType"] and all(isinstance(t, str) for t in info["docType"])
        der = g.cert_der(cert)
        merged = anchors.setdefault(der, [])
        merged.extend(t for t in info["docType"] if t not in merged)

    if reasons:
        assert len(reasons) == 1, reasons
        return {"outcome": "refused", "reason": reasons.pop()}
    accepted = {"outcome": "accepted",
                "anchors": [hashlib.sha256(k).hexdigest() + " " + ",".join(v) for k, v in anchors.items()],
                "skipped": skipped}
    if rollback:
        return {"outcome": "refused", "reason": f"rollback-relative-to-{previous_issue_id}", "standalone": accepted}
    return accepted


def _flatten(expect: dict) -> dict:
    if expect["outcome"] == "refused":
        return {"outcome": "refused", "reason": expect["reason"]}
    return {"outcome": "accepted", "anchors": [a["sha256"] + " " + ",".join(a["docTypes"]) for a in expect["anchors"]],
            "skipped": expect["skipped"]}


def self_check(files: dict[str, bytes]) -> list[str]:
    """Re-read from OUT and judge each VICAL independently."""
    for rel, data in files.items():
        assert (OUT / rel).read_bytes() == data, rel
    manifest = json.loads((OUT / "manifest.json").read_text())
    anchor = x509.load_pem_x509_certificate((OUT / manifest["configuredSignerAnchor"]).read_bytes())
    now = g.d(manifest["verificationTime"])
    iaca_index = {c["certificate"]: c["sha256"]
                  for c in json.loads((PKI_DIR / "certificates.json").read_text())["certificates"]}
    lines = []
    for v in manifest["vicals"]:
        data = (OUT / v["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == v["sha256"]
        cose = raw_loads(data)
        x5 = cose[1][33]
        ders = [x5] if isinstance(x5, bytes) else x5
        assert ("bstr" if isinstance(x5, bytes) else "array") == v["x5chain"]["shape"]
        assert ders == [g.cert_der(x509.load_pem_x509_certificate((OUT / f).read_bytes()))
                        for f in v["x5chain"]["certificates"]]
        leaf = x509.load_der_x509_certificate(ders[0])
        assert g.cert_der(leaf) == g.cert_der(x509.load_pem_x509_certificate((OUT / v["signer"]).read_bytes()))
        # signature with the leaf, whatever the expected outcome
        assert g.ecdsa_verify_raw(leaf.public_key(), cose[3], sig_structure(cose[0], cose[2]), hashes.SHA256())
        # the leaf is signed by its expected root
        issuer_name = next(c["issuer"] for c in manifest["signerCertificates"] if c["certificate"] == v["signer"])
        root = x509.load_pem_x509_certificate((OUT / f"{issuer_name}.pem").read_bytes())
        assert _verify_cert_sig(leaf, root)
        body = raw_loads(cose[2])
        assert body["vicalIssueID"] == v["vicalIssueID"]
        assert body["date"].value == v["date"] and body["nextUpdate"].value == v["nextUpdate"]
        for a in v["expect"].get("anchors", []):
            assert iaca_index[a["iaca"]] == a["sha256"], a
        prev = ROLLBACK_BASE_ISSUE_ID if v["expect"].get("reason", "").startswith("rollback") else None
        got = evaluate(data, anchor, now, prev)
        want = _flatten(v["expect"])
        if "expectWithoutPriorList" in v:
            assert got.pop("standalone") == _flatten(v["expectWithoutPriorList"]), v["file"]
            assert evaluate(data, anchor, now, None) == _flatten(v["expectWithoutPriorList"])
        assert got == want, (v["file"], got, want)
        lines.append(f"{v['file']}: {got['outcome']} {got.get('reason', '')}".rstrip())
    # the other-signer file carries the exact payload bytes of 10
    p10 = raw_loads((OUT / "test-vical-10.cbor").read_bytes())[2]
    assert raw_loads((OUT / "test-vical-10-other-signer.cbor").read_bytes())[2] == p10
    return lines


# --------------------------------------------------------------------------------------------------

def main(check_only: bool = False) -> int:
    first = build()
    g._KEYS.clear()
    second = build()
    assert first == second, "non-deterministic output"
    files = first

    existing = {p.relative_to(OUT).as_posix() for p in OUT.rglob("*") if p.is_file()} if OUT.is_dir() else set()
    changed = [rel for rel, data in files.items() if not (OUT / rel).is_file() or (OUT / rel).read_bytes() != data]
    extra = sorted(existing - set(files))
    if check_only:
        if changed or extra:
            print("differs from disk:", ", ".join(changed + [f"(extra) {e}" for e in extra]))
            return 1
    else:
        for rel in changed:
            path = OUT / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[rel])
        for rel in extra:
            (OUT / rel).unlink()
    lines = self_check(files)
    print("\n".join(lines))
    print(f"{len(files)} files in {OUT.relative_to(g.REPO)}: "
          + (f"{len(changed)} written, {len(extra)} removed" if not check_only else "identical to the build"))
    return 0


if __name__ == "__main__":
    # -h/--help prints the usage; any argument but --check is refused before anything is written.
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare the build with the files on disk, write nothing")
    sys.exit(main(check_only=parser.parse_args().check))
