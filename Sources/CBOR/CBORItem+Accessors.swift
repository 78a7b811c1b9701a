extension CBORItem {
    /// The unsigned integer, if the item is one.
    public var unsignedValue: UInt64? {
        if case .unsigned(let n) = content { return n }
        return nil
    }

    /// The integer, if the item is one that fits in `Int64`.
    public var intValue: Int64? {
        switch content {
        case .unsigned(let n): return n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }

    public var textValue: String? {
        if case .text(let s) = content { return s }
        return nil
    }

    /// The byte string's content, as a slice of the decoder's input.
    public var bytesValue: ArraySlice<UInt8>? {
        if case .bytes(let b) = content { return b }
        return nil
    }

    public var arrayValue: [CBORItem]? {
        if case .array(let a) = content { return a }
        return nil
    }

    public var mapValue: [Pair]? {
        if case .map(let m) = content { return m }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = content { return b }
        return nil
    }

    public var isNull: Bool {
        if case .null = content { return true }
        return false
    }

    /// The tag number and tagged item, if the item is a tag.
    public var tagged: (tag: UInt64, item: CBORItem)? {
        if case .tagged(let tag, let item) = content { return (tag, item) }
        return nil
    }

    /// The value of the map entry whose key is the text `key`.
    public subscript(key: String) -> CBORItem? {
        guard case .map(let pairs) = content else { return nil }
        return pairs.first { $0.key.textValue == key }?.value
    }

    /// The value of the map entry whose key is the integer `key`.
    public subscript(intKey key: Int64) -> CBORItem? {
        guard case .map(let pairs) = content else { return nil }
        return pairs.first { $0.key.intValue == key }?.value
    }

    /// The kind with an indefinite article ("an integer", "a map"), for error messages.
    public var kindWithArticle: String {
        let kind = kindDescription
        return (kind.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + kind
    }

    /// A short name of the item's major kind, for error messages.
    public var kindDescription: String {
        switch content {
        case .unsigned, .negative: return "integer"
        case .bytes: return "byte string"
        case .text: return "text string"
        case .array: return "array"
        case .map: return "map"
        case .tagged(let tag, _): return "tag \(tag)"
        case .simple: return "simple value"
        case .bool: return "boolean"
        case .null: return "null"
        case .undefined: return "undefined"
        case .float: return "float"
        }
    }
}
