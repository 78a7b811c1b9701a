import HTTPServer
import Testing

/// Form bodies decode as request targets do, strictly.
struct FormURLEncodedTests {
    @Test func fieldsDecode() {
        let fields = FormURLEncoded.fields(Array("response=a%2Eb+c&error_description=x%20y".utf8), maximumFields: 16)
        #expect(fields == ["response": "a.b c", "error_description": "x y"])
        #expect(FormURLEncoded.fields([], maximumFields: 16) == [:])
    }

    @Test func refusals() {
        #expect(FormURLEncoded.fields(Array("%%%".utf8), maximumFields: 16) == nil, "not name=value")
        #expect(FormURLEncoded.fields(Array("a=%zz".utf8), maximumFields: 16) == nil, "a bad escape")
        #expect(FormURLEncoded.fields(Array("a=1&a=2".utf8), maximumFields: 16) == nil, "a name twice")
        #expect(FormURLEncoded.fields(Array("a=1&b=2&c=3".utf8), maximumFields: 2) == nil, "too many fields")
        #expect(FormURLEncoded.fields([0xff], maximumFields: 16) == nil, "not UTF-8")
    }
}
