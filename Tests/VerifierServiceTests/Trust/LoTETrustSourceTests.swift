import Foundation
import TestSupport
import Testing
import TrustStore
@testable import VerifierService

/// Lists of trusted entities (ETSI TS 119 602) as a trust source through the service: the generated lists of
/// `TestVectors/lote` served on loopback, fetched by the scheduled refresher through the outbound fetcher, and
/// mdocs and SD-JWT VCs that verify when their issuer is on the list in force, and not when it is not.
@Suite(.serialized)
struct LoTETrustSourceTests {
    static let port = 18621
    static let folder = Fixtures.testVectors.appendingPathComponent("lote")
    static let operatorCA = folder.appendingPathComponent("pki/operator-ca.pem").path
    static let mdoc = Fixtures.testVectors.appendingPathComponent("mdoc/cases")

    static func list(_ name: String) throws -> LoopbackFileServer.File {
        .init(bytes: try Fixtures.bytes(folder.appendingPathComponent("lists/\(name).jwt")), contentType: "application/jwt")
    }

    /// A service whose only trust is the list source `eu` of `kind` (no anchor in any directory).
    static func harness(kind: String, allowed: Bool = true, onStale: String = "withdraw", sdJwtVc: Bool = false,
                        signerAnchor: String = operatorCA, crl: String? = nil, clock: ManualClock? = nil) throws -> ServiceHarness {
        try ServiceHarness(clock: clock) { config in
            var trust = config["trust"] as? [String: Any] ?? [:]
            trust["loteSources"] = [[
                "name": "eu", "url": "http://127.0.0.1:\(port)/lists/eu.jwt", "kind": kind,
                "signerAnchors": [signerAnchor], "refreshHours": 24, "staleGraceHours": 24, "onStale": onStale,
            ]]
            config["trust"] = trust
            config["outbound"] = ["allowedDestinations": allowed ? ["127.0.0.1:\(port)", "127.0.0.1:18620"] : []]
            if let crl { config["crl"] = ["mode": crl, "allowedSchemes": ["http"], "fetchTimeoutSeconds": 2] }
            if sdJwtVc {
                // No SD-JWT VC issuer anchor of its own: an empty seed.
                let seed = FileManager.default.temporaryDirectory.appendingPathComponent("lote-seed-\(UUID().uuidString)")
                try? FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
                config["sdJwtVc"] = ["issuerDirectory": "sd-jwt-vc-issuers", "seedDirectory": seed.path]
            }
        }
    }

    static func refresh(_ harness: ServiceHarness) async throws -> String {
        let source = try #require(harness.service.loteRefresher.sources.first)
        return await harness.service.loteRefresher.refresh(source).outcome
    }

    static func verifyMDoc(_ harness: ServiceHarness) async throws -> ServiceHarness.Response {
        try await harness.post("/v1/mdoc/verify", json: [
            "deviceResponse": Data(try Fixtures.hexFile(mdoc.appendingPathComponent("valid-p256-sha256-signature.deviceresponse.hex"))).base64EncodedString(),
            "sessionTranscript": Data(try Fixtures.hexFile(mdoc.appendingPathComponent("valid-p256-sha256-signature.transcript.hex"))).base64EncodedString(),
        ])
    }

    static func verifySDJWTVC(_ harness: ServiceHarness, _ name: String) async throws -> ServiceHarness.Response {
        let testCase = try #require(SDJWTVCVectors.cases.first { $0.name == name })
        return try await harness.post("/v1/sd-jwt-vc/verify", json: [
            "presentation": try testCase.presentation, "nonce": SDJWTVCVectors.manifest?["nonce"]?.string ?? "",
            "audience": SDJWTVCVectors.manifest?["audience"]?.string ?? "", "verificationTime": "2030-01-01T00:00:00Z",
        ])
    }

    static func code(_ response: ServiceHarness.Response) -> String? {
        response.json["code"] as? String
    }

    /// An mdoc whose IACA only the mDL list names: refused before the list is fetched, verified after, with the
    /// anchor scoped to the mDL docType and marked as the list's; the sequence never goes back.
    @Test func anMDocVerifiesOnlyWhileItsIACAIsOnTheList() async throws {
        let server = try LoopbackFileServer(port: Self.port, files: ["/lists/eu.jwt": try Self.list("mdl-valid")])
        let harness = try Self.harness(kind: "mdl")
        defer { Task { await harness.stop(); await server.stop() } }
        let before = try await Self.verifyMDoc(harness)
        #expect(before.status == 422 && Self.code(before) == "ISSUER_CERTIFICATE_UNTRUSTED", "\(before.text)")

        #expect(try await Self.refresh(harness) == "imported")
        #expect(server.requests("/lists/eu.jwt") == 1)
        let anchors = harness.service.iacaTrust.snapshot.anchors
        #expect(anchors.count == 1)
        #expect(anchors.first?.metadata.source == "lote:eu")
        #expect(anchors.first?.metadata.docTypes == ["org.iso.18013.5.1.mDL"])
        #expect(anchors.first?.metadata.purposes == [.issuance])
        let after = try await Self.verifyMDoc(harness)
        #expect(after.status == 200, "\(after.text)")

        // The same list again changes nothing; a newer one is taken; an older one is refused and the newer stays.
        #expect(try await Self.refresh(harness) == "unchanged")
        server.serve("/lists/eu.jwt", try Self.list("mdl-valid-seq4"))
        #expect(try await Self.refresh(harness) == "imported")
        server.serve("/lists/eu.jwt", try Self.list("mdl-valid"))
        #expect(try await Self.refresh(harness) == "refused")
        #expect(harness.service.loteRefresher.lastOutcome("lote:eu")?.detail?.contains("LOTE_SEQUENCE_REGRESSION") == true)
        #expect(harness.service.iacaTrust.snapshot.lists["lote:eu"]?.issueID == 4)
        #expect(try await Self.verifyMDoc(harness).status == 200)

        // What operations see.
        let listed = try await harness.admin("GET", "/v1/admin/lotes")
        let source = try #require((listed.json["sources"] as? [[String: Any]])?.first)
        #expect(source["name"] as? String == "eu" && source["kind"] as? String == "mdl")
        #expect((source["inForce"] as? [String: Any])?["issueID"] as? Int == 4)
        #expect((source["lastRefresh"] as? [String: Any])?["outcome"] as? String == "refused")
        #expect(((try await harness.admin("GET", "/v1/admin/vicals")).json["sources"] as? [Any])?.isEmpty == true)
        let metrics = try await harness.request("GET", "/metrics").text
        #expect(metrics.contains("verifierd_lote_sequence_number{source=\"eu\"} 4"))
        #expect(metrics.contains("verifierd_lote_refreshes_total{source=\"eu\",outcome=\"refused\"} 1"))
        await harness.stop()
        await server.stop()
    }

    /// A list without the IACA, one naming it only as a revocation service, and a list whose signature or signer
    /// fails: none makes the mdoc verify.
    @Test(arguments: ["mdl-without-iaca", "mdl-revocation-only", "bad-signature", "signer-not-anchored", "mdl-stale", "mdl-closed"])
    func anMDocIsRefusedWhenTheListDoesNotGrantItsIACA(_ name: String) async throws {
        let server = try LoopbackFileServer(port: Self.port, files: ["/lists/eu.jwt": try Self.list(name)])
        let harness = try Self.harness(kind: "mdl")
        defer { Task { await harness.stop(); await server.stop() } }
        let outcome = try await Self.refresh(harness)
        let valid = ["mdl-without-iaca", "mdl-revocation-only"].contains(name)
        #expect(outcome == (valid ? "imported" : "refused"), "\(name)")
        let answer = try await Self.verifyMDoc(harness)
        #expect(answer.status == 422 && Self.code(answer) == "ISSUER_CERTIFICATE_UNTRUSTED", "\(name): \(answer.text)")
        if name == "mdl-revocation-only" {
            #expect(harness.service.iacaTrust.snapshot.anchors.first?.metadata.purposes == [.revocation])
        }
        await harness.stop()
        await server.stop()
    }

    /// A list at a destination the outbound policy does not allow is never contacted.
    @Test func aListOutsideTheAllowedDestinationsIsNeverFetched() async throws {
        let server = try LoopbackFileServer(port: Self.port, files: ["/lists/eu.jwt": try Self.list("mdl-valid")])
        let harness = try Self.harness(kind: "mdl", allowed: false)
        defer { Task { await harness.stop(); await server.stop() } }
        #expect(try await Self.refresh(harness) == "fetch-failed")
        #expect(server.totalRequests == 0)
        #expect(harness.service.iacaTrust.snapshot.anchors.isEmpty)
        await harness.stop()
        await server.stop()
    }

    /// Past `NextUpdate` and the grace, a failed refresh keeps nothing: under `withdraw` the list's anchors leave
    /// (and the mdoc no longer verifies); under `warn` they stay and readiness says the list is stale.
    @Test(arguments: ["withdraw", "warn"])
    func aStaleListStopsGrantingTrustUnderWithdraw(_ policy: String) async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let server = try LoopbackFileServer(port: Self.port, files: ["/lists/eu.jwt": try Self.list("mdl-valid")])
        let harness = try Self.harness(kind: "mdl", onStale: policy, clock: clock)
        defer { Task { await harness.stop(); await server.stop() } }
        #expect(try await Self.refresh(harness) == "imported")
        // mdl-valid's NextUpdate is 2030-05-01; within the 24 h grace the list still counts.
        clock.advance(by: TestClock.date("2030-05-01T12:00:00Z").timeIntervalSince(clock.now))
        #expect(try await Self.refresh(harness) == "unchanged")
        #expect(harness.service.iacaTrust.snapshot.anchors.count == 1)
        clock.advance(by: TestClock.date("2030-05-02T12:00:00Z").timeIntervalSince(clock.now))
        #expect(try await Self.refresh(harness) == "refused")
        #expect(harness.service.loteRefresher.lastOutcome("lote:eu")?.detail?.contains("LOTE_STALE") == true)
        if policy == "withdraw" {
            #expect(harness.service.iacaTrust.snapshot.anchors.isEmpty)
            #expect(harness.service.iacaTrust.snapshot.lists["lote:eu"] == nil)
        } else {
            #expect(harness.service.iacaTrust.snapshot.anchors.count == 1)
            let ready = try await harness.request("GET", "/readyz")
            #expect(ready.text.contains("LoTE eu is past its NextUpdate"), "\(ready.text)")
        }
        await harness.stop()
        await server.stop()
    }

    /// An SD-JWT VC whose issuer CA only the PID providers list names verifies once the list is in force, scoped to
    /// `urn:eudi:pid:1`; the list's PID issuance CA also joins the IACA set for PID mdocs.
    @Test func anSDJWTVCVerifiesOnlyWhileItsIssuerIsOnThePIDList() async throws {
        let server = try LoopbackFileServer(port: Self.port, files: ["/lists/eu.jwt": try Self.list("pid-valid")])
        let harness = try Self.harness(kind: "pid", sdJwtVc: true)
        defer { Task { await harness.stop(); await server.stop() } }
        let before = try await Self.verifySDJWTVC(harness, "valid")
        #expect(before.status == 422, "\(before.text)")
        #expect(try await Self.refresh(harness) == "imported")
        let issuers = try #require(harness.service.sdJwtVcIssuerTrust).snapshot.anchors
        #expect(Set(issuers.map { $0.metadata.docTypes ?? [] }) == [["urn:eudi:pid:1"]])
        #expect(Set(issuers.compactMap { $0.metadata.purposes }) == [[.issuance], [.revocation]])
        #expect(harness.service.iacaTrust.snapshot.anchors.allSatisfy { $0.metadata.docTypes == ["eu.europa.ec.eudi.pid.1"] })
        let after = try await Self.verifySDJWTVC(harness, "valid")
        #expect(after.status == 200, "\(after.text)")
        await harness.stop()
        await server.stop()
    }

    /// A PID list with no issuance service for the issuer grants it nothing.
    @Test func anSDJWTVCIsRefusedWhenThePIDListLacksItsIssuer() async throws {
        let server = try LoopbackFileServer(port: Self.port, files: ["/lists/eu.jwt": try Self.list("pid-without-issuer")])
        let harness = try Self.harness(kind: "pid", sdJwtVc: true)
        defer { Task { await harness.stop(); await server.stop() } }
        #expect(try await Self.refresh(harness) == "imported")
        let answer = try await Self.verifySDJWTVC(harness, "valid")
        #expect(answer.status == 422, "\(answer.text)")
        await harness.stop()
        await server.stop()
    }

    /// The admin import: a dry run answers the diff and writes nothing; a refused list names its code; the import
    /// puts the list in force.
    @Test func anOperatorImportsADryRunAndARefusal() async throws {
        let harness = try Self.harness(kind: "mdl")
        defer { Task { await harness.stop() } }
        let body = Data(try Self.list("mdl-valid").bytes)
        let dry = try await harness.admin("POST", "/v1/admin/lotes/eu?dryRun=true", body: body)
        #expect(dry.status == 200, "\(dry.text)")
        #expect(dry.json["dryRun"] as? Bool == true && dry.json["sequenceNumber"] as? Int == 3)
        #expect(((dry.json["trustSets"] as? [[String: Any]])?.first?["added"] as? [Any])?.count == 1)
        #expect(harness.service.iacaTrust.snapshot.anchors.isEmpty)
        let forged = try await harness.admin("POST", "/v1/admin/lotes/eu", body: Data(try Self.list("bad-signature").bytes))
        #expect(forged.status == 422 && Self.code(forged) == "LOTE_SIGNATURE_INVALID", "\(forged.text)")
        let unknown = try await harness.admin("POST", "/v1/admin/lotes/other", body: body)
        #expect(unknown.status == 400 && Self.code(unknown) == "LOTE_SOURCE_NOT_CONFIGURED")
        #expect(try await harness.request("POST", "/v1/admin/lotes/eu", body: body).status == 401)
        let imported = try await harness.admin("POST", "/v1/admin/lotes/eu", body: body)
        #expect(imported.status == 200 && harness.service.iacaTrust.snapshot.anchors.count == 1, "\(imported.text)")
        #expect(try await Self.verifyMDoc(harness).status == 200)
        await harness.stop()
    }

    /// The list signer's certificate against its CA's CRL (served on the distribution point it names): a list
    /// signed by a revoked signer is refused (`CERTIFICATE_REVOKED`) and grants nothing; the same list by a good
    /// signer is imported. Without the CRL, `enforce` refuses (undetermined) and `warn` imports.
    @Test(arguments: [("mdl-valid-crl-signer-good", "enforce", true, "imported"),
                      ("mdl-valid-crl-signer-revoked", "enforce", true, "refused"),
                      ("mdl-valid-crl-signer-revoked", "warn", true, "refused"),
                      ("mdl-valid-crl-signer-good", "enforce", false, "refused"),
                      ("mdl-valid-crl-signer-good", "warn", false, "imported")])
    func aListSignedByARevokedSignerIsRefused(_ name: String, _ mode: String, _ published: Bool, _ outcome: String) async throws {
        let lists = try LoopbackFileServer(port: Self.port, files: ["/lists/eu.jwt": try Self.list(name)])
        let crls = try LoopbackFileServer(port: 18620, files: published ? [
            "/crl/crl-operator-ca.crl": .init(bytes: try Fixtures.bytes(Self.folder.appendingPathComponent("crls/crl-operator-ca.crl")),
                                             contentType: "application/pkix-crl"),
        ] : [:])
        let harness = try Self.harness(kind: "mdl", signerAnchor: Self.folder.appendingPathComponent("pki/crl-operator-ca.pem").path,
                                       crl: mode)
        defer { Task { await harness.stop(); await lists.stop(); await crls.stop() } }
        #expect(try await Self.refresh(harness) == outcome, "\(name) \(mode)")
        let detail = harness.service.loteRefresher.lastOutcome("lote:eu")?.detail ?? ""
        if outcome == "refused" {
            #expect(detail.hasPrefix(published ? "CERTIFICATE_REVOKED" : "CRL_UNAVAILABLE"), "\(detail)")
            #expect(harness.service.iacaTrust.snapshot.anchors.isEmpty)
        } else {
            #expect(harness.service.iacaTrust.snapshot.anchors.count == 1)
            #expect(published || detail.contains("CRL_UNAVAILABLE"), "\(detail)")
        }
        #expect(crls.requests("/crl/crl-operator-ca.crl") == (published ? 1 : 0) || !published)
        // The admin route judges the signer the same way, and reports what did not refuse the list.
        let posted = try await harness.admin("POST", "/v1/admin/lotes/eu?dryRun=true&at=2030-01-01T00:00:00Z",
                                             body: Data(try Self.list(name).bytes))
        if outcome == "refused" {
            #expect(posted.status == 422 && Self.code(posted) == (published ? "CERTIFICATE_REVOKED" : "CRL_UNAVAILABLE"), "\(posted.text)")
        } else {
            let warnings = posted.json["warnings"] as? [String]
            #expect(posted.status == 200 && warnings?.count == (published ? 0 : 1), "\(posted.text)")
            #expect(published || warnings?.first?.hasPrefix("CRL_UNAVAILABLE") == true, "\(posted.text)")
        }
        await harness.stop()
        await lists.stop()
        await crls.stop()
    }

    /// The offline import: a dry run writes nothing, the import puts the IACA the list grants into the directory
    /// scoped and sourced, a forged list is refused with its code, an unknown source too.
    @Test func theCommandLineImportsAList() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-cli-lote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("trust"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("c.json")
        let settings: [String: Any] = ["trust": ["iacaDirectory": "trust", "loteSources": [[
            "name": "eu", "url": "https://lists.example.com/mdl.jwt", "kind": "mdl", "signerAnchors": [Self.operatorCA]]]]]
        try JSONSerialization.data(withJSONObject: settings).write(to: config)
        let list = Self.folder.appendingPathComponent("lists/mdl-valid.jwt").path
        let at = ["--at", "2030-01-01T00:00:00Z"]
        let dry = try CommandLineTests.run(["iaca", "import-lote", "--config", config.path, "--source", "eu", "--dry-run"] + at + [list])
        #expect(dry.status == 0, "\(dry.error)")
        #expect(dry.output.contains("dry run: mdl list") && dry.output.contains("iaca added"), "\(dry.output)")
        #expect(try CommandLineTests.run(["iaca", "list", "--config", config.path]).output.isEmpty)
        let real = try CommandLineTests.run(["iaca", "import-lote", "--config", config.path, "--source", "eu"] + at + [list])
        #expect(real.status == 0, "\(real.error)")
        let listed = try CommandLineTests.run(["iaca", "list", "--config", config.path]).output
        #expect(listed.contains("lote:eu") && listed.contains("org.iso.18013.5.1.mDL"), "\(listed)")
        let forged = try CommandLineTests.run(["iaca", "import-lote", "--config", config.path, "--source", "eu"] + at
                                              + [Self.folder.appendingPathComponent("lists/bad-signature.jwt").path])
        #expect(forged.status == 2 && forged.error.contains("LOTE_SIGNATURE_INVALID"), "\(forged.error)")
        let older = try CommandLineTests.run(["iaca", "import-lote", "--config", config.path, "--source", "eu"] + at
                                             + [Self.folder.appendingPathComponent("lists/mdl-seq2.jwt").path])
        #expect(older.status == 2 && older.error.contains("LOTE_SEQUENCE_REGRESSION"), "\(older.error)")
        let unknown = try CommandLineTests.run(["iaca", "import-lote", "--config", config.path, "--source", "other", list])
        #expect(unknown.status == 2 && unknown.error.contains("not in trust.loteSources"), "\(unknown.error)")
    }

    /// Every refused list of the vectors (mdl and pid kinds), posted to the admin route of a source of its kind:
    /// 422 with the manifest's code, nothing imported.
    @Test(arguments: ["mdl", "pid"])
    func everyRefusedListGetsItsCodeThroughTheService(_ kind: String) async throws {
        let manifest = try JSONValue.load(Self.folder.appendingPathComponent("manifest.json"))
        let refused = (manifest["lists"]?.array ?? []).filter {
            $0["kind"]?.string == kind && $0["expect"]?.string != "valid" && $0["importAfter"] == nil
        }
        #expect(refused.count >= (kind == "mdl" ? 20 : 5))
        let harness = try Self.harness(kind: kind, sdJwtVc: kind == "pid")
        defer { Task { await harness.stop() } }
        for entry in refused {
            let name = entry["name"]?.string ?? "?"
            let body = Data(try Fixtures.bytes(Self.folder.appendingPathComponent(entry["file"]?.string ?? "")))
            let answer = try await harness.admin("POST", "/v1/admin/lotes/eu?at=2030-01-01T00:00:00Z", body: body)
            #expect(answer.status == 422 && Self.code(answer) == entry["expect"]?.string, "\(name): \(answer.text)")
        }
        #expect(harness.service.iacaTrust.snapshot.anchors.isEmpty)
        await harness.stop()
    }
}
