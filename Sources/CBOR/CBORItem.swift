/// A decoded CBOR data item together with the exact bytes it was decoded from.
///
/// `encoded` is a slice of the decoder's input (no copy); its `startIndex` is the item's offset in that input.
/// Anything that is hashed or signed (tag-24 items, COSE protected headers, transcripts) must use these bytes,
/// never a re-encoding.
///
/// An item is a position in the flat tree its decode produced: copying one costs a single reference count, and
/// text, arrays and maps are read from the input when asked for (``content``, ``arrayValue``, ``mapValue``), while
/// key lookups (`item["docType"]`) compare bytes without making strings.
public struct CBORItem: Sendable {
    /// What the item holds.
    public enum Content: Sendable {
        case unsigned(UInt64)
        /// The integer `-1 - n`.
        case negative(UInt64)
        case bytes(ArraySlice<UInt8>)
        case text(String)
        case array([CBORItem])
        case map([Pair])
        indirect case tagged(UInt64, CBORItem)
        case simple(UInt8)
        case bool(Bool)
        case null
        case undefined
        case float(Double)
    }

    /// A decoded map entry, in the order received.
    public struct Pair: Sendable {
        public let key: CBORItem
        public let value: CBORItem
    }

    let tree: CBORTree
    let index: Int

    init(tree: CBORTree, index: Int) {
        self.tree = tree
        self.index = index
    }

    var node: CBORTree.Node { tree.nodes[index] }

    /// The exact bytes of this item as received.
    public var encoded: ArraySlice<UInt8> {
        let node = node
        return tree.input[node.start..<node.end]
    }

    /// Offset of the item's first byte in the decoder's input.
    public var offset: Int { node.start }

    /// What the item holds. Arrays and maps are materialized on each call; prefer the accessors for lookups.
    public var content: Content {
        let node = node
        switch node.kind {
        case .unsigned: return .unsigned(node.argument)
        case .negative: return .negative(node.argument)
        case .bytes: return .bytes(tree.content(of: node))
        case .text: return .text(String(decoding: tree.content(of: node), as: UTF8.self))
        case .array: return .array(Array(children))
        case .map: return .map(pairs)
        case .tagged: return .tagged(node.argument, CBORItem(tree: tree, index: index + 1))
        case .simple: return .simple(UInt8(truncatingIfNeeded: node.argument))
        case .bool: return .bool(node.argument != 0)
        case .null: return .null
        case .undefined: return .undefined
        case .float: return .float(Double(bitPattern: node.argument))
        }
    }

    /// The items directly inside this one: an array's elements, a map's keys and values alternating, a tag's
    /// content; empty for anything else.
    var children: Children {
        let node = node
        let count: Int
        switch node.kind {
        case .array: count = Int(node.argument)
        case .map: count = 2 * Int(node.argument)
        case .tagged: count = 1
        default: count = 0
        }
        return Children(tree: tree, first: index + 1, count: count)
    }

    /// A map's entries, materialized.
    var pairs: [Pair] {
        var result: [Pair] = []
        result.reserveCapacity(Int(node.argument))
        var iterator = children.makeIterator()
        while let key = iterator.next(), let value = iterator.next() {
            result.append(Pair(key: key, value: value))
        }
        return result
    }

    /// Direct children in order, without allocating.
    struct Children: Sequence {
        let tree: CBORTree
        let first: Int
        let count: Int

        var underestimatedCount: Int { count }

        func makeIterator() -> Iterator { Iterator(tree: tree, position: first, remaining: count) }

        struct Iterator: IteratorProtocol {
            let tree: CBORTree
            var position: Int
            var remaining: Int

            mutating func next() -> CBORItem? {
                guard remaining > 0 else { return nil }
                remaining -= 1
                let item = CBORItem(tree: tree, index: position)
                position = tree.nodes[position].next
                return item
            }
        }
    }
}

extension CBORItem {
    /// The item as a plain ``CBOR`` value (drops the byte positions).
    public var value: CBOR {
        switch content {
        case .unsigned(let n): return .unsigned(n)
        case .negative(let n): return .negative(n)
        case .bytes(let b): return .bytes(Array(b))
        case .text(let s): return .text(s)
        case .array(let items): return .array(items.map(\.value))
        case .map(let pairs): return .map(pairs.map { CBOR.Pair($0.key.value, $0.value.value) })
        case .tagged(let tag, let item): return .tagged(tag, item.value)
        case .simple(let v): return .simple(v)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case .undefined: return .undefined
        case .float(let d): return .float(d)
        }
    }

    /// Whether two items are the same data item (used to find duplicate map keys).
    /// Integers compare by value, strings by content, floats by value regardless of precision.
    public func isSameDataItem(as other: CBORItem) -> Bool {
        let a = node, b = other.node
        guard a.kind == b.kind else { return false }
        switch a.kind {
        case .unsigned, .negative, .simple, .bool: return a.argument == b.argument
        case .null, .undefined: return true
        case .float:
            let x = Double(bitPattern: a.argument), y = Double(bitPattern: b.argument)
            return x == y || (x.isNaN && y.isNaN)
        case .bytes, .text: return tree.content(of: a).elementsEqual(other.tree.content(of: b))
        case .tagged, .array, .map:
            guard a.argument == b.argument else { return false }  // tag number, or element / pair count
            return children.elementsEqual(other.children) { $0.isSameDataItem(as: $1) }
        }
    }
}
