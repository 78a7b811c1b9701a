#!/usr/bin/env python3
"""Drives the operations console (GET /admin) in headless Chromium through chromedriver (W3C WebDriver).

  console-check.py --base-url http://127.0.0.1:PORT --token T --vical FILE --source aamva
                   [--at 2025-11-18T19:00:00Z] --expect-anchor SHA256 --expect-added 14 --screenshot PATH
                   [--chromedriver /usr/bin/chromedriver] [--chromium /usr/bin/chromium] [--timeout 15]

Steps, each printing one JSON line {"step", "ok", ...}:
  page        open /admin (the response must carry a CSP), no Content Security Policy messages in the browser log,
              the script ran and the stylesheet loaded
  connect     type the token, click Connect, wait for "connected" and tr.anchor[data-sha256=EXPECT]
  token-kept  the token is in no storage, cookie or URL
  dry-run     upload the VICAL with #vical-dry-run: "N added" shows, the anchor count does not move
  import      #vical-import: the count grows by N, section[data-source="vical:SOURCE"] gains N rows
  screenshot  PNG of the page to --screenshot
  wrong-token a fresh page, token "wrong": #error mentions 401 / UNAUTHORIZED / token
  browser-log no CSP violation and no uncaught script error in the whole session
Exit 0 only when every step passes. Needs chromium and chromium-driver (Debian). Python stdlib only.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


class WebDriverError(Exception):
    pass


class Session:
    """A minimal W3C WebDriver client over chromedriver's HTTP endpoint."""

    def __init__(self, port: int):
        self.base = f"http://127.0.0.1:{port}"
        self.id: str | None = None
        self.log: list[dict] = []  # every browser log entry seen so far

    def call(self, method: str, path: str, body: object | None = None, timeout: float = 60) -> object:
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                answer = json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            try:
                value = json.loads(error.read()).get("value", {})
                message = f"{value.get('error')}: {value.get('message', '')}".split("\n")[0]
            except (ValueError, AttributeError):
                message = str(error)
            raise WebDriverError(f"{method} {path}: {message}") from None
        except (urllib.error.URLError, OSError) as error:
            raise WebDriverError(f"{method} {path}: {error}") from None
        return answer.get("value") if isinstance(answer, dict) else answer

    def s(self, path: str) -> str:
        return f"/session/{self.id}{path}"

    def start(self, chromium: str | None) -> None:
        options: dict = {"args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                  "--window-size=1400,1800"]}
        if chromium:
            options["binary"] = chromium
        caps = {"browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": {"browser": "ALL"}}
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
        self.id = value["sessionId"]

    def quit(self) -> None:
        if self.id:
            try:
                self.call("DELETE", f"/session/{self.id}", timeout=15)
            except WebDriverError:
                pass
            self.id = None

    def open(self, url: str) -> None:
        self.call("POST", self.s("/url"), {"url": url})

    def js(self, script: str, *args: object) -> object:
        return self.call("POST", self.s("/execute/sync"), {"script": script, "args": list(args)})

    def find(self, css: str) -> str:
        return self.call("POST", self.s("/element"), {"using": "css selector", "value": css})[ELEMENT]

    def type(self, css: str, text: str, clear: bool = True) -> None:
        element = self.find(css)
        if clear:
            self.call("POST", self.s(f"/element/{element}/clear"))
        self.call("POST", self.s(f"/element/{element}/value"), {"text": text})

    def click(self, css: str) -> None:
        self.call("POST", self.s(f"/element/{self.find(css)}/click"))

    def text(self, css: str) -> str:
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;", css)

    def browser_log(self) -> list[dict]:
        """New browser log entries (chromedriver's legacy log endpoint; empty when not available)."""
        for path in ("/se/log", "/log"):
            try:
                entries = self.call("POST", self.s(path), {"type": "browser"})
            except WebDriverError:
                continue
            entries = entries if isinstance(entries, list) else []
            self.log.extend(entries)
            return entries
        return []

    def wait(self, probe, timeout: float) -> tuple[bool, object]:
        """Polls probe() until it returns (True, value) or the time is up; returns the last (ok, value)."""
        deadline = time.monotonic() + timeout
        while True:
            ok, value = probe()
            if ok or time.monotonic() >= deadline:
                return ok, value
            time.sleep(0.2)


def stop_driver(driver: subprocess.Popen) -> None:
    """Ends chromedriver and what it started (its process group): SIGTERM, then SIGKILL after 10 s."""
    try:
        os.killpg(driver.pid, signal.SIGTERM)
        driver.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(driver.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def csp_messages(entries: list[dict]) -> list[str]:
    return [e.get("message", "") for e in entries if "content security policy" in e.get("message", "").lower()]


def emit(results: list[bool], step: str, ok: bool, **details: object) -> bool:
    results.append(ok)
    print(json.dumps({"step": step, "ok": ok, **details}), flush=True)
    return ok


# Collects violations reported to the page itself, in case the browser log is not available.
CSP_LISTENER = ("window.__cspViolations = [];"
                "document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push("
                "e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));")

ANCHOR_STATE = """
const count = document.getElementById('anchor-count');
const group = document.querySelector(`section.source-group[data-source="${arguments[0]}"]`);
const error = document.getElementById('error');
return {
  status: (document.getElementById('status') || {}).textContent || '',
  count: count ? count.textContent.trim() : null,
  found: arguments[1] ? !!document.querySelector(`tr.anchor[data-sha256="${arguments[1]}"]`) : false,
  groupRows: group ? group.querySelectorAll('tr.anchor').length : 0,
  result: (document.getElementById('vical-result') || {}).textContent || '',
  error: error && !error.hidden ? error.textContent.trim() : '',
};"""


def run(args: argparse.Namespace, session: Session) -> list[bool]:
    results: list[bool] = []
    base = args.base_url.rstrip("/")
    group = f"vical:{args.source}"
    wait = args.timeout

    def state() -> dict:
        return session.js(ANCHOR_STATE, group, args.expect_anchor.lower())

    # CSP listener on every new document (best effort: needs chromedriver's CDP passthrough).
    try:
        session.call("POST", session.s("/goog/cdp/execute"),
                     {"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": {"source": CSP_LISTENER}})
    except WebDriverError:
        pass

    # 1. page
    try:
        with urllib.request.urlopen(base + "/admin", timeout=10) as response:
            csp_header = response.headers.get("Content-Security-Policy") or ""
    except (urllib.error.URLError, OSError) as error:
        csp_header = f"(GET /admin failed: {error})"
    session.open(base + "/admin")
    def page_probe():
        p = session.js("const s = document.getElementById('status');"
                       "return {ready: document.readyState === 'complete', scriptRan: !!(s && s.getAttribute('data-state')),"
                       " sheets: Array.from(document.styleSheets).reduce((n, x) => n + x.cssRules.length, 0),"
                       " violations: window.__cspViolations || null, title: document.title};")
        return p["ready"] and p["scriptRan"], p
    ok_ready, page = session.wait(page_probe, wait)
    time.sleep(0.3)  # let late reports land in the log
    entries = session.browser_log()
    violations = csp_messages(entries) + list(page.get("violations") or [])
    has_csp = "script-src 'self'" in csp_header and "default-src 'none'" in csp_header
    emit(results, "page", ok_ready and has_csp and page["sheets"] > 0 and not violations,
         title=page.get("title"), csp_header=bool(has_csp), script_ran=page.get("scriptRan"),
         css_rules=page.get("sheets"), csp_violations=violations, log_entries=len(entries),
         page_listener=page.get("violations") is not None)

    # 2. connect
    session.type("#token", args.token)
    session.click("#connect")
    ok, st = session.wait(lambda: (lambda s: (s["status"].strip().startswith("connected") and s["found"], s))(state()), wait)
    count_before = int(st["count"]) if ok and (st["count"] or "").isdigit() else None
    rows_before = st["groupRows"]
    connected = emit(results, "connect", ok and count_before is not None, status=st["status"], anchor_count=st["count"],
                     expected_anchor_found=st["found"], error=st["error"] or None)

    # 3. token-kept
    if connected:
        leaks = session.js("""
            const t = arguments[0], where = [];
            const scan = (store, name) => { for (let i = 0; i < store.length; i++) {
              const k = store.key(i); if (k.includes(t) || (store.getItem(k) || '').includes(t)) where.push(name); } };
            scan(window.localStorage, 'localStorage'); scan(window.sessionStorage, 'sessionStorage');
            if (document.cookie.includes(t)) where.push('cookie');
            if (decodeURIComponent(location.href).includes(t)) where.push('location');
            if (document.getElementById('token').value.includes(t)) where.push('token-input (still filled)');
            return where;""", args.token)
        hard = [w for w in leaks if not w.startswith("token-input")]
        emit(results, "token-kept", not hard, found_in=leaks)
    else:
        emit(results, "token-kept", False, skipped="not connected")

    # 4. dry-run
    dry_ok = False
    if connected:
        session.type("#vical-source", args.source)
        session.type("#vical-file", os.path.abspath(args.vical), clear=False)
        if args.at:
            session.type("#vical-at", args.at)
        session.click("#vical-dry-run")
        want = f"{args.expect_added} added"
        ok, st = session.wait(lambda: (lambda s: (want in s["result"] or bool(s["error"]), s))(state()), wait)
        ok = ok and want in st["result"] and not st["error"]
        time.sleep(0.3)
        after = state()
        dry_ok = emit(results, "dry-run", ok and after["count"] == str(count_before),
                      result=" ".join(st["result"].split())[:300], anchor_count_before=count_before,
                      anchor_count_after=after["count"], error=st["error"] or None)
    else:
        emit(results, "dry-run", False, skipped="not connected")

    # 5. import
    if dry_ok:
        session.click("#vical-import")
        want_count = str(count_before + args.expect_added)
        want_rows = rows_before + args.expect_added
        ok, st = session.wait(lambda: (lambda s: (
            (s["count"] == want_count and s["groupRows"] == want_rows) or bool(s["error"]), s))(state()), wait)
        ok = ok and not st["error"]
        emit(results, "import", ok, anchor_count=st["count"], expected_count=want_count, group=group,
             group_rows=st["groupRows"], expected_group_rows=want_rows, status=st["status"],
             result=" ".join(st["result"].split())[:200], error=st["error"] or None)
    else:
        emit(results, "import", False, skipped="dry run did not pass")

    # 6. screenshot
    try:
        png = base64.b64decode(session.call("GET", session.s("/screenshot")))
        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        with open(args.screenshot, "wb") as out:
            out.write(png)
        emit(results, "screenshot", png.startswith(b"\x89PNG"), path=args.screenshot, bytes=len(png))
    except (WebDriverError, OSError, ValueError) as error:
        emit(results, "screenshot", False, error=str(error))

    # 7. wrong-token
    session.browser_log()  # keep the earlier entries apart from the expected 401 below
    session.open(base + "/admin")
    session.wait(lambda: (session.js("return !!document.getElementById('status')"
                                     " && !!document.getElementById('status').getAttribute('data-state');"), None), wait)
    session.type("#token", "wrong")
    session.click("#connect")

    def wrong_probe():
        s = session.js("const e = document.getElementById('error'), s = document.getElementById('status');"
                       "return {error: e && !e.hidden ? e.textContent.trim() : '', status: s ? s.textContent.trim() : ''};")
        text = s["error"].lower()
        return ("401" in text or "unauthorized" in text or "token" in text), s
    ok, st = session.wait(wrong_probe, wait)
    emit(results, "wrong-token", ok and not st["status"].startswith("connected"), error=st["error"], status=st["status"])

    # 8. browser-log: the whole session
    session.browser_log()
    csp = csp_messages(session.log)
    uncaught = [e.get("message", "") for e in session.log if "uncaught" in e.get("message", "").lower()]
    page_violations = session.js("return window.__cspViolations || [];") or []
    emit(results, "browser-log", not csp and not uncaught and not page_violations, entries=len(session.log),
         csp_violations=csp + page_violations, uncaught_errors=uncaught,
         other_severe=[e.get("message", "")[:160] for e in session.log
                       if e.get("level") == "SEVERE" and e.get("message", "") not in csp + uncaught][:5])
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--vical", required=True)
    parser.add_argument("--source", default="aamva")
    parser.add_argument("--at")
    parser.add_argument("--expect-anchor", required=True)
    parser.add_argument("--expect-added", type=int, required=True)
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds for each wait")
    args = parser.parse_args()
    if not os.path.isfile(args.vical):
        print(json.dumps({"step": "setup", "ok": False, "error": f"no such file: {args.vical}"}))
        return 1

    port = free_port()
    driver = subprocess.Popen([args.chromedriver, f"--port={port}"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    session = Session(port)
    results: list[bool] = []
    try:
        ready, _ = session.wait(lambda: (bool(_status(session)), None), 15)
        if not ready:
            print(json.dumps({"step": "setup", "ok": False, "error": f"chromedriver did not come up on port {port}"}))
            return 1
        session.start(args.chromium if args.chromium and os.path.exists(args.chromium) else None)
        results = run(args, session)
    except (WebDriverError, KeyError, TypeError) as error:
        results.append(False)
        print(json.dumps({"step": "driver", "ok": False, "error": str(error)}), flush=True)
    finally:
        session.quit()
        stop_driver(driver)
    return 0 if results and all(results) else 1


def _status(session: Session) -> bool:
    try:
        value = session.call("GET", "/status", timeout=2)
        return bool(isinstance(value, dict) and value.get("ready"))
    except WebDriverError:
        return False


if __name__ == "__main__":
    sys.exit(main())
