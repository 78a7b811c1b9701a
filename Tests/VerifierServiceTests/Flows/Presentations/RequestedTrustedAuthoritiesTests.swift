import CBOR
import Encodings
import Foundation
import Testing
import TestSupport
import X509

/// `trust.requestTrustedAuthorities: "anchors"`: a request built from `documents` names the subject key identifiers
/// of the IACAs in force that may vouch for its docType: as ISO 18013-5 `requestInfo.issuerIdentifiers` in an Annex C
/// DeviceRequest, and as DCQL `trusted_authorities` (`aki`) in an OpenID4VP request; by default it names none. The
/// key identifier is read here with swift-certificates from the committed test IACA.
@Suite(.serialized)
struct RequestedTrustedAuthoritiesTests {
    static let iaca = ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")

    static func harness(_ mode: String?) throws -> ServiceHarness {
        try ServiceHarness(anchors: [iaca]) { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins]
            if let mode {
                var trust = config["trust"] as? [String: Any] ?? [:]
                trust["requestTrustedAuthorities"] = mode
                config["trust"] = trust
            }
        }
    }

    /// The `issuerIdentifiers` of the first ItemsRequest of an Annex C request's DeviceRequest (nil when absent).
    static func issuerIdentifiers(_ made: ServiceHarness.Response) throws -> [[UInt8]]? {
        let request = try #require((made.json["request"] as? [String: Any])?["data"] as? [String: Any])
        let text = try #require(request["deviceRequest"] as? String)
        let deviceRequest = try #require(Base64URL.decodeBytes(text))
        let decoded = try CBORDecoder().decode(deviceRequest)
        let docRequest = try #require(decoded["docRequests"]?.arrayValue?.first)
        let itemsBytes = try #require(docRequest["itemsRequest"]?.tagged?.item.bytesValue)
        let items = try CBORDecoder().decode(Array(itemsBytes))
        guard let identifiers = items["requestInfo"]?["issuerIdentifiers"]?.arrayValue else { return nil }
        return identifiers.compactMap { $0.bytesValue.map(Array.init) }
    }

    static func trustedAuthorities(_ made: ServiceHarness.Response) -> [[String: Any]]? {
        let data = (made.json["request"] as? [String: Any])?["data"] as? [String: Any]
        let credential = ((data?["dcql_query"] as? [String: Any])?["credentials"] as? [[String: Any]])?.first
        return credential?["trusted_authorities"] as? [[String: Any]]
    }

    @Test func theAnchorsInForceAreNamedOnlyWhenConfigured() async throws {
        let pem = try String(contentsOf: Self.iaca, encoding: .utf8)
        let certificate = try Certificate(pemEncoded: pem)
        let ski = try #require(try certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
        let documents: [[String: Any]] = [["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["age_over_18": false]]]]
        for mode in [nil, "none", "anchors"] {
            let harness = try Self.harness(mode)
            defer { Task { await harness.stop() } }
            let annexC = try await harness.post("/v1/web/requests", json: ["origin": WebFlowTests.origins[0], "documents": documents])
            #expect(annexC.status == 201, "\(annexC.text.prefix(300))")
            let openID4VP = try await harness.post("/v1/oid4vp/requests", json: ["origin": WebFlowTests.origins[0], "documents": documents,
                                                                                  "signed": false])
            #expect(openID4VP.status == 201, "\(openID4VP.text.prefix(300))")
            if mode == "anchors" {
                #expect(try Self.issuerIdentifiers(annexC) == [Array(ski)])
                let authorities = Self.trustedAuthorities(openID4VP)
                #expect(authorities?.count == 1 && authorities?.first?["type"] as? String == "aki")
                #expect(authorities?.first?["values"] as? [String] == [Base64URL.encode(Array(ski))])
            } else {
                #expect(try Self.issuerIdentifiers(annexC) == nil, "\(mode ?? "default")")
                #expect(Self.trustedAuthorities(openID4VP) == nil, "\(mode ?? "default")")
            }
            await harness.stop()
        }
    }
}
