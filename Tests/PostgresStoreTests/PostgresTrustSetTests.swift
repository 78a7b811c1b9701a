import Foundation
import PostgresStore
import Synchronization
import Testing
import TestSupport
import TrustStore

@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct PostgresTrustSetTests {
    static func anchor(_ name: String, docTypes: [String]? = nil) throws -> TrustAnchor {
        let pem = try Fixtures.bytes(Fixtures.testVectors.appendingPathComponent("pki/\(name).pem"))
        return try TrustAnchor(derBytes: try CertificateParsing.derCertificates(from: pem)[0],
                               metadata: TrustAnchorMetadata(docTypes: docTypes))
    }

    struct Refused: Error {}

    @Test func changesAreVersionedWithTheirMetadataAndARefusalWritesNothing() async throws {
        let test = try await TestDatabase.make()
        let trust = PostgresTrustSet(database: test.database)
        #expect(try await trust.latestVersion() == 0)
        let p256 = try Self.anchor("iaca-p256", docTypes: ["org.iso.18013.5.1.mDL"])
        #expect(try await trust.seedIfEmpty(TrustSet(anchors: [p256]), actor: "test"))
        #expect(try await !trust.seedIfEmpty(TrustSet(anchors: []), actor: "test"), "seeding happens once")
        let audit = TrustChangeAudit(actor: "admin-token:abcd", action: "add", requestID: "req-1", fingerprints: ["x"])
        let p384 = try Self.anchor("iaca-p384")
        let changed = try await trust.update(audit) { (set) throws(Refused) in
            var updated = set
            updated.anchors.append(p384)
            return updated
        }
        #expect(changed.previous.anchors.map(\.sha256) == [p256.sha256])
        #expect(changed.committed.version == 2)
        let latest = try await trust.latest()
        #expect(latest.version == 2)
        #expect(latest.set.anchors.map(\.sha256) == [p256.sha256, p384.sha256])
        #expect(latest.set.anchors[0].metadata.docTypes == ["org.iso.18013.5.1.mDL"], "metadata survives the database")
        #expect(try test.psql("SELECT actor || ' ' || action || ' ' || request_id FROM verifierd_trust_versions WHERE version = 2")
                == "admin-token:abcd add req-1")
        await #expect(throws: TrustDirectoryUpdateError<Refused>.self) {
            try await trust.update(audit) { (_) throws(Refused) in throw Refused() }
        }
        #expect(try await trust.latestVersion() == 2, "a refused change commits nothing")
    }

    @Test func concurrentWritersOnSeveralPoolsLoseNothing() async throws {
        let test = try await TestDatabase.make()
        let p256 = try Self.anchor("iaca-p256")
        _ = try await PostgresTrustSet(database: test.database).seedIfEmpty(TrustSet(anchors: [p256]), actor: "test")
        let pools = try (0..<4).map { _ in try TestDatabase.open(test.url) }
        defer { pools.forEach { $0.shutdown() } }
        // 24 writers on 4 replicas each add a docType to the anchor's scope: every one must be in the result.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask {
                    let trust = PostgresTrustSet(database: pools[index % 4])
                    _ = try await trust.update(TrustChangeAudit(actor: "w\(index)", action: "scope", requestID: nil, fingerprints: [])) { (set) throws(Refused) in
                        var updated = set
                        let scope = (updated.anchors[0].metadata.docTypes ?? []) + ["doc.\(index)"]
                        updated.anchors[0].metadata = TrustAnchorMetadata(docTypes: scope)
                        return updated
                    }
                }
            }
            try await group.waitForAll()
        }
        let latest = try await PostgresTrustSet(database: test.database).latest()
        #expect(latest.version == 25)
        #expect(Set(latest.set.anchors[0].metadata.docTypes ?? []) == Set((0..<24).map { "doc.\($0)" }))
    }

    @Test func anotherReplicaHearsOfANewVersionAtOnce() async throws {
        let test = try await TestDatabase.make()
        let writer = PostgresTrustSet(database: test.database)
        _ = try await writer.seedIfEmpty(TrustSet(anchors: [try Self.anchor("iaca-p256")]), actor: "test")
        let replica = try TestDatabase.open(test.url)
        defer { replica.shutdown() }
        let heard = Mutex<[Int]>([])
        // A slow poll, so only the notification can be this quick.
        let watcher = Task {
            await TrustSetWatcher(trust: PostgresTrustSet(database: replica), pollInterval: .seconds(30)).run { version in
                heard.withLock { $0.append(version) }
            }
        }
        defer { watcher.cancel() }
        try await Task.sleep(for: .milliseconds(500))
        let p384 = try Self.anchor("iaca-p384")
        let started = ContinuousClock.now
        _ = try await writer.update(TrustChangeAudit(actor: "t", action: "add", requestID: nil, fingerprints: [])) { (set) throws(Refused) in
            TrustSet(anchors: set.anchors + [p384])
        }
        while !heard.withLock({ $0.contains(2) }) && ContinuousClock.now - started < .seconds(5) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(heard.withLock { $0.contains(2) })
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func documentsAreValidatedWhenRead() throws {
        let set = TrustSet(anchors: [try Self.anchor("iaca-p256", docTypes: ["a", "b"])])
        let bytes = TrustSetDocument.encode(set)
        #expect(try TrustSetDocument.decode(bytes, source: "t").anchors.map(\.sha256) == set.anchors.map(\.sha256))
        // A non-CA certificate put in a row by hand does not load.
        let ds = try CertificateParsing.derCertificates(from: try Fixtures.bytes(Fixtures.testVectors.appendingPathComponent("pki/ds-p256.pem")))[0]
        var text = String(decoding: bytes, as: UTF8.self)
        func escaped(_ der: [UInt8]) -> String { Data(der).base64EncodedString().replacingOccurrences(of: "/", with: "\\/") }
        #expect(text.contains(escaped(set.anchors[0].derBytes)))
        text = text.replacingOccurrences(of: escaped(set.anchors[0].derBytes), with: escaped(ds))
        #expect(throws: TrustAnchorError.self) { try TrustSetDocument.decode(Array(text.utf8), source: "t") }
    }
}
