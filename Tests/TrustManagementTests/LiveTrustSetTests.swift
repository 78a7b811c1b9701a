import Foundation
import Logging
import Testing
import TestSupport
import TrustStore
@testable import TrustManagement

/// The trust set in force over a directory: changes are written as new versions and put in force at once, an anchor
/// already trusted is refused, the last anchor goes only when asked, and every change is recorded.
@Suite(.serialized)
struct LiveTrustSetTests {
    static func anchor(_ name: String) throws -> TrustAnchor {
        let url = Fixtures.testVectors.appendingPathComponent("pki/\(name).pem")
        return try TrustAnchor(derBytes: try #require(try CertificateParsing.derCertificates(from: try Fixtures.bytes(url)).first))
    }

    @Test func changesAreWrittenPutInForceAndRecorded() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = try LiveTrustSet(directory: TrustDirectory(url: folder), logger: Logger(label: "test"))
        #expect(manager.snapshot.anchors.isEmpty)
        let p256 = try Self.anchor("iaca-p256"), p384 = try Self.anchor("iaca-p384")
        let added = try await manager.add([p256, p384], actor: "test")
        #expect(Set(added.anchors.map(\.sha256)) == [p256.sha256, p384.sha256])
        await #expect(throws: TrustChangeError.self) { _ = try await manager.add([p256], actor: "test") }
        let removed = try await manager.remove(sha256: p256.sha256, actor: "test")
        #expect(removed.anchors.map(\.sha256) == [p384.sha256])
        await #expect(throws: TrustChangeError.self) { _ = try await manager.remove(sha256: p384.sha256, actor: "test") }
        #expect(try await manager.remove(sha256: p384.sha256, allowEmpty: true, actor: "test").anchors.isEmpty)
        // A second manager over the same directory reads what was written.
        let reopened = try LiveTrustSet(directory: TrustDirectory(url: folder), logger: Logger(label: "test"))
        #expect(reopened.snapshot.anchors.isEmpty)
        let changes = try await manager.recentChanges()
        #expect(changes.count >= 3, "\(changes)")
    }
}
