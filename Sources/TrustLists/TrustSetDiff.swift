import TrustStore

/// What replacing the anchors of one source would change, by certificate.
public struct TrustSetDiff: Sendable {
    public let added: [TrustAnchor]
    public let removed: [TrustAnchor]
    public let unchanged: [TrustAnchor]

    /// The difference between the anchors in force for a source and the ones that would replace them.
    public init(current: [TrustAnchor], proposed: [TrustAnchor]) {
        let currentSet = Set(current.map(\.sha256))
        let proposedSet = Set(proposed.map(\.sha256))
        added = proposed.filter { !currentSet.contains($0.sha256) }
        removed = current.filter { !proposedSet.contains($0.sha256) }
        unchanged = proposed.filter { currentSet.contains($0.sha256) }
    }
}
