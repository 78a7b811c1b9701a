"use strict";
(() => {
  const DASH = "\u2014";
  const $ = (id) => document.getElementById(id);
  let token = null; // held only here: never stored, never put in a URL
  let connected = false;

  // Builds an element; text and attribute values always go in as text, never as markup.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = String(value);
      else node.setAttribute(key, String(value));
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function fmtTime(value) {
    if (!value) return DASH;
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) return String(value);
    return date.toISOString().slice(0, 19).replace("T", " ") + "Z";
  }

  function fmtDuration(seconds) {
    if (typeof seconds !== "number" || !Number.isFinite(seconds)) return DASH;
    const s = Math.abs(Math.round(seconds));
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    const text = d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m`;
    return seconds < 0 ? `-${text}` : text;
  }

  const shortHash = (hex) => (typeof hex === "string" ? hex.slice(0, 16) : DASH);
  const list = (value) => (Array.isArray(value) ? value : []);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  class ApiError extends Error {
    constructor(status, code, detail) {
      super(detail);
      this.status = status;
      this.code = code;
      this.detail = detail;
    }
  }

  async function api(method, path, body) {
    const headers = { "Authorization": `Bearer ${token}`, "Accept": "application/json" };
    const init = { method, headers, cache: "no-store", credentials: "omit", redirect: "error" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/cbor";
      init.body = body;
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      throw new ApiError(0, "NETWORK", `the request did not complete (${err.message})`);
    }
    const text = await response.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (_) { json = null; }
    if (!response.ok) {
      const p = json && typeof json === "object" ? json : {};
      if (response.status === 401) {
        throw new ApiError(401, String(p.code || "UNAUTHORIZED"),
          "the admin token was rejected (401)" + (p.detail ? `: ${p.detail}` : ""));
      }
      const code = p.code || p.title || `HTTP_${response.status}`;
      const detail = p.detail || p.title || text.slice(0, 300) || response.statusText || "request failed";
      throw new ApiError(response.status, String(code), String(detail));
    }
    if (json === null || typeof json !== "object") {
      throw new ApiError(response.status, "BAD_RESPONSE", `${path} did not answer with JSON`);
    }
    return json;
  }

  function showError(err) {
    const box = $("error");
    box.replaceChildren();
    if (!err) { box.hidden = true; return; }
    const head = `${err.status ? err.status + " " : ""}${err.code || "ERROR"}`;
    box.append(el("strong", { text: head }), " ", el("span", { text: err.detail || err.message || String(err) }));
    box.hidden = false;
  }

  function setStatus(text, state) {
    $("status").textContent = text;
    $("status").setAttribute("data-state", state);
  }

  function updateEnabled() {
    for (const id of ["refresh", "reload", "vical-dry-run", "vical-import"]) $(id).disabled = !connected;
  }

  // Runs one operator action: buttons off while it runs, errors to #error, a 401 drops the connection.
  async function run(action) {
    const buttons = Array.from(document.querySelectorAll("button"));
    buttons.forEach((b) => { b.disabled = true; });
    showError(null);
    try {
      await action();
    } catch (err) {
      showError(err);
      if (err.status === 401) {
        connected = false;
        token = null;
        setStatus("token rejected: enter the admin token again", "rejected");
      } else if (!connected) {
        setStatus("not loaded: see the error above", "failed");
      }
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
      updateEnabled();
    }
  }

  function renderAnchors(iaca) {
    const anchors = list(iaca.anchors);
    $("anchor-count").textContent = String(anchors.length);
    $("trust-version").textContent = iaca.version ?? DASH;
    const expired = anchors.filter((a) => a.status === "expired").length;
    const expiring = anchors.filter((a) => a.status === "expiring").length;
    $("anchor-summary").textContent = `${expired} expired, ${expiring} expiring`;
    const groups = new Map();
    for (const a of anchors) {
      const source = a.source || "unknown";
      if (!groups.has(source)) groups.set(source, []);
      groups.get(source).push(a);
    }
    const names = [...groups.keys()].sort((x, y) => (x === "manual" ? -1 : y === "manual" ? 1 : x.localeCompare(y)));
    const host = $("anchors");
    host.replaceChildren();
    if (names.length === 0) host.append(el("p", { class: "empty", text: "No trust anchors are loaded." }));
    const headings = ["Subject", "Country", "DocTypes", "Issuing authority / state", "Not after", "Days left", "SHA-256"];
    for (const name of names) {
      const rows = groups.get(name).slice().sort((x, y) => (x.daysToExpiry ?? 0) - (y.daysToExpiry ?? 0));
      const tbody = el("tbody");
      for (const a of rows) {
        const docTypes = Array.isArray(a.docTypes) ? (a.docTypes.length ? a.docTypes.join(", ") : "none") : "any";
        const authority = [a.issuingAuthority, a.stateOrProvince].filter(Boolean).join(" / ") || DASH;
        const days = typeof a.daysToExpiry === "number" ? String(Math.floor(a.daysToExpiry)) : DASH;
        const title = [`SHA-256 ${a.sha256}`, a.file ? `file ${a.file}` : null,
          a.vicalIssueID != null ? `VICAL issue ${a.vicalIssueID}` : null, `not before ${fmtTime(a.notBefore)}`];
        tbody.append(el("tr", {
          class: ["anchor", a.status === "expired" || a.status === "expiring" ? a.status : ""].join(" ").trim(),
          "data-sha256": a.sha256, title: title.filter(Boolean).join("\n"),
        },
        el("td", { class: "subject", text: a.subject || DASH }),
        el("td", { text: a.country || a.issuingCountry || DASH }),
        el("td", { text: docTypes }),
        el("td", { text: authority }),
        el("td", { class: "time", text: fmtTime(a.notAfter) }),
        el("td", { class: "num", text: days }),
        el("td", { class: "mono", text: shortHash(a.sha256) })));
      }
      host.append(el("section", { class: "source-group", "data-source": name },
        el("h3", { text: `${name} \u00b7 ${plural(rows.length, "anchor")}` }),
        el("table", {}, el("thead", {}, el("tr", {}, ...headings.map((h) => el("th", { text: h })))), tbody)));
    }
  }

  // A list in force's next update with the margin to it, and a source's last scheduled refresh (VICALs and LoTEs).
  function nextUpdateCell(f, margin) {
    const late = typeof margin === "number" && margin < 0;
    let next = f && f.nextUpdate ? fmtTime(f.nextUpdate) : DASH;
    if (typeof margin === "number") next += late ? ` (overdue ${fmtDuration(-margin)})` : ` (in ${fmtDuration(margin)})`;
    return { late, text: next };
  }

  function refreshCell(r) {
    return { bad: r && /fail|error|invalid|reject|refus|rollback|stale/i.test(String(r.outcome)),
             text: r ? `${r.outcome} at ${fmtTime(r.at)}${r.detail ? ": " + r.detail : ""}` : "never" };
  }

  function renderSources(data) {
    const sources = list(data.sources);
    const tbody = $("vical-sources").tBodies[0];
    const names = $("vical-source-names");
    tbody.replaceChildren();
    names.replaceChildren();
    if (sources.length === 0) tbody.append(el("tr", {}, el("td", { colspan: 9, class: "empty", text: "No VICAL sources." })));
    for (const s of sources) {
      names.append(el("option", { value: s.name }));
      const f = s.inForce;
      const config = s.configured
        ? [s.url || "upload only", typeof s.refreshHours === "number" ? `every ${s.refreshHours} h` : null].filter(Boolean).join(" \u00b7 ")
        : "not configured";
      const { late, text: next } = nextUpdateCell(f, s.nextUpdateMarginSeconds);
      const { bad, text: refresh } = refreshCell(s.lastRefresh);
      tbody.append(el("tr", { "data-source": s.name, class: late ? "overdue" : null },
        el("td", { text: s.name }),
        el("td", { class: "config", text: config, title: s.signerAnchor ? `signer anchor: ${s.signerAnchor}` : null }),
        el("td", { class: "num", text: f && f.issueID != null ? f.issueID : DASH }),
        el("td", { text: f ? f.provider || DASH : "none in force" }),
        el("td", { class: "time", text: f ? fmtTime(f.date) : DASH }),
        el("td", { class: "num", text: f ? f.anchorCount ?? DASH : DASH }),
        el("td", { text: fmtDuration(s.ageSeconds) }),
        el("td", { class: late ? "time negative" : "time", text: next }),
        el("td", { class: bad ? "bad" : null, text: refresh })));
    }
  }

  function renderChanges(data) {
    const changes = list(data.changes).slice(0, 25);
    const ol = $("changes");
    ol.replaceChildren();
    if (changes.length === 0) ol.append(el("li", { class: "empty", text: "No trust changes recorded." }));
    for (const c of changes) {
      ol.append(el("li", { class: "change" },
        el("span", { class: "time", text: fmtTime(c.at) }),
        el("span", { class: "actor", text: c.actor || DASH }),
        el("span", { class: "action", text: c.action || DASH }),
        el("span", { class: "mono", text: c.requestId ? `request ${c.requestId}` : "no request ID" }),
        el("span", { class: "muted", text: `version ${c.version ?? DASH} \u00b7 ${plural(c.anchorCount ?? 0, "anchor")}` })));
    }
  }

  function renderLists(data) {
    const sources = list(data.sources);
    const tbody = $("lote-sources").tBodies[0];
    tbody.replaceChildren();
    if (sources.length === 0) tbody.append(el("tr", {}, el("td", { colspan: 8, class: "empty", text: "No list sources." })));
    for (const s of sources) {
      const f = s.inForce;
      const scope = [s.kind, ...list(s.docTypes), ...list(s.vcts)].join(" \u00b7 ");
      const { late, text: next } = nextUpdateCell(f, s.nextUpdateMarginSeconds);
      const { bad, text: refresh } = refreshCell(s.lastRefresh);
      tbody.append(el("tr", { "data-source": s.name, class: late ? "overdue" : null },
        el("td", { text: s.name }),
        el("td", { class: "config", text: scope, title: s.url || null }),
        el("td", { class: "num", text: f && f.issueID != null ? f.issueID : DASH }),
        el("td", { text: f ? f.provider || DASH : "none in force" }),
        el("td", { class: "time", text: f ? fmtTime(f.date) : DASH }),
        el("td", { class: "num", text: f ? f.anchorCount ?? DASH : DASH }),
        el("td", { class: late ? "time negative" : "time", text: next }),
        el("td", { class: bad ? "bad" : null, text: refresh })));
    }
  }

  function renderCRLs(data) {
    const crls = list(data.crls);
    const tbody = $("crl-cache").tBodies[0];
    tbody.replaceChildren();
    if (crls.length === 0) tbody.append(el("tr", {}, el("td", { colspan: 6, class: "empty", text: "No CRL kept." })));
    for (const c of crls) {
      tbody.append(el("tr", {},
        el("td", { class: "mono", text: c.url }),
        el("td", { text: c.issuer || DASH }),
        el("td", { class: "time", text: fmtTime(c.thisUpdate) }),
        el("td", { class: "time", text: c.nextUpdate ? fmtTime(c.nextUpdate) : DASH }),
        el("td", { class: "num", text: c.revokedEntries ?? DASH }),
        el("td", { class: "time", text: fmtTime(c.fetchedAt) })));
    }
  }

  async function refreshAll() {
    const [iaca, vicals, changes, lotes, crls] = await Promise.all([
      api("GET", "/v1/admin/iaca"), api("GET", "/v1/admin/vicals"), api("GET", "/v1/admin/trust/changes"),
      api("GET", "/v1/admin/lotes"), api("GET", "/v1/admin/crl-cache")]);
    renderAnchors(iaca);
    renderSources(vicals);
    renderChanges(changes);
    renderLists(lotes);
    renderCRLs(crls);
    connected = true;
    setStatus(`connected \u00b7 trust version ${iaca.version ?? DASH} \u00b7 refreshed ${fmtTime(new Date().toISOString())}`, "connected");
  }

  function renderVicalResult(r) {
    const added = list(r.added), removed = list(r.removed), unchanged = list(r.unchanged), skipped = list(r.skipped);
    const anchorList = (title, items, open) => {
      const ul = el("ul");
      for (const a of items) ul.append(el("li", {}, el("span", { class: "mono", text: shortHash(a.sha256) }), " ", a.subject || DASH));
      return el("details", { open: open ? "" : null }, el("summary", { text: `${title} (${items.length})` }), ul);
    };
    const skippedList = el("ul");
    for (const s of skipped) skippedList.append(el("li", { text: `entry ${s.index ?? "?"}: ${s.reason || DASH}` }));
    const head = r.dryRun ? `Dry run for ${r.source ?? DASH}: nothing was changed.` : `Imported into ${r.source ?? DASH}: trust version ${r.version ?? DASH}.`;
    const meta = `issue ${r.issueID ?? DASH} \u00b7 provider ${r.provider || DASH} \u00b7 dated ${fmtTime(r.date)} \u00b7 next update ${fmtTime(r.nextUpdate)}`;
    const box = $("vical-result");
    box.replaceChildren(el("p", { class: "result-head", text: head }),
      el("p", { class: "counts", text: `${added.length} added, ${removed.length} removed, ${unchanged.length} unchanged, ${skipped.length} skipped` }),
      el("p", { class: "muted", text: meta }));
    if (added.length) box.append(anchorList("Added", added, true));
    if (removed.length) box.append(anchorList("Removed", removed, true));
    if (unchanged.length) box.append(anchorList("Unchanged", unchanged, false));
    if (skipped.length) box.append(el("details", { open: "" }, el("summary", { text: `Skipped (${skipped.length})` }), skippedList));
  }

  async function submitVical(dryRun) {
    const source = $("vical-source").value.trim();
    const file = $("vical-file").files[0];
    const at = $("vical-at").value.trim();
    if (!source || !file) {
      showError({ code: "INPUT", detail: source ? "choose a VICAL file first" : "enter the VICAL source name first" });
      return;
    }
    const params = new URLSearchParams();
    if (dryRun) params.set("dryRun", "true");
    if (at) params.set("at", at);
    const query = params.toString();
    const path = `/v1/admin/vicals/${encodeURIComponent(source)}${query ? "?" + query : ""}`;
    const box = $("vical-result");
    await run(async () => {
      box.replaceChildren(el("p", { class: "muted", text: dryRun ? "Checking\u2026" : "Importing\u2026" }));
      try {
        renderVicalResult(await api("POST", path, await file.arrayBuffer()));
      } catch (err) {
        box.replaceChildren(el("p", { class: "bad", text: "Nothing was changed: the request failed (see the error above)." }));
        throw err;
      }
      if (!dryRun) await refreshAll();
    });
  }

  function connect() {
    const input = $("token");
    const value = input.value.trim();
    input.value = "";
    if (!value) {
      showError({ code: "NO_TOKEN", detail: "paste the admin token first" });
      return;
    }
    token = value;
    connected = false;
    setStatus("connecting\u2026", "busy");
    run(refreshAll);
  }

  function init() {
    $("connect").addEventListener("click", connect);
    $("token").addEventListener("keydown", (e) => { if (e.key === "Enter") connect(); });
    $("refresh").addEventListener("click", () => run(refreshAll));
    $("reload").addEventListener("click", () => run(async () => {
      await api("POST", "/v1/admin/iaca/reload");
      await refreshAll();
    }));
    $("vical-dry-run").addEventListener("click", () => submitVical(true));
    $("vical-import").addEventListener("click", () => submitVical(false));
    setStatus("not connected: paste the admin token and press Connect", "idle");
    updateEnabled();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();