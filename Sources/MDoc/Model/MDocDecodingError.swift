import CBOR

/// Why bytes could not be read as an ISO 18013-5 structure: what was expected, and where.
public struct MDocDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    /// Offset in the outermost input, when known.
    public let offset: Int?

    public init(_ reason: String, offset: Int?) {
        self.reason = reason
        self.offset = offset
    }

    init(_ error: CBORDecodingError, context: String) {
        self.init("\(context): \(error)", offset: error.offset)
    }

    public var description: String {
        offset.map { "\(reason) (offset \($0))" } ?? reason
    }
}

/// Typed reads of map entries that fail with the structure's name and the offset.
struct StructureReader {
    let item: CBORItem
    let name: String

    init(_ item: CBORItem, _ name: String) throws(MDocDecodingError) {
        guard item.mapValue != nil else {
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

/// Tag-24 embedded CBOR (`#6.24(bstr .cbor T)`): the exact bytes of the whole tagged item and the decoded content.
public struct EmbeddedCBOR: Sendable {
    /// The tag, bstr head and content exactly as received: what digests and signatures cover.
    public let taggedBytes: ArraySlice<UInt8>
    /// The decoded content of the byte string.
    public let content: CBORItem

    init(_ item: CBORItem, name: String, decoder: CBORDecoder) throws(MDocDecodingError) {
        guard let (tag, inner) = item.tagged, tag == CBORTag.encodedCBOR, let bytes = inner.bytesValue else {
            throw MDocDecodingError("\(name) is not a tag-24 byte string", offset: item.offset)
        }
        do {
            content = try decoder.decode(bytes)
        } catch {
            throw MDocDecodingError(error, context: "\(name) does not hold one CBOR item")
        }
        taggedBytes = item.encoded
    }
}
