#!/usr/bin/env python3
"""Hostile inputs for POST /v1/mdoc/verify: the most expensive requests we can build, and a load driver.

  generate OUTDIR [--chain-length N] [--unique K]
      Writes one JSON request body per file ({"deviceResponse", "sessionTranscript"}, base64), each under 1 MiB:
        long-chain-p521      x5chain [DS, CA_N .. CA_1]: N P-521 CAs, each properly signing the next
        nested-arrays        60 nested arrays each declaring 524,288 items (invalid CBOR, ~560 KB)
        many-documents       64 P-521 documents (over the 4-document cap)
        four-documents-p521  4 documents, each with its own forged DS that names the trusted test IACA as issuer
                             (the chain signature check runs and fails), P-521 issuer and device signatures
        unique-chain-K       K single-document bodies, each with a forged chain of its own (defeats the cache)
        huge-digests         an MSO with 20,000 valueDigests entries
        big-items            800 disclosed elements of 700 bytes each (digest work over ~600 KB)
  attack URL --dir DIR [--clients 16] [--seconds 10] [--pid PID] [--max-cpu-ms 5] [--max-health-ms 50]
      16 threads POST the bodies round-robin (loopback only), one more polls /healthz and /readyz every 100 ms;
      prints requests per kind, the worst and p99 health latency, and the server's CPU ms per request (from
      /proc/PID/stat), overall and per kind (kinds run one after another for seconds/kinds each).

Keys come from seed labels (like TestVectors/generator/generate.py) so output is repeatable. TEST-ONLY material.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import sys
import threading
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "TestVectors" / "generator"))

import generate as g  # noqa: E402  (the test-vector generator's helpers: keys, CBOR, mdoc issuance)
from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.x509.oid import NameOID  # noqa: E402

MAX_BODY = 1 << 20


def body(device_response: bytes, transcript: bytes) -> bytes:
    return json.dumps({"deviceResponse": base64.b64encode(device_response).decode(),
                       "sessionTranscript": base64.b64encode(transcript).decode()}).encode()


def ca_cert(name: str, issuer_name: x509.Name, issuer_key, key, ca: bool = True) -> x509.Certificate:
    subject = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"), x509.NameAttribute(NameOID.COMMON_NAME, name)])
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer_name).public_key(key.public_key())
         .serial_number(int.from_bytes(g.seed_bytes("hostile/serial/" + name, 16), "big") >> 1 | 1)
         .not_valid_before(g.d("2024-01-01T00:00:00Z")).not_valid_after(g.d("2074-01-01T00:00:00Z"))
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
         .add_extension(x509.KeyUsage(digital_signature=not ca, content_commitment=False, key_encipherment=False,
                                      data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                                      encipher_only=False, decipher_only=False), critical=True))
    if ca:
        b = b.add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    return b.sign(issuer_key, hashes.SHA512() if isinstance(issuer_key.curve, ec.SECP521R1) else hashes.SHA256(),
                  ecdsa_deterministic=True)


def forged_ds(label: str, pki: g.PKI, curve: str = "P-521") -> g.PKIEntry:
    """A DS that names the trusted iaca-p256 as its issuer (subject and AKI) but is signed by another key:
    the verifier must check that signature, which fails, so the chain is untrusted."""
    iaca = pki.entries["iaca-p256"]
    impostor = g.PKIEntry(f"impostor-{label}", iaca.cert, g.derive_key(f"hostile/impostor/{label}"), "iaca", "")
    # pki.ds takes the issuer's name, SKI and key from the entry: same name and SKI, the impostor's key.
    return pki.ds(f"hostile-ds-{label}", impostor, "verifierd Hostile DS", c="US", st="US-CA", curve=curve,
                  key_label=f"hostile/ds/{label}")


def document(label: str, pki: g.PKI, ds_name: str, x5chain: list[bytes] | None = None, **spec_kw):
    spec = g.DocSpec(label, ds=ds_name, **spec_kw)
    doc, transcript = g.issue_document(spec, pki)
    if x5chain is not None:
        doc["issuerSigned"]["issuerAuth"][1] = {33: x5chain}
    return doc, transcript


def generate(out: Path, chain_length: int, unique: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    pki = g.build_pki()
    written = {}

    def write(name: str, data: bytes) -> None:
        assert len(data) < MAX_BODY, (name, len(data))
        (out / f"{name}.json").write_bytes(data)
        written[name] = len(data)

    # (a) a long chain of P-521 CAs, each signing the next; CA_1 is signed by a self-made root
    root_key = g.derive_key("hostile/chain/root", "P-521")
    issuer_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "verifierd Hostile Root")])
    issuer_key = root_key
    chain = []
    for index in range(chain_length):
        key = g.derive_key(f"hostile/chain/{index}", "P-521")
        cert = ca_cert(f"verifierd Hostile CA {index}", issuer_name, issuer_key, key)
        chain.append(g.cert_der(cert))
        issuer_name, issuer_key = cert.subject, key
    ds_key = g.derive_key("hostile/chain/ds", "P-521")
    ds = ca_cert("verifierd Hostile Chain DS", issuer_name, issuer_key, ds_key, ca=False)
    pki.entries["hostile-chain-ds"] = g.PKIEntry("hostile-chain-ds", ds, ds_key, "ds", "")
    doc, transcript = document("hostile-long-chain", pki, "hostile-chain-ds",
                               x5chain=[g.cert_der(ds)] + list(reversed(chain)))
    write("long-chain-p521", body(g.device_response([doc]), transcript))

    # (b) nested arrays that declare far more items than they hold
    nested = b"\x9a\x00\x08\x00\x00" * 60 + b"\x00" * 560_000
    write("nested-arrays", body(nested, g.enc([None, None, None])))

    # (c) more documents than the cap allows
    forged = forged_ds("many", pki)
    doc, transcript = document("hostile-many", pki, forged.name)
    write("many-documents", body(g.device_response([doc] * 64), transcript))

    # (d) the most work the cap still allows: 4 documents, each a forged P-521 chain of its own
    docs = []
    for index in range(4):
        entry = forged_ds(f"four-{index}", pki)
        doc, transcript = document(f"hostile-four-{index}", pki, entry.name, transcript=g.enc([None, None, None]))
        docs.append(doc)
    write("four-documents-p521", body(g.device_response(docs), g.enc([None, None, None])))

    # (e) unique forged chains, one per body, so no cache helps
    for index in range(unique):
        entry = forged_ds(f"unique-{index}", pki)
        doc, transcript = document(f"hostile-unique-{index}", pki, entry.name)
        write(f"unique-chain-{index}", body(g.device_response([doc]), transcript))

    # (f) an MSO with 20,000 digests
    doc, transcript = document("hostile-digests", pki, forged.name)
    mso_tag = g.strict_loads(doc["issuerSigned"]["issuerAuth"][2])
    mso = g.strict_loads(mso_tag.value)
    mso["valueDigests"]["org.example.padding"] = {i: g.seed_bytes(f"hostile/digest/{i}", 8) for i in range(20_000)}
    mso_bytes = g.enc(g.tag24(g.enc(mso)))
    protected = doc["issuerSigned"]["issuerAuth"][0]
    sig = g.ecdsa_sign_raw(forged.key, g.enc(["Signature1", protected, b"", mso_bytes]), hashes.SHA512())
    doc["issuerSigned"]["issuerAuth"][2] = mso_bytes
    doc["issuerSigned"]["issuerAuth"][3] = sig
    write("huge-digests", body(g.device_response([doc]), transcript))

    # (g) many large disclosed elements: digest work over most of the body
    elements = g.default_elements() + [(f"padding_{i}", g.seed_bytes(f"hostile/pad/{i}", 700)) for i in range(800)]
    doc, transcript = document("hostile-big-items", pki, forged.name, elements=elements)
    write("big-items", body(g.device_response([doc]), transcript))

    (out / "README.md").write_text(
        "# Hostile request bodies (TEST-ONLY)\n\n"
        "Made by `scripts/ci/hostile-inputs.py generate TestVectors/hostile --chain-length "
        f"{chain_length} --unique {unique}` (the full-size run uses the defaults: 600 CAs, 50 unique chains).\n"
        "Each file is a JSON body for `POST /v1/mdoc/verify`; none may verify, and none may cost more than a few\n"
        "milliseconds of CPU. See the script's docstring for what each one attacks.\n\n"
        + "\n".join(f"* `{name}.json`: {size} bytes" for name, size in sorted(written.items())) + "\n")
    print(json.dumps(written, indent=1))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def attack(url: str, folder: Path, clients: int, seconds: float, pid: int | None,
           max_cpu_ms: float | None = None, max_health_ms: float | None = None,
           token: str = "hostile-check-integrator-token") -> int:
    target = urllib.parse.urlsplit(url)
    if target.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("refusing a target that is not loopback")
    bodies = {p.stem: p.read_bytes() for p in sorted(folder.glob("*.json"))}
    kinds = sorted({name.rsplit("-", 1)[0] if name.startswith("unique-chain") else name for name in bodies})

    def post(conn: http.client.HTTPConnection, data: bytes) -> int:
        conn.request("POST", "/v1/mdoc/verify", body=data,
                     headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
        response = conn.getresponse()
        response.read()
        return response.status

    def run(names: list[str], duration: float) -> tuple[int, list[float]]:
        stop = time.monotonic() + duration
        sent = [0]
        latencies: list[float] = []
        lock = threading.Lock()

        def client(offset: int) -> None:
            conn = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
            index = offset
            while time.monotonic() < stop:
                try:
                    post(conn, bodies[names[index % len(names)]])
                except (OSError, http.client.HTTPException):
                    conn.close()
                    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
                with lock:
                    sent[0] += 1
                index += 1
            conn.close()

        def prober() -> None:
            while time.monotonic() < stop:
                for path in ("/healthz", "/readyz"):
                    started = time.monotonic()
                    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
                    conn.request("GET", path)
                    conn.getresponse().read()
                    conn.close()
                    latencies.append((time.monotonic() - started) * 1000)
                time.sleep(0.1)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)] + [threading.Thread(target=prober)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return sent[0], latencies

    per_kind = seconds / max(1, len(kinds))
    worst_kind = ("", 0.0)
    all_latencies: list[float] = []
    total_sent, total_cpu = 0, 0.0
    for kind in kinds:
        names = [n for n in bodies if n == kind or n.startswith(kind + "-")]
        before = cpu_seconds(pid) if pid else 0.0
        sent, latencies = run(names, per_kind)
        cpu = (cpu_seconds(pid) - before) if pid else 0.0
        all_latencies += latencies
        total_sent += sent
        total_cpu += cpu
        per_request = cpu / sent * 1000 if sent else 0.0
        if per_request > worst_kind[1]:
            worst_kind = (kind, per_request)
        print(f"{kind:24s} {sent:7d} requests  {per_request:7.3f} ms CPU/request  worst health {max(latencies, default=0):6.1f} ms")
    all_latencies.sort()
    p99 = all_latencies[int(len(all_latencies) * 0.99) - 1] if all_latencies else 0.0
    print(f"total {total_sent} hostile requests; CPU {total_cpu / max(1, total_sent) * 1000:.3f} ms/request overall; "
          f"worst kind {worst_kind[0]} {worst_kind[1]:.3f} ms/request")
    worst_health = max(all_latencies, default=0)
    print(f"/healthz and /readyz: {len(all_latencies)} probes, p99 {p99:.1f} ms, worst {worst_health:.1f} ms")
    failures = []
    if max_cpu_ms is not None and pid and worst_kind[1] > max_cpu_ms:
        failures.append(f"{worst_kind[0]} costs {worst_kind[1]:.3f} ms CPU per request (limit {max_cpu_ms})")
    if max_health_ms is not None and worst_health > max_health_ms:
        failures.append(f"a health probe took {worst_health:.1f} ms (limit {max_health_ms})")
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate")
    gen.add_argument("out", type=Path)
    gen.add_argument("--chain-length", type=int, default=600)
    gen.add_argument("--unique", type=int, default=50)
    att = sub.add_parser("attack")
    att.add_argument("url")
    att.add_argument("--dir", type=Path, required=True)
    att.add_argument("--clients", type=int, default=16)
    att.add_argument("--token", default="hostile-check-integrator-token", help="the integrator bearer token")
    att.add_argument("--seconds", type=float, default=10)
    att.add_argument("--pid", type=int)
    att.add_argument("--max-cpu-ms", type=float, help="fail when a kind costs more CPU per request")
    att.add_argument("--max-health-ms", type=float, help="fail when a health probe takes longer")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.out, args.chain_length, args.unique)
        return 0
    return attack(args.url, args.dir, args.clients, args.seconds, args.pid, args.max_cpu_ms, args.max_health_ms,
                  args.token)


if __name__ == "__main__":
    sys.exit(main())
