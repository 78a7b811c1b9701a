import CBOR
import Foundation
import Testing
import TestSupport
@testable import MDoc

/// Work per request is bounded whatever the response declares: at most four documents are verified.
struct ResponseLimitTests {
    static let name = "valid-p256-sha256-signature"
    static let cases = Fixtures.testVectors.appendingPathComponent("mdoc/cases")

    static func response(copies: Int) throws -> [UInt8] {
        let single = try CBORDecoder().decode(try Fixtures.hexFile(cases.appendingPathComponent("\(name).deviceresponse.hex")))
        let document = try #require(single["documents"]?.arrayValue?.first)
        return CBOREncoder().encode(.map([
            .init("version", "1.0"),
            .init("documents", .array(Array(repeating: .encoded(Array(document.encoded)), count: copies))),
            .init("status", 0),
        ]))
    }

    func verify(copies: Int) throws -> VerificationReport {
        let trust = try TrustFixtures.anchors([Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem")])
        return MDocVerifier(trust: trust).verify(
            deviceResponse: try Self.response(copies: copies),
            sessionTranscript: try Fixtures.hexFile(Self.cases.appendingPathComponent("\(Self.name).transcript.hex")),
            options: VerificationOptions(verificationTime: TestClock.date("2030-01-01T00:00:00Z")))
    }

    @Test func fourDocumentsAreVerified() throws {
        let report = try verify(copies: DeviceResponse.maximumDocuments)
        #expect(report.verified)
        #expect(report.documents.count == 4)
    }

    @Test func moreDocumentsThanTheLimitAreRefusedUnverified() throws {
        let report = try verify(copies: DeviceResponse.maximumDocuments + 1)
        #expect(!report.verified)
        #expect(report.documents.isEmpty)
        #expect(report.failureCode == .deviceResponseLimitExceeded)
        #expect(report.failureDetail?.contains("at most 4") == true)
    }
}
