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
