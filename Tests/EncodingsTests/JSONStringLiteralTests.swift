import Encodings
import Foundation
import Testing

/// The one JSON string escaper: what it escapes, what it copies, and that a JSON parser reads the text back.
struct JSONStringLiteralTests {
    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        #expect(JSONStringLiteral.quoted(#"say "hi" \ a/b"#) == #""say \"hi\" \\ a/b""#)
        #expect(JSONStringLiteral.quoted("\u{8}\u{C}\n\r\t") == #""\b\f\n\r\t""#)
        #expect(JSONStringLiteral.quoted("\u{0}\u{1}\u{1F}\u{7F}") == #""\u0000\u0001\u001f\u007f""#)
        #expect(JSONStringLiteral.quoted("a\u{2028}b\u{2029}") == #""a\u2028b\u2029""#)
    }

    @Test func everythingElseIsCopiedAsUTF8() {
        #expect(JSONStringLiteral.quoted("") == #""""#)
        #expect(JSONStringLiteral.quoted("é€😀\u{2027}\u{202A}") == "\"é€😀\u{2027}\u{202A}\"")
        // A lone 0xE2 lead byte at the end cannot start a separator (and a String is valid UTF-8 anyway).
        #expect(JSONStringLiteral.quoted("x\u{2000}") == "\"x\u{2000}\"")
    }

    @Test func aParserReadsEveryScalarBack() throws {
        var text = ""
        for value in Array(0...0x7F) + [0xE9, 0x2028, 0x2029, 0x20AC, 0x1F600] {
            text.unicodeScalars.append(Unicode.Scalar(UInt32(value))!)
        }
        var bytes: [UInt8] = []
        JSONStringLiteral.append(text, to: &bytes)
        let decoded = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? String
        #expect(decoded == text)
        #expect(!bytes.contains { $0 < 0x20 }, "no raw control byte in the output")
    }

    @Test func unescapingResolvesEveryEscapeAndJoinsSurrogatePairs() {
        func unescaped(_ text: String, replacing: Bool = false) -> String? {
            JSONStringLiteral.unescaped(ArraySlice(Array(text.utf8)), replacingLoneSurrogates: replacing)
        }
        #expect(unescaped(#"a\"b\\c\/d\b\f\n\r\t"#) == "a\"b\\c/d\u{8}\u{C}\n\r\t")
        #expect(unescaped(#"\u00e9\u20AC\ud83d\ude00"#) == "é€😀")
        #expect(unescaped("plain é") == "plain é")
        // Refused: an unknown or cut escape, bad hex, a lone surrogate (unless replacing).
        for bad in [#"\x"#, #"a\"#, #"\u12"#, #"\u12g4"#, #"\ud800"#, #"\udc00x"#] {
            #expect(unescaped(bad) == nil, "\(bad)")
        }
        #expect(unescaped(#"\ud800"#, replacing: true) == "\u{FFFD}")
        #expect(unescaped(#"\uD800"#, replacing: true) == unescaped(#"\ud800"#, replacing: true))
    }

    @Test func whatIsWrittenReadsBack() {
        let text = "q\"b\\s/c\u{0}\u{1F}\n\t\u{7F}é😀\u{2028}"
        var bytes: [UInt8] = []
        JSONStringLiteral.append(text, to: &bytes)
        #expect(JSONStringLiteral.unescaped(bytes.dropFirst().dropLast()) == text)
    }
}
