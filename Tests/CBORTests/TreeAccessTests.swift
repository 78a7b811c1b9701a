import Testing
@testable import CBOR

/// Reads through the flat tree one decode makes: lookups skip whole nested subtrees, joined indefinite-length
/// strings compare by content, and every item keeps the exact bytes and offset it came from.
struct TreeAccessTests {
    // {"a": [1, {"x": 2}, [3, [4]]], "b": {"k": 5}, 1: h'01', (_ "c", "d"): "v"}
    let bytes: [UInt8] = [
        0xa4,
        0x61, 0x61, 0x83, 0x01, 0xa1, 0x61, 0x78, 0x02, 0x82, 0x03, 0x81, 0x04,
        0x61, 0x62, 0xa1, 0x61, 0x6b, 0x05,
        0x01, 0x41, 0x01,
        0x7f, 0x61, 0x63, 0x61, 0x64, 0xff, 0x61, 0x76,
    ]

    @Test func lookupsSkipNestedContainers() throws {
        let item = try CBORDecoder().decode(bytes)
        #expect(item.isMap && item.arrayValue == nil && item.mapValue?.count == 4)
        let a = try #require(item["a"]?.arrayValue)
        #expect(a.count == 3)
        #expect(a[1]["x"]?.intValue == 2)
        #expect(a[2].arrayValue?[1].arrayValue?.first?.intValue == 4)
        #expect(item["b"]?["k"]?.intValue == 5)
        #expect(item[intKey: 1]?.bytesValue.map(Array.init) == [0x01])
        #expect(item["zz"] == nil && item[intKey: 2] == nil && a[0]["a"] == nil)
    }

    @Test func joinedTextKeysMatchByContent() throws {
        let item = try CBORDecoder().decode(bytes)
        #expect(item["cd"]?.textValue == "v")
        let key = try #require(item.mapValue?.last?.key)
        #expect(key.isText("cd") && !key.isText("c") && key.textValue == "cd")
        #expect(Array(key.encoded) == [0x7f, 0x61, 0x63, 0x61, 0x64, 0xff])
    }

    @Test func itemsKeepTheirBytesAndOffsets() throws {
        let item = try CBORDecoder().decode(bytes)
        let b = try #require(item["b"])
        #expect(b.offset == 15 && Array(b.encoded) == [0xa1, 0x61, 0x6b, 0x05])
        #expect(Array(item.encoded) == bytes)
        // An item decoded from an embedded slice points into the outer input.
        let inner = try CBORDecoder().decode(bytes[15..<19])
        #expect(inner.offset == 15 && inner["k"]?.offset == 18)
    }

    @Test func aJoinedKeyDuplicatingADefiniteOneIsRejected() {
        // {(_ "c", "d"): 1, "cd": 2}
        let map: [UInt8] = [0xa2, 0x7f, 0x61, 0x63, 0x61, 0x64, 0xff, 0x01, 0x62, 0x63, 0x64, 0x02]
        #expect(throws: CBORDecodingError(.duplicateMapKey, at: 8)) { try CBORDecoder().decode(map) }
    }

    @Test func contentMaterializesTheSameValues() throws {
        let item = try CBORDecoder().decode(bytes)
        guard case .map(let pairs) = item.content else { Issue.record("not a map"); return }
        #expect(pairs.count == 4)
        #expect(pairs.map { $0.key.value } == [.text("a"), .text("b"), .unsigned(1), .text("cd")])
        #expect(item["a"]?.value == .array([.unsigned(1), .map([CBOR.Pair(.text("x"), .unsigned(2))]),
                                            .array([.unsigned(3), .array([.unsigned(4)])])]))
        #expect(item.isSameDataItem(as: try CBORDecoder().decode(bytes)))
    }
}
