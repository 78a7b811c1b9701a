import Foundation
import OutboundFetch
import Testing
import TestSupport
import TrustStore
@testable import VerifierService

/// Revocation through the HTTP API: every generated status case over `/v1/mdoc/verify`, some over
/// `/v1/apple/verify`, the status cache listing, and the documented codes.
@Suite(.serialized)
struct RevocationOverHTTPTests {
    static let manifest = try? JSONValue.load(StatusListServer.folder.appendingPathComponent("manifest.json"))

    static func harness() throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            config["status"] = ["allowedSchemes": ["http"], "fetchTimeoutSeconds": 1, "maxListBytes": 65_536]
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(StatusListServer.port)"]]
        }
    }

    static func file(_ path: String?) throws -> Data {
        Data(try Fixtures.hexFile(StatusListServer.folder.appendingPathComponent(try #require(path))))
    }

    @Test func everyCaseGivesItsCodeOverMDocVerify() async throws {
        let lists = try StatusListServer()
        let harness = try Self.harness()
        defer { Task { await harness.stop(); await lists.stop() } }
        let cases = Self.manifest?["cases"]?.array ?? []
        #expect(cases.count >= 20)
        for entry in cases {
            let name = entry["name"]?.string ?? "?"
            let response = try await harness.post("/v1/mdoc/verify", json: [
                "deviceResponse": try Self.file(entry["deviceResponse"]?.string).base64EncodedString(),
                "sessionTranscript": try Self.file(entry["sessionTranscript"]?.string).base64EncodedString(),
            ])
            let expect = try #require(entry["expect"])
            let check = ((response.json["documents"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])?
                .first { $0["id"] as? String == "mso.status" }
            #expect(check?["outcome"] as? String == expect["outcome"]?.string, "\(name): \(check ?? [:])")
            #expect(check?["code"] as? String == expect["code"]?.string, "\(name)")
            let shouldVerify = expect["outcome"]?.string != "failed"
            #expect(response.status == (shouldVerify ? 200 : 422), "\(name)")
        }
        // Fetches are logged by host and outcome only: no path, no index.
        let logs = harness.logs.all.joined(separator: "\n")
        #expect(logs.contains("status list fetched"))
        #expect(!logs.contains("/lists/"))
        let cache = try await harness.admin("GET", "/v1/admin/status-cache")
        #expect(cache.status == 200)
        #expect(((cache.json["lists"] as? [[String: Any]])?.count ?? 0) >= 5)
        #expect(try await harness.request("GET", "/v1/admin/status-cache").status == 401)
        let metrics = String(decoding: try await harness.request("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("verifierd_status_list_fetches_total"))
        #expect(metrics.contains("verifierd_status_list_cache_hits_total") || cases.count < 2)
        await harness.stop()
        await lists.stop()
    }

    /// A status URI in an MSO that no trusted issuer signed is the sender's say-so: it is never fetched.
    /// The port the server was given at start (0 in the configuration) is refused to fetches, like a configured one.
    @Test func theServicesOwnPortsAreNeverFetched() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let policy = harness.service.outboundFetcher.policy
        #expect(policy.listeningPorts.contains(harness.server.port))
        #expect(policy.refusal(connectingTo: IPAddress("127.0.0.1")!, port: harness.server.port, urlHost: "127.0.0.1")?
            .contains("own listening port") == true)
        #expect(policy.refusal(connectingTo: IPAddress("127.0.0.1")!, port: StatusListServer.port, urlHost: "127.0.0.1") == nil)
        await harness.stop()
    }

    @Test func untrustedDocumentsNeverTriggerAFetch() async throws {
        let lists = try StatusListServer()
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p384.pem")]) { config in
            config["status"] = ["allowedSchemes": ["http"], "fetchTimeoutSeconds": 1]
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(StatusListServer.port)"]]
        }
        defer { Task { await harness.stop(); await lists.stop() } }
        let entry = try #require(Self.manifest?["cases"]?.array.first { $0["name"]?.string == "status-valid" })
        let response = try await harness.post("/v1/mdoc/verify", json: [
            "deviceResponse": try Self.file(entry["deviceResponse"]?.string).base64EncodedString(),
            "sessionTranscript": try Self.file(entry["sessionTranscript"]?.string).base64EncodedString(),
        ])
        #expect(response.status == 422)
        #expect(response.json["code"] as? String == "ISSUER_CERTIFICATE_UNTRUSTED")
        #expect(lists.fetches("bits1") == 0)
        await harness.stop()
        await lists.stop()
    }

    /// A document signer that chains only with a granted warning (pre-publication EKU, IACA named lenient) is the
    /// issuer's: its list is fetched, so a revoked document fails `STATUS_REVOKED` whether unknown status fails or
    /// warns, and a valid one verifies under the default `status.unknown: "fail"`.
    @Test(arguments: ["fail", "warn"])
    func aLenientAnchorsRevokedDocumentNeverVerifies(unknown: String) async throws {
        let lists = try StatusListServer()
        let iaca = ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")
        let fingerprint = try TrustAnchor(derBytes: try #require(
            try CertificateParsing.derCertificates(from: try Fixtures.bytes(iaca)).first)).sha256
        let harness = try ServiceHarness(anchors: [iaca]) { config in
            config["trust"] = ["iacaDirectory": "trusted-iaca", "pollSeconds": 0, "profileChecksByAnchor": [fingerprint: "lenient"]]
            config["status"] = ["allowedSchemes": ["http"], "fetchTimeoutSeconds": 1, "maxListBytes": 65_536, "unknown": unknown]
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(StatusListServer.port)"]]
        }
        defer { Task { await harness.stop(); await lists.stop() } }
        for (name, status, code) in [("anchor-pre-publication-lenient-revoked", 422, "STATUS_REVOKED"),
                                     ("anchor-pre-publication-lenient-valid", 200, nil)] {
            let entry = try #require(Self.manifest?["anchorCases"]?.array.first { $0["name"]?.string == name })
            let response = try await harness.post("/v1/mdoc/verify", json: [
                "deviceResponse": try Self.file(entry["deviceResponse"]?.string).base64EncodedString(),
                "sessionTranscript": try Self.file(entry["sessionTranscript"]?.string).base64EncodedString(),
            ])
            let checks = (response.json["documents"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]]
            let check = { (id: String) in checks?.first { $0["id"] as? String == id } }
            #expect(response.status == status, "\(name): \(response.json)")
            #expect(check("mso.status")?["code"] as? String == code, "\(name)")
            #expect(check("issuer.certificateChain")?["code"] as? String == "DS_EKU_PRE_PUBLICATION")
        }
        #expect(lists.fetches("bits1") == 1, "one fetch, then the cache")
        await harness.stop()
        await lists.stop()
    }

    @Test func appleResponsesAreCheckedToo() async throws {
        let lists = try StatusListServer()
        let harness = try Self.harness()
        defer { Task { await harness.stop(); await lists.stop() } }
        let apple = Self.manifest?["apple"]?.array ?? []
        #expect(apple.count == (Self.manifest?["cases"]?.array.count ?? -1))
        for entry in apple {
            let body = try JSONSerialization.jsonObject(with: try Data(contentsOf: StatusListServer.folder
                .appendingPathComponent(try #require(entry["request"]?.string)))) as? [String: Any]
            var request = try #require(body)
            request["verificationTime"] = Self.manifest?["verificationTime"]?.string
            let response = try await harness.post("/v1/apple/verify", json: request)
            let check = ((response.json["documents"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])?
                .first { $0["id"] as? String == "mso.status" }
            #expect(check?["outcome"] as? String == entry["expect"]?["outcome"]?.string, "\(entry["case"]?.string ?? "")")
            #expect(check?["code"] as? String == entry["expect"]?["code"]?.string)
        }
        await harness.stop()
        await lists.stop()
    }
}
