/// The result of one decode: every data item as a flat node, in the order its head appears in the input, next to
/// the input the nodes point into.
///
/// One decode makes one tree with one node array, whatever the nesting: no per-item allocation, no per-item
/// reference counting. ``CBORItem`` is a (tree, node index) pair; containers and strings are read from the nodes and
/// the input on demand.
final class CBORTree: Sendable {
    /// One data item. Children follow their container directly; `next` skips a whole subtree.
    struct Node: Sendable {
        enum Kind: UInt8, Sendable {
            case unsigned, negative, bytes, text, array, map, tagged, simple, bool, null, undefined, float
        }

        var kind: Kind
        /// An indefinite-length string, whose content was joined into ``CBORTree/joined``.
        var isJoined: Bool
        /// The integer (unsigned, negative), tag number, element count (array), pair count (map), content length
        /// (bytes, text), simple value, 0 or 1 (bool) or IEEE 754 double bits (float).
        var argument: UInt64
        /// The item's bytes in the input: `start..<end`.
        var start: Int
        var end: Int
        /// Strings only: where the content starts, in the input or (when `isJoined`) in ``CBORTree/joined``.
        var contentStart: Int
        /// Index of the node after this item's subtree: its next sibling.
        var next: Int
    }

    let input: ArraySlice<UInt8>
    let nodes: [Node]
    /// Contents of indefinite-length strings, concatenated.
    let joined: [UInt8]

    init(input: ArraySlice<UInt8>, nodes: [Node], joined: [UInt8]) {
        self.input = input
        self.nodes = nodes
        self.joined = joined
    }

    /// The content of a byte or text string node.
    func content(of node: Node) -> ArraySlice<UInt8> {
        let end = node.contentStart + Int(node.argument)
        return node.isJoined ? joined[node.contentStart..<end] : input[node.contentStart..<end]
    }

    /// The node index of the value whose key `matches` in the map at `index`, walking the entries in place;
    /// nil when the node is not a map or no key matches.
    func valueIndex(inMapAt index: Int, where matches: (Node) -> Bool) -> Int? {
        nodes.withUnsafeBufferPointer { nodes in
            let map = nodes[index]
            guard map.kind == .map else { return nil }
            var position = index + 1
            for _ in 0..<map.argument {
                let key = nodes[position]
                if matches(key) { return key.next }
                position = nodes[key.next].next
            }
            return nil
        }
    }

    /// Whether a text node's content is exactly `text`'s UTF-8.
    func isText(_ node: Node, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard node.kind == .text, Int(node.argument) == text.count else { return false }
        return content(of: node).withUnsafeBufferPointer { bytes in
            for i in 0..<text.count where bytes[i] != text[i] { return false }
            return true
        }
    }
}
