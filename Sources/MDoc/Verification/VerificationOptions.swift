import Foundation

/// How strictly the ISO 18013-5 Annex B certificate profile is applied.
public enum ProfileCheckMode: String, Sendable, Codable {
    /// Violations are reported as warnings; the document can still verify.
    case warn
    /// Violations fail the document.
    case enforce
}

/// Inputs to one verification besides the response itself. The clock is always a parameter, never read inside.
public struct VerificationOptions: Sendable {
    /// The instant at which validity periods are judged.
    public var verificationTime: Date
    /// Tolerance for MSO validFrom/validUntil, in seconds.
    public var clockSkew: TimeInterval
    /// Default profile mode for every anchor.
    public var profileChecks: ProfileCheckMode
    /// Per-anchor profile mode, by the anchor's lowercase hex SHA-256.
    public var profileChecksByAnchor: [String: ProfileCheckMode]
    /// The reader's ephemeral private key, needed to check a device MAC.
    public var readerKey: ReaderKey?

    public init(verificationTime: Date, clockSkew: TimeInterval = 300, profileChecks: ProfileCheckMode = .warn,
                profileChecksByAnchor: [String: ProfileCheckMode] = [:], readerKey: ReaderKey? = nil) {
        self.verificationTime = verificationTime
        self.clockSkew = clockSkew
        self.profileChecks = profileChecks
        self.profileChecksByAnchor = profileChecksByAnchor
        self.readerKey = readerKey
    }
}
