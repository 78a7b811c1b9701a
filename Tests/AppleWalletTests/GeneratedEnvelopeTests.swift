import Foundation
import MDoc
import Testing
import TestSupport
import TrustStore
@testable import AppleWallet

/// Envelopes sealed by an independent HPKE implementation (pyhpke) over documents the generator issued.
struct GeneratedEnvelopeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let json: JSONValue
        var testDescription: String { json["name"]?.string ?? "?" }
    }

    static let folder = Fixtures.testVectors.appendingPathComponent("apple")

    static let cases: [Case] = {
        let manifest = try? JSONValue.load(folder.appendingPathComponent("manifest.json"))
        return (manifest?["cases"]?.array ?? []).map(Case.init)
    }()

    @Test func manifestHasCases() {
        #expect(Self.cases.count >= 10)
    }

    @Test(arguments: cases)
    func verifiesAsTheManifestSays(_ testCase: Case) throws {
        let json = testCase.json
        let keys = try json["keys"]?.array.compactMap(\.string).map { path in
            try MerchantEncryptionKey(pem: try Fixtures.text(Self.folder.appendingPathComponent(path)), label: path)
        } ?? []
        var anchors: [TrustAnchor] = []
        for path in json["trustAnchors"]?.array.compactMap(\.string) ?? [] {
            let data = try Fixtures.bytes(Self.folder.appendingPathComponent(path))
            anchors += try CertificateParsing.derCertificates(from: data).map { try TrustAnchor(derBytes: $0) }
        }
        let envelope = try Fixtures.hexFile(Self.folder.appendingPathComponent(try #require(json["envelope"]?.string)))
        let nonceHex = try #require(json["nonce"]?.string)
        let nonce = try #require([UInt8](hex: nonceHex))
        let time = TestClock.date(try #require(json["verificationTime"]?.string))
        let verifier = AppleIdentityVerifier(keys: keys)
        let merchantId = try #require(json["merchantId"]?.string)
        let teamId = try #require(json["teamId"]?.string)
        let report = verifier.verify(envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId,
                                     trust: TrustSnapshot(anchors: anchors),
                                     options: VerificationOptions(verificationTime: time))
        let expect = try #require(json["expect"])
        #expect(report.verified == expect["verified"]?.bool)
        #expect(report.failureCode?.rawValue == expect["code"]?.string)
        if let plaintextPath = json["plaintext"]?.string {
            let opened = try verifier.open(envelope: envelope, nonce: nonce, merchantId: merchantId, teamId: teamId)
            #expect(opened.plaintext == (try Fixtures.hexFile(Self.folder.appendingPathComponent(plaintextPath))))
        }
        for (nameSpace, elements) in expect["claims"]?.object ?? [:] {
            for (identifier, value) in elements.object {
                let claim = report.documents.first?.claim(nameSpace, identifier)
                switch value {
                case .string(let s): #expect(claim == .text(s) || claim == .fullDate(s), "\(identifier)")
                case .integer(let n): #expect(claim == .integer(n), "\(identifier)")
                case .bool(let b): #expect(claim == .bool(b), "\(identifier)")
                default: Issue.record("unexpected claim type for \(identifier)")
                }
            }
        }
    }
}
