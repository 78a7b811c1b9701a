import Testing
import TestSupport
@testable import CBOR

/// RFC 8949 Appendix F.1: every not-well-formed example is rejected with an error, never a crash.
struct AppendixFTests {
    static let notWellFormed: [String] = [
        // End of input in a head
        "18", "19", "1a", "1b", "1901", "1a0102", "1b01020304050607", "38", "58", "78", "98", "9a01ff00",
        "b8", "d8", "f8", "f900", "fa0000", "fb000000",
        // Definite-length strings with short data
        "41", "61", "5affffffff00", "5bffffffffffffffff010203", "7affffffff00", "7b7fffffffffffffff010203",
        // Definite-length maps and arrays not closed with enough items
        "81", "818181818181818181", "8200", "a1", "a20102", "a100", "a2000000",
        // Tag number not followed by tag content
        "c0",
        // Indefinite-length strings not closed by a break
        "5f4100", "7f6100",
        // Indefinite-length maps and arrays not closed by a break
        "9f", "9f0102", "bf", "bf01020102", "819f", "9f8000", "9f9f9f9f9fffffffff", "9f819f819f9fffffff",
        // Reserved additional information values
        "1c", "1d", "1e", "3c", "3d", "3e", "5c", "5d", "5e", "7c", "7d", "7e", "9c", "9d", "9e",
        "bc", "bd", "be", "dc", "dd", "de", "fc", "fd", "fe",
        // Reserved two-byte encodings of simple values
        "f800", "f801", "f818", "f81f",
        // Indefinite-length string chunks not of the correct type
        "5f00ff", "5f21ff", "5f6100ff", "5f80ff", "5fa0ff", "5fc000ff", "5fe0ff", "7f4100ff",
        // Indefinite-length string chunks not definite length
        "5f5f4100ffff", "7f7f6100ffff",
        // Break occurring on its own outside of an indefinite-length item
        "ff",
        // Break occurring in a definite-length array or map or a tag
        "81ff", "8200ff", "a1ff", "a1ff00", "a100ff", "a20000ff", "9f81ff", "9f829f819f9fffffffff",
        // Break in an indefinite-length map that would lead to an odd number of items
        "bf00ff", "bf000000ff",
        // Major type 0, 1, 6 with additional information 31
        "1f", "3f", "df",
    ]

    @Test("rejects", arguments: notWellFormed)
    func rejects(_ hex: String) throws {
        let bytes = try #require([UInt8](hex: hex))
        #expect(throws: CBORDecodingError.self) { try CBORDecoder().decode(bytes) }
    }
}
