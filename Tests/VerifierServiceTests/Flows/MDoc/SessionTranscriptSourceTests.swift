import Foundation
import Testing
import TestSupport

/// `POST /v1/mdoc/verify` takes the SessionTranscript from the caller, so its device signature proves only the
/// transcript the caller chose: the report says so (top-level `sessionTranscriptSource: "caller"` and the
/// `device.authentication` detail). The flows that build the transcript themselves claim nothing of the kind.
@Suite(.serialized)
struct SessionTranscriptSourceTests {
    static let cases = Fixtures.testVectors.appendingPathComponent("mdoc/cases")
    static let p256 = ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")

    static func body(_ name: String, transcript: String? = nil) throws -> [String: Any] {
        let own = Data(try Fixtures.hexFile(cases.appendingPathComponent("\(name).transcript.hex"))).base64EncodedString()
        return [
            "deviceResponse": Data(try Fixtures.hexFile(cases.appendingPathComponent("\(name).deviceresponse.hex"))).base64EncodedString(),
            "sessionTranscript": transcript ?? own,
            "verificationTime": "2030-01-01T00:00:00Z",
        ]
    }

    func deviceAuthentication(_ answer: ServiceHarness.Response) -> [String: Any]? {
        let documents = answer.json["documents"] as? [[String: Any]]
        let checks = documents?.first?["checks"] as? [[String: Any]]
        return checks?.first { $0["id"] as? String == "device.authentication" }
    }

    @Test func theGenericEndpointSaysTheTranscriptWasTheCallers() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        let verified = try await harness.post("/v1/mdoc/verify", json: try Self.body("valid-p256-sha256-signature"))
        #expect(verified.status == 200, "\(verified.text)")
        #expect(verified.json["sessionTranscriptSource"] as? String == "caller")
        let check = try #require(deviceAuthentication(verified))
        #expect(check["outcome"] as? String == "passed")
        let detail = try #require(check["detail"] as? String)
        #expect(detail.contains("device signature"), "\(detail)")
        #expect(detail.contains("SessionTranscript supplied by the caller"), "\(detail)")
        #expect(detail.contains("only the transcript the caller chose"), "\(detail)")

        // A device MAC says the same.
        let manifest = try JSONValue.load(Fixtures.testVectors.appendingPathComponent("mdoc/manifest.json"))
        var mac = try Self.body("valid-device-mac")
        mac["readerPrivateKey"] = try #require(manifest["cases"]?.array.first { $0["name"]?.string == "valid-device-mac" }?["readerPrivateKey"]?.string)
        let macAnswer = try await harness.post("/v1/mdoc/verify", json: mac)
        #expect(macAnswer.status == 200, "\(macAnswer.text)")
        #expect(macAnswer.json["sessionTranscriptSource"] as? String == "caller")
        #expect((deviceAuthentication(macAnswer)?["detail"] as? String)?.contains("SessionTranscript supplied by the caller") == true)

        // Another transcript than the one the device signed: not verified, and still the caller's.
        let demo = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.testVectors.appendingPathComponent("demo/mdoc-verify-request.json"))) as? [String: Any]
        let other = try await harness.post("/v1/mdoc/verify", json: try Self.body(
            "valid-p256-sha256-signature", transcript: try #require(demo?["sessionTranscript"] as? String)))
        #expect(other.status == 422, "\(other.text)")
        #expect(other.json["sessionTranscriptSource"] as? String == "caller")
        let failed = try #require(deviceAuthentication(other))
        #expect(failed["outcome"] as? String == "failed")
        #expect(failed["code"] as? String == "DEVICE_SIGNATURE_INVALID")
        #expect((failed["detail"] as? String)?.contains("SessionTranscript supplied by the caller") == true)
        await harness.stop()
    }

    @Test func anAppleVerificationDoesNotClaimACallerTranscript() async throws {
        let harness = try ServiceHarness(anchors: [Self.p256])
        defer { Task { await harness.stop() } }
        let (body, _) = try ServiceHarness.appleCase("valid-merchant-1")
        let answer = try await harness.post("/v1/apple/verify", json: body)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json["sessionTranscriptSource"] == nil)
        let check = try #require(deviceAuthentication(answer))
        #expect(check["outcome"] as? String == "passed")
        #expect((check["detail"] as? String)?.contains("device signature") == true)
        #expect((check["detail"] as? String)?.contains("caller") == false, "\(check)")
        #expect(!answer.text.contains("supplied by the caller"), "\(answer.text)")
        await harness.stop()
    }
}
