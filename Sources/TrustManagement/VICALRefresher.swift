import Foundation
import Logging
import Synchronization
import TrustLists
import TrustStore

/// Keeps the configured trust lists current (VICALs, lists of trusted entities: the ``TrustListImporter`` says
/// which): a conditional fetch per source on its schedule, verification, and an import only when the list changed.
/// A failed or invalid download keeps the list in force and is counted.
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

        public init(at: Date, outcome: String, detail: String?) {
            self.at = at
            self.outcome = outcome
            self.detail = detail
        }
    }

    struct Validators {
        var etag: String?
        var lastModified: String?
    }

    public let sources: [VICALSource]
    private let fetcher: VICALFetcher
    /// The first retry after a failure (doubling per further failure, capped at the source's interval).
    let retrySeconds: TimeInterval
    private let importer: any TrustListImporter
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

    /// Refreshes VICALs into `trust`, each verified under its source's signer anchor.
    public convenience init(sources: [VICALSource], fetcher: VICALFetcher, retrySeconds: TimeInterval = 60, trust: LiveTrustSet,
                            signers: [String: VICALSignerAnchor], verifier: VICALVerifier, now: @escaping @Sendable () -> Date,
                            logger: Logger, ledger: (any VICALRefreshLedger)? = nil,
                            onOutcome: @escaping @Sendable (_ source: String, _ outcome: String) -> Void = { _, _ in })
    {
        self.init(sources: sources, fetcher: fetcher, retrySeconds: retrySeconds,
                  importer: VICALImporter(trust: trust, signers: signers, verifier: verifier), now: now, logger: logger,
                  ledger: ledger, onOutcome: onOutcome)
    }

    /// Refreshes the lists of `sources` through `importer`.
    public init(sources: [VICALSource], fetcher: VICALFetcher, retrySeconds: TimeInterval = 60, importer: any TrustListImporter,
                now: @escaping @Sendable () -> Date, logger: Logger, ledger: (any VICALRefreshLedger)? = nil,
                onOutcome: @escaping @Sendable (_ source: String, _ outcome: String) -> Void = { _, _ in })
    {
        self.ledger = ledger
        self.sources = sources
        self.fetcher = fetcher
        self.retrySeconds = retrySeconds
        self.importer = importer
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
                outcome = await importer.importFetched(body, source: source.name, at: now())
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
            logger.error("\(importer.listKind) refresh failed; the list in force stays", metadata: metadata)
        } else {
            logger.info("\(importer.listKind) refreshed", metadata: metadata)
        }
        await enforceFreshness(source)
        return outcome
    }

    /// Applies the importer's rule for a list in force that went stale, and logs what it did.
    func enforceFreshness(_ source: VICALSource) async {
        if let note = await importer.enforceFreshness(source: source.name, at: now()) {
            logger.error("\(importer.listKind) in force is stale", metadata: ["source": "\(source.name)", "detail": "\(note)"])
        }
    }

    /// How long to wait before the next pass: `delay`, or less when a list in force goes stale sooner.
    func wait(_ delay: TimeInterval, source: VICALSource) -> TimeInterval {
        guard let deadline = importer.deadline(source: source.name) else { return delay }
        return max(1, min(delay, deadline.timeIntervalSince(now()) + 1))
    }

    /// With the ledger: adopts the last shared refresh of `source` (outcome and validators), and when it is due
    /// (by ``RefreshSchedule``) and this replica wins the claim, refreshes and records the result. Returns this
    /// replica's outcome (nil when it did not refresh) and when the source is next due.
    public func refreshIfDue(_ source: VICALSource) async -> (outcome: Outcome?, due: Date) {
        let schedule = RefreshSchedule(intervalSeconds: source.refreshHours * 3600, retrySeconds: retrySeconds)
        guard let ledger, importer.sharesRefresh(source: source.name) else {
            let outcome = await refresh(source)
            return (outcome, now().addingTimeInterval(schedule.delay(consecutiveFailures: outcome.failed ? 1 : 0)))
        }
        let seen = await ledger.record(source: source.name)
        if let seen {
            outcomes.withLock { $0[source.name] = Outcome(at: seen.at, outcome: seen.outcome, detail: seen.detail) }
            // The validators name the list in force: only while one is (an operator may have removed it by hand).
            if importer.isInForce(source: source.name) {
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
            await enforceFreshness(source)
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
                    if self.ledger != nil && self.importer.sharesRefresh(source: source.name) {
                        while !Task.isCancelled {
                            let (_, due) = await self.refreshIfDue(source)
                            let wait = self.wait(min(60, max(1, due.timeIntervalSince(self.now()))), source: source)
                            try? await Task.sleep(for: .seconds(wait * (1 + 0.1 * Double.random(in: 0..<1))))
                        }
                        return
                    }
                    let schedule = RefreshSchedule(intervalSeconds: source.refreshHours * 3600, retrySeconds: self.retrySeconds)
                    var failures = 0
                    while !Task.isCancelled {
                        failures = await self.refresh(source).failed ? failures + 1 : 0
                        let delay = self.wait(schedule.delay(consecutiveFailures: failures, jitter: Double.random(in: 0..<1)), source: source)
                        if failures > 0 {
                            self.logger.info("\(self.importer.listKind) refresh retry scheduled", metadata: [
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
