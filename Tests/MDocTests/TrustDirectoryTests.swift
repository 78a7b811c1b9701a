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
                .map { try TrustAnchor(derBytes: $0, source: name) }
        }
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trustdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func writesVersionsAndSwitchesCurrent() throws {
        let url = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        var directory = TrustDirectory(url: url)
        directory.versionsKept = 2
        let first = try directory.write(try anchors(["iaca-p256.pem"]))
        #expect(try directory.load().count == 1)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: url.appendingPathComponent("current").path)
                == ".versions/\(first)")
        let second = try directory.write(try anchors(["iaca-p256.pem", "iaca-p384.pem"]))
        #expect(try directory.load().count == 2)
        let third = try directory.write(try anchors(["iaca-p521.pem"]))
        #expect(try directory.load().map(\.subject).first?.contains("P-521") == true)
        let versions = try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(".versions").path)
        #expect(Set(versions) == [second, third], "older versions are pruned")
        #expect(!versions.contains(first))
    }

    @Test func anInterruptedWriteLeavesTheSetInForce() throws {
        let url = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        let directory = TrustDirectory(url: url)
        try directory.write(try anchors(["iaca-p256.pem"]))
        // A crash after staging files but before the switch leaves a staging folder and a stray link behind.
        let staging = url.appendingPathComponent(".versions/.staging-v1-crash")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.pki.appendingPathComponent("iaca-p384.pem"), to: staging.appendingPathComponent("x.pem"))
        try FileManager.default.createSymbolicLink(atPath: url.appendingPathComponent(".current-v1-crash").path,
                                                   withDestinationPath: ".versions/.staging-v1-crash")
        let loaded = try directory.load()
        #expect(loaded.count == 1)
        #expect(loaded[0].subject.contains("P-256"))
    }

    @Test func flatDirectoriesAreReadAsTheyAre() throws {
        let url = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.copyItem(at: Self.pki.appendingPathComponent("iaca-p256.pem"), to: url.appendingPathComponent("a.pem"))
        let directory = TrustDirectory(url: url)
        let before = directory.stateSignature()
        #expect(try directory.load().count == 1)
        try FileManager.default.copyItem(at: Self.pki.appendingPathComponent("iaca-p384.pem"), to: url.appendingPathComponent("b.crt"))
        #expect(directory.stateSignature() != before)
        #expect(try directory.load().count == 2)
        try FileManager.default.copyItem(at: Self.pki.appendingPathComponent("ds-p256.pem"), to: url.appendingPathComponent("c.pem"))
        #expect(throws: TrustAnchorError.self) { try directory.load() }
    }

    @Test func aMissingDirectoryIsAnError() {
        let directory = TrustDirectory(url: URL(fileURLWithPath: "/nonexistent/verifierd-trust"))
        #expect(throws: TrustAnchorError.self) { try directory.load() }
    }
}
