extension CBORItem {
    /// The unsigned integer, if the item is one.
    public var unsignedValue: UInt64? {
        let node = node
        return node.kind == .unsigned ? node.argument : nil
    }

    /// The integer, if the item is one that fits in `Int64`.
    public var intValue: Int64? {
        let node = node
        switch node.kind {
        case .unsigned: return node.argument <= UInt64(Int64.max) ? Int64(node.argument) : nil
        case .negative: return node.argument <= UInt64(Int64.max) ? -1 - Int64(node.argument) : nil
        default: return nil
        }
    }

    public var textValue: String? {
        let node = node
        guard node.kind == .text else { return nil }
        return String(decoding: tree.content(of: node), as: UTF8.self)
    }

    /// Whether the item is the text string `text` (compares bytes; makes no string).
    public func isText(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { tree.isText(node, $0) }
    }

    /// The byte string's content, as a slice of the decoder's input.
    public var bytesValue: ArraySlice<UInt8>? {
        let node = node
        return node.kind == .bytes ? tree.content(of: node) : nil
    }

    /// The array's elements (materialized on each call).
    public var arrayValue: [CBORItem]? {
        node.kind == .array ? Array(children) : nil
    }

    /// The map's entries in the order received (materialized on each call).
    public var mapValue: [Pair]? {
        node.kind == .map ? pairs : nil
    }

    /// Whether the item is a map (without materializing its entries).
    public var isMap: Bool { node.kind == .map }

    public var boolValue: Bool? {
        let node = node
        return node.kind == .bool ? node.argument != 0 : nil
    }

    public var isNull: Bool { node.kind == .null }

    /// The tag number and tagged item, if the item is a tag.
    public var tagged: (tag: UInt64, item: CBORItem)? {
        let node = node
        guard node.kind == .tagged else { return nil }
        return (node.argument, CBORItem(tree: tree, index: index + 1))
    }

    /// The value of the map entry whose key is the text `key` (compares bytes; makes no string).
    public subscript(key: String) -> CBORItem? {
        var key = key
        let found = key.withUTF8 { utf8 in tree.valueIndex(inMapAt: index) { tree.isText($0, utf8) } }
        return found.map { CBORItem(tree: tree, index: $0) }
    }

    /// The value of the map entry whose key is the integer `key`.
    public subscript(intKey key: Int64) -> CBORItem? {
        let found = tree.valueIndex(inMapAt: index) { node in
            switch node.kind {
            case .unsigned: return key >= 0 && node.argument == UInt64(key)
            case .negative: return key < 0 && node.argument == UInt64(-1 - key)
            default: return false
            }
        }
        return found.map { CBORItem(tree: tree, index: $0) }
    }

    /// The kind with an indefinite article ("an integer", "a map"), for error messages.
    public var kindWithArticle: String {
        let kind = kindDescription
        return (kind.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + kind
    }

    /// A short name of the item's major kind, for error messages.
    public var kindDescription: String {
        let node = node
        switch node.kind {
        case .unsigned, .negative: return "integer"
        case .bytes: return "byte string"
        case .text: return "text string"
        case .array: return "array"
        case .map: return "map"
        case .tagged: return "tag \(node.argument)"
        case .simple: return "simple value"
        case .bool: return "boolean"
        case .null: return "null"
        case .undefined: return "undefined"
        case .float: return "float"
        }
    }
}

extension CBORItem {
    /// The floating-point value (half, single or double precision, widened to `Double`), if the item is a float.
    public var floatValue: Double? {
        let node = node
        return node.kind == .float ? Double(bitPattern: node.argument) : nil
    }
}
