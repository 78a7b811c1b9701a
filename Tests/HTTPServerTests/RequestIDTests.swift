@testable import HTTPServer
import Testing

extension HTTPServerTests {
    @Suite struct RequestIDs {
        @Test func generatedIDsAre32LowercaseHexDigitsAndDistinct() {
            let ids = (0..<2000).map { _ in RequestID.generate() }
            for id in ids {
                #expect(id.utf8.count == 32)
                #expect(id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, "\(id)")
            }
            #expect(Set(ids).count == ids.count)
            // Both halves come from the random bytes: neither half repeats across the sample.
            #expect(Set(ids.map { $0.prefix(16) }).count == ids.count)
            #expect(Set(ids.map { $0.suffix(16) }).count == ids.count)
            // Every digit position takes more than one value.
            for position in 0..<32 {
                let digits = Set(ids.map { Array($0.utf8)[position] })
                #expect(digits.count > 1, "position \(position)")
            }
        }

        @Test func incomingIDsArePrintableASCIIWithinTheLimit() {
            #expect(RequestID.validated("abc-123", maxLength: 8) == "abc-123")
            #expect(RequestID.validated(String(repeating: "a", count: 8), maxLength: 8) != nil)
            for bad in [nil, "", String(repeating: "a", count: 9), "a b", "a\u{7f}", "é", "a\tb"] {
                #expect(RequestID.validated(bad, maxLength: 8) == nil, "\(String(describing: bad))")
            }
        }
    }
}
