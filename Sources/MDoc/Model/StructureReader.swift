import CBOR

/// Typed reads of map entries that fail with the structure's name and the offset.
struct StructureReader {
    let item: CBORItem
    let name: String

    init(_ item: CBORItem, _ name: String) throws(MDocDecodingError) {
        guard item.isMap else {
            throw MDocDecodingError("\(name) is \(item.kindWithArticle), expected a map", offset: item.offset)
        }
        self.item = item
        self.name = name
    }

    func optional(_ key: String) -> CBORItem? { item[key] }

    func required(_ key: String) throws(MDocDecodingError) -> CBORItem {
        guard let value = item[key] else {
            throw MDocDecodingError("\(name) has no \"\(key)\"", offset: item.offset)
        }
        return value
    }

    func text(_ key: String) throws(MDocDecodingError) -> String {
        let value = try required(key)
        guard let text = value.textValue else { throw mistyped(key, value, "a text string") }
        return text
    }

    func bytes(_ key: String) throws(MDocDecodingError) -> ArraySlice<UInt8> {
        let value = try required(key)
        guard let bytes = value.bytesValue else { throw mistyped(key, value, "a byte string") }
        return bytes
    }

    func unsigned(_ key: String) throws(MDocDecodingError) -> UInt64 {
        let value = try required(key)
        guard let n = value.unsignedValue else { throw mistyped(key, value, "an unsigned integer") }
        return n
    }

    func array(_ key: String) throws(MDocDecodingError) -> [CBORItem] {
        let value = try required(key)
        guard let array = value.arrayValue else { throw mistyped(key, value, "an array") }
        return array
    }

    func map(_ key: String) throws(MDocDecodingError) -> [CBORItem.Pair] {
        let value = try required(key)
        guard let map = value.mapValue else { throw mistyped(key, value, "a map") }
        return map
    }

    func mistyped(_ key: String, _ value: CBORItem, _ expected: String) -> MDocDecodingError {
        MDocDecodingError("\(name).\(key) is \(value.kindWithArticle), expected \(expected)", offset: value.offset)
    }
}
