/// Why a certificate was revoked: RFC 5280 §5.3.1 `CRLReason` (value 7 is unused).
public enum CRLReason: Int, Sendable, CaseIterable, Equatable {
    case unspecified = 0
    case keyCompromise = 1
    case cACompromise = 2
    case affiliationChanged = 3
    case superseded = 4
    case cessationOfOperation = 5
    case certificateHold = 6
    case removeFromCRL = 8
    case privilegeWithdrawn = 9
    case aACompromise = 10

    /// The name RFC 5280 gives it.
    public var name: String { String(describing: self) }
}
