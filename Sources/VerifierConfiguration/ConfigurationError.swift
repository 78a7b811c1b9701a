/// A configuration problem that stops start-up: which key, and why. The process exits with code 78 (EX_CONFIG).
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The configuration key, e.g. `apple.encryptionKeys[0]`.
    public let key: String
    public let reason: String

    public init(key: String, _ reason: String) {
        self.key = key
        self.reason = reason
    }

    public var description: String { "configuration error: \(key): \(reason)" }

    /// sysexits.h EX_CONFIG.
    public static let exitCode: Int32 = 78
}
