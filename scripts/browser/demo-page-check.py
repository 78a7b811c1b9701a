#!/usr/bin/env python3
"""Drives the demo page (GET /demo) in headless Chromium through chromedriver (W3C WebDriver), up to the browser's own
Digital Credentials prompt, then plays a wallet of each protocol the page offers in visits of its own.

  demo-page-check.py --base-url http://127.0.0.1:PORT --screenshot-dir DIR [--mode readerAuth]
                     [--reader-root TestVectors/demo/reader-root.pem] [--timeout 20]
                     [--chromedriver /usr/bin/chromedriver] [--chromium /usr/bin/chromium]

The page is never changed. Before each click a script evaluated through WebDriver wraps window.fetch (to keep the
answer of /demo/requests, and what the page posts to /demo/verify and what that answered) and
navigator.credentials.get (to keep the argument it is called with); the page's own code runs as it is.

The service must offer both protocols to the page: its origin in web.allowedOrigins (org-iso-mdoc, ISO 18013-7
Annex C) and in oid4vp.allowedOrigins (openid4vp-v1-signed, OpenID4VP 1.0 Appendix A, signed with readerAuth).

Steps, each printing one JSON line {"step", "ok", ...}:
  page             GET /demo carries a strict CSP; the script ran ("ready"), the stylesheet loaded, the browser has
                   the Digital Credentials API (DigitalCredential, userAgentAllowsProtocol("org-iso-mdoc"))
  prompt           click the button: the page fetched a request from verifierd (201, a sessionId, "protocols" naming
                   the entries of "digital.requests" in order) and called navigator.credentials.get with "digital"
                   exactly the "digital" verifierd returned; the call went to the browser's real function and is
                   still pending (the browser's prompt is up: headless Chromium shows no wallet, so nothing ever
                   answers); the page says it is waiting
  request          the requests are verifierd's for this page: web_wallet.py checks the org-iso-mdoc entry for the
                   page's origin (deterministic CBOR, the reader signature over the dcapi transcript of that origin,
                   chained to --reader-root), oid4vp_wallet.py the openid4vp-v1-signed entry (the request object's
                   JWS chained to --reader-root, expected_origins holding the origin, dc_api.jwt with an encryption
                   key), and both ask for the same elements
  screenshot       PNG of the page at the prompt (DIR/demo-prompt.png): decodes, has the viewport's size, is not blank
  answer           a fresh visit whose credentials.get resolves with {protocol: org-iso-mdoc, data: {response}} from
                   the TEST-ONLY Annex C wallet (web_wallet.py) for the captured request: the page posts the
                   credential to /demo/verify as received and shows "Verified" and the claims (DIR/demo-verified.png)
  answer-openid4vp the same with {protocol: openid4vp-v1-signed, data: {response: <JWE>}} from the TEST-ONLY
                   OpenID4VP wallet (oid4vp_wallet.py), verified by that protocol (DIR/demo-verified-openid4vp.png)
  tampered         the Annex C answer with a ciphertext bit flipped: the page shows "Not verified" and
                   DECRYPTION_FAILED
  unsupported      a browser without the API (--disable-features=WebIdentityDigitalCredentials): the button is
                   disabled and the page says why
  browser-log      no CSP violation and no uncaught script error in the whole run
Exit 0 only when every step passes. Needs chromium, chromium-driver, and cbor2, cryptography and pyhpke (the wallets).
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import json
import os
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# The WebDriver client, chromedriver start-up and log helpers of the console check.
_spec = importlib.util.spec_from_file_location("console_check", HERE / "console-check.py")
cc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cc)

WINDOW = (1100, 900)
ANNEX_C = "org-iso-mdoc"
OPENID4VP = "openid4vp-v1-signed"

# Installed after the page loaded and before the click: records, then calls the browser's own function. In wallet
# mode the call is answered from Python instead, in whichever protocol the wallet chose: seen.answer(protocol, data).
OBSERVE = """
const mode = arguments[0];
const seen = window.__demoCheck = {requests: [], verifications: [], calls: [], settled: null, answer: null};
const realFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  const body = await response.clone().json().catch(() => null);
  if (String(input).endsWith('/demo/requests')) {
    seen.requests.push({status: response.status, body});
  } else if (String(input).endsWith('/demo/verify')) {
    let posted = null;
    try { posted = JSON.parse(init.body); } catch (_) { /* not JSON: posted stays null */ }
    seen.verifications.push({posted, status: response.status, protocol: body ? body.protocol : null});
  }
  return response;
};
const realGet = navigator.credentials.get.bind(navigator.credentials);
navigator.credentials.get = (options) => {
  seen.calls.push(JSON.parse(JSON.stringify(options)));
  if (mode === 'wallet') {
    return new Promise((resolve) => { seen.answer = (protocol, data) => resolve({protocol, data}); });
  }
  const pending = realGet(options);
  pending.then(() => { seen.settled = 'resolved'; }, (e) => { seen.settled = `rejected ${e.name}: ${e.message}`; });
  return pending;
};
return true;"""

STATE = """
const s = document.getElementById('status'), r = document.getElementById('result');
const cells = Array.from(document.querySelectorAll('#documents th')).map((th) => [th.textContent, th.nextElementSibling.textContent]);
return {state: s.dataset.state, status: s.textContent, button: !document.getElementById('request').disabled,
        result: r.hidden ? null : document.getElementById('result-title').textContent,
        detail: document.getElementById('result-detail').textContent, claims: Object.fromEntries(cells),
        checks: Array.from(document.querySelectorAll('#documents ul.checks li')).map((li) => li.textContent),
        focus: document.hasFocus(), seen: window.__demoCheck || null,
        violations: window.__cspViolations || null};"""


def png_facts(png: bytes) -> dict:
    """Width, height and the number of distinct colours of an 8-bit RGB or RGBA PNG (stdlib only)."""
    if not png.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not a PNG")
    offset, idat, header = 8, b"", None
    while offset < len(png):
        length, kind = struct.unpack(">I4s", png[offset:offset + 8])
        data = png[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            idat += data
        elif kind == b"IEND":
            break
        offset += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unexpected PNG format depth {depth} colour {colour} interlace {interlace}")
    channels = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    previous, colours, position = bytearray(stride), set(), 0
    for _ in range(height):
        kind, line = raw[position], bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        colours.update(bytes(line[i:i + 3]) for i in range(0, stride, channels))
        previous = line
    return {"width": width, "height": height, "colours": len(colours)}


def start_browser(session: cc.Session, chromium: str | None, extra: list[str]) -> None:
    args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            f"--window-size={WINDOW[0]},{WINDOW[1]}"] + extra
    options: dict = {"args": args}
    if chromium:
        options["binary"] = chromium
    caps = {"browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": {"browser": "ALL"}}
    session.id = session.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["sessionId"]
    try:  # CSP reports to the page itself, on every new document (best effort)
        session.call("POST", session.s("/goog/cdp/execute"),
                     {"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": {"source": cc.CSP_LISTENER}})
    except cc.WebDriverError:
        pass


def open_page(session: cc.Session, base: str, timeout: float) -> dict:
    session.open(base + "/demo")
    _, state = session.wait(lambda: (lambda s: (bool(s["state"]) and s["state"] != "", s))(session.js(STATE)), timeout)
    return state


def screenshot(session: cc.Session, path: Path) -> dict:
    png = base64.b64decode(session.call("GET", session.s("/screenshot")))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
    facts = png_facts(png)
    viewport = session.js("return [Math.round(innerWidth * devicePixelRatio), Math.round(innerHeight * devicePixelRatio)];")
    facts.update(path=str(path), bytes=len(png), viewport=viewport,
                 ok=[facts["width"], facts["height"]] == viewport and facts["colours"] > 16)
    return facts


def wallet_visit(session: cc.Session, base: str, args: argparse.Namespace, wallet_answer) -> tuple[dict, dict]:
    """A visit whose navigator.credentials.get is answered by a TEST-ONLY wallet: wallet_answer(made) is given what
    /demo/requests answered and returns (protocol, data, facts); the wrapped call resolves with {protocol, data}.
    Returns (page state, facts), the facts saying whether the page posted that credential to /demo/verify as it
    received it and by which protocol verifierd verified it."""
    state = open_page(session, base, args.timeout)
    if state["state"] != "ready":
        return state, {"error": f"page not ready: {state['status']}"}
    session.js(OBSERVE, "wallet")
    session.click("#request")
    ok, state = session.wait(lambda: (lambda s: (bool(s["seen"]["calls"]) and callable_answer(session), s))(session.js(STATE)),
                             args.timeout)
    if not ok or not state["seen"]["requests"]:
        return state, {"error": "the page did not call navigator.credentials.get"}
    made = state["seen"]["requests"][0]["body"]
    protocol, data, facts = wallet_answer(made)
    session.js("window.__demoCheck.answer(arguments[0], arguments[1]); return true;", protocol, data)
    _, state = session.wait(lambda: (lambda s: (s["state"] in ("verified", "failed", "cancelled"), s))(session.js(STATE)),
                            args.timeout)
    verifications = state["seen"]["verifications"]
    posted = verifications[0]["posted"] if len(verifications) == 1 else None
    facts.update(protocol=protocol, page_status=state["status"], verified_by=verifications[0]["protocol"] if len(verifications) == 1 else None,
                 verify_status=verifications[0]["status"] if len(verifications) == 1 else None,
                 posted_as_received=posted == {"sessionId": made.get("sessionId"),
                                               "credential": {"protocol": protocol, "data": data}})
    return state, facts


def callable_answer(session: cc.Session) -> bool:
    return bool(session.js("return !!(window.__demoCheck && window.__demoCheck.answer);"))


def verified(state: dict, facts: dict, protocol: str) -> bool:
    """The page shows "Verified" with the claims, after posting the wallet's credential as received, and verifierd
    verified it by the protocol the wallet answered in (the report's "protocol")."""
    return (state["state"] == "verified" and state["result"] == "Verified"
            and state["claims"].get("family_name") == "Mustermann" and state["seen"]["settled"] is None
            and facts.get("posted_as_received") is True and facts.get("verified_by") == protocol)


def offered(made: object, protocol: str) -> dict:
    """`protocol`'s entry of a /demo/requests answer in the shape of the single-protocol routes (/v1/web/requests,
    /v1/oid4vp/requests): {sessionId, expiresAt, request: {protocol, data}}, which is what the wallets' checks read.
    Exactly one entry of digital.requests must have that protocol."""
    web = wallet("web_wallet")
    web.expect(isinstance(made, dict) and isinstance(made.get("digital"), dict)
               and isinstance(made["digital"].get("requests"), list), "the answer has no digital.requests array")
    entries = [r for r in made["digital"]["requests"] if isinstance(r, dict) and r.get("protocol") == protocol]
    web.expect(len(entries) == 1, f"digital.requests has {len(entries)} {protocol} entries, not one")
    return {"sessionId": made.get("sessionId"), "expiresAt": made.get("expiresAt"), "request": entries[0]}


def check_annex_c(made: object, origin: str, args: argparse.Namespace):
    """The org-iso-mdoc entry, checked by the Annex C wallet for the page's origin (web_wallet.MadeRequest)."""
    web = wallet("web_wallet")
    return web.check_made_request(offered(made, ANNEX_C), origin, args.mode, load_root(args.reader_root))


def check_openid4vp(made: object, origin: str, args: argparse.Namespace):
    """The openid4vp-v1-signed entry, checked by the OpenID4VP wallet for the page's origin (oid4vp_wallet.Session):
    a signed request object answered dc_api.jwt, the only mode verifierd offers in a multi-protocol request."""
    oid4vp = wallet("oid4vp_wallet")
    return oid4vp.check_dc_api_answer(offered(made, OPENID4VP), origin, True, "dc_api.jwt", load_root(args.reader_root))


def annex_c_answer(origin: str, args: argparse.Namespace, flip: bool):
    """The Annex C wallet: the mDL elements it holds of those asked for, HPKE-sealed (one ciphertext bit flipped)."""
    def answer(made: object) -> tuple[str, dict, dict]:
        web = wallet("web_wallet")
        checked = check_annex_c(made, origin, args)
        elements = [e for ns in checked.requested.get(web.g.MDL_DOCTYPE, {}).values() for e in ns if e in web.VALUES]
        return ANNEX_C, {"response": web.sealed_answer(checked, elements, flip=flip)}, {"elements": elements}
    return answer


def openid4vp_answer(origin: str, args: argparse.Namespace):
    """The OpenID4VP wallet: one mDL holding exactly the claims each mso_mdoc query asks for (the default demo
    request asks only for elements the wallet has values for), in vp_token, as a JWE to the request's key."""
    def answer(made: object) -> tuple[str, dict, dict]:
        oid4vp = wallet("oid4vp_wallet")
        checked = check_openid4vp(made, origin, args)
        claims = {query.id: query.claims for query in checked.credentials}
        return OPENID4VP, oid4vp.answer(checked), {"credentials": claims}
    return answer


_wallets: dict = {}


def wallet(name: str):
    """TestVectors/generator/web_wallet.py or oid4vp_wallet.py (TEST-ONLY issuers and holders), each loaded once."""
    if name not in _wallets:
        folder = str(ROOT / "TestVectors" / "generator")
        if folder not in sys.path:
            sys.path.insert(0, folder)
        _wallets[name] = importlib.import_module(name)  # cbor2, cryptography, pyhpke
    return _wallets[name]


def load_root(path: str):
    return wallet("web_wallet").x509.load_pem_x509_certificate(Path(path).read_bytes())


def run(args: argparse.Namespace, session: cc.Session) -> tuple[list[bool], list[str]]:
    """The steps in one browser; returns their outcomes and the CSP violations the page itself saw."""
    results: list[bool] = []
    base = args.base_url.rstrip("/")
    origin = base
    shots = Path(args.screenshot_dir)
    emit = lambda step, ok, **details: cc.emit(results, step, ok, **details)  # noqa: E731

    # 1. page
    try:
        with urllib.request.urlopen(base + "/demo", timeout=10) as response:
            csp = response.headers.get("Content-Security-Policy") or ""
    except (urllib.error.URLError, OSError) as error:
        csp = f"(GET /demo failed: {error})"
    state = open_page(session, base, args.timeout)
    api = session.js("return {digitalCredential: typeof DigitalCredential, secure: isSecureContext,"
                     " mdoc: typeof DigitalCredential === 'function' && typeof DigitalCredential.userAgentAllowsProtocol"
                     " === 'function' ? DigitalCredential.userAgentAllowsProtocol('org-iso-mdoc') : null,"
                     " css: Array.from(document.styleSheets).reduce((n, x) => n + x.cssRules.length, 0),"
                     " browser: navigator.userAgent};")
    strict = "script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe" not in csp
    emit("page", strict and state["state"] == "ready" and state["button"] and api["css"] > 0
         and api["digitalCredential"] == "function", csp=strict, state=state["state"], status=state["status"], **api)

    # 2. prompt: the page's own call reaches the browser's real navigator.credentials.get
    session.js(OBSERVE, "browser")
    focus_before = session.js("return document.hasFocus();")
    session.click("#request")
    ok, state = session.wait(lambda: (lambda s: (bool(s["seen"]["calls"]) or s["state"] == "failed", s))(session.js(STATE)),
                             args.timeout)
    time.sleep(args.pending_seconds)  # a prompt nobody answers: the promise must still be pending after this
    state = session.js(STATE)
    seen = state["seen"]
    made = seen["requests"][0] if seen["requests"] else {"status": None, "body": None}
    body = made["body"] if isinstance(made["body"], dict) else {}
    digital = body.get("digital")
    entries = digital.get("requests") if isinstance(digital, dict) else None
    requested = [e.get("protocol") if isinstance(e, dict) else None for e in entries] if isinstance(entries, list) else None
    calls = seen["calls"]
    # The page passes verifierd's object on untouched: whatever verifierd offers, in its order, reaches the browser.
    exact = len(calls) == 1 and digital is not None and calls[0].get("digital") == digital
    listed = bool(requested) and body.get("protocols") == requested
    prompt_ok = (made["status"] == 201 and exact and listed and seen["settled"] is None and state["state"] == "waiting")
    emit("prompt", prompt_ok, made_status=made["status"], session_id=body.get("sessionId"), protocols=body.get("protocols"),
         requested_protocols=requested, called_with_exact_request=exact,
         mediation=calls[0].get("mediation") if calls else None, settled=seen["settled"],
         pending_after_seconds=args.pending_seconds, page_state=state["state"], page_status=state["status"],
         focus_before=focus_before, focus_after=state["focus"])

    # 3. request: what the browser was handed is verifierd's request for this origin, in both protocols
    try:
        annex_c = check_annex_c(made["body"], origin, args)
        openid4vp = check_openid4vp(made["body"], origin, args)
        # One request offered twice: both protocols must ask for the same elements (intent to retain included).
        same = annex_c.requested == openid4vp.requested
        emit("request", same, origin=origin,
             annex_c={"signatures": annex_c.signatures, "version": annex_c.version, "requested": annex_c.requested},
             openid4vp={"client_id": openid4vp.client_id, "response_mode": openid4vp.response_mode,
                        "enc_values": openid4vp.enc_values, "requested": openid4vp.requested},
             same_elements=same)
    except Exception as error:  # noqa: BLE001  (a Failure of a wallet, or a missing module)
        emit("request", False, error=f"{type(error).__name__}: {error}")

    # 4. screenshot at the prompt
    try:
        facts = screenshot(session, shots / "demo-prompt.png")
        emit("screenshot", facts.pop("ok"), **facts)
    except (cc.WebDriverError, OSError, ValueError, TypeError) as error:
        emit("screenshot", False, error=str(error))

    # The browser's prompt stays up over the tab (it takes the focus and keeps WebDriver's clicks from the page,
    # even after a navigation): the wallet visits run in a browser of their own.
    session.browser_log()
    violations = session.js("return window.__cspViolations || [];") or []
    session.quit()
    start_browser(session, args.chromium_binary, [])

    # 5. answer: the TEST-ONLY Annex C wallet answers; the page posts it back and shows the claims
    try:
        state, facts = wallet_visit(session, base, args, annex_c_answer(origin, args, flip=False))
        shot = screenshot(session, shots / "demo-verified.png")
        emit("answer", verified(state, facts, ANNEX_C) and shot["ok"], page_state=state["state"], result=state["result"],
             claims=state["claims"], screenshot=shot, **facts)
    except Exception as error:  # noqa: BLE001
        emit("answer", False, error=f"{type(error).__name__}: {error}")

    # 6. answer-openid4vp: a fresh visit answered by the TEST-ONLY OpenID4VP wallet instead, in the other protocol
    try:
        state, facts = wallet_visit(session, base, args, openid4vp_answer(origin, args))
        shot = screenshot(session, shots / "demo-verified-openid4vp.png")
        emit("answer-openid4vp", verified(state, facts, OPENID4VP) and shot["ok"], page_state=state["state"],
             result=state["result"], detail=state["detail"] or None, claims=state["claims"], screenshot=shot, **facts)
    except Exception as error:  # noqa: BLE001
        emit("answer-openid4vp", False, error=f"{type(error).__name__}: {error}")

    # 7. tampered: the Annex C answer, one ciphertext bit flipped
    try:
        state, facts = wallet_visit(session, base, args, annex_c_answer(origin, args, flip=True))
        emit("tampered", state["state"] == "failed" and state["result"] == "Not verified"
             and "DECRYPTION_FAILED" in state["detail"] and facts.get("verified_by") == ANNEX_C,
             page_state=state["state"], result=state["result"], detail=state["detail"], checks=state["checks"], **facts)
    except Exception as error:  # noqa: BLE001
        emit("tampered", False, error=f"{type(error).__name__}: {error}")

    session.browser_log()
    return results, violations + (session.js("return window.__cspViolations || [];") or [])


def unsupported(args: argparse.Namespace, driver_port: int) -> tuple[bool, list[dict]]:
    """A browser without the Digital Credentials API: the page disables the button and says so."""
    session = cc.Session(driver_port)
    try:
        start_browser(session, args.chromium_binary, ["--disable-features=WebIdentityDigitalCredentials"])
        state = open_page(session, args.base_url.rstrip("/"), args.timeout)
        api = session.js("return typeof DigitalCredential;")
        ok = state["state"] == "unsupported" and not state["button"] and "Digital Credentials API" in state["status"]
        print(json.dumps({"step": "unsupported", "ok": ok, "digitalCredential": api, "status": state["status"],
                          "button_enabled": state["button"]}), flush=True)
        session.browser_log()
        return ok, session.log
    finally:
        session.quit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", required=True, help="the service; its origin must be in web.allowedOrigins")
    parser.add_argument("--screenshot-dir", required=True)
    parser.add_argument("--mode", default="readerAuth", help="the service's readerAuth.mode")
    parser.add_argument("--reader-root", default=str(ROOT / "TestVectors" / "demo" / "reader-root.pem"))
    parser.add_argument("--pending-seconds", type=float, default=3.0, help="how long the prompt must stay pending")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds for each wait")
    args = parser.parse_args()
    args.chromium_binary = args.chromium if args.chromium and os.path.exists(args.chromium) else None

    port = cc.free_port()
    driver = subprocess.Popen([args.chromedriver, f"--port={port}"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    session = cc.Session(port)
    results: list[bool] = []
    try:
        ready, _ = session.wait(lambda: (bool(cc._status(session)), None), 15)
        if not ready:
            print(json.dumps({"step": "setup", "ok": False, "error": f"chromedriver did not come up on port {port}"}))
            return 1
        start_browser(session, args.chromium_binary, [])
        results, page_violations = run(args, session)
        session.quit()
        ok, log = unsupported(args, port)
        results.append(ok)
        entries = session.log + log
        csp = cc.csp_messages(entries) + page_violations
        uncaught = [e.get("message", "") for e in entries if "uncaught" in e.get("message", "").lower()]
        cc.emit(results, "browser-log", not csp and not uncaught, entries=len(entries), csp_violations=csp,
                uncaught_errors=uncaught,
                other_severe=[e.get("message", "")[:160] for e in entries if e.get("level") == "SEVERE"][:5])
    except (cc.WebDriverError, KeyError, TypeError) as error:
        results.append(False)
        print(json.dumps({"step": "driver", "ok": False, "error": str(error)}), flush=True)
    finally:
        session.quit()
        cc.stop_driver(driver)
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
