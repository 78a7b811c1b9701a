/// Stable error codes of SD-JWT VC checks beyond SD-JWT's own (``SDJWT/SDJWTErrorCode``) and the codes shared with
/// mdocs for the same findings (`ISSUER_CERTIFICATE_UNTRUSTED`, `STATUS_REVOKED`, `ELEMENT_NOT_REQUESTED`, …).
public enum SDJWTVCErrorCode: String, Sendable, CaseIterable, Codable {
    /// `vct` is missing or not a non-empty string.
    case vctMissing = "SDJWT_VCT_MISSING"
    /// `iss`, `iat`, `nbf`, `exp`, `cnf` or `status` is present but not of its type (a NumericDate, `cnf.jwk` a P-256
    /// public key, `status.status_list` `{idx, uri}`).
    case claimsMalformed = "SDJWT_CLAIMS_MALFORMED"
    case expired = "SDJWT_EXPIRED"
    case notYetValid = "SDJWT_NOT_YET_VALID"
    /// The anchor the issuer chains to is scoped to other `vct` values.
    case issuerNotAuthorizedForVCT = "ISSUER_NOT_AUTHORIZED_FOR_VCT"
    /// Warning: `x5c` carries a copy of a trusted anchor, which HAIP says issuers must not send; it is dropped.
    case x5cContainsAnchor = "SDJWT_X5C_CONTAINS_ANCHOR"
    /// The JWT VC Issuer Metadata of a listed issuer (or its `jwks_uri`) could not be fetched.
    case issuerMetadataUnavailable = "SDJWT_ISSUER_METADATA_UNAVAILABLE"
    /// The JWT VC Issuer Metadata breaks a rule: `issuer` is not `iss`, not exactly one of `jwks` and `jwks_uri`, a
    /// private key member, duplicate JSON names or `kid`s, no EC P-256 signing key.
    case issuerMetadataInvalid = "SDJWT_ISSUER_METADATA_INVALID"
    /// The JWS's `kid` names no key of the issuer's metadata (or names none while the issuer publishes several).
    case issuerKeyNotFound = "SDJWT_ISSUER_KEY_NOT_FOUND"
    /// The credential's `vct` is not among the query's `meta.vct_values`.
    case vctNotRequested = "SDJWT_VCT_NOT_REQUESTED"
    /// A claim the query requires is not in the presentation (no `claim_sets` option is met).
    case claimMissing = "CLAIM_MISSING"
    /// A requested claim is present but its value is not one of the query's `values`.
    case claimValueMismatch = "CLAIM_VALUE_MISMATCH"
    /// `transaction_data_hashes` is not a non-empty array of base64url strings.
    case transactionDataHashesMalformed = "TRANSACTION_DATA_HASHES_MALFORMED"
    /// `transaction_data_hashes_alg` is missing though the request offered algorithms, is not a string, or names an
    /// algorithm an approved entry did not offer.
    case transactionDataHashAlgorithmNotOffered = "TRANSACTION_DATA_HASH_ALG_NOT_OFFERED"
    /// A hash is the digest of no transaction data string addressed to this credential (extra, re-encoded, other
    /// digest), or the KB-JWT approves transaction data when none was addressed to it.
    case transactionDataHashUnknown = "TRANSACTION_DATA_HASH_UNKNOWN"
    /// One entry's hash appears twice.
    case transactionDataHashDuplicate = "TRANSACTION_DATA_HASH_DUPLICATE"
    /// The hashes are not in the order of the request's `transaction_data`.
    case transactionDataHashOrder = "TRANSACTION_DATA_HASH_ORDER"
    /// An entry addressed to this credential is approved by no presented credential.
    case transactionDataHashMissing = "TRANSACTION_DATA_HASH_MISSING"
    /// An entry naming several credentials was approved by more than one (OpenID4VP 1.0 §5.1: only one may).
    case transactionDataApprovedTwice = "TRANSACTION_DATA_APPROVED_TWICE"
}
