import Foundation
import MDoc
import SDJWTVC
import TrustStore

/// Fetched and verified status lists, by URI: never more than one fetch in flight per list (concurrent
/// verifications await the same fetch), each kept until min(ttl, exp, `cacheSeconds`) after it was fetched. With
/// ``SharedStatusLists`` (several replicas), one replica fetches a list per refresh and the others verify its bytes.
///
/// The lists kept hold at most `maximumBytes` (``VerifiedStatusList/heldBytes``: an inflated list counts its
/// statuses), and at most `capacity` lists: to make room, lists past their stale grace go first, then the least
/// recently fetched; a list larger than the whole budget answers the verification that fetched it and is not kept.
///
/// When a refetch fails, the last good list may still answer for `staleGraceSeconds` after it went stale, as long
/// as its own `exp` has not passed; its evidence then says how stale it is. Past that, the answer is unknown.
public actor StatusListCache {
    /// Which list: its URI, its kind, the certificate the MSO names for its signer (if any), and for an SD-JWT VC of
    /// an issuer listed for JWT VC Issuer Metadata, that issuer (whose keys sign the list).
    public struct Key: Hashable, Sendable {
        public let uri: String
        public let kind: StatusListTokenVerifier.Kind
        public let certificate: [UInt8]?
        public let metadataIssuer: String?

        public init(uri: String, kind: StatusListTokenVerifier.Kind, certificate: [UInt8]?, metadataIssuer: String? = nil) {
            self.uri = uri
            self.kind = kind
            self.certificate = certificate
            self.metadataIssuer = metadataIssuer
        }
    }

    /// One cached list, for the admin listing.
    public struct Entry: BudgetedEntry {
        public let key: Key
        public let list: VerifiedStatusList
        public let fetchedAt: Date
        public let freshUntil: Date

        var budgetBytes: Int { list.heldBytes }
    }

    /// What happened, for logs and metrics (the URI's host only; never an index or identifier).
    public enum Event: Sendable {
        case fetched(host: String, outcome: String)
        case hit(host: String, ageSeconds: Double)
        case servedStale(host: String, ageSeconds: Double)
        /// What the cache holds now, after a list was stored or evicted.
        case held(lists: Int, bytes: Int)
    }

    public nonisolated let fetcher: any StatusListFetching
    public nonisolated let verifier: StatusListTokenVerifier
    public nonisolated let cacheSeconds: TimeInterval
    public nonisolated let staleGraceSeconds: TimeInterval
    /// Lists shared with other replicas (PostgreSQL), or nil for this process alone.
    public nonisolated let shared: (any SharedStatusLists)?
    /// How long a replica's claim on a fetch lasts, and how long the others wait for it (the fetch deadline and a
    /// margin).
    public nonisolated let claimSeconds: TimeInterval
    /// A failed fetch recorded by another replica is taken as this one's for so long, instead of fetching again.
    public nonisolated let sharedFailureSeconds: TimeInterval
    private let onEvent: @Sendable (Event) -> Void
    private var entries: BudgetedEntries<Key, Entry>
    /// The sum of the kept lists' ``VerifiedStatusList/heldBytes``.
    public var heldBytes: Int { entries.heldBytes }
    private var inFlight: [Key: Task<Result<Obtained, StatusListError>, Never>] = [:]
    /// Most lists kept; the least recently fetched goes first.
    public nonisolated let capacity: Int
    /// Most bytes the kept lists hold together.
    public nonisolated let maximumBytes: Int
    /// The default byte budget: 64 MiB.
    public static let defaultMaximumBytes = 64 << 20

    public init(fetcher: any StatusListFetching, verifier: StatusListTokenVerifier = StatusListTokenVerifier(),
                cacheSeconds: TimeInterval = 300, staleGraceSeconds: TimeInterval = 3600, capacity: Int = 1024,
                maximumBytes: Int = StatusListCache.defaultMaximumBytes,
                shared: (any SharedStatusLists)? = nil, claimSeconds: TimeInterval = 15, sharedFailureSeconds: TimeInterval = 5,
                onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.fetcher = fetcher
        self.verifier = verifier
        self.cacheSeconds = cacheSeconds
        self.staleGraceSeconds = staleGraceSeconds
        self.capacity = capacity
        self.maximumBytes = maximumBytes
        entries = BudgetedEntries(capacity: capacity, maximumBytes: maximumBytes)
        self.shared = shared
        self.claimSeconds = claimSeconds
        self.sharedFailureSeconds = sharedFailureSeconds
        self.onEvent = onEvent
    }

    /// A list verified here, when it was fetched (here or by another replica), and where it came from.
    struct Obtained: Sendable {
        let list: VerifiedStatusList
        let fetchedAt: Date
        let source: String
        /// False when another replica fetched it (this one only read the shared copy).
        let fetchedHere: Bool
    }

    /// The list for `key`, from the cache or fetched once for every caller waiting on it.
    /// `issuerKeys`: the keys of ``Key/metadataIssuer``, which sign its lists.
    public func list(_ key: Key, trust: TrustSnapshot, issuerKeys: SDJWTVCIssuerKeys? = nil,
                     now: Date) async -> (Result<VerifiedStatusList, StatusListError>, source: String) {
        let host = URLComponents(string: key.uri)?.host ?? "(invalid)"
        if let entry = entries[key], now < entry.freshUntil {
            let age = now.timeIntervalSince(entry.fetchedAt)
            onEvent(.hit(host: host, ageSeconds: age))
            return (.success(entry.list), "cached \(Int(age)) s")
        }
        let task: Task<Result<Obtained, StatusListError>, Never>
        if let running = inFlight[key] {
            task = running
        } else {
            task = Task { [self] in await obtain(key, trust: trust, issuerKeys: issuerKeys, now: now) }
            inFlight[key] = task
        }
        let result = await task.value
        if inFlight[key] == task {
            inFlight[key] = nil
            switch result {
            case .success(let obtained):
                if obtained.fetchedHere { onEvent(.fetched(host: host, outcome: "ok")) }
                store(Entry(key: key, list: obtained.list, fetchedAt: obtained.fetchedAt,
                            freshUntil: freshUntil(obtained.list, fetchedAt: obtained.fetchedAt)), now: now)
            case .failure:
                onEvent(.fetched(host: host, outcome: "failed"))
            }
        }
        switch result {
        case .success(let obtained):
            return (.success(obtained.list), obtained.source)
        case .failure(let error):
            if let entry = entries[key], now < entry.freshUntil.addingTimeInterval(staleGraceSeconds),
               entry.list.expiresAt.map({ now < $0 }) ?? true {
                let age = now.timeIntervalSince(entry.fetchedAt)
                onEvent(.servedStale(host: host, ageSeconds: age))
                return (.success(entry.list), "stale \(Int(age)) s, refetch failed: \(error.reason)")
            }
            return (.failure(error), "")
        }
    }

    /// Fetches and verifies the list; with a shared place, takes a fresh copy another replica fetched (verified
    /// here), or claims the fetch and publishes what it got, or waits for the replica that holds the claim.
    nonisolated func obtain(_ key: Key, trust: TrustSnapshot, issuerKeys: SDJWTVCIssuerKeys?,
                            now: Date) async -> Result<Obtained, StatusListError> {
        guard let url = URL(string: key.uri) else { return .failure(StatusListError("the URI does not parse")) }
        let fetcher = self.fetcher, verifier = self.verifier
        func verify(_ bytes: [UInt8]) throws(StatusListError) -> VerifiedStatusList {
            try verifier.verify(bytes, kind: key.kind, uri: key.uri, certificate: key.certificate, trust: trust,
                                issuerKeys: key.metadataIssuer == nil ? nil : issuerKeys, now: now)
        }
        func fetchHere() async -> (Result<Obtained, StatusListError>, bytes: [UInt8]?) {
            do throws(StatusListError) {
                let bytes = try await fetcher.fetch(url, accept: key.kind.accept)
                return (.success(Obtained(list: try verify(bytes), fetchedAt: now, source: "fetched", fetchedHere: true)), bytes)
            } catch {
                return (.failure(error), nil)
            }
        }
        guard let shared else { return await fetchHere().0 }
        let giveUp = ContinuousClock.now + .seconds(claimSeconds)
        var verifiedCopyFrom: Date?
        while true {
            let seen = await shared.latest(uri: key.uri)
            if let copy = seen {
                if let bytes = copy.bytes, let fetchedAt = copy.fetchedAt, fetchedAt != verifiedCopyFrom {
                    verifiedCopyFrom = fetchedAt
                    if let list = try? verify(bytes), now < freshUntil(list, fetchedAt: fetchedAt) {
                        return .success(Obtained(list: list, fetchedAt: fetchedAt,
                                                 source: "shared, fetched \(max(0, Int(now.timeIntervalSince(fetchedAt)))) s ago",
                                                 fetchedHere: false))
                    }
                }
                if let failedAt = copy.failedAt, now.timeIntervalSince(failedAt) < sharedFailureSeconds {
                    return .failure(StatusListError("the last fetch, \(max(0, Int(now.timeIntervalSince(failedAt)))) s ago by a replica, "
                                                    + "failed: \(copy.failure ?? "no reason given")"))
                }
            }
            if await shared.claim(uri: key.uri, seen: seen, now: now, until: now.addingTimeInterval(claimSeconds)) {
                let (result, bytes) = await fetchHere()
                switch result {
                case .success:
                    if let bytes { await shared.publish(uri: key.uri, bytes: bytes, fetchedAt: now) }
                case .failure(let error):
                    await shared.failed(uri: key.uri, reason: error.reason, at: now)
                }
                return result
            }
            guard ContinuousClock.now < giveUp else {
                return .failure(StatusListError("another replica's fetch of the list did not end within \(Int(claimSeconds)) s"))
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Every cached list (for `GET /v1/admin/status-cache`).
    public func snapshot() -> [Entry] {
        entries.all.values.sorted { $0.key.uri < $1.key.uri }
    }

    /// When a list fetched at `fetchedAt` must be fetched again: after `cacheSeconds`, its `ttl` or its `exp`,
    /// whichever comes first.
    nonisolated func freshUntil(_ list: VerifiedStatusList, fetchedAt: Date) -> Date {
        var seconds = cacheSeconds
        if let ttl = list.timeToLive { seconds = min(seconds, ttl) }
        if let exp = list.expiresAt { seconds = min(seconds, exp.timeIntervalSince(fetchedAt)) }
        return fetchedAt.addingTimeInterval(max(0, seconds))
    }

    /// Keeps `entry` within the count and byte budgets: lists past their stale grace go first, then the least
    /// recently fetched, until the new one fits; one larger than the whole budget is not kept.
    private func store(_ entry: Entry, now: Date) {
        entries.store(entry, at: entry.key) { now >= $0.freshUntil.addingTimeInterval(staleGraceSeconds) }
        onEvent(.held(lists: entries.count, bytes: entries.heldBytes))
    }
}
