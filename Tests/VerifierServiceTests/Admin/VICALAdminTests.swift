import Foundation
import HTTPServer
import HTTPTypes
import Synchronization
import Testing
import TestSupport
@testable import TrustManagement
@testable import VerifierService

/// VICAL import over the admin API, docType scopes, and the scheduled refresh from a loopback server.
@Suite(.serialized)
struct VICALAdminTests {
    static let vicals = Fixtures.testVectors.appendingPathComponent("vical")
    static let shared = Fixtures.sharedVectors.appendingPathComponent("vical")
    static let p256 = ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")

    /// `allowed`: the loopback list servers the outbound policy lets the refresher reach (`outbound.allowedDestinations`).
    static func harness(sources: [[String: Any]] = [], allowed: [Int] = [], retrySeconds: Int = 60) throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p521.pem")]) { config in
            var trust = config["trust"] as! [String: Any]
            trust["vicalSigners"] = ["test": vicals.appendingPathComponent("signer-root.pem").path,
                                     "aamva": shared.appendingPathComponent("aamva_dts_root_ca.pem").path]
            if !sources.isEmpty { trust["vicalSources"] = sources }
            trust["vicalRetrySeconds"] = retrySeconds
            config["trust"] = trust
            if !allowed.isEmpty { config["outbound"] = ["allowedDestinations": allowed.map { "127.0.0.1:\($0)" }] }
        }
    }

    static func vical(_ name: String) throws -> Data { try Data(contentsOf: vicals.appendingPathComponent(name)) }

    func anchors(_ harness: ServiceHarness) async throws -> [[String: Any]] {
        try #require(try await harness.admin("GET", "/v1/admin/iaca").json["anchors"] as? [[String: Any]])
    }

    /// A VICAL imported by hand (no schedule) that outlives its nextUpdate degrades /readyz as a scheduled one does.
    @Test func aHandImportedVICALPastItsNextUpdateDegradesReadiness() async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p521.pem")], clock: clock) { config in
            var trust = config["trust"] as! [String: Any]
            trust["vicalSigners"] = ["test": Self.vicals.appendingPathComponent("signer-root.pem").path]
            config["trust"] = trust
        }
        defer { Task { await harness.stop() } }
        let imported = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.vical("test-vical-10.cbor"))
        #expect(imported.status == 200)
        let next = try #require((imported.json["nextUpdate"] as? String).flatMap(TestClock.date))
        #expect(try await harness.request("GET", "/readyz").json["status"] as? String == "ready")
        clock.advance(by: next.timeIntervalSince(TestClock.date("2030-01-01T00:00:00Z")) + 60)
        let ready = try await harness.request("GET", "/readyz")
        #expect(ready.json["status"] as? String == "degraded")
        #expect((ready.json["degraded"] as? [String])?.contains("VICAL test is past its nextUpdate") == true, "\(ready.json)")
        await harness.stop()
    }

    @Test func importDryRunRollbackAndRefusalsChangeOnlyWhatTheySay() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let before = try await anchors(harness)
        #expect(before.count == 1)

        let dry = try await harness.admin("POST", "/v1/admin/vicals/test?dryRun=true", body: try Self.vical("test-vical-10.cbor"))
        #expect(dry.status == 200, "\(dry.text)")
        #expect(dry.json["dryRun"] as? Bool == true)
        #expect((dry.json["added"] as? [Any])?.count == 3)
        #expect(try await anchors(harness).count == 1, "a dry run writes nothing")

        let imported = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.vical("test-vical-10.cbor"))
        #expect(imported.status == 200)
        let listed = try await anchors(harness)
        #expect(listed.count == 4, "the manual iaca-p521 stays beside the three from the list")
        let fromList = listed.filter { $0["source"] as? String == "vical:test" }
        #expect(fromList.count == 3)
        #expect(fromList.contains { ($0["docTypes"] as? [String]) == ["org.iso.23220.photoid.1"] })
        #expect(listed.contains { $0["source"] as? String == "manual" })

        // The next issue: one removed, one added, two unchanged.
        let next = try await harness.admin("POST", "/v1/admin/vicals/test", body: try Self.vical("test-vical-11.cbor"))
        #expect((next.json["added"] as? [Any])?.count == 1)
        #expect((next.json["removed"] as? [Any])?.count == 1)
        #expect((next.json["unchanged"] as? [Any])?.count == 2)
        let version = try await harness.admin("GET", "/v1/admin/iaca").json["version"] as? Int

        var flipped = try Self.vical("test-vical-11.cbor")
        flipped[flipped.count - 3] ^= 0x04
        // Refused, and nothing changes: a rollback, another signer, a flipped bit, the wrong EKU, a stale list.
        let refusals: [(String, Data, String)] = [
            ("rollback", try Self.vical("test-vical-9.cbor"), "VICAL_ROLLBACK"),
            ("other signer", try Self.vical("test-vical-10-other-signer.cbor"), "VICAL_SIGNER_UNTRUSTED"),
            ("eku", try Self.vical("test-vical-12-wrong-eku.cbor"), "VICAL_SIGNER_NOT_AUTHORIZED"),
            ("stale", try Self.vical("test-vical-13-stale.cbor"), "VICAL_STALE"),
            ("flipped", flipped, "VICAL_SIGNATURE_INVALID"),
        ]
        for (name, body, code) in refusals {
            let answer = try await harness.admin("POST", "/v1/admin/vicals/test", body: body)
            #expect(answer.status == 422, "\(name)")
            #expect(answer.json["code"] as? String == code, "\(name): \(answer.text)")
        }
        #expect(try await harness.admin("GET", "/v1/admin/iaca").json["version"] as? Int == version)
        // A source without a signer anchor is refused.
        let unknown = try await harness.admin("POST", "/v1/admin/vicals/nope", body: try Self.vical("test-vical-11.cbor"))
        #expect(unknown.status == 400)
        #expect(unknown.json["code"] as? String == "VICAL_SOURCE_NOT_CONFIGURED")
        #expect(try await harness.request("POST", "/v1/admin/vicals/test", body: try Self.vical("test-vical-11.cbor")).status == 401)

        let sources = try #require(try await harness.admin("GET", "/v1/admin/vicals").json["sources"] as? [[String: Any]])
        let test = try #require(sources.first { $0["name"] as? String == "test" })
        #expect((test["inForce"] as? [String: Any])?["issueID"] as? Int == 11)
        await harness.stop()
    }

    @Test func theAAMVAListImportsAtItsDateOnly() async throws {
        guard Fixtures.sharedVectorsAvailable else { return }
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let bytes = try Data(contentsOf: Self.shared.appendingPathComponent("aamva-vical-2025-11-18.cbor"))
        // The harness clock is 2030: the signer certificate expired in April 2026.
        let today = try await harness.admin("POST", "/v1/admin/vicals/aamva", body: bytes)
        #expect(today.status == 422)
        #expect(today.json["code"] as? String == "VICAL_SIGNER_EXPIRED")
        let atItsDate = try await harness.admin("POST", "/v1/admin/vicals/aamva?at=2025-11-18T19:00:00Z", body: bytes)
        #expect(atItsDate.status == 200, "\(atItsDate.text)")
        #expect((atItsDate.json["added"] as? [Any])?.count == 14)
        let listed = try await anchors(harness)
        #expect(listed.filter { $0["source"] as? String == "vical:aamva" }.count == 14)
        #expect(listed.filter { $0["source"] as? String == "vical:aamva" }.allSatisfy {
            ($0["docTypes"] as? [String]) == ["org.iso.18013.5.1.mDL"] && $0["issuingCountry"] as? String == "US"
        })
        await harness.stop()
    }

    @Test func aManualAnchorScopedToAnotherDocTypeDoesNotVouchForAnMDL() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let (body, _) = try ServiceHarness.appleCase("valid-merchant-1")
        let pem = try Data(contentsOf: Self.p256)
        let added = try await harness.admin("POST", "/v1/admin/iaca?docType=org.iso.23220.photoid.1", body: pem)
        #expect(added.status == 201)
        #expect(((added.json["anchors"] as? [[String: Any]])?.first?["docTypes"] as? [String]) == ["org.iso.23220.photoid.1"])
        let scoped = try await harness.post("/v1/apple/verify", json: body)
        #expect(scoped.status == 422)
        #expect(scoped.json["code"] as? String == "ISSUER_NOT_AUTHORIZED_FOR_DOCTYPE", "\(scoped.text)")
        // PUT with a JSON body re-scopes the manual set: the mDL docType now included.
        let put = try JSONSerialization.data(withJSONObject: ["anchors": [
            ["certificate": String(decoding: pem, as: UTF8.self), "docTypes": ["org.iso.18013.5.1.mDL", "org.iso.23220.photoid.1"]],
        ]])
        // A mistyped "doctypes" would leave the anchor unscoped (trusted for every docType): refused by name, and
        // the set in force stays.
        let mistyped = try JSONSerialization.data(withJSONObject: ["anchors": [
            ["certificate": String(decoding: pem, as: UTF8.self), "doctypes": ["org.iso.18013.5.1.mDL"]],
        ]])
        let refused = try await harness.request("PUT", "/v1/admin/iaca", body: mistyped, headers: [
            "Authorization": "Bearer \(ServiceHarness.adminToken)", "Content-Type": "application/json"])
        #expect(refused.status == 400)
        #expect(refused.json["detail"] as? String == #"unknown field "anchors[0].doctypes" (known: certificate, docTypes)"#,
                "\(refused.text)")
        #expect(try await harness.post("/v1/apple/verify", json: body).json["code"] as? String
                == "ISSUER_NOT_AUTHORIZED_FOR_DOCTYPE")
        let replaced = try await harness.request("PUT", "/v1/admin/iaca", body: put, headers: [
            "Authorization": "Bearer \(ServiceHarness.adminToken)", "Content-Type": "application/json"])
        #expect(replaced.status == 200, "\(replaced.text)")
        #expect(try await harness.post("/v1/apple/verify", json: body).status == 200)
        await harness.stop()
    }

    /// A loopback VICAL server (our own HTTP server) with ETag / If-None-Match, and a body that can be swapped.
    final class ListServer: Sendable {
        final class State: Sendable {
            let body: Mutex<[UInt8]>
            let requests = Mutex<[String?]>([])
            init(_ bytes: [UInt8]) { body = Mutex(bytes) }
        }
        let server: HTTPServer
        let state: State
        var port: Int { server.port }

        init(_ bytes: [UInt8]) throws {
            let state = State(bytes)
            self.state = state
            var router = Router()
            router.getImmediate("/vical.cbor") { request in
                let current = state.body.withLock { $0 }
                let etag = "\"\(current.count)-\(current.reduce(0) { ($0 &* 31) &+ Int($1) })\""
                let presented = request.head.headerFields[.ifNoneMatch]
                state.requests.withLock { $0.append(presented) }
                var fields = HTTPFields()
                fields[.eTag] = etag
                if presented == etag { return HTTPServerResponse(status: .notModified, headerFields: fields) }
                fields[.contentType] = "application/cbor"
                return HTTPServerResponse(status: .ok, headerFields: fields, body: current)
            }
            server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: router)
            try server.start()
        }
    }

    @Test func scheduledRefreshUsesETagsAndKeepsTheListOnFailure() async throws {
        let list = try ListServer(Array(try Self.vical("test-vical-10.cbor")))
        let harness = try Self.harness(sources: [["name": "test", "url": "http://127.0.0.1:\(list.port)/vical.cbor", "refreshHours": 24]],
                                       allowed: [list.port])
        defer { Task { await harness.stop(); await list.server.shutdown() } }
        let source = try #require(harness.service.configuration.trust.vicalSources.first)
        let refresher = harness.service.vicalRefresher

        #expect(await refresher.refresh(source).outcome == "imported")
        let version = harness.service.iacaTrust.snapshot.version
        #expect(harness.service.iacaTrust.snapshot.anchors.count == 4)
        // Second fetch: the server sees the ETag and answers 304; nothing is written.
        #expect(await refresher.refresh(source).outcome == "not-modified")
        #expect(list.state.requests.withLock { $0 }.last??.isEmpty == false)
        #expect(harness.service.iacaTrust.snapshot.version == version)

        // A new issue is imported; then a corrupted download is refused, the list in force stays, /readyz says so.
        list.state.body.withLock { $0 = Array(try! Self.vical("test-vical-11.cbor")) }
        #expect(await refresher.refresh(source).outcome == "imported")
        let imported = harness.service.iacaTrust.snapshot
        list.state.body.withLock { $0[$0.count - 2] ^= 0x01 }
        let failed = await refresher.refresh(source)
        #expect(failed.outcome == "refused")
        #expect(harness.service.iacaTrust.snapshot.version == imported.version)
        let ready = try await harness.request("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(ready.json["status"] as? String == "degraded")
        let metrics = try await harness.request("GET", "/metrics").text
        #expect(metrics.contains("verifierd_vical_refreshes_total{source=\"test\",outcome=\"refused\"} 1")
                || metrics.contains("verifierd_vical_refreshes_total{outcome=\"refused\",source=\"test\"} 1"), "\(metrics)")
        #expect(metrics.contains("verifierd_vical_next_update_margin_seconds{source=\"test\"}"))
        #expect(harness.logs.all.contains { $0.contains("VICAL refresh failed") })
        // An unreachable server is a fetch failure, not a crash, and the list stays.
        await list.server.shutdown()
        #expect(await refresher.refresh(source).outcome == "fetch-failed")
        #expect(harness.service.iacaTrust.snapshot.version == imported.version)
        await harness.stop()
    }

    /// The VICAL fetcher goes through the outbound policy: a loopback source that is not on the allowlist is never
    /// requested, whatever the configuration's URL says.
    @Test func aLoopbackSourceOffTheAllowlistIsNeverRequested() async throws {
        let list = try ListServer(Array(try Self.vical("test-vical-10.cbor")))
        let other = try ListServer(Array(try Self.vical("test-vical-10.cbor")))
        let harness = try Self.harness(sources: [["name": "test", "url": "http://127.0.0.1:\(list.port)/vical.cbor", "refreshHours": 24]],
                                       allowed: [other.port])
        defer { Task { await harness.stop(); await list.server.shutdown(); await other.server.shutdown() } }
        let source = try #require(harness.service.configuration.trust.vicalSources.first)
        #expect(await harness.service.vicalRefresher.refresh(source).outcome == "fetch-failed")
        #expect(list.state.requests.withLock { $0 }.isEmpty, "the refused destination saw no request")
        #expect(harness.service.iacaTrust.snapshot.anchors.count == 1)
        await harness.stop()
    }

    /// After a failed scheduled refresh the next try comes after `trust.vicalRetrySeconds` (doubling), not after the
    /// source's 24-hour interval.
    @Test func aFailedScheduledRefreshIsRetriedSoon() async throws {
        var broken = Array(try Self.vical("test-vical-10.cbor"))
        broken[broken.count - 2] ^= 0x01
        let list = try ListServer(broken)
        let harness = try Self.harness(sources: [["name": "test", "url": "http://127.0.0.1:\(list.port)/vical.cbor", "refreshHours": 24]],
                                       allowed: [list.port], retrySeconds: 1)
        defer { Task { await harness.stop(); await list.server.shutdown() } }
        let running = Task { await harness.service.vicalRefresher.run() }
        defer { running.cancel() }
        var requests = 0
        for _ in 0..<100 where requests < 1 {
            try await Task.sleep(for: .milliseconds(50))
            requests = list.state.requests.withLock { $0.count }
        }
        #expect(requests >= 1 && harness.service.iacaTrust.snapshot.anchors.count == 1, "the broken list was refused")
        list.state.body.withLock { $0 = Array(try! Self.vical("test-vical-10.cbor")) }
        var anchors = 1
        for _ in 0..<100 where anchors == 1 {
            try await Task.sleep(for: .milliseconds(50))
            anchors = harness.service.iacaTrust.snapshot.anchors.count
        }
        #expect(anchors == 4, "the retry imported the repaired list within 5 s")
        #expect(harness.logs.all.contains { $0.contains("VICAL refresh retry scheduled") })
        running.cancel()
        await harness.stop()
    }

    @Test func theRetryDelayDoublesUpToTheIntervalWithAtMostATenthOfJitter() {
        let schedule = RefreshSchedule(intervalSeconds: 3600, retrySeconds: 60)
        #expect(schedule.delay(consecutiveFailures: 0) == 3600)
        #expect(schedule.delay(consecutiveFailures: 1) == 60)
        #expect(schedule.delay(consecutiveFailures: 2) == 120)
        #expect(schedule.delay(consecutiveFailures: 6) == 1920)
        #expect(schedule.delay(consecutiveFailures: 7) == 3600)
        #expect(schedule.delay(consecutiveFailures: 1000) == 3600, "no overflow however long the outage")
        let jittered = schedule.delay(consecutiveFailures: 1, jitter: 0.999_999)
        #expect(jittered > 65.9 && jittered < 66.0)
        #expect(schedule.delay(consecutiveFailures: 7, jitter: 0.5) == 3600, "never beyond the interval")
    }
}
