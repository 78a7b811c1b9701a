import OpenID4VP
import Testing

/// `redirect_uri` is parsed as an absolute https URI (RFC 3986) before any wallet sees it.
struct RedirectURITests {
    static let allowed = ["https://shop.example", "https://shop.example:8443"]

    @Test(arguments: [
        ("https://shop.example/done?x=1", "https://shop.example"),
        ("HTTPS://Shop.Example/done", "https://shop.example"),
        ("https://shop.example:443/", "https://shop.example"),
        ("https://shop.example:8443/a/b?c=%2F", "https://shop.example:8443"),
        ("https://shop.example", "https://shop.example"),
        ("https://[::1]:9443/x", "https://[::1]:9443"),
    ])
    func wellFormedURIsGiveTheirOrigin(_ text: String, _ origin: String) throws {
        let uri = try RedirectURI.parse(text).get()
        #expect(uri.origin == origin)
        #expect(uri.text == text)
    }

    @Test(arguments: [
        ("https://shop.example/a\r\nb", RedirectURIProblem.controlOrWhitespace),
        ("https://shop.example/a b", .controlOrWhitespace),
        ("https://shop.example/\u{7F}", .controlOrWhitespace),
        ("https://shop.example/ä", .notURICharacter),
        ("https://shop.example/\"", .notURICharacter),
        ("http://shop.example/", .notHTTPS),
        ("//shop.example/", .notHTTPS),
        ("shop.example", .notHTTPS),
        ("https://", .notHTTPS),
        ("https://u:p@shop.example/", .userinfo),
        ("https://shop.example/#x", .fragment),
        ("https://shop.example/?a=%2", .badPercentEncoding),
        ("https://shop.example/%G0", .badPercentEncoding),
        ("https://shop.example:0/", .badAuthority),
        ("https://shop.example:65536/", .badAuthority),
        ("https://shop.example:/", .badAuthority),
        ("https://shop_example/", .badAuthority),
        ("https://[::1/", .badAuthority),
        ("https://.shop.example/", .badAuthority),
    ])
    func malformedURIsAreRefused(_ text: String, _ problem: RedirectURIProblem) {
        #expect(throws: problem) { try RedirectURI.parse(text).get() }
    }

    @Test func theOriginMustBeAllowed() {
        #expect(throws: RedirectURIProblem.originNotAllowed) {
            try RedirectURI.parse("https://shop.example.evil.example/", allowedOrigins: Self.allowed).get()
        }
        #expect(throws: RedirectURIProblem.originNotAllowed) {
            try RedirectURI.parse("https://shop.example:8444/", allowedOrigins: Self.allowed).get()
        }
        #expect((try? RedirectURI.parse("https://shop.example:8443/done", allowedOrigins: Self.allowed).get()) != nil)
    }

    @Test func tooLongIsRefused() {
        #expect(throws: RedirectURIProblem.tooLong) {
            try RedirectURI.parse("https://shop.example/" + String(repeating: "a", count: RedirectURI.maximumLength)).get()
        }
    }
}
