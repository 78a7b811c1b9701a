import Testing
import TrustStore
@testable import Encodings

/// Hex text in and out, and the hex-or-base64 rule every byte option shares.
struct HexTests {
    @Test func everyByteRoundTripsInEitherCase() {
        let all = (0...255).map(UInt8.init)
        #expect([UInt8](hexString: all.hexString) == all)
        #expect([UInt8](hexString: all.hexString.uppercased()) == all)
        #expect([UInt8](hexString: "aB0f") == [0xab, 0x0f])
    }

    @Test func anythingButPairsOfHexDigitsIsRefused() {
        for text in ["", "a", "abc", "0g", "g0", "+1", " 0", "0 ", "0x00", "é0"] {
            #expect([UInt8](hexString: text) == nil, "\(text)")
        }
        #expect((0...255).filter { Hex.isDigit(UInt8($0)) }.count == 22)
    }

    @Test func binaryTextPrefixesAndGuesses() throws {
        let hexOfLength4: (Int) -> Bool = { $0 == 4 }
        #expect(try BinaryText.decode("hex:00ff", unprefixedHex: hexOfLength4) == [0x00, 0xff])
        #expect(try BinaryText.decode("00ff", unprefixedHex: hexOfLength4) == [0x00, 0xff])
        #expect(try BinaryText.decode("base64:AP8=", unprefixedHex: hexOfLength4) == [0x00, 0xff])
        // Hex digits at a length the caller does not take as hex are read as base64.
        #expect(try BinaryText.decode("00ff", unprefixedHex: { _ in false }) == [0xd3, 0x47, 0xdf])
        #expect(throws: BinaryText.Failure.notHexAfterPrefix) { try BinaryText.decode("hex:0", unprefixedHex: hexOfLength4) }
        #expect(throws: BinaryText.Failure.notBase64AfterPrefix) { try BinaryText.decode("base64:*", unprefixedHex: hexOfLength4) }
        #expect(throws: BinaryText.Failure.neither) { try BinaryText.decode("*", unprefixedHex: hexOfLength4) }
    }
}
