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

    /// `verifierd sd-jwt-vc-issuers`: the issuer set kept like the IACAs, scoped by vct, never touching the IACAs.
    @Test func theIssuerSetIsManagedFromTheCommandLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-cli-issuers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trust"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("c.json")
        try Data(#"{"trust": {"iacaDirectory": "trust"}, "sdJwtVc": {"issuerDirectory": "issuers", "seedDirectory": "\#(SDJWTVCVectors.folder.path)/trusted-issuers"}}"#.utf8)
            .write(to: config)
        let seeded = try CommandLineTests.run(["sd-jwt-vc-issuers", "list", "--config", config.path])
        #expect(seeded.status == 0, "\(seeded.error)")
        #expect(seeded.output.split(separator: "\n").count == 1)
        let other = SDJWTVCVectors.folder.appendingPathComponent("pki/issuer-ca-other.pem").path
        let added = try CommandLineTests.run(["sd-jwt-vc-issuers", "add", "--config", config.path, "--vct", "urn:eudi:pid:1", other])
        #expect(added.status == 0, "\(added.error)")
        let list = try CommandLineTests.run(["sd-jwt-vc-issuers", "list", "--config", config.path]).output
        #expect(list.split(separator: "\n").count == 2)
        #expect(list.contains("docTypes=urn:eudi:pid:1"))
        #expect(try CommandLineTests.run(["iaca", "list", "--config", config.path]).output.isEmpty)
        let leaf = SDJWTVCVectors.folder.appendingPathComponent("pki/issuer.pem").path
        let refused = try CommandLineTests.run(["sd-jwt-vc-issuers", "add", "--config", config.path, leaf])
        #expect(refused.status != 0, "a leaf is no CA anchor")
        let unconfigured = folder.appendingPathComponent("u.json")
        try Data(#"{"trust": {"iacaDirectory": "trust"}}"#.utf8).write(to: unconfigured)
        #expect(try CommandLineTests.run(["sd-jwt-vc-issuers", "list", "--config", unconfigured.path]).status == 78)
    }
}
