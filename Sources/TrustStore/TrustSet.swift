/// The trust set as stored: anchors with their metadata, and the VICAL in force for each source.
public struct TrustSet: Sendable {
    /// At most one entry per certificate and source.
    public var anchors: [TrustAnchor]
    /// Keyed by source name (`aamva`, without the `vical:` prefix).
    public var lists: [String: TrustListRecord]

    public init(anchors: [TrustAnchor], lists: [String: TrustListRecord] = [:]) {
        self.anchors = anchors
        self.lists = lists
    }

    /// Whether `other` trusts exactly the same: the same certificates from the same sources with the same metadata
    /// (scope, VICAL details) and the same VICALs in force. Order and file names do not count.
    public func hasSameContent(as other: TrustSet) -> Bool {
        guard anchors.count == other.anchors.count, lists == other.lists else { return false }
        struct Entry: Hashable {
            let sha256: String
            let metadata: TrustAnchorMetadata
        }
        return Set(anchors.map { Entry(sha256: $0.sha256, metadata: $0.metadata) })
            == Set(other.anchors.map { Entry(sha256: $0.sha256, metadata: $0.metadata) })
    }

    /// Merges entries for the same certificate from the same source (the same file twice, a certificate listed
    /// twice in a VICAL) into one whose docTypes are the union, keeping the first one's place and details.
    public func normalized() -> TrustSet {
        TrustSet(anchors: Self.merge(anchors, by: { $0 }), lists: lists)
    }

    /// Merges anchors with the same `key` into the first of them, whose docTypes become the union of theirs.
    static func merge<Key: Hashable>(_ anchors: [TrustAnchor], by key: (TrustAnchor) -> Key) -> [TrustAnchor] {
        var merged: [TrustAnchor] = []
        var index: [Key: Int] = [:]
        for anchor in anchors {
            if let position = index[key(anchor)] {
                merged[position].metadata = merged[position].metadata.mergingScope(with: anchor.metadata)
            } else {
                index[key(anchor)] = merged.count
                merged.append(anchor)
            }
        }
        return merged
    }

    /// The anchors of one source.
    public func anchors(from source: String) -> [TrustAnchor] {
        anchors.filter { $0.metadata.source == source }
    }
}
