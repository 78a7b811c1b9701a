import Foundation
import MDoc
import OutboundFetch
import StatusList
import Testing
import TestSupport
import TrustStore

/// Every generated revocation case (TestVectors/status, made by `status_lists.py` with Python `cryptography`,
/// `cbor2` and zlib) fetched over loopback HTTP from our own server, verified and judged by `mso.status`.
@Suite(.serialized)
struct StatusListCaseTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let json: JSONValue
        var testDescription: String { json["name"]?.string ?? "?" }
    }

    static let manifest = try? JSONValue.load(StatusListServer.folder.appendingPathComponent("manifest.json"))
    static let cases: [Case] = (manifest?["cases"]?.array ?? []).map(Case.init)
    static let time = TestClock.date(manifest?["verificationTime"]?.string ?? "2030-01-01T00:00:00Z")

    static func trust() throws -> TrustSnapshot {
        let url = Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem")
        return TrustSnapshot(anchors: try CertificateParsing.derCertificates(from: try Fixtures.bytes(url)).map {
            try TrustAnchor(derBytes: $0)
        })
    }

    /// The outbound fetcher with exactly the test list server opened (everything else on loopback stays refused).
    static let outbound = OutboundFetcher(policy: DestinationPolicy(
        allowed: [AllowedDestination("127.0.0.1:\(StatusListServer.port)")!]))

    static func fetcher(timeout: TimeInterval = 1, maximumBytes: Int = 64 << 10,
                        schemes: Set<String> = ["http"]) -> StatusListFetcher {
        StatusListFetcher(limits: StatusFetchLimits(timeout: timeout, maximumBytes: maximumBytes, allowedSchemes: schemes),
                          fetcher: outbound)
    }

    static func resolver(timeout: TimeInterval = 1, cacheSeconds: TimeInterval = 300,
                         fetcher: (any StatusListFetching)? = nil) -> StatusResolver {
        StatusResolver(cache: StatusListCache(fetcher: fetcher ?? Self.fetcher(timeout: timeout), cacheSeconds: cacheSeconds))
    }

    /// Every reference the response names, for the resolver and cache tests (the service resolves only those of
    /// authentic MSOs: StatusFetchGateTests).
    static func references(in response: DeviceResponse) -> Set<StatusReferenceKey> {
        Set(response.documents.flatMap { $0.mobileSecurityObject.statusReferences?.keys ?? [] })
    }

    static func file(_ json: JSONValue, _ key: String) throws -> [UInt8] {
        try Fixtures.hexFile(StatusListServer.folder.appendingPathComponent(try #require(json[key]?.string)))
    }

    @Test func manifestHasTheCases() {
        #expect(Self.cases.count >= 20)
    }

    @Test(arguments: cases)
    func statusCheckAsTheManifestSays(_ testCase: Case) async throws {
        let server = try StatusListServer()
        let json = testCase.json
        let response = try DeviceResponse(bytes: try Self.file(json, "deviceResponse"))
        let trust = try Self.trust()
        // The service's path: prepare, resolve the references of the authentic MSOs, finish.
        let verifier = MDocVerifier(trust: trust)
        let prepared = verifier.prepare(response, sessionTranscript: try Self.file(json, "sessionTranscript"),
                                        options: VerificationOptions(verificationTime: Self.time))
        let evidence = await Self.resolver().evidence(for: prepared.statusReferences, trust: trust, now: Self.time)
        let report = verifier.finish(prepared, statusEvidence: evidence)
        await server.stop()
        let status = try #require(report.documents.first?.check(.msoStatus))
        let expect = try #require(json["expect"])
        #expect(status.status.rawValue == expect["outcome"]?.string, "\(status.detail ?? "")")
        #expect(status.code?.rawValue == expect["code"]?.string, "\(status.detail ?? "")")
        // Every other check passes: only the status decides.
        let others = report.documents.first?.checks.filter { $0.id != .msoStatus && $0.status == .failed } ?? []
        #expect(others.isEmpty, "\(others)")
    }

    /// 200 concurrent verifications of documents on the same list cause exactly one fetch; after `ttl` (or
    /// `cacheSeconds`, whichever is shorter) the next verification fetches again.
    @Test func oneFetchForManyVerificationsAndARefetchAfterTTL() async throws {
        let server = try StatusListServer()
        let valid = try #require(Self.cases.first { $0.json["name"]?.string == "status-valid" })
        let references = Self.references(in: try DeviceResponse(bytes: try Self.file(valid.json, "deviceResponse")))
        let trust = try Self.trust()
        let resolver = Self.resolver(cacheSeconds: 86_400)  // so the list's ttl (3600 s) decides
        let results = await withTaskGroup(of: StatusEvidence?.self) { group in
            for _ in 0..<200 {
                group.addTask { await resolver.evidence(for: references, trust: trust, now: Self.time).values.first }
            }
            var all: [StatusEvidence?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 200)
        #expect(results.allSatisfy { $0?.finding == .status(0) })
        #expect(server.fetches("bits1") == 1)
        // Within ttl (3600 s): still cached.
        _ = await resolver.evidence(for: references, trust: trust, now: Self.time.addingTimeInterval(3500))
        #expect(server.fetches("bits1") == 1)
        // Past ttl: fetched again.
        _ = await resolver.evidence(for: references, trust: trust, now: Self.time.addingTimeInterval(3601))
        #expect(server.fetches("bits1") == 2)
        // cacheSeconds caps a long ttl too.
        let short = Self.resolver(cacheSeconds: 60)
        _ = await short.evidence(for: references, trust: trust, now: Self.time)
        _ = await short.evidence(for: references, trust: trust, now: Self.time.addingTimeInterval(61))
        #expect(server.fetches("bits1") == 4)
        let listed = await resolver.cache.snapshot()
        #expect(listed.contains { $0.key.uri.hasSuffix("/lists/bits1") })
        await server.stop()
    }

    /// An issuer that becomes unreachable: the last good list answers for the grace period, then "unknown".
    @Test func staleListServesWithinGraceThenUnknown() async throws {
        let server = try StatusListServer()
        let valid = try #require(Self.cases.first { $0.json["name"]?.string == "status-valid" })
        let references = Self.references(in: try DeviceResponse(bytes: try Self.file(valid.json, "deviceResponse")))
        let trust = try Self.trust()
        let resolver = StatusResolver(cache: StatusListCache(
            fetcher: Self.fetcher(maximumBytes: 10 << 20),
            cacheSeconds: 60, staleGraceSeconds: 600))
        #expect(await resolver.evidence(for: references, trust: trust, now: Self.time).values.first?.finding == .status(0))
        await server.stop()
        let stale = await resolver.evidence(for: references, trust: trust, now: Self.time.addingTimeInterval(120))
        #expect(stale.values.first?.finding == .status(0))
        #expect(stale.values.first?.source.hasPrefix("stale") == true)
        let gone = await resolver.evidence(for: references, trust: trust, now: Self.time.addingTimeInterval(60 + 601))
        guard case .unknown = gone.values.first?.finding else {
            Issue.record("expected unknown past the grace period")
            return
        }
    }

    @Test func redirectsStayWithinTheScheme() async throws {
        let server = try StatusListServer()
        let fetcher = Self.fetcher(maximumBytes: 10 << 20)
        let base = "http://127.0.0.1:\(StatusListServer.port)"
        let followed = try await fetcher.fetch(URL(string: base + "/redirect/same")!, accept: "application/statuslist+cwt")
        #expect(followed == (try Fixtures.hexFile(StatusListServer.folder.appendingPathComponent("lists/bits1.cwt.hex"))))
        await #expect(throws: StatusListError.self) { try await fetcher.fetch(URL(string: base + "/redirect/https")!, accept: "application/statuslist+cwt") }
        await server.stop()
    }

    @Test func schemesOutsideTheAllowListAreNotFetched() async throws {
        let fetcher = Self.fetcher(maximumBytes: 10 << 20, schemes: ["https"])
        await #expect(throws: StatusListError.self) { try await fetcher.fetch(URL(string: "http://127.0.0.1:18613/lists/bits1")!, accept: "application/statuslist+cwt") }
        await #expect(throws: StatusListError.self) { try await fetcher.fetch(URL(string: "file:///etc/passwd")!, accept: "application/statuslist+cwt") }
    }
}
