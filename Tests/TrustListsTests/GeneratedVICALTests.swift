import Foundation
import Testing
import TestSupport
import TrustStore
@testable import MDoc
@testable import TrustLists

/// Our own VICALs (TestVectors/vical, made by vical_vectors.py with cryptography and cbor2), checked as their
/// manifest says, and the docType scope they give applied to real documents.
struct GeneratedVICALTests {
    static let folder = Fixtures.testVectors.appendingPathComponent("vical")
    static let time = TestClock.date("2030-01-01T00:00:00Z")

    static func anchor() throws -> VICALSignerAnchor {
        try VICALSignerAnchor(pemOrDER: try Fixtures.bytes(folder.appendingPathComponent("signer-root.pem")))
    }

    static func verify(_ name: String) throws -> VerifiedVICAL {
        try VICALVerifier().verify(try Fixtures.bytes(folder.appendingPathComponent(name)), source: "test",
                                   signerAnchor: try anchor(), at: time)
    }

    @Test func acceptedListsGiveTheirAnchorsAndScopes() throws {
        let manifest = try JSONValue.load(Self.folder.appendingPathComponent("manifest.json"))
        let entries = manifest["vicals"]?.array ?? []
        #expect(entries.count == 8)
        var accepted = 0
        for entry in entries {
            let file = try #require(entry["file"]?.string)
            let expect = try #require(entry["expect"])
            guard expect["outcome"]?.string == "accepted" else { continue }
            accepted += 1
            let verified = try Self.verify(file)
            let expectedAnchors = expect["anchors"]?.array ?? []
            #expect(verified.anchors.count == expectedAnchors.count, "\(file)")
            for anchor in expectedAnchors {
                let sha = try #require(anchor["sha256"]?.string)
                let found = verified.anchors.first { $0.sha256 == sha }
                #expect(found != nil, "\(file): \(sha)")
                let docTypes = anchor["docTypes"]?.array.compactMap(\.string).sorted()
                #expect(found?.metadata.docTypes == docTypes, "\(file): \(sha)")
            }
            var skipped = 0
            if case .integer(let count)? = expect["skipped"] { skipped = Int(count) }
            #expect(verified.skipped.count == skipped, "\(file)")
        }
        #expect(accepted == 3)
    }

    @Test func refusedListsSayWhy() throws {
        let expected: [String: VICALErrorCode] = [
            "test-vical-10-other-signer.cbor": .signerUntrusted,
            "test-vical-12-wrong-eku.cbor": .signerNotAuthorized,
            "test-vical-13-stale.cbor": .stale,
            "test-vical-14-future.cbor": .notYetValid,
        ]
        for (file, code) in expected {
            #expect(RealVICALTests.code { try Self.verify(file) } == code, "\(file)")
        }
        // Garbage and truncation are malformed, never a crash.
        let bytes = try Fixtures.bytes(Self.folder.appendingPathComponent("test-vical-10.cbor"))
        for length in [0, 1, 10, bytes.count / 2, bytes.count - 1] {
            #expect(RealVICALTests.code {
                try VICALVerifier().verify(Array(bytes.prefix(length)), source: "test", signerAnchor: try Self.anchor(), at: Self.time)
            } != nil)
        }
        var limits = VICALLimits()
        limits.maximumBytes = 100
        #expect(RealVICALTests.code {
            try VICALVerifier(limits: limits).verify(bytes, source: "test", signerAnchor: try Self.anchor(), at: Self.time)
        } == .malformed)
    }

    /// ISO 18013-5 Annex C: an IACA listed for photo IDs only does not vouch for an mDL.
    @Test func aDocumentOfAnotherDocTypeFailsTheChainCheck() throws {
        let verified = try Self.verify("test-vical-10.cbor")
        let trust = TrustSnapshot(set: TrustSet(anchors: verified.anchors))
        let cases = Fixtures.testVectors.appendingPathComponent("mdoc/cases")
        func report(_ name: String) throws -> VerificationReport {
            MDocVerifier(trust: trust).verify(
                deviceResponse: try Fixtures.hexFile(cases.appendingPathComponent("\(name).deviceresponse.hex")),
                sessionTranscript: try Fixtures.hexFile(cases.appendingPathComponent("\(name).transcript.hex")),
                options: VerificationOptions(verificationTime: Self.time))
        }
        // iaca-p256 is listed for mDL: its document verifies.
        #expect(try report("valid-p256-sha256-signature").verified)
        // iaca-p384 is listed for org.iso.23220.photoid.1 only: its mDL fails, with the new code, in the chain check.
        let scoped = try report("valid-p384-sha384-signature")
        #expect(!scoped.verified)
        let chain = try #require(scoped.documents.first?.check(.issuerCertificateChain))
        #expect(chain.status == .failed)
        #expect(chain.code == .issuerNotAuthorizedForDocType)
        #expect(chain.detail?.contains("org.iso.23220.photoid.1") == true)
        // The same anchor added by hand without a scope vouches for any docType again (the union of the entries).
        let manual = try TrustAnchor(derBytes: try #require(verified.anchors.first { $0.subject.contains("P-384") }).derBytes)
        let both = TrustSnapshot(set: TrustSet(anchors: verified.anchors + [manual]))
        let again = MDocVerifier(trust: both).verify(
            deviceResponse: try Fixtures.hexFile(cases.appendingPathComponent("valid-p384-sha384-signature.deviceresponse.hex")),
            sessionTranscript: try Fixtures.hexFile(cases.appendingPathComponent("valid-p384-sha384-signature.transcript.hex")),
            options: VerificationOptions(verificationTime: Self.time))
        #expect(again.verified)
    }
}
