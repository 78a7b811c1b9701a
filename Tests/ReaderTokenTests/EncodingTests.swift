import Foundation
import Testing
import Encodings
@testable import ReaderToken

@Suite struct EncodingTests {
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func base64URLMatchesRFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Data(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Data(plain.utf8))
    }

    @Test func base64URLUsesURLAlphabetWithoutPadding() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0xFE]
        #expect(Base64URL.encode(bytes) == "-_-__g")
        #expect(Base64URL.decode("-_-__g") == Data(bytes))
        #expect(Base64URL.decode("Zg==") == nil)
        #expect(Base64URL.decode("+/+/") == nil)
        #expect(Base64URL.decode("Z") == nil)
        // One spelling per byte string: unused bits in the last character must be zero.
        #expect(Base64URL.decode("Zg") == Data("f".utf8))
        #expect(Base64URL.decode("Zh") == nil)
        #expect(Base64URL.decode("Zm8") == Data("fo".utf8))
        #expect(Base64URL.decode("Zm9") == nil)
        #expect(Base64URL.decode("Zm9v\u{00e9}") == nil)
        #expect(Base64URL.decode("") == Data())
    }

    @Test func base64URLRoundTripsAllLengths() {
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == Data(bytes))
            #expect(Base64URL.encode(bytes) == Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: ""))
        }
    }

    @Test func jsonStringEscaping() throws {
        #expect(JSONText.quoted(#"say "hi""#) == #""say \"hi\"""#)
        #expect(JSONText.quoted(#"back\slash"#) == #""back\\slash""#)
        #expect(JSONText.quoted("a/b") == #""a/b""#)
        #expect(JSONText.quoted("\u{8}\u{C}\n\r\t") == #""\b\f\n\r\t""#)
        #expect(JSONText.quoted("\u{0}\u{1}\u{1F}\u{7F}") == #""\u0000\u0001\u001f\u007f""#)
        #expect(JSONText.quoted("\u{2028}\u{2029}") == #""\u2028\u2029""#)
        #expect(JSONText.quoted("é€😀") == "\"é€😀\"")

        let nasty = "q\"b\\s/c\u{0}\u{1F}\n\t\u{7F}é😀\u{2028}"
        let json = JSONText.object(["k": .string(nasty), "n": .integer(-42)])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["k"] as? String == nasty)
        #expect(object["n"] as? Int == -42)
    }

    @Test func jsonObjectKeepsKeyOrder() {
        #expect(JSONText.object(["z": .integer(1), "a": .string("x"), "m": .integer(0)]) == #"{"z":1,"a":"x","m":0}"#)
    }
}
