import Foundation
import HTTPServer
import Testing
@testable import StrictJSON
@testable import VerifierConfiguration
@testable import VerifierService

/// A name repeated within one JSON object is refused wherever JSON comes in: parsers disagree on which of the two
/// counts (Foundation keeps one, Python, JavaScript and Go the last).
struct DuplicateNameTests {
    func duplicate(_ text: String) -> String? {
        JSONSyntaxScan.duplicateName(in: Array(text.utf8))
    }

    @Test func theRuleNamesThePathOfTheSecondOccurrence() {
        #expect(duplicate(#"{"origin": "https://shop.example", "origin": "https://evil.example"}"#) == "origin")
        #expect(duplicate(#"{"anchors": [{"certificate": "a"}, {"certificate": "b", "docTypes": [], "docTypes": ["x"]}]}"#)
                == "anchors[1].docTypes")
        #expect(duplicate(#"{"server": {"tls": {"minimumVersion": "1.2", "minimumVersion": "1.3"}}}"#) == "server.tls.minimumVersion")
        #expect(duplicate(#"[{"a": 1}, [{"b": {"c": 1, "c": 2}}]]"#) == "[1][0].b.c")
        // Deep inside a value that is otherwise kept as it is.
        #expect(duplicate(#"{"x": {"y": [1, "s", null, {"z": true, "z": false}]}}"#) == "x.y[3].z")
    }

    @Test func namesAreComparedAfterUnescaping() {
        #expect(duplicate(#"{"origin": 1, "\u006frigin": 2}"#) == "origin")
        #expect(duplicate(#"{"\u006Frigin": 1, "origin": 2}"#) == "origin")
        #expect(duplicate(#"{"a\/b": 1, "a/b": 2}"#) == "a/b")
        #expect(duplicate(#"{"a\"b": 1, "a\u0022b": 2}"#) == "a\"b")
        // A surrogate pair is one character.
        #expect(duplicate(#"{"🙂": 1, "\ud83d\ude42": 2}"#) == "🙂")
        // Canonically equivalent names are one key of a Swift dictionary: refused too.
        #expect(duplicate("{\"\u{E9}\": 1, \"e\u{301}\": 2}") == "\u{E9}")
        #expect(duplicate("{\"Key\": 1, \"\u{212A}ey\": 2}") == "\u{212A}ey")
        // Different names, in any spelling, are not duplicates.
        #expect(duplicate(#"{"origin": 1, "Origin": 2, "origin ": 3, "\u006frigins": 4}"#) == nil)
        #expect(duplicate(#"{"é": 1, "e": 2, "\u00e8": 3}"#) == nil)
    }

    @Test func theSameNameInDifferentObjectsIsNotADuplicate() {
        #expect(duplicate(#"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}], "c": {"a": [{"a": 1, "b": 2}]}}"#) == nil)
        #expect(duplicate(#"{"documents": [{"docType": "x", "elements": {"ns": {"e": true}}}, {"docType": "y", "elements": {"ns": {"e": false}}}]}"#)
                == nil)
        // A name of a nested object does not count in its parent, before or after it.
        #expect(duplicate(#"{"a": {"b": 1}, "b": 2}"#) == nil)
        #expect(duplicate(#"{"b": 1, "a": {"b": 2}, "c": 3}"#) == nil)
        #expect(duplicate(#"{"b": 1, "a": {"c": 2}, "b": 3}"#) == "b")
    }

    @Test func largeObjectsAreCheckedWithASetAndTheSameAnswer() {
        for count in [15, 16, 17, 40, 2000] {
            let names = (0..<count).map { "\"n\($0)\": \($0)" }
            #expect(duplicate("{" + names.joined(separator: ", ") + "}") == nil, "\(count)")
            for repeated in [0, count / 2, count - 1] {
                let text = "{" + (names + ["\"n\(repeated)\": 0"]).joined(separator: ", ") + "}"
                #expect(duplicate(text) == "n\(repeated)", "\(count) \(repeated)")
                // Spelled with an escape, and nested in a large parent object.
                let escaped = "{" + (names + [#""\u006e\#(repeated)": 0"#]).joined(separator: ", ") + "}"
                #expect(duplicate(escaped) == "n\(repeated)", "\(count) \(repeated)")
                let nested = "{" + (names + ["\"inner\": \(text)"]).joined(separator: ", ") + "}"
                #expect(duplicate(nested) == "inner.n\(repeated)", "\(count) \(repeated)")
            }
        }
        // A large object followed by its sibling: the sibling starts with no names.
        let large = "{" + (0..<30).map { "\"n\($0)\": 1" }.joined(separator: ", ") + "}"
        #expect(duplicate("[\(large), {\"n1\": 1}]") == nil)
    }

    @Test func workIsBounded() {
        // Deep nesting stops at the depth limit (not a duplicate, not a crash).
        let deep = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(duplicate(deep) == nil)
        #expect(JSONSyntaxScan.firstError(Array(deep.utf8))?.reason == "nested too deeply")
        // Many names in one object, and many small objects: linear in the size of the text.
        let many = "{" + (0..<100_000).map { "\"k\($0)\":0" }.joined(separator: ",") + ",\"k99999\":1}"
        #expect(duplicate(many) == "k99999")
        let objects = "[" + Array(repeating: #"{"a":1,"b":2,"c":3}"#, count: 50_000).joined(separator: ",") + "]"
        #expect(duplicate(objects) == nil)
    }

    @Test func aDuplicateIsAFailureOfTheScanWithItsOffset() throws {
        let text = "{\n  \"a\": 1,\n  \"a\": 2\n}"
        let failure = try #require(JSONSyntaxScan.firstError(Array(text.utf8)))
        #expect(ConfigurationLoader.position(in: Array(text.utf8), failure.offset) == "line 3, column 3")
        #expect(failure.reason.contains("\"a\" appears more than once"))
        // Syntax errors are not duplicates; the first problem in the text is the one reported.
        #expect(duplicate(#"{"a": 1, "a": 2"#) == "a")
        #expect(duplicate(#"{"a": 1 "a": 2}"#) == nil)
        #expect(JSONSyntaxScan.check(Array(#"{"a": 1 "a": 2}"#.utf8))?.duplicate == nil)
    }

    // MARK: request bodies

    struct Body: KnownFields, Equatable {
        let encryptedData: String
        let nonce: String
        let other: [String: [String: Bool]]?

        enum CodingKeys: String, CodingKey, CaseIterable { case encryptedData, nonce, other }
    }

    func decode(_ text: String) throws(ServiceProblem) -> Body {
        let request = HTTPServerRequest(head: .init(method: .post, scheme: nil, authority: nil, path: "/"),
                                        body: Array(text.utf8))
        return try RequestDecoding.decode(Body.self, from: request)
    }

    @Test func requestBodiesWithADuplicateAreRefusedNamingIt() {
        let cases: [(String, String)] = [
            // Flat (the verify endpoints' shape): the in-place reader leaves it alone, the scan names it.
            (#"{"encryptedData":"x","nonce":"a","nonce":"b"}"#, "nonce"),
            (#"{"encryptedData":"x","nonce":"a","\u006eonce":"b"}"#, "nonce"),
            // Not flat (Foundation's decoder reads it): the same rule, before Foundation keeps one of the two.
            (#"{"encryptedData":"x","nonce":"a","other":{"ns":{"e":true}},"nonce":"b"}"#, "nonce"),
            (#"{"encryptedData":"x","nonce":"a","other":{"ns":{"e":true,"e":false}}}"#, "other.ns.e"),
            (#"{"encryptedData":"x","nonce":"a","other":{"ns":{}, "ns":{"e":false}}}"#, "other.ns"),
            // Before an unknown field or a missing one is reported.
            (#"{"nonce":"a","nonce":"b","typo":1}"#, "nonce"),
        ]
        for (text, path) in cases {
            do {
                let body = try decode(text)
                Issue.record("decoded \(body) from \(text)")
            } catch {
                #expect(error.code == "INVALID_REQUEST")
                #expect(error.detail == #"duplicate field "\#(path)" (a name may appear only once in an object)"#, "\(text)")
            }
        }
    }

    @Test func requestBodiesWithoutADuplicateDecodeAsBefore() throws {
        #expect(try decode(#"{"encryptedData":"x","nonce":"a"}"#) == Body(encryptedData: "x", nonce: "a", other: nil))
        let nested = try decode(#"{"encryptedData":"x","nonce":"a","other":{"a":{"nonce":true},"b":{"nonce":false}}}"#)
        #expect(nested.other == ["a": ["nonce": true], "b": ["nonce": false]])
        // Syntax errors in a body that is not flat are still "not valid JSON".
        do {
            _ = try decode(#"{"encryptedData":"x","nonce":"a","other":{"a":{}"#)
            Issue.record("decoded")
        } catch {
            #expect(error.detail == "the body is not valid JSON")
        }
    }
}
