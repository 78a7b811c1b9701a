import Foundation
import Testing
import TestSupport
import TrustStore
@testable import TrustLists

/// The VICAL succession rule (ISO 18013-5 Annex C `vicalIssueID`), in the library: a list never goes back.
struct VICALSuccessionTests {
    static func inForce(issueID: UInt64?, date: Date, sha256: String = "other") -> TrustListRecord {
        TrustListRecord(issueID: issueID, provider: "p", date: date, nextUpdate: nil, importedAt: date, anchorCount: 1, sha256: sha256)
    }

    static func code(_ verified: VerifiedVICAL, after record: TrustListRecord?) -> VICALErrorCode? {
        do {
            try verified.checkSuccession(after: record)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func aListNeverGoesBack() throws {
        let verified = try GeneratedVICALTests.verify("test-vical-10.cbor")
        let date = verified.vical.date
        #expect(Self.code(verified, after: nil) == nil, "the first list of a source")
        if let issueID = verified.vical.issueID {
            #expect(Self.code(verified, after: Self.inForce(issueID: issueID - 1, date: date)) == nil)
            #expect(Self.code(verified, after: Self.inForce(issueID: issueID + 1, date: date)) == .rollback)
            #expect(Self.code(verified, after: Self.inForce(issueID: issueID, date: date, sha256: verified.sha256)) == nil,
                    "the same list again")
            #expect(Self.code(verified, after: Self.inForce(issueID: issueID, date: date)) == .issueIDReused)
            // The list in force has no issue ID: dates decide.
            #expect(Self.code(verified, after: Self.inForce(issueID: nil, date: date.addingTimeInterval(86_400))) == .rollback)
            #expect(Self.code(verified, after: Self.inForce(issueID: nil, date: date.addingTimeInterval(-86_400))) == nil)
        } else {
            #expect(Self.code(verified, after: Self.inForce(issueID: 1, date: date)) == .rollback,
                    "without an issue ID after a list that had one")
            #expect(Self.code(verified, after: Self.inForce(issueID: nil, date: date.addingTimeInterval(86_400))) == .rollback)
            #expect(Self.code(verified, after: Self.inForce(issueID: nil, date: date.addingTimeInterval(-86_400))) == nil)
        }
    }
}
