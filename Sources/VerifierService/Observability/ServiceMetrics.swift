import CoreMetrics
import Foundation
import Prometheus
import StatusList
import Synchronization

/// The service's metrics, kept in its own Prometheus registry and rendered in the text format at `/metrics`.
public final class ServiceMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory

    public init() {
        registry = PrometheusCollectorRegistry()
        factory = PrometheusMetricsFactory(registry: registry)
    }

    /// Methods that get a label of their own; any other becomes `other`.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    /// A counter and a timer of one label set, made once and reused (making them goes through the registry).
    private struct Handles: Sendable {
        let count: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
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
    func httpRequest(route: String, method: String, status: Int, duration: Duration) {
        let methodLabel = Self.knownMethods.contains(method) ? method : "other"
        let handles = handles(.http(route: route, method: methodLabel, status: status)) {
            let statusLabel = (100...599).contains(status) ? String(status) : "other"
            let dimensions = [("route", route), ("method", methodLabel), ("status", statusLabel)]
            return Handles(
                count: Counter(label: "verifierd_http_requests_total", dimensions: dimensions, factory: factory),
                duration: Timer(label: "verifierd_http_request_duration_seconds", dimensions: [("route", route)],
                                factory: factory))
        }
        handles.count.increment()
        handles.duration.recordNanoseconds(duration.nanoseconds)
    }

    func verification(endpoint: String, outcome: String, duration: Duration) {
        let handles = handles(.verification(endpoint: endpoint, outcome: outcome)) {
            Handles(
                count: Counter(label: "verifierd_verifications_total",
                               dimensions: [("endpoint", endpoint), ("outcome", outcome)], factory: factory),
                duration: Timer(label: "verifierd_verification_duration_seconds", dimensions: [("endpoint", endpoint)],
                                factory: factory))
        }
        handles.count.increment()
        handles.duration.recordNanoseconds(duration.nanoseconds)
    }

    /// Status-list cache events: fetches by outcome (`ok`, `failed`), cache hits, stale answers, list age.
    func statusList(_ event: StatusListCache.Event) {
        switch event {
        case .fetched(_, let outcome):
            Counter(label: "verifierd_status_list_fetches_total", dimensions: [("outcome", outcome)], factory: factory).increment()
        case .hit(_, let age):
            Counter(label: "verifierd_status_list_cache_hits_total", factory: factory).increment()
            Gauge(label: "verifierd_status_list_age_seconds", factory: factory).record(age)
        case .servedStale(_, let age):
            Counter(label: "verifierd_status_list_stale_answers_total", factory: factory).increment()
            Gauge(label: "verifierd_status_list_age_seconds", factory: factory).record(age)
        }
    }

    /// Sessions by flow (web, proximity) and event (created, taken, replayed, expired, store_full): fixed sets
    /// chosen by the service.
    func session(flow: String, event: String) {
        Counter(label: "verifierd_sessions_total", dimensions: [("flow", flow), ("event", event)], factory: factory).increment()
    }

    /// Create and verify requests by integrator (a configured name, `anonymous`, or `-` when none was recognised) and
    /// status class (`2xx`, `4xx`, `5xx`): bounded by the configuration, never by what a request says.
    func integratorRequest(integrator: String, status: Int) {
        Counter(label: "verifierd_integrator_requests_total",
                dimensions: [("integrator", integrator), ("status", "\(status / 100)xx")], factory: factory).increment()
    }

    /// Days until the served TLS certificate expires (computed at each scrape, like the trust anchors' expiry).
    func tlsCertificate(notAfter: Date, now: Date) {
        Gauge(label: "verifierd_tls_certificate_expiry_days", factory: factory)
            .record(notAfter.timeIntervalSince(now) / 86_400)
    }

    /// A TLS reload that was refused (the certificate in force stayed).
    func tlsReloadFailed() {
        Counter(label: "verifierd_tls_reload_failures_total", factory: factory).increment()
    }

    func readerToken(outcome: String) {
        Counter(label: "verifierd_reader_tokens_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// The set in force, at each scrape. With no anchor the soonest expiry is 0: nothing can verify.
    func trustAnchors(count: Int, secondsUntilSoonestExpiry: Double?, directoryLoads: Bool) {
        Gauge(label: "verifierd_trust_anchors", factory: factory).record(count)
        Gauge(label: "verifierd_trust_anchor_soonest_expiry_seconds", factory: factory).record(secondsUntilSoonestExpiry ?? 0)
        Gauge(label: "verifierd_trust_directory_loads", factory: factory).record(directoryLoads ? 1 : 0)
    }

    /// A VICAL in force: its age (since its `date`) and the time left until its `nextUpdate` (negative: overdue).
    func vicalInForce(source: String, ageSeconds: Double, nextUpdateMarginSeconds: Double?) {
        Gauge(label: "verifierd_vical_age_seconds", dimensions: [("source", source)], factory: factory).record(ageSeconds)
        if let margin = nextUpdateMarginSeconds {
            Gauge(label: "verifierd_vical_next_update_margin_seconds", dimensions: [("source", source)], factory: factory).record(margin)
        }
    }

    /// A scheduled VICAL refresh, by source (from the configuration) and outcome (a fixed set).
    func vicalRefresh(source: String, outcome: String) {
        Counter(label: "verifierd_vical_refreshes_total", dimensions: [("source", source), ("outcome", outcome)],
                factory: factory).increment()
    }

    /// The Prometheus text exposition.
    func render() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
