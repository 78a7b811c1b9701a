import Testing
@testable import ReaderToken

@Suite struct ReaderTokenConfigurationTests {
    @Test func defaultsToThreeHundredSeconds() throws {
        let configuration = try ReaderTokenConfiguration(brandId: "B", keyId: "K")
        #expect(configuration.lifetimeSeconds == 300)
    }

    @Test(arguments: [301, 0, -1, Int.max, Int.min])
    func outOfRangeLifetimesAreRejected(lifetime: Int) {
        let error = #expect(throws: ReaderTokenError.self) {
            try ReaderTokenConfiguration(brandId: "B", keyId: "K", lifetimeSeconds: lifetime)
        }
        #expect(error?.code == "INVALID_READER_TOKEN_CONFIGURATION")
        #expect(error?.message == "lifetimeSeconds must be 1...300, got \(lifetime)")
    }

    @Test func messageNamesTheField() {
        let error = #expect(throws: ReaderTokenError.self) {
            try ReaderTokenConfiguration(brandId: "B", keyId: "K", lifetimeSeconds: 301)
        }
        #expect(error.map(String.init(describing:)) == "INVALID_READER_TOKEN_CONFIGURATION: lifetimeSeconds must be 1...300, got 301")
    }

    @Test(arguments: [
        ("", "K", "brandId must not be empty"),
        ("B", "", "keyId must not be empty"),
        ("B\n", "K", "brandId must not contain control characters"),
        ("B", "K\u{0}", "keyId must not contain control characters"),
        (" B", "K", "brandId must not have leading or trailing whitespace"),
        ("B", String(repeating: "k", count: 257), "keyId must be at most 256 bytes, got 257"),
    ])
    func invalidTextFieldsAreRejected(brandId: String, keyId: String, expected: String) {
        let error = #expect(throws: ReaderTokenError.self) {
            try ReaderTokenConfiguration(brandId: brandId, keyId: keyId)
        }
        #expect(error?.message == expected)
    }
}
