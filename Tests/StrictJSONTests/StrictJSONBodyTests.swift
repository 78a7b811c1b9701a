import Testing
@testable import StrictJSON

/// How every request body is read: strict syntax, no repeated name at any depth, bounded depth and number of values
/// (what reads the text next pays per value), unknown fields refused.
struct StrictJSONBodyTests {
    struct Body: KnownFields {
        let items: [RawJSON]?
        let name: String?
        enum CodingKeys: String, CodingKey, CaseIterable { case items, name }
    }

    static func array(_ count: Int) -> [UInt8] {
        Array(("{\"items\": [" + Array(repeating: "0", count: count).joined(separator: ",") + "]}").utf8)
    }

    @Test func theNumberOfValuesIsBoundedAtItsEdge() throws {
        // The object, the array and its elements: count + 2 values.
        let atLimit = StrictJSONBody.maximumValues - 2
        #expect(try StrictJSONBody.decode(Body.self, from: Self.array(atLimit)).items?.count == atLimit)
        #expect(throws: StrictJSONBody.Refusal.self) { try StrictJSONBody.decode(Body.self, from: Self.array(atLimit + 1)) }
        #expect(JSONSyntaxScan.check(Self.array(10), maximumValues: 12) == nil)
        #expect(JSONSyntaxScan.check(Self.array(10), maximumValues: 11)?.reason == "more values than the limit")
    }

    @Test func aRepeatedNameAtAnyDepthIsRefused() {
        #expect(JSONSyntaxScan.duplicateName(in: Array(#"{"items": [{"a": 1, "a": 2}]}"#.utf8)) == "items[0].a")
        #expect(JSONSyntaxScan.duplicateName(in: Array(#"{"a": 1, "\u0061": 2}"#.utf8)) == "a")
        #expect(JSONSyntaxScan.duplicateName(in: Array(#"{"a": {"b": 1}, "b": 2}"#.utf8)) == nil)
    }

    @Test func depthIsBounded() {
        let deep = Array((String(repeating: "[", count: 300) + String(repeating: "]", count: 300)).utf8)
        #expect(JSONSyntaxScan.check(deep)?.reason == "nested too deeply")
    }

    @Test func unknownFieldsAreRefusedNamingThem() {
        #expect(throws: StrictJSONBody.Refusal.self) { try StrictJSONBody.decode(Body.self, from: Array(#"{"nmae": "x"}"#.utf8)) }
        #expect((try? StrictJSONBody.decode(Body.self, from: Array(#"{"name": "x"}"#.utf8)))?.name == "x")
    }
}
