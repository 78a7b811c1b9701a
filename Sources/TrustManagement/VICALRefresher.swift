import Foundation
import Logging
import Synchronization
import TrustLists
import TrustStore

/// Keeps the configured VICAL sources current: a conditional fetch per source on its schedule, verification, and
/// an import only when the list changed. A failed or invalid download keeps the list in force and is counted.
/// With a ``VICALRefreshLedger`` (replicas on one database), one replica refreshes a source when it is due and the
/// others adopt its outcome, validators and (through the shared trust set) its import.
public final class VICALRefresher: Sendable {
    /// What the last refresh of a source did.
    public struct Outcome: Sendable {
        public let at: Date
        /// `imported`, `not-modified`, `unchanged`, `fetch-failed`, `refused`.
        public let outcome: String
        public let detail: String?
        public var failed: Bool { outcome == "fetch-failed" || outcome == "refused" }
    }

    struct Validators {
        var etag: String?
        var lastModified: String?
    }

    public let sources: [VICALSource]
    private let fetcher: VICALFetcher
    /// The first retry after a failure (doubling per further failure, capped at the source's interval).
    let retrySeconds: TimeInterval
    private let trust: LiveTrustSet
    /// The certificate each source's signer must chain to, by source name.
    private let signers: [String: VICALSignerAnchor]
    private let verifier: VICALVerifier
    private let now: @Sendable () -> Date
    private let logger: Logger
    /// Told each outcome (for metrics).
    private let onOutcome: @Sendable (_ source: String, _ outcome: String) -> Void
    private let validators = Mutex<[String: Validators]>([:])
    private let outcomes = Mutex<[String: Outcome]>([:])
    /// Shared with the other replicas, or nil for this process alone.
    let ledger: (any VICALRefreshLedger)?
    /// How long a replica's claim on a refresh lasts (longer than a fetch may take).
    static let claimSeconds: TimeInterval = 120

    public init(sources: [VICALSource], fetcher: VICALFetcher, retrySeconds: TimeInterval = 60, trust: LiveTrustSet,
                signers: [String: VICALSignerAnchor], verifier: VICALVerifier, now: @escaping @Sendable () -> Date,
                logger: Logger, ledger: (any VICALRefreshLedger)? = nil,
                onOutcome: @escaping @Sendable (_ source: String, _ outcome: String) -> Void = { _, _ in })
    {
        self.ledger = ledger
        self.sources = sources
        self.fetcher = fetcher
        self.retrySeconds = retrySeconds
        self.trust = trust
        self.signers = signers
        self.verifier = verifier
        self.now = now
        self.logger = logger
        self.onOutcome = onOutcome
    }

    /// The last refresh of `source`, if any.
    public func lastOutcome(_ source: String) -> Outcome? { outcomes.withLock { $0[source] } }

    /// Fetches `source` once and imports it when it changed. Never throws: the outcome is recorded, logged and
    /// counted.
    @discardableResult
    public func refresh(_ source: VICALSource) async -> Outcome {
        let known = validators.withLock { $0[source.name] } ?? Validators()
        let outcome: Outcome
        do throws(VICALFetcher.Failure) {
            switch try await fetcher.fetch(source.url, etag: known.etag, lastModified: known.lastModified) {
            case .notModified:
                outcome = Outcome(at: now(), outcome: "not-modified", detail: nil)
            case .fetched(let body, let etag, let lastModified):
                outcome = await importFetched(body, source: source)
                if !outcome.failed {
                    validators.withLock { $0[source.name] = Validators(etag: etag, lastModified: lastModified) }
                }
            }
        } catch {
            outcome = Outcome(at: now(), outcome: "fetch-failed", detail: error.description)
        }
        outcomes.withLock { $0[source.name] = outcome }
        onOutcome(source.name, outcome.outcome)
        var metadata: Logger.Metadata = ["source": "\(source.name)", "outcome": "\(outcome.outcome)"]
        if let detail = outcome.detail { metadata["detail"] = "\(detail)" }
        if outcome.failed {
            logger.error("VICAL refresh failed; the list in force stays", metadata: metadata)
        } else {
            logger.info("VICAL refreshed", metadata: metadata)
        }
        return outcome
    }

    private func importFetched(_ body: [UInt8], source: VICALSource) async -> Outcome {
        let time = now()
        guard let anchor = signers[source.name] else {
            return Outcome(at: time, outcome: "refused", detail: "no signer anchor is configured")
        }
        let verified: VerifiedVICAL
        do {
            verified = try verifier.verify(body, source: source.name, signerAnchor: anchor, at: time)
        } catch {
            return Outcome(at: time, outcome: "refused", detail: error.description)
        }
        if trust.snapshot.lists[source.name]?.sha256 == verified.sha256 {
            return Outcome(at: time, outcome: "unchanged", detail: nil)
        }
        do {
            let result = try await trust.importVICAL(verified, dryRun: false, now: time, actor: "vical-refresh:\(source.name)")
            return Outcome(at: time, outcome: "imported",
                           detail: "\(result.diff.added.count) added, \(result.diff.removed.count) removed")
        } catch {
            return Outcome(at: time, outcome: "refused", detail: error.description)
        }
    }

    /// With the ledger: adopts the last shared refresh of `source` (outcome and validators), and when it is due
    /// (by ``RefreshSchedule``) and this replica wins the claim, refreshes and records the result. Returns this
    /// replica's outcome (nil when it did not refresh) and when the source is next due.
    public func refreshIfDue(_ source: VICALSource) async -> (outcome: Outcome?, due: Date) {
        let schedule = RefreshSchedule(intervalSeconds: source.refreshHours * 3600, retrySeconds: retrySeconds)
        guard let ledger else {
            let outcome = await refresh(source)
            return (outcome, now().addingTimeInterval(schedule.delay(consecutiveFailures: outcome.failed ? 1 : 0)))
        }
        let seen = await ledger.record(source: source.name)
        if let seen {
            outcomes.withLock { $0[source.name] = Outcome(at: seen.at, outcome: seen.outcome, detail: seen.detail) }
            // The validators name the list in force: only while one is (an operator may have removed it by hand).
            if trust.snapshot.lists[source.name] != nil {
                validators.withLock { $0[source.name] = Validators(etag: seen.etag, lastModified: seen.lastModified) }
            }
        }
        // Without a shared record (none yet, or the database is away and every claim succeeds), this replica's own
        // last refresh keeps the schedule: it does not refetch on every pass.
        let local = outcomes.withLock { $0[source.name] }
        let due = seen.map { $0.at.addingTimeInterval(schedule.delay(consecutiveFailures: $0.consecutiveFailures)) }
            ?? local.map { $0.at.addingTimeInterval(schedule.delay(consecutiveFailures: $0.failed ? 1 : 0)) }
            ?? .distantPast
        let time = now()
        guard time >= due,
              await ledger.claim(source: source.name, seen: seen, now: time, until: time.addingTimeInterval(Self.claimSeconds))
        else {
            return (nil, due)
        }
        let outcome = await refresh(source)
        let known = validators.withLock { $0[source.name] }
        let failures = outcome.failed ? (seen?.consecutiveFailures ?? 0) + 1 : 0
        await ledger.finish(source: source.name, record: VICALRefreshRecord(
            at: outcome.at, outcome: outcome.outcome, detail: outcome.detail, etag: known?.etag,
            lastModified: known?.lastModified, consecutiveFailures: failures))
        return (outcome, outcome.at.addingTimeInterval(schedule.delay(consecutiveFailures: failures)))
    }

    /// Refreshes every source now and then on its schedule, until the task is cancelled. After a failure the next
    /// try comes sooner (``RefreshSchedule``), not a whole interval later. With the ledger, each replica looks at
    /// the shared record when the source is due (at least once a minute) and one of them refreshes it.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            for source in sources {
                group.addTask {
                    if self.ledger != nil {
                        while !Task.isCancelled {
                            let (_, due) = await self.refreshIfDue(source)
                            let wait = min(60, max(1, due.timeIntervalSince(self.now())))
                            try? await Task.sleep(for: .seconds(wait * (1 + 0.1 * Double.random(in: 0..<1))))
                        }
                        return
                    }
                    let schedule = RefreshSchedule(intervalSeconds: source.refreshHours * 3600, retrySeconds: self.retrySeconds)
                    var failures = 0
                    while !Task.isCancelled {
                        failures = await self.refresh(source).failed ? failures + 1 : 0
                        let delay = schedule.delay(consecutiveFailures: failures, jitter: Double.random(in: 0..<1))
                        if failures > 0 {
                            self.logger.info("VICAL refresh retry scheduled", metadata: [
                                "source": "\(source.name)", "failures": .stringConvertible(failures),
                                "retrySeconds": .stringConvertible(Int(delay))])
                        }
                        try? await Task.sleep(for: .seconds(delay))
                    }
                }
            }
        }
    }
}
