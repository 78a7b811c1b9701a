import Foundation

/// One change of the trust set: who made it, what it did, and the version it made. Kept where the set is kept (the
/// trust directory's change log, or the database's version table), so the history survives a restart and reads
/// the same on every replica.
public struct TrustChange: Sendable, Codable, Equatable {
    public let at: Date
    public let actor: String
    /// `add`, `replace`, `remove`, `scope`, `import`, `reload`, `vical-import:<source>`, `directory changed`, `seed`.
    public let action: String
    public let requestID: String?
    public let version: Int
    public let anchorCount: Int
    /// The anchors the change named (added, replaced or removed), lowercase hex SHA-256.
    public let fingerprints: [String]

    public init(at: Date, actor: String, action: String, requestID: String?, version: Int, anchorCount: Int,
                fingerprints: [String]) {
        self.at = at
        self.actor = actor
        self.action = action
        self.requestID = requestID
        self.version = version
        self.anchorCount = anchorCount
        self.fingerprints = fingerprints
    }

    enum CodingKeys: String, CodingKey {
        case at, actor, action, requestID = "requestId", version, anchorCount, fingerprints
    }
}
