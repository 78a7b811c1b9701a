import Foundation
import TestSupport
import Testing

/// `verifierd oid4vp verify` with an SD-JWT VC answer: the library entry point the service uses, offline, with the
/// issuer CA given on the command line.
@Suite(.serialized)
struct SDJWTVCCommandLineTests {
    func verify(_ name: String, issuer: String = "pki/issuer-ca.pem") throws -> (status: Int32, report: [String: Any]) {
        let testCase = try #require(SDJWTVCVectors.cases.first { $0.name == name })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-sdjwt-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = folder.appendingPathComponent("vp_token.json")
        try JSONSerialization.data(withJSONObject: ["pid": [try testCase.presentation]]).write(to: token)
        let run = try CommandLineTests.run([
            "oid4vp", "verify", "--no-status", "--origin", "https://verifier.example", "--nonce", SDJWTVCVectors.manifest?["nonce"]?.string ?? "",
            "--vp-token", token.path, "--sd-jwt-vc-issuer", SDJWTVCVectors.folder.appendingPathComponent(issuer).path,
            "--at", "2030-01-01T00:00:00Z",
        ])
        let line = run.output.split(separator: "\n").last.map(String.init) ?? ""
        return (run.status, (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:])
    }

    @Test func aCapturedSDJWTVCAnswerVerifiesOffline() throws {
        let (status, report) = try verify("valid")
        #expect(status == 0, "\(report)")
        #expect(report["verified"] as? Bool == true)
        #expect((report["documents"] as? [[String: Any]])?.first?["format"] as? String == "dc+sd-jwt")
    }

    @Test func anotherIssuerCAIsNotTrusted() throws {
        let (status, report) = try verify("valid", issuer: "pki/issuer-ca-other.pem")
        #expect(status == 1)
        #expect(report["code"] as? String == "ISSUER_CERTIFICATE_UNTRUSTED")
    }

    @Test func aRefusalKeepsItsCode() throws {
        let (status, report) = try verify("kb-sd-hash-wrong")
        #expect(status == 1)
        #expect(report["code"] as? String == "SDJWT_KB_SD_HASH_MISMATCH")
    }
}
