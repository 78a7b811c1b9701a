import Encodings

/// Stable error codes of SD-JWT (RFC 9901) processing: the presentation's structure, the issuer-signed JWT's
/// header and signature, the disclosures, and key binding. Part of the public API and of HTTP responses.
public enum SDJWTErrorCode: String, Sendable, CaseIterable, Codable {
    /// The presentation is not `<JWT>~<disclosure>~…~<KB-JWT or nothing>`, or its JWT is not three base64url parts
    /// of strict JSON.
    case malformed = "SDJWT_MALFORMED"
    /// The issuer-signed JWT's `typ` is not the one the credential format requires (`dc+sd-jwt`).
    case typInvalid = "SDJWT_TYP_INVALID"
    /// `alg` is not on the allow-list (ES256): `none`, a MAC or another curve.
    case algorithmUnsupported = "ALGORITHM_UNSUPPORTED"
    /// `crit` names a header parameter this verifier does not process.
    case critUnsupported = "SDJWT_CRIT_UNSUPPORTED"
    case issuerSignatureInvalid = "ISSUER_SIGNATURE_INVALID"
    /// The protected header has no `x5c` (HAIP makes it the issuer's key).
    case x5cMissing = "SDJWT_X5C_MISSING"
    /// A disclosure is not base64url of a UTF-8 JSON array `[salt, name, value]` or `[salt, value]` with a string
    /// salt, or it is used where the other form belongs.
    case disclosureMalformed = "SDJWT_DISCLOSURE_MALFORMED"
    /// A digest appears twice in the payload and disclosures (RFC 9901 7.1 step 4).
    case digestDuplicate = "SDJWT_DIGEST_DUPLICATE"
    /// The same disclosure is sent twice.
    case disclosureDuplicate = "SDJWT_DISCLOSURE_DUPLICATE"
    /// A disclosure no digest refers to (step 5): extra, tampered or re-encoded.
    case disclosureUnreferenced = "SDJWT_DISCLOSURE_UNREFERENCED"
    /// A disclosure names its claim `_sd` or `...`.
    case disclosureNameInvalid = "SDJWT_DISCLOSURE_NAME_INVALID"
    /// A disclosed claim's name is already in its object.
    case claimNameCollision = "SDJWT_CLAIM_NAME_COLLISION"
    /// `_sd_alg` names a hash this verifier does not implement (only `sha-256`).
    case sdAlgorithmUnsupported = "SDJWT_SD_ALG_UNSUPPORTED"
    /// `_sd` is not an array of strings, a `{"...": digest}` element has other members, `_sd_alg` is below the top,
    /// or the payload nests deeper than the limit.
    case payloadMalformed = "SDJWT_PAYLOAD_MALFORMED"
    /// A claim the credential format keeps in the clear (`iss`, `nbf`, `exp`, `cnf`, `vct`, `status`, …) or
    /// something under it came from a disclosure.
    case protectedClaimDisclosed = "SDJWT_PROTECTED_CLAIM_DISCLOSED"
    /// Key binding is required and the presentation ends without a KB-JWT.
    case keyBindingMissing = "SDJWT_KB_MISSING"
    /// Key binding is required and the credential has no `cnf.jwk` to check it with.
    case confirmationKeyMissing = "SDJWT_CNF_MISSING"
    /// The KB-JWT is not a JWT, or lacks `iat`, `nonce`, `aud` or `sd_hash`.
    case keyBindingMalformed = "SDJWT_KB_MALFORMED"
    case keyBindingTypInvalid = "SDJWT_KB_TYP_INVALID"
    /// The KB-JWT is not ES256-signed by the key in `cnf.jwk`.
    case keyBindingSignatureInvalid = "SDJWT_KB_SIGNATURE_INVALID"
    /// `sd_hash` is not the hash of the presentation as received, up to its last `~`.
    case keyBindingHashMismatch = "SDJWT_KB_SD_HASH_MISMATCH"
    case keyBindingNonceMismatch = "SDJWT_KB_NONCE_MISMATCH"
    case keyBindingAudienceMismatch = "SDJWT_KB_AUDIENCE_MISMATCH"
    /// The KB-JWT's `iat` lies outside the window the verifier accepts.
    case keyBindingIssuedAtOutOfWindow = "SDJWT_KB_IAT_OUT_OF_WINDOW"
}

/// A refusal with its stable code and a readable reason (never a claim value).
public typealias SDJWTFailure = CodedFailure<SDJWTErrorCode>
