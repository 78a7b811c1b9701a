import CBOR
import Crypto
import Foundation
import Testing
import TestSupport

/// ISO 18013-5 Annex C `vicalIssueID`: once a source's list in force has one, a list without one is a rollback
/// (accepting it would reset the sequence, after which an older issue would import again), on the admin API, the
/// CLI and the scheduled refresh alike. A source whose lists never had one keeps accepting lists without one.
@Suite(.serialized)
struct VICALIssueIDTests {
    /// A committed test VICAL (signed by `signer.pem`) with its `vicalIssueID` replaced, or removed when `issueID` is
    /// nil, signed again with the same signer key: it verifies up to `signer-root.pem` like the original.
    static func resigned(_ file: String, issueID: UInt64?) throws -> Data {
        let original = try VICALAdminTests.vical(file)
        let sign1 = try #require(try CBORDecoder().decode(Array(original)).arrayValue)
        try #require(sign1.count == 4)
        let protected = try #require(sign1[0].bytesValue)
        let payloadBytes = try #require(sign1[2].bytesValue)
        guard case .map(let pairs) = try CBORDecoder().decode(payloadBytes).value else {
            throw VICALTestError(description: "the payload of \(file) is not a map")
        }
        var entries = pairs.filter { $0.key != .text("vicalIssueID") }
        if let issueID { entries.insert(CBOR.Pair("vicalIssueID", .unsigned(issueID)), at: min(2, entries.count)) }
        try #require(entries.count == pairs.count - (issueID == nil ? 1 : 0))
        let payload = CBOREncoder().encode(.map(entries))
        let toBeSigned = CBOREncoder().encode(["Signature1", .bytes(Array(protected)), .bytes([]), .bytes(payload)])
        let pem = try String(contentsOf: VICALAdminTests.vicals.appendingPathComponent("keys/signer.pem"), encoding: .utf8)
        let key = try P256.Signing.PrivateKey(pemRepresentation: pem)
        let signature = try key.signature(for: toBeSigned).rawRepresentation
        return Data(CBOREncoder().encode([.encoded(Array(sign1[0].encoded)), .encoded(Array(sign1[1].encoded)),
                                          .bytes(payload), .bytes(Array(signature))]))
    }

    struct VICALTestError: Error, CustomStringConvertible { let description: String }

    func inForce(_ harness: ServiceHarness, _ source: String) async throws -> [String: Any]? {
        let sources = try #require(try await harness.admin("GET", "/v1/admin/vicals").json["sources"] as? [[String: Any]])
        return sources.first { $0["name"] as? String == source }?["inForce"] as? [String: Any]
    }

    func version(_ harness: ServiceHarness) async throws -> Int? {
        try await harness.admin("GET", "/v1/admin/iaca").json["version"] as? Int
    }

    @Test func aListWithoutAnIssueIDIsRefusedOnceTheSourceHasOne() async throws {
        let harness = try VICALAdminTests.harness()
        defer { Task { await harness.stop() } }
        let five = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.resigned("test-vical-10.cbor", issueID: 5))
        #expect(five.status == 200, "\(five.text)")
        #expect(try await inForce(harness, "test")?["issueID"] as? Int == 5)
        let before = try await version(harness)
        let anchors = harness.service.iacaTrust.snapshot.anchors.map(\.sha256).sorted()

        // Without an issue ID (other anchors, a later sha256): refused as a rollback, dry run or not; nothing changes.
        let unnumbered = try Self.resigned("test-vical-11.cbor", issueID: nil)
        for path in ["/v1/admin/vicals/test?dryRun=true", "/v1/admin/vicals/test"] {
            let refused = try await harness.admin("POST", path, body: unnumbered)
            #expect(refused.status == 422, "\(path): \(refused.text)")
            #expect(refused.json["code"] as? String == "VICAL_ROLLBACK", "\(path): \(refused.text)")
            #expect((refused.json["detail"] as? String ?? refused.text).contains("no vicalIssueID"), "\(refused.text)")
        }
        #expect(try await version(harness) == before)
        #expect(harness.service.iacaTrust.snapshot.anchors.map(\.sha256).sorted() == anchors)
        #expect(try await inForce(harness, "test")?["issueID"] as? Int == 5)

        // The next issue is accepted; an older one still is not.
        let six = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.resigned("test-vical-11.cbor", issueID: 6))
        #expect(six.status == 200, "\(six.text)")
        #expect(try await inForce(harness, "test")?["issueID"] as? Int == 6)
        let four = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.resigned("test-vical-10.cbor", issueID: 4))
        #expect(four.status == 422)
        #expect(four.json["code"] as? String == "VICAL_ROLLBACK")
        await harness.stop()
    }

    @Test func aSourceThatNeverHadAnIssueIDAcceptsListsWithoutOne() async throws {
        let harness = try VICALAdminTests.harness()
        defer { Task { await harness.stop() } }
        let first = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.resigned("test-vical-10.cbor", issueID: nil))
        #expect(first.status == 200, "\(first.text)")
        #expect(try await inForce(harness, "test")?["issueID"] is NSNull)
        let second = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.resigned("test-vical-11.cbor", issueID: nil))
        #expect(second.status == 200, "\(second.text)")
        #expect((second.json["added"] as? [Any])?.count == 1)
        // Numbering may start later; from then on it must go on.
        let numbered = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.resigned("test-vical-10.cbor", issueID: 1))
        #expect(numbered.status == 200, "\(numbered.text)")
        let again = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.resigned("test-vical-11.cbor", issueID: nil))
        #expect(again.status == 422)
        #expect(again.json["code"] as? String == "VICAL_ROLLBACK")
        await harness.stop()
    }

    @Test func theCLIImportRefusesItTheSameWay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-cli-vical-id-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("seed"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("c.json")
        let signer = VICALAdminTests.vicals.appendingPathComponent("signer-root.pem").path
        try JSONSerialization.data(withJSONObject: ["trust": ["iacaDirectory": "trust", "seedDirectory": "seed",
                                                             "vicalSigners": ["test": signer]]]).write(to: config)
        try FileManager.default.copyItem(at: Fixtures.testVectors.appendingPathComponent("pki/iaca-p521.pem"),
                                         to: folder.appendingPathComponent("seed/iaca.pem"))
        func importing(_ file: String, _ issueID: UInt64?) throws -> ProcessRunner.Result {
            let path = folder.appendingPathComponent("\(file)-\(issueID.map(String.init) ?? "none")")
            try Self.resigned(file, issueID: issueID).write(to: path)
            return try CommandLineTests.run(["iaca", "import-vical", "--config", config.path, "--source", "test",
                                             "--at", "2030-01-01T00:00:00Z", path.path])
        }
        let five = try importing("test-vical-10.cbor", 5)
        #expect(five.status == 0, "\(five.error)")
        let listed = try CommandLineTests.run(["iaca", "list", "--config", config.path]).output
        let refused = try importing("test-vical-11.cbor", nil)
        #expect(refused.status != 0)
        #expect(refused.error.contains("no vicalIssueID"), "\(refused.error)")
        #expect(try CommandLineTests.run(["iaca", "list", "--config", config.path]).output == listed)
        let six = try importing("test-vical-11.cbor", 6)
        #expect(six.status == 0, "\(six.error)")
    }

    @Test func theScheduledRefreshRefusesItAndKeepsTheList() async throws {
        let list = try VICALAdminTests.ListServer(Array(try Self.resigned("test-vical-10.cbor", issueID: 5)))
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p521.pem")]) { config in
            var trust = config["trust"] as! [String: Any]
            trust["vicalSigners"] = ["test": VICALAdminTests.vicals.appendingPathComponent("signer-root.pem").path]
            trust["vicalSources"] = [["name": "test", "url": "http://127.0.0.1:\(list.port)/vical.cbor", "refreshHours": 24]]
            config["trust"] = trust
            // The loopback list server is allowed explicitly (the outbound policy refuses loopback and http otherwise).
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(list.port)"]]
        }
        defer { Task { await harness.stop(); await list.server.shutdown() } }
        let source = try #require(harness.service.configuration.trust.vicalSources.first)
        let refresher = harness.service.vicalRefresher
        let first = await refresher.refresh(source)
        #expect(first.outcome == "imported", "\(first.detail ?? "")")
        let version = harness.service.iacaTrust.snapshot.version

        let unnumbered = Array(try Self.resigned("test-vical-11.cbor", issueID: nil))
        list.state.body.withLock { $0 = unnumbered }
        let refused = await refresher.refresh(source)
        #expect(refused.outcome == "refused")
        #expect(refused.detail?.contains("no vicalIssueID") == true, "\(refused.detail ?? "")")
        #expect(harness.service.iacaTrust.snapshot.version == version)
        #expect(harness.service.iacaTrust.snapshot.lists["test"]?.issueID == 5)

        let six = Array(try Self.resigned("test-vical-11.cbor", issueID: 6))
        list.state.body.withLock { $0 = six }
        #expect(await refresher.refresh(source).outcome == "imported")
        #expect(harness.service.iacaTrust.snapshot.lists["test"]?.issueID == 6)
        await harness.stop()
    }
}
