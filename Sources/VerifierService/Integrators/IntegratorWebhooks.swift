import Crypto
import Encodings
import Foundation
import Logging
import OutboundFetch
import PostgresStore
import ReportEncoding
import StrictJSON
import Webhooks

/// Results pushed to the integrators that configured an endpoint (`webhooks`): the outbox of this store (a
/// directory with the memory store, a table with PostgreSQL), the delivery loop over the one outbound fetcher and
/// its destination policy, and the message a wallet's answer makes.
struct IntegratorWebhooks: Sendable {
    let outbox: any WebhookOutbox
    let dispatcher: WebhookDispatcher
    let metrics: ServiceMetrics
    let logger: Logger
    let now: @Sendable () -> Date

    init(_ section: ServiceConfiguration.Webhooks, store: ServiceStorage, fetcher: OutboundFetcher, outbound: ServiceConfiguration.Outbound,
         metrics: ServiceMetrics, logger: Logger, now: @escaping @Sendable () -> Date) throws(ConfigurationError)
    {
        if let database = store.database {
            outbox = PostgresWebhookOutbox(database: database, maximumMessages: section.maxPending)
        } else {
            guard let directory = section.outboxDirectory, let keyFile = section.outboxKeyFile else {
                throw ConfigurationError(key: "webhooks.outboxDirectory", "is required with the memory store, with webhooks.outboxKeyFile")
            }
            let sealing: WebhookSealingKey
            do throws(WebhookOutboxError) {
                sealing = try WebhookSealingKey(file: keyFile)
            } catch {
                throw ConfigurationError(key: "webhooks.outboxKeyFile", "\(error)")
            }
            do throws(WebhookOutboxError) {
                outbox = try DirectoryWebhookOutbox(directory: directory, sealing: sealing, maximumMessages: section.maxPending)
            } catch {
                throw ConfigurationError(key: "webhooks.outboxDirectory", "\(error)")
            }
        }
        // The receiver's answer body is not read beyond 4 KiB: only its status counts.
        let limits = FetchLimits(totalTimeout: TimeInterval(section.timeoutSeconds),
                                 connectTimeout: TimeInterval(outbound.connectTimeoutSeconds),
                                 idleTimeout: TimeInterval(outbound.idleTimeoutSeconds), maximumBodyBytes: 4096)
        let send: WebhookDispatcher.Send = { url, headers, body in
            do throws(FetchError) {
                return .success(try await fetcher.post(url, headers: headers, body: body, limits: limits).status)
            } catch {
                return .failure(WebhookSendError(error.reason))
            }
        }
        dispatcher = WebhookDispatcher(
            outbox: outbox, endpoints: section.endpoints, retry: section.retry, lease: TimeInterval(section.leaseSeconds),
            pollInterval: Double(section.pollMilliseconds) / 1000, send: send, now: now,
            observe: { event in Self.record(event, metrics: metrics, logger: logger) })
        self.metrics = metrics
        self.logger = logger
        self.now = now
    }

    /// Metrics and a log line per event: the integrator, attempts and reason, never a body.
    static func record(_ event: WebhookDispatcher.Event, metrics: ServiceMetrics, logger: Logger) {
        switch event {
        case .delivered(let integrator, let attempts, let age):
            metrics.webhook(integrator: integrator, outcome: "delivered", latencySeconds: age)
            logger.info("webhook delivered", metadata: ["integrator": "\(integrator)", "attempts": .stringConvertible(attempts)])
        case .failed(let integrator, let attempts, let reason):
            metrics.webhook(integrator: integrator, outcome: "failed")
            logger.notice("webhook attempt failed; it will be retried", metadata: [
                "integrator": "\(integrator)", "attempts": .stringConvertible(attempts), "reason": "\(reason)"])
        case .abandoned(let integrator, let attempts, let reason):
            metrics.webhook(integrator: integrator, outcome: "abandoned")
            logger.error("webhook given up (attempts or age exhausted); the result can still be polled until it expires",
                         metadata: ["integrator": "\(integrator)", "attempts": .stringConvertible(attempts), "reason": "\(reason)"])
        case .outboxUnavailable(let reason):
            logger.error("webhook outbox unavailable", metadata: ["reason": "\(reason)"])
        case .outbox(let statistics):
            metrics.webhookOutbox(pending: statistics.pending, oldestAgeSeconds: statistics.oldestAgeSeconds)
        }
    }

    /// Whether `integrator` has an endpoint.
    func delivers(to integrator: String) -> Bool { dispatcher.delivers(to: integrator) }

    /// Stores the message for a cross-device result, durably, before the wallet is answered; then wakes the loop.
    /// A full or unavailable outbox is counted and logged: the result stays available to polling.
    func enqueue(sessionId: String, integrator: String, verified: Bool, report: [UInt8], responseCode: String?) async {
        let created = now()
        let message = WebhookMessage(id: "msg_" + Base64URL.encode(RandomBytes.make(16)), integrator: integrator,
                                     body: Self.body(sessionId: sessionId, verified: verified, report: report,
                                                     responseCode: responseCode, at: created),
                                     createdAt: created)
        do throws(WebhookOutboxError) {
            try await outbox.enqueue(message)
            metrics.webhook(integrator: integrator, outcome: "enqueued")
            dispatcher.wake()
        } catch {
            let full: Bool
            if case .full = error { full = true } else { full = false }
            metrics.webhook(integrator: integrator, outcome: full ? "outbox_full" : "outbox_unavailable")
            logger.error("webhook not enqueued; the result can only be polled", metadata: [
                "integrator": "\(integrator)", "reason": "\(error)"])
        }
    }

    /// The Standard Webhooks payload: `{"type": "presentation.completed", "timestamp", "data": {"sessionId",
    /// "verified", "report", "responseCodeSha256"?}}`. The report is the one the result route answers, byte for byte;
    /// with a redirect URI, only the SHA-256 of the response code (base64url), so the integrator can release the
    /// result to the browser that brings the code back without the code itself ever leaving verifierd.
    static func body(sessionId: String, verified: Bool, report: [UInt8], responseCode: String?, at time: Date) -> [UInt8] {
        var data: [(String, JSON?)] = [("sessionId", .string(sessionId)), ("verified", .bool(verified))]
        if let responseCode {
            data.append(("responseCodeSha256", .string(Base64URL.encode(Array(SHA256.hash(data: Array(responseCode.utf8)))))))
        }
        var writer = JSONWriter(capacity: report.count + 256)
        writer.beginObject()
        writer.key("type")
        writer.string("presentation.completed")
        writer.key("timestamp")
        writer.string(ReportJSON.timestamp(time))
        writer.key("data")
        writer.beginObject()
        for (name, value) in data {
            guard let value else { continue }
            writer.key(name)
            writer.value(value)
        }
        writer.key("report")
        writer.serialized(report)
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }
}
