/// The stable code of a response that failed as a whole, before its documents could be judged (or, for a report of
/// documents, the code of the first failing check). This module's codes are ``VerificationErrorCode``'s (every
/// check's, and those of DeviceResponses, transcripts and encrypted answers); each flow's module declares its own
/// (`AppleWallet`, `Proximity`, `OpenID4VP`), so this module knows none of its clients. The service keeps the one
/// table of all of them.
public struct FailureCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A check's code, or one of this module's response-level codes.
    public init(_ code: VerificationErrorCode) {
        rawValue = code.rawValue
    }

    public var description: String { rawValue }

    // This module's response-level codes.
    public static let deviceResponseMalformed = FailureCode(.deviceResponseMalformed)
    public static let deviceResponseLimitExceeded = FailureCode(.deviceResponseLimitExceeded)
    public static let sessionTranscriptMalformed = FailureCode(.sessionTranscriptMalformed)
    public static let documentsNotReturned = FailureCode(.documentsNotReturned)
    public static let zkCapacityExhausted = FailureCode(.zkCapacityExhausted)
    public static let envelopeMalformed = FailureCode(.envelopeMalformed)
    public static let envelopeUnsupported = FailureCode(.envelopeUnsupported)
    public static let recipientKeyUnknown = FailureCode(.recipientKeyUnknown)
    public static let decryptionFailed = FailureCode(.decryptionFailed)
    /// An answer discloses an element (or a docType) the request did not ask for.
    public static let elementNotRequested = FailureCode(.elementNotRequested)

}

/// Whether a report's failure code (nil when it verified) is one of this module's codes.
public func == (lhs: FailureCode?, rhs: VerificationErrorCode) -> Bool { lhs?.rawValue == rhs.rawValue }
public func != (lhs: FailureCode?, rhs: VerificationErrorCode) -> Bool { lhs?.rawValue != rhs.rawValue }
