import Foundation
import Testing
import TestSupport
import TrustStore
@testable import VerifierService

/// IACA input through the admin API and the trust directory: PEM with any RFC 7468 line ends, and a precise code
/// and a plain detail for input that is not a certificate.
@Suite(.serialized)
struct IACAInputTests {
    static let p256 = ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")
    static let p384 = ServiceHarness.pki.appendingPathComponent("iaca-p384.pem")
    static let p521 = ServiceHarness.pki.appendingPathComponent("iaca-p521.pem")

    /// The file's PEM with every LF replaced by `lineEnd` (as `keytool -rfc` writes CRLF).
    static func pem(_ url: URL, lineEnd: String) throws -> String {
        try Fixtures.text(url).replacingOccurrences(of: "\n", with: lineEnd)
    }

    /// A temporary file holding `text`, under `name`.
    static func file(_ name: String, _ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iaca-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    static func der(_ url: URL) throws -> [UInt8] {
        try CertificateParsing.derCertificates(from: try Fixtures.bytes(url))[0]
    }

    /// No parser library's file, line or error type in a detail.
    static func isClean(_ detail: String) -> Bool {
        !detail.contains(".swift") && !detail.contains("ASN1Error") && !detail.contains("CertificateError")
            && detail.range(of: #":\d"#, options: .regularExpression) == nil
    }

    @Test func crlfAndCRPEMAreAcceptedByTheAdminAPI() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        #expect(try Fixtures.text(Self.p256).contains("\r") == false)
        let crlf = try await harness.admin("POST", "/v1/admin/iaca", body: Data(try Self.pem(Self.p256, lineEnd: "\r\n").utf8))
        #expect(crlf.status == 201, "\(crlf.text)")
        // PUT with a CR-only bundle, explanatory text before each block.
        let bundle = try "P-256 root\r" + Self.pem(Self.p256, lineEnd: "\r") + "P-521 root\r" + Self.pem(Self.p521, lineEnd: "\r")
        let replaced = try await harness.admin("PUT", "/v1/admin/iaca", body: Data(bundle.utf8))
        #expect(replaced.status == 200, "\(replaced.text)")
        #expect((replaced.json["anchors"] as? [[String: Any]])?.count == 2)
        // The JSON body takes the same PEM, explanatory text first.
        let body = try JSONSerialization.data(withJSONObject: [
            "anchors": [["certificate": "subject=CN=verifierd Test IACA P-384\r\n" + Self.pem(Self.p384, lineEnd: "\r\n")]]])
        let json = try await harness.request("POST", "/v1/admin/iaca", body: body, headers: [
            "Authorization": "Bearer \(ServiceHarness.adminToken)", "Content-Type": "application/json"])
        #expect(json.status == 201, "\(json.text)")
        #expect((try await harness.admin("GET", "/v1/admin/iaca").json["anchors"] as? [[String: Any]])?.count == 3)
        await harness.stop()
    }

    @Test func brokenPEMIsUnparsableNamingTheBlockAndLine() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        let mismatched = try Self.pem(Self.p256, lineEnd: "\r\n").replacingOccurrences(of: "END CERTIFICATE", with: "END X509 CRL")
        let labels = try await harness.admin("POST", "/v1/admin/iaca", body: Data(("note\r\n" + mismatched).utf8))
        #expect(labels.status == 400)
        #expect(labels.json["code"] as? String == "IACA_UNPARSABLE")
        #expect((labels.json["detail"] as? String)?.contains("PEM block 1 (line 2) begins CERTIFICATE but ends X509 CRL") == true,
                "\(labels.text)")
        var lines = try Self.pem(Self.p256, lineEnd: "\n").split(separator: "\n").map(String.init)
        lines[2] = "!" + lines[2].dropFirst()
        let base64 = try await harness.admin("POST", "/v1/admin/iaca", body: Data(lines.joined(separator: "\r\n").utf8))
        #expect(base64.json["code"] as? String == "IACA_UNPARSABLE")
        #expect((base64.json["detail"] as? String)?.contains("on line 3") == true, "\(base64.text)")
        let whole = try Self.pem(Self.p256, lineEnd: "\n").split(separator: "\n")
        let unterminated = try await harness.admin("POST", "/v1/admin/iaca", body: Data(whole.dropLast().joined(separator: "\r").utf8))
        #expect((unterminated.json["detail"] as? String)?.contains("has no END line") == true, "\(unterminated.text)")
        #expect(harness.service.iacaTrust.snapshot.anchors.count == 1)
        await harness.stop()
    }

    @Test func crlfAndCRFilesLoadFromTheTrustDirectoryAtStart() async throws {
        let crlf = try Self.file("iaca-p256-keytool.pem", try Self.pem(Self.p256, lineEnd: "\r\n"))
        let cr = try Self.file("iaca-p384-classic-mac.pem", "comment\r" + (try Self.pem(Self.p384, lineEnd: "\r")))
        defer {
            try? FileManager.default.removeItem(at: crlf.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: cr.deletingLastPathComponent())
        }
        let harness = try ServiceHarness(anchors: [crlf, cr])
        defer { Task { await harness.stop() } }
        let anchors = harness.service.iacaTrust.snapshot.anchors
        #expect(Set(anchors.compactMap(\.file)) == ["iaca-p256-keytool.pem", "iaca-p384-classic-mac.pem"])
        #expect(Set(anchors.map(\.derBytes)) == Set([try Self.der(Self.p256), try Self.der(Self.p384)]))
        // And they verify a document: the P-256 generated Apple case chains to iaca-p256.
        let (body, _) = try ServiceHarness.appleCase("valid-merchant-1")
        #expect(try await harness.post("/v1/apple/verify", json: body).status == 200)
        await harness.stop()
    }

    @Test func aBrokenCRLFFileStopsTheStartNamingFileAndLine() throws {
        var lines = try Self.pem(Self.p256, lineEnd: "\n").split(separator: "\n").map(String.init)
        lines[4] = String(lines[4].dropLast(2))
        let broken = try Self.file("broken.pem", lines.joined(separator: "\r\n"))
        defer { try? FileManager.default.removeItem(at: broken.deletingLastPathComponent()) }
        let error = #expect(throws: (any Error).self) { _ = try ServiceHarness(anchors: [broken]) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("broken.pem"), "\(text)")
        #expect(text.contains("PEM block 1 (CERTIFICATE, line 1) is not valid base64"), "\(text)")
    }

    @Test func derThatIsNotACertificateIsUnparsableWithAPlainDetail() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        let truncated = Array(try Self.der(Self.p256).prefix(150))
        let raw = try await harness.admin("POST", "/v1/admin/iaca", body: Data(truncated))
        #expect(raw.status == 400)
        #expect(raw.json["code"] as? String == "IACA_UNPARSABLE", "\(raw.text)")
        let detail = try #require(raw.json["detail"] as? String)
        #expect(detail.contains("does not parse as an X.509 certificate"), "\(detail)")
        #expect(Self.isClean(detail), "\(detail)")
        // The same DER in PEM, and as base64 in the JSON body.
        let inPEM = try await harness.admin("POST", "/v1/admin/iaca", body: Data(TrustDirectory.pem(truncated).utf8))
        #expect(inPEM.json["code"] as? String == "IACA_UNPARSABLE")
        #expect(Self.isClean(inPEM.json["detail"] as? String ?? ".swift"))
        let body = try JSONSerialization.data(withJSONObject: ["anchors": [["certificate": Data([0x30, 0x03, 0x02, 0x01, 0x01]).base64EncodedString()]]])
        let json = try await harness.request("PUT", "/v1/admin/iaca", body: body, headers: [
            "Authorization": "Bearer \(ServiceHarness.adminToken)", "Content-Type": "application/json"])
        #expect(json.status == 400)
        #expect(json.json["code"] as? String == "IACA_UNPARSABLE", "\(json.text)")
        #expect(Self.isClean(json.json["detail"] as? String ?? ".swift"))
        // A certificate that parses but is no IACA stays INVALID_IACA.
        let ds = try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: ServiceHarness.pki.appendingPathComponent("ds-p256.pem")))
        #expect(ds.json["code"] as? String == "INVALID_IACA")
        #expect(harness.service.iacaTrust.snapshot.anchors.count == 1)
        await harness.stop()
    }
}
