import Foundation
import TestSupport
import Testing
@testable import VerifierConfiguration
@testable import VerifierService

/// WRPAC providers lists (ETSI TS 119 602 Annex F, `kind` `wrpac`) through the service: the service's own access
/// certificate (`readerAuth.certificateChain`, the demo reader chain under `TestVectors/demo/reader-root.pem`) must
/// chain to a provider a list in force names, or EU wallets refuse its signed requests; `/readyz` says when it does
/// not. Lists of `TestVectors/lote` served on loopback.
@Suite(.serialized)
struct AccessCertificateProviderListTests {
    static let port = LoTETrustSourceTests.port

    static func harness(readerAuth: Bool = true) throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            if readerAuth { WebFlowTests.configure(mode: "readerAuth")(&config) }
            var trust = config["trust"] as? [String: Any] ?? [:]
            trust["loteSources"] = [[
                "name": "wrpac", "url": "http://127.0.0.1:\(port)/lists/wrpac.jwt", "kind": "wrpac",
                "signerAnchors": [LoTETrustSourceTests.operatorCA],
            ]]
            config["trust"] = trust
            config["outbound"] = ["allowedDestinations": ["127.0.0.1:\(port)"]]
        }
    }

    static func refresh(_ harness: ServiceHarness) async throws -> String {
        let source = try #require(harness.service.loteRefresher.sources.first)
        return await harness.service.loteRefresher.refresh(source).outcome
    }

    static func degraded(_ harness: ServiceHarness) async throws -> [String] {
        try await harness.request("GET", "/readyz", anonymous: true).json["degraded"] as? [String] ?? []
    }

    /// No list yet: the list's own reason; a list naming the reader root: ready; a later list without it: `/readyz`
    /// names the access certificate.
    @Test func theAccessCertificateIsCheckedAgainstTheListInForce() async throws {
        var server = try LoopbackFileServer(port: Self.port, files: ["/lists/wrpac.jwt": try LoTETrustSourceTests.list("wrpac-valid")])
        let harness = try Self.harness()
        let unlisted = "chains to no provider on the WRPAC providers lists in force"
        let first = try await Self.degraded(harness)
        #expect(first.contains { $0.contains("LoTE wrpac: no list in force") } && !first.contains { $0.contains(unlisted) }, "\(first)")

        #expect(try await Self.refresh(harness) == "imported")
        let listed = try await Self.degraded(harness)
        #expect(listed.isEmpty, "\(listed)")

        await server.stop()
        server = try LoopbackFileServer(port: Self.port, files: ["/lists/wrpac.jwt": try LoTETrustSourceTests.list("wrpac-without-reader")])
        #expect(try await Self.refresh(harness) == "imported")
        let after = try await Self.degraded(harness)
        #expect(after.contains { $0.contains(unlisted) && $0.contains("readerAuth.certificateChain") }, "\(after)")
        // Requests still go: the certificate is the service's own, and only the operator can replace it.
        let request = try await harness.post("/v1/web/requests", json: ["origin": WebFlowTests.origins[0], "documents": [
            ["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["age_over_18": false]]],
        ]])
        #expect(request.status == 201, "\(request.text.prefix(300))")
        await harness.stop()
        await server.stop()
    }

    /// A wrpac list checks the access certificate of signed requests: without readerAuth it is refused at start.
    @Test func aWRPACListNeedsReaderAuth() throws {
        #expect { _ = try Self.harness(readerAuth: false) } throws: { error in
            (error as? ConfigurationError)?.key == "trust.loteSources"
        }
    }
}
