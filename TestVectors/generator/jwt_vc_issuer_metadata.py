"""SD-JWT VC presentations whose issuer key comes from JWT VC Issuer Metadata. EVERYTHING WRITTEN HERE IS TEST-ONLY.

Writes TestVectors/sdjwt-metadata/ (deleted and rewritten; nothing else is touched, TestVectors/sdjwt/ included),
deterministically, reusing sd_jwt_vc.py's builders (keys from public seed labels, RFC 6979 ECDSA for certificates and
JWTs, salts and decoys from labels, compact JSON):

  served/     the exact bytes a loopback server in the Swift tests answers, per path (manifest `served`, with the
              HTTP status when it is not 200): issuer metadata documents, JWK Sets behind `jwks_uri`s, Token Status
              List JWTs
  cases/      one compact SD-JWT+KB presentation per case, exact bytes, no trailing newline
  pki/        issuer-ca (the trust anchor), issuer (an x5c leaf that must NOT be used for a listed metadata issuer),
              status-signer; pki/keys/metadata-k1.pem, metadata-k2.pem (pid's keys) and metadata-<issuer>-k1.pem
              (every other issuer's own key), PKCS#8
  manifest.json, README.md

Rules (SD-JWT VC draft -19 numbering: §2.5 key discovery, §3 HTTP retrieval, §4 JWT VC Issuer Metadata, §7.1 SSRF,
§7.3 the attacker must not choose the mechanism, §7.7 issuer authorization; Token Status List -20 §8.3, §11.3):
the metadata of `iss` lives at `<scheme>://<authority>/.well-known/jwt-vc-issuer<path of iss, trailing / dropped>`;
`issuer` must equal `iss` exactly; exactly one of `jwks` and `jwks_uri`; no private key members; at most 16 keys; a
non-200 answer is unavailable (its body is never read); the key is the one whose `kid` (a string) equals the header's
`kid` (without `kid` only when the set holds exactly one key). Every issuer publishes its own keys (pid: k1 and k2;
every other issuer one key, also with kid "k1"), so mixing up two issuers' key sets is caught. Only issuers the
operator listed use metadata, and a listed issuer uses it only (its x5c is ignored); an unlisted issuer without x5c is
refused (never a fallback). A metadata issuer's status list must be signed by one of its metadata keys (chosen by the
list header's `kid`, without `kid` only when it has exactly one key); an x5c chain to an anchor, or a key of another
listed issuer with the same `kid` string, is not that issuer.

Before writing, the script re-judges every case with a small metadata resolver written here (`MetadataMiniVerifier`,
on top of sd_jwt_vc.MiniVerifier for disclosures, key binding and the status bits) and aborts unless verdict, check,
code, claims and disclosed paths equal the manifest; every verified case is also processed by the PyPI `sd-jwt`
reference implementation (fed the public key that signed it) and must give the same claims.

Usage (from the repository root):  python3 TestVectors/generator/jwt_vc_issuer_metadata.py
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import zlib
from dataclasses import dataclass
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
MAX_KEYS = 16  # a key set holds at most this many keys
TOO_MANY = MAX_KEYS + 1  # the size of uri-too-many's set

PRIVATE_JWK_MEMBERS = ("d", "p", "q", "dp", "dq", "qi", "oth", "k")  # RFC 7518 §6.2.2, §6.3.2, §6.4

ISSUERS = ["pid", "by-uri", "mismatch", "both", "private-key", "dup", "absent", "unlisted", "other-vct", "one-key",
           "uri-missing", "uri-too-many", "error-body", "second"]
# The operator's list: iss name -> vct scope (None: any vct). `unlisted` is deliberately missing.
LISTED: dict[str, list[str] | None] = {
    "pid": [VCT], "by-uri": None, "mismatch": None, "both": None, "private-key": None, "dup": None, "absent": None,
    "other-vct": [OTHER_VCT], "one-key": None, "uri-missing": None, "uri-too-many": None, "error-body": None,
    "second": [VCT],
}
# Every issuer's own keys (kid -> private key): pid has k1 and k2, every other issuer one key of its own, also with
# kid "k1" (the same kid string, a different key). Written to pki/keys/<KEY_FILES[...]>.
KEYS: dict[str, dict[str, ec.EllipticCurvePrivateKey]] = {
    name: ({"k1": derive_key("sdjwt/metadata-k1"), "k2": derive_key("sdjwt/metadata-k2")} if name == "pid"
           else {"k1": derive_key(f"sdjwt/metadata-{name}-k1")})
    for name in ISSUERS
}
# uri-too-many's set: its own k1 (the signing key) and k2..k17, public only (labels sdjwt/metadata-uri-too-many-k<n>).
TOO_MANY_EXTRA = {f"k{n}": derive_key(f"sdjwt/metadata-uri-too-many-k{n}") for n in range(2, TOO_MANY + 1)}


def key_file(issuer: str, kid: str) -> str:
    return f"metadata-{kid}.pem" if issuer == "pid" else f"metadata-{issuer}-{kid}.pem"


def iss_of(name: str) -> str:
    return f"{BASE}/issuers/{name}"


def jwks_path(name: str) -> str:
    return f"/issuers/{name}/jwks.json"


def well_known_path(iss: str) -> str:
    """The path part of the metadata URL of an http(s) `iss` on BASE (used to lay out the served files)."""
    assert iss.startswith(BASE + "/")
    return WELL_KNOWN + iss[len(BASE):].rstrip("/")


def list_uri(name: str) -> str:
    return f"{BASE}/md-lists/{name}"


def metadata_jwk(issuer: str, kid: str, private: bool = False) -> dict:
    key = KEYS[issuer][kid] if kid in KEYS[issuer] else (TOO_MANY_EXTRA[kid] if issuer == "uri-too-many" else None)
    assert key is not None, (issuer, kid)
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
    """path -> {file, contentType, status, bytes, description}; a path not in here is answered with 404."""
    def own(name: str) -> dict:
        return {"keys": [metadata_jwk(name, "k1")]}

    docs: dict[str, tuple[str, bytes, int]] = {}

    def doc(name: str, description: str, obj: dict, status: int = 200) -> None:
        docs[name] = (description, cjson(obj).encode("utf-8"), status)

    doc("pid", "jwks with k1 and k2",
        {"issuer": iss_of("pid"), "jwks": {"keys": [metadata_jwk("pid", "k1"), metadata_jwk("pid", "k2")]}})
    doc("by-uri", f"jwks_uri {BASE}{jwks_path('by-uri')}",
        {"issuer": iss_of("by-uri"), "jwks_uri": BASE + jwks_path("by-uri")})
    doc("mismatch", "issuer names /issuers/pid, not this iss; jwks its own k1",
        {"issuer": iss_of("pid"), "jwks": own("mismatch")})
    doc("both", "jwks (its own k1) and jwks_uri (the same set) together",
        {"issuer": iss_of("both"), "jwks": own("both"), "jwks_uri": BASE + jwks_path("both")})
    doc("private-key", "its own k1 with its private member d",
        {"issuer": iss_of("private-key"), "jwks": {"keys": [metadata_jwk("private-key", "k1", private=True)]}})
    # The member `issuer` twice, same value both times: only the bytes can say it (a lenient parser keeps one).
    text = cjson({"issuer": iss_of("dup"), "jwks": own("dup")})
    first = cjson({"issuer": iss_of("dup")})[1:-1] + ","
    assert text.startswith("{" + first)
    docs["dup"] = ("the member issuer twice (same value)", ("{" + first + text[1:]).encode("utf-8"), 200)
    # absent: nothing served.
    doc("unlisted", "valid (its own k1); the issuer is not in the operator's list",
        {"issuer": iss_of("unlisted"), "jwks": own("unlisted")})
    doc("other-vct", f"valid (its own k1); listed for {OTHER_VCT} only",
        {"issuer": iss_of("other-vct"), "jwks": own("other-vct")})
    doc("one-key", "valid, a single key (its own k1)", {"issuer": iss_of("one-key"), "jwks": own("one-key")})
    doc("uri-missing", f"jwks_uri {BASE}{jwks_path('uri-missing')}, where nothing is served (404)",
        {"issuer": iss_of("uri-missing"), "jwks_uri": BASE + jwks_path("uri-missing")})
    doc("uri-too-many", f"jwks_uri {BASE}{jwks_path('uri-too-many')} (a set of {TOO_MANY} keys)",
        {"issuer": iss_of("uri-too-many"), "jwks_uri": BASE + jwks_path("uri-too-many")})
    doc("error-body", "answered with HTTP status 500; the body is otherwise valid metadata (its own k1) and must "
        "never be read as the document", {"issuer": iss_of("error-body"), "jwks": own("error-body")}, status=500)
    doc("second", "valid (its own k1); signs /md-lists/other-issuer", {"issuer": iss_of("second"),
                                                                         "jwks": own("second")})

    served: dict[str, dict] = {}
    for name in ISSUERS:
        if name in docs:
            description, data, status = docs[name]
            served[well_known_path(iss_of(name))] = {"file": f"served/metadata/{name}.json", "contentType": META_CT,
                                                     "status": status, "bytes": data,
                                                     "description": f"metadata of /issuers/{name}: {description}"}
    sets = {
        "by-uri": ("by-uri's own k1", own("by-uri")),
        "both": ("both's own k1 (the same set as its jwks)", own("both")),
        "uri-too-many": (f"{TOO_MANY} distinct P-256 keys k1..k{TOO_MANY}, k1 being uri-too-many's own signing key",
                         {"keys": [metadata_jwk("uri-too-many", f"k{n}") for n in range(1, TOO_MANY + 1)]}),
        # uri-missing: nothing served at its jwks_uri.
    }
    for name, (description, jwks) in sets.items():
        served[jwks_path(name)] = {"file": f"served/jwks/{name}.json", "contentType": META_CT, "status": 200,
                                   "bytes": cjson(jwks).encode("utf-8"),
                                   "description": f"the JWK Set behind {name}'s jwks_uri: {description}"}
    for name, entry in build_lists(pki).items():
        served[f"/md-lists/{name}"] = {"file": f"served/md-lists/{name}.jwt", "contentType": LIST_CT, "status": 200,
                                       "bytes": entry["token"].encode("ascii"), "description": entry["description"]}
    return served


def build_lists(pki) -> dict[str, dict]:
    """Token Status List JWTs, the payload shape of sd_jwt_vc.build_lists."""
    signer_cert, signer_key = pki["status-signer"]
    def header(kid: str | None) -> dict:
        return {"alg": "ES256", "typ": "statuslist+jwt"} | ({"kid": kid} if kid is not None else {})

    specs = {
        # name: (description, header, signing key, statuses); bits 1, 16 entries
        "valid": ("bits 1; every entry INVALID except index 3 (VALID); kid k2, signed with pid's metadata-k2, no x5c",
                  header("k2"), KEYS["pid"]["k2"], {i: 1 for i in range(16) if i != 3}),
        "revoked": ("bits 1; index 5 INVALID, the rest VALID; kid k2, signed with pid's metadata-k2, no x5c",
                    header("k2"), KEYS["pid"]["k2"], {5: 1}),
        "x5c-signed": ("bits 1; every entry VALID; x5c [status-signer] (chains to issuer-ca), no kid: not signed by "
                       "a key of the credential issuer's metadata",
                       {"alg": "ES256", "typ": "statuslist+jwt", "x5c": [b64std(der(signer_cert))]}, signer_key, {}),
        "other-issuer": ("bits 1; every entry VALID; kid k1, signed with the key k1 of /issuers/second (another "
                         "listed issuer; pid's k1 is a different key), no x5c",
                         header("k1"), KEYS["second"]["k1"], {}),
        "unknown-kid": ("bits 1; every entry VALID; kid k9 (in no issuer's metadata), signed with pid's metadata-k2, "
                        "no x5c", header("k9"), KEYS["pid"]["k2"], {}),
        "no-kid": ("bits 1; every entry VALID; no kid, no x5c, signed with /issuers/one-key's only key",
                   header(None), KEYS["one-key"]["k1"], {}),
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

@dataclass
class MdCase:
    case: Case
    issuer: str | None  # None: the base generator's ISS (not listed)
    key: str | None  # the kid of the issuer's own key that signs it; None: the x5c issuer leaf


_NO_KID = object()


def md_case(name: str, description: str, issuer: str | None, check: str | None = None, code: str | None = None, *,
            kid: object = "k1", key: str | None = "k1", status: tuple[str, int] | None = None,
            keep_x5c: bool = False) -> MdCase:
    """Header {"alg","typ","kid"} (kid _NO_KID: none; any JSON value otherwise; no x5c unless keep_x5c), payload
    iss = the issuer's (issuer None: sd_jwt_vc's ISS); signed with the issuer's own key `key` (None: with the x5c
    issuer leaf, build_case's default signer)."""
    def header_fn(h: dict) -> None:
        x5c = h.pop("x5c")
        if kid is not _NO_KID:
            h["kid"] = kid
        if keep_x5c:
            h["x5c"] = x5c

    assert key is None or issuer is not None
    case = Case(name, description, check, code,
                status={"status_list": {"idx": status[1], "uri": list_uri(status[0])}} if status else None,
                header_fn=header_fn,
                payload_fn=(lambda p, _d: p.update(iss=iss_of(issuer))) if issuer is not None else None,
                sig_fn=(lambda i, _p: es_sign(KEYS[issuer][key], i)) if key else None)
    return MdCase(case, issuer, key)


SIG, CHAIN, STATUS = "sdjwt.issuerSignature", "sdjwt.issuerCertificateChain", "sdjwt.status"
INVALID = "SDJWT_ISSUER_METADATA_INVALID"
UNAVAILABLE = "SDJWT_ISSUER_METADATA_UNAVAILABLE"
KEY_NOT_FOUND = "SDJWT_ISSUER_KEY_NOT_FOUND"


def cases() -> list[MdCase]:
    return [
        md_case("md-valid", "Issuer /issuers/pid (jwks with k1 and k2), header kid k1, signed with metadata-k1.",
                "pid"),
        md_case("md-valid-jwks-uri", "Issuer /issuers/by-uri: the metadata names a jwks_uri whose set holds by-uri's "
                "own k1; kid k1, signed with that key.", "by-uri"),
        md_case("md-status-valid", "As md-valid, with status idx 3 in /md-lists/valid (VALID); the list header has "
                "kid k2 and is signed with metadata-k2, a key of pid's metadata.", "pid", status=("valid", 3)),
        md_case("md-status-revoked", "As md-valid, with status idx 5 in /md-lists/revoked (INVALID; kid k2, signed "
                "with metadata-k2).", "pid", STATUS, "STATUS_REVOKED", status=("revoked", 5)),
        md_case("md-status-x5c-signer", "As md-valid, with status idx 0 in /md-lists/x5c-signed: VALID there, but "
                "that list is keyed by x5c (status-signer under the trust anchor), not by a key of pid's metadata, "
                "so it was not signed by the credential's issuer.", "pid", STATUS, "STATUS_UNKNOWN",
                status=("x5c-signed", 0)),
        md_case("md-status-other-issuer-key", "As md-valid, with status idx 0 in /md-lists/other-issuer: VALID "
                "there and its header kid is k1, but it is signed with the k1 key of /issuers/second, another listed "
                "issuer; pid's own k1 is a different key, so the list was not signed by the credential's issuer.",
                "pid", STATUS, "STATUS_UNKNOWN", status=("other-issuer", 0)),
        md_case("md-status-unknown-kid", "As md-valid, with status idx 0 in /md-lists/unknown-kid: VALID there, but "
                "its header kid k9 names no key of pid's metadata.", "pid", STATUS, "STATUS_UNKNOWN",
                status=("unknown-kid", 0)),
        md_case("md-kid-unknown", "Header kid k9: pid's metadata has no such key (signed with metadata-k1).", "pid",
                SIG, KEY_NOT_FOUND, kid="k9"),
        md_case("md-kid-missing", "No kid in the header (signed with metadata-k1); pid publishes two keys, so none "
                "can be chosen.", "pid", SIG, KEY_NOT_FOUND, kid=_NO_KID),
        md_case("md-kid-not-string", "Header kid is the JSON number 1, not a string (signed with metadata-k1): it "
                "names no key, and a kid that is present is never ignored.", "pid", SIG, KEY_NOT_FOUND, kid=1),
        md_case("md-one-key-no-kid", "Issuer /issuers/one-key, whose metadata holds a single key: no kid in the "
                "header, signed with that key, which is the one key the set can give.", "one-key", kid=_NO_KID),
        md_case("md-one-key-status-no-kid", "As md-one-key-no-kid, with status idx 0 in /md-lists/no-kid (VALID): "
                "that list has no kid either and is signed with one-key's only key.", "one-key", kid=_NO_KID,
                status=("no-kid", 0)),
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
                UNAVAILABLE),
        md_case("md-error-body", "Issuer /issuers/error-body: its metadata URL answers HTTP 500 with a body that is "
                "otherwise valid metadata holding the signing key; an error response is never the document.",
                "error-body", SIG, UNAVAILABLE),
        md_case("md-jwks-uri-missing", "Issuer /issuers/uri-missing: valid metadata naming a jwks_uri that answers "
                "404.", "uri-missing", SIG, UNAVAILABLE),
        md_case("md-jwks-uri-too-many-keys", f"Issuer /issuers/uri-too-many: its jwks_uri serves {TOO_MANY} distinct "
                f"keys (k1, the signing key, among them); a key set holds at most {MAX_KEYS}.", "uri-too-many", SIG,
                INVALID),
        md_case("md-not-listed", "Issuer /issuers/unlisted serves valid metadata (its own k1) but the operator did "
                "not list it, and the header has no x5c: metadata is never a fallback.", "unlisted", SIG,
                "SDJWT_X5C_MISSING"),
        md_case("md-vct-out-of-scope", f"Issuer /issuers/other-vct: valid metadata (its own k1), signature good, but "
                f"the operator listed it for vct {OTHER_VCT} only and the credential's vct is {VCT}.", "other-vct",
                CHAIN, "ISSUER_NOT_AUTHORIZED_FOR_VCT"),
        md_case("md-x5c-not-used", "Issuer /issuers/pid, header kid k1 plus x5c [issuer] (a chain to the trust "
                "anchor), signed with the x5c leaf's key: pid is listed for metadata, so its key comes from metadata "
                "only, and metadata-k1 does not verify the signature.", "pid", SIG, "ISSUER_SIGNATURE_INVALID",
                key=None, keep_x5c=True),
        md_case("md-x5c-control", "Built as md-x5c-not-used (header kid k1 plus x5c [issuer], signed with the x5c "
                "leaf's key) but with iss https://issuer.example, which is not listed: it verifies by x5c, so "
                "md-x5c-not-used fails only because pid is listed.", None, kid="k1", key=None, keep_x5c=True),
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
    Metadata only (x5c ignored); anything else goes the x5c way. `served`: absolute URL -> (HTTP status, bytes);
    a missing URL answers 404. Only a 200 answer is read; anything else is unavailable."""

    def __init__(self, anchors, served: dict[str, tuple[int, bytes]], listed: dict[str, list[str] | None],
                 max_keys: int = MAX_KEYS):
        super().__init__(anchors, {url: data.decode("utf-8", "replace") for url, (status, data) in served.items()
                                   if status == 200})
        self.served = served
        self.listed = listed
        self.max_keys = max_keys
        self.issuer_keys: list | None = None  # the metadata keys of the credential being checked

    def fetch_json(self, url: str):
        """The JSON document at url: not 200 (404 included) is unavailable and its body unread; bad JSON invalid."""
        status, body = self.served.get(url, (404, b""))
        if status != 200:
            raise Refused("sdjwt.issuerSignature", UNAVAILABLE)
        try:
            return strict_json(body)
        except ValueError:
            raise Refused("sdjwt.issuerSignature", INVALID)

    def resolve(self, iss: str) -> list[tuple[str | None, ec.EllipticCurvePublicKey]]:
        c = "sdjwt.issuerSignature"
        url = metadata_url(iss)
        if url is None:
            raise Refused(c, INVALID)
        document = self.fetch_json(url)
        if not isinstance(document, dict) or not isinstance(document.get("issuer"), str) or document["issuer"] != iss:
            raise Refused(c, INVALID)
        if ("jwks" in document) == ("jwks_uri" in document):
            raise Refused(c, INVALID)
        if "jwks_uri" in document:
            uri = document["jwks_uri"]
            if not isinstance(uri, str) or metadata_url(uri) is None:
                raise Refused(c, INVALID)
            jwks = self.fetch_json(uri)
        else:
            jwks = document["jwks"]
        keys = jwks.get("keys") if isinstance(jwks, dict) else None
        if not isinstance(keys, list) or not keys or not all(isinstance(k, dict) for k in keys):
            raise Refused(c, INVALID)
        if len(keys) > self.max_keys:
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
        """By kid (present: must be a string equal to a key's kid); without kid only a set of exactly one key."""
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
  entry's `path`, with its `contentType` and HTTP `status` (the member is present only when it is not 200: 500 for
  `/.well-known/jwt-vc-issuer/issuers/error-body`); any other path answers 404. `metadata/<issuer>.json` (at
  `/.well-known/jwt-vc-issuer/issuers/<issuer>`), `jwks/<issuer>.json` (at `/issuers/<issuer>/jwks.json`),
  `md-lists/<name>.jwt` (Token Status List JWTs at `/md-lists/<name>`).
* `cases/<name>.txt`: one compact SD-JWT+KB presentation, exact bytes, no trailing newline.
* `pki/`: `issuer-ca.pem` (the trust anchor, manifest `trustAnchors`), `issuer.pem` (an x5c leaf under it, used only
  by `md-x5c-not-used` and `md-x5c-control`), `status-signer.pem` (signs `md-lists/x5c-signed`). `pki/keys/`: the
  issuers' own keys (PKCS#8, P-256): `metadata-k1.pem`, `metadata-k2.pem` (pid's k1 and k2, labels
  `sdjwt/metadata-k1`, `sdjwt/metadata-k2`) and `metadata-<issuer>-k1.pem` for every other issuer (label
  `sdjwt/metadata-<issuer>-k1`).
* `manifest.json`: verification time {VERIFICATION_TIME}, trust anchors, nonce, audience, `kbIatWindowSeconds`,
  `clockSkewSeconds`, `baseURI`, `metadataIssuers` (the operator's list: `iss` and optional `vcts`; no `vcts` = any
  vct), `served` (`path`, `file`, `contentType`, optional `status`, default 200) and `cases` (the shape of
  `TestVectors/sdjwt/manifest.json`'s cases: `name`, `file`, `description`, `requireKeyBinding`, `expect`
  {{`verified`, `code`, `check`, `claims`, `disclosed`}}).

## Issuers and their keys (`iss` = `{BASE}/issuers/<name>`)

Every issuer publishes its own keys: pid has k1 and k2; every other issuer has one key of its own, published with
kid `k1` as well (the same kid string, a different key), and its credentials are signed with it. A verifier that took
a key from the wrong issuer's set would therefore fail the signature. A metadata key is
`{{"kty":"EC","crv":"P-256","x":..,"y":..,"kid":..,"use":"sig","alg":"ES256"}}`.

| Issuer | Listed (vcts) | Served at `/.well-known/jwt-vc-issuer/issuers/<name>` |
| --- | --- | --- |
| `pid` | yes (`{VCT}`) | `issuer` = iss, `jwks` [k1, k2] |
| `by-uri` | yes (any) | `issuer` = iss, `jwks_uri` `{BASE}/issuers/by-uri/jwks.json` (serves [its k1]) |
| `mismatch` | yes (any) | `issuer` = `{BASE}/issuers/pid`, `jwks` [its k1] |
| `both` | yes (any) | `issuer` = iss, `jwks` [its k1] and `jwks_uri` `{BASE}/issuers/both/jwks.json` (serves the same set) |
| `private-key` | yes (any) | `issuer` = iss, `jwks` [its k1 with its private `d`] |
| `dup` | yes (any) | `{{"issuer":iss,"issuer":iss,"jwks":...}}` (member written twice) |
| `absent` | yes (any) | nothing (404) |
| `unlisted` | **no** | valid, `jwks` [its k1] |
| `other-vct` | yes (`{OTHER_VCT}`) | valid, `jwks` [its k1] |
| `one-key` | yes (any) | valid, `jwks` [its k1], a single key |
| `uri-missing` | yes (any) | `issuer` = iss, `jwks_uri` `{BASE}/issuers/uri-missing/jwks.json`, where nothing is served (404) |
| `uri-too-many` | yes (any) | `issuer` = iss, `jwks_uri` `{BASE}/issuers/uri-too-many/jwks.json`: {TOO_MANY} distinct keys k1..k{TOO_MANY} (k1 its signing key; k2.. labels `sdjwt/metadata-uri-too-many-k<n>`, public only) |
| `error-body` | yes (any) | HTTP **500**, body otherwise valid metadata (`issuer` = iss, `jwks` [its k1]) |
| `second` | yes (`{VCT}`) | valid, `jwks` [its k1]; signs `md-lists/other-issuer` |

Status lists (bits 1, 16 entries, `sub` = their URL, no x5c unless stated): `valid` (all INVALID except index 3)
and `revoked` (index 5 INVALID) have header kid k2 and are signed with pid's k2; `x5c-signed` (all VALID) carries x5c
[status-signer] and no kid; `other-issuer` (all VALID) has kid k1 and is signed with second's k1; `unknown-kid` (all
VALID) has kid k9 and is signed with pid's k2; `no-kid` (all VALID) has no kid and is signed with one-key's key.

## Served

{{served_table}}

## Cases

Every issuer JWT header is `{{"alg":"ES256","typ":"dc+sd-jwt","kid":...}}` without x5c unless stated, signed with the
issuer's own key k1 unless stated; full PID model, every disclosure, KB-JWT, key binding required.

{{cases_table}}

## Rules the vectors encode

Section numbers: SD-JWT VC draft -19 (draft-ietf-oauth-sd-jwt-vc), Token Status List (TSL) draft -20.

* Mechanism by policy, never by the input (SD-JWT VC §2.5, §7.3): an `iss` in the operator's list takes its key
  from its metadata only (an x5c in the header is ignored: `md-x5c-not-used`, whose twin `md-x5c-control` with an
  unlisted `iss` verifies by x5c); any other issuer needs x5c, and metadata is never tried as a fallback
  (`md-not-listed`). Listing is also the SSRF gate (§7.1): only listed issuers cause a fetch. The vectors use
  `http://127.0.0.1`; §3 and §7.1 require https and refuse loopback, so the tests must allow that loopback origin
  explicitly.
* Metadata URL (§4, §4.1): `/.well-known/jwt-vc-issuer` inserted between the authority and the path of `iss`, a
  trailing `/` dropped. A failed retrieval is unavailable, never "no key": 404 (`md-unavailable`, and a `jwks_uri`
  that answers 404, `md-jwks-uri-missing`) and any other non-200 status, whose body is never read even when it would
  be valid metadata (§3: an error response is not the document; `md-error-body`).
* Document (§4.2, §4.3): strict JSON (duplicate member names refused, `md-duplicate-member`); `issuer` identical to
  `iss` (`md-issuer-mismatch`); exactly one of `jwks` and `jwks_uri` (`md-jwks-and-uri`); a `jwks_uri` set is
  fetched the same way (`md-valid-jwks-uri`). A key with private members (RFC 7517/7518: `d` …) makes the
  document invalid (`md-private-key-in-jwks`); so does a key set of more than {MAX_KEYS} keys
  (`md-jwks-uri-too-many-keys`).
* Key choice (§4.2 recommends `kid`): among the credential issuer's own keys only, the key whose `kid` equals the
  header's; no match is "key not found" (`md-kid-unknown`), and so is a `kid` that is not a string
  (`md-kid-not-string`; a present `kid` is never ignored); without `kid` only a set of exactly one key qualifies
  (`md-kid-missing` refused, `md-one-key-no-kid` verified). The chosen key must verify the signature
  (`md-wrong-key`).
* Issuer authorization per vct (§7.7): a listed issuer scoped to other vcts is refused after its signature checks
  (`md-vct-out-of-scope`, check `sdjwt.issuerCertificateChain`, as for x5c anchors).
* Status (TSL §8.3, §11.3): the list token must be signed by the credential's issuer; for a metadata issuer that is
  a key of its own metadata chosen by the list header's `kid` (`md-status-valid`, `md-status-revoked`), without
  `kid` only when that issuer has exactly one key (`md-one-key-status-no-kid`). A `kid` the issuer does not publish
  (`md-status-unknown-kid`), a key of another listed issuer even under the same `kid` string
  (`md-status-other-issuer-key`) and a list keyed by x5c, even one chaining to a trust anchor
  (`md-status-x5c-signer`), are not that issuer: status unknown.

Generated by `TestVectors/generator/jwt_vc_issuer_metadata.py`, which re-judges every case with its own small
metadata resolver (plus controls: each refused case verifies once its one named defect is removed, e.g. the 500
answered as 200, the missing set served, a limit of {TOO_MANY} keys) and checks every verified case's claims against
the PyPI `sd-jwt` reference implementation (fed the key that signed it).
"""


def main() -> int:
    pki = build_pki()
    anchor = pki["issuer-ca"][0]
    served = build_served(pki)
    all_cases = cases()
    names = [m.case.name for m in all_cases]
    assert len(names) == len(set(names)), "duplicate case names"
    assert set(LISTED) | {"unlisted"} == set(ISSUERS)

    built = {}
    for m in all_cases:
        text, claims, disclosed = build_case(m.case, pki)
        if claims is not None and m.issuer is not None:
            claims["iss"] = iss_of(m.issuer)  # build_case's model view uses the base ISS
        built[m.case.name] = (text, claims, disclosed)

    failures = check_url_derivation()
    # Every key is distinct (issuers' own keys, the x5c certificates' keys, uri-too-many's extra keys).
    all_keys = [k for ks in KEYS.values() for k in ks.values()] + list(TOO_MANY_EXTRA.values()) \
        + [key for _cert, key in pki.values()]
    if len({k.private_numbers().private_value for k in all_keys}) != len(all_keys):
        failures.append("two key labels derive the same key")
    served_urls = {BASE + path: (entry["status"], entry["bytes"]) for path, entry in served.items()}
    listed = {iss_of(n): vcts for n, vcts in LISTED.items()}

    def judge(verifier, text, case):
        return verifier.verify(text, now=NOW, nonce=NONCE, audience=case.audience, require_kb=case.require_kb,
                               query=case.query)

    verifier = MetadataMiniVerifier([anchor], served_urls, listed)
    for m in all_cases:
        case = m.case
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
            signer = KEYS[m.issuer][m.key] if m.key else pki["issuer"][1]
            try:
                oracle = pypi_claims(text, signer.public_key(), case.audience, NONCE)
            except Exception as e:  # noqa: BLE001
                failures.append(f"{case.name}: PyPI sd-jwt refused a verified case: {e!r}")
            else:
                if oracle != claims:
                    failures.append(f"{case.name}: PyPI sd-jwt claims differ\n  model: {claims}\n  sd-jwt: {oracle}")

    # Controls: each refusal below has exactly the one defect its description names.
    by_name = {m.case.name: m.case for m in all_cases}

    def with_served(changes: dict[str, tuple[int, bytes]]) -> dict[str, tuple[int, bytes]]:
        return served_urls | {BASE + path: v for path, v in changes.items()}

    error_body = well_known_path(iss_of("error-body"))
    controls = {
        # the x5c chain really is trusted: an x5c-only verifier accepts the same bytes
        "md-x5c-not-used": base.MiniVerifier([anchor], {}),
        "md-x5c-control": base.MiniVerifier([anchor], {}),
        # listing unlisted (any vct) is all it takes
        "md-not-listed": MetadataMiniVerifier([anchor], served_urls, listed | {iss_of("unlisted"): None}),
        # other-vct without a scope verifies
        "md-vct-out-of-scope": MetadataMiniVerifier([anchor], served_urls, listed | {iss_of("other-vct"): None}),
        # the 500 body is valid metadata holding the signing key: answered with 200 it verifies
        "md-error-body": MetadataMiniVerifier([anchor], with_served({error_body: (200, served[error_body]["bytes"])}),
                                              listed),
        # the set behind uri-missing's jwks_uri is all that is missing
        "md-jwks-uri-missing": MetadataMiniVerifier(
            [anchor], with_served({jwks_path("uri-missing"): (200, cjson({"keys": [metadata_jwk("uri-missing", "k1")]})
                                                              .encode("utf-8"))}), listed),
        # the set's size is the only defect
        "md-jwks-uri-too-many-keys": MetadataMiniVerifier([anchor], served_urls, listed, max_keys=TOO_MANY),
    }
    for name, control in controls.items():
        got = judge(control, built[name][0], by_name[name])
        if not got["verified"]:
            failures.append(f"control {name}: expected verified, got {(got['check'], got['code'])}")
    # md-x5c-control differs from md-x5c-not-used in iss only (same header, same signer).
    x5c_parts = {}
    for name in ("md-x5c-not-used", "md-x5c-control"):
        h64, p64, _ = built[name][0].split("~")[0].split(".")
        x5c_parts[name] = (strict_json(base.strict_b64u(h64)), strict_json(base.strict_b64u(p64)))
    (h1, p1), (h2, p2) = x5c_parts["md-x5c-not-used"], x5c_parts["md-x5c-control"]
    if h1 != h2 or p1 | {"iss": None} != p2 | {"iss": None} or p1["iss"] != iss_of("pid") or p2["iss"] != base.ISS:
        failures.append("md-x5c-control is not md-x5c-not-used with iss https://issuer.example")
    # The status list signers: other-issuer verifies with second's k1, not pid's k1 (same kid string).
    other = served["/md-lists/other-issuer"]["bytes"].decode("ascii")
    h64, p64, s64 = other.split(".")
    sig_input = f"{h64}.{p64}".encode("ascii")
    if not es_verify(KEYS["second"]["k1"].public_key(), base.strict_b64u(s64), sig_input) \
            or es_verify(KEYS["pid"]["k1"].public_key(), base.strict_b64u(s64), sig_input):
        failures.append("/md-lists/other-issuer is not signed by second's k1 only")
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
    for issuer in ISSUERS:
        for kid, key in KEYS[issuer].items():
            write_bytes(OUT / "pki" / "keys" / key_file(issuer, kid),
                        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    for entry in served.values():
        write_bytes(OUT / entry["file"], entry["bytes"])
    manifest_cases, rows = [], []
    for m in all_cases:
        case = m.case
        text, claims, disclosed = built[case.name]
        write_bytes(OUT / "cases" / f"{case.name}.txt", text.encode("ascii"))
        manifest_cases.append({
            "name": case.name, "file": f"cases/{case.name}.txt", "description": case.description,
            "requireKeyBinding": case.require_kb,
            "expect": {"verified": case.code is None, "code": case.code, "check": case.check, "claims": claims,
                       "disclosed": disclosed},
        })
        issuer = f"`{m.issuer}`" if m.issuer is not None else f"`{base.ISS}` (not listed)"
        rows.append(f"| `{case.name}` | {issuer} | {'yes' if case.code is None else 'no'} | "
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
        "served": [{"path": path, "file": e["file"], "contentType": e["contentType"]}
                   | ({"status": e["status"]} if e["status"] != 200 else {}) for path, e in served.items()],
        "cases": manifest_cases,
    }
    write_bytes(OUT / "manifest.json", (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    table = ("| Case | Issuer | Verified | Check | Code | What |\n| --- | --- | --- | --- | --- | --- |\n"
             + "\n".join(rows))
    served_rows = "\n".join(f"| `{path}` | {e['status']} | `{e['file']}` | {e['description']} |"
                             for path, e in served.items())
    served_table = "| Path | Status | File | What |\n| --- | --- | --- | --- |\n" + served_rows
    write_bytes(OUT / "README.md", README.replace("{cases_table}", table).replace("{served_table}", served_table)
                .encode("utf-8"))
    valid = sum(1 for m in all_cases if m.case.code is None)
    print(f"generated: TestVectors/sdjwt-metadata ({len(all_cases)} cases, {valid} verified and cross-checked with "
          f"PyPI sd-jwt; {len(LISTED)} listed issuers, {len(served)} served files)")
    return 0

if __name__ == "__main__":
    # Takes no arguments: -h/--help prints the text above; anything else is refused before anything is written.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    sys.exit(main())
