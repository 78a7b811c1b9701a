import StrictJSON
import Testing

@Suite struct JSONParserTests {
    @Test func keepsMemberOrderAndNumberKinds() throws {
        let value = try JSONParser.parse(Array(#"{"b":1,"a":[true,null,1.5,"x\u00e9"],"c":-0}"#.utf8))
        #expect(value.text == #"{"b":1,"a":[true,null,1.5,"xé"],"c":0}"#)
    }

    @Test(arguments: [
        #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"[01]"#, #"{"a":1} x"#, "\"\u{01}\"", #""\ud800""#, #"[1,]"#, "",
        #"{"a":"\x"}"#, "[1e999]", "\u{FEFF}{}",
    ])
    func refuses(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func boundsDepthAndValues() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(deep.utf8), limits: .init(maximumDepth: 32)) }
        let many = "[" + Array(repeating: "1", count: 100).joined(separator: ",") + "]"
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(many.utf8), limits: .init(maximumValues: 50)) }
        #expect((try? JSONParser.parse(Array(many.utf8), limits: .init(maximumValues: 101))) != nil)
    }
}
