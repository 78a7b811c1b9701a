/// Why a CRL could not say whether a certificate is revoked: the stable codes of an undetermined outcome.
public enum CRLProblem: String, Sendable, CaseIterable, Equatable {
    /// Nothing usable came from the distribution point (refused by the destination policy or scheme, unreachable,
    /// not a 200 answer).
    case unavailable = "CRL_UNAVAILABLE"
    /// Over the configured size (`crl.maxBytes`); not processed.
    case tooLarge = "CRL_TOO_LARGE"
    /// Not one DER CertificateList, or one that breaks the RFC 5280 CRL profile (version 1 with extensions, no
    /// nextUpdate, no CRLNumber or a critical one, removeFromCRL in a base CRL, a time that is not whole seconds UTC).
    case malformed = "CRL_MALFORMED"
    /// The CRL's issuer name, or its AuthorityKeyIdentifier, is not the certificate's issuer's.
    case issuerMismatch = "CRL_ISSUER_MISMATCH"
    /// The issuer certificate's keyUsage does not allow cRLSign.
    case issuerNotAuthorized = "CRL_ISSUER_NOT_AUTHORIZED"
    /// The signature does not verify with the issuer certificate's key (or uses an algorithm not accepted).
    case signatureInvalid = "CRL_SIGNATURE_INVALID"
    /// Processing this CRL needs what verifierd does not do: an unknown critical CRL or entry extension, a delta
    /// CRL, an indirect CRL, a distribution point partitioned by reasons.
    case unsupported = "CRL_UNSUPPORTED"
    /// Its issuingDistributionPoint does not cover the certificate (CA or user certificates only, attribute
    /// certificates, another distribution point).
    case scopeMismatch = "CRL_SCOPE_MISMATCH"
    /// thisUpdate is after the verification time.
    case notYetValid = "CRL_NOT_YET_VALID"
    /// The verification time is past nextUpdate (and past the configured stale grace).
    case expired = "CRL_EXPIRED"
}
