"""OpenID4VP 1.0 transaction data for the TEST-ONLY wallet (oid4vp_wallet.py): the wallet's reading of a request's
`transaction_data` (§5.1, §8.4), its key-binding claims (Appendix B.3.3.1, the SD-JWT VC profile), and the test
entries the txdata-* scenarios send. No HTTP and nothing of verifierd here; oid4vp_wallet.py imports it.

The rules, as this wallet applies them:

* Every `transaction_data` string is unpadded base64url of a JSON object. The hash a KB-JWT carries is
  base64url(HASH(ASCII bytes of that string exactly as received)): the string is never decoded and re-encoded first.
* An entry is addressed to the credential queries its `credential_ids` name. When it names several, the wallet
  approves it with one presented credential only (§5.1): here the first one named that the answer presents.
* A KB-JWT carries `transaction_data_hashes` for the entries its credential approves, in request order, and
  `transaction_data_hashes_alg` (one string) when any of those entries has `transaction_data_hashes_alg`. The
  algorithm is the first one, in the order the first entry lists it, that every approved entry offers (an entry
  without the member offers sha-256 only). Without any such member the hashes are SHA-256 and no algorithm is named.

The wallet-side checks of a request (`read_request`): the member is a non-empty array of strings; each string is
unpadded, canonical base64url of compact JSON (no whitespace: verifierd writes it that way) holding an object
without repeated member names, with a non-empty string `type`, `credential_ids` a non-empty array of distinct
strings each naming a dc+sd-jwt credential query of this request that requires holder binding (B.3.3), and
`transaction_data_hashes_alg`, when present, a non-empty array of strings. `check_sent` then holds each entry to
what the scenario asked for: the same members, values and member order.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable

# OpenID4VP B.3.3.1: names from the IANA "Named Information Hash Algorithm" registry; the ones this wallet computes.
HASHES: dict[str, Callable[[bytes], Any]] = {"sha-256": hashlib.sha256, "sha-384": hashlib.sha384,
                                              "sha-512": hashlib.sha512}
DEFAULT_ALG = "sha-256"

# The types the tests' service accepts (oid4vp.transactionDataTypes) and the ones it must refuse.
TYPE_PAYMENT = "urn:eudi:sca:payment:1"  # EUDI TS12 §4.3.1, schema on `payload`
TYPE_QES_AUTHORIZATION = "qes_authorization"  # EUDI / Potential "D3.1" remote-signing type, no schema configured
TYPE_CSC_QES = "https://cloudsignatureconsortium.org/2025/qes"  # CSC data model bindings, no schema configured
TYPE_NOT_CONFIGURED = "urn:eudi:sca:login_risk_transaction:1"  # a TS12 type the tests' service does not list

SDJWT_FORMAT = "dc+sd-jwt"


class TransactionDataError(Exception):
    """The request's transaction data is not what this wallet can or may answer (OpenID4VP 8.5
    invalid_transaction_data), or is not what the scenario sent."""


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise TransactionDataError(message)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


_B64URL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def b64url_decode_strict(text: Any, name: str) -> bytes:
    """Unpadded, canonical base64url (no '=', no '+' or '/', zero trailing bits)."""
    _expect(isinstance(text, str) and text != "", f"{name} is not a non-empty string")
    bad = set(text) - _B64URL
    _expect(not bad, f"{name} holds characters outside unpadded base64url: {sorted(bad)}")
    _expect(len(text) % 4 != 1, f"{name} has an impossible base64url length {len(text)}")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    _expect(b64url(data) == text, f"{name} is not canonical base64url")
    return data


def compact_bytes(value: Any) -> bytes:
    """Compact JSON as verifierd's writer makes it for the values the tests use: no whitespace, members in the order
    given, UTF-8 (not \\u-escaped), '/' not escaped. (verifierd also escapes DEL, U+2028 and U+2029, which Python does
    not: the test entries avoid them, and encode() refuses them.)"""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def encode(value: Any) -> str:
    """The transaction_data string of an object: base64url (unpadded) of its compact JSON."""
    raw = compact_bytes(value)
    _expect(not any(c in raw.decode("utf-8") for c in ("\x7f", "\u2028", "\u2029")),
            "a test entry holds DEL, U+2028 or U+2029, which verifierd's writer escapes and Python's does not")
    return b64url(raw)


def digest(text: str, alg: str = DEFAULT_ALG) -> str:
    """base64url(HASH(ASCII of the transaction_data string as received)) (B.3.3.1: not decoded first)."""
    _expect(alg in HASHES, f"this wallet cannot compute {alg!r}")
    return b64url(HASHES[alg](text.encode("ascii")).digest())


def ordered(value: Any) -> Any:
    """A JSON value with each object as its list of (name, value) pairs: equality then includes member order."""
    if isinstance(value, dict):
        return [(k, ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [ordered(v) for v in value]
    return value


def _strict_object(raw: bytes, name: str) -> dict:
    def pairs(items: list[tuple[str, Any]]) -> dict:
        names = [k for k, _ in items]
        repeated = sorted({k for k in names if names.count(k) > 1})
        _expect(not repeated, f"{name} repeats member(s) {repeated}")
        return dict(items)
    try:
        value = json.loads(raw.decode("utf-8"), object_pairs_hook=pairs)
    except (ValueError, UnicodeDecodeError) as error:
        raise TransactionDataError(f"{name} is not UTF-8 JSON: {error}") from None
    _expect(isinstance(value, dict), f"{name} is not a JSON object")
    return value


@dataclass
class Entry:
    """One transaction_data entry as the wallet received it."""
    index: int  # position in the request's transaction_data
    encoded: str  # the string exactly as received: what is hashed
    value: dict  # the decoded object (member order kept)

    @property
    def type(self) -> str:
        return self.value["type"]

    @property
    def credential_ids(self) -> list[str]:
        return self.value["credential_ids"]

    @property
    def algorithms(self) -> list[str] | None:
        """transaction_data_hashes_alg as the entry lists it, or None when absent."""
        return self.value.get("transaction_data_hashes_alg")

    @property
    def offered(self) -> list[str]:
        """What the holder may hash this entry with: its list, or sha-256 alone when it has none."""
        return self.algorithms if self.algorithms is not None else [DEFAULT_ALG]


def read_request(value: Any, queries: dict[str, tuple[str, bool]]) -> list[Entry]:
    """The request object's `transaction_data` member (present), read and checked as the module docstring says.
    `queries` maps each credential query id of the request to (format, requires holder binding)."""
    _expect(isinstance(value, list) and value, "transaction_data is not a non-empty array (OpenID4VP 5.1)")
    entries: list[Entry] = []
    for index, text in enumerate(value):
        name = f"transaction_data[{index}]"
        _expect(isinstance(text, str), f"{name} is not a string")
        raw = b64url_decode_strict(text, name)
        entry = _strict_object(raw, name)
        _expect(compact_bytes(entry) == raw, f"{name} is not compact JSON (whitespace, or escapes verifierd does "
                                             f"not write): {raw[:120]!r}")
        kind = entry.get("type")
        _expect(isinstance(kind, str) and kind, f"{name}.type is not a non-empty string")
        ids = entry.get("credential_ids")
        _expect(isinstance(ids, list) and ids and all(isinstance(i, str) and i for i in ids)
                and len(set(ids)) == len(ids), f"{name}.credential_ids is not a non-empty array of distinct ids")
        for cid in ids:
            _expect(cid in queries, f"{name}.credential_ids names {cid!r}, which is no credential query of the request")
            fmt, binding = queries[cid]
            _expect(fmt == SDJWT_FORMAT, f"{name}.credential_ids names {cid!r}, a {fmt} query: this wallet binds "
                                         f"transaction data in dc+sd-jwt KB-JWTs only")
            _expect(binding, f"{name}.credential_ids names {cid!r}, whose query sets "
                             f"require_cryptographic_holder_binding false (B.3.3: the wallet must reject it)")
        algs = entry.get("transaction_data_hashes_alg")
        if "transaction_data_hashes_alg" in entry:
            _expect(isinstance(algs, list) and algs and all(isinstance(a, str) and a for a in algs),
                    f"{name}.transaction_data_hashes_alg is not a non-empty array of strings (B.3.3.1)")
        entries.append(Entry(index, text, entry))
    return entries


def check_sent(entries: list[Entry], sent: list[dict]) -> None:
    """The request carries exactly the entries the scenario sent: same count and order, each string the base64url of
    the sent object's compact JSON (so the same members, values and member order)."""
    _expect(len(entries) == len(sent), f"the request has {len(entries)} transaction_data entries, the integrator "
                                       f"sent {len(sent)}")
    for entry, wanted in zip(entries, sent):
        _expect(ordered(entry.value) == ordered(wanted),
                f"transaction_data[{entry.index}] decodes to {json.dumps(entry.value)[:200]}, not what was sent "
                f"{json.dumps(wanted)[:200]} (member order included)")
        _expect(entry.encoded == encode(wanted), f"transaction_data[{entry.index}] is not the base64url of the sent "
                                                 f"object's compact JSON")


def approvers(entries: list[Entry], presented: list[str]) -> dict[int, str | None]:
    """Which presented credential approves each entry: the first id it names that the answer presents (None: none)."""
    return {e.index: next((cid for cid in e.credential_ids if cid in presented), None) for e in entries}


def approved_by(entries: list[Entry], credential_id: str, presented: list[str]) -> list[Entry]:
    """The entries the presentation for `credential_id` approves, in request order."""
    chosen = approvers(entries, presented)
    return [e for e in entries if chosen[e.index] == credential_id]


def choose_algorithm(entries: list[Entry]) -> str | None:
    """None when no entry lists algorithms (SHA-256, not named); else the first algorithm of the first entry's offer
    that every entry offers and this wallet computes."""
    if not any(e.algorithms is not None for e in entries):
        return None
    for alg in entries[0].offered:
        if alg in HASHES and all(alg in e.offered for e in entries):
            return alg
    raise TransactionDataError(f"transaction_data {[e.index for e in entries]} offer no common hash algorithm this "
                               f"wallet computes: {[e.offered for e in entries]}")


def kb_claims(entries: list[Entry]) -> dict:
    """The honest KB-JWT claims for the entries one credential approves ({} when it approves none)."""
    if not entries:
        return {}
    alg = choose_algorithm(entries)
    claims: dict[str, Any] = {"transaction_data_hashes": [digest(e.encoded, alg or DEFAULT_ALG) for e in entries]}
    if alg is not None:
        claims["transaction_data_hashes_alg"] = alg
    return claims


def expected_report(entries: list[Entry], objects: bool) -> list[dict]:
    """What verifierd reports in keyBinding.transactionData for an honest approval of `entries`."""
    if not entries:
        return []
    alg = choose_algorithm(entries) or DEFAULT_ALG
    out = []
    for e in entries:
        item: dict[str, Any] = {"index": e.index, "type": e.type, "hashAlgorithm": alg, "hash": digest(e.encoded, alg)}
        if objects:
            item["data"] = e.value
        out.append(item)
    return out


# --------------------------------------------------------------------------------------------------
# The wrong strings a careless wallet hashes (negative scenarios)
# --------------------------------------------------------------------------------------------------

def reencoded_with_spaces(entry: Entry) -> str:
    """The same object re-serialised with Python's default separators (", ", ": ")."""
    return b64url(json.dumps(entry.value, ensure_ascii=False).encode("utf-8"))


def reencoded_reordered(entry: Entry) -> str:
    """The same object, compact, with its top-level members in reverse order."""
    return b64url(compact_bytes(dict(reversed(list(entry.value.items())))))


def decoded_bytes_hash(entry: Entry, alg: str = DEFAULT_ALG) -> str:
    """The hash of the decoded JSON bytes instead of the string (the CSC qesApproval way, wrong here)."""
    return b64url(HASHES[alg](b64url_decode_strict(entry.encoded, "entry")).digest())


# --------------------------------------------------------------------------------------------------
# The test entries (what the scenarios send)
# --------------------------------------------------------------------------------------------------

CONTRACT_DIGEST = base64.b64encode(hashlib.sha256(b"verifierd TEST-ONLY contract, not a real document").digest()).decode()
SHA256_OID = "2.16.840.1.101.3.4.2.1"


def payment_payload(**changes: Any) -> dict:
    """A TS12 urn:eudi:sca:payment:1 payload (§4.3.1) valid under its JSON Schema; `changes` replace or (None) drop
    members."""
    payload: dict[str, Any] = {
        "transaction_id": "8D8AC610-566D-4EF0-9C22-186B2A5ED793",
        "date_time": "2029-12-31T23:55:00+00:00",
        "payee": {"name": "Café Rosé Test Shop", "id": "DE89370400440532013000",
                  "website": "https://shop.example/"},
        "currency": "EUR",
        "amount": 23.58,
    }
    for name, value in changes.items():
        if value is None:
            payload.pop(name, None)
        else:
            payload[name] = value
    return payload


def payment(credential_ids: list[str], algorithms: list[str] | None = None, **payload_changes: Any) -> dict:
    """A TS12 payment confirmation entry: type, credential_ids, transaction_data_hashes_alg (REQUIRED in TS12 §4.2;
    default ["sha-256"]), payload."""
    return {"type": TYPE_PAYMENT, "credential_ids": list(credential_ids),
            "transaction_data_hashes_alg": list(algorithms or ["sha-256"]), "payload": payment_payload(**payload_changes)}


def qes_authorization(credential_ids: list[str], algorithms: list[str] | None = None) -> dict:
    """A `qes_authorization` entry (remote QES authorisation of one document by its digest); without
    transaction_data_hashes_alg unless `algorithms` is given."""
    entry: dict[str, Any] = {"type": TYPE_QES_AUTHORIZATION, "credential_ids": list(credential_ids)}
    if algorithms is not None:
        entry["transaction_data_hashes_alg"] = list(algorithms)
    entry |= {"signatureQualifier": "eu_eidas_qes",
              "documentDigests": [{"label": "Test contract", "hash": CONTRACT_DIGEST, "hashAlgorithmOID": SHA256_OID}],
              "processID": "verifierd-test-process-1"}
    return entry


def csc_qes(credential_ids: list[str]) -> dict:
    """A `https://cloudsignatureconsortium.org/2025/qes` entry (a signature request by reference; not validated by a
    schema in the tests' service)."""
    return {"type": TYPE_CSC_QES, "credential_ids": list(credential_ids), "signatureQualifier": "eu_eidas_qes",
            "signatureRequests": [{"label": "Test contract", "href": "https://shop.example/contract.pdf",
                                   "checksum": {"value": CONTRACT_DIGEST, "algorithmOID": SHA256_OID},
                                   "access": {"type": "public"}}]}
