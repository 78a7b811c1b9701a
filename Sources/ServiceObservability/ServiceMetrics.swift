import Encodings
import Foundation
import Prometheus
import StatusList
import Synchronization

/// The service's metrics, kept in its own Prometheus registry and rendered in the text format at `/metrics`. Every
/// metric is made from its ``MetricFamily`` (so every family has its `# HELP` line); the process metrics are read
/// at each scrape.
public final class ServiceMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    public let process: ProcessMetrics

    public convenience init() {
        self.init(process: ProcessMetrics())
    }

    public init(process: ProcessMetrics) {
        registry = PrometheusCollectorRegistry()
        self.process = process
    }

    /// The buckets of the duration histograms, from 5 ms to 10 s.
    static let durationBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    private func counter(_ family: MetricFamily, _ labels: [(String, String)] = []) -> Prometheus.Counter {
        registry.makeCounter(descriptor: family.descriptor, labels: labels)
    }

    private func gauge(_ family: MetricFamily, _ labels: [(String, String)] = []) -> Prometheus.Gauge {
        registry.makeGauge(descriptor: family.descriptor, labels: labels)
    }

    private func histogram(_ family: MetricFamily, _ labels: [(String, String)]) -> DurationHistogram {
        registry.makeDurationHistogram(descriptor: family.descriptor, labels: labels, buckets: Self.durationBuckets)
    }

    /// Methods that get a label of their own; any other becomes `other`.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    /// A counter and a histogram of one label set, made once and reused (making them goes through the registry).
    private struct Handles: Sendable {
        let count: Prometheus.Counter
        let duration: DurationHistogram
    }

    /// The label sets with cached handles; every value comes from a fixed set, so the cache is bounded.
    private enum HandleKey: Hashable {
        case http(route: String, method: String, status: Int)
        case verification(endpoint: String, outcome: String)
    }

    private let handleCache = Mutex<[HandleKey: Handles]>([:])

    private func handles(_ key: HandleKey, make: () -> Handles) -> Handles {
        handleCache.withLock { cache in
            if let handles = cache[key] { return handles }
            let handles = make()
            cache[key] = handles
            return handles
        }
    }

    /// Label values come from fixed sets, never from what a client sent: `route` is a registered pattern or
    /// `(unmatched)`, `method` one of ``knownMethods`` or `other`, `status` a three-digit code the server chose.
    public func httpRequest(route: String, method: String, status: Int, duration: Duration) {
        let methodLabel = Self.knownMethods.contains(method) ? method : "other"
        let handles = handles(.http(route: route, method: methodLabel, status: status)) {
            let statusLabel = (100...599).contains(status) ? String(status) : "other"
            let dimensions = [("route", route), ("method", methodLabel), ("status", statusLabel)]
            return Handles(count: counter(.httpRequests, dimensions),
                           duration: histogram(.httpRequestDuration, [("route", route)]))
        }
        handles.count.increment()
        handles.duration.recordNanoseconds(duration.nanoseconds)
    }

    public func verification(endpoint: String, outcome: String, duration: Duration) {
        let handles = handles(.verification(endpoint: endpoint, outcome: outcome)) {
            Handles(count: counter(.verifications, [("endpoint", endpoint), ("outcome", outcome)]),
                    duration: histogram(.verificationDuration, [("endpoint", endpoint)]))
        }
        handles.count.increment()
        handles.duration.recordNanoseconds(duration.nanoseconds)
    }

    /// Status-list cache events: fetches by outcome (`ok`, `failed`), cache hits, stale answers, list age.
    /// The payload bytes the in-memory session store holds.
    public func sessionBytes(_ bytes: Int) {
        gauge(.sessionBytes).set(to: Double(bytes))
    }

    public func statusList(_ event: StatusListCache.Event) {
        switch event {
        case .fetched(_, let outcome):
            counter(.statusListFetches, [("outcome", outcome)]).increment()
        case .hit(_, let age):
            counter(.statusListCacheHits).increment()
            gauge(.statusListAge).set(to: age)
        case .servedStale(_, let age):
            counter(.statusListStaleAnswers).increment()
            gauge(.statusListAge).set(to: age)
        case .held(let lists, let bytes):
            gauge(.statusListCacheLists).set(to: Double(lists))
            gauge(.statusListCacheBytes).set(to: Double(bytes))
        }
    }

    /// What the CRL cache did.
    public func crl(_ event: CRLCache.Event) {
        switch event {
        case .fetched(_, let outcome): counter(.crlFetches, [("outcome", outcome)]).increment()
        case .hit: counter(.crlCacheHits).increment()
        case .servedStale: counter(.crlStaleAnswers).increment()
        case .held(let crls, let bytes):
            gauge(.crlCacheCRLs).set(to: Double(crls))
            gauge(.crlCacheBytes).set(to: Double(bytes))
        }
    }

    /// One-time records by kind (`flow`: the session store's kind, e.g. `web`, `proximity`, `apple-nonce`) and event
    /// (created, taken, replayed, expired, store_full, quota_exceeded, store_unavailable): fixed sets chosen by the
    /// service.
    public func session(flow: String, event: String) {
        counter(.sessions, [("flow", flow), ("event", event)]).increment()
    }

    /// Create and verify requests by integrator (a configured name, `anonymous`, or `-` when none was recognised) and
    /// status class (`2xx`, `4xx`, `5xx`): bounded by the configuration, never by what a request says.
    public func integratorRequest(integrator: String, status: Int) {
        counter(.integratorRequests, [("integrator", integrator), ("status", "\(status / 100)xx")]).increment()
    }

    /// Days until the served TLS certificate expires (computed at each scrape, like the trust anchors' expiry).
    public func tlsCertificate(notAfter: Date, now: Date) {
        gauge(.tlsCertificateExpiry).set(to: notAfter.timeIntervalSince(now) / 86_400)
    }

    /// Seconds until an integrator's registration certificate expires (computed at each scrape); none for one
    /// without an expiry.
    public func registrationCertificate(integrator: String, notAfter: Date, now: Date) {
        gauge(.registrationCertificateExpiry, [("integrator", integrator)]).set(to: notAfter.timeIntervalSince(now))
    }

    /// A TLS reload that was refused (the certificate in force stayed).
    public func tlsReloadFailed() {
        counter(.tlsReloadFailures).increment()
    }

    public func readerToken(outcome: String) {
        counter(.readerTokens, [("outcome", outcome)]).increment()
    }

    /// The set in force, at each scrape. With no anchor the soonest expiry is 0: nothing can verify.
    public func trustAnchors(count: Int, secondsUntilSoonestExpiry: Double?, directoryLoads: Bool) {
        gauge(.trustAnchors).set(to: Double(count))
        gauge(.trustAnchorSoonestExpiry).set(to: secondsUntilSoonestExpiry ?? 0)
        gauge(.trustDirectoryLoads).set(to: directoryLoads ? 1 : 0)
    }

    /// A VICAL in force: its age (since its `date`) and the time left until its `nextUpdate` (negative: overdue).
    public func vicalInForce(source: String, ageSeconds: Double, nextUpdateMarginSeconds: Double?) {
        gauge(.vicalAge, [("source", source)]).set(to: ageSeconds)
        if let margin = nextUpdateMarginSeconds {
            gauge(.vicalNextUpdateMargin, [("source", source)]).set(to: margin)
        }
    }

    /// One Apple envelope opened by the merchant key with this pkRHash (hex). Label values are the configured keys'
    /// hashes only: an envelope naming any other key is never opened.
    public func appleEnvelopeOpened(pkRHash: [UInt8]) {
        counter(.appleEnvelopesOpened, [("pkRHash", pkRHash.hexString)]).increment()
    }

    /// A webhook event, by integrator (a configured endpoint's) and outcome (a fixed set); a delivery also records the
    /// time from the wallet's answer to the receiver's acknowledgement.
    public func webhook(integrator: String, outcome: String, latencySeconds: Double? = nil) {
        counter(.webhookAttempts, [("integrator", integrator), ("outcome", outcome)]).increment()
        if let latencySeconds {
            histogram(.webhookDeliveryLatency, []).recordNanoseconds(Int64(latencySeconds * 1_000_000_000))
        }
    }

    /// The outbox at a scrape.
    public func webhookOutbox(pending: Int, oldestAgeSeconds: Double) {
        gauge(.webhookOutboxPending).set(to: Double(pending))
        gauge(.webhookOutboxOldestAge).set(to: oldestAgeSeconds)
    }

    /// A scheduled VICAL refresh, by source (from the configuration) and outcome (a fixed set).
    public func vicalRefresh(source: String, outcome: String) {
        counter(.vicalRefreshes, [("source", source), ("outcome", outcome)]).increment()
    }

    /// A list of trusted entities in force: its sequence number, age, time left to `NextUpdate` and anchors granted.
    public func loteInForce(source: String, sequenceNumber: UInt64, ageSeconds: Double, nextUpdateMarginSeconds: Double,
                            anchors: Int) {
        gauge(.loteSequence, [("source", source)]).set(to: Double(sequenceNumber))
        gauge(.loteAge, [("source", source)]).set(to: ageSeconds)
        gauge(.loteNextUpdateMargin, [("source", source)]).set(to: nextUpdateMarginSeconds)
        gauge(.loteAnchors, [("source", source)]).set(to: Double(anchors))
    }

    /// A scheduled refresh of a list of trusted entities (`source` is the configured name).
    public func loteRefresh(source: String, outcome: String) {
        counter(.loteRefreshes, [("source", source), ("outcome", outcome)]).increment()
    }

    /// The Prometheus text exposition (format 0.0.4): the registry's families, then the process metrics read now.
    public func render() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        process.emit(into: &buffer)
        return buffer
    }
}

extension Duration {
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
