import Foundation
import Testing
@testable import Encodings

struct Base64InputTests {
    @Test func decodesBothAlphabetsWithOrWithoutPadding() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
            let urlSafe = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let unpadded = urlSafe.replacingOccurrences(of: "=", with: "")
            #expect(Base64Input.decode(standard) == bytes)
            #expect(Base64Input.decode(urlSafe) == bytes)
            #expect(Base64Input.decode(unpadded) == bytes)
        }
    }

    @Test func rejectsWhatIsNotBase64() {
        for bad in ["A", "AAAAA", "AA=A", "AA===", "A===", "AB\n", "AB C", "AB*", "é", "AB=", "AAA=="] {
            #expect(Base64Input.decode(bad) == nil, "\(bad)")
        }
        for bad in ["AAAA*AAA", "AAAAAAA*", "AAAAAA\u{80}A", "AAAAAAAAAA*A"] {
            #expect(Base64Input.decode(bad) == nil, "\(bad)")
        }
        #expect(Base64Input.decode("QQ") == [0x41])
        #expect(Base64Input.decode("QR") == nil, "non-zero trailing bits")
        #expect(Base64Input.decode("QUI") == [0x41, 0x42])
        #expect(Base64Input.decode("QUJ") == nil, "non-zero trailing bits after three characters")
        // A character outside the alphabet anywhere in a long input, also in its last whole quantum.
        let long = String(repeating: "QUJD", count: 100)
        #expect(Base64Input.decode(long)?.count == 300)
        for position in [0, 1, 2, 3, 200, 397, 398, 399] {
            var bytes = Array(long.utf8)
            bytes[position] = UInt8(ascii: "!")
            #expect(Base64Input.decode(String(decoding: bytes, as: UTF8.self)) == nil, "position \(position)")
        }
    }
}
