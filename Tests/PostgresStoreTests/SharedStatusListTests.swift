import Foundation
import MDoc
import OutboundFetch
import PostgresStore
import StatusList
import Testing
import TestSupport
import TrustStore

/// Status lists shared by replicas through the database: three caches, each with its own pool on one database (as
/// three replicas have), and the loopback list server counting fetches.
@Suite(.serialized, .enabled(if: PostgresTestCluster.enabled, "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql"))
struct SharedStatusListTests {
    static let manifest = try? JSONValue.load(StatusListServer.folder.appendingPathComponent("manifest.json"))
    static let time = TestClock.date(manifest?["verificationTime"]?.string ?? "2030-01-01T00:00:00Z")
    static let outbound = OutboundFetcher(policy: DestinationPolicy(allowed: [AllowedDestination("127.0.0.1:\(StatusListServer.port)")!]))

    static func trust() throws -> TrustSnapshot {
        let url = Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem")
        return TrustSnapshot(anchors: try CertificateParsing.derCertificates(from: try Fixtures.bytes(url)).map { try TrustAnchor(derBytes: $0) })
    }

    /// The references of a generated case (`status-valid`: bits1 index 0).
    static func references(_ name: String) throws -> Set<StatusReferenceKey> {
        let path = StatusListServer.folder.appendingPathComponent("cases/\(name).deviceresponse.hex")
        let response = try DeviceResponse(bytes: try Fixtures.hexFile(path))
        return Set(response.documents.flatMap { $0.mobileSecurityObject.statusReferences?.keys ?? [] })
    }

    /// Three replicas' resolvers on one database.
    static func replicas(_ url: String, cacheSeconds: TimeInterval = 86_400) throws -> ([StatusResolver], [PostgresDatabase]) {
        let databases = try (0..<3).map { _ in try TestDatabase.open(url, poolSize: 2) }
        let fetcher = StatusListFetcher(limits: StatusFetchLimits(timeout: 1, maximumBytes: 64 << 10, allowedSchemes: ["http"]),
                                        fetcher: outbound)
        let resolvers = databases.map { database in
            StatusResolver(cache: StatusListCache(fetcher: fetcher, cacheSeconds: cacheSeconds,
                                                  shared: PostgresStatusLists(database: database, maximumBytes: 64 << 10),
                                                  claimSeconds: 6))
        }
        return (resolvers, databases)
    }

    /// The list server, a fresh database and three replicas' resolvers on it.
    struct Setup {
        let server: StatusListServer
        let test: TestDatabase
        let resolvers: [StatusResolver]
        let databases: [PostgresDatabase]
        let trust: TrustSnapshot

        init() async throws {
            server = try StatusListServer()
            test = try await TestDatabase.make()
            (resolvers, databases) = try SharedStatusListTests.replicas(test.url)
            trust = try SharedStatusListTests.trust()
        }

        func stop() async {
            databases.forEach { $0.shutdown() }
            test.database.shutdown()
            await server.stop()
        }
    }

    @Test func oneFetchServesEveryReplicaEachVerifyingTheBytes() async throws {
        let setup = try await Setup()
        let (server, test, resolvers, trust) = (setup.server, setup.test, setup.resolvers, setup.trust)
        let references = try Self.references("status-valid")
        // 30 verifications at once, ten on each replica.
        let evidence = await withTaskGroup(of: StatusEvidence?.self) { group in
            for index in 0..<30 {
                let resolver = resolvers[index % 3]
                group.addTask { await resolver.evidence(for: references, trust: trust, now: Self.time).values.first }
            }
            var all: [StatusEvidence?] = []
            for await item in group { all.append(item) }
            return all
        }
        #expect(evidence.count == 30 && evidence.allSatisfy { $0?.finding == .status(0) }, "\(evidence)")
        #expect(server.fetches("bits1") == 1, "one fetch for three replicas")
        #expect(evidence.contains { $0?.source.hasPrefix("shared, fetched") == true }, "the others read the shared copy")
        // Each replica keeps what it verified: nothing more is read or fetched within the list's ttl (3600 s).
        for resolver in resolvers {
            let cached = await resolver.evidence(for: references, trust: trust, now: Self.time.addingTimeInterval(3500)).values.first
            #expect(cached?.source.hasPrefix("cached") == true)
        }
        // Past the ttl, counted from the one fetch: one replica fetches again, the others take its copy.
        for resolver in resolvers {
            let later = await resolver.evidence(for: references, trust: trust, now: Self.time.addingTimeInterval(3601)).values.first
            #expect(later?.finding == .status(0))
        }
        #expect(server.fetches("bits1") == 2)
        #expect(try test.psql("SELECT count(*) FROM verifierd_status_lists WHERE body IS NOT NULL AND claimed_until_ms IS NULL") == "1")
        await setup.stop()
    }

    @Test func sharedBytesAreVerifiedByEachReplica() async throws {
        let setup = try await Setup()
        let (server, test, resolvers, trust) = (setup.server, setup.test, setup.resolvers, setup.trust)
        let references = try Self.references("status-valid")
        let first = await resolvers[0].evidence(for: references, trust: trust, now: Self.time).values.first
        #expect(first?.finding == .status(0))
        // Someone with write access to the table flips a byte of the signed list: the next replica does not take
        // it, fetches for itself, and the good list replaces the damaged one.
        _ = try test.psql("UPDATE verifierd_status_lists SET body = overlay(body placing '\\x00'::bytea from length(body) - 3 for 1)")
        let second = await resolvers[1].evidence(for: references, trust: trust, now: Self.time).values.first
        #expect(second?.finding == .status(0) && second?.source == "fetched", "\(String(describing: second))")
        #expect(server.fetches("bits1") == 2)
        let third = await resolvers[2].evidence(for: references, trust: trust, now: Self.time).values.first
        #expect(third?.source.hasPrefix("shared, fetched") == true, "\(String(describing: third))")
        #expect(server.fetches("bits1") == 2)
        await setup.stop()
    }

    @Test func aFailedFetchIsSharedBrieflyInsteadOfRepeated() async throws {
        let setup = try await Setup()
        let (server, resolvers) = (setup.server, setup.resolvers)
        let key = StatusReferenceKey.statusList(StatusReferences.StatusList(index: 0, uri: "http://127.0.0.1:\(StatusListServer.port)/lists/missing",
                                                                   certificate: nil))
        let trust = setup.trust
        for resolver in resolvers {
            guard case .unknown(let reason) = await resolver.evidence(for: key, trust: trust, now: Self.time).finding else {
                Issue.record("a list that is not there is unknown"); continue
            }
            #expect(!reason.isEmpty)
        }
        #expect(server.fetches("missing") == 1, "the other replicas took the recorded failure")
        // Later than the shared failure's 5 s, a replica tries again itself.
        _ = await resolvers[1].evidence(for: key, trust: trust, now: Self.time.addingTimeInterval(6))
        #expect(server.fetches("missing") == 2)
        await setup.stop()
    }

    @Test func aClaimThatRunsOutIsTakenOver() async throws {
        let test = try await TestDatabase.make()
        let lists = PostgresStatusLists(database: test.database, maximumBytes: 1024)
        let uri = "http://127.0.0.1:\(StatusListServer.port)/lists/bits1"
        #expect(await lists.claim(uri: uri, seen: nil, now: Self.time, until: Self.time.addingTimeInterval(10)))
        let claimed = await lists.latest(uri: uri)
        #expect(await !lists.claim(uri: uri, seen: claimed, now: Self.time.addingTimeInterval(5), until: Self.time.addingTimeInterval(15)),
                "another replica's claim holds")
        #expect(await lists.claim(uri: uri, seen: claimed, now: Self.time.addingTimeInterval(10), until: Self.time.addingTimeInterval(20)),
                "a claim whose replica never came back runs out")
        await lists.publish(uri: uri, bytes: [1, 2, 3], fetchedAt: Self.time.addingTimeInterval(11))
        let copy = await lists.latest(uri: uri)
        #expect(copy == SharedStatusListCopy(bytes: [1, 2, 3], fetchedAt: Self.time.addingTimeInterval(11), failedAt: nil, failure: nil))
        // Larger than the fetch limit: not stored, recorded as a failure.
        await lists.publish(uri: uri, bytes: [UInt8](repeating: 0, count: 1025), fetchedAt: Self.time.addingTimeInterval(12))
        #expect(await lists.latest(uri: uri)?.bytes == [1, 2, 3])
        #expect(await lists.latest(uri: uri)?.failure?.contains("larger than 1024") == true)
        // A replica that read the record before a publication does not claim a fetch after it: it reads again.
        let before = await lists.latest(uri: uri)
        await lists.publish(uri: uri, bytes: [4, 5, 6], fetchedAt: Self.time.addingTimeInterval(13))
        #expect(await !lists.claim(uri: uri, seen: before, now: Self.time.addingTimeInterval(14), until: Self.time.addingTimeInterval(24)))
        let after = await lists.latest(uri: uri)
        #expect(await lists.claim(uri: uri, seen: after, now: Self.time.addingTimeInterval(14), until: Self.time.addingTimeInterval(24)))
        test.database.shutdown()
    }
}
