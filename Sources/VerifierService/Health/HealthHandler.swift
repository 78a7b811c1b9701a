import Foundation
import HTTPServer
import SessionStore
import HTTPTypes
import ServerTLS
import StrictJSON
import TrustLists
import TrustManagement
import TrustStore

/// `/healthz`, `/readyz` and `/metrics`, on the main listener and on the plain health port.
struct HealthHandler: Sendable {
    let trust: LiveTrustSet
    let store: ServiceStorage
    /// Whether the Apple flow is configured, and how many merchant keys it loaded.
    let appleConfigured: Bool
    let merchantKeyCount: Int
    let scheduledSources: [String]
    let refresher: VICALRefresher
    /// The lists of trusted entities, their importer and refresher.
    let lotes: LoTEAdminHandler
    let tlsIdentity: TLSServerIdentity?
    /// The registration certificates whose expiry is shown at each scrape.
    let registrations: RegistrationCertificates?
    /// The service's access certificate against the WRPAC providers lists in force, when a `wrpac` list is configured.
    let accessCertificate: AccessCertificateListing?
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date

    static func live(_: HTTPServerRequest, _: Void) -> HTTPServerResponse {
        .json(JSON.object([("status", .string("ok"))]))
    }

    /// Reasons the service is not ready; empty when ready.
    func notReadyReasons() -> [String] {
        var reasons: [String] = []
        if trust.snapshot.anchors.isEmpty { reasons.append("no trusted IACA is configured") }
        if appleConfigured && merchantKeyCount == 0 { reasons.append("no merchant encryption key is loaded") }
        return reasons
    }

    /// Problems that do not stop verification (the set in force stays) but need an operator.
    func degradedReasons() -> [String] {
        var reasons: [String] = []
        if let database = store.database, let reason = database.unavailableReason {
            if database.circuitOpen {
                reasons.append("the database is unreachable (sessions and nonces fail at once until a probe reaches it; "
                               + "the trust set in force stays): \(reason)")
            } else {
                reasons.append("the database is unavailable (sessions and nonces fail; the trust set in force stays): \(reason)")
            }
        }
        if let problem = trust.directoryProblem {
            reasons.append("the trust directory does not load (the set in force stays): \(problem)")
        }
        let time = now()
        for source in scheduledSources {
            if let outcome = refresher.lastOutcome(source), outcome.failed {
                reasons.append("VICAL \(source): last refresh \(outcome.outcome): \(outcome.detail ?? "")")
            }
        }
        // Every VICAL in force, imported by hand or on a schedule.
        for (source, list) in trust.snapshot.lists.sorted(by: { $0.key < $1.key })
            where !source.hasPrefix(TrustAnchorMetadata.loteSourcePrefix) {
            if let next = list.nextUpdate, next < time {
                reasons.append("VICAL \(source) is past its nextUpdate")
            }
        }
        for source in lotes.sources {
            if let outcome = lotes.refresher.lastOutcome(source.trustSource), outcome.failed {
                reasons.append("LoTE \(source.name): last refresh \(outcome.outcome): \(outcome.detail ?? "")")
            }
            if let next = lotes.importer.inForce(source)?.nextUpdate, next < time {
                reasons.append("LoTE \(source.name) is past its NextUpdate" + (source.onStale == .withdraw
                    ? " (its anchors are withdrawn \(Int(source.staleGraceSeconds)) s after it)" : ""))
            } else if lotes.importer.inForce(source) == nil {
                reasons.append("LoTE \(source.name): no list in force (it grants nothing)")
            }
        }
        reasons += registrations?.problems(now: time) ?? []
        if let problem = accessCertificate?.problem(at: time) { reasons.append(problem) }
        return reasons
    }

    func readiness(_: HTTPServerRequest, _: Void) throws(ServiceProblem) -> HTTPServerResponse {
        let reasons = notReadyReasons()
        guard reasons.isEmpty else {
            throw ServiceProblem(.serviceUnavailable, "NOT_READY", reasons.joined(separator: "; "))
        }
        let degraded = degradedReasons()
        return .json(JSON.object([
            ("status", .string(degraded.isEmpty ? "ready" : "degraded")),
            ("trustAnchors", .int(Int64(trust.snapshot.anchors.count))),
            ("trustVersion", .int(Int64(trust.snapshot.version))),
            ("merchantKeys", .int(Int64(merchantKeyCount))),
            ("store", .object([
                ("kind", .string(store.database == nil ? "memory" : "postgres")),
                ("status", .string(store.database?.unavailableReason == nil ? "ok" : "unavailable")),
                ("circuit", store.database.map { .string($0.circuitOpen ? "open" : "closed") }),
            ])),
            ("degraded", degraded.isEmpty ? nil : .array(degraded.map { .string($0) })),
        ]))
    }

    func metricsPage(_: HTTPServerRequest, _: Void) -> HTTPServerResponse {
        let snapshot = trust.snapshot
        let time = now()
        let soonest = snapshot.anchors.map(\.notAfter).min().map { $0.timeIntervalSince(time) }
        metrics.trustAnchors(count: snapshot.anchors.count, secondsUntilSoonestExpiry: soonest,
                             directoryLoads: trust.directoryProblem == nil)
        for source in lotes.sources {
            if let list = lotes.importer.inForce(source) {
                metrics.loteInForce(source: source.name, sequenceNumber: list.issueID ?? 0, ageSeconds: time.timeIntervalSince(list.date),
                                    nextUpdateMarginSeconds: list.nextUpdate.map { $0.timeIntervalSince(time) } ?? 0,
                                    anchors: list.anchorCount)
            }
        }
        for (source, list) in snapshot.lists where !source.hasPrefix(TrustAnchorMetadata.loteSourcePrefix) {
            metrics.vicalInForce(source: source, ageSeconds: time.timeIntervalSince(list.date),
                                 nextUpdateMarginSeconds: list.nextUpdate.map { $0.timeIntervalSince(time) })
        }
        if let context = tlsIdentity?.context { metrics.tlsCertificate(notAfter: context.certificateNotAfter, now: time) }
        for (integrator, certificate) in registrations?.all ?? [:] {
            if let expires = certificate.expiresAt { metrics.registrationCertificate(integrator: integrator, notAfter: expires, now: time) }
        }
        if let memory = store.sessions as? InMemorySessionStore, let bytes = memory.statistics(now: time).liveBytes {
            metrics.sessionBytes(bytes)
        }
        var fields = HTTPFields()
        fields[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return HTTPServerResponse(status: .ok, headerFields: fields, body: metrics.render())
    }

    /// The health routes, added to a table (the main listener's and the health port's alike).
    static func add(_ handler: HealthHandler, to routes: inout RouteTable) {
        routes.add(.open, .get, "/healthz", now: live)
        routes.add(.open, .get, "/readyz", now: handler.readiness(_:_:))
        routes.add(.open, .get, "/metrics", now: handler.metricsPage(_:_:))
    }
}
