import Foundation
import OpenID4VP
import StrictJSON
import Testing

/// The JSON Schema subset an operator's transaction data types are checked with: each keyword accepts and refuses,
/// and a keyword outside the subset refuses the schema rather than being skipped.
@Suite struct TransactionDataSchemaTests {
    static func schema(_ text: String) throws -> TransactionDataSchema { try TransactionDataSchema(bytes: Array(text.utf8)) }
    static func value(_ text: String) throws -> JSON { try JSONParser.parse(Array(text.utf8)) }

    @Test(arguments: [
        // (schema, valid instance, invalid instance)
        (#"{"type":"object"}"#, #"{}"#, #"[]"#),
        (#"{"type":["string","null"]}"#, #"null"#, #"1"#),
        (#"{"type":"integer"}"#, #"3"#, #"3.5"#),
        (#"{"type":"number"}"#, #"3.5"#, #""3""#),
        (#"{"enum":["INDA","DAIL"]}"#, #""DAIL""#, #""WEEK""#),
        (#"{"const":{"a":[1,2]}}"#, #"{"a":[1,2.0]}"#, #"{"a":[2,1]}"#),
        (#"{"required":["a"],"properties":{"a":{"type":"string"}}}"#, #"{"a":"x","b":1}"#, #"{"b":1}"#),
        (#"{"properties":{"a":{"type":"string"}},"additionalProperties":false}"#, #"{"a":"x"}"#, #"{"a":"x","b":1}"#),
        (#"{"additionalProperties":{"type":"integer"}}"#, #"{"n":1}"#, #"{"n":"1"}"#),
        (#"{"minProperties":1,"maxProperties":1}"#, #"{"a":1}"#, #"{"a":1,"b":2}"#),
        (#"{"items":{"type":"string"},"minItems":1,"maxItems":2}"#, #"["a"]"#, #"["a",1]"#),
        (#"{"maxItems":2}"#, #"[1,2]"#, #"[1,2,3]"#),
        (#"{"uniqueItems":true}"#, #"[1,2]"#, #"[1,1.0]"#),
        (#"{"minLength":2,"maxLength":3}"#, #""éé""#, #""abcd""#),
        (#"{"pattern":"^[A-Z]{3}$"}"#, #""EUR""#, #""eur""#),
        (#"{"pattern":"[0-9]"}"#, #""a1b""#, #""abc""#),
        (#"{"minimum":0,"maximum":10}"#, #"10"#, #"10.5"#),
        (#"{"exclusiveMinimum":0}"#, #"0.1"#, #"0"#),
        (#"{"exclusiveMaximum":1}"#, #"0.5"#, #"1"#),
        (#"{"allOf":[{"type":"integer"},{"minimum":2}]}"#, #"2"#, #"1"#),
        (#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#, #"1"#, #"true"#),
        (#"{"oneOf":[{"type":"number"},{"type":"integer"}]}"#, #"1.5"#, #"1"#),
        (#"{"not":{"type":"null"}}"#, #"0"#, #"null"#),
        (##"{"$defs":{"amount":{"type":"number"}},"properties":{"a":{"$ref":"#/$defs/amount"}}}"##, #"{"a":1}"#, #"{"a":"1"}"#),
        (#"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"t","description":"d","examples":[1],"format":"date-time","type":"string"}"#, #""not a date""#, #"1"#),
        ("true", "1", "\"never\""),
    ])
    func eachKeywordAcceptsAndRefuses(_ schemaText: String, _ valid: String, _ invalid: String) throws {
        // The last row's invalid instance is checked against `false` instead.
        let schema = try Self.schema(schemaText)
        #expect(schema.violation(in: try Self.value(valid)) == nil)
        if schemaText == "true" {
            #expect(try Self.schema("false").violation(in: try Self.value(invalid)) != nil)
        } else {
            #expect(schema.violation(in: try Self.value(invalid)) != nil)
        }
    }

    @Test(arguments: [
        #"{"type":"object","dependentRequired":{"a":["b"]}}"#,
        #"{"patternProperties":{"^x":{}}}"#,
        #"{"$ref":"https://example.com/other.json"}"#,
        ##"{"$ref":"#/$defs/missing"}"##,
        #"{"type":"decimal"}"#,
        #"{"pattern":"("}"#,
        #"{"minLength":-1}"#,
        #"{"required":["a","a"]}"#,
        #"{"properties":{"a":{"if":{"type":"string"}}}}"#,
        #"{"a":1,"a":2}"#,
        #"[]"#,
    ])
    func aSchemaWithAnUnsupportedOrBrokenKeywordIsRefused(_ text: String) {
        #expect(throws: TransactionDataSchema.Invalid.self) { try Self.schema(text) }
    }

    @Test func violationsNameThePathNotTheValue() throws {
        let schema = try Self.schema(#"{"properties":{"payee":{"properties":{"name":{"type":"string"}}}}}"#)
        let problem = try #require(schema.violation(in: try Self.value(#"{"payee":{"name":12345}}"#)))
        #expect(problem.contains("payee.name"))
        #expect(!problem.contains("12345"))
    }

    @Test func aSelfReferenceDoesNotRecurseForever() throws {
        let schema = try Self.schema(##"{"$defs":{"loop":{"$ref":"#/$defs/loop"}},"$ref":"#/$defs/loop"}"##)
        #expect(schema.violation(in: .int(1)) != nil)
    }
}
