#!/usr/bin/env python3
"""TEST-ONLY material for oidf_verifier_suite.py (the OpenID Foundation verifier test plans, emulated): a reader
certificate whose subjectAltName holds the dNSName `verifier.example`, so that verifierd can sign its cross-device
request objects under the Client Identifier Prefix `x509_san_dns` (OpenID4VP 1.0 5.9.3), as the suite's
`client_id_prefix=x509_san_dns` variant expects.

Writes TestVectors/oid4vp-conformance/ (deterministic: the key from a public seed label, RFC 6979 ECDSA; byte-identical
on every run):
  reader-auth-san-dns-chain.pem   the reader certificate (leaf first) and the demo reader root above it
  keys/reader-auth-san-dns.pem    the leaf's private key (PKCS#8), derived from "oid4vp-conformance/reader-auth-san-dns"
  README.md

The leaf is issued by the demo reader root (TestVectors/demo/reader-root.pem, key derived from "demo/reader-root" as
generate.py's reader_auth_chain("demo", ...) derives it), so wallets keep
--reader-root TestVectors/demo/reader-root.pem.
It carries what the demo reader certificate carries (keyUsage digitalSignature, EKU 1.0.18013.5.1.6, AKI = root
SKI, SKI), valid 2024-01-01 .. 2124-01-01, plus subjectAltName dNSName verifier.example.

Usage (from the repository root):  python3 TestVectors/generator/oidf_material.py
EVERYTHING WRITTEN HERE IS TEST-ONLY: anyone can recompute the key.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.x509.oid import NameOID

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402

OUT = g.TV / "oid4vp-conformance"
DNS_NAME = "verifier.example"
LABEL = "oid4vp-conformance/reader-auth-san-dns"
NOT_BEFORE, NOT_AFTER = "2024-01-01T00:00:00Z", "2124-01-01T00:00:00Z"

README = f"""# OpenID4VP conformance material (TEST-ONLY)

**Every key and certificate here is TEST-ONLY.** The private key is derived from a public seed string
(`scalar = int(SHA-512("verifierd-testvectors/{LABEL}")) mod (n - 1) + 1`), so anyone can recompute it. Never
configure it outside tests.

Made by `python3 TestVectors/generator/oidf_material.py` (from the repository root; deletes and rewrites only this
folder, byte-identical on every run: the key from its label, RFC 6979 ECDSA).

* `reader-auth-san-dns-chain.pem`: a reader certificate (leaf first) with subjectAltName dNSName `{DNS_NAME}`, issued
  by the demo reader root (`../demo/reader-root.pem`, which follows it in the file), keyUsage digitalSignature, EKU
  1.0.18013.5.1.6, valid {NOT_BEFORE} .. {NOT_AFTER}.
* `keys/reader-auth-san-dns.pem`: its private key (PKCS#8).

Use: `readerAuth.signingKey` / `readerAuth.certificateChain` with `oid4vp.clientIdPrefix: "x509_san_dns"` and
`oid4vp.clientIdDnsName: "{DNS_NAME}"`, then run
`TestVectors/generator/oidf_verifier_suite.py --client-id-prefix x509_san_dns` (the emulation of the OpenID
Foundation's OpenID4VP 1.0 verifier test plans, `client_id_prefix=x509_san_dns` variant), with
`--reader-root TestVectors/demo/reader-root.pem`.
"""


def build() -> tuple[x509.Certificate, x509.Certificate, object]:
    """(leaf, demo reader root, leaf key)."""
    root, root_key, _, _ = g.reader_auth_chain("demo", NOT_BEFORE, NOT_AFTER)
    committed_root = x509.load_pem_x509_certificate((g.TV / "demo" / "reader-root.pem").read_bytes())
    assert root == committed_root, "the demo reader root rebuilt here is not TestVectors/demo/reader-root.pem"
    key = g.derive_key(LABEL)
    root_ski = root.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                                 x509.NameAttribute(NameOID.COMMON_NAME,
                                                    f"verifierd Demo Reader {DNS_NAME} TEST ONLY")]))
        .issuer_name(root.subject)
        .public_key(key.public_key())
        .serial_number(g.PKI._serial(LABEL))
        .not_valid_before(g.d(NOT_BEFORE)).not_valid_after(g.d(NOT_AFTER))
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                     crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([g.OID_MDL_READER_AUTH]), critical=True)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(DNS_NAME)]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(root_ski), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(root_key, hashes.SHA256(), ecdsa_deterministic=True)
    )
    # checked here: issued by the root, the name in the SAN, not self-signed
    leaf.verify_directly_issued_by(root)
    names = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value.get_values_for_type(x509.DNSName)
    assert names == [DNS_NAME], names
    assert leaf.issuer != leaf.subject
    return leaf, root, key


def main() -> int:
    leaf, root, key = build()
    if OUT.exists():
        for path in sorted(OUT.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
    g.write_text(OUT / "reader-auth-san-dns-chain.pem", g.cert_pem(leaf) + g.cert_pem(root))
    g.write_text(OUT / "keys" / "reader-auth-san-dns.pem", g.pkcs8_pem(key))
    g.write_text(OUT / "README.md", README)
    print(f"generated: {OUT.relative_to(g.REPO)} (reader certificate with dNSName {DNS_NAME})")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.parse_args()
    sys.exit(main())
