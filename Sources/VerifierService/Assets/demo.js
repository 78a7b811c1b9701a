"use strict";
// The demo page: one button, three steps, exactly the integration guide's browser side (docs/api/presentations.md).
// The page's backend (here verifierd's /demo routes) makes one request for every protocol (POST /demo/requests), the
// browser and whichever wallet answers it (navigator.credentials.get, with verifierd's "digital" object unchanged),
// the backend verifies the DigitalCredential as received (POST /demo/verify).
(() => {
  const $ = (id) => document.getElementById(id);
  const button = $("request");
  const status = $("status");

  function say(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }

  // Builds an element; text always goes in as text, never as markup.
  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  // The Digital Credentials API: navigator.credentials.get with a "digital" member (Chrome 141+, Safari 26).
  // Browsers offer it only in secure contexts (https, or http://localhost).
  function hasDigitalCredentials() {
    return window.isSecureContext && typeof window.DigitalCredential === "function"
      && !!navigator.credentials && typeof navigator.credentials.get === "function";
  }

  async function post(path, body) {
    const answer = await fetch(path, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
    });
    let json = {};
    try { json = await answer.json(); } catch (_) { /* not JSON: reported by status below */ }
    return {status: answer.status, json};
  }

  // A problem answer (application/problem+json) as one line.
  function problem(what, reply) {
    const code = reply.json.code || `HTTP ${reply.status}`;
    return new Error(`${what}: ${code}${reply.json.detail ? ` (${reply.json.detail})` : ""}`);
  }

  // Claim values: text as is; bytes (base64) and objects shortened so the table stays readable.
  function show(value) {
    if (typeof value === "string") return value.length > 80 ? `${value.slice(0, 77)}\u2026` : value;
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}\u2026` : text;
  }

  function showReport(reply) {
    const report = reply.json;
    const section = $("result");
    const documents = $("documents");
    documents.replaceChildren();
    section.hidden = false;
    section.className = report.verified ? "verified" : "not-verified";
    $("result-title").textContent = report.verified ? "Verified" : "Not verified";
    $("result-detail").textContent = report.verified ? "" : `${report.code || `HTTP ${reply.status}`}: ${report.message || report.detail || ""}`;
    for (const doc of report.documents || []) {
      documents.append(el("h3", `${doc.docType}${doc.issuer && doc.issuer.country ? ` \u00b7 ${doc.issuer.country}` : ""}`));
      if (doc.claims) {
        const table = el("table");
        for (const [nameSpace, elements] of Object.entries(doc.claims)) {
          for (const [name, value] of Object.entries(elements)) {
            const row = el("tr");
            const label = el("th", name);
            label.title = nameSpace;
            row.append(label, el("td", show(value)));
            table.append(row);
          }
        }
        documents.append(table);
      }
      const failed = (doc.checks || []).filter((check) => check.outcome === "failed");
      if (failed.length) {
        const list = el("ul", undefined, "checks");
        for (const check of failed) {
          list.append(el("li", `${check.id}: ${check.code || "failed"}${check.detail ? ` \u2014 ${check.detail}` : ""}`));
        }
        documents.append(list);
      }
      for (const [nameSpace, names] of Object.entries(doc.notReturned || {})) {
        documents.append(el("p", `Not returned (${nameSpace}): ${names.join(", ")}`));
      }
    }
    say(report.verified ? "verified" : "failed", report.verified ? "The wallet's answer verified." : "The wallet's answer did not verify.");
  }

  async function run() {
    button.disabled = true;
    $("result").hidden = true;
    try {
      say("requesting", "Asking verifierd for a request\u2026");
      const made = await post("/demo/requests", {});
      if (made.status !== 201) throw problem("verifierd refused the request", made);
      say("waiting", "Waiting for your wallet: follow the browser's prompt.");
      let credential;
      try {
        credential = await navigator.credentials.get({mediation: "required", digital: made.json.digital});
      } catch (error) {
        // NotAllowedError: declined, dismissed or not allowed here; AbortError: cancelled.
        say("cancelled", `No credential was shared (${error.name}: ${error.message})`);
        return;
      }
      if (!credential || typeof credential.protocol !== "string" || !credential.data) {
        throw new Error("the browser returned no credential");
      }
      say("verifying", `Verifying the answer (${credential.protocol})\u2026`);
      const verified = await post("/demo/verify", {
        sessionId: made.json.sessionId, credential: {protocol: credential.protocol, data: credential.data},
      });
      if (verified.status !== 200 && verified.status !== 422) throw problem("verifierd could not verify", verified);
      showReport(verified);
    } catch (error) {
      say("failed", error.message || String(error));
    } finally {
      button.disabled = false;
    }
  }

  if (!hasDigitalCredentials()) {
    button.disabled = true;
    say("unsupported", window.isSecureContext
      ? "This browser has no Digital Credentials API: open the page in Chrome 141 or later, or Safari 26 or later."
      : "The Digital Credentials API needs a secure context: open this page over https or at http://localhost.");
    return;
  }
  button.addEventListener("click", run);
  say("ready", "Ready.");
})();
