import Encodings

/// Why a VICAL was refused. Nothing changes when one is thrown.
public typealias VICALError = CodedFailure<VICALErrorCode>

/// Stable codes of ``VICALError``, for APIs and exit messages.
public enum VICALErrorCode: String, Sendable, CaseIterable {
    /// Not a COSE_Sign1 with a VICAL map inside, or over the size and count limits.
    case malformed = "VICAL_MALFORMED"
    /// The COSE signature does not verify with the x5chain's first certificate.
    case signatureInvalid = "VICAL_SIGNATURE_INVALID"
    /// The x5chain does not lead to the signer anchor configured for the source.
    case signerUntrusted = "VICAL_SIGNER_UNTRUSTED"
    /// A certificate of the signer chain is outside its validity at the verification time.
    case signerExpired = "VICAL_SIGNER_EXPIRED"
    /// The signer certificate may not sign VICALs (extended key usage 1.0.18013.5.1.8, key usage).
    case signerNotAuthorized = "VICAL_SIGNER_NOT_AUTHORIZED"
    /// `date` lies in the future.
    case notYetValid = "VICAL_NOT_YET_VALID"
    /// `nextUpdate` has passed.
    case stale = "VICAL_STALE"
    /// `vicalIssueID` (or `date`) is lower than the list in force, or missing while the list in force has one:
    /// a rollback.
    case rollback = "VICAL_ROLLBACK"
    /// Same `vicalIssueID` as the list in force, different content.
    case issueIDReused = "VICAL_ISSUE_ID_REUSED"
    /// No entry could be used as a trust anchor.
    case noUsableEntry = "VICAL_NO_USABLE_ENTRY"
}
