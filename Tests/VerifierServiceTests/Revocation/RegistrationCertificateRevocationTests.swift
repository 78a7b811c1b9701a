import Foundation
import TestSupport
import Testing
@testable import VerifierService

/// CRLs for registration certificates through the service: the registration certificates of
/// `TestVectors/crl/presentations/registration` (integrator "tests", signed by a WRPRC provider under the CRL test
/// registrar CA, one of whose signers `registrar-ca.crl` revokes) configured as `registration`, while a loopback
/// server publishes the registrar CA's CRL at the distribution point the provider certificate names, under each
/// `crl.mode`. A revoked chain is never sent: every flow that would carry it answers 503; an undetermined one is not
/// sent under enforce and is under warn; `/readyz` names either.
@Suite(.serialized)
struct RegistrationCertificateRevocationTests {
    static let folder = CertificateRevocationOverHTTPTests.folder
    static let entries = CertificateRevocationOverHTTPTests.manifest?["registrationCertificates"]?.array ?? []
    static var documents: [[String: Any]] {
        [["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["family_name": false, "age_over_18": false]]]]
    }

    static func entry(_ name: String) throws -> JSONValue {
        try #require(entries.first { $0["name"]?.string == name }, "\(name) is not in the presentations manifest")
    }

    /// A service whose integrator "tests" holds `entry`'s registration certificate, trusting the registrar CA.
    static func harness(for entry: JSONValue, mode: String, allowed: Bool = true) throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "publicBaseUrl": "https://verifier.example"]
            config["registration"] = [
                "registrarAnchors": [folder.appendingPathComponent(entry["anchor"]?.string ?? "").path],
                "certificates": [ServiceHarness.integratorName: folder.appendingPathComponent(entry["files"]?["certificate"]?.string ?? "").path],
            ]
            config["crl"] = ["mode": mode, "allowedSchemes": ["http"], "fetchTimeoutSeconds": 2]
            config["outbound"] = ["allowedDestinations": allowed ? ["127.0.0.1:\(CertificateRevocationOverHTTPTests.port)"] : []]
        }
    }

    /// Every flow that sends the integrator's registration certificate: a signed DC API request (OpenID4VP), a
    /// cross-device request object and an Annex C request.
    static func requests(on harness: ServiceHarness) async throws -> [(String, ServiceHarness.Response)] {
        [
            ("oid4vp dc_api", try await harness.post("/v1/oid4vp/requests", json: ["origin": WebFlowTests.origins[0], "documents": documents])),
            ("oid4vp cross-device", try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device", "documents": documents])),
            ("annex c", try await harness.post("/v1/web/requests", json: ["origin": WebFlowTests.origins[0], "documents": documents])),
        ]
    }

    static func degraded(_ harness: ServiceHarness) async throws -> [String] {
        try await harness.request("GET", "/readyz", anonymous: true).json["degraded"] as? [String] ?? []
    }

    @Test func theVectorsAreThere() throws {
        #expect(Self.entries.count == 2)
        #expect(try Self.entry("registration-good")["allCrlsPublished"]?["expect"]?["revocation"]?.string == "good")
        #expect(try Self.entry("registration-revoked")["allCrlsPublished"]?["expect"]?["revocation"]?.string == "revoked")
    }

    /// With the registrar's CRL published: a good chain is sent by every flow (its CRL fetched once, then cached); a
    /// revoked one is refused by every flow under enforce and warn alike, with its reason, and `/readyz` says so from
    /// the start-up check on, before any request; an unsigned request, which carries no certificate, still goes.
    /// Under off nothing is fetched and both are sent.
    @Test(arguments: ["enforce", "warn", "off"])
    func aRevokedRegistrationCertificateIsNeverSent(_ mode: String) async throws {
        for name in ["registration-good", "registration-revoked"] {
            let entry = try Self.entry(name)
            let server = try CertificateRevocationOverHTTPTests.server(for: entry)
            let harness = try Self.harness(for: entry, mode: mode)
            let revoked = name == "registration-revoked" && mode != "off"
            await harness.service.checkRegistrationRevocation()
            let degraded = try await Self.degraded(harness)
            #expect(degraded.contains { $0.contains("integrator tests fails its CRL check (CERTIFICATE_REVOKED") } == revoked, "\(name) \(mode): \(degraded)")
            for (flow, answer) in try await Self.requests(on: harness) {
                if revoked {
                    #expect(answer.status == 503, "\(name) \(mode) \(flow): \(answer.text.prefix(300))")
                    #expect(answer.json["code"] as? String == "REGISTRATION_CERTIFICATE_REVOKED", "\(flow)")
                    #expect((answer.json["detail"] as? String)?.contains("keyCompromise") == true, "\(flow): \(answer.text.prefix(300))")
                } else {
                    #expect(answer.status == 201, "\(name) \(mode) \(flow): \(answer.text.prefix(300))")
                }
            }
            let unsigned = try await harness.post("/v1/oid4vp/requests", json: ["origin": WebFlowTests.origins[0], "documents": Self.documents,
                                                                                "signed": false])
            #expect(unsigned.status == 201, "\(name) \(mode): \(unsigned.text.prefix(300))")
            #expect(server.requests("/crl/registrar-ca.crl") == (mode == "off" ? 0 : 1), "\(name) \(mode): \(server.totalRequests) fetches")
            await harness.stop()
            await server.stop()
        }
    }

    /// A good chain whose CRL cannot be had (not published, or its distribution point outside
    /// `outbound.allowedDestinations`, never contacted): under enforce every flow refuses with
    /// `REGISTRATION_CERTIFICATE_REVOCATION_UNDETERMINED` naming `CRL_UNAVAILABLE`; under warn the certificate is
    /// sent and `/readyz` reports the undetermined revocation.
    @Test(arguments: [(true, "enforce"), (true, "warn"), (false, "enforce")])
    func anUndeterminedRevocationFollowsTheMode(_ allowed: Bool, _ mode: String) async throws {
        let entry = try Self.entry("registration-good")
        let server = try CertificateRevocationOverHTTPTests.server(for: entry, publish: false)
        let harness = try Self.harness(for: entry, mode: mode, allowed: allowed)
        for (flow, answer) in try await Self.requests(on: harness) {
            if mode == "enforce" {
                #expect(answer.status == 503, "\(flow): \(answer.text.prefix(300))")
                #expect(answer.json["code"] as? String == "REGISTRATION_CERTIFICATE_REVOCATION_UNDETERMINED", "\(flow)")
                #expect((answer.json["detail"] as? String)?.contains("CRL_UNAVAILABLE") == true, "\(flow): \(answer.text.prefix(300))")
            } else {
                #expect(answer.status == 201, "\(flow): \(answer.text.prefix(300))")
            }
        }
        let degraded = try await Self.degraded(harness)
        let expected = mode == "enforce" ? "integrator tests fails its CRL check (CRL_UNAVAILABLE" : "integrator tests is undetermined (CRL_UNAVAILABLE"
        #expect(degraded.contains { $0.contains(expected) }, "\(degraded)")
        // A failed fetch is remembered: three requests, at most one fetch; a refused destination is never contacted.
        #expect(server.totalRequests == (allowed ? 1 : 0), "\(server.totalRequests) fetches")
        await harness.stop()
        await server.stop()
    }

    /// A reload that swaps the revoked certificate for a good one forgets the old verdict: the integrator's requests
    /// go again and `/readyz` no longer names it.
    @Test func aReloadReplacingTheCertificateClearsTheVerdict() async throws {
        let revoked = try Self.entry("registration-revoked")
        let good = try Self.entry("registration-good")
        let server = try CertificateRevocationOverHTTPTests.server(for: revoked)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("registration-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tests.jwt")
        try Data(Fixtures.bytes(Self.folder.appendingPathComponent(revoked["files"]?["certificate"]?.string ?? ""))).write(to: file)
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "publicBaseUrl": "https://verifier.example"]
            config["registration"] = [
                "registrarAnchors": [Self.folder.appendingPathComponent(revoked["anchor"]?.string ?? "").path],
                "certificates": [ServiceHarness.integratorName: file.path],
            ]
            config["crl"] = ["mode": "enforce", "allowedSchemes": ["http"], "fetchTimeoutSeconds": 2]
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(CertificateRevocationOverHTTPTests.port)"]]
        }
        let before = try await harness.post("/v1/web/requests", json: ["origin": WebFlowTests.origins[0], "documents": Self.documents])
        #expect(before.status == 503 && before.json["code"] as? String == "REGISTRATION_CERTIFICATE_REVOKED", "\(before.text.prefix(300))")
        try Data(Fixtures.bytes(Self.folder.appendingPathComponent(good["files"]?["certificate"]?.string ?? ""))).write(to: file)
        #expect(harness.service.reloadRegistrationCertificates(actor: "test"))
        #expect(try await Self.degraded(harness).contains { $0.contains("registration certificate") } == false)
        let after = try await harness.post("/v1/web/requests", json: ["origin": WebFlowTests.origins[0], "documents": Self.documents])
        #expect(after.status == 201, "\(after.text.prefix(300))")
        await harness.stop()
        await server.stop()
    }
}
