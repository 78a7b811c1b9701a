/// A decoded CBOR data item together with the exact bytes it was decoded from.
///
/// `encoded` is a slice of the decoder's input (no copy); its `startIndex` is the item's offset in that input.
/// Anything that is hashed or signed (tag-24 items, COSE protected headers, transcripts) must use these bytes,
/// never a re-encoding.
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

    public let content: Content
    /// The exact bytes of this item as received.
    public let encoded: ArraySlice<UInt8>

    /// Offset of the item's first byte in the decoder's input.
    public var offset: Int { encoded.startIndex }

    public init(content: Content, encoded: ArraySlice<UInt8>) {
        self.content = content
        self.encoded = encoded
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
        switch (content, other.content) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a.elementsEqual(b)
        case (.text(let a), .text(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isSameDataItem(as: $1) }
        case (.map(let a), .map(let b)):
            return a.count == b.count
                && zip(a, b).allSatisfy { $0.key.isSameDataItem(as: $1.key) && $0.value.isSameDataItem(as: $1.value) }
        case (.tagged(let ta, let a), .tagged(let tb, let b)): return ta == tb && a.isSameDataItem(as: b)
        case (.simple(let a), .simple(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null), (.undefined, .undefined): return true
        case (.float(let a), .float(let b)): return a == b || (a.isNaN && b.isNaN)
        default: return false
        }
    }
}
