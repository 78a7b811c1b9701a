import Foundation
import MDoc
import TrustStore

/// Fetched and verified status lists, by URI: never more than one fetch in flight per list (concurrent
/// verifications await the same fetch), each kept until min(ttl, exp, `cacheSeconds`).
///
/// When a refetch fails, the last good list may still answer for `staleGraceSeconds` after it went stale, as long
/// as its own `exp` has not passed; its evidence then says how stale it is. Past that, the answer is unknown.
public actor StatusListCache {
    /// Which list: its URI, its kind, and the certificate the MSO names for its signer (if any).
    public struct Key: Hashable, Sendable {
        public let uri: String
        public let kind: StatusListTokenVerifier.Kind
        public let certificate: [UInt8]?
    }

    /// One cached list, for the admin listing.
    public struct Entry: Sendable {
        public let key: Key
        public let list: VerifiedStatusList
        public let fetchedAt: Date
        public let freshUntil: Date
    }

    /// What happened, for logs and metrics (the URI's host only; never an index or identifier).
    public enum Event: Sendable {
        case fetched(host: String, outcome: String)
        case hit(host: String, ageSeconds: Double)
        case servedStale(host: String, ageSeconds: Double)
    }

    public nonisolated let fetcher: any StatusListFetching
    public nonisolated let verifier: StatusListTokenVerifier
    public nonisolated let cacheSeconds: TimeInterval
    public nonisolated let staleGraceSeconds: TimeInterval
    private let onEvent: @Sendable (Event) -> Void
    private var entries: [Key: Entry] = [:]
    private var inFlight: [Key: Task<Result<VerifiedStatusList, StatusListError>, Never>] = [:]
    /// Most lists kept; the least recently fetched goes first.
    public nonisolated let capacity: Int

    public init(fetcher: any StatusListFetching, verifier: StatusListTokenVerifier = StatusListTokenVerifier(),
                cacheSeconds: TimeInterval = 300, staleGraceSeconds: TimeInterval = 3600, capacity: Int = 1024,
                onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.fetcher = fetcher
        self.verifier = verifier
        self.cacheSeconds = cacheSeconds
        self.staleGraceSeconds = staleGraceSeconds
        self.capacity = capacity
        self.onEvent = onEvent
    }

    /// The list for `key`, from the cache or fetched once for every caller waiting on it.
    public func list(_ key: Key, trust: TrustSnapshot, now: Date) async -> (Result<VerifiedStatusList, StatusListError>, source: String) {
        let host = URLComponents(string: key.uri)?.host ?? "(invalid)"
        if let entry = entries[key], now < entry.freshUntil {
            let age = now.timeIntervalSince(entry.fetchedAt)
            onEvent(.hit(host: host, ageSeconds: age))
            return (.success(entry.list), "cached \(Int(age)) s")
        }
        let task: Task<Result<VerifiedStatusList, StatusListError>, Never>
        if let running = inFlight[key] {
            task = running
        } else {
            let fetcher = self.fetcher, verifier = self.verifier
            task = Task {
                guard let url = URL(string: key.uri) else { return .failure(StatusListError("the URI does not parse")) }
                do throws(StatusListError) {
                    let bytes = try await fetcher.fetch(url)
                    return .success(try verifier.verify(bytes, kind: key.kind, uri: key.uri, certificate: key.certificate,
                                                        trust: trust, now: now))
                } catch {
                    return .failure(error)
                }
            }
            inFlight[key] = task
        }
        let result = await task.value
        if inFlight[key] == task {
            inFlight[key] = nil
            switch result {
            case .success(let list):
                onEvent(.fetched(host: host, outcome: "ok"))
                store(Entry(key: key, list: list, fetchedAt: now, freshUntil: freshUntil(list, now: now)))
            case .failure:
                onEvent(.fetched(host: host, outcome: "failed"))
            }
        }
        switch result {
        case .success(let list):
            return (.success(list), "fetched")
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

    /// Every cached list (for `GET /v1/admin/status-cache`).
    public func snapshot() -> [Entry] {
        entries.values.sorted { $0.key.uri < $1.key.uri }
    }

    func freshUntil(_ list: VerifiedStatusList, now: Date) -> Date {
        var seconds = cacheSeconds
        if let ttl = list.timeToLive { seconds = min(seconds, ttl) }
        if let exp = list.expiresAt { seconds = min(seconds, exp.timeIntervalSince(now)) }
        return now.addingTimeInterval(max(0, seconds))
    }

    private func store(_ entry: Entry) {
        if entries[entry.key] == nil, entries.count >= capacity,
           let oldest = entries.values.min(by: { $0.fetchedAt < $1.fetchedAt }) {
            entries[oldest.key] = nil
        }
        entries[entry.key] = entry
    }
}
