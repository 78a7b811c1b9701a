"""SD-JWT VC presentations whose issuer key comes from JWT VC Issuer Metadata. EVERYTHING WRITTEN HERE IS TEST-ONLY.

Writes TestVectors/sdjwt-metadata/ (deleted and rewritten; nothing else is touched, TestVectors/sdjwt/ included),
deterministically, reusing sd_jwt_vc.py's builders (keys from public seed labels, RFC 6979 ECDSA for certificates and
JWTs, salts and decoys from labels, compact JSON):

  served/     the exact bytes a loopback server in the Swift tests answers, per path (manifest `served`): issuer
              metadata documents, a JWK Set behind a `jwks_uri`, Token Status List JWTs
  cases/      one compact SD-JWT+KB presentation per case, exact bytes, no trailing newline
  pki/        issuer-ca (the trust anchor), issuer (an x5c leaf that must NOT be used for a listed metadata issuer),
              status-signer; pki/keys/metadata-k1.pem, metadata-k2.pem (the metadata keys, PKCS#8)
  manifest.json, README.md

Rules (SD-JWT VC draft -19 numbering: §2.5 key discovery, §3 HTTP retrieval, §4 JWT VC Issuer Metadata, §7.1 SSRF,
§7.3 the attacker must not choose the mechanism, §7.7 issuer authorization; Token Status List -20 §8.3, §11.3):
the metadata of `iss` lives at `<scheme>://<authority>/.well-known/jwt-vc-issuer<path of iss, trailing / dropped>`;
`issuer` must equal `iss` exactly; exactly one of `jwks` and `jwks_uri`; no private key members; the key is the one
whose `kid` equals the header's `kid` (without `kid` only when the set holds exactly one key). Only issuers the
operator listed use metadata, and a listed issuer uses it only (its x5c is ignored); an unlisted issuer without x5c is
refused (never a fallback). A metadata issuer's status list must be signed by one of its metadata keys (chosen by the
list header's `kid`); an x5c chain to an anchor is not that issuer.

Before writing, the script re-judges every case with a small metadata resolver written here (`MetadataMiniVerifier`,
on top of sd_jwt_vc.MiniVerifier for disclosures, key binding and the status bits) and aborts unless verdict, check,
code, claims and disclosed paths equal the manifest; every verified case is also processed by the PyPI `sd-jwt`
reference implementation (fed metadata-k1's public key) and must give the same claims.

Usage (from the repository root):  python3 TestVectors/generator/jwt_vc_issuer_metadata.py
"""

from __future__ import annotations

import json
import shutil
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sd_jwt_vc as base  # noqa: E402  (main-guarded: importing it writes nothing)
from sd_jwt_vc import (  # noqa: E402
    AUDIENCE, CLOCK_SKEW, KB_WINDOW, LIST_EXP, LIST_IAT, LIST_TTL, NONCE, NOW, VCT, VERIFICATION_TIME, Case,
    Refused, b64std, b64u, build_case, build_pki, cjson, der, derive_key, es_sign, es_verify, jwk, pack,
    pypi_claims, strict_json, write_bytes,
)
from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402

HERE = Path(__file__).resolve().parent
TV = HERE.parent
OUT = TV / "sdjwt-metadata"
GENERATOR = "TestVectors/generator/jwt_vc_issuer_metadata.py"

BASE = "http://127.0.0.1:18614"
assert BASE == base.BASE_URI  # the same loopback server as TestVectors/sdjwt/lists
WELL_KNOWN = "/.well-known/jwt-vc-issuer"
OTHER_VCT = "urn:example:other:1"
JWKS_PATH = "/issuers/by-uri/jwks.json"

METADATA_KEYS = {"k1": derive_key("sdjwt/metadata-k1"), "k2": derive_key("sdjwt/metadata-k2")}
PRIVATE_JWK_MEMBERS = ("d", "p", "q", "dp", "dq", "qi", "oth", "k")  # RFC 7518 §6.2.2, §6.3.2, §6.4

ISSUERS = ["pid", "by-uri", "mismatch", "both", "private-key", "dup", "absent", "unlisted", "other-vct"]
# The operator's list: iss name -> vct scope (None: any vct). `unlisted` is deliberately missing.
LISTED: dict[str, list[str] | None] = {
    "pid": [VCT], "by-uri": None, "mismatch": None, "both": None, "private-key": None, "dup": None, "absent": None,
    "other-vct": [OTHER_VCT],
}


def iss_of(name: str) -> str:
    return f"{BASE}/issuers/{name}"


def well_known_path(iss: str) -> str:
    """The path part of the metadata URL of an http(s) `iss` on BASE (used to lay out the served files)."""
    assert iss.startswith(BASE + "/")
    return WELL_KNOWN + iss[len(BASE):].rstrip("/")


def list_uri(name: str) -> str:
    return f"{BASE}/md-lists/{name}"


def metadata_jwk(kid: str, private: bool = False) -> dict:
    key = METADATA_KEYS[kid]
    out = jwk(key.public_key())
    if private:
        out["d"] = b64u(key.private_numbers().private_value.to_bytes(32, "big"))
    out.update(kid=kid, use="sig", alg="ES256")
    return out


# ------------------------------------------------------------------------------------------------------------
# What the loopback server answers
# ------------------------------------------------------------------------------------------------------------

META_CT, LIST_CT = "application/json", "application/statuslist+jwt"


def build_served(pki) -> dict[str, dict]:
    """path -> {file, contentType, bytes, description}; a path not in here is answered with 404."""
    k1, k2 = metadata_jwk("k1"), metadata_jwk("k2")
    docs: dict[str, tuple[str, bytes]] = {}

    def doc(name: str, description: str, obj: dict) -> None:
        docs[name] = (description, cjson(obj).encode("utf-8"))

    doc("pid", "jwks with k1 and k2", {"issuer": iss_of("pid"), "jwks": {"keys": [k1, k2]}})
    doc("by-uri", f"jwks_uri {BASE}{JWKS_PATH}", {"issuer": iss_of("by-uri"), "jwks_uri": BASE + JWKS_PATH})
    doc("mismatch", "issuer names /issuers/pid, not this iss", {"issuer": iss_of("pid"), "jwks": {"keys": [k1]}})
    doc("both", "jwks and jwks_uri together",
        {"issuer": iss_of("both"), "jwks": {"keys": [k1]}, "jwks_uri": BASE + JWKS_PATH})
    doc("private-key", "k1 with its private member d",
        {"issuer": iss_of("private-key"), "jwks": {"keys": [metadata_jwk("k1", private=True)]}})
    # The member `issuer` twice, same value both times: only the bytes can say it (a lenient parser keeps one).
    text = cjson({"issuer": iss_of("dup"), "jwks": {"keys": [k1]}})
    first = cjson({"issuer": iss_of("dup")})[1:-1] + ","
    assert text.startswith("{" + first)
    docs["dup"] = ("the member issuer twice (same value)", ("{" + first + text[1:]).encode("utf-8"))
    # absent: nothing served.
    doc("unlisted", "valid (k1); the issuer is not in the operator's list", {"issuer": iss_of("unlisted"),
                                                                             "jwks": {"keys": [k1]}})
    doc("other-vct", f"valid (k1); listed for {OTHER_VCT} only", {"issuer": iss_of("other-vct"),
                                                                   "jwks": {"keys": [k1]}})

    served: dict[str, dict] = {}
    for name in ISSUERS:
        if name in docs:
            description, data = docs[name]
            served[well_known_path(iss_of(name))] = {"file": f"served/metadata/{name}.json", "contentType": META_CT,
                                                     "bytes": data,
                                                     "description": f"metadata of /issuers/{name}: {description}"}
    served[JWKS_PATH] = {"file": "served/jwks/by-uri.json", "contentType": META_CT,
                         "bytes": cjson({"keys": [k1]}).encode("utf-8"),
                         "description": "the JWK Set behind by-uri's jwks_uri (k1)"}
    for name, entry in build_lists(pki).items():
        served[f"/md-lists/{name}"] = {"file": f"served/md-lists/{name}.jwt", "contentType": LIST_CT,
                                       "bytes": entry["token"].encode("ascii"), "description": entry["description"]}
    return served


def build_lists(pki) -> dict[str, dict]:
    """Token Status List JWTs, the payload shape of sd_jwt_vc.build_lists."""
    signer_cert, signer_key = pki["status-signer"]
    k2_header = {"alg": "ES256", "typ": "statuslist+jwt", "kid": "k2"}
    specs = {
        # name: (description, header, signing key, statuses); bits 1, 16 entries
        "valid": ("bits 1; every entry INVALID except index 3 (VALID); kid k2, signed with metadata-k2, no x5c",
                  k2_header, METADATA_KEYS["k2"], {i: 1 for i in range(16) if i != 3}),
        "revoked": ("bits 1; index 5 INVALID, the rest VALID; kid k2, signed with metadata-k2, no x5c",
                    k2_header, METADATA_KEYS["k2"], {5: 1}),
        "x5c-signed": ("bits 1; every entry VALID; x5c [status-signer] (chains to issuer-ca), no kid: not signed by "
                       "a key of the credential issuer's metadata",
                       {"alg": "ES256", "typ": "statuslist+jwt", "x5c": [b64std(der(signer_cert))]}, signer_key, {}),
    }
    lists = {}
    for name, (description, header, key, statuses) in specs.items():
        payload = {"sub": list_uri(name), "iat": LIST_IAT, "exp": LIST_EXP, "ttl": LIST_TTL,
                   "status_list": {"bits": 1, "lst": b64u(zlib.compress(pack(statuses, 1, 16), 9))}}
        lists[name] = {"description": description, "token": base.jws(header, payload, key)}
    return lists


# ------------------------------------------------------------------------------------------------------------
# Cases
# ------------------------------------------------------------------------------------------------------------

def md_case(name: str, description: str, issuer: str, check: str | None = None, code: str | None = None, *,
            kid: str | None = "k1", key: str | None = "k1", status: tuple[str, int] | None = None,
            keep_x5c: bool = False) -> tuple[Case, str]:
    """Header {"alg","typ","kid"} (no x5c unless keep_x5c), payload iss = the issuer's; signed with metadata `key`
    (None: with the x5c issuer leaf, build_case's default signer)."""
    def header_fn(h: dict) -> None:
        x5c = h.pop("x5c")
        if kid is not None:
            h["kid"] = kid
        if keep_x5c:
            h["x5c"] = x5c

    case = Case(name, description, check, code,
                status={"status_list": {"idx": status[1], "uri": list_uri(status[0])}} if status else None,
                header_fn=header_fn, payload_fn=lambda p, _d: p.update(iss=iss_of(issuer)),
                sig_fn=(lambda i, _p: es_sign(METADATA_KEYS[key], i)) if key else None)
    return case, issuer


SIG, CHAIN, STATUS = "sdjwt.issuerSignature", "sdjwt.issuerCertificateChain", "sdjwt.status"
INVALID = "SDJWT_ISSUER_METADATA_INVALID"


def cases() -> list[tuple[Case, str]]:
    return [
        md_case("md-valid", "Issuer /issuers/pid (jwks with k1 and k2), header kid k1, signed with metadata-k1.",
                "pid"),
        md_case("md-valid-jwks-uri", "Issuer /issuers/by-uri: the metadata names a jwks_uri whose set holds k1; kid "
                "k1, signed with metadata-k1.", "by-uri"),
        md_case("md-status-valid", "As md-valid, with status idx 3 in /md-lists/valid (VALID); the list header has "
                "kid k2 and is signed with metadata-k2, a key of pid's metadata.", "pid", status=("valid", 3)),
        md_case("md-status-revoked", "As md-valid, with status idx 5 in /md-lists/revoked (INVALID; kid k2, signed "
                "with metadata-k2).", "pid", STATUS, "STATUS_REVOKED", status=("revoked", 5)),
        md_case("md-status-x5c-signer", "As md-valid, with status idx 0 in /md-lists/x5c-signed: VALID there, but "
                "that list is keyed by x5c (status-signer under the trust anchor), not by a key of pid's metadata, "
                "so it was not signed by the credential's issuer.", "pid", STATUS, "STATUS_UNKNOWN",
                status=("x5c-signed", 0)),
        md_case("md-kid-unknown", "Header kid k9: pid's metadata has no such key (signed with metadata-k1).", "pid",
                SIG, "SDJWT_ISSUER_KEY_NOT_FOUND", kid="k9"),
        md_case("md-kid-missing", "No kid in the header (signed with metadata-k1); pid publishes two keys, so none "
                "can be chosen.", "pid", SIG, "SDJWT_ISSUER_KEY_NOT_FOUND", kid=None),
        md_case("md-wrong-key", "Header kid k1, signed with metadata-k2.", "pid", SIG, "ISSUER_SIGNATURE_INVALID",
                key="k2"),
        md_case("md-issuer-mismatch", "Issuer /issuers/mismatch: its metadata says issuer /issuers/pid.",
                "mismatch", SIG, INVALID),
        md_case("md-jwks-and-uri", "Issuer /issuers/both: its metadata has jwks and jwks_uri (exactly one allowed).",
                "both", SIG, INVALID),
        md_case("md-private-key-in-jwks", "Issuer /issuers/private-key: its jwks key carries the private member d.",
                "private-key", SIG, INVALID),
        md_case("md-duplicate-member", "Issuer /issuers/dup: its metadata JSON has the member issuer twice (same "
                "value); duplicate member names are refused.", "dup", SIG, INVALID),
        md_case("md-unavailable", "Issuer /issuers/absent: listed, but its metadata URL answers 404.", "absent", SIG,
                "SDJWT_ISSUER_METADATA_UNAVAILABLE"),
        md_case("md-not-listed", "Issuer /issuers/unlisted serves valid metadata (k1) but the operator did not list "
                "it, and the header has no x5c: metadata is never a fallback.", "unlisted", SIG, "SDJWT_X5C_MISSING"),
        md_case("md-vct-out-of-scope", f"Issuer /issuers/other-vct: valid metadata (k1), signature good, but the "
                f"operator listed it for vct {OTHER_VCT} only and the credential's vct is {VCT}.", "other-vct", CHAIN,
                "ISSUER_NOT_AUTHORIZED_FOR_VCT"),
        md_case("md-x5c-not-used", "Issuer /issuers/pid, header kid k1 plus x5c [issuer] (a chain to the trust "
                "anchor), signed with the x5c leaf's key: pid is listed for metadata, so its key comes from metadata "
                "only, and metadata-k1 does not verify the signature.", "pid", SIG, "ISSUER_SIGNATURE_INVALID",
                key=None, keep_x5c=True),
    ]


# ------------------------------------------------------------------------------------------------------------
# Independent resolver (shares nothing with the builder above beyond the base MiniVerifier)
# ------------------------------------------------------------------------------------------------------------

def metadata_url(iss: str) -> str | None:
    """<scheme>://<authority>/.well-known/jwt-vc-issuer<path>, the path's trailing / dropped (SD-JWT VC §4)."""
    for scheme in ("https://", "http://"):  # http only because the tests serve from loopback
        if iss.startswith(scheme):
            break
    else:
        return None
    if "?" in iss or "#" in iss:
        return None
    rest = iss[len(scheme):]
    authority, slash, path = rest.partition("/")
    if not authority or "@" in authority:
        return None
    path = (slash + path).removesuffix("/")
    return f"{scheme}{authority}{WELL_KNOWN}{path}"


class MetadataMiniVerifier(base.MiniVerifier):
    """sd_jwt_vc.MiniVerifier with the operator's metadata list: a listed iss takes its keys from JWT VC Issuer
    Metadata only (x5c ignored); anything else goes the x5c way. `served`: absolute URL -> bytes (missing = 404)."""

    def __init__(self, anchors, served: dict[str, bytes], listed: dict[str, list[str] | None]):
        super().__init__(anchors, {url: data.decode("utf-8", "replace") for url, data in served.items()})
        self.served = served
        self.listed = listed
        self.issuer_keys: list | None = None  # the metadata keys of the credential being checked

    def resolve(self, iss: str) -> list[tuple[str | None, ec.EllipticCurvePublicKey]]:
        c = "sdjwt.issuerSignature"
        url = metadata_url(iss)
        if url is None:
            raise Refused(c, INVALID)
        body = self.served.get(url)
        if body is None:
            raise Refused(c, "SDJWT_ISSUER_METADATA_UNAVAILABLE")
        try:
            document = strict_json(body)
        except ValueError:
            raise Refused(c, INVALID)
        if not isinstance(document, dict) or not isinstance(document.get("issuer"), str) or document["issuer"] != iss:
            raise Refused(c, INVALID)
        if ("jwks" in document) == ("jwks_uri" in document):
            raise Refused(c, INVALID)
        if "jwks_uri" in document:
            uri = document["jwks_uri"]
            if not isinstance(uri, str) or metadata_url(uri) is None:
                raise Refused(c, INVALID)
            body = self.served.get(uri)
            if body is None:
                raise Refused(c, "SDJWT_ISSUER_METADATA_UNAVAILABLE")
            try:
                jwks = strict_json(body)
            except ValueError:
                raise Refused(c, INVALID)
        else:
            jwks = document["jwks"]
        keys = jwks.get("keys") if isinstance(jwks, dict) else None
        if not isinstance(keys, list) or not keys or not all(isinstance(k, dict) for k in keys):
            raise Refused(c, INVALID)
        out = []
        for k in keys:
            if any(m in k for m in PRIVATE_JWK_MEMBERS):
                raise Refused(c, INVALID)
            if k.get("kty") != "EC" or k.get("crv") != "P-256" or ("kid" in k and not isinstance(k["kid"], str)):
                raise Refused(c, INVALID)
            try:
                pub = ec.EllipticCurvePublicNumbers(int.from_bytes(base.strict_b64u(k["x"]), "big"),
                                                    int.from_bytes(base.strict_b64u(k["y"]), "big"),
                                                    ec.SECP256R1()).public_key()
            except (KeyError, TypeError, ValueError):
                raise Refused(c, INVALID)
            out.append((k.get("kid"), pub))
        return out

    @staticmethod
    def select(keys, header: dict, check: str):
        if "kid" in header:
            matches = [pub for kid, pub in keys if isinstance(header["kid"], str) and kid == header["kid"]]
        else:
            matches = [pub for _, pub in keys]
        if len(matches) != 1:
            raise Refused(check, "SDJWT_ISSUER_KEY_NOT_FOUND")
        return matches[0]

    def issuer_key(self, header, payload, signature, signing_input, now):
        self.issuer_keys = None
        iss = payload.get("iss")
        if not isinstance(iss, str) or iss not in self.listed:
            return super().issuer_key(header, payload, signature, signing_input, now)  # x5c, and only x5c
        keys = self.resolve(iss)
        if not es_verify(self.select(keys, header, "sdjwt.issuerSignature"), signature, signing_input):
            raise Refused("sdjwt.issuerSignature", "ISSUER_SIGNATURE_INVALID")
        scope = self.listed[iss]
        if scope is not None and payload.get("vct") not in scope:
            raise Refused("sdjwt.issuerCertificateChain", "ISSUER_NOT_AUTHORIZED_FOR_VCT")
        self.issuer_keys = keys
        return []

    def list_key(self, header, now):
        if self.issuer_keys is None:
            return super().list_key(header, now)
        if "x5c" in header:  # a metadata issuer's list is keyed by its metadata, never by a certificate
            raise ValueError("x5c in a metadata issuer's status list")
        return self.select(self.issuer_keys, header, "sdjwt.status")


def check_url_derivation() -> list[str]:
    """SD-JWT VC §4.1's own two examples, a trailing slash and a port."""
    want = {
        "https://example.com": "https://example.com/.well-known/jwt-vc-issuer",
        "https://example.com/tenant/1234": "https://example.com/.well-known/jwt-vc-issuer/tenant/1234",
        "https://example.com/tenant/1234/": "https://example.com/.well-known/jwt-vc-issuer/tenant/1234",
        BASE + "/issuers/pid": BASE + "/.well-known/jwt-vc-issuer/issuers/pid",
        "https://example.com/x?y=1": None,
    }
    return [f"metadata_url({k!r}) = {metadata_url(k)!r}, want {v!r}" for k, v in want.items() if metadata_url(k) != v]


# ------------------------------------------------------------------------------------------------------------

README = f"""# SD-JWT VC presentations keyed by JWT VC Issuer Metadata (TEST-ONLY)

**Every key and certificate here is TEST-ONLY.** Each private key is derived from a public seed string
(`scalar = int(SHA-512("verifierd-testvectors/" + label)) mod (n - 1) + 1`, labels `sdjwt/<name>`, e.g.
`sdjwt/metadata-k1`), so anyone can recompute it. Never configure any of this outside tests.

Regenerate from the repository root (deletes and rewrites only `TestVectors/sdjwt-metadata/`; byte-identical on every
run; `TestVectors/sdjwt/` is read by nothing and written by nothing here):

```sh
pip install -r TestVectors/generator/requirements.txt
python3 TestVectors/generator/jwt_vc_issuer_metadata.py
```

The generator imports `sd_jwt_vc.py` and builds the credentials exactly as `TestVectors/sdjwt/` does (same holder,
PID model, salts, decoys, KB-JWT with the manifest's nonce and audience, RFC 6979 ECDSA); `pki/` holds the same
certificates as `TestVectors/sdjwt/pki/`. Only the issuer key mechanism differs.

## Folders

* `served/`: the exact bytes (no trailing newline) a loopback server answers at `{BASE}` + each manifest `served`
  entry's `path`, with its `contentType`; any other path answers 404. `metadata/<issuer>.json` (at
  `/.well-known/jwt-vc-issuer/issuers/<issuer>`), `jwks/by-uri.json` (at `{JWKS_PATH}`), `md-lists/<name>.jwt`
  (Token Status List JWTs at `/md-lists/<name>`).
* `cases/<name>.txt`: one compact SD-JWT+KB presentation, exact bytes, no trailing newline.
* `pki/`: `issuer-ca.pem` (the trust anchor, manifest `trustAnchors`), `issuer.pem` (an x5c leaf under it, used only
  by `md-x5c-not-used`), `status-signer.pem` (signs `md-lists/x5c-signed`). `pki/keys/metadata-k1.pem`,
  `metadata-k2.pem`: the metadata keys (PKCS#8, P-256).
* `manifest.json`: verification time {VERIFICATION_TIME}, trust anchors, nonce, audience, `kbIatWindowSeconds`,
  `clockSkewSeconds`, `baseURI`, `metadataIssuers` (the operator's list: `iss` and optional `vcts`; no `vcts` = any
  vct), `served` and `cases` (the shape of `TestVectors/sdjwt/manifest.json`'s cases: `name`, `file`, `description`,
  `requireKeyBinding`, `expect` {{`verified`, `code`, `check`, `claims`, `disclosed`}}).

Metadata keys in the documents: `{{"kty":"EC","crv":"P-256","x":..,"y":..,"kid":"k1"|"k2","use":"sig","alg":"ES256"}}`.

## Issuers (`iss` = `{BASE}/issuers/<name>`)

| Issuer | Listed (vcts) | Served at `/.well-known/jwt-vc-issuer/issuers/<name>` |
| --- | --- | --- |
| `pid` | yes (`{VCT}`) | `issuer` = iss, `jwks` [k1, k2] |
| `by-uri` | yes (any) | `issuer` = iss, `jwks_uri` `{BASE}{JWKS_PATH}` (serves [k1]) |
| `mismatch` | yes (any) | `issuer` = `{BASE}/issuers/pid`, `jwks` [k1] |
| `both` | yes (any) | `issuer` = iss, `jwks` [k1] and `jwks_uri` |
| `private-key` | yes (any) | `issuer` = iss, `jwks` [k1 with its private `d`] |
| `dup` | yes (any) | `{{"issuer":iss,"issuer":iss,"jwks":...}}` (member written twice) |
| `absent` | yes (any) | nothing (404) |
| `unlisted` | **no** | valid, `jwks` [k1] |
| `other-vct` | yes (`{OTHER_VCT}`) | valid, `jwks` [k1] |

Status lists (bits 1, 16 entries, `sub` = their URL): `valid` (all INVALID except index 3) and `revoked` (index 5
INVALID) have header kid k2 and are signed with metadata-k2, no x5c; `x5c-signed` (all VALID) carries x5c
[status-signer] and no kid.

## Cases

Every issuer JWT header is `{{"alg":"ES256","typ":"dc+sd-jwt","kid":...}}` without x5c unless stated; full PID model,
every disclosure, KB-JWT, key binding required.

{{cases_table}}

## Rules the vectors encode

Section numbers: SD-JWT VC draft -19 (draft-ietf-oauth-sd-jwt-vc), Token Status List (TSL) draft -20.

* Mechanism by policy, never by the input (SD-JWT VC §2.5, §7.3): an `iss` in the operator's list takes its key
  from its metadata only (an x5c in the header is ignored: `md-x5c-not-used`); any other issuer needs x5c, and
  metadata is never tried as a fallback (`md-not-listed`). Listing is also the SSRF gate (§7.1): only listed
  issuers cause a fetch. The vectors use `http://127.0.0.1`; §3 and §7.1 require https and refuse loopback, so the
  tests must allow that loopback origin explicitly.
* Metadata URL (§4, §4.1): `/.well-known/jwt-vc-issuer` inserted between the authority and the path of `iss`, a
  trailing `/` dropped. A failed retrieval (404 here) is unavailable, never "no key" (§3: an error response is not
  the document).
* Document (§4.2, §4.3): strict JSON (duplicate member names refused, `md-duplicate-member`); `issuer` identical to
  `iss` (`md-issuer-mismatch`); exactly one of `jwks` and `jwks_uri` (`md-jwks-and-uri`); a `jwks_uri` set is
  fetched the same way (`md-valid-jwks-uri`). A key with private members (RFC 7517/7518: `d` …) makes the
  document invalid (`md-private-key-in-jwks`).
* Key choice (§4.2 recommends `kid`): the key whose `kid` equals the header's; no match is "key not found"
  (`md-kid-unknown`); without `kid` only a set of exactly one key qualifies (`md-kid-missing`). The chosen key must
  verify the signature (`md-wrong-key`).
* Issuer authorization per vct (§7.7): a listed issuer scoped to other vcts is refused after its signature checks
  (`md-vct-out-of-scope`, check `sdjwt.issuerCertificateChain`, as for x5c anchors).
* Status (TSL §8.3, §11.3): the list token must be signed by the credential's issuer; for a metadata issuer that is
  a key of its metadata chosen by the list header's `kid` (`md-status-valid`, `md-status-revoked`). A list keyed
  by x5c, even one chaining to a trust anchor, is not that issuer: status unknown (`md-status-x5c-signer`).

Generated by `TestVectors/generator/jwt_vc_issuer_metadata.py`, which re-judges every case with its own small
metadata resolver and checks every verified case's claims against the PyPI `sd-jwt` reference implementation.
"""


def main() -> int:
    pki = build_pki()
    anchor = pki["issuer-ca"][0]
    served = build_served(pki)
    all_cases = cases()
    names = [c.name for c, _ in all_cases]
    assert len(names) == len(set(names)), "duplicate case names"
    assert set(LISTED) | {"unlisted"} == set(ISSUERS)

    built = {}
    for case, issuer in all_cases:
        text, claims, disclosed = build_case(case, pki)
        if claims is not None:
            claims["iss"] = iss_of(issuer)  # build_case's model view uses the base ISS
        built[case.name] = (text, claims, disclosed)

    failures = check_url_derivation()
    served_urls = {BASE + path: entry["bytes"] for path, entry in served.items()}
    listed = {iss_of(n): vcts for n, vcts in LISTED.items()}

    def judge(verifier, text, case):
        return verifier.verify(text, now=NOW, nonce=NONCE, audience=case.audience, require_kb=case.require_kb,
                               query=case.query)

    verifier = MetadataMiniVerifier([anchor], served_urls, listed)
    for case, _issuer in all_cases:
        text, claims, disclosed = built[case.name]
        got = judge(verifier, text, case)
        want_verified = case.code is None
        if (got["verified"], got["check"], got["code"]) != (want_verified, case.check, case.code):
            failures.append(f"{case.name}: expected {(want_verified, case.check, case.code)}, "
                            f"got {(got['verified'], got['check'], got['code'])}")
            continue
        if want_verified:
            if got["claims"] != claims:
                failures.append(f"{case.name}: claims differ\n  model:    {claims}\n  verifier: {got['claims']}")
            if sorted(map(cjson, got["disclosed"])) != sorted(map(cjson, disclosed)):
                failures.append(f"{case.name}: disclosed paths differ: {disclosed} vs {got['disclosed']}")
            if got["warnings"]:
                failures.append(f"{case.name}: unexpected warnings {got['warnings']}")
            try:
                oracle = pypi_claims(text, METADATA_KEYS["k1"].public_key(), case.audience, NONCE)
            except Exception as e:  # noqa: BLE001
                failures.append(f"{case.name}: PyPI sd-jwt refused a verified case: {e!r}")
            else:
                if oracle != claims:
                    failures.append(f"{case.name}: PyPI sd-jwt claims differ\n  model: {claims}\n  sd-jwt: {oracle}")

    # Controls: each refusal below has exactly the one defect its description names.
    by_name = {case.name: case for case, _ in all_cases}
    controls = {
        # the x5c chain really is trusted: an x5c-only verifier accepts the same bytes
        "md-x5c-not-used": base.MiniVerifier([anchor], {}),
        # listing unlisted (any vct) is all it takes
        "md-not-listed": MetadataMiniVerifier([anchor], served_urls, listed | {iss_of("unlisted"): None}),
        # other-vct without a scope verifies
        "md-vct-out-of-scope": MetadataMiniVerifier([anchor], served_urls, listed | {iss_of("other-vct"): None}),
    }
    for name, control in controls.items():
        got = judge(control, built[name][0], by_name[name])
        if not got["verified"]:
            failures.append(f"control {name}: expected verified, got {(got['check'], got['code'])}")
    # The shared certificates equal TestVectors/sdjwt/pki (read only, when present).
    for name in ("issuer-ca", "issuer", "status-signer"):
        other = TV / "sdjwt" / "pki" / f"{name}.pem"
        if other.exists() and other.read_bytes() != pki[name][0].public_bytes(serialization.Encoding.PEM):
            failures.append(f"pki/{name}.pem differs from TestVectors/sdjwt/pki/{name}.pem")
    if failures:
        print("self-check FAILED:\n" + "\n".join(failures), file=sys.stderr)
        return 1

    # Write.
    if OUT.exists():
        shutil.rmtree(OUT)
    for name in ("issuer-ca", "issuer", "status-signer"):
        write_bytes(OUT / "pki" / f"{name}.pem", pki[name][0].public_bytes(serialization.Encoding.PEM))
    for kid, key in METADATA_KEYS.items():
        write_bytes(OUT / "pki" / "keys" / f"metadata-{kid}.pem",
                    key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    for entry in served.values():
        write_bytes(OUT / entry["file"], entry["bytes"])
    manifest_cases, rows = [], []
    for case, issuer in all_cases:
        text, claims, disclosed = built[case.name]
        write_bytes(OUT / "cases" / f"{case.name}.txt", text.encode("ascii"))
        manifest_cases.append({
            "name": case.name, "file": f"cases/{case.name}.txt", "description": case.description,
            "requireKeyBinding": case.require_kb,
            "expect": {"verified": case.code is None, "code": case.code, "check": case.check, "claims": claims,
                       "disclosed": disclosed},
        })
        rows.append(f"| `{case.name}` | `{issuer}` | {'yes' if case.code is None else 'no'} | "
                    + (f"`{case.check}` | `{case.code}`" if case.code else "- | -") + f" | {case.description} |")
    manifest = {
        "generator": GENERATOR,
        "description": "SD-JWT VC (dc+sd-jwt) presentations whose issuer key comes from JWT VC Issuer Metadata "
                       "(served by a loopback server), their status lists and the verdicts a verifier must reach. "
                       "TEST-ONLY.",
        "verificationTime": VERIFICATION_TIME,
        "trustAnchors": ["pki/issuer-ca.pem"],
        "nonce": NONCE,
        "audience": AUDIENCE,
        "kbIatWindowSeconds": KB_WINDOW,
        "clockSkewSeconds": CLOCK_SKEW,
        "baseURI": BASE,
        "metadataIssuers": [{"iss": iss_of(n)} | ({"vcts": v} if v is not None else {}) for n, v in LISTED.items()],
        "served": [{"path": path, "file": e["file"], "contentType": e["contentType"]} for path, e in served.items()],
        "cases": manifest_cases,
    }
    write_bytes(OUT / "manifest.json", (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    table = ("| Case | Issuer | Verified | Check | Code | What |\n| --- | --- | --- | --- | --- | --- |\n"
             + "\n".join(rows))
    write_bytes(OUT / "README.md", README.replace("{cases_table}", table).encode("utf-8"))
    valid = sum(1 for c, _ in all_cases if c.code is None)
    print(f"generated: TestVectors/sdjwt-metadata ({len(all_cases)} cases, {valid} verified and cross-checked with "
          f"PyPI sd-jwt; {len(LISTED)} listed issuers, {len(served)} served files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
