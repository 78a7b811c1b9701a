import CBOR
import SessionStore
import Testing

/// A stored payload is read by member name, and one of another version or with other members is refused.
struct StoredPayloadTests {
    static let bytes = StoredPayload.encode(version: 1, [("a", .text("x")), ("b", .null), ("c", .bytes([1, 2]))])

    @Test func membersAreReadByName() throws {
        let payload = try #require(StoredPayload(Self.bytes, version: 1, members: ["a", "b", "c"]))
        #expect(payload["a"]?.textValue == "x")
        #expect(payload.optionalText("b") == .some(nil))
        #expect(payload.optionalText("a") == .some("x"))
        #expect(payload.optionalText("c") == nil, "bytes are neither text nor null")
        #expect(payload["c"]?.bytesValue.map(Array.init) == [1, 2])
    }

    @Test func anotherVersionOrOtherMembersAreRefused() {
        #expect(StoredPayload(Self.bytes, version: 2, members: ["a", "b", "c"]) == nil)
        #expect(StoredPayload(Self.bytes, version: 1, members: ["a", "b"]) == nil)
        #expect(StoredPayload(Self.bytes, version: 1, members: ["a", "b", "c", "d"]) == nil)
        #expect(StoredPayload(CBOREncoder().encode([.text("a"), .text("x")]), version: 1, members: ["a"]) == nil, "a positional array")
        let twice = CBOREncoder().encode(.map([.init("v", 1), .init("a", "x"), .init("a", "y")]))
        #expect(StoredPayload(twice, version: 1, members: ["a"]) == nil, "a name twice")
    }
}
