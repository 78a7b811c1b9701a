import Testing
import TestSupport
@testable import CBOR

/// RFC 8949 Appendix A: every example decodes to its value, and re-encodes to the same bytes where the example
/// is in preferred serialization.
struct AppendixATests {
    struct Example: Sendable, CustomTestStringConvertible {
        let hex: String
        let value: CBOR
        let preferred: Bool
        var testDescription: String { hex }
        init(_ hex: String, _ value: CBOR, preferred: Bool = true) {
            self.hex = hex
            self.value = value
            self.preferred = preferred
        }
    }

    static let examples: [Example] = [
        Example("00", 0), Example("01", 1), Example("0a", 10), Example("17", 23), Example("1818", 24),
        Example("1819", 25), Example("1864", 100), Example("1903e8", 1000), Example("1a000f4240", 1_000_000),
        Example("1b000000e8d4a51000", 1_000_000_000_000),
        Example("1bffffffffffffffff", .unsigned(UInt64.max)),
        Example("c249010000000000000000", .tagged(2, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        Example("3bffffffffffffffff", .negative(UInt64.max)),
        Example("c349010000000000000000", .tagged(3, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        Example("20", -1), Example("29", -10), Example("3863", -100), Example("3903e7", -1000),
        Example("f90000", .float(0.0)), Example("f98000", .float(-0.0)), Example("f93c00", .float(1.0)),
        Example("fb3ff199999999999a", .float(1.1)), Example("f93e00", .float(1.5)),
        Example("f97bff", .float(65504.0)), Example("fa47c35000", .float(100000.0)),
        Example("fa7f7fffff", .float(3.4028234663852886e+38)), Example("fb7e37e43c8800759c", .float(1.0e+300)),
        Example("f90001", .float(5.960464477539063e-8)), Example("f90400", .float(0.00006103515625)),
        Example("f9c400", .float(-4.0)), Example("fbc010666666666666", .float(-4.1)),
        Example("f97c00", .float(.infinity)), Example("f97e00", .float(.nan)), Example("f9fc00", .float(-.infinity)),
        Example("fa7f800000", .float(.infinity), preferred: false),
        Example("fa7fc00000", .float(.nan), preferred: false),
        Example("faff800000", .float(-.infinity), preferred: false),
        Example("fb7ff0000000000000", .float(.infinity), preferred: false),
        Example("fb7ff8000000000000", .float(.nan), preferred: false),
        Example("fbfff0000000000000", .float(-.infinity), preferred: false),
        Example("f4", false), Example("f5", true), Example("f6", nil), Example("f7", .undefined),
        Example("f0", .simple(16)), Example("f8ff", .simple(255)),
        Example("c074323031332d30332d32315432303a30343a30305a", .tagged(0, "2013-03-21T20:04:00Z")),
        Example("c11a514b67b0", .tagged(1, 1_363_896_240)),
        Example("c1fb41d452d9ec200000", .tagged(1, .float(1_363_896_240.5))),
        Example("d74401020304", .tagged(23, .bytes([1, 2, 3, 4]))),
        Example("d818456449455446", .tagged(24, .bytes([0x64, 0x49, 0x45, 0x54, 0x46]))),
        Example("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, "http://www.example.com")),
        Example("40", .bytes([])), Example("4401020304", .bytes([1, 2, 3, 4])),
        Example("60", ""), Example("6161", "a"), Example("6449455446", "IETF"), Example("62225c", "\"\\"),
        Example("62c3bc", "\u{00fc}"), Example("63e6b0b4", "\u{6c34}"), Example("64f0908591", "\u{10151}"),
        Example("80", []), Example("83010203", [1, 2, 3]), Example("8301820203820405", [1, [2, 3], [4, 5]]),
        Example("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { .int($0) })),
        Example("a0", .map([])), Example("a201020304", .map([.init(1, 2), .init(3, 4)])),
        Example("a26161016162820203", .map([.init("a", 1), .init("b", [2, 3])])),
        Example("826161a161626163", ["a", .map([.init("b", "c")])]),
        Example("a56161614161626142616361436164614461656145",
                .map([.init("a", "A"), .init("b", "B"), .init("c", "C"), .init("d", "D"), .init("e", "E")])),
        Example("5f42010243030405ff", .bytes([1, 2, 3, 4, 5]), preferred: false),
        Example("7f657374726561646d696e67ff", "streaming", preferred: false),
        Example("9fff", [], preferred: false),
        Example("9f018202039f0405ffff", [1, [2, 3], [4, 5]], preferred: false),
        Example("9f01820203820405ff", [1, [2, 3], [4, 5]], preferred: false),
        Example("83018202039f0405ff", [1, [2, 3], [4, 5]], preferred: false),
        Example("83019f0203ff820405", [1, [2, 3], [4, 5]], preferred: false),
        Example("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff",
                .array((1...25).map { .int($0) }), preferred: false),
        Example("bf61610161629f0203ffff", .map([.init("a", 1), .init("b", [2, 3])]), preferred: false),
        Example("826161bf61626163ff", ["a", .map([.init("b", "c")])], preferred: false),
        Example("bf6346756ef563416d7421ff", .map([.init("Fun", true), .init("Amt", -2)]), preferred: false),
    ]

    @Test("decodes", arguments: examples)
    func decodes(_ example: Example) throws {
        let bytes = try #require([UInt8](hex: example.hex))
        let item = try CBORDecoder().decode(bytes)
        if case .float(let expected) = example.value, expected.isNaN {
            guard case .float(let actual) = item.value else { Issue.record("not a float"); return }
            #expect(actual.isNaN)
        } else {
            #expect(item.value == example.value)
            if case .float(let expected) = example.value, case .float(let actual) = item.value {
                #expect(expected.sign == actual.sign)
            }
        }
        #expect(Array(item.encoded) == bytes)
    }

    @Test("re-encodes preferred examples to the same bytes", arguments: examples.filter(\.preferred))
    func reencodes(_ example: Example) throws {
        let bytes = try #require([UInt8](hex: example.hex))
        #expect(CBOREncoder().encode(example.value) == bytes)
        #expect(CBOREncoder(mode: .deterministic).encode(example.value) == bytes)
    }

    @Test func nestedItemsKeepTheirExactBytes() throws {
        let bytes = try #require([UInt8](hex: "83019f0203ff820405"))
        let item = try CBORDecoder().decode(bytes)
        let elements = try #require(item.arrayValue)
        #expect(Array(elements[1].encoded) == [0x9f, 0x02, 0x03, 0xff])
        #expect(elements[1].offset == 2)
        #expect(Array(elements[2].encoded) == [0x82, 0x04, 0x05])
    }

    @Test func nonPreferredHeadsKeepTheirBytes() throws {
        // 24 encoded with a two-byte argument: the value is 24, the bytes stay as received.
        let bytes: [UInt8] = [0x81, 0x19, 0x00, 0x18]
        let item = try CBORDecoder().decode(bytes)
        #expect(item.value == [24])
        #expect(Array(try #require(item.arrayValue)[0].encoded) == [0x19, 0x00, 0x18])
        #expect(CBOREncoder().encode(item.value) == [0x81, 0x18, 0x18])
    }
}
