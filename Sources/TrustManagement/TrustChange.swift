import Foundation

/// One change of the trust set, as kept for the operations console (the log has them all).
public struct TrustChange: Sendable {
    public let at: Date
    public let actor: String
    /// `add`, `replace`, `remove`, `scope`, `reload`, `vical-import:<source>`, `directory changed`.
    public let action: String
    public let requestID: String?
    public let version: Int
    public let anchorCount: Int
    public let fingerprints: [String]
}
