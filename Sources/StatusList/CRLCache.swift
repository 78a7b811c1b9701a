import CertificateRevocation
import Foundation
import Synchronization
import X509

/// Fetched CRLs by distribution point: one fetch in flight per URL (every verification waiting on it shares it),
/// each kept until its nextUpdate or `cacheSeconds` after the fetch, whichever comes first, within `maximumBytes`
/// (the DER size; a CRL larger than the whole budget answers the verification that fetched it and is not kept). What
/// depends on the issuer alone (name, key identifier, cRLSign, signature, profile) is judged once per CRL and issuer
/// and remembered, so a check against a cached CRL is a serial-number lookup and two dates.
///
/// When a refetch fails, the last good CRL still answers for `staleGraceSeconds` after its nextUpdate (0 by
/// default: past nextUpdate a CRL says nothing current, RFC 5280 §6.3.3 (a)); its outcome then says so.
public actor CRLCache: CRLSource {
    /// One kept CRL, for the admin listing.
    public struct Entry: BudgetedEntry {
        public let url: String
        public let crl: CertificateRevocationList
        public let fetchedAt: Date
        public let freshUntil: Date
        /// The URL's host, for logs and metrics.
        public let host: String
        /// Issuer → what ``CRLJudge/issuerProblem(_:issuer:)`` said (nil: usable).
        fileprivate(set) var issuerProblems: [Certificate: (CRLProblem, String)?]

        var budgetBytes: Int { crl.byteCount }
    }

    /// What happened, for logs and metrics (the URL's host only).
    public enum Event: Sendable {
        /// A fetch ended: `outcome` is `ok` or a CRLProblem code.
        case fetched(host: String, outcome: String)
        case hit(host: String)
        case servedStale(host: String)
        case held(crls: Int, bytes: Int)
    }

    public nonisolated let fetcher: any CRLFetching
    public nonisolated let cacheSeconds: TimeInterval
    public nonisolated let staleGraceSeconds: TimeInterval
    public nonisolated let maximumBytes: Int
    public nonisolated let capacity: Int
    private nonisolated let onEvent: @Sendable (Event) -> Void
    /// The kept CRLs by URL; every change is mirrored into ``readable`` for the lock-only hit path.
    private var entries: BudgetedEntries<String, Entry> {
        didSet { readable.withLock { [all = entries.all] in $0 = all } }
    }
    /// A copy of ``entries`` read under a lock: a fresh CRL whose issuer was already judged answers without a hop
    /// onto this actor (a cached check costs the serial lookup, not a context switch).
    private nonisolated let readable = Mutex<[String: Entry]>([:])
    /// Distribution points whose last fetch failed, with when to try again: an unreachable or refused point is not
    /// fetched (nor logged) for every verification.
    private var failures: [String: (failure: CRLFetchFailure, retryAfter: Date)] = [:]
    /// How long a failed fetch is remembered.
    public nonisolated let failureRetrySeconds: TimeInterval
    /// The sum of the kept CRLs' DER sizes.
    public var heldBytes: Int { entries.heldBytes }
    private var inFlight: [String: Task<Result<CertificateRevocationList, CRLFetchFailure>, Never>] = [:]
    /// How many times a CRL was read from bytes (fetches that parsed), for tests and metrics.
    public private(set) var parsed = 0

    public init(fetcher: any CRLFetching, cacheSeconds: TimeInterval = 3600, staleGraceSeconds: TimeInterval = 0,
                maximumBytes: Int = 32 << 20, capacity: Int = 1024, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.fetcher = fetcher
        self.cacheSeconds = cacheSeconds
        self.staleGraceSeconds = staleGraceSeconds
        self.maximumBytes = maximumBytes
        self.capacity = capacity
        entries = BudgetedEntries(capacity: capacity, maximumBytes: maximumBytes)
        self.failureRetrySeconds = min(60, cacheSeconds)
        self.onEvent = onEvent
    }

    public nonisolated func crl(at url: String, issuer: Certificate, now: Date) async -> CRLLookup {
        let hit: (CRLLookup, String)? = readable.withLock { entries in
            guard let entry = entries[url], now < entry.freshUntil, let known = entry.issuerProblems[issuer] else { return nil }
            return (.crl(entry.crl, issuerProblem: .some(known), staleGrace: 0), entry.host)
        }
        if let (lookup, host) = hit {
            onEvent(.hit(host: host))
            return lookup
        }
        return await lookup(at: url, issuer: issuer, now: now)
    }

    /// The path through the actor: a CRL not kept, stale, or not yet judged for this issuer.
    private func lookup(at url: String, issuer: Certificate, now: Date) async -> CRLLookup {
        let host = Self.host(of: url)
        if let entry = entries[url], now < entry.freshUntil {
            onEvent(.hit(host: host))
            return .crl(entry.crl, issuerProblem: .some(judged(url, issuer: issuer)), staleGrace: 0)
        }
        if inFlight[url] == nil, let remembered = failures[url] {
            if now < remembered.retryAfter { return answer(.failure(remembered.failure), url: url, issuer: issuer, now: now) }
            failures[url] = nil
        }
        let task: Task<Result<CertificateRevocationList, CRLFetchFailure>, Never>
        if let running = inFlight[url] {
            task = running
        } else {
            let fetcher = self.fetcher
            task = Task {
                switch await fetcher.fetch(url) {
                case .failure(let failure): return .failure(failure)
                case .success(let bytes):
                    do { return .success(try CertificateRevocationList(derEncoded: bytes)) } catch {
                        return .failure(CRLFetchFailure(.malformed, "not a DER CRL: \((error as? CertificateRevocationList.Malformed)?.detail ?? "unreadable")"))
                    }
                }
            }
            inFlight[url] = task
        }
        let result = await task.value
        if inFlight[url] == task {
            inFlight[url] = nil
            switch result {
            case .success(let crl):
                parsed += 1
                onEvent(.fetched(host: host, outcome: "ok"))
                let fresh = min(crl.nextUpdate ?? now, now.addingTimeInterval(cacheSeconds))
                store(Entry(url: url, crl: crl, fetchedAt: now, freshUntil: max(now, fresh), host: host, issuerProblems: [:]), now: now)
            case .failure(let failure):
                onEvent(.fetched(host: host, outcome: failure.problem.rawValue))
                if failures.count >= capacity { failures = failures.filter { now < $0.value.retryAfter } }
                if failures.count < capacity { failures[url] = (failure, now.addingTimeInterval(failureRetrySeconds)) }
            }
        }
        return answer(result, url: url, issuer: issuer, now: now)
    }

    /// What a fetch (or a remembered failure) answers: the CRL, or on failure the last good one within its stale
    /// grace, else the failure.
    private func answer(_ result: Result<CertificateRevocationList, CRLFetchFailure>, url: String, issuer: Certificate,
                        now: Date) -> CRLLookup {
        let host = Self.host(of: url)
        switch result {
        case .success(let crl):
            if entries[url]?.crl.tbsBytes == crl.tbsBytes {
                return .crl(crl, issuerProblem: .some(judged(url, issuer: issuer)), staleGrace: 0)
            }
            return .crl(crl, issuerProblem: nil, staleGrace: 0)
        case .failure(let failure):
            if let entry = entries[url], staleGraceSeconds > 0, let next = entry.crl.nextUpdate, now < next.addingTimeInterval(staleGraceSeconds) {
                onEvent(.servedStale(host: host))
                return .crl(entry.crl, issuerProblem: .some(judged(url, issuer: issuer)), staleGrace: staleGraceSeconds)
            }
            return .failed(failure.problem, failure.detail)
        }
    }

    static func host(of url: String) -> String { URLComponents(string: url)?.host ?? "(invalid)" }

    /// ``CRLJudge/issuerProblem(_:issuer:)`` for the kept CRL at `url`, computed once per issuer.
    private func judged(_ url: String, issuer: Certificate) -> (CRLProblem, String)? {
        guard let entry = entries[url] else { return nil }
        if let known = entry.issuerProblems[issuer] { return known }
        let problem = CRLJudge.issuerProblem(entry.crl, issuer: issuer)
        if entry.issuerProblems.count < 16 {
            entries.update(url) { $0.issuerProblems[issuer] = .some(problem) }
        }
        return problem
    }

    /// Every kept CRL (for the admin console).
    public func snapshot() -> [Entry] {
        entries.all.values.sorted { $0.url < $1.url }
    }

    private func store(_ entry: Entry, now: Date) {
        entries.store(entry, at: entry.url) { now >= ($0.crl.nextUpdate ?? $0.freshUntil).addingTimeInterval(staleGraceSeconds) }
        onEvent(.held(crls: entries.count, bytes: entries.heldBytes))
    }
}
