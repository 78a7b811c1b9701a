import Foundation
import TestSupport
import Testing
@testable import VerifierConfiguration
@testable import VerifierService

/// WRPRC providers lists (ETSI TS 119 602 Annex G, `kind` `wrprc`) as the trust source of registration
/// certificates through the service: the lists of `TestVectors/lote` served on loopback and fetched by the refresher,
/// the registration certificates of `TestVectors/registration` (signed under `registrar-ca`) configured with no
/// registrar anchor of their own. A certificate is sent only while a list in force names its provider.
@Suite(.serialized)
struct RegistrationProviderListTests {
    static let port = LoTETrustSourceTests.port
    static let registration = Fixtures.testVectors.appendingPathComponent("registration")
    static var documents: [[String: Any]] {
        [["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["family_name": false, "age_over_18": false]]]]
    }

    /// A service whose integrator "tests" holds `certificate` and whose only registrar trust is the list `wrprc`.
    static func harness(certificate: String = "valid", registrarAnchors: [String] = [], clock: ManualClock? = nil,
                        registrationSection: Bool = true) throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")], clock: clock) { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "publicBaseUrl": "https://verifier.example"]
            var trust = config["trust"] as? [String: Any] ?? [:]
            trust["loteSources"] = [[
                "name": "wrprc", "url": "http://127.0.0.1:\(port)/lists/wrprc.jwt", "kind": "wrprc",
                "signerAnchors": [LoTETrustSourceTests.operatorCA], "refreshHours": 24, "staleGraceHours": 24,
            ]]
            config["trust"] = trust
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(port)"]]
            if registrationSection {
                config["registration"] = [
                    "registrarAnchors": registrarAnchors,
                    "certificates": [ServiceHarness.integratorName: registration.appendingPathComponent("certificates/\(certificate).jwt").path],
                ]
            }
        }
    }

    static func server(_ list: String) throws -> LoopbackFileServer {
        try LoopbackFileServer(port: port, files: ["/lists/wrprc.jwt": try LoTETrustSourceTests.list(list)])
    }

    static func refresh(_ harness: ServiceHarness) async throws -> String {
        let source = try #require(harness.service.loteRefresher.sources.first)
        return await harness.service.loteRefresher.refresh(source).outcome
    }

    /// A signed request and whether it carries the registration certificate.
    static func signedRequest(_ harness: ServiceHarness) async throws -> ServiceHarness.Response {
        try await harness.post("/v1/oid4vp/requests", json: ["origin": WebFlowTests.origins[0], "documents": documents])
    }

    static func carriesCertificate(_ response: ServiceHarness.Response) throws -> Bool {
        let jws = try #require(((response.json["request"] as? [String: Any])?["data"] as? [String: Any])?["request"] as? String)
        let payload = try RegistrationCertificateFlowTests.payload(jws)
        return (payload["verifier_info"] as? [[String: String]])?.first?["format"] == "registration_cert"
    }

    static func degraded(_ harness: ServiceHarness) async throws -> [String] {
        try await harness.request("GET", "/readyz", anonymous: true).json["degraded"] as? [String] ?? []
    }

    /// Before its list arrives the certificate is kept but not sent (503, named by `/readyz`; an unsigned request
    /// still goes); once the list names its provider it goes with every signed request; a later list without the
    /// provider stops it again, and an older list is refused by the sequence rule.
    @Test func aRegistrationCertificateIsSentOnlyWhileAListNamesItsProvider() async throws {
        var server = try Self.server("wrprc-valid")
        let harness = try Self.harness()
        let before = try await Self.signedRequest(harness)
        #expect(before.status == 503 && before.json["code"] as? String == "REGISTRATION_CERTIFICATE_UNTRUSTED", "\(before.text.prefix(300))")
        #expect(try await Self.degraded(harness).contains { $0.contains("integrator tests is not usable (untrustedSigner") })
        #expect(harness.service.startupWarnings().contains { $0.contains("integrator tests chains to no registrar anchor yet") })
        let unsigned = try await harness.post("/v1/oid4vp/requests", json: ["origin": WebFlowTests.origins[0], "documents": Self.documents,
                                                                           "signed": false])
        #expect(unsigned.status == 201, "\(unsigned.text.prefix(300))")

        #expect(try await Self.refresh(harness) == "imported")
        let after = try await Self.signedRequest(harness)
        #expect(after.status == 201, "\(after.text.prefix(300))")
        #expect(try Self.carriesCertificate(after))
        let web = try await harness.post("/v1/web/requests", json: ["origin": WebFlowTests.origins[0], "documents": Self.documents])
        #expect(web.status == 201, "\(web.text.prefix(300))")
        #expect(try await Self.degraded(harness).contains { $0.contains("registration certificate") } == false)
        // The list in force, as the admin route shows it; the refresher fetched it itself (no shared ledger here).
        let lotes = try await harness.admin("GET", "/v1/admin/lotes")
        let listed = (lotes.json["sources"] as? [[String: Any]])?.first
        #expect(listed?["kind"] as? String == "wrprc", "\(lotes.text.prefix(400))")
        #expect((listed?["inForce"] as? [String: Any])?["issueID"] as? Int == 1, "\(lotes.text.prefix(400))")
        #expect(try await Self.refresh(harness) == "unchanged")

        await server.stop()
        server = try Self.server("wrprc-without-registrar")
        #expect(try await Self.refresh(harness) == "imported")
        let dropped = try await Self.signedRequest(harness)
        #expect(dropped.status == 503 && dropped.json["code"] as? String == "REGISTRATION_CERTIFICATE_UNTRUSTED", "\(dropped.text.prefix(300))")

        await server.stop()
        server = try Self.server("wrprc-valid")
        #expect(try await Self.refresh(harness) == "refused")
        #expect(harness.service.loteRefresher.lastOutcome("lote:wrprc")?.detail?.contains("LOTE_SEQUENCE_REGRESSION") == true)
        #expect(try await Self.signedRequest(harness).status == 503)
        await harness.stop()
        await server.stop()
    }

    /// A configured registrar anchor still counts beside the lists: the certificate goes before any list is fetched.
    @Test func aConfiguredRegistrarAnchorCountsBesideTheLists() async throws {
        let harness = try Self.harness(registrarAnchors: [Self.registration.appendingPathComponent("pki/registrar-ca.pem").path])
        let answer = try await Self.signedRequest(harness)
        #expect(answer.status == 201, "\(answer.text.prefix(300))")
        #expect(try Self.carriesCertificate(answer))
        await harness.stop()
    }

    /// Past `NextUpdate` and the grace the list is withdrawn (`onStale` withdraw), and the certificate stops.
    @Test func aStaleListStopsTheCertificate() async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let server = try Self.server("wrprc-valid")
        let harness = try Self.harness(clock: clock)
        #expect(try await Self.refresh(harness) == "imported")
        #expect(try await Self.signedRequest(harness).status == 201)
        let lotes = harness.service.loteAdmin
        let source = try #require(lotes.sources.first)
        let nextUpdate = try #require(lotes.importer.inForce(source)?.nextUpdate)
        clock.advance(by: nextUpdate.addingTimeInterval(36 * 3600).timeIntervalSince(clock.now))
        #expect(try await Self.refresh(harness) == "refused")
        #expect(lotes.importer.inForce(source) == nil)
        let answer = try await Self.signedRequest(harness)
        #expect(answer.status == 503 && answer.json["code"] as? String == "REGISTRATION_CERTIFICATE_UNTRUSTED", "\(answer.text.prefix(300))")
        await harness.stop()
        await server.stop()
    }

    /// The admin import of a WRPRC list: a dry run names the provider it would add to `registrationProviders` and
    /// changes nothing; the import makes the certificate usable at once.
    @Test func anOperatorImportsAProvidersList() async throws {
        let harness = try Self.harness()
        let body = Data(try LoTETrustSourceTests.list("wrprc-valid").bytes)
        let dry = try await harness.admin("POST", "/v1/admin/lotes/wrprc?dryRun=true", body: body)
        #expect(dry.status == 200, "\(dry.text.prefix(300))")
        let sets = dry.json["trustSets"] as? [[String: Any]]
        #expect(sets?.first?["trustSet"] as? String == "registrationProviders" && (sets?.first?["added"] as? [Any])?.count == 1, "\(dry.text.prefix(400))")
        #expect(try await Self.signedRequest(harness).status == 503)
        let imported = try await harness.admin("POST", "/v1/admin/lotes/wrprc", body: body)
        #expect(imported.status == 200, "\(imported.text.prefix(300))")
        #expect(try await Self.signedRequest(harness).status == 201)
        await harness.stop()
    }

    /// Configuration: a wrprc list without a registration section is refused; so is a registration section with
    /// neither registrar anchors nor a wrprc list; a certificate with a fault other than its provider's trust still
    /// stops the start; a kind that anchors nothing verifierd checks is refused.
    @Test func theConfigurationIsChecked() throws {
        #expect { _ = try Self.harness(registrationSection: false) } throws: { error in
            (error as? ConfigurationError)?.key == "trust.loteSources"
        }
        #expect { _ = try Self.harness(certificate: "expired") } throws: { error in
            (error as? ConfigurationError)?.key == "registration.certificates.\(ServiceHarness.integratorName)"
        }
        #expect { _ = try Self.harness(certificate: "bad-signature") } throws: { error in
            (error as? ConfigurationError)?.key == "registration.certificates.\(ServiceHarness.integratorName)"
        }
        #expect { _ = try ServiceHarness { config in
            config["registration"] = ["certificates": [ServiceHarness.integratorName: Self.registration.appendingPathComponent("certificates/valid.jwt").path]]
        } } throws: { error in
            (error as? ConfigurationError)?.key == "registration.registrarAnchors"
        }
        for kind in ["registrars", "wallet", "pubeaa"] {
            #expect(throws: ConfigurationError.self, "\(kind)") {
                _ = try LoTETrustSourceTests.harness(kind: kind)
            }
        }
    }
}
