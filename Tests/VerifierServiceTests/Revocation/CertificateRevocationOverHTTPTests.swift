import Foundation
import TestSupport
import Testing
@testable import VerifierService

/// CRLs through the service: the presentations of `TestVectors/crl/presentations` (mdocs under the CRL test IACA,
/// SD-JWT VCs under two- and three-level issuer chains) verified over `/v1/mdoc/verify` and `/v1/sd-jwt-vc/verify`
/// while a loopback server publishes the CA's CRLs at the distribution points the certificates name, under each
/// `crl.mode`; and a distribution point outside the destination policy, which is never contacted.
@Suite(.serialized)
struct CertificateRevocationOverHTTPTests {
    static let port = 18620
    static let folder = Fixtures.testVectors.appendingPathComponent("crl")
    static let manifest = try? JSONValue.load(folder.appendingPathComponent("presentations/manifest.json"))
    static let presentations = manifest?["presentations"]?.array ?? []

    /// Serves the CRLs a presentation's case publishes (none when `publish` is false).
    static func server(for entry: JSONValue, publish: Bool = true) throws -> LoopbackFileServer {
        var files: [String: LoopbackFileServer.File] = [:]
        if publish, case .object(let serve)? = entry["allCrlsPublished"]?["serve"] {
            for (path, file) in serve {
                files[path] = .init(bytes: try Fixtures.bytes(folder.appendingPathComponent(file.string ?? "")),
                                    contentType: "application/pkix-crl")
            }
        }
        return try LoopbackFileServer(port: port, files: files)
    }

    /// A service trusting the presentation's anchor (as an IACA, or as an SD-JWT VC issuer anchor) with `crl.mode`.
    static func harness(for entry: JSONValue, mode: String, allowed: Bool = true) throws -> ServiceHarness {
        let anchor = folder.appendingPathComponent(entry["anchor"]?.string ?? "")
        let sdJwt = entry["format"]?.string == "dc+sd-jwt"
        let seed = FileManager.default.temporaryDirectory.appendingPathComponent("crl-seed-\(UUID().uuidString)")
        if sdJwt {
            try FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: anchor, to: seed.appendingPathComponent(anchor.lastPathComponent))
        }
        return try ServiceHarness(anchors: sdJwt ? [] : [anchor]) { config in
            config["crl"] = ["mode": mode, "allowedSchemes": ["http"], "fetchTimeoutSeconds": 2]
            config["outbound"] = ["allowedDestinations": allowed ? ["127.0.0.1:\(port)"] : []]
            if sdJwt { config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers", "seedDirectory": seed.path] }
        }
    }

    static func verify(_ entry: JSONValue, on harness: ServiceHarness) async throws -> ServiceHarness.Response {
        let files = entry["files"]
        if entry["format"]?.string == "dc+sd-jwt" {
            let presentation = String(decoding: try Fixtures.bytes(folder.appendingPathComponent(files?["presentation"]?.string ?? "")), as: UTF8.self)
            return try await harness.post("/v1/sd-jwt-vc/verify", json: [
                "presentation": presentation, "nonce": entry["nonce"]?.string ?? "", "audience": entry["audience"]?.string ?? "",
                "verificationTime": "2030-01-01T00:00:00Z",
            ])
        }
        return try await harness.post("/v1/mdoc/verify", json: [
            "deviceResponse": Data(try Fixtures.hexFile(folder.appendingPathComponent(files?["deviceResponse"]?.string ?? ""))).base64EncodedString(),
            "sessionTranscript": Data(try Fixtures.hexFile(folder.appendingPathComponent(files?["sessionTranscript"]?.string ?? ""))).base64EncodedString(),
            "verificationTime": "2030-01-01T00:00:00Z",
        ])
    }

    /// The revocation check of the answer's first document.
    static func check(_ response: ServiceHarness.Response) -> [String: Any]? {
        let document = (response.json["documents"] as? [[String: Any]])?.first
        return (document?["checks"] as? [[String: Any]])?.first {
            ["issuer.certificateRevocation", "sdjwt.issuerCertificateRevocation"].contains($0["id"] as? String)
        }
    }

    static func expected(_ entry: JSONValue) -> (revocation: String, code: String?) {
        let expect = entry["allCrlsPublished"]?["expect"]
        let revocation = expect?["revocation"]?.string ?? "?"
        return (revocation, revocation == "revoked" ? "CERTIFICATE_REVOKED" : expect?["code"]?.string)
    }

    /// Every presentation with every CRL published: under `enforce` good verifies and anything else fails with its
    /// code; under `warn` a revoked certificate still fails and an undetermined one only warns; under `off` nothing
    /// is fetched and the check does not apply.
    @Test(arguments: ["enforce", "warn", "off"])
    func everyPresentationGetsItsConclusion(_ mode: String) async throws {
        #expect(Self.presentations.count >= 9)
        for entry in Self.presentations {
            let name = entry["name"]?.string ?? "?"
            let (revocation, code) = Self.expected(entry)
            let server = try Self.server(for: entry)
            let harness = try Self.harness(for: entry, mode: mode)
            let answer = try await Self.verify(entry, on: harness)
            let check = Self.check(answer)
            switch (mode, revocation) {
            case ("off", _):
                #expect(answer.status == 200, "\(name): \(answer.text)")
                #expect(check?["outcome"] as? String == "notApplicable", "\(name)")
                #expect(server.totalRequests == 0, "\(name)")
            case (_, "good"):
                #expect(answer.status == 200, "\(name): \(answer.text)")
                #expect(check?["outcome"] as? String == "passed", "\(name): \(check ?? [:])")
            case (_, "revoked"), ("enforce", _):
                #expect(answer.status == 422, "\(name): \(answer.text)")
                #expect(check?["outcome"] as? String == "failed" && check?["code"] as? String == code, "\(name): \(check ?? [:])")
            default:
                #expect(answer.status == 200, "\(name): \(answer.text)")
                #expect(check?["outcome"] as? String == "warning" && check?["code"] as? String == code, "\(name): \(check ?? [:])")
            }
            if mode != "off" { #expect(server.totalRequests >= 1, "\(name)") }
            await harness.stop()
            await server.stop()
        }
    }

    /// A good certificate whose CRL cannot be had: undetermined, which fails under `enforce` and only warns under
    /// `warn`. A distribution point outside `outbound.allowedDestinations` is never contacted.
    @Test(arguments: [(true, "enforce"), (true, "warn"), (false, "enforce")])
    func anUnavailableCRLIsUndetermined(_ allowed: Bool, _ mode: String) async throws {
        let entries = Self.presentations.filter { ["mdoc-ds-good", "sdjwt-issuer-good"].contains($0["name"]?.string) }
        #expect(entries.count == 2)
        for entry in entries {
            let name = entry["name"]?.string ?? "?"
            let server = try Self.server(for: entry, publish: allowed == false)
            let harness = try Self.harness(for: entry, mode: mode, allowed: allowed)
            let answer = try await Self.verify(entry, on: harness)
            let check = Self.check(answer)
            #expect(check?["code"] as? String == "CRL_UNAVAILABLE", "\(name): \(check ?? [:])")
            #expect(answer.status == (mode == "enforce" ? 422 : 200), "\(name): \(answer.text)")
            if !allowed { #expect(server.totalRequests == 0, "\(name): a refused destination was contacted") }
            // A failed fetch is remembered: the next verification does not fetch again (for up to 60 s).
            let again = try await Self.verify(entry, on: harness)
            #expect(Self.check(again)?["code"] as? String == "CRL_UNAVAILABLE", "\(name)")
            #expect(server.totalRequests == (allowed ? 1 : 0), "\(name): \(server.totalRequests) fetches")
            await harness.stop()
            await server.stop()
        }
    }

    /// A CRL is fetched once per distribution point and then answered from the cache until its nextUpdate.
    @Test func aCachedCRLIsNotFetchedAgain() async throws {
        let entry = try #require(Self.presentations.first { $0["name"]?.string == "mdoc-ds-good" })
        let server = try Self.server(for: entry)
        let harness = try Self.harness(for: entry, mode: "enforce")
        for _ in 0..<5 {
            #expect(try await Self.verify(entry, on: harness).status == 200)
        }
        #expect(server.requests("/crl/iaca.crl") == 1)
        let metrics = try await harness.request("GET", "/metrics").text
        #expect(metrics.contains("verifierd_crl_cache_hits_total 4"), "\(metrics.split(separator: "\n").filter { $0.contains("crl") })")
        await harness.stop()
        await server.stop()
    }
}
