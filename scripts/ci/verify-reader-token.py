#!/usr/bin/env python3
"""Independently verify an Apple Verifier API reader token (ES256 JWT).

Usage:
  verify-reader-token.py TOKEN PUBLIC_KEY_PEM --kid K --iss I --sub S [--ignore-expiry]

TOKEN is the compact JWS, or @FILE to read it from a file. PUBLIC_KEY_PEM is a path
to the SPKI PEM ("BEGIN PUBLIC KEY") registered with Apple Business Register.

Uses PyJWT (with `cryptography`) rather than our own code: checks alg ES256, kid,
typ JWT, exactly the header fields alg/kid/typ, aud apple-identityservices-v1, iss,
sub, integer iat/exp with 0 < exp - iat <= 300, a 64-byte raw r||s signature, and the
ES256 signature against the public key. Exit 0 on success, 1 with a message otherwise.
"""
import argparse
import base64
import json
import sys

AUDIENCE = "apple-identityservices-v1"
MAX_LIFETIME = 300


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def b64url_decode(segment, what):
    if "=" in segment:
        fail(f"{what} segment is padded; base64url must be unpadded")
    try:
        return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except Exception as exc:  # noqa: BLE001
        fail(f"{what} segment is not base64url: {exc}")


def parse_json_object(data, what):
    try:
        value = json.loads(data)
    except ValueError as exc:
        fail(f"{what} is not JSON: {exc}")
    if not isinstance(value, dict):
        fail(f"{what} is not a JSON object")
    return value


def main():
    parser = argparse.ArgumentParser(description="Verify an Apple Verifier API reader token with PyJWT.")
    parser.add_argument("token", help="compact JWS, or @FILE")
    parser.add_argument("public_key_pem", help="path to the SPKI public key PEM")
    parser.add_argument("--kid", required=True)
    parser.add_argument("--iss", required=True)
    parser.add_argument("--sub", required=True)
    parser.add_argument("--ignore-expiry", action="store_true",
                        help="do not reject tokens whose exp is in the past (for fixed test vectors)")
    args = parser.parse_args()

    try:
        import jwt  # PyJWT
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec
    except ImportError as exc:
        fail(f"{exc}; install with: pip install pyjwt cryptography")

    token = args.token
    if token.startswith("@"):
        with open(token[1:], encoding="utf-8") as handle:
            token = handle.read()
    token = token.strip()

    try:
        with open(args.public_key_pem, "rb") as handle:
            public_key = serialization.load_pem_public_key(handle.read())
    except Exception as exc:  # noqa: BLE001
        fail(f"cannot load public key {args.public_key_pem}: {exc}")
    if not isinstance(public_key, ec.EllipticCurvePublicKey) or public_key.curve.name != "secp256r1":
        fail("public key is not a P-256 (secp256r1) EC key")

    parts = token.split(".")
    if len(parts) != 3:
        fail(f"token has {len(parts)} segments, expected 3 (compact JWS)")
    signature = b64url_decode(parts[2], "signature")
    if len(signature) != 64:
        fail(f"signature is {len(signature)} bytes, expected 64-byte raw r||s (not DER)")
    raw_header = parse_json_object(b64url_decode(parts[0], "header"), "header")
    raw_payload = parse_json_object(b64url_decode(parts[1], "payload"), "payload")

    # Header checks (PyJWT's own parser, plus exact field set).
    header = jwt.get_unverified_header(token)
    if header != raw_header:
        fail("header parse mismatch")
    if set(header) != {"alg", "kid", "typ"}:
        fail(f"header fields are {sorted(header)}, expected exactly ['alg', 'kid', 'typ']")
    if header.get("alg") != "ES256":
        fail(f"alg is {header.get('alg')!r}, expected 'ES256'")
    if header.get("typ") != "JWT":
        fail(f"typ is {header.get('typ')!r}, expected 'JWT'")
    if header.get("kid") != args.kid:
        fail(f"kid is {header.get('kid')!r}, expected {args.kid!r}")

    # Signature + registered claims via PyJWT.
    try:
        claims = jwt.decode(
            token,
            public_key,
            algorithms=["ES256"],
            audience=AUDIENCE,
            issuer=args.iss,
            options={
                "require": ["aud", "iss", "sub", "iat", "exp"],
                "verify_signature": True,
                "verify_exp": not args.ignore_expiry,
                "verify_iat": True,
                "verify_aud": True,
                "verify_iss": True,
            },
        )
    except jwt.InvalidSignatureError:
        fail("ES256 signature does not verify against the public key")
    except jwt.PyJWTError as exc:
        fail(f"PyJWT rejected the token: {type(exc).__name__}: {exc}")

    if claims != raw_payload:
        fail("payload parse mismatch")
    if set(claims) != {"aud", "iss", "sub", "iat", "exp"}:
        fail(f"payload fields are {sorted(claims)}, expected exactly aud, iss, sub, iat, exp")
    if claims["aud"] != AUDIENCE:
        fail(f"aud is {claims['aud']!r}, expected {AUDIENCE!r} (a single string)")
    if claims["sub"] != args.sub:
        fail(f"sub is {claims['sub']!r}, expected {args.sub!r}")
    iat, exp = claims["iat"], claims["exp"]
    for name, value in (("iat", iat), ("exp", exp)):
        if type(value) is not int:
            fail(f"{name} is {value!r} ({type(value).__name__}), expected an integer")
    lifetime = exp - iat
    if not 0 < lifetime <= MAX_LIFETIME:
        fail(f"exp - iat is {lifetime}, expected 1..{MAX_LIFETIME}")

    print(f"OK: kid={header['kid']!r} iss={claims['iss']!r} sub={claims['sub']!r} "
          f"iat={iat} exp={exp} lifetime={lifetime}s (PyJWT {jwt.__version__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
