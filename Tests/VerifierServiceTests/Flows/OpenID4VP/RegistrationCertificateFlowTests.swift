import CBOR
import Encodings
import Foundation
import Testing
import TestSupport
@testable import VerifierConfiguration
@testable import VerifierService

/// An integrator's registration certificate through the service (`registration`): checked at start (an unusable one
/// stops it, naming the key), sent in `verifier_info` of every signed request of that integrator (DC API and the
/// cross-device request object, fetched by GET and by POST) and in the Annex C request's `requestInfo.euWrprc`,
/// never in an unsigned request; a request for a claim it does not register is refused before anything is signed;
/// one expiring soon is a start-up warning and a metric. Certificates made by the independent generator
/// (TestVectors/registration).
@Suite(.serialized)
struct RegistrationCertificateFlowTests {
    static let folder = Fixtures.testVectors.appendingPathComponent("registration")
    static var mdl: [[String: Any]] {
        [["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["family_name": false, "age_over_18": false]]]]
    }

    static func harness(_ certificate: String) throws -> ServiceHarness {
        try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            WebFlowTests.configure(mode: "readerAuth")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "publicBaseUrl": "https://verifier.example"]
            config["registration"] = [
                "registrarAnchors": [folder.appendingPathComponent("pki/registrar-ca.pem").path],
                "certificates": [ServiceHarness.integratorName: folder.appendingPathComponent("certificates/\(certificate).jwt").path],
            ]
        }
    }

    /// The payload of a compact JWS, as JSON.
    static func payload(_ jws: String) throws -> [String: Any] {
        let part = try #require(jws.split(separator: ".").dropFirst().first)
        let bytes = try #require(Base64URL.decodeBytes(String(part)))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func theCertificateGoesWithEverySignedRequestAndBoundsWhatIsAsked() async throws {
        let harness = try Self.harness("valid")
        defer { Task { await harness.stop() } }
        let jwt = try String(contentsOf: Self.folder.appendingPathComponent("certificates/valid.jwt"), encoding: .utf8)
        let expected: [[String: String]] = [["format": "registration_cert", "data": jwt]]
        func verifierInfo(_ object: [String: Any]) -> [[String: String]]? { object["verifier_info"] as? [[String: String]] }

        // Signed, over the DC API: in the request object.
        let signed = try await harness.post("/v1/oid4vp/requests", json: ["origin": WebFlowTests.origins[0], "documents": Self.mdl])
        #expect(signed.status == 201, "\(signed.text.prefix(300))")
        let jws = try #require(((signed.json["request"] as? [String: Any])?["data"] as? [String: Any])?["request"] as? String)
        #expect(verifierInfo(try Self.payload(jws)).map { $0 == expected } == true)
        // Unsigned: never (nothing binds it to the verifier).
        let unsigned = try await harness.post("/v1/oid4vp/requests", json: ["origin": WebFlowTests.origins[0], "documents": Self.mdl,
                                                                           "signed": false])
        #expect(unsigned.status == 201 && verifierInfo((unsigned.json["request"] as? [String: Any])?["data"] as? [String: Any] ?? [:]) == nil)
        // Cross-device: in the request object, fetched by GET and by POST.
        let crossDevice = try await harness.post("/v1/oid4vp/requests", json: ["flow": "cross-device", "documents": Self.mdl])
        let path = try OpenID4VPOneTimeRecordTests.requestObjectPath(crossDevice)
        for method in ["GET", "POST"] {
            let fetched = try await harness.request(method, path, body: method == "POST" ? Data("wallet_nonce=abc".utf8) : nil,
                                                    headers: ["Content-Type": "application/x-www-form-urlencoded"], anonymous: true)
            #expect(fetched.status == 200, "\(method): \(fetched.text.prefix(200))")
            #expect(verifierInfo(try Self.payload(fetched.text)).map { $0 == expected } == true, "\(method)")
        }
        // Annex C: requestInfo.euWrprc of each ItemsRequest.
        let web = try await harness.post("/v1/web/requests", json: ["origin": WebFlowTests.origins[0], "documents": Self.mdl])
        #expect(web.status == 201, "\(web.text.prefix(300))")
        let deviceRequestText = try #require(((web.json["request"] as? [String: Any])?["data"] as? [String: Any])?["deviceRequest"] as? String)
        let deviceRequest = try CBORDecoder().decode(try #require(Base64URL.decodeBytes(deviceRequestText)))
        let itemsBytes = try #require(deviceRequest["docRequests"]?.arrayValue?.first?["itemsRequest"]?.tagged?.item.bytesValue)
        #expect(try CBORDecoder().decode(Array(itemsBytes))["requestInfo"]?["euWrprc"]?.textValue == jwt)
        // A claim the certificate does not register: refused before anything is signed, in every flow.
        let birthDate: [[String: Any]] = [["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["birth_date": false]]]]
        for (route, body) in [("/v1/oid4vp/requests", ["origin": WebFlowTests.origins[0], "documents": birthDate] as [String: Any]),
                              ("/v1/oid4vp/requests", ["flow": "cross-device", "documents": birthDate]),
                              ("/v1/web/requests", ["origin": WebFlowTests.origins[0], "documents": birthDate])] {
            let refused = try await harness.post(route, json: body)
            #expect(refused.status == 400 && refused.json["code"] as? String == "CLAIM_NOT_REGISTERED", "\(route): \(refused.text.prefix(300))")
        }
        await harness.stop()
    }

    /// An unusable certificate stops the start, naming its key; one expiring within the window is a warning and a
    /// metric counting down.
    @Test func theCertificateIsCheckedAtStart() async throws {
        for name in ["expired", "wrong-typ", "untrusted-signer", "bad-signature", "not-service-provider"] {
            #expect(throws: ConfigurationError.self, "\(name)") { _ = try Self.harness(name) }
            do {
                _ = try Self.harness(name)
            } catch let error as ConfigurationError {
                #expect(error.key == "registration.certificates.\(ServiceHarness.integratorName)", "\(name): \(error)")
            }
        }
        let soon = try Self.harness("expiring-soon")
        defer { Task { await soon.stop() } }
        #expect(soon.service.startupWarnings().contains { $0.contains("registration certificate of integrator tests expires") })
        let metrics = try await soon.request("GET", "/metrics").text
        #expect(metrics.contains("verifierd_registration_certificate_expiry_seconds{integrator=\"tests\"} 1641600"), "\(metrics.prefix(200))")
        await soon.stop()
    }
}
