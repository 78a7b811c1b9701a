/// A trust set with a version number, as a shared store holds it.
public struct VersionedTrustSet: Sendable {
    /// Increases by one with every committed change, the same on every replica.
    public let version: Int
    public let set: TrustSet

    public init(version: Int, set: TrustSet) {
        self.version = version
        self.set = set
    }
}

/// Who changed the trust set and why, stored with the version a change commits.
public struct TrustChangeAudit: Sendable {
    public let actor: String
    public let action: String
    public let requestID: String?
    public let fingerprints: [String]

    public init(actor: String, action: String, requestID: String?, fingerprints: [String]) {
        self.actor = actor
        self.action = action
        self.requestID = requestID
        self.fingerprints = fingerprints
    }
}

/// A trust set that several processes share (a database): changes are transactional and versioned, and every
/// process reads the same versions.
public protocol SharedTrustSet: Sendable {
    /// Where the set lives, for messages (never with a password).
    var location: String { get }

    /// The latest committed version.
    func latest() async throws(TrustDirectoryUpdateError<Never>) -> VersionedTrustSet

    /// The latest `limit` changes, newest first, as every process reads them.
    func recentChanges(limit: Int) async throws(TrustDirectoryUpdateError<Never>) -> [TrustChange]

    /// The latest version number only (cheap; for polling).
    func latestVersion() async throws(TrustDirectoryUpdateError<Never>) -> Int

    /// Applies `transform` to the latest version and commits the result as the next version, serialized against
    /// every other writer. Returns the set before the change and the committed version.
    func update<Failure: Error>(_ audit: TrustChangeAudit,
                                _ transform: @escaping @Sendable (TrustSet) throws(Failure) -> TrustSet)
        async throws(TrustDirectoryUpdateError<Failure>) -> (previous: TrustSet, committed: VersionedTrustSet)
}
