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

    public static let empty = TrustSet(anchors: [])

    /// Merges entries for the same certificate from the same source (the same file twice, a certificate listed
    /// twice in a VICAL) into one whose docTypes are the union, keeping the first one's place and details.
    public func normalized() -> TrustSet {
        var merged: [TrustAnchor] = []
        var index: [TrustAnchor: Int] = [:]
        for anchor in anchors {
            if let position = index[anchor] {
                merged[position].metadata = merged[position].metadata.mergingScope(with: anchor.metadata)
            } else {
                index[anchor] = merged.count
                merged.append(anchor)
            }
        }
        return TrustSet(anchors: merged, lists: lists)
    }

    /// The anchors of one source.
    public func anchors(from source: String) -> [TrustAnchor] {
        anchors.filter { $0.metadata.source == source }
    }
}
