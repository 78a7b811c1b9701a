import CBOR
import Foundation
import Testing
import TestSupport
import TrustStore
@testable import MDoc

/// `DeviceResponse.zkDocuments` read strictly (absent or non-empty, at most two, each a well-formed ZkDocument) and
/// reported without a verifier of proofs: every ZK document fails `zk.system`, and its proof is never run.
struct ZkDocumentsResponseTests {
    static func post1() throws -> (response: [UInt8], transcript: [UInt8]) {
        struct Post: Decodable { let Transcript: String; let ZKDeviceResponseCBOR: String }
        let url = Fixtures.testVectors.appendingPathComponent("longfellow/google-examples/post1.json")
        let post = try JSONDecoder().decode(Post.self, from: Data(contentsOf: url))
        return ([UInt8](try #require(Data(base64Encoded: post.ZKDeviceResponseCBOR))), [UInt8](try #require(Data(base64Encoded: post.Transcript))))
    }

    /// post1's DeviceResponse with its zkDocuments array replaced by `count` copies of its entry, or by `replacement`.
    static func response(copies count: Int, replacement: CBOR? = nil) throws -> [UInt8] {
        let (bytes, _) = try post1()
        let item = try CBORDecoder().decode(bytes)
        let entry = try #require(item["zkDocuments"]?.arrayValue?.first)
        let documents: CBOR = replacement ?? .array(Array(repeating: CBOR.encoded(Array(entry.encoded)), count: count))
        return CBOREncoder().encode(.map([.init("version", "1.0"), .init("zkDocuments", documents), .init("status", 0)]))
    }

    @Test func theArrayIsReadStrictly() throws {
        let one = try DeviceResponse(bytes: try Self.response(copies: 1))
        #expect(one.documents.isEmpty && one.zkDocuments.count == 1 && one.zkDocuments[0].elements.map(\.identifier) == ["age_over_18"])
        #expect(try DeviceResponse(bytes: try Self.response(copies: 2)).zkDocuments.count == 2)
        #expect(throws: MDocDecodingError.self) { try DeviceResponse(bytes: try Self.response(copies: 0)) }
        let three = try Self.response(copies: 3)
        do {
            _ = try DeviceResponse(bytes: three)
            Issue.record("three zkDocuments were read")
        } catch {
            #expect(error.code == .deviceResponseLimitExceeded)
        }
        let malformed = try Self.response(copies: 0, replacement: .array([.map([.init("proof", .bytes([1]))])]))
        do {
            _ = try DeviceResponse(bytes: malformed)
            Issue.record("a ZkDocument without documentData was read")
        } catch {
            #expect(error.code == .deviceResponseMalformed && error.description.contains("zkDocuments[0]"))
        }
    }

    @Test func withoutAcceptedSystemsNoProofRuns() throws {
        let (bytes, transcript) = try Self.post1()
        let report = MDocVerifier(trust: .empty).verify(deviceResponse: bytes, sessionTranscript: transcript,
                                                         options: VerificationOptions(verificationTime: Date(timeIntervalSince1970: 1_764_590_400)))
        let document = try #require(report.documents.first)
        #expect(!report.verified && document.zeroKnowledge != nil && document.validityInfo == nil)
        #expect(document.checks.map(\.id) == [.issuerCertificateChain, .issuerCertificateProfile, .issuerCertificateRevocation, .zkSystem, .zkNameSpace, .zkTimestamp,
                                              .zkProof, .msoStatus, .requestElements, .requestTrustedAuthorities])
        #expect(document.check(.zkSystem)?.code == .zkSystemNotAccepted)
        #expect(document.check(.zkProof)?.status == .notApplicable)
        #expect(document.claims.allSatisfy { !$0.verified })
    }
}
