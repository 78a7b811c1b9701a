import Crypto

/// Longfellow's Merkle tree over `leafCount` SHA-256 leaves, stored as a heap (node i has children 2i and 2i + 1,
/// leaf k is node leafCount + k, the root node 1; any leaf count) and its compressed multiproof: for every node on a
/// path from an opened leaf to the root, from the highest index down, the digest of its child off every such path,
/// if it has one, in that order. A proof must be used up exactly.
public enum MerkleMultiproof {
    /// Whether `digests` and the opened `leaves` at `positions` (distinct, each below `leafCount`) give `root`.
    public static func verify(root: [UInt8], leafCount: Int, positions: [Int], leaves: [[UInt8]], digests: [[UInt8]]) -> Bool {
        guard leafCount >= 1, !positions.isEmpty, positions.count == leaves.count, root.count == 32 else { return false }
        var onPath = [Bool](repeating: false, count: 2 * leafCount)
        for position in positions {
            guard (0..<leafCount).contains(position), !onPath[leafCount + position] else { return false }
            onPath[leafCount + position] = true
        }
        for node in stride(from: leafCount - 1, through: 1, by: -1) {
            onPath[node] = onPath[2 * node] || onPath[2 * node + 1]
        }
        var known = [[UInt8]?](repeating: nil, count: 2 * leafCount)
        var next = 0
        for node in stride(from: leafCount - 1, through: 1, by: -1) where onPath[node] {
            let child = onPath[2 * node] ? 2 * node + 1 : 2 * node
            if !onPath[child] {
                guard next < digests.count, digests[next].count == 32 else { return false }
                known[child] = digests[next]
                next += 1
            }
        }
        guard next == digests.count else { return false }
        for (position, leaf) in zip(positions, leaves) {
            guard leaf.count == 32 else { return false }
            known[leafCount + position] = leaf
        }
        for node in stride(from: leafCount - 1, through: 1, by: -1) {
            if let left = known[2 * node], let right = known[2 * node + 1] {
                known[node] = Array(SHA256.hash(data: left + right))
            }
        }
        return known[1] == root
    }

    /// The length of the longest path (leaf to root, both counted) in a tree of `leafCount` leaves: a proof holds at
    /// most this many digests per opened leaf.
    public static func pathLength(leafCount: Int) -> Int {
        var length = 1
        var position = 2 * leafCount - 1
        while position > 1 {
            position >>= 1
            length += 1
        }
        return length
    }
}
