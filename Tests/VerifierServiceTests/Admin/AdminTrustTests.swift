import Foundation
import Testing
import TestSupport
@testable import VerifierService

/// The trusted-IACA directory through the admin API.
@Suite(.serialized)
struct AdminTrustTests {
    static let p256 = ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")
    static let p384 = ServiceHarness.pki.appendingPathComponent("iaca-p384.pem")

    @Test func adminNeedsTheToken() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        let missing = try await harness.request("GET", "/v1/admin/iaca")
        #expect(missing.status == 401)
        #expect(missing.headers["www-authenticate"] == "Bearer")
        #expect(try await harness.request("GET", "/v1/admin/iaca", headers: ["Authorization": "Bearer nope"]).status == 401)
        #expect(try await harness.request("GET", "/v1/admin/iaca", headers: ["Authorization": "Basic abc"]).status == 401)
        let list = try await harness.admin("GET", "/v1/admin/iaca")
        #expect(list.status == 200)
        let anchors = try #require(list.json["anchors"] as? [[String: Any]])
        #expect(anchors.count == 1)
        #expect((anchors[0]["sha256"] as? String)?.count == 64)
        #expect(anchors[0]["status"] as? String == "valid")
        #expect(anchors[0]["country"] as? String == "US")
        #expect(anchors[0]["file"] as? String == "iaca-p384.pem")
        await harness.stop()
    }

    @Test func withoutAnAdminTokenTheRoutesDoNotExist() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384]) { $0["admin"] = nil }
        defer { Task { await harness.stop() } }
        #expect(try await harness.admin("GET", "/v1/admin/iaca").status == 404)
        await harness.stop()
    }

    @Test func addMakesADocumentVerifyAndDeleteUndoesIt() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        let (body, _) = try ServiceHarness.appleCase("valid-merchant-1")
        let before = try await harness.post("/v1/apple/verify", json: body)
        #expect(before.status == 422)
        #expect(before.json["code"] as? String == "ISSUER_CERTIFICATE_UNTRUSTED")

        let added = try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: Self.p256))
        #expect(added.status == 201)
        let fingerprint = try #require((added.json["anchors"] as? [[String: Any]])?.first?["sha256"] as? String)
        #expect(try await harness.post("/v1/apple/verify", json: body).status == 200)
        #expect(try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: Self.p256)).status == 409)

        // The set survives a restart: a new service on the same directory has it.
        let restarted = try VerifierService(configuration: harness.service.configuration, logger: .init(label: "restart"))
        #expect(restarted.iacaTrust.snapshot.anchors.contains { $0.sha256 == fingerprint })

        #expect(try await harness.admin("DELETE", "/v1/admin/iaca/\(fingerprint)").status == 204)
        #expect(try await harness.admin("DELETE", "/v1/admin/iaca/\(fingerprint)").status == 404)
        let after = try await harness.post("/v1/apple/verify", json: body)
        #expect(after.json["code"] as? String == "ISSUER_CERTIFICATE_UNTRUSTED")
        await harness.stop()
    }

    @Test func unusableCertificatesAreRefused() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        let ds = try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: ServiceHarness.pki.appendingPathComponent("ds-p256.pem")))
        #expect(ds.status == 400)
        #expect((ds.json["detail"] as? String)?.contains("not a CA") == true)
        let garbage = try await harness.admin("POST", "/v1/admin/iaca", body: Data("hello".utf8))
        #expect(garbage.status == 400)
        let expiredFile = ServiceHarness.pki.appendingPathComponent("iaca-expired.pem")
        let expired = try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: expiredFile))
        #expect(expired.status == 400)
        #expect((expired.json["detail"] as? String)?.contains("?allowExpired=true") == true, "\(expired.json)")
        #expect(try await harness.admin("POST", "/v1/admin/iaca?allowExpired=true", body: try Data(contentsOf: expiredFile)).status == 201)
        let list = try await harness.admin("GET", "/v1/admin/iaca")
        #expect((list.json["anchors"] as? [[String: Any]])?.contains { $0["status"] as? String == "expired" } == true)
        await harness.stop()
    }

    @Test func putReplacesTheWholeSet() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        var bundle = try Data(contentsOf: Self.p256)
        bundle += try Data(contentsOf: ServiceHarness.pki.appendingPathComponent("iaca-p521.pem"))
        let replaced = try await harness.admin("PUT", "/v1/admin/iaca", body: bundle)
        #expect(replaced.status == 200)
        let anchors = try #require(replaced.json["anchors"] as? [[String: Any]])
        #expect(anchors.count == 2)
        #expect(!anchors.contains { ($0["subject"] as? String)?.contains("P-384") == true })
        // The directory now has a `current` link to a complete version.
        let trust = harness.folder.appendingPathComponent("trusted-iaca")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: trust.appendingPathComponent("current").path)
        #expect(link.hasPrefix(".versions/"))
        let files = try FileManager.default.contentsOfDirectory(atPath: trust.appendingPathComponent(link).path)
        #expect(files.filter { $0.hasSuffix(".pem") }.count == 2)
        #expect(files.contains("anchors.json"))
        // A failed PUT changes nothing.
        let bad = try await harness.admin("PUT", "/v1/admin/iaca", body: try Data(contentsOf: ServiceHarness.pki.appendingPathComponent("ds-p256.pem")))
        #expect(bad.status == 400)
        #expect((try await harness.admin("GET", "/v1/admin/iaca").json["anchors"] as? [[String: Any]])?.count == 2)
        await harness.stop()
    }

    @Test func aDuplicateNameInAJSONBodyIsRefusedAndTheSetStays() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        let pem = String(decoding: try JSONSerialization.data(withJSONObject: try Fixtures.text(Self.p256), options: .fragmentsAllowed),
                         as: UTF8.self)
        let before = try #require(try await harness.admin("GET", "/v1/admin/iaca").json["anchors"] as? [[String: Any]])
        // Which scope, which certificate, which list? Foundation would keep one of the two, other readers the other.
        let bodies: [(String, String)] = [
            (#"{"anchors": [{"certificate": \#(pem), "docTypes": ["org.iso.18013.5.1.mDL"], "docTypes": ["org.iso.23220.photoid.1"]}]}"#,
             "anchors[0].docTypes"),
            (#"{"anchors": [{"certificate": \#(pem)}, {"certificate": \#(pem), "\u0063ertificate": \#(pem)}]}"#, "anchors[1].certificate"),
            (#"{"anchors": [], "anchors": [{"certificate": \#(pem)}]}"#, "anchors"),
        ]
        for (body, path) in bodies {
            for method in ["PUT", "POST"] {
                let refused = try await harness.request(method, "/v1/admin/iaca", body: Data(body.utf8), headers: [
                    "Authorization": "Bearer \(ServiceHarness.adminToken)", "Content-Type": "application/json"])
                #expect(refused.status == 400, "\(method) \(refused.text)")
                #expect(refused.json["code"] as? String == "INVALID_REQUEST")
                #expect(refused.json["detail"] as? String == #"duplicate field "\#(path)" (a name may appear only once in an object)"#,
                        "\(refused.text)")
            }
        }
        // The trust set in force is unchanged.
        let after = try #require(try await harness.admin("GET", "/v1/admin/iaca").json["anchors"] as? [[String: Any]])
        #expect(after.map { $0["sha256"] as? String } == before.map { $0["sha256"] as? String })
        #expect(after.count == 1)
        await harness.stop()
    }

    @Test func reloadPicksUpHandEdits() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        let trust = harness.folder.appendingPathComponent("trusted-iaca")
        try FileManager.default.copyItem(at: Self.p256, to: trust.appendingPathComponent("added-by-hand.pem"))
        let reloaded = try await harness.admin("POST", "/v1/admin/iaca/reload")
        #expect(reloaded.status == 200)
        #expect((reloaded.json["anchors"] as? [[String: Any]])?.count == 2)
        // Reloading again finds nothing new: the same version, no change record.
        let version = harness.service.iacaTrust.snapshot.version
        let changes = try await harness.service.iacaTrust.recentChanges().count
        let again = try await harness.admin("POST", "/v1/admin/iaca/reload")
        #expect(again.status == 200 && again.json["version"] as? Int == version)
        #expect(try await harness.service.iacaTrust.recentChanges().count == changes)
        // An unusable file is refused and the set in force stays.
        try FileManager.default.copyItem(at: ServiceHarness.pki.appendingPathComponent("ds-p256.pem"),
                                         to: trust.appendingPathComponent("oops.pem"))
        #expect(try await harness.admin("POST", "/v1/admin/iaca/reload").status == 422)
        harness.service.iacaTrust.reloadIfChanged(actor: "test")
        #expect(harness.service.iacaTrust.snapshot.anchors.count == 2)
        await harness.stop()
    }

    @Test func changesAreLoggedWithoutCertificateBodies() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        _ = try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: Self.p256))
        let lines = harness.logs.all
        let change = try #require(lines.first { $0.contains("trust set changed") })
        #expect(change.contains("\"actor\":\"admin-token:"))
        #expect(change.contains("\"action\":\"add\""))
        #expect(!lines.joined().contains("BEGIN CERTIFICATE"))
        #expect(!lines.joined().contains(ServiceHarness.adminToken))
        await harness.stop()
    }
}
