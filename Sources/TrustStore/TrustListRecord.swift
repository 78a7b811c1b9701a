import Foundation

/// The VICAL in force for one source: what was imported, and when.
public struct TrustListRecord: Sendable, Hashable, Codable {
    /// `vicalIssueID`; a later import must not go below it.
    public var issueID: UInt64?
    public var provider: String
    public var date: Date
    public var nextUpdate: Date?
    public var importedAt: Date
    /// Anchors the list contributed (distinct certificates).
    public var anchorCount: Int
    /// Lowercase hex SHA-256 of the VICAL bytes.
    public var sha256: String

    public init(issueID: UInt64?, provider: String, date: Date, nextUpdate: Date?, importedAt: Date,
                anchorCount: Int, sha256: String) {
        self.issueID = issueID
        self.provider = provider
        self.date = date
        self.nextUpdate = nextUpdate
        self.importedAt = importedAt
        self.anchorCount = anchorCount
        self.sha256 = sha256
    }
}
