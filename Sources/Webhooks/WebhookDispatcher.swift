import Foundation
import Synchronization

/// Delivers what waits in a ``WebhookOutbox``: claims due messages (with a lease), POSTs each signed to its
/// integrator's endpoint, removes it on a 2xx answer, reschedules it by the ``WebhookRetryPolicy`` otherwise, and
/// gives it up at the policy's end. Runs on one task per process; a new message wakes it at once
/// (``wake()``), otherwise it looks every `pollInterval` (for retries and for messages another replica left behind).
public final class WebhookDispatcher: Sendable {
    /// One attempt's transport: POST `body` with `headers` to `url`; the answer's status, or an error text.
    public typealias Send = @Sendable (_ url: String, _ headers: [String], _ body: [UInt8]) async -> Result<Int, WebhookSendError>

    /// What happened to one attempt, for metrics and logs (never a body).
    public enum Event: Sendable {
        case delivered(integrator: String, attempts: Int, ageSeconds: Double)
        case failed(integrator: String, attempts: Int, reason: String)
        case abandoned(integrator: String, attempts: Int, reason: String)
        case outboxUnavailable(String)
        /// The outbox after a pass.
        case outbox(WebhookOutboxStatistics)
    }

    let outbox: any WebhookOutbox
    let endpoints: [String: WebhookEndpoint]
    let retry: WebhookRetryPolicy
    let lease: TimeInterval
    let pollInterval: TimeInterval
    let send: Send
    let now: @Sendable () -> Date
    let observe: @Sendable (Event) -> Void
    private let wakeUp: Mutex<CheckedContinuation<Void, Never>?> = Mutex(nil)
    private let pendingWake = Atomic<Bool>(false)

    public init(outbox: any WebhookOutbox, endpoints: [WebhookEndpoint], retry: WebhookRetryPolicy, lease: TimeInterval = 30,
                pollInterval: TimeInterval = 1, send: @escaping Send, now: @escaping @Sendable () -> Date = { Date() },
                observe: @escaping @Sendable (Event) -> Void = { _ in })
    {
        self.outbox = outbox
        self.endpoints = Dictionary(endpoints.map { ($0.integrator, $0) }, uniquingKeysWith: { first, _ in first })
        self.retry = retry
        self.lease = max(1, lease)
        self.pollInterval = max(0.05, pollInterval)
        self.send = send
        self.now = now
        self.observe = observe
    }

    /// Whether `integrator` has an endpoint.
    public func delivers(to integrator: String) -> Bool { endpoints[integrator] != nil }

    /// Asks the loop to look at the outbox now (a message was just enqueued).
    public func wake() {
        pendingWake.store(true, ordering: .sequentiallyConsistent)
        wakeUp.withLock { $0.take() }?.resume()
    }

    /// The loop, until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            await deliverDue()
            observe(.outbox(await outbox.statistics(now: now())))
            await sleep()
        }
    }

    /// One pass: every message due now, delivered or rescheduled.
    public func deliverDue() async {
        while !Task.isCancelled {
            let batch: [WebhookMessage]
            do throws(WebhookOutboxError) {
                batch = try await outbox.claim(now: now(), lease: lease, limit: 16)
            } catch {
                observe(.outboxUnavailable("\(error)"))
                return
            }
            if batch.isEmpty { return }
            await withTaskGroup(of: Void.self) { group in
                for message in batch {
                    group.addTask { await self.attempt(message) }
                }
            }
        }
    }

    func attempt(_ message: WebhookMessage) async {
        var message = message
        message.attempts += 1
        let outcome: Result<Int, WebhookSendError>
        if let endpoint = endpoints[message.integrator] {
            let timestamp = Int64(now().timeIntervalSince1970)
            let headers = StandardWebhookSignature.headers(id: message.id, timestamp: timestamp, body: message.body,
                                                            secret: endpoint.secret)
            outcome = await send(endpoint.url, headers, message.body)
        } else {
            outcome = .failure(WebhookSendError("no endpoint is configured for this integrator"))
        }
        do throws(WebhookOutboxError) {
            switch outcome {
            case .success(let status) where (200..<300).contains(status):
                try await outbox.delivered(id: message.id)
                observe(.delivered(integrator: message.integrator, attempts: message.attempts,
                                   ageSeconds: max(0, now().timeIntervalSince(message.createdAt))))
                return
            default:
                break
            }
            let reason: String
            switch outcome {
            case .success(let status): reason = "HTTP \(status)"
            case .failure(let error): reason = error.reason
            }
            let at = now()
            if retry.givesUp(attempts: message.attempts, createdAt: message.createdAt, now: at) {
                try await outbox.abandon(id: message.id)
                observe(.abandoned(integrator: message.integrator, attempts: message.attempts, reason: reason))
            } else {
                message.nextAttemptAt = at.addingTimeInterval(retry.delay(afterAttempt: message.attempts, jitter: Double.random(in: 0...1)))
                try await outbox.reschedule(message)
                observe(.failed(integrator: message.integrator, attempts: message.attempts, reason: reason))
            }
        } catch {
            // The lease runs out and the message is claimed again: at least once.
            observe(.outboxUnavailable("\(error)"))
        }
    }

    private func sleep() async {
        if pendingWake.exchange(false, ordering: .sequentiallyConsistent) { return }
        let interval = pollInterval
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [weak self] in
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    guard let self else { continuation.resume(); return }
                    let resumeNow = self.wakeUp.withLock { slot -> Bool in
                        if self.pendingWake.load(ordering: .sequentiallyConsistent) { return true }
                        slot = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
            group.addTask { try? await Task.sleep(for: .milliseconds(Int64(interval * 1000))) }
            await group.next()
            // Whichever came first: the other is ended (a waiting continuation resumed, the sleep cancelled).
            self.wakeUp.withLock { $0.take() }?.resume()
            group.cancelAll()
        }
        pendingWake.store(false, ordering: .sequentiallyConsistent)
    }
}

/// Why an attempt got no answer (refused by the destination policy, timed out, connection failed).
public struct WebhookSendError: Error, Sendable {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }
}
