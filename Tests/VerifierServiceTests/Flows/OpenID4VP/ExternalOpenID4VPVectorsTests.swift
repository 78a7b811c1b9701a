import Foundation
import Testing
import TestSupport

/// Real OpenID4VP 1.0 presentations made by other projects (../shared/vectors/external), verified through
/// `verifierd oid4vp verify` with the clock, anchor and session each README names. The EUDI reference issuer breaks
/// three mandatory ISO 18013-5 rules: it verifies only under an anchor named lenient, with each deviation a warning of
/// its own, and leniency never reaches device authentication.
@Suite(.serialized, .enabled(if: Fixtures.sharedVectorsAvailable))
struct ExternalOpenID4VPVectorsTests {
    static let external = Fixtures.sharedVectors.appendingPathComponent("external")

    struct Outcome {
        let status: Int32
        let report: [String: Any]
        func check(_ id: String) -> [String: Any]? {
            ((report["documents"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])?.first { $0["id"] as? String == id }
        }
    }

    func verify(_ arguments: [String]) throws -> Outcome {
        let run = try CommandLineTests.run(["oid4vp", "verify", "--no-status"] + arguments)
        let line = run.output.split(separator: "\n").last.map(String.init) ?? ""
        let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        return Outcome(status: run.status, report: report)
    }

    func animo(nonce: String = "LMGPB6k--THpBUSkEBvLxmdMIi3Ee1fjHXXUUzBVa04") throws -> Outcome {
        let folder = Self.external.appendingPathComponent("animo-mdoc")
        return try verify([
            "--client-id", "x509_san_dns:playground.animo.id", "--nonce", nonce,
            "--jwk-thumbprint", "61a29f269176244d397cae26f7f80ab196bffcb65fe3052b540c78073dab7c1e",
            "--response-uri", "https://playground.animo.id/oid4vp/8caaebcc-d48c-471b-86b0-a534e15c4774/authorize?session=6c115dbc-1364-4e9f-a325-173eeec01a5a",
            "--device-response", folder.appendingPathComponent("animo05_paradym_oid4vp1_device_response.cbor").path,
            "--anchor", folder.appendingPathComponent("animo05_root_animo_nl.pem").path, "--at", "2026-01-12T12:00:00Z",
        ])
    }

    func eudi(nonce: String = "706f6c4d-c92d-4472-9dbf-d814c94f90c2", lenient: Bool, dcql: Bool = false) throws -> Outcome {
        let folder = Self.external.appendingPathComponent("eudi-verifier-endpoint")
        var arguments = [
            "--client-id", "Verifier", "--nonce", nonce, "--response-uri", "http://localhost:0/wallet/direct_post/1234567890",
            "--jwk", folder.appendingPathComponent("08-mdl-ephemeral-encryption-key.jwk.json").path,
            "--vp-token", folder.appendingPathComponent("08-mdl-vpToken.json").path,
            "--anchor", folder.appendingPathComponent("pid_issuer_ca_ut_02.pem").path, "--at", "2025-12-19T09:19:37Z",
        ]
        if lenient { arguments.append("--lenient") }
        if dcql { arguments += ["--dcql", folder.appendingPathComponent("08-mdl-dcql.json").path] }
        return try verify(arguments)
    }

    @Test func theParadymWalletsAnswerVerifies() throws {
        let outcome = try animo()
        #expect(outcome.status == 0, "\(outcome.report)")
        #expect(outcome.check("device.authentication")?["outcome"] as? String == "passed")
        let other = try animo(nonce: "another-nonce")
        #expect(other.status == 1)
        #expect(other.check("device.authentication")?["code"] as? String == "DEVICE_SIGNATURE_INVALID")
    }

    @Test func theEUDIIssuersDeviationsFailUnlessItsAnchorIsLenient() throws {
        let strict = try eudi(lenient: false)
        #expect(strict.status == 1)
        #expect(strict.check("issuer.certificateChain")?["code"] as? String == "ISSUER_CERTIFICATE_INVALID")
        #expect(strict.check("mso.validity")?["code"] as? String == "MSO_MALFORMED")
        #expect(strict.check("issuer.certificateProfile")?["outcome"] as? String == "failed")
        // Everything else holds: the transcript is the EUDI verifier's, the signatures and digests are good.
        #expect(strict.check("device.authentication")?["outcome"] as? String == "passed")
        #expect(strict.check("issuer.signature")?["outcome"] as? String == "passed")

        let lenient = try eudi(lenient: true)
        #expect(lenient.status == 0, "\(lenient.report)")
        #expect(lenient.report["credentialIds"] as? [String] == ["query_0"], "each document names the credential query it answers")
        #expect(lenient.check("issuer.certificateChain")?["code"] as? String == "DS_EKU_PRE_PUBLICATION")
        #expect(lenient.check("mso.validity")?["code"] as? String == "MSO_DATE_FRACTIONAL_SECONDS")
        #expect(lenient.check("issuer.certificateProfile")?["code"] as? String == "ISSUING_COUNTRY_MISMATCH")
        for id in ["issuer.certificateChain", "mso.validity", "issuer.certificateProfile"] {
            #expect(lenient.check(id)?["outcome"] as? String == "warning")
        }
    }

    @Test func leniencyNeverReachesDeviceAuthentication() throws {
        let outcome = try eudi(nonce: "nonce", lenient: true)
        #expect(outcome.status == 1)
        #expect(outcome.check("device.authentication")?["code"] as? String == "DEVICE_SIGNATURE_INVALID")
    }

    /// The wallet disclosed issuing_country, which the verifier's DCQL query did not ask for.
    @Test func theEUDIWalletDisclosedAnElementItsQueryDidNotAskFor() throws {
        let outcome = try eudi(lenient: true, dcql: true)
        #expect(outcome.status == 1)
        #expect(outcome.check("request.elements")?["code"] as? String == "ELEMENT_NOT_REQUESTED")
    }
}
