/// Why a list of trusted entities was refused: a stable code and a readable detail (never a secret). Nothing changes
/// when one is thrown. (The shape of `CodedFailure`, with the codes nested so callers write `LoTEError.Code`.)
public struct LoTEError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    public let detail: String

    /// Stable codes, for APIs and exit messages (the codes of `TestVectors/lote/manifest.json`).
    public enum Code: String, Sendable, CaseIterable {
        /// The JWS signature does not verify with the public key of x5c[0].
        case signatureInvalid = "LOTE_SIGNATURE_INVALID"
        /// x5c[0] is neither a configured list-signer anchor nor certified by one, valid at the verification time.
        case signerUntrusted = "LOTE_SIGNER_UNTRUSTED"
        /// The signer's subject countryName is not `SchemeTerritory`, or its organizationName none of the
        /// `SchemeOperatorName` values.
        case signerNameMismatch = "LOTE_SIGNER_NAME_MISMATCH"
        /// Not a compact JWS, or its protected header is unusable (algorithm, x5c, crit, claimed signing time).
        case headerInvalid = "LOTE_HEADER_INVALID"
        /// The payload is not a strictly valid LoTE JSON document.
        case malformed = "LOTE_MALFORMED"
        /// `LoTEVersionIdentifier` is not 1.
        case versionUnsupported = "LOTE_VERSION_UNSUPPORTED"
        /// `LoTESequenceNumber` is lower than the list in force, or the same with other content.
        case sequenceRegression = "LOTE_SEQUENCE_REGRESSION"
        /// `NextUpdate` has passed.
        case stale = "LOTE_STALE"
        /// `ListIssueDateTime` lies in the future.
        case notYetValid = "LOTE_NOT_YET_VALID"
        /// `NextUpdate` is null: the scheme has ceased (TS 119 602 6.3.15) and the list grants nothing.
        case closed = "LOTE_CLOSED"
        /// The list does not follow the EU profile of the kind it is configured as.
        case profileViolation = "LOTE_PROFILE_VIOLATION"
        /// Over a size or count limit.
        case tooLarge = "LOTE_TOO_LARGE"
    }

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
