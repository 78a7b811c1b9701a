/// A `Decoder` over a ``FlatJSONObject`` for request types whose fields are strings and booleans (optional or
/// not). It throws the same `DecodingError`s as Foundation's decoder for a missing field, a null and a wrong type;
/// for anything it does not handle (numbers, nested types) it throws ``Unsupported`` and the caller uses
/// Foundation's decoder instead.
public struct FlatJSONDecoder: Decoder {
    public struct Unsupported: Error {}

    let object: FlatJSONObject
    public var codingPath: [any CodingKey] { [] }
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    public init(object: FlatJSONObject) { self.object = object }

    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container<Key>(object: object))
    }

    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }
    public func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Unsupported() }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: FlatJSONObject
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { object.members.compactMap { Key(stringValue: $0.name) } }

        func contains(_ key: Key) -> Bool { object.value(key.stringValue) != nil }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let value = object.value(key.stringValue) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "missing"))
            }
            if case .null = value { return true }
            return false
        }

        private func present(_ key: Key, _ type: Any.Type) throws -> FlatJSONObject.Value {
            guard let value = object.value(key.stringValue) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "missing"))
            }
            if case .null = value {
                throw DecodingError.valueNotFound(type, .init(codingPath: [key], debugDescription: "null"))
            }
            return value
        }

        private func mismatch(_ key: Key, _ type: Any.Type) -> DecodingError {
            .typeMismatch(type, .init(codingPath: [key], debugDescription: "wrong type"))
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            guard case .string(let range, let escaped) = try present(key, type) else { throw mismatch(key, type) }
            guard let text = object.string(range, escaped: escaped) else { throw Unsupported() }
            return text
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            guard case .bool(let value) = try present(key, type) else { throw mismatch(key, type) }
            return value
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw Unsupported() }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw Unsupported() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { throw Unsupported() }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw Unsupported() }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw Unsupported() }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw Unsupported() }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw Unsupported() }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw Unsupported() }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw Unsupported() }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw Unsupported() }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw Unsupported() }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw Unsupported() }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw Unsupported() }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
            throws -> KeyedDecodingContainer<NestedKey> { throw Unsupported() }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Unsupported() }
        func superDecoder() throws -> any Decoder { throw Unsupported() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Unsupported() }
    }
}
