import Foundation
import Testing
import TestSupport
import TrustStore
import X509
@testable import TrustLists

/// Every list of TestVectors/lote/manifest.json verified as the manifest says: at 2030-01-01T00:00:00Z, operator-ca
/// the only signer anchor, each list configured as its manifest kind. And the real Commission list of `thirdParty`.
struct LoTEVectorTests {
    static func manifest() throws -> JSONValue {
        try JSONValue.load(LoTETestLists.folder.appendingPathComponent("manifest.json"))
    }

    static func kind(_ entry: JSONValue) throws -> LoTEKind {
        let name = try #require(entry["kind"]?.string)
        return try #require(LoTEKind(rawValue: name))
    }

    static func verify(_ entry: JSONValue) throws -> VerifiedLoTE {
        try LoTETestLists.verify(try LoTETestLists.bytes(try #require(entry["file"]?.string)), kind: try kind(entry))
    }

    static func entry(_ name: String, in manifest: JSONValue) throws -> JSONValue {
        try #require(manifest["lists"]?.array.first { $0["name"]?.string == name })
    }

    @Test func everyListHasItsExpectedOutcome() throws {
        let manifest = try Self.manifest()
        let lists = manifest["lists"]?.array ?? []
        #expect(lists.count == 42)
        var seen = Set<String>()
        for entry in lists {
            let name = try #require(entry["name"]?.string)
            let expect = try #require(entry["expect"]?.string)
            if let before = entry["importAfter"]?.string {
                #expect(entry["expectWithoutImport"]?.string == "valid", "\(name)")
                let inForce = try Self.verify(try Self.entry(before, in: manifest))
                // Valid on its own; refused or not as the successor of `before`. (A refused list's grants all read
                // grantsTrust false in the manifest.)
                let verified = try Self.verify(entry)
                try Self.expectContent(verified, of: entry, name: name, grants: expect == "valid")
                let code: LoTEError.Code?
                do {
                    try verified.checkSuccession(afterSequence: inForce.sequenceNumber, sha256: inForce.sha256)
                    code = nil
                } catch {
                    code = error.code
                }
                #expect(code?.rawValue ?? "valid" == expect, "\(name) after \(before)")
            } else if expect == "valid" {
                let verified = try Self.verify(entry)
                try Self.expectContent(verified, of: entry, name: name)
            } else {
                let code = LoTETestLists.code { try Self.verify(entry) }
                #expect(code?.rawValue == expect, "\(name)")
            }
            seen.insert(expect)
        }
        // Every code the manifest has a case for is met, and each refusal code is one of ours.
        for code in seen where code != "valid" { #expect(LoTEError.Code(rawValue: code) != nil, "\(code)") }
        #expect(seen.count == 12, "valid and 11 codes")
    }

    /// Sequence number, dates and grants (in list order) as the manifest gives them.
    static func expectContent(_ verified: VerifiedLoTE, of entry: JSONValue, name: String, grants: Bool = true) throws {
        if case .integer(let sequence)? = entry["sequenceNumber"] {
            #expect(verified.sequenceNumber == UInt64(sequence), "\(name)")
        } else {
            Issue.record("\(name): no sequenceNumber")
        }
        #expect(verified.issued == TestClock.date(try #require(entry["issued"]?.string)), "\(name)")
        #expect(verified.nextUpdate == TestClock.date(try #require(entry["nextUpdate"]?.string)), "\(name)")
        #expect(verified.operatorName == "verifierd Test Scheme Operator", "\(name)")
        #expect(verified.signer.contains("CN=verifierd TEST-ONLY LoTE Signer"), "\(name): \(verified.signer)")
        #expect(verified.skipped.isEmpty, "\(name): \(verified.skipped)")
        guard grants else { return }
        let expected = entry["grants"]?.array ?? []
        #expect(verified.grants.count == expected.count, "\(name)")
        for (grant, want) in zip(verified.grants, expected) {
            #expect(grant.sha256 == want["sha256"]?.string, "\(name)")
            #expect(grant.serviceType == want["serviceType"]?.string, "\(name)")
            #expect(grant.purpose.rawValue == want["purpose"]?.string, "\(name)")
            #expect(grant.grantsTrust == want["grantsTrust"]?.bool, "\(name)")
            // The certificate the manifest names is the one granted.
            let path = try #require(want["certificate"]?.string)
            let der = try CertificateParsing.derCertificates(from: try Fixtures.bytes(Fixtures.repositoryRoot.appendingPathComponent(path)))[0]
            #expect(grant.der == der, "\(name): \(path)")
            #expect(grant.certificate == (try Certificate(derEncoded: der)), "\(name): \(path)")
            #expect(!grant.entityName.isEmpty, "\(name)")
        }
    }

    @Test func theCommissionsWalletProvidersListAsTheManifestSays() throws {
        let manifest = try Self.manifest()
        let parties = manifest["thirdParty"]?.array ?? []
        #expect(parties.count == 1)
        for party in parties {
            let file = try #require(party["file"]?.string)
            let bytes = try LoTETestLists.bytes(file)
            let anchor = try LoTETestLists.certificate(try #require(party["signerAnchor"]?.string))
            let kind = try Self.kind(party)
            let expectations = party["expect"]?.object ?? [:]
            #expect(!expectations.isEmpty)
            for (time, expected) in expectations {
                let codes = expected.string.map { [$0] } ?? expected.array.compactMap(\.string)
                let code = LoTETestLists.code {
                    try LoTETestLists.verify(bytes, kind: kind, at: TestClock.date(time), anchors: [anchor])
                }
                #expect(code.map { codes.contains($0.rawValue) } == true, "\(file) at \(time): \(String(describing: code)), expected one of \(codes)")
            }
        }
    }

    /// At 2026-01-01 the name binding is the Commission list's only failure: it comes after the RS512 signature (a
    /// nonRepudiation-only signer pinned as itself), the strict reading of the payload, and before the dates and the
    /// Wallet profile, which it meets.
    @Test func theCommissionsListFailsOnlyTheCountryBinding() throws {
        let bytes = try LoTETestLists.bytes("eudi/wallet-providers.txt")
        let anchor = try LoTETestLists.certificate("eudi/wallet-providers.cer")
        let time = TestClock.date("2026-01-01T00:00:00Z")
        do {
            _ = try LoTETestLists.verify(bytes, kind: .wallet, at: time, anchors: [anchor])
            Issue.record("accepted")
        } catch let error as LoTEError {
            #expect(error.code == .signerNameMismatch)
            #expect(error.detail.contains("countryName LU"), "\(error.detail)")
        }
        // Each other step on its own.
        let jws = try LoTECompactJWS(bytes)
        let header = try LoTEJWSHeader(jws.header, limits: .default)
        #expect(header.algorithm == .rs512)
        try LoTEVerifier.checkSigner(header.certificates, anchors: [anchor], at: time)
        #expect(header.algorithm.problem(signature: jws.signature, over: jws.signingInput, key: header.certificates[0].publicKey) == nil)
        let document = try LoTEDocument(payload: jws.payload, limits: .default)
        let profile = LoTEProfile.of(.wallet)
        try profile.check(document, nextUpdate: try #require(document.scheme.nextUpdate))
        let (grants, skipped) = LoTEGrants.read(document, profile: profile, at: time, clockSkew: 0)
        #expect(grants.map(\.country) == ["IT", "HU"])
        #expect(grants.map(\.entityName) == ["PagoPA Wallet Provider Root CA", "Microsec Ltd."])
        #expect(grants.allSatisfy { $0.grantsTrust && $0.purpose == .issuance })
        #expect(skipped.isEmpty)
    }
}
