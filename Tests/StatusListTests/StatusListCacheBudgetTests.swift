import Foundation
import Synchronization
import MDoc
import Testing
import TestSupport
import TrustStore
@testable import StatusList

/// The status-list cache holds at most its byte budget (inflated lists counted by ``VerifiedStatusList/heldBytes``):
/// the least recently fetched list goes to make room, one larger than the whole budget is answered but not kept, and
/// the bytes held are reported after every change.
@Suite(.serialized)
struct StatusListCacheBudgetTests {
    static func key(_ name: String) -> StatusListCache.Key {
        StatusListCache.Key(uri: "http://127.0.0.1:\(StatusListServer.port)/lists/\(name)", kind: .statusList, certificate: nil)
    }

    @Test func theCacheStaysWithinItsByteBudget() async throws {
        let server = try StatusListServer()
        let trust = try StatusListCaseTests.trust()
        let time = StatusListCaseTests.time
        let probe = StatusListCache(fetcher: StatusListCaseTests.fetcher())
        guard case .success(let one) = await probe.list(Self.key("bits1"), trust: trust, now: time).0 else {
            Issue.record("bits1 did not verify")
            return
        }
        let held = Mutex<[Int]>([])
        // Room for two lists of this size, not three.
        let budget = one.heldBytes * 2 + one.heldBytes / 2
        let cache = StatusListCache(fetcher: StatusListCaseTests.fetcher(), cacheSeconds: 3600, maximumBytes: budget,
                                    onEvent: { if case .held(_, let bytes) = $0 { held.withLock { $0.append(bytes) } } })
        // One second apart, so "least recently fetched" is one list.
        for (offset, name) in ["bits1", "bits2", "bits4"].enumerated() {
            guard case .success = await cache.list(Self.key(name), trust: trust, now: time.addingTimeInterval(Double(offset))).0 else {
                Issue.record("\(name) did not verify")
                return
            }
        }
        let kept = await cache.snapshot().map { $0.key.uri.components(separatedBy: "/").last ?? "" }
        #expect(kept.count == 2 && !kept.contains("bits1"), "\(kept): the least recently fetched went")
        #expect(await cache.heldBytes <= budget)
        #expect(held.withLock { $0 }.allSatisfy { $0 <= budget })
        // A budget smaller than one list: the list still answers, and nothing is kept.
        let tiny = StatusListCache(fetcher: StatusListCaseTests.fetcher(), maximumBytes: one.heldBytes - 1)
        guard case .success = await tiny.list(Self.key("bits1"), trust: trust, now: time).0 else {
            Issue.record("answered even when it cannot be kept")
            return
        }
        #expect(await tiny.snapshot().isEmpty)
        #expect(await tiny.heldBytes == 0)
        #expect(server.fetches("bits1") == 3)
        await server.stop()
    }
}
