import Foundation
import Testing
import TestSupport
import COSE
import TrustLists
import TrustStore

/// The real VICALs (`../shared/vectors/vical`): AAMVA's production list verified up to the AAMVA DTS Root CA at
/// its own date, RDW's test list with all its quirks.
struct RealVICALTests {
    static let folder = Fixtures.sharedVectors.appendingPathComponent("vical")
    static let aamvaDate = TestClock.date("2025-11-18T19:00:00Z")
    static let mDL = "org.iso.18013.5.1.mDL"

    static func aamva() throws -> [UInt8] { try Fixtures.bytes(folder.appendingPathComponent("aamva-vical-2025-11-18.cbor")) }
    static func anchor(_ name: String) throws -> VICALSignerAnchor {
        try VICALSignerAnchor(pemOrDER: try Fixtures.bytes(folder.appendingPathComponent(name)))
    }

    @Test func aamvaImportsAtItsDateWithFourteenScopedAnchors() throws {
        let verified = try VICALVerifier().verify(try Self.aamva(), source: "aamva",
                                                  signerAnchor: try Self.anchor("aamva_dts_root_ca.pem"), at: Self.aamvaDate)
        #expect(verified.vical.provider == "AAMVA")
        #expect(verified.vical.issueID == 227602)
        #expect(verified.signer.contains("AAMVA Prod Vical-Signer-01"))
        #expect(verified.anchors.count == 14)
        #expect(verified.skipped.isEmpty)
        #expect(verified.anchors.allSatisfy { $0.metadata.docTypes == [Self.mDL] && $0.metadata.source == "vical:aamva" })
        #expect(verified.anchors.allSatisfy { $0.metadata.issuingCountry == "US" && $0.metadata.vicalIssueID == 227602 })
        #expect(Set(verified.anchors.compactMap(\.metadata.stateOrProvince)) == ["US-MD", "US-UT", "US-VA", "US-CO", "US-GA", "AK", "US-ND", "US-AZ", "US-MT"])
        // Repeated subject names with different keys stay separate anchors (Arizona three times, Utah twice).
        #expect(verified.anchors.filter { $0.subject.contains("MVMProdCA") }.count == 3)
        // Pinning the issuing CA instead of the root works as well.
        let pinned = try VICALVerifier().verify(try Self.aamva(), source: "aamva",
                                                signerAnchor: try Self.anchor("aamva_dts_issuing_ca.pem"), at: Self.aamvaDate)
        #expect(pinned.anchors.count == 14)
    }

    @Test func aamvaIsRefusedTodayBecauseItsSignerExpired() throws {
        #expect(Self.code { try VICALVerifier().verify(try Self.aamva(), source: "aamva",
            signerAnchor: try Self.anchor("aamva_dts_root_ca.pem"), at: TestClock.date("2026-11-23T00:00:00Z")) } == .signerExpired)
        // A day after its date the list is past its nextUpdate.
        #expect(Self.code { try VICALVerifier().verify(try Self.aamva(), source: "aamva",
            signerAnchor: try Self.anchor("aamva_dts_root_ca.pem"), at: TestClock.date("2025-11-20T00:00:00Z")) } == .stale)
    }

    @Test func oneFlippedBitOrAnotherAnchorIsRefused() throws {
        let bytes = try Self.aamva()
        let anchor = try Self.anchor("aamva_dts_root_ca.pem")
        var signature = bytes
        signature[signature.count - 1] ^= 0x01
        #expect(Self.code { try VICALVerifier().verify(signature, source: "aamva", signerAnchor: anchor, at: Self.aamvaDate) } == .signatureInvalid)
        // A bit inside an entry's certificate (the payload) breaks the signature too, whatever it does to the CBOR.
        for offset in [bytes.count / 2, bytes.count / 3, 200] {
            var flipped = bytes
            flipped[offset] ^= 0x10
            let code = Self.code { try VICALVerifier().verify(flipped, source: "aamva", signerAnchor: anchor, at: Self.aamvaDate) }
            #expect(code != nil, "a flipped bit at \(offset) must be refused")
        }
        let other = try VICALSignerAnchor(pemOrDER: try Fixtures.bytes(Fixtures.testVectors.appendingPathComponent("vical/signer-root.pem")))
        #expect(Self.code { try VICALVerifier().verify(bytes, source: "aamva", signerAnchor: other, at: Self.aamvaDate) } == .signerUntrusted)
    }

    @Test func rdwTestListKeepsEveryDistinctCertificateOrSaysWhy() throws {
        let bytes = try Fixtures.bytes(Self.folder.appendingPathComponent("rdw-test-vical-2025-02-25.cbor"))
        // The RDW root is not published with the list; pin its signer certificate (x5chain is a single bstr).
        let signer = try #require(try Self.x5chain(bytes).first)
        let verified = try VICALVerifier().verify(bytes, source: "rdw", signerAnchor: try VICALSignerAnchor(pemOrDER: signer),
                                                  at: TestClock.date("2025-02-26T00:00:00Z"))
        #expect(verified.vical.provider == "RDW")
        #expect(verified.vical.issueID == 5)
        #expect(verified.entryCount == 45)
        #expect(Set(verified.vical.entries.map(\.certificate)).count == 44, "44 distinct certificates in 45 entries")
        // Every distinct certificate is either an anchor or skipped with a reason.
        let skippedCertificates = Set(verified.skipped.map { verified.vical.entries[$0.index].certificate })
        #expect(verified.anchors.count + skippedCertificates.count == 44, "\(verified.skipped)")
        #expect(verified.skipped.allSatisfy { !$0.reason.isEmpty })
        // #16 and #44 hold the same certificate: one anchor, with the union of their docTypes.
        let duplicate = verified.vical.entries[16].certificate
        #expect(verified.vical.entries[44].certificate == duplicate)
        let merged = try #require(verified.anchors.first { $0.derBytes == duplicate })
        #expect(merged.metadata.docTypes?.count == 6)
        // Entries that are not self-signed (#6, #7) are anchors too.
        #expect(verified.anchors.contains { $0.derBytes == verified.vical.entries[6].certificate })
    }

    static func x5chain(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let message = try COSESign1(bytes: bytes)
        return try message.headers.x5chain().map(Array.init)
    }

    static func code(_ body: () throws -> VerifiedVICAL) -> VICALErrorCode? {
        do {
            _ = try body()
            return nil
        } catch let error as VICALError {
            return error.code
        } catch {
            return .malformed
        }
    }
}
