#!/usr/bin/env python3
"""Makes a throwaway PKI for the TLS tests, at test time, into OUTDIR (never committed).

Independent of verifierd: Python `cryptography` only. Files written:
  server-ca.pem                     the CA clients trust for the server
  server.pem / server.key           leaf for localhost and 127.0.0.1 (chain: leaf, no CA), serial 0x1001
  server-next.pem / server-next.key a second leaf from the same CA, serial 0x1002 (for reload)
  server-rsa.pem / server-rsa.key   an RSA-2048 leaf from the same CA, serial 0x1003
  client-ca.pem                     the CA admin client certificates must chain to
  client.pem / client.key           CN=ops-alice,O=Example Ops, from client-ca
  foreign-client.pem / .key         CN=mallory, from a CA the server does not know
  not-a-key.key                     a PEM certificate where a key is expected

Usage: tls_test_pki.py OUTDIR     (made if missing; a name starting with '-' is refused; -h/--help: this text)
"""
import argparse
import datetime
import ipaddress
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

NOW = datetime.datetime.now(datetime.timezone.utc)


def name(cn, org="verifierd TLS tests TEST-ONLY"):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn), x509.NameAttribute(NameOID.ORGANIZATION_NAME, org)])


def ca(cn):
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(name(cn)).issuer_name(name(cn)).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(NOW - datetime.timedelta(days=1)).not_valid_after(NOW + datetime.timedelta(days=30))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .sign(key, hashes.SHA256()))
    return key, cert


def leaf(issuer_key, issuer_cert, subject, serial, usage, key=None, san=True):
    key = key or ec.generate_private_key(ec.SECP256R1())
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer_cert.subject)
               .public_key(key.public_key()).serial_number(serial)
               .not_valid_before(NOW - datetime.timedelta(days=1))
               .not_valid_after(NOW + datetime.timedelta(days=30))
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(x509.ExtendedKeyUsage([usage]), critical=False))
    if san:
        builder = builder.add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
    return key, builder.sign(issuer_key, hashes.SHA256())


def write(folder, filename, data):
    with open(os.path.join(folder, filename), "wb") as f:
        f.write(data)


def pem_cert(cert):
    return cert.public_bytes(serialization.Encoding.PEM)


def pem_key(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def parse_arguments():
    """OUTDIR only. `--help` prints the usage; any other option, or a folder named like one, is refused before
    anything is written (a folder named `--help` was once made at the repository root)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\nUsage:")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir", metavar="OUTDIR", help="the folder to write to (made if missing)")
    # argparse reports missing arguments before unknown options: name an unknown option first, and never take a word
    # that looks like one as a value.
    for argument in sys.argv[1:]:
        if argument.startswith("-") and argument not in ("-h", "--help"):
            parser.error(f"unknown option {argument!r} (see --help)")
    args = parser.parse_args()
    if not args.outdir:
        parser.error("OUTDIR may not be empty")
    return args.outdir


def main():
    out = parse_arguments()
    os.makedirs(out, exist_ok=True)
    server_ca_key, server_ca = ca("verifierd test server CA")
    write(out, "server-ca.pem", pem_cert(server_ca))
    for stem, serial, key in [("server", 0x1001, None), ("server-next", 0x1002, None),
                              ("server-rsa", 0x1003, rsa.generate_private_key(public_exponent=65537, key_size=2048))]:
        k, c = leaf(server_ca_key, server_ca, name("localhost"), serial, ExtendedKeyUsageOID.SERVER_AUTH, key=key)
        write(out, f"{stem}.pem", pem_cert(c))
        write(out, f"{stem}.key", pem_key(k))
        if stem == "server":
            write(out, "not-a-key.key", pem_cert(c))
    client_ca_key, client_ca = ca("verifierd test admin client CA")
    write(out, "client-ca.pem", pem_cert(client_ca))
    k, c = leaf(client_ca_key, client_ca, name("ops-alice", "Example Ops"), 0x2001, ExtendedKeyUsageOID.CLIENT_AUTH,
                san=False)
    write(out, "client.pem", pem_cert(c))
    write(out, "client.key", pem_key(k))
    foreign_ca_key, foreign_ca = ca("somebody else's CA")
    k, c = leaf(foreign_ca_key, foreign_ca, name("mallory", "Elsewhere"), 0x3001, ExtendedKeyUsageOID.CLIENT_AUTH,
                san=False)
    write(out, "foreign-client.pem", pem_cert(c))
    write(out, "foreign-client.key", pem_key(k))


if __name__ == "__main__":
    main()
