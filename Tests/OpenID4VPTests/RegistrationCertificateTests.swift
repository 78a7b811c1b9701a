import Foundation
import StrictJSON
import Testing
import TestSupport
import X509
@testable import OpenID4VP

/// Registration certificates (ETSI TS 119 475, `rc-wrp+jwt`) made by the independent generator
/// (TestVectors/generator/registration_certificates.py, checked there against the TS 119 475 v1.2.1 Annex C example
/// and verified with joserfc): each case read at 2030-01-01 is used or refused for exactly its one defect; what a
/// valid one registers bounds what a DCQL query may ask for.
struct RegistrationCertificateTests {
    static let folder = Fixtures.testVectors.appendingPathComponent("registration")
    static let time = Date(timeIntervalSince1970: 1_893_456_000)

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let file: String
        let expect: String
        var description: String { name }
    }

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("manifest.json")),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let entries = manifest["cases"] as? [[String: Any]] else { return [] }
        return entries.compactMap { entry in
            guard let name = entry["name"] as? String, let file = entry["file"] as? String, let expect = entry["expect"] as? String
            else { return nil }
            return Case(name: name, file: file, expect: expect)
        }
    }()

    static func registrars() throws -> [Certificate] {
        [try Certificate(pemEncoded: try String(contentsOf: folder.appendingPathComponent("pki/registrar-ca.pem"), encoding: .utf8))]
    }

    static func certificate(_ name: String) throws -> RegistrationCertificate {
        let text = try String(contentsOf: folder.appendingPathComponent("certificates/\(name).jwt"), encoding: .utf8)
        return try RegistrationCertificate(compact: text, registrars: try registrars(), at: time)
    }

    @Test func theManifestHasEveryRefusal() {
        #expect(Set(Self.cases.map(\.expect)) == ["valid", "expired", "notYetValid", "typInvalid", "algorithmUnsupported",
                                                    "signatureInvalid", "untrustedSigner", "notServiceProvider", "credentialsMissing",
                                                    "malformed"])
    }

    /// Every fault but the provider's trust (what a WRPRC providers list may still settle): none for the valid
    /// cases and for `untrusted-signer` (a sound certificate under another CA); the case's own fault for every other
    /// refusal, `self-signed-x5c` included (a CA certificate signs no registration certificate, whoever trusts it).
    @Test(arguments: cases)
    func everyFaultButTheProvidersTrustIsFoundWithoutAnchors(_ testCase: Case) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(testCase.file), encoding: .utf8)
        let problem = RegistrationCertificate.problemApartFromTrust(compact: text, at: Self.time)
        switch testCase.name {
        case _ where testCase.expect == "valid", "untrusted-signer":
            #expect(problem == nil, "\(testCase.name): \(problem.map(\.description) ?? "")")
        default:
            #expect(problem?.kind.rawValue == testCase.expect, "\(testCase.name): \(problem.map(\.description) ?? "none")")
        }
        // The certificate read with its anchor carries the links its CRL check walks: the provider under the registrar.
        if testCase.expect == "valid" {
            let certificate = try Self.certificate(testCase.name)
            #expect(certificate.revocationLinks.count == 1)
            #expect(certificate.revocationLinks.first?.issuer == (try Self.registrars())[0])
        }
    }

    @Test(arguments: cases)
    func eachCaseIsUsedOrRefusedForItsDefect(_ testCase: Case) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(testCase.file), encoding: .utf8)
        let registrars = try Self.registrars()
        do throws(RegistrationCertificate.Problem) {
            let certificate = try RegistrationCertificate(compact: text, registrars: registrars, at: Self.time)
            #expect(testCase.expect == "valid", "\(testCase.name) was accepted")
            #expect(certificate.verifierInfo[member: "format"]?.stringValue == "registration_cert")
            #expect(certificate.verifierInfo[member: "data"]?.stringValue == text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            #expect(error.kind.rawValue == testCase.expect, "\(testCase.name): \(error)")
        }
    }

    static func query(_ text: String) throws -> DCQLQuery {
        try DCQLQuery(parsing: try JSONDecoder().decode(RawJSON.self, from: Data(text.utf8)))
    }

    /// A query may ask for what the certificate registers and anything below a registered path; anything else, a
    /// credential of another type included, is named.
    @Test func aQueryAsksForNoMoreThanTheCertificateRegisters() throws {
        let valid = try Self.certificate("valid")
        let mdl = #"{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "family_name"]}, {"path": ["org.iso.18013.5.1", "age_over_18"]}]}"#
        let pid = #"{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}, "claims": [{"path": ["given_name"]}, {"path": ["address", "locality"]}]}"#
        #expect(valid.unregistered(in: try Self.query(#"{"credentials": [\#(mdl), \#(pid)]}"#)) == nil)
        let birthDate = #"{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "birth_date"]}]}"#
        #expect(valid.unregistered(in: try Self.query(#"{"credentials": [\#(birthDate)]}"#))?.contains("birth_date") == true)
        let nationality = #"{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}, "claims": [{"path": ["nationalities"]}]}"#
        #expect(valid.unregistered(in: try Self.query(#"{"credentials": [\#(nationality)]}"#))?.contains("nationalities") == true)
        let otherType = #"{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:de:1"]}, "claims": [{"path": ["given_name"]}]}"#
        #expect(valid.unregistered(in: try Self.query(#"{"credentials": [\#(otherType)]}"#))?.contains("type") == true)
        // mdoc-only registers the mDL's family_name and age_over_18: the PID, or given_name, is more.
        let mdocOnly = try Self.certificate("mdoc-only")
        #expect(mdocOnly.unregistered(in: try Self.query(#"{"credentials": [\#(mdl)]}"#)) == nil)
        #expect(mdocOnly.unregistered(in: try Self.query(#"{"credentials": [\#(pid)]}"#)) != nil)
    }
}
