import Foundation
import Testing
import TestSupport
import TrustStore

/// The versioned trust directory: complete versions, an atomic `current` switch, flat directories read as they are.
struct TrustDirectoryTests {
    static let pki = Fixtures.testVectors.appendingPathComponent("pki")

    func anchors(_ names: [String]) throws -> [TrustAnchor] {
        try names.flatMap { name in
            try CertificateParsing.derCertificates(from: try Fixtures.bytes(Self.pki.appendingPathComponent(name)))
                .map { try TrustAnchor(derBytes: $0, file: name) }
        }
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trustdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func set(_ names: [String]) throws -> TrustSet { TrustSet(anchors: try anchors(names)) }

    func currentVersion(_ url: URL) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: url.appendingPathComponent("current").path)
            .replacingOccurrences(of: ".versions/", with: "")
    }

    @Test func writesVersionsAndSwitchesCurrent() throws {
        let url = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        var directory = TrustDirectory(url: url)
        directory.versionsKept = 2
        try directory.write(try set(["iaca-p256.pem"]))
        let first = try currentVersion(url)
        #expect(try directory.load().anchors.count == 1)
        try directory.write(try set(["iaca-p256.pem", "iaca-p384.pem"]))
        let second = try currentVersion(url)
        #expect(try directory.load().anchors.count == 2)
        try directory.write(try set(["iaca-p521.pem"]))
        let third = try currentVersion(url)
        #expect(try directory.load().anchors.map(\.subject).first?.contains("P-521") == true)
        let versions = try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(".versions").path)
        #expect(Set(versions) == [second, third], "older versions are pruned")
        #expect(!versions.contains(first))
    }

    @Test func anInterruptedWriteLeavesTheSetInForce() throws {
        let url = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        let directory = TrustDirectory(url: url)
        try directory.write(try set(["iaca-p256.pem"]))
        // A crash after staging files but before the switch leaves a staging folder and a stray link behind.
        let staging = url.appendingPathComponent(".versions/.staging-v1-crash")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.pki.appendingPathComponent("iaca-p384.pem"), to: staging.appendingPathComponent("x.pem"))
        try FileManager.default.createSymbolicLink(atPath: url.appendingPathComponent(".current-v1-crash").path,
                                                   withDestinationPath: ".versions/.staging-v1-crash")
        let loaded = try directory.load().anchors
        #expect(loaded.count == 1)
        #expect(loaded[0].subject.contains("P-256"))
    }

    @Test func flatDirectoriesAreReadAsTheyAre() throws {
        let url = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.copyItem(at: Self.pki.appendingPathComponent("iaca-p256.pem"), to: url.appendingPathComponent("a.pem"))
        let directory = TrustDirectory(url: url)
        let before = directory.stateSignature()
        #expect(try directory.load().anchors.count == 1)
        try FileManager.default.copyItem(at: Self.pki.appendingPathComponent("iaca-p384.pem"), to: url.appendingPathComponent("b.crt"))
        #expect(directory.stateSignature() != before)
        #expect(try directory.load().anchors.count == 2)
        try FileManager.default.copyItem(at: Self.pki.appendingPathComponent("ds-p256.pem"), to: url.appendingPathComponent("c.pem"))
        #expect(throws: TrustAnchorError.self) { try directory.load() }
    }

    @Test func aMissingDirectoryIsAnError() {
        let directory = TrustDirectory(url: URL(fileURLWithPath: "/nonexistent/verifierd-trust"))
        #expect(throws: TrustAnchorError.self) { try directory.load() }
    }

    @Test func theSameCertificateTwiceIsOneAnchorAndStaysWritable() throws {
        let url = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        for name in ["a.pem", "b.pem"] {
            try FileManager.default.copyItem(at: Self.pki.appendingPathComponent("iaca-p256.pem"), to: url.appendingPathComponent(name))
        }
        let directory = TrustDirectory(url: url)
        #expect(try directory.load().anchors.count == 1)
        // Writing the set (it used to fail with EEXIST and wedge every later write) works, and again after that.
        let written = try directory.update { (set: TrustSet) throws(TrustAnchorError) in set }
        #expect(written.anchors.count == 1)
        #expect(written.anchors[0].file == "\(written.anchors[0].sha256).pem", "GET shows the file as written")
        let more = try anchors(["iaca-p384.pem"])
        let again = try directory.update { (set: TrustSet) throws(TrustAnchorError) in TrustSet(anchors: set.anchors + more) }
        #expect(again.anchors.count == 2)
    }

    @Test func metadataAndListsSurviveAWrite() throws {
        let url = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        let directory = TrustDirectory(url: url)
        var scoped = try anchors(["iaca-p256.pem"])[0]
        scoped.metadata = TrustAnchorMetadata(source: "vical:test", docTypes: ["org.iso.18013.5.1.mDL"], issuingAuthority: "Test",
                                              issuingCountry: "US", stateOrProvince: "US-CA", vicalIssueID: 10)
        let manual = try anchors(["iaca-p256.pem"])[0]
        let record = TrustListRecord(issueID: 10, provider: "test", date: Date(timeIntervalSince1970: 1_750_000_000), nextUpdate: nil,
                                     importedAt: Date(timeIntervalSince1970: 1_760_000_000), anchorCount: 1, sha256: "00")
        try directory.write(TrustSet(anchors: [scoped, manual], lists: ["test": record]))
        let loaded = try directory.load()
        #expect(loaded.anchors.count == 2, "one certificate from two sources is two entries")
        #expect(loaded.anchors.first { $0.metadata.source == "vical:test" }?.metadata == scoped.metadata)
        #expect(loaded.anchors.first { $0.metadata.source == "manual" }?.metadata == .manual)
        #expect(loaded.lists["test"] == record)
        // For chain building the two entries are one issuer with the union of their scopes (manual: any docType).
        let snapshot = TrustSnapshot(set: loaded)
        let issuer = snapshot.candidateIssuers(authorityKeyIdentifier: scoped.subjectKeyIdentifier, issuer: scoped.certificate.subject)
        #expect(issuer.count == 1)
        #expect(issuer.first?.metadata.docTypes == nil)
    }

    @Test func aDamagedDirectoryCanBeReplacedFromTheSetInForce() throws {
        let url = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        let directory = TrustDirectory(url: url)
        try directory.write(try set(["iaca-p256.pem"]))
        let active = directory.activeFolder
        try Array("not a certificate".utf8).withUnsafeBytes { try Data($0).write(to: active.appendingPathComponent("broken.pem")) }
        #expect(throws: TrustAnchorError.self) { try directory.load() }
        // Without a fallback the writer refuses; with the set in force it writes a clean version.
        #expect(throws: (any Error).self) { try directory.update { (set: TrustSet) throws(TrustAnchorError) in set } }
        let inForce = try set(["iaca-p256.pem"])
        let repaired = try directory.update(fallback: inForce) { (set: TrustSet) throws(TrustAnchorError) in set }
        #expect(repaired.anchors.count == 1)
        #expect(try directory.load().anchors.count == 1)
    }
}
