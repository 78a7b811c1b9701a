import Foundation
import MDoc
import Testing
import TestSupport
import TrustStore

/// A status list is fetched only for a document that is otherwise valid as issued: chain, validity, docType
/// authorization and issuer signature all passed. Anything else would let a failing document make the service call
/// the URI its MSO names.
struct StatusFetchGateTests {
    static let time = TestClock.date("2030-01-01T00:00:00Z")

    static func response(_ name: String = "status-valid") throws -> DeviceResponse {
        try DeviceResponse(bytes: try Fixtures.hexFile(StatusListServer.folder.appendingPathComponent("cases/\(name).deviceresponse.hex")))
    }

    static func trust(docTypes: [String]? = nil) throws -> TrustSnapshot {
        let url = Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem")
        return TrustSnapshot(anchors: try CertificateParsing.derCertificates(from: try Fixtures.bytes(url)).map {
            try TrustAnchor(derBytes: $0, metadata: TrustAnchorMetadata(docTypes: docTypes))
        })
    }

    static func references(trust: TrustSnapshot, at time: Date = Self.time, name: String = "status-valid") throws -> Int {
        let options = VerificationOptions(verificationTime: time)
        let transcript = try Fixtures.hexFile(StatusListServer.folder.appendingPathComponent("cases/\(name).transcript.hex"))
        return MDocVerifier(trust: trust).prepare(try response(name), sessionTranscript: transcript, options: options)
            .statusReferences.count
    }

    @Test func aValidDocumentsListIsFetched() throws {
        #expect(try Self.references(trust: Self.trust()) == 1)
        #expect(try Self.references(trust: Self.trust(docTypes: ["org.iso.18013.5.1.mDL"])) == 1)
    }

    @Test func noFetchWhenTheIACAMayNotVouchForTheDocType() throws {
        #expect(try Self.references(trust: Self.trust(docTypes: ["org.example.other"])) == 0)
    }

    @Test func noFetchWhenACertificateOfThePathIsOutsideItsValidity() throws {
        // The document signer (and the IACA) expire in 2074.
        #expect(try Self.references(trust: Self.trust(), at: TestClock.date("2075-01-01T00:00:00Z")) == 0)
        #expect(try Self.references(trust: Self.trust(), at: TestClock.date("2023-06-01T00:00:00Z")) == 0)
    }

    @Test func noFetchWhenTheDocumentSignerDoesNotChainToATrustedIACA() throws {
        #expect(try Self.references(trust: TrustSnapshot(anchors: [])) == 0)
    }
}
