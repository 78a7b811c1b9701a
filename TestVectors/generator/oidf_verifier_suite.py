#!/usr/bin/env python3
"""An independent emulation of the OpenID Foundation's OpenID4VP 1.0 (final) *verifier* test plans
(`oid4vp-1final-verifier-test-plan` and `oid4vp-1final-verifier-haip-test-plan`), in which the conformance suite
plays the WALLET against the verifier. TEST-ONLY: every key it uses is a public test key or a fresh throwaway one;
never point it at anything real. Written from what the suite's modules send, check and expect (studied, not copied:
nothing of the suite's code is here); the protocol helpers come from this folder's own wallets (oid4vp_wallet.py,
web_wallet.py, generate.py, sd_jwt_vc.py, status_lists.py).

It plays the suite's wallet (cross-device, request_uri_signed, response_mode direct_post.jwt, the HAIP variant's
choices) against a running verifierd, one module after the other:

  1. As the verifier's page would, POST /v1/oid4vp/requests {"flow": "cross-device", "documents" (an mDL) or
     "dcql_query" (a PID SD-JWT VC), "requestUriMethod": "post" for request-uri-method-post} with the integrator
     token, and reads `authorizationRequest` as the suite's /authorize endpoint receives it: it must start with
     --authorization-endpoint followed by "?", and carry exactly client_id and request_uri (+ request_uri_method,
     get or post), each once; request_uri https without a fragment.
  2. Fetches request_uri: GET (Accept as the suite's HTTP client sends it), twice for request-uri-fetched-twice (the
     second object is the one used), or for request-uri-method-post a POST of `wallet_nonce=<base64url of 32 fresh
     random bytes>` only, no wallet_metadata (form-encoded, Accept application/oauth-authz-req+jwt), which must
     answer 200 application/oauth-authz-req+jwt with that wallet_nonce in the object.
  3. Checks the request object as the suite's conditions do (each failure or warning of theirs fails here):
     a compact JWS, header typ oauth-authz-req+jwt, alg ES256, x5c (leaf first, no trust anchor, nothing
     self-signed, chaining to --reader-root, leaf valid now), the ES256 signature by the leaf; client_id =
     x509_hash:<base64url SHA-256 of the leaf DER> (--client-id-prefix x509_hash) or x509_san_dns:<name> where name
     is --client-id-dns-name and a subjectAltName dNSName of the leaf, and equal to the URL's; aud
     https://self-issued.me/v2; iss (if any) = client_id; iat/exp (if any) plausible; no request, request_uri,
     request_uri_method, sub = client_id; response_type vp_token, response_mode direct_post.jwt, response_uri https
     without fragment; no client_id_scheme, scope, redirect_uri, presentation_definition(_uri), transaction_data;
     no member outside the suite's list; a nonce of 16..43 characters of [A-Za-z0-9-_.~] with > 96 bits of Shannon
     entropy; wallet_nonce only when POSTed, then equal to it; client_metadata with only jwks,
     vp_formats_supported and encrypted_response_enc_values_supported, vp_formats_supported naming the module's
     format (algorithm lists well-formed), both A128GCM and A256GCM offered, every JWK public with a unique kid and
     an alg, one ECDH-ES P-256 key usable for encryption, no key seen in an earlier request of this run; a DCQL
     query of exactly one credential, of the module's format (mso_mdoc for an mDL, dc+sd-jwt for urn:eudi:pid:1).
  4. Builds the presentation as the suite does, with the module's one defect:
     mdoc: a DeviceResponse issued under TestVectors/pki/ds-p256.pem (-> iaca-p256.pem) holding exactly the
       requested elements, device-signed (ES256) over [null, null, ["OpenID4VPHandover", SHA-256(CBOR([client_id
       (with its prefix), nonce, RFC 7638 thumbprint of client_metadata.jwks.keys[0], response_uri]))]];
       vp_token = {"<credential id>": ["<base64url DeviceResponse>"]}.
     SD-JWT VC: a PID issued under TestVectors/sdjwt/pki/issuer.pem (-> issuer-ca.pem), the disclosures of the
       requested claims, a KB-JWT {iat: now, nonce, aud: client_id (with its prefix), sd_hash}; vp_token =
       {"<credential id>": ["<SD-JWT+KB>"]}.
     Encrypted like the suite: a compact JWE, alg = keys[0].alg (ECDH-ES), to the first EC key with use enc (or no
     use), enc = the first of encrypted_response_enc_values_supported, header {alg, enc, cty: json, kid, epk, apu,
     apv} with apu/apv the base64url of two random 16-character alphanumeric strings (in the Concat KDF too),
     payload {"state"?, "vp_token"}.
  5. POSTs response=<JWE> (form-encoded, Accept application/json) to response_uri and expects, for positive and
     negative modules alike (verifierd answers the wallet the same whatever the verdict; the suite takes a 2xx of a
     negative module as "deferred verification" and asks for a screenshot of the rejection): 200,
     application/json, {} or {"redirect_uri": "<non-empty string>"} (required with --redirect-uri, as HAIP does).
  6. Reads the verdict as the integrator: GET /v1/oid4vp/sessions/{sessionId}/result?wait=25 (with the
     response_code of the redirect, if any). Positive modules: 200 verified, the requested claims, no failed check.
     Negative modules: 422, verified false, the expected top-level `code`, and that check failed with it.

Modules (the suite's test names without "oid4vp-1final-verifier-"; the format suffix picks its credential_format
variant; the last three are ours, the suite has no status modules):
  happy-flow-mdoc, happy-flow-sdjwt   a valid credential: verified
  minimal-cnf-jwk                     SD-JWT VC whose cnf.jwk holds only kty, crv, x, y: verified
  request-uri-method-post             request_uri_method=post; the object POSTed for with wallet_nonce: verified
  request-uri-fetched-twice           request_uri GET twice, the second object answered: verified
  invalid-session-transcript          mdoc device-signed over the transcript of nonce + "INVALID":
                                      DEVICE_SIGNATURE_INVALID
  invalid-kb-jwt-signature            every byte of the KB-JWT signature XOR 0x5A: SDJWT_KB_SIGNATURE_INVALID
  invalid-credential-signature        every byte of the issuer signature XOR 0x5A, sd_hash recomputed over that and
                                      the KB-JWT signed again: ISSUER_SIGNATURE_INVALID
  invalid-sd-hash                     KB-JWT sd_hash + "INVALID": SDJWT_KB_SD_HASH_MISMATCH
  invalid-kb-jwt-nonce                KB-JWT nonce + "INVALID": SDJWT_KB_NONCE_MISMATCH
  invalid-kb-jwt-aud                  KB-JWT aud + "INVALID": SDJWT_KB_AUDIENCE_MISMATCH
  kb-jwt-iat-in-past                  KB-JWT iat = now - 365 days: SDJWT_KB_IAT_OUT_OF_WINDOW
  kb-jwt-iat-in-future                KB-JWT iat = now + 365 days: SDJWT_KB_IAT_OUT_OF_WINDOW
  status-revoked                      SD-JWT VC with status.status_list {idx, uri} naming a Token Status List JWT
                                      (typ statuslist+jwt, x5c TestVectors/sdjwt/pki/status-signer.pem under
                                      issuer-ca) that marks idx INVALID: STATUS_REVOKED (check sdjwt.status)
  status-identifier-list-revoked      mdoc whose MSO status is {identifier_list: {id, uri}}, the ISO 18013-5
                                      identifier list (COSE_Sign1, typ application/identifierlist+cwt, x5chain
                                      TestVectors/status/pki/status-signer.pem under iaca-p256) listing id:
                                      STATUS_REVOKED (check mso.status)
  credential-without-status           an mdoc and an SD-JWT VC without status (two sessions): verified, mso.status
                                      and sdjwt.status notApplicable, nothing fetched
The status modules serve their lists from this process on http://127.0.0.1:--status-port (a small threaded HTTP
server on loopback only, for the run; each run's lists under fresh random paths, so no cache is reused): verifierd
must be allowed to fetch there (outbound.allowedDestinations ["127.0.0.1:PORT"], status.allowedSchemes with "http").

Usage (verifierd trusting TestVectors/pki/iaca-p256.pem as IACA and TestVectors/sdjwt/pki/issuer-ca.pem as SD-JWT
VC issuer CA, oid4vp.publicBaseUrl = --public-base-url, oid4vp.walletAuthorizationEndpoint =
--authorization-endpoint, readerAuth under --reader-root):

    python3 TestVectors/generator/oidf_verifier_suite.py --base-url http://127.0.0.1:8080 \\
        --public-base-url https://verifier.example --token TOKEN --reader-root TestVectors/demo/reader-root.pem \\
        --authorization-endpoint https://suite.example/test/a/verifierd/authorize --module happy-flow-mdoc \\
        [--client-id-prefix x509_hash|x509_san_dns] [--client-id-dns-name verifier.example] [--now EPOCH] \\
        [--status-port 18616] [--redirect-uri https://shop.example/done]

--module takes one name, several separated by commas, or "all". It prints one JSON line per module,
{"module", "ok", "detail", ...facts}, then "<n> passed, <m> failed", and exits 0 only when every module passed.
--now EPOCH is the wallet's clock (credentials, KB-JWT iat, status lists; default the real time): give the service's.
URLs the service hands out are only contacted on the --base-url host or loopback (--public-base-url maps the
public prefix onto --base-url); no proxy, no redirects followed, 30 s per HTTP call.

    python3 TestVectors/generator/oidf_verifier_suite.py --self-test

checks, without a service, the redirect transcript against OpenID4VP 1.0 B.2.6.1's worked example, the suite-style
JWE (cty, apu, apv) against oid4vp_wallet.py's decrypter and joserfc, every defect on a presentation, the Shannon
estimate, the identifier-list and status-list tokens, and the request-object checks on objects signed here.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import http.server
import json
import math
import re
import secrets
import string
import sys
import threading
import traceback
import urllib.parse
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import cbor2
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate as g  # noqa: E402
import oid4vp_wallet as ow  # noqa: E402
import sd_jwt_vc  # noqa: E402
import status_lists  # noqa: E402
import web_wallet as w  # noqa: E402

Failure, expect, b64url, b64url_strict = w.Failure, w.expect, w.b64url, w.b64url_strict

TV = Path(__file__).resolve().parent.parent  # TestVectors/
MODULE_PREFIX = "oid4vp-1final-verifier-"
SELF_ISSUED_V2 = "https://self-issued.me/v2"
REQUEST_TYP = "oauth-authz-req+jwt"
# What the suite's HTTP client (Spring RestTemplate getForObject into a String) sends as Accept on its GET.
SUITE_GET_ACCEPT = "text/plain, application/json, application/*+json, */*"
OUTER_PARAMS = {"client_id", "request_uri"}
OUTER_OPTIONAL = {"request_uri_method"}
# The suite's CheckForUnexpectedParametersInVpAuthorizationRequest list (anything else: a warning there, a failure
# here).
REQUEST_MEMBERS = {"presentation_definition", "dcql_query", "client_id", "client_id_scheme", "response_uri",
                   "client_metadata", "nonce", "state", "response_type", "response_mode", "verifier_info", "scope",
                   "request_uri_method", "wallet_nonce", "aud", "iss", "iat", "nbf", "exp", "jti"}
FORBIDDEN_MEMBERS = ("client_id_scheme", "scope", "redirect_uri", "presentation_definition",
                     "presentation_definition_uri", "transaction_data", "request", "request_uri", "request_uri_method")
CLIENT_METADATA_MEMBERS = {"jwks", "vp_formats_supported", "encrypted_response_enc_values_supported"}
NONCE_CHARS = re.compile(r"[A-Za-z0-9\-_.~]+")
NONCE_MIN, NONCE_MAX, NONCE_MIN_ENTROPY = 16, 43, 96.0
HAIP_ENCS = ("A128GCM", "A256GCM")
PRIVATE_JWK_MEMBERS = {"d", "p", "q", "dp", "dq", "qi", "oth", "k"}
# COSE algorithm ids (IANA) and JWS alg names a vp_formats_supported list may hold.
COSE_ALGS = {-7, -8, -9, -19, -35, -36, -37, -38, -39, -47, -51, -52, -53, -257, -258, -259}
JWS_ALGS = {"ES256", "ES384", "ES512", "ES256K", "EdDSA", "Ed25519", "Ed448", "PS256", "PS384", "PS512", "RS256",
            "RS384", "RS512"}
NON_DISCLOSABLE_SDJWT = {"iss", "nbf", "exp", "cnf", "vct", "vct#integrity", "status", "aka_vcts"}
FORMATS = {"mdoc": ow.MDOC_FORMAT, "sdjwt": ow.SDJWT_FORMAT}
DAY = 86400
RESULT_WAIT = 25

# The failure codes verifierd reports (docs/verification.md), by defect.
CODE_DEVICE_SIGNATURE = "DEVICE_SIGNATURE_INVALID"
CODE_KB_SIGNATURE = "SDJWT_KB_SIGNATURE_INVALID"
CODE_ISSUER_SIGNATURE = "ISSUER_SIGNATURE_INVALID"
CODE_SD_HASH = "SDJWT_KB_SD_HASH_MISMATCH"
CODE_KB_NONCE = "SDJWT_KB_NONCE_MISMATCH"
CODE_KB_AUDIENCE = "SDJWT_KB_AUDIENCE_MISMATCH"
CODE_KB_IAT = "SDJWT_KB_IAT_OUT_OF_WINDOW"
CODE_REVOKED = "STATUS_REVOKED"

# Status list signers verifierd accepts: for an SD-JWT VC, one under its issuer's anchor (issuer-ca); for an mdoc, one
# issued directly by the document's IACA (iaca-p256).
SDJWT_STATUS_SIGNER = (TV / "sdjwt" / "pki" / "status-signer.pem", TV / "sdjwt" / "pki" / "keys" / "status-signer.pem")
MDOC_STATUS_SIGNER = (TV / "status" / "pki" / "status-signer.pem", TV / "status" / "pki" / "keys" / "status-signer.pem")
STATUS_LIST_ENTRIES = 128  # bits 1: 16 bytes


# --------------------------------------------------------------------------------------------------
# The modules
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Module:
    name: str
    format: str  # "mdoc" | "sdjwt" | "both"
    code: str | None = None  # None: must verify
    check: str | None = None  # the check that must fail with `code`
    fetch: str = "get"  # "get" | "post" | "twice"
    defect: str | None = None
    status: str | None = None  # "status_list" | "identifier_list" | "none"
    suite: bool = True  # a module of the suite's plans (else one of ours)


MODULES = {m.name: m for m in [
    Module("happy-flow-mdoc", "mdoc"),
    Module("happy-flow-sdjwt", "sdjwt"),
    Module("minimal-cnf-jwk", "sdjwt", defect="minimal-cnf"),
    Module("request-uri-method-post", "mdoc", fetch="post"),
    Module("request-uri-fetched-twice", "mdoc", fetch="twice"),
    Module("invalid-session-transcript", "mdoc", CODE_DEVICE_SIGNATURE, "device.authentication",
           defect="transcript-nonce"),
    Module("invalid-kb-jwt-signature", "sdjwt", CODE_KB_SIGNATURE, "sdjwt.keyBinding", defect="kb-signature"),
    Module("invalid-credential-signature", "sdjwt", CODE_ISSUER_SIGNATURE, "sdjwt.issuerSignature",
           defect="issuer-signature"),
    Module("invalid-sd-hash", "sdjwt", CODE_SD_HASH, "sdjwt.keyBinding", defect="sd-hash"),
    Module("invalid-kb-jwt-nonce", "sdjwt", CODE_KB_NONCE, "sdjwt.keyBinding", defect="kb-nonce"),
    Module("invalid-kb-jwt-aud", "sdjwt", CODE_KB_AUDIENCE, "sdjwt.keyBinding", defect="kb-aud"),
    Module("kb-jwt-iat-in-past", "sdjwt", CODE_KB_IAT, "sdjwt.keyBinding", defect="iat-past"),
    Module("kb-jwt-iat-in-future", "sdjwt", CODE_KB_IAT, "sdjwt.keyBinding", defect="iat-future"),
    Module("status-revoked", "sdjwt", CODE_REVOKED, "sdjwt.status", status="status_list", suite=False),
    Module("status-identifier-list-revoked", "mdoc", CODE_REVOKED, "mso.status", status="identifier_list",
           suite=False),
    Module("credential-without-status", "both", status="none", suite=False),
]}


# --------------------------------------------------------------------------------------------------
# Small checks
# --------------------------------------------------------------------------------------------------

def shannon_bits(text: str) -> float:
    """The suite's nonce entropy estimate: Shannon entropy per character of the string's own character frequencies,
    times its length."""
    if not text:
        return 0.0
    counts: dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    per_char = -sum((n / len(text)) * math.log2(n / len(text)) for n in counts.values())
    return per_char * len(text)


def media_type(content_type: str) -> str:
    return content_type.split(";")[0].strip().lower()


def https_without_fragment(url: Any, what: str) -> urllib.parse.SplitResult:
    expect(isinstance(url, str) and url, f"{what} is not a non-empty string")
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError as error:
        raise Failure(f"{what} {url!r} does not parse: {error}") from None
    expect(parts.scheme == "https" and parts.hostname, f"{what} {url!r} is not an https URL")
    expect("#" not in url, f"{what} {url!r} has a fragment")
    return parts


def dns_names(cert: x509.Certificate) -> list[str]:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return []
    return san.get_values_for_type(x509.DNSName)


def now_dt() -> dt.datetime:
    return dt.datetime.fromtimestamp(ow.now(), dt.timezone.utc)


# --------------------------------------------------------------------------------------------------
# The authorization request (what the suite's /authorize receives)
# --------------------------------------------------------------------------------------------------

@dataclass
class AuthorizationRequest:
    client_id: str
    request_uri: str
    method: str | None  # the request_uri_method parameter as sent, None when absent


def check_authorization_request(text: Any, endpoint: str) -> AuthorizationRequest:
    """The URL the verifier sends the wallet to: --authorization-endpoint + "?" + exactly client_id and request_uri
    (+ request_uri_method get|post), each once; request_uri https without fragment."""
    expect(isinstance(text, str) and text, "authorizationRequest is not a non-empty string")
    expect(text.startswith(endpoint + "?"),
           f"authorizationRequest {text[:200]!r} does not start with the suite's authorization endpoint {endpoint!r} "
           f"+ '?' (oid4vp.walletAuthorizationEndpoint)")
    query_text = text[len(endpoint) + 1:]
    expect("#" not in query_text, "authorizationRequest has a fragment")
    try:
        pairs = urllib.parse.parse_qsl(query_text, keep_blank_values=True, strict_parsing=True)
    except ValueError as error:
        raise Failure(f"authorizationRequest query does not parse: {error}") from None
    names = [name for name, _ in pairs]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    expect(not duplicates, f"authorizationRequest repeats {duplicates}")
    params = dict(pairs)
    missing = OUTER_PARAMS - set(params)
    expect(not missing, f"authorizationRequest lacks {sorted(missing)} (the suite stops without client_id)")
    unexpected = set(params) - OUTER_PARAMS - OUTER_OPTIONAL
    expect(not unexpected, f"authorizationRequest carries {sorted(unexpected)} besides client_id, request_uri and "
                           f"request_uri_method (CheckForUnexpectedParametersInVpAuthorizationEndpointHttpRequest)")
    method = params.get("request_uri_method")
    expect(method in (None, "get", "post"), f"request_uri_method {method!r} is neither get nor post")
    expect(params["client_id"] != "", "client_id is empty")
    https_without_fragment(params["request_uri"], "request_uri")
    return AuthorizationRequest(params["client_id"], params["request_uri"], method)


# --------------------------------------------------------------------------------------------------
# The request object
# --------------------------------------------------------------------------------------------------

@dataclass
class RequestObject:
    header: dict
    claims: dict
    leaf: x509.Certificate
    credentials: list  # ow.CredentialQuery
    jwk: dict  # client_metadata.jwks.keys[0] (the transcript's thumbprint)
    recipient: dict  # the key the JWE goes to (the suite's selection)
    enc: str

    @property
    def nonce(self) -> str:
        return self.claims["nonce"]

    @property
    def response_uri(self) -> str:
        return self.claims["response_uri"]


def _check_formats(formats: Any, wanted: str) -> None:
    """vp_formats_supported (the suite's VP1FinalValidateVpFormatsSupportedInClientMetadata): an object naming the
    module's format; mso_mdoc's issuerauth/deviceauth_alg_values non-empty arrays of COSE alg ids, dc+sd-jwt's
    sd-jwt/kb-jwt_alg_values non-empty arrays of JWS alg names."""
    expect(isinstance(formats, dict), "client_metadata.vp_formats_supported is missing or not an object")
    entry = formats.get(wanted)
    expect(isinstance(entry, dict), f"client_metadata.vp_formats_supported has no {wanted} object")
    for fmt, lists, kind in ((ow.MDOC_FORMAT, ("issuerauth_alg_values", "deviceauth_alg_values"), "cose"),
                             (ow.SDJWT_FORMAT, ("sd-jwt_alg_values", "kb-jwt_alg_values"), "jws")):
        body = formats.get(fmt)
        if body is None:
            continue
        expect(isinstance(body, dict), f"vp_formats_supported.{fmt} is not an object")
        for name in lists:
            if name not in body:
                continue
            values = body[name]
            good = (isinstance(values, list) and values and all(
                (isinstance(v, int) and not isinstance(v, bool) and v in COSE_ALGS) if kind == "cose"
                else (isinstance(v, str) and v in JWS_ALGS) for v in values))
            expect(good, f"vp_formats_supported.{fmt}.{name} {values!r} is not a non-empty array of "
                         f"{'COSE algorithm ids' if kind == 'cose' else 'JWS alg names'}")
    if wanted == ow.SDJWT_FORMAT:
        for name in ("sd-jwt_alg_values", "kb-jwt_alg_values"):
            expect(name not in entry or "ES256" in entry[name], f"vp_formats_supported.dc+sd-jwt.{name} lacks ES256")


def _check_jwks(metadata: dict, seen_keys: set[str], session_keys: set[str]) -> tuple[dict, dict, str]:
    """client_metadata for direct_post.jwt under HAIP. Returns (keys[0], the recipient key, enc)."""
    jwks = metadata.get("jwks")
    keys = jwks.get("keys") if isinstance(jwks, dict) else None
    expect(isinstance(keys, list) and keys and all(isinstance(k, dict) for k in keys),
           "client_metadata.jwks.keys is missing, empty or not an array of objects")
    kids = [k.get("kid") for k in keys]
    expect(all(isinstance(kid, str) and kid.strip() for kid in kids) and len(set(kids)) == len(kids),
           f"every client_metadata.jwks key needs its own non-blank kid: {kids}")
    for index, key in enumerate(keys):
        expect(isinstance(key.get("alg"), str) and key["alg"], f"jwks.keys[{index}] has no alg")
        expect(not (PRIVATE_JWK_MEMBERS & set(key)), f"jwks.keys[{index}] carries private or symmetric key material "
                                                     f"{sorted(PRIVATE_JWK_MEMBERS & set(key))}")
    usable = [k for k in keys if k.get("use") in (None, "enc")]
    expect(usable, "no client_metadata.jwks key has use enc or no use")
    expect(any(k.get("alg") == "ECDH-ES" and k.get("crv") == "P-256" for k in keys),
           "no client_metadata.jwks key with alg ECDH-ES on P-256 (HAIP)")
    first = keys[0]
    expect(first.get("alg") == "ECDH-ES", f"keys[0].alg is {first.get('alg')!r}; the suite encrypts with keys[0]'s "
                                          f"alg and this wallet only with ECDH-ES")
    # The suite's selection: the first EC key whose use is enc or absent, an explicit use=enc preferred.
    candidates = [k for k in keys if k.get("kty") == "EC" and k.get("use") in (None, "enc")]
    expect(candidates, "no EC key usable for ECDH-ES in client_metadata.jwks")
    recipient = next((k for k in candidates if k.get("use") == "enc"), candidates[0])
    ow.check_enc_jwk(recipient, "the recipient JWK")
    ow.check_enc_jwk(first, "client_metadata.jwks.keys[0]")
    thumbprints = {b64url(ow.jwk_thumbprint(k)) for k in usable if k.get("kty") == "EC"}
    reused = thumbprints & seen_keys
    expect(not reused, f"an encryption key of an earlier request comes again {sorted(reused)} (HAIP: one ephemeral key "
                       f"per request; VP1FinalCheckEncryptionKeyNotReused)")
    session_keys |= thumbprints
    encs = metadata.get("encrypted_response_enc_values_supported")
    expect(isinstance(encs, list) and encs and all(isinstance(e, str) for e in encs),
           "encrypted_response_enc_values_supported is missing or not a non-empty array of strings (HAIP)")
    expect(all(e in encs for e in HAIP_ENCS), f"encrypted_response_enc_values_supported {encs} lacks one of "
                                              f"{list(HAIP_ENCS)} (HAIP: both)")
    enc = encs[0]
    expect(enc in ow.CONTENT_ENCRYPTIONS, f"the first offered enc {enc!r} is not one this wallet can use")
    return first, recipient, enc


def _check_dcql(query: Any, wanted: str) -> list:
    credentials = ow.check_dcql(query)
    expect(len(credentials) == 1, f"the DCQL query asks for {len(credentials)} credentials; the suite's modules answer "
                                  f"exactly one")
    only = credentials[0]
    expect(only.format == wanted, f"the DCQL credential's format is {only.format!r}, not {wanted!r} "
                                  f"(CheckDCQLQueryCredentialFormatMatchesTestConfiguration)")
    raw = query["credentials"][0]
    if wanted == ow.SDJWT_FORMAT:
        expect(ow.PID_VCT in only.vct_values, f"meta.vct_values {only.vct_values} lacks {ow.PID_VCT}, the only "
                                              f"credential this wallet holds")
        for claim in raw.get("claims", []):
            head = claim["path"][0]
            expect(head not in NON_DISCLOSABLE_SDJWT,
                   f"the DCQL query asks for {head!r}, which is never selectively disclosable "
                   f"(CheckForNonSelectivelyDisclosableClaimsInDcqlQuery)")
    else:
        expect(only.doctype == g.MDL_DOCTYPE, f"doctype_value {only.doctype!r}: this wallet holds an mDL only")
    if "claim_sets" in raw:
        referenced = {cid for option in raw["claim_sets"] for cid in option}
        ids = {c.get("id") for c in raw.get("claims", [])}
        expect(ids <= referenced, f"claims {sorted(ids - referenced)} are referenced by no claim_sets option")
    return credentials


def check_request_object(jws: str, *, url: AuthorizationRequest, prefix: str, dns_name: str,
                         root: x509.Certificate, wanted_format: str, wallet_nonce: str | None,
                         endpoint: str, seen_keys: set[str], session_keys: set[str]) -> RequestObject:
    """The request object as the suite's conditions judge it (see the module docstring, step 3)."""
    expect(isinstance(jws, str) and jws, "the request object is empty")
    parts = jws.split(".")
    expect(len(parts) == 3, f"the request object is not a compact JWS ({len(parts)} parts; a JWE could not be opened "
                            f"by the suite, which posted no wallet keys)")
    header = ow.strict_json(b64url_strict(parts[0], "JWS header"), "JWS header")
    expect(isinstance(header, dict), "the JWS header is not an object")
    typ = header.get("typ")
    expect(isinstance(typ, str) and typ.lower() == REQUEST_TYP, f"typ is {typ!r}, not {REQUEST_TYP}")
    expect(header.get("alg") == "ES256", f"alg is {header.get('alg')!r}, not ES256")
    expect("crit" not in header, "the JWS header has crit")
    leaf, leaf_der = ow.check_x5c(header.get("x5c"), root)
    when = now_dt()
    expect(leaf.not_valid_before_utc <= when <= leaf.not_valid_after_utc,
           f"the x5c leaf is not valid now ({leaf.not_valid_before_utc} .. {leaf.not_valid_after_utc})")
    signature = b64url_strict(parts[2], "JWS signature")
    expect(g.ecdsa_verify_raw(leaf.public_key(), signature, f"{parts[0]}.{parts[1]}".encode("ascii"), hashes.SHA256()),
           "the request object's signature does not verify with the x5c leaf's key")
    claims = ow.strict_json(b64url_strict(parts[1], "JWS payload"), "request object")
    expect(isinstance(claims, dict), "the request object is not a JSON object")

    client_id = claims.get("client_id")
    if prefix == "x509_hash":
        wanted = ow.x509_hash_client_id(leaf_der)
        expect(client_id == wanted, f"client_id {client_id!r} is not the leaf's x509_hash {wanted!r} "
                                    f"(ExtractAndValidateX509HashClientId)")
    else:
        wanted = "x509_san_dns:" + dns_name
        expect(client_id == wanted, f"client_id {client_id!r} is not {wanted!r} (EnsureMatchingClientId)")
        expect(dns_name in dns_names(leaf), f"{dns_name!r} is not a subjectAltName dNSName of the x5c leaf "
                                            f"{dns_names(leaf)} (OpenID4VP 5.9.3)")
    expect(client_id == url.client_id, f"the request object's client_id {client_id!r} is not the authorization "
                                       f"request's {url.client_id!r}")

    unexpected = set(claims) - REQUEST_MEMBERS
    expect(not unexpected, f"the request object carries {sorted(unexpected)} "
                           f"(CheckForUnexpectedParametersInVpAuthorizationRequest)")
    present = [name for name in FORBIDDEN_MEMBERS if name in claims]
    expect(not present, f"the request object carries {present}")
    expect(claims.get("sub") != client_id, "the request object's sub is its client_id")
    if "iss" in claims:
        expect(claims["iss"] == client_id, f"iss {claims['iss']!r} is not the client_id")
    audience = claims.get("aud")
    audiences = audience if isinstance(audience, list) else [audience]
    wallet_issuer = endpoint.rsplit("/", 1)[0] + "/"
    expect(SELF_ISSUED_V2 in audiences or wallet_issuer in audiences,
           f"aud {audience!r} names neither {SELF_ISSUED_V2} nor the wallet issuer {wallet_issuer}")
    moment = ow.now()
    for name in ("iat", "exp", "nbf"):
        if name in claims:
            expect(isinstance(claims[name], (int, float)) and not isinstance(claims[name], bool),
                   f"{name} is not a number")
    if "exp" in claims:
        expect(moment - 300 < claims["exp"] < moment + 50 * 365 * DAY, f"exp {claims['exp']} is passed or absurd")
    if "iat" in claims:
        expect(moment - DAY <= claims["iat"] <= moment + 300, f"iat {claims['iat']} is more than 5 minutes ahead or a "
                                                              f"day old")
    if wallet_nonce is None:
        expect("wallet_nonce" not in claims,
               "wallet_nonce in an object fetched by GET (EnsureNoWalletNonceInRequestObject)")
    else:
        expect(claims.get("wallet_nonce") == wallet_nonce,
               f"wallet_nonce {claims.get('wallet_nonce')!r} is not the posted one "
               f"(EnsureWalletNonceClaimMatchesPostedValue)")
    expect(claims.get("response_type") == "vp_token", f"response_type is {claims.get('response_type')!r}")
    expect(claims.get("response_mode") == "direct_post.jwt", f"response_mode is {claims.get('response_mode')!r}, not "
                                                             f"direct_post.jwt (HAIP)")
    https_without_fragment(claims.get("response_uri"), "response_uri")
    nonce = claims.get("nonce")
    expect(isinstance(nonce, str) and nonce, "nonce is missing or empty")
    expect(NONCE_CHARS.fullmatch(nonce) is not None, f"nonce {nonce!r} has characters outside [A-Za-z0-9-_.~]")
    expect(NONCE_MIN <= len(nonce) <= NONCE_MAX, f"nonce has {len(nonce)} characters, not {NONCE_MIN}..{NONCE_MAX}")
    bits = shannon_bits(nonce)
    expect(bits > NONCE_MIN_ENTROPY, f"nonce's estimated entropy {bits:.1f} bits is not above {NONCE_MIN_ENTROPY}")
    if "state" in claims:
        expect(isinstance(claims["state"], str) and claims["state"], "state is not a non-empty string")

    metadata = claims.get("client_metadata")
    expect(isinstance(metadata, dict), "client_metadata is missing or not an object")
    extra = set(metadata) - CLIENT_METADATA_MEMBERS
    expect(not extra, f"client_metadata carries {sorted(extra)} besides jwks, vp_formats_supported and "
                      f"encrypted_response_enc_values_supported")
    _check_formats(metadata.get("vp_formats_supported"), wanted_format)
    first, recipient, enc = _check_jwks(metadata, seen_keys, session_keys)
    credentials = _check_dcql(claims.get("dcql_query"), wanted_format)
    return RequestObject(header, claims, leaf, credentials, first, recipient, enc)


# --------------------------------------------------------------------------------------------------
# The presentation, with the modules' defects
# --------------------------------------------------------------------------------------------------

def mdoc_presentation(ro: RequestObject, *, nonce: str, status: dict | None = None) -> str:
    """base64url DeviceResponse: an mDL under ds-p256 with exactly the requested elements, device-signed over the
    OpenID4VPHandover transcript (client_id with its prefix, `nonce`, keys[0]'s thumbprint, response_uri);
    `status` is the MSO's status entry."""
    query = ro.credentials[0]
    transcript = ow.redirect_transcript(ro.claims["client_id"], nonce, ow.jwk_thumbprint(ro.jwk), ro.response_uri)
    if status is None:
        return b64url(ow.device_response(query.doctype, query.claims, transcript, "oidf-verifier-suite"))
    unknown = [e for els in query.claims.values() for e in els if e not in ow.VALUES]
    expect(not unknown, f"this test wallet holds no value for {unknown}")
    spec = g.DocSpec("oidf-verifier-suite/status", ds="ds-p256", transcript=transcript, doc_type=query.doctype,
                     elements=[(e, ow.VALUES[e]) for e in query.claims.get(g.MDL_NS, {})], status=status,
                     device_auth="signature")
    document, _ = g.issue_document(spec, w.issuer())
    return b64url(g.device_response([document]))


def jwt_parts(token: str) -> tuple[dict, dict, bytes]:
    header, payload, signature = token.split(".")
    return (json.loads(b64url_strict(header, "header")), json.loads(b64url_strict(payload, "payload")),
            b64url_strict(signature, "signature"))


def xor_signature(token: str, mask: int = 0x5A) -> str:
    """The same JWS with every signature byte XOR `mask` (header and payload unchanged)."""
    head, body, signature = token.split(".")
    return f"{head}.{body}." + b64url(bytes(b ^ mask for b in b64url_strict(signature, "signature")))


def resign_credential(jwt: str, change: Callable[[dict], None]) -> str:
    """The issuer JWT with its payload changed by `change` and signed again by the test issuer."""
    header, payload, _ = jwt_parts(jwt)
    change(payload)
    return ow.es256_jws(header, payload, ow.sdjwt_issuer().key)


def kb_jwt(prefix: str, *, nonce: str, aud: str, iat: int | None = None, sd_hash: str | None = None) -> str:
    """A KB-JWT ({alg: ES256, typ: kb+jwt}; {iat, aud, nonce, sd_hash}) by the holder key over `prefix` (the
    presentation up to and including its last "~")."""
    claims = {"iat": ow.now() if iat is None else iat, "aud": aud, "nonce": nonce,
              "sd_hash": sd_hash if sd_hash is not None else ow.sd_digest(prefix)}
    return ow.es256_jws({"alg": "ES256", "typ": ow.KB_TYP}, claims, ow.holder_key())


def sdjwt_presentation(ro: RequestObject, defect: str | None = None, status: dict | None = None) -> str:
    """<issuer JWT>~<disclosures of the requested claims>~<KB-JWT> with at most one defect (see MODULES)."""
    query = ro.credentials[0]
    client_id, nonce = ro.claims["client_id"], ro.nonce
    issued = ow.issue_sd_jwt_vc()
    jwt = issued.jwt
    if status is not None:
        jwt = resign_credential(jwt, lambda p: p.__setitem__("status", status))
    if defect == "minimal-cnf":
        def minimal(payload: dict) -> None:
            payload["cnf"] = {"jwk": {k: payload["cnf"]["jwk"][k] for k in ("kty", "crv", "x", "y")}}
        jwt = resign_credential(jwt, minimal)
    if defect == "issuer-signature":
        jwt = xor_signature(jwt)
    disclosures = [issued.disclosures[path] for path in ow.select_disclosures(issued.model, query.paths)]
    prefix = jwt + "~" + "".join(d + "~" for d in disclosures)
    options: dict[str, Any] = {"nonce": nonce, "aud": client_id}
    if defect == "sd-hash":
        options["sd_hash"] = ow.sd_digest(prefix) + "INVALID"
    elif defect == "kb-nonce":
        options["nonce"] = nonce + "INVALID"
    elif defect == "kb-aud":
        options["aud"] = client_id + "INVALID"
    elif defect == "iat-past":
        options["iat"] = ow.now() - 365 * DAY
    elif defect == "iat-future":
        options["iat"] = ow.now() + 365 * DAY
    binding = kb_jwt(prefix, **options)
    if defect == "kb-signature":
        binding = xor_signature(binding)
    return prefix + binding


def random_alnum(count: int = 16) -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(count))


def suite_jwe(recipient: dict, payload: bytes, enc: str, *, apu: str | None = None, apv: str | None = None) -> str:
    """Compact JWE as the suite encrypts the response: ECDH-ES (direct) with a fresh P-256 epk, Concat KDF with apu
    and apv (base64url of random 16-character alphanumeric strings), AES-GCM; protected header {alg, enc, cty: json,
    kid, epk, apu, apv}."""
    apu_raw = (apu if apu is not None else random_alnum()).encode("ascii")
    apv_raw = (apv if apv is not None else random_alnum()).encode("ascii")
    ephemeral = ec.generate_private_key(ec.SECP256R1())
    z = ephemeral.exchange(ec.ECDH(), ow.jwk_public_key(recipient))
    numbers = ephemeral.public_key().public_numbers()
    header: dict[str, Any] = {"alg": "ECDH-ES", "enc": enc, "cty": "json"}
    if recipient.get("kid"):
        header["kid"] = recipient["kid"]
    header["epk"] = {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
                     "y": b64url(numbers.y.to_bytes(32, "big"))}
    header["apu"], header["apv"] = b64url(apu_raw), b64url(apv_raw)
    protected = b64url(json.dumps(header, separators=(",", ":")).encode())
    cek = ow.concat_kdf(z, enc, ow.CONTENT_ENCRYPTIONS[enc], apu_raw, apv_raw)
    iv = secrets.token_bytes(12)
    sealed = AESGCM(cek).encrypt(iv, payload, protected.encode("ascii"))
    return ".".join([protected, "", b64url(iv), b64url(sealed[:-16]), b64url(sealed[-16:])])


# --------------------------------------------------------------------------------------------------
# Status lists served by this process
# --------------------------------------------------------------------------------------------------

class StatusServer:
    """A threaded HTTP server on 127.0.0.1:port serving registered lists (path -> (content type, body)); anything else
    404. Records every request (path, Accept)."""

    def __init__(self, port: int) -> None:
        self.lists: dict[str, tuple[str, bytes]] = {}
        self.hits: list[dict] = []
        lock = threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                with lock:
                    outer.hits.append({"path": self.path, "accept": self.headers.get("Accept")})
                    entry = outer.lists.get(self.path)
                if entry is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                content_type, body = entry
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def reserve(self, name: str) -> str:
        """A fresh URI on this server (a list must name its own URI in sub before it is served)."""
        return f"http://127.0.0.1:{self.port}/oidf/{secrets.token_urlsafe(12)}/{name}"

    def serve(self, uri: str, content_type: str, body: bytes) -> None:
        self.lists[urllib.parse.urlsplit(uri).path] = (content_type, body)

    def hits_for(self, uri: str) -> list[dict]:
        path = urllib.parse.urlsplit(uri).path
        return [h for h in self.hits if h["path"] == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _load_signer(paths: tuple[Path, Path]) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    cert = x509.load_pem_x509_certificate(paths[0].read_bytes())
    key = serialization.load_pem_private_key(paths[1].read_bytes(), None)
    return cert, key


def token_status_list_jwt(uri: str, revoked: set[int], *, entries: int = STATUS_LIST_ENTRIES) -> str:
    """A Token Status List JWT (typ statuslist+jwt, ES256, x5c [the SD-JWT VC status signer]) whose entries in
    `revoked` are INVALID (1) and the rest VALID, bits 1, dated by the wallet's clock."""
    cert, key = _load_signer(SDJWT_STATUS_SIGNER)
    header = {"alg": "ES256", "typ": "statuslist+jwt",
              "x5c": [base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode("ascii")]}
    moment = ow.now()
    payload = {"sub": uri, "iat": moment - 60, "exp": moment + DAY, "ttl": 300,
               "status_list": {"bits": 1, "lst": b64url(zlib.compress(
                   sd_jwt_vc.pack({i: 1 for i in revoked}, 1, entries), 9))}}
    return ow.es256_jws(header, payload, key)


def identifier_list_cwt(uri: str, identifiers: list[bytes]) -> bytes:
    """An ISO 18013-5 identifier list: COSE_Sign1 (tag 18) with typ application/identifierlist+cwt and the mdoc status
    signer in the protected x5chain; claims {sub, iat, exp, ttl, 65530: {identifiers: {id: {}}}}, dated by the
    wallet's clock."""
    cert, key = _load_signer(MDOC_STATUS_SIGNER)
    moment = ow.now()
    claims = {2: uri, 6: moment - 60, 4: moment + DAY, 65534: 300,
              65530: {"identifiers": {identifier: {} for identifier in identifiers}}}
    return status_lists.token(claims, key, cert.public_bytes(serialization.Encoding.DER), typ=status_lists.IDLIST_TYP)


# --------------------------------------------------------------------------------------------------
# One module against the service
# --------------------------------------------------------------------------------------------------

@dataclass
class Context:
    client: ow.Client
    endpoint: str
    prefix: str
    dns_name: str
    redirect_uri: str | None
    status_port: int
    seen_keys: set[str] = field(default_factory=set)
    status_server: StatusServer | None = None

    def statuses(self) -> StatusServer:
        if self.status_server is None:
            try:
                self.status_server = StatusServer(self.status_port)
            except OSError as error:
                raise Failure(f"cannot serve status lists on 127.0.0.1:{self.status_port}: {error}") from None
        return self.status_server


def create_request(ctx: Context, fmt: str, method: str | None) -> dict:
    body: dict[str, Any] = {"flow": "cross-device"}
    if fmt == "mdoc":
        body["documents"] = ow.DEFAULT_DOCUMENTS
    else:
        body["dcql_query"] = {"credentials": [ow.PID_QUERY]}
    if method:
        body["requestUriMethod"] = method
    if ctx.redirect_uri:
        body["redirectUri"] = ctx.redirect_uri
    reply = ctx.client.post_json("/v1/oid4vp/requests", body)
    if reply.status != 201 or not isinstance(reply.body, dict):
        raise reply.fail("POST /v1/oid4vp/requests (cross-device) did not answer 201")
    expect(isinstance(reply.body.get("sessionId"), str) and reply.body["sessionId"], "sessionId is missing")
    ow.check_expires_at(reply.body.get("expiresAt"))
    return reply.body


def fetch_request_object(ctx: Context, url: AuthorizationRequest, post: bool) -> tuple[str, str | None, dict]:
    """GET (as the suite's HTTP client) or POST wallet_nonce (as CreateWalletNonce + PostToRequestUri...). Returns
    (body, the wallet_nonce posted or None, facts)."""
    if post:
        wallet_nonce = b64url(secrets.token_bytes(32))
        form = urllib.parse.urlencode({"wallet_nonce": wallet_nonce}).encode()
        reply = ctx.client.send("POST", url.request_uri, form, "application/x-www-form-urlencoded", auth=False,
                                accept="application/oauth-authz-req+jwt")
    else:
        wallet_nonce = None
        reply = ctx.client.send("GET", url.request_uri, auth=False, accept=SUITE_GET_ACCEPT)
    if reply.status != 200:
        raise reply.fail(f"{'POST' if post else 'GET'} request_uri did not answer 200 (the suite stops)")
    expect(media_type(reply.content_type) == "application/oauth-authz-req+jwt",
           f"request_uri answered Content-Type {reply.content_type!r}, not application/oauth-authz-req+jwt")
    return reply.text.strip(), wallet_nonce, {"method": "POST" if post else "GET", "status": reply.status,
                                               "contentType": reply.content_type}


def post_response(ctx: Context, ro: RequestObject, vp_token: dict) -> tuple[dict, str | None]:
    """response=<JWE> to response_uri; checks 200 application/json {} or {redirect_uri}. Returns (facts,
    response_code from the redirect or None)."""
    payload: dict[str, Any] = {}
    if "state" in ro.claims:
        payload["state"] = ro.claims["state"]
    payload["vp_token"] = vp_token
    jwe = suite_jwe(ro.recipient, json.dumps(payload, separators=(",", ":")).encode(), ro.enc)
    form = urllib.parse.urlencode({"response": jwe}).encode()
    reply = ctx.client.send("POST", ro.response_uri, form, "application/x-www-form-urlencoded", auth=False,
                            accept="application/json")
    facts = {"responseStatus": reply.status,
             "responseBody": reply.body if isinstance(reply.body, dict) else reply.text[:200]}
    if reply.status != 200:
        raise reply.fail("the response_uri POST did not answer 200 (EnsureHttpStatusCodeIs200)")
    expect(media_type(reply.content_type) == "application/json",
           f"the response_uri answered Content-Type {reply.content_type!r}, not application/json "
           f"(EnsureContentTypeJson)")
    body = ow.strict_json(reply.text, "the response_uri answer")
    expect(isinstance(body, dict) and set(body) <= {"redirect_uri"},
           f"the response_uri answer {reply.text[:200]!r} is neither {{}} nor {{\"redirect_uri\": ...}} "
           f"(ValidateDirectPostResponse)")
    response_code = None
    if "redirect_uri" in body:
        redirect = body["redirect_uri"]
        expect(isinstance(redirect, str) and redirect, "redirect_uri is not a non-empty string "
                                                       "(ValidateDirectPostResponseRedirectUriWhenPresent)")
        fragment = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(redirect).fragment))
        response_code = fragment.get("response_code")
        if ctx.redirect_uri:
            expect(redirect.startswith(ctx.redirect_uri + "#") and response_code,
                   f"redirect_uri {redirect!r} is not {ctx.redirect_uri}#response_code=...")
    else:
        expect(ctx.redirect_uri is None, "no redirect_uri although the request named one (HAIP: required; "
                                         "VP1FinalEnsureDirectPostResponseHasRedirectUriForHaip)")
    return facts, response_code


def read_result(ctx: Context, session_id: str, response_code: str | None) -> w.Reply:
    query = {"wait": str(RESULT_WAIT)}
    if response_code:
        query["response_code"] = response_code
    return ctx.client.send("GET", f"/v1/oid4vp/sessions/{urllib.parse.quote(session_id, safe='')}/result?"
                                  + urllib.parse.urlencode(query))


def as_session(made: dict, ro: RequestObject) -> ow.Session:
    """oid4vp_wallet's view of the session, for its report checks."""
    return ow.Session(made["sessionId"], "cross-device", ow.ORIGIN, True, "direct_post.jwt", ro.claims,
                      ro.claims["client_id"], ro.nonce, ro.credentials, ro.jwk, [ro.enc], ro.response_uri, ro.leaf)


def run_flow(ctx: Context, module: Module, fmt: str, facts: dict) -> dict:
    """One cross-device presentation of `fmt` with the module's defect; fills and returns `facts` (as far as it got
    when it fails)."""
    facts["format"] = FORMATS[fmt]
    made = create_request(ctx, fmt, "post" if module.fetch == "post" else None)
    url = check_authorization_request(made.get("authorizationRequest"), ctx.endpoint)
    facts |= {"sessionId": made["sessionId"], "clientId": url.client_id, "requestUriMethod": url.method}
    post = module.fetch == "post"
    if post:
        expect(url.method == "post", "the authorization request lacks request_uri_method=post: the suite SKIPS "
                                     "request-uri-method-post")
    session_keys: set[str] = set()
    fetches = [fetch_request_object(ctx, url, post)]
    if module.fetch == "twice":
        fetches.append(fetch_request_object(ctx, url, False))
    objects = []
    for text, wallet_nonce, _ in fetches:
        objects.append(check_request_object(text, url=url, prefix=ctx.prefix, dns_name=ctx.dns_name,
                                            root=ctx.client.root, wanted_format=FORMATS[fmt],
                                            wallet_nonce=wallet_nonce, endpoint=ctx.endpoint,
                                            seen_keys=ctx.seen_keys, session_keys=session_keys))
    ctx.seen_keys |= session_keys
    ro = objects[-1]  # the last fetch is the one the suite answers
    facts["fetches"] = [f for _, _, f in fetches]
    if module.fetch == "twice":
        facts["sameObject"] = objects[0].claims == objects[1].claims
    facts |= {"enc": ro.enc, "kid": ro.recipient.get("kid"), "nonceLength": len(ro.nonce)}

    status_uri = None
    status_entry = None
    if module.status == "status_list":
        index = secrets.randbelow(STATUS_LIST_ENTRIES)
        server = ctx.statuses()
        status_uri = server.reserve("statuslist.jwt")
        server.serve(status_uri, "application/statuslist+jwt", token_status_list_jwt(status_uri, {index}).encode())
        status_entry = {"status_list": {"idx": index, "uri": status_uri}}
        facts["statusList"] = {"idx": index, "uri": status_uri}
    elif module.status == "identifier_list":
        identifier = secrets.token_bytes(16)
        server = ctx.statuses()
        status_uri = server.reserve("identifiers.cwt")
        others = [secrets.token_bytes(16) for _ in range(3)]
        server.serve(status_uri, "application/identifierlist+cwt",
                     identifier_list_cwt(status_uri, others + [identifier]))
        status_entry = {"identifier_list": {"id": identifier, "uri": status_uri}}
        facts["identifierList"] = {"id": identifier.hex(), "uri": status_uri}
    if module.status == "none":
        ctx.statuses()  # served, so that a fetch it should not make would be seen

    query = ro.credentials[0]
    if fmt == "mdoc":
        nonce = ro.nonce + ("INVALID" if module.defect == "transcript-nonce" else "")
        presentation = mdoc_presentation(ro, nonce=nonce, status=status_entry)
    else:
        presentation = sdjwt_presentation(ro, module.defect, status_entry)
    hits_before = len(ctx.status_server.hits) if ctx.status_server else 0
    posted, response_code = post_response(ctx, ro, {query.id: [presentation]})
    facts |= posted

    result = read_result(ctx, made["sessionId"], response_code)
    body = result.body if isinstance(result.body, dict) else {}
    facts |= {"resultStatus": result.status, "verified": body.get("verified"), "code": body.get("code")}
    documents = body.get("documents") if isinstance(body.get("documents"), list) else []
    document = documents[0] if documents and isinstance(documents[0], dict) else {}
    if module.code is None:
        ow.expect_verified(result, as_session(made, ro))
    else:
        if result.status != 422 or body.get("verified") is not False:
            raise result.fail(f"expected 422 not verified with {module.code}")
        if body.get("code") != module.code:
            raise result.fail(f"expected code {module.code}, got {body.get('code')!r}")
        check = w.check_of(document, module.check)
        facts["check"] = {"id": module.check} | {k: check.get(k) for k in ("outcome", "code") if k in check}
        if check.get("outcome") != "failed" or check.get("code", module.code) != module.code:
            raise result.fail(f"check {module.check} is {check or 'absent'}, not failed with {module.code}")
        if "claims" in document:
            raise result.fail("a failed report carries claims")
    status_check = {"mdoc": "mso.status", "sdjwt": "sdjwt.status"}[fmt]
    if module.status is not None:
        got = w.check_of(document, status_check)
        facts["statusCheck"] = {"id": status_check} | {k: got.get(k) for k in ("outcome", "code") if k in got}
    if module.status == "none":
        expect(facts["statusCheck"].get("outcome") == "notApplicable",
               f"{status_check} is {facts['statusCheck']}, not notApplicable")
        fetched = ctx.status_server.hits[hits_before:] if ctx.status_server else []
        expect(not fetched, f"verifierd fetched {fetched} for a credential without status")
    elif status_uri is not None:
        hits = ctx.status_server.hits_for(status_uri)
        facts["statusFetches"] = hits
        expect(hits, f"verifierd never fetched {status_uri}: the verdict cannot be the list's")
    return facts


def run_module(ctx: Context, module: Module, facts: dict) -> dict:
    if module.format == "both":
        facts["flows"] = {}
        for fmt in ("mdoc", "sdjwt"):
            facts["flows"][fmt] = {}
            run_flow(ctx, module, fmt, facts["flows"][fmt])
        return facts
    return run_flow(ctx, module, module.format, facts)


def describe(module: Module, facts: dict) -> str:
    if module.format == "both":
        return ("mdoc and SD-JWT VC without status verified; "
                + ", ".join(f"{f['statusCheck']['id']} {f['statusCheck'].get('outcome')}"
                            for f in facts["flows"].values())
                + "; no list fetched")
    how = (f"{facts['format']} via request_uri {'+'.join(f['method'] for f in facts['fetches'])}, "
           f"client_id {facts['clientId'].split(':', 1)[0]}, JWE {facts['enc']}; response_uri "
           f"{facts['responseStatus']} {json.dumps(facts['responseBody'])}; result {facts['resultStatus']}")
    if module.code is None:
        return how + " verified"
    return how + f" {facts['code']} ({module.check} failed)"


# --------------------------------------------------------------------------------------------------
# Self-test (no service)
# --------------------------------------------------------------------------------------------------

def self_test() -> int:
    import joserfc.jwe
    from joserfc.jwk import ECKey

    # OpenID4VP 1.0 B.2.6.1 (the suite's unit test uses the same example).
    jwk = {"kty": "EC", "crv": "P-256", "x": "DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0",
           "y": "XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc", "use": "enc", "alg": "ECDH-ES", "kid": "1"}
    transcript = ow.redirect_transcript("x509_san_dns:example.com", "exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA",
                                        ow.jwk_thumbprint(jwk), "https://example.com/response")
    assert transcript.hex() == ("83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d9524"
                                "0d254b046b11b68013722aad38ac"), transcript.hex()

    # The suite-style JWE opens with oid4vp_wallet's decrypter and with joserfc, for both encs.
    key = ec.generate_private_key(ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    recipient = {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
                 "y": b64url(numbers.y.to_bytes(32, "big")), "kid": "k1", "use": "enc", "alg": "ECDH-ES"}
    private_jwk = ECKey.import_key(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                    serialization.NoEncryption()))
    for enc in HAIP_ENCS:
        jwe = suite_jwe(recipient, b'{"vp_token":{"a":["b"]}}', enc)
        header, plaintext = ow.jwe_decrypt(jwe, key)
        assert plaintext == b'{"vp_token":{"a":["b"]}}' and header["cty"] == "json" and header["kid"] == "k1"
        assert len(b64url_strict(header["apu"], "apu")) == 16 and header["apu"] != header["apv"]
        opened = joserfc.jwe.decrypt_compact(jwe, private_jwk, algorithms=["ECDH-ES", enc])
        assert opened.plaintext == plaintext, enc

    # Shannon estimate: a 43-character random base64url nonce passes, a repetitive one does not.
    assert shannon_bits(b64url(secrets.token_bytes(32))) > NONCE_MIN_ENTROPY
    assert shannon_bits("a" * 43) == 0.0 and shannon_bits("ab" * 21) < NONCE_MIN_ENTROPY

    # A request object signed here (demo-like chain made on the fly) passes the checks, and each broken claim fails.
    root, root_key, leaf, leaf_key = g.reader_auth_chain("oidf-verifier-suite-self-test", "2024-01-01T00:00:00Z",
                                                         "2124-01-01T00:00:00Z")
    leaf_der = leaf.public_bytes(serialization.Encoding.DER)
    client_id = ow.x509_hash_client_id(leaf_der)
    endpoint = "https://suite.example/test/a/x/authorize"
    claims = {"client_id": client_id, "response_type": "vp_token", "response_mode": "direct_post.jwt",
              "nonce": b64url(secrets.token_bytes(32)),
              "dcql_query": {"credentials": [ow.MDL_QUERY]},
              "client_metadata": {"jwks": {"keys": [recipient]},
                                  "encrypted_response_enc_values_supported": list(HAIP_ENCS),
                                  "vp_formats_supported": {"mso_mdoc": {"issuerauth_alg_values": [-7],
                                                                        "deviceauth_alg_values": [-7]}}},
              "response_uri": "https://verifier.example/r/1", "aud": SELF_ISSUED_V2}
    header = {"alg": "ES256", "typ": REQUEST_TYP, "x5c": [base64.b64encode(leaf_der).decode()]}
    url = AuthorizationRequest(client_id, "https://verifier.example/ro/1", None)

    def judge(changed: dict, wallet_nonce: str | None = None, seen: set[str] | None = None) -> RequestObject:
        return check_request_object(ow.es256_jws(header, changed, leaf_key), url=url, prefix="x509_hash",
                                    dns_name="", root=root, wanted_format=ow.MDOC_FORMAT, wallet_nonce=wallet_nonce,
                                    endpoint=endpoint, seen_keys=seen or set(), session_keys=set())

    ro = judge(claims)
    broken = {
        "aud": dict(claims, aud="https://other.example"), "nonce": dict(claims, nonce="short"),
        "nonce-chars": dict(claims, nonce="a+" * 10), "mode": dict(claims, response_mode="direct_post"),
        "state-less-extra": dict(claims, presentation_definition={}), "td": dict(claims, transaction_data=["x"]),
        "wallet_nonce": dict(claims, wallet_nonce="abc"),
        "http": dict(claims, response_uri="http://verifier.example/r"),
        "client_id": dict(claims, client_id="x509_hash:AAAA"),
        "metadata": dict(claims, client_metadata=dict(claims["client_metadata"], logo_uri="https://x")),
        "one-enc": dict(claims, client_metadata=dict(claims["client_metadata"],
                                                     encrypted_response_enc_values_supported=["A128GCM"])),
        "two-credentials": dict(claims, dcql_query={"credentials": [ow.MDL_QUERY, dict(ow.MDL_QUERY, id="b")]}),
        "format": dict(claims, dcql_query={"credentials": [ow.PID_QUERY]}),
    }
    for name, changed in broken.items():
        try:
            judge(changed)
        except Failure:
            continue
        raise AssertionError(f"the request-object check accepted {name}")
    judge(dict(claims, wallet_nonce="abc"), wallet_nonce="abc")
    try:
        judge(claims, seen={b64url(ow.jwk_thumbprint(recipient))})
        raise AssertionError("a reused key was accepted")
    except Failure:
        pass
    try:
        check_authorization_request(f"{endpoint}?client_id=a&request_uri=https%3A%2F%2Fv.example%2Fr&state=x", endpoint)
        raise AssertionError("an extra outer parameter was accepted")
    except Failure:
        pass
    assert check_authorization_request(f"{endpoint}?client_id=a&request_uri=https%3A%2F%2Fv.example%2Fr"
                                       f"&request_uri_method=post", endpoint).method == "post"

    # Each SD-JWT defect changes exactly what it says (checked with sd_jwt_vc's independent verifier where it applies).
    sd_claims = dict(claims, dcql_query={"credentials": [ow.PID_QUERY]})
    sd_claims["client_metadata"] = dict(claims["client_metadata"], vp_formats_supported={
        "dc+sd-jwt": {"sd-jwt_alg_values": ["ES256"], "kb-jwt_alg_values": ["ES256"]}})
    sd_ro = check_request_object(ow.es256_jws(header, sd_claims, leaf_key), url=url, prefix="x509_hash", dns_name="",
                                 root=root, wanted_format=ow.SDJWT_FORMAT, wallet_nonce=None, endpoint=endpoint,
                                 seen_keys=set(), session_keys=set())
    issuer_pub = ow.sdjwt_issuer().cert.public_key()
    holder_pub = ow.holder_key().public_key()
    for defect in (None, "minimal-cnf", "kb-signature", "issuer-signature", "sd-hash", "kb-nonce", "kb-aud",
                   "iat-past", "iat-future"):
        text = sdjwt_presentation(sd_ro, defect)
        *front, binding = text.split("~")
        prefix = "~".join(front) + "~"
        issuer_jwt = front[0]
        h, p, s = binding.split(".")
        kb = json.loads(b64url_strict(p, "kb"))
        kb_ok = g.ecdsa_verify_raw(holder_pub, b64url_strict(s, "sig"), f"{h}.{p}".encode(), hashes.SHA256())
        ih, ip, isig = issuer_jwt.split(".")
        issuer_ok = g.ecdsa_verify_raw(issuer_pub, b64url_strict(isig, "sig"), f"{ih}.{ip}".encode(), hashes.SHA256())
        want = {"kb-signature": (False, True), "issuer-signature": (True, False)}.get(defect, (True, True))
        assert (kb_ok, issuer_ok) == want, (defect, kb_ok, issuer_ok)
        assert (kb["sd_hash"] == ow.sd_digest(prefix)) == (defect != "sd-hash"), defect
        assert (kb["nonce"] == sd_ro.nonce) == (defect != "kb-nonce"), defect
        assert (kb["aud"] == client_id) == (defect != "kb-aud"), defect
        assert abs(kb["iat"] - ow.now()) < 60 or defect in ("iat-past", "iat-future"), defect
        if defect == "minimal-cnf":
            assert set(json.loads(b64url_strict(ip, "payload"))["cnf"]["jwk"]) == {"kty", "crv", "x", "y"}

    # The mdoc defect: the device signature is over the transcript of nonce + "INVALID".
    good = cbor2.loads(b64url_strict(mdoc_presentation(ro, nonce=ro.nonce), "dr"))
    bad = cbor2.loads(b64url_strict(mdoc_presentation(ro, nonce=ro.nonce + "INVALID"), "dr"))
    assert good["documents"][0]["issuerSigned"] == bad["documents"][0]["issuerSigned"]
    assert good["documents"][0]["deviceSigned"] != bad["documents"][0]["deviceSigned"]

    # The status tokens: what they say, their signers under the anchors verifierd judges them by.
    uri = "http://127.0.0.1:1/oidf/x/statuslist.jwt"
    token = token_status_list_jwt(uri, {5})
    th, tp, ts = token.split(".")
    signer_cert, _ = _load_signer(SDJWT_STATUS_SIGNER)
    assert g.ecdsa_verify_raw(signer_cert.public_key(), b64url_strict(ts, "sig"), f"{th}.{tp}".encode(),
                              hashes.SHA256())
    signer_cert.verify_directly_issued_by(x509.load_pem_x509_certificate(
        (TV / "sdjwt" / "pki" / "issuer-ca.pem").read_bytes()))
    bits = zlib.decompress(b64url_strict(json.loads(b64url_strict(tp, "p"))["status_list"]["lst"], "lst"))
    assert [(bits[i // 8] >> (i % 8)) & 1 for i in range(16)] == [1 if i == 5 else 0 for i in range(16)]
    identifier = b"\x01\x02"
    cwt = identifier_list_cwt("http://127.0.0.1:1/oidf/x/identifiers.cwt", [identifier])
    iaca = x509.load_pem_x509_certificate((TV / "pki" / "iaca-p256.pem").read_bytes())
    ds = x509.load_pem_x509_certificate((TV / "pki" / "ds-p256.pem").read_bytes())
    verdict = status_lists.evaluate(cwt, "identifier", "http://127.0.0.1:1/oidf/x/identifiers.cwt", None, identifier,
                                    iaca, ds, now_dt())
    assert verdict == ("failed", "STATUS_REVOKED"), verdict
    assert status_lists.evaluate(cwt, "identifier", "http://127.0.0.1:1/oidf/x/identifiers.cwt", None, b"\x03",
                                 iaca, ds, now_dt()) == ("passed", None)
    print("self-test: transcript (B.2.6.1), suite JWE (oid4vp_wallet + joserfc, A128GCM/A256GCM), nonce entropy, "
          f"request-object checks ({len(broken) + 3} refusals), {9} SD-JWT defects, the mdoc transcript defect, "
          "status list JWT and identifier list CWT: ok")
    return 0


# --------------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     allow_abbrev=False)
    parser.add_argument("--base-url", help="where verifierd listens, e.g. http://127.0.0.1:8080")
    parser.add_argument("--public-base-url", help="verifierd's oid4vp.publicBaseUrl, mapped onto --base-url")
    parser.add_argument("--token", default=ow.DEMO_INTEGRATOR_TOKEN, help="the integrator bearer token")
    parser.add_argument("--reader-root", type=Path, help="the root the request object's x5c must chain to")
    parser.add_argument("--authorization-endpoint",
                        help="the suite's authorization endpoint (oid4vp.walletAuthorizationEndpoint)")
    parser.add_argument("--module", help="a module name, several separated by commas, or all: "
                                         + ", ".join(MODULES))
    parser.add_argument("--client-id-prefix", choices=("x509_hash", "x509_san_dns"), default="x509_hash")
    parser.add_argument("--client-id-dns-name", default="verifier.example",
                        help="x509_san_dns: the DNS name the suite is configured with (client.client_id)")
    parser.add_argument("--now", type=int, help="the wallet's clock, seconds since the epoch (default: real time)")
    parser.add_argument("--status-port", type=int, default=18616,
                        help="the loopback port the status modules serve their lists on (default 18616)")
    parser.add_argument("--redirect-uri", help="sent as redirectUri; the response_uri answer must then carry "
                                               "redirect_uri (the HAIP plan's rule) and its response_code is "
                                               "given to the result route")
    parser.add_argument("--self-test", action="store_true", help="check this script's own parts, without a service")
    args = parser.parse_args(argv)
    if args.now is not None:
        ow._now = args.now
    if args.self_test:
        return self_test()
    missing = [name for name in ("base_url", "reader_root", "authorization_endpoint", "module")
               if getattr(args, name) is None]
    if missing:
        parser.error("required: " + ", ".join("--" + m.replace("_", "-") for m in missing))
    names = list(MODULES) if args.module == "all" else [n.strip() for n in args.module.split(",") if n.strip()]
    unknown = [n for n in names if n not in MODULES]
    if unknown or not names:
        parser.error(f"unknown module(s) {unknown}; known: {', '.join(MODULES)}")
    if not 0 < args.status_port < 65536:
        parser.error("--status-port must be 1..65535")
    endpoint = args.authorization_endpoint
    try:
        https_without_fragment(endpoint, "--authorization-endpoint")
    except Failure as error:
        parser.error(str(error))
    expect("?" not in endpoint, "--authorization-endpoint has a query")
    root = x509.load_pem_x509_certificate(args.reader_root.read_bytes())
    client = ow.Client(args.base_url, root, args.token, public_base_url=args.public_base_url)
    ctx = Context(client, endpoint, args.client_id_prefix, args.client_id_dns_name, args.redirect_uri,
                  args.status_port)
    passed = failed = 0
    try:
        for name in names:
            module = MODULES[name]
            line: dict[str, Any] = {"module": name, "suiteModule": MODULE_PREFIX + name.removesuffix("-mdoc")
                                    .removesuffix("-sdjwt") if module.suite else None}
            facts: dict[str, Any] = {}
            try:
                run_module(ctx, module, facts)
                line |= {"ok": True, "detail": describe(module, facts)} | facts
            except Failure as error:
                line |= {"ok": False, "detail": str(error)} | facts | {"status": error.status, "code": error.code}
            except Exception as error:  # noqa: BLE001  (a bug or an unexpected answer: reported, not raised)
                line |= {"ok": False, "detail": f"{type(error).__name__}: {error}"} | facts | {
                    "trace": traceback.format_exc(limit=4).splitlines()[-3:]}
            if line["ok"]:
                passed += 1
            else:
                failed += 1
            print(json.dumps(line, default=str), flush=True)
    finally:
        if ctx.status_server is not None:
            ctx.status_server.close()
    print(f"{passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
