import Encodings
import Foundation
import HTTPServer
import Testing
@testable import StrictJSON
@testable import VerifierService

/// The one-buffer writers of the request path (JSON, timestamps, base64) and the in-place request reader, each
/// checked against Foundation's own encoder or decoder on the same input.
struct ResponseWritingTests {
    @Test func timestampsMatchFoundationToTheMillisecond() {
        var generator = SystemRandomNumberGenerator()
        var instants: [Double] = [0, -1, 1, 951_782_400, 4_107_542_399.999, -62_135_596_800, 253_402_300_799.5,
                                  1_900_000_000.123, -0.0005, 86_399.9999]
        for _ in 0..<2000 { instants.append(Double.random(in: -62_135_596_800..<253_402_300_800, using: &generator)) }
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(RFC3339Timestamp.string(date) == date.formatted(.iso8601), "\(seconds)")
            #expect(RFC3339Timestamp.string(date, milliseconds: true)
                    == date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), "\(seconds)")
        }
    }

    @Test func yearsOutsideFourDigitsAreLeftToFoundation() {
        let date = Date(timeIntervalSince1970: 253_402_300_800 + 86_400)
        #expect(RFC3339Timestamp.string(date) == date.formatted(.iso8601))
    }

    @Test func base64MatchesFoundationForEveryLengthRemainder() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            var out: [UInt8] = []
            Base64Output.append(bytes, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == Data(bytes).base64EncodedString())
            let url = Base64URL.encode(bytes)
            #expect(Base64URL.decode(url) == Data(bytes))
            #expect(!url.contains("=") && !url.contains("+") && !url.contains("/"))
        }
    }

    @Test func jsonStringsRoundTripThroughFoundation() throws {
        let samples = ["", "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{a}\u{c}\u{d}\u{1f}\u{7f}",
                       "unicode é 漢字 🙂", String(repeating: "long run ", count: 300) + "\n"]
        for sample in samples {
            let value = JSON.object([("key \"\n", .string(sample)), ("n", .int(-9_223_372_036_854_775_807 - 1)),
                                     ("m", .int(9_223_372_036_854_775_807)), ("d", .double(1.43)), ("z", .int(0)),
                                     ("a", .array([.bool(true), .null, .array([]), .object([])]))])
            let bytes = value.serialized()
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(parsed["key \"\n"] as? String == sample)
            #expect((parsed["n"] as? NSNumber)?.int64Value == Int64.min)
            #expect((parsed["m"] as? NSNumber)?.int64Value == Int64.max)
            #expect((parsed["d"] as? Double) == 1.43)
            #expect(!bytes.contains(0x7f), "DEL is escaped")
            #expect(!bytes.contains { $0 < 0x20 }, "control characters are escaped")
        }
        #expect(JSON.object([("a", .int(1)), ("b", .array([.int(2), .int(3)]))]).text == #"{"a":1,"b":[2,3]}"#)
    }

    struct Body: KnownFields, Equatable {
        let encryptedData: String
        let nonce: String
        let merchantId: String?
        let flag: Bool?
        let extra: Double?
        let other: [String: [Int]]?

        enum CodingKeys: String, CodingKey, CaseIterable { case encryptedData, nonce, merchantId, flag, extra, other }
    }

    func decode(_ text: String) throws(ServiceProblem) -> Body {
        let request = HTTPServerRequest(head: .init(method: .post, scheme: nil, authority: nil, path: "/"),
                                        body: Array(text.utf8))
        return try RequestDecoding.decode(Body.self, from: request)
    }

    @Test func flatBodiesAreReadInPlaceLikeFoundationReadsThem() throws {
        let texts = [
            #"{"encryptedData":"QUJD","nonce":"bm9uY2U="}"#,
            #" { "nonce" : "a\"b\\c\/d\u00e9\n" , "encryptedData" : "x", "merchantId": null, "flag": true, "extra": 1.5e3 } "#,
            #"{"encryptedData":"x","nonce":"é漢🙂","merchantId":"m","flag":false}"#,
        ]
        for text in texts {
            #expect(FlatJSONObject(Array(text.utf8)) != nil, "\(text)")
            let expected = try JSONDecoder().decode(Body.self, from: Data(text.utf8))
            #expect(try decode(text) == expected)
        }
    }

    @Test func bodiesTheReaderLeavesAloneStillDecodeOrFailAsBefore() throws {
        // Nested values, surrogate pairs and numbers where a string is expected go to Foundation's decoder.
        let nested = #"{"encryptedData":"x","nonce":"y","other":{"a":[1,2]}}"#
        #expect(FlatJSONObject(Array(nested.utf8)) == nil)
        #expect(try decode(nested) == Body(encryptedData: "x", nonce: "y", merchantId: nil, flag: nil, extra: nil, other: ["a": [1, 2]]))
        let pair = #"{"encryptedData":"\ud83d\ude42","nonce":"y"}"#
        #expect(try decode(pair).encryptedData == "🙂")

        let failures: [(String, String)] = [
            (#"{"nonce":"y"}"#, #"missing field "encryptedData""#),
            (#"{"encryptedData":1,"nonce":"y"}"#, #"field "encryptedData" has the wrong type"#),
            (#"{"encryptedData":null,"nonce":"y"}"#, #"field "encryptedData" is null"#),
            (#"{"encryptedData":"x","nonce":"y""#, "the body is not valid JSON"),
            (#"{"encryptedData":"x","nonce":"y"} trailing"#, "the body is not valid JSON"),
            (#"{"encryptedData":"x","nonce":"y","flag":"yes"}"#, #"field "flag" has the wrong type"#),
        ]
        for (text, message) in failures {
            do {
                _ = try decode(text)
                Issue.record("decoded: \(text)")
            } catch {
                #expect(error.detail == message, "\(text)")
            }
        }
    }

    @Test func duplicateNamesAreNotReadInPlace() {
        #expect(FlatJSONObject(Array(#"{"nonce":"a","nonce":"b"}"#.utf8)) == nil)
        #expect(FlatJSONObject(Array(#"{"a":01}"#.utf8)) == nil)
        #expect(FlatJSONObject(Array("{\"a\":\"\u{1}\"}".utf8)) == nil)
        #expect(FlatJSONObject(Array(#"{"a":tru}"#.utf8)) == nil)
        #expect(FlatJSONObject(Array(#"{"a":"b",}"#.utf8)) == nil)
        #expect(FlatJSONObject(Array(#"{}"#.utf8)) != nil)
    }

    @Test func theWordAtATimeStringScanAgreesWithAByteScan() {
        // Reference: one byte at a time, as RFC 8259 reads a string's content.
        func reference(_ bytes: [UInt8], from start: Int) -> (Int?, Bool) {
            var index = start, escaped = false
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""): return (index, escaped)
                case UInt8(ascii: "\\"): escaped = true; index += 2
                case 0..<0x20: return (nil, escaped)
                default: index += 1
                }
            }
            return (nil, escaped)
        }
        // Mostly plain bytes, with the special ones (and their neighbours 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80,
        // 0xff) at every offset within a word.
        let plain = Array("QUJDREVGabc+/=".utf8)
        let special: [UInt8] = [0x22, 0x5c, 0x00, 0x0a, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &generator)
            var bytes = (0..<count).map { _ in plain.randomElement(using: &generator)! }
            for _ in 0..<Int.random(in: 0...3, using: &generator) where count > 0 {
                bytes[Int.random(in: 0..<count, using: &generator)] = special.randomElement(using: &generator)!
            }
            let start = count == 0 ? 0 : Int.random(in: 0...count, using: &generator)
            let found = bytes.withUnsafeBytes { FlatJSONObject.stringEnd(in: $0, from: start) }
            let expected = reference(bytes, from: start)
            #expect(found.0 == expected.0 && found.1 == expected.1, "\(bytes) from \(start)")
        }
    }

    @Test func stringsEndAtTheirFirstUnescapedQuote() throws {
        // Unterminated strings, a backslash at the very end, an escaped closing quote, control characters: refused.
        for text in [#"{"a":"b"#, #"{"a":"b\"#, #"{"a":"b\"}"#, "{\"a\":\"b\nc\"}", "{\"a\":\"\t\"}", #"{"a"#] {
            #expect(FlatJSONObject(Array(text.utf8)) == nil, "\(text)")
        }
        // Escaped quotes and backslashes inside, an empty string, DEL and non-ASCII bytes: read, with the exact range.
        let text = "{\"a\":\"x\\\"y\\\\\",\"b\":\"\",\"c\":\"\u{7f}é\"}"
        let object = try #require(FlatJSONObject(Array(text.utf8)))
        guard case .string(let range, let escaped) = object.value("a") else { Issue.record("a"); return }
        #expect(escaped && object.string(range, escaped: escaped) == "x\"y\\")
        guard case .string(let empty, let emptyEscaped) = object.value("b") else { Issue.record("b"); return }
        #expect(empty.isEmpty && !emptyEscaped)
        guard case .string(let other, false) = object.value("c") else { Issue.record("c"); return }
        #expect(object.string(other, escaped: false) == "\u{7f}é")
    }
}
