import Crypto
import Testing
@testable import MDoc

/// The value-digest comparison: a digest of the item's bytes against the MSO's, for each named algorithm.
struct DigestComparisonTests {
    @Test func equalDigestsMatchAndAnyDifferenceDoesNot() throws {
        let data = ArraySlice(Array("an IssuerSignedItemBytes stand-in".utf8))
        for (name, digest) in [("SHA-256", Array(SHA256.hash(data: data))), ("SHA-384", Array(SHA384.hash(data: data))),
                               ("SHA-512", Array(SHA512.hash(data: data)))] {
            let compare = try #require(DigestEvaluation.hashFunction(named: name))
            #expect(compare(data, digest[...]))
            // A slice that does not start at index 0 (as the MSO's digests are slices of the decoded input).
            #expect(compare(data, ([0xff] + digest + [0xff])[1...digest.count]))
            for position in [0, digest.count / 2, digest.count - 1] {
                var other = digest
                other[position] ^= 0x01
                #expect(!compare(data, other[...]), "\(name) byte \(position)")
            }
            #expect(!compare(data, digest.dropLast()))
            #expect(!compare(data, (digest + [0])[...]))
            #expect(!compare(data, []))
            #expect(!compare(data.dropLast(), digest[...]))
        }
        #expect(DigestEvaluation.hashFunction(named: "SHA-1") == nil)
        #expect(DigestEvaluation.hashFunction(named: "sha-256") == nil)
    }
}
