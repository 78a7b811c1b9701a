#!/usr/bin/env python3
"""The browser and a wallet for one multi-protocol request (POST /v1/presentations/requests). TEST-ONLY: every key
it uses is a public test key; never point it at anything real.

It reads the 201 answer of /v1/presentations/requests (a file, or standard input with `-` or no argument), checks its
shape by itself ({"sessionId", "expiresAt", "protocols", "digital": {"requests": [{"protocol", "data"}, ...]}},
`protocols` naming the requests in their order, each protocol once), picks one request as a browser and a wallet
would (--protocol, default the first offered) and answers it with the TEST-ONLY wallet of that protocol, which checks
the request as in all its scenarios:

  * org-iso-mdoc: web_wallet.py (ISO/IEC 18013-7 Annex C: reader signatures for --mode, the AKI/SKI link to
    --reader-root, deterministic CBOR; answers with an HPKE-sealed DeviceResponse);
  * openid4vp-v1-signed / openid4vp-v1-unsigned: oid4vp_wallet.py (the request object's signature and x5c chain to
    --reader-root, DCQL, the encryption JWK; answers with a JWE, or a vp_token for dc_api).

It prints one JSON line, the body the page posts to its backend and the backend to POST /v1/presentations/verify:

    {"sessionId": "...", "credential": {"protocol": "<the protocol answered>", "data": {...}}}

without contacting the service. Exit 1 (and a message on standard error) when the answer is not usable or asks for
a protocol it did not offer.

    curl -s -H "$I" localhost:8080/v1/presentations/requests --data '{"origin": "https://shop.example"}' \\
      | python3 TestVectors/generator/dc_wallet.py --issuer demo [--protocol org-iso-mdoc] > verify-body.json

Without a service, `--self-test` answers requests made here (both wallets' own fake services, in one answer) in
each protocol, opens each answer with the session keys, and checks that a protocol not offered and an answer whose
`protocols` disagree with its requests are refused.

Only the two wallets (and what they use: cbor2, cryptography, pyhpke, joserfc for the self-test) are used; nothing of
verifierd.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402
import oid4vp_wallet as ow  # noqa: E402
import web_wallet as ww  # noqa: E402

from cryptography import x509  # noqa: E402

Failure, expect = ww.Failure, ww.expect
PROTOCOL_ANNEX_C = "org-iso-mdoc"
PROTOCOLS = (ow.PROTOCOL_SIGNED, PROTOCOL_ANNEX_C, ow.PROTOCOL_UNSIGNED)


def offered_requests(answer: Any) -> tuple[str, str, list[dict]]:
    """The answer's sessionId, expiresAt and requests, after the shape checks."""
    expect(isinstance(answer, dict), "the answer is not a JSON object")
    expect(set(answer) == {"sessionId", "expiresAt", "protocols", "digital"},
           f"the answer has members {sorted(answer)}, not sessionId, expiresAt, protocols, digital")
    session_id, expires_at = answer["sessionId"], answer["expiresAt"]
    expect(isinstance(session_id, str) and session_id, "sessionId is not a non-empty string")
    ow.check_expires_at(expires_at)
    digital = answer["digital"]
    expect(isinstance(digital, dict) and set(digital) == {"requests"} and isinstance(digital["requests"], list)
           and digital["requests"], 'digital is not {"requests": [...]} with at least one request')
    requests = digital["requests"]
    for index, request in enumerate(requests):
        expect(isinstance(request, dict) and set(request) == {"protocol", "data"}
               and isinstance(request["protocol"], str) and isinstance(request["data"], dict),
               f"digital.requests[{index}] is not {{protocol, data}}")
        expect(request["protocol"] in PROTOCOLS, f"digital.requests[{index}].protocol {request['protocol']!r} "
                                                 f"is not one of {', '.join(PROTOCOLS)}")
    named = [request["protocol"] for request in requests]
    expect(len(set(named)) == len(named), f"a protocol is offered twice: {named}")
    expect(answer["protocols"] == named, f"protocols {answer['protocols']} is not the requests' protocols in their "
                                         f"order {named}")
    return session_id, expires_at, requests


def credential_for(answer: Any, protocol: str | None, origin: str, mode: str, root: x509.Certificate,
                   enc: str) -> dict:
    """The body for /v1/presentations/verify: the request for `protocol` (None: the first offered) answered by its
    wallet."""
    session_id, expires_at, requests = offered_requests(answer)
    chosen = next((r for r in requests if protocol is None or r["protocol"] == protocol), None)
    expect(chosen is not None, f"the answer does not offer {protocol} (it offers "
                               f"{', '.join(r['protocol'] for r in requests)})")
    # Each wallet reads the single-protocol answer it knows, made of this one request.
    single = {"sessionId": session_id, "expiresAt": expires_at, "request": chosen}
    if chosen["protocol"] == PROTOCOL_ANNEX_C:
        made = ww.check_made_request(single, origin, mode, root)
        elements = [e for ns in made.requested.get(g.MDL_DOCTYPE, {}).values() for e in ns if e in ww.VALUES]
        data: dict = {"response": ww.sealed_answer(made, elements)}
    else:
        signed = chosen["protocol"] == ow.PROTOCOL_SIGNED
        s = ow.check_dc_api_answer(single, origin, signed, ow._response_mode_of(chosen), root)
        data = ow.answer(s, enc=enc)
    return {"sessionId": session_id, "credential": {"protocol": chosen["protocol"], "data": data}}


# --------------------------------------------------------------------------------------------------
# Self-test: requests made here, in one answer
# --------------------------------------------------------------------------------------------------

def _combined(chain: tuple, order: list[str]) -> tuple[dict, dict]:
    """A conforming multi-protocol answer offering `order`, from both wallets' fake services (one session id), and
    the private keys by protocol."""
    parts: dict[str, tuple[dict, Any]] = {}
    for protocol in order:
        if protocol == PROTOCOL_ANNEX_C:
            parts[protocol] = ww._fake_service_answer("both", chain, ww.DEFAULT_REQUEST)
        else:
            parts[protocol] = ow._fake_service(chain, signed=protocol == ow.PROTOCOL_SIGNED)
    answer = {"sessionId": ww.b64url(b"\x01" * 32), "expiresAt": "2030-01-01T00:05:00Z", "protocols": list(order),
              "digital": {"requests": [parts[p][0]["request"] for p in order]}}
    return answer, {p: parts[p][1] for p in order}


def _refused(what: str, action: Callable[[], Any], needle: str) -> None:
    try:
        action()
    except Failure as error:
        if needle not in str(error):
            raise AssertionError(f"{what}: refused for another reason: {error}") from None
        return
    raise AssertionError(f"{what}: was accepted")


def self_test() -> int:
    chain = g.reader_auth_chain("dc-wallet-self-test", "2024-01-01T00:00:00Z", "2124-01-01T00:00:00Z")
    root = chain[0]
    failed = 0

    def answered_in_each_protocol() -> str:
        order = [ow.PROTOCOL_SIGNED, PROTOCOL_ANNEX_C, ow.PROTOCOL_UNSIGNED]
        answer, keys = _combined(chain, order)
        for protocol in [None] + order:
            body = credential_for(answer, protocol, ww.ORIGIN, "both", root, "A128GCM")
            named = protocol or order[0]
            expect(body["sessionId"] == answer["sessionId"] and body["credential"]["protocol"] == named,
                   f"answered {body['credential']['protocol']} for {named}")
            data = body["credential"]["data"]
            if named == PROTOCOL_ANNEX_C:
                request = answer["digital"]["requests"][order.index(named)]
                transcript = ww.transcript_for(request["data"]["encryptionInfo"], ww.ORIGIN)
                plaintext = ww.open_sealed(data["response"], keys[named], transcript)
                expect(isinstance(g.strict_loads(plaintext), dict), "the sealed DeviceResponse is not a map")
            else:
                _, plaintext = ow.jwe_decrypt(data["response"], keys[named])
                expect(isinstance(json.loads(plaintext).get("vp_token"), dict), "the JWE holds no vp_token")
        return "each protocol of one answer answered by its wallet (the first offered by default), opened with its key"

    def refusals() -> str:
        answer, _ = _combined(chain, [PROTOCOL_ANNEX_C])
        _refused("a protocol not offered",
                 lambda: credential_for(answer, ow.PROTOCOL_SIGNED, ww.ORIGIN, "both", root, "A128GCM"), "does not offer")
        listed = dict(answer, protocols=[ow.PROTOCOL_SIGNED])
        _refused("protocols that disagree with the requests",
                 lambda: credential_for(listed, None, ww.ORIGIN, "both", root, "A128GCM"), "is not the requests'")
        extra = dict(answer, request=answer["digital"]["requests"][0])
        _refused("a single-protocol member", lambda: credential_for(extra, None, ww.ORIGIN, "both", root, "A128GCM"),
                 "members")
        return "a protocol not offered, protocols that disagree with the requests and an extra member are refused"

    for step in (answered_in_each_protocol, refusals):
        try:
            print("ok:", step(), flush=True)
        except Exception as error:  # noqa: BLE001
            print(f"FAILED: {type(error).__name__}: {error}", flush=True)
            failed += 1
    print("self-test", "passed" if not failed else f"failed ({failed})")
    return 0 if not failed else 1


def main() -> int:
    parser = argparse.ArgumentParser(description="TEST-ONLY browser and wallet for one /v1/presentations/requests "
                                                 "answer: prints the /v1/presentations/verify body")
    parser.add_argument("answer", nargs="?", default="-",
                        help="the 201 answer of /v1/presentations/requests (a file; - or nothing: standard input)")
    parser.add_argument("--protocol", choices=PROTOCOLS, help="the request to answer (default: the first offered)")
    parser.add_argument("--origin", default=ww.ORIGIN, help=f"the page's origin (default {ww.ORIGIN})")
    parser.add_argument("--mode", choices=ww.MODES, default="both",
                        help="org-iso-mdoc: the reader signatures the service makes (readerAuth.mode)")
    parser.add_argument("--reader-root", default=str(ww.TV / "demo" / "reader-root.pem"),
                        help="PEM of the root the reader certificate (and the request object's x5c) must chain to")
    parser.add_argument("--issuer", choices=sorted(ww.ISSUERS), default="test",
                        help="mdoc document signer: test (TestVectors/pki) or demo (the demo configuration's)")
    parser.add_argument("--enc", choices=sorted(ow.CONTENT_ENCRYPTIONS), default="A128GCM",
                        help="OpenID4VP: the JWE enc")
    parser.add_argument("--now", type=int, metavar="EPOCH",
                        help="OpenID4VP dc+sd-jwt: the wallet's time (default the real time)")
    parser.add_argument("--self-test", action="store_true", help="offline checks of this program")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    ww._issuer = ww.ISSUERS[args.issuer]()
    ow._now = args.now
    root = x509.load_pem_x509_certificate(Path(args.reader_root).read_bytes())
    source = "standard input" if args.answer == "-" else args.answer
    try:
        text = sys.stdin.read() if args.answer == "-" else Path(args.answer).read_text()
        answer = ow.strict_json(text, "the /v1/presentations/requests answer")
        body = credential_for(answer, args.protocol, args.origin, args.mode, root, args.enc)
    except (OSError, Failure) as error:
        print(f"dc_wallet.py: {source} is not a usable /v1/presentations/requests answer: {error}", file=sys.stderr)
        return 1
    print(json.dumps(body))
    return 0


if __name__ == "__main__":
    sys.exit(main())
