import Foundation
import Synchronization
import Testing
@testable import Webhooks

/// The Standard Webhooks signature, the retry policy, the directory outbox and the delivery loop, without a network:
/// the loop's transport is a closure here (the real one, over the outbound fetcher, is tested end to end by
/// `WebhookDeliveryTests` against PyPI's `standardwebhooks`).
struct WebhooksTests {
    /// The example of the Standard Webhooks specification's libraries (also what PyPI `standardwebhooks` signs).
    @Test func signsAsTheSpecificationsExample() throws {
        let secret = try #require(WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        #expect(StandardWebhookSignature.sign(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
                                              body: Array(#"{"test": 2432232314}"#.utf8), secret: secret)
                == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        // Another body, id or time is another signature.
        #expect(StandardWebhookSignature.sign(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_331,
                                              body: Array(#"{"test": 2432232314}"#.utf8), secret: secret)
                != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(String(describing: secret) == "WebhookSecret(24 bytes)")
    }

    @Test func readsOnlyWellFormedSecrets() {
        #expect(WebhookSecret("  whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n") != nil)
        for text in ["MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_", "whsec_not base64!", "whsec_" + Data(count: 16).base64EncodedString(),
                     "whsec_" + Data(count: 65).base64EncodedString()] {
            #expect(WebhookSecret(text) == nil, "\(text)")
        }
    }

    @Test func waitsDoubleUpToTheMaximumAndGiveUp() {
        let policy = WebhookRetryPolicy(baseDelay: 1, maximumDelay: 10, maximumAttempts: 5, maximumAge: 100)
        #expect(policy.delay(afterAttempt: 1, jitter: 0) == 1)
        #expect(policy.delay(afterAttempt: 3, jitter: 0) == 4)
        #expect(policy.delay(afterAttempt: 9, jitter: 0) == 10)
        #expect(policy.delay(afterAttempt: 1, jitter: 1) == 1.2)
        let created = Date(timeIntervalSince1970: 0)
        #expect(!policy.givesUp(attempts: 4, createdAt: created, now: created.addingTimeInterval(99)))
        #expect(policy.givesUp(attempts: 5, createdAt: created, now: created))
        #expect(policy.givesUp(attempts: 1, createdAt: created, now: created.addingTimeInterval(100)))
    }

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-outbox-\(UUID().uuidString.prefix(8))")
    }

    static func message(_ n: Int, at time: Date = Date(timeIntervalSince1970: 1_900_000_000)) -> WebhookMessage {
        WebhookMessage(id: "msg_" + String(repeating: "a", count: 21) + String(n % 10), integrator: "shop",
                       body: Array(#"{"n":\#(n)}"#.utf8), createdAt: time)
    }

    @Test func theDirectoryKeepsMessagesAcrossAReopen() async throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try DirectoryWebhookOutbox(directory: directory, maximumMessages: 2)
        let now = Date(timeIntervalSince1970: 1_900_000_000)
        try await outbox.enqueue(Self.message(1))
        try await outbox.enqueue(Self.message(2))
        await #expect(throws: WebhookOutboxError.full(maximum: 2)) { try await outbox.enqueue(Self.message(3)) }
        // Files 0600 in a 0700 directory.
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first)
        #expect((try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)[.posixPermissions] as? Int) == 0o600)
        // A claim leases: a second claim within the lease gets nothing.
        let claimed = try await outbox.claim(now: now, lease: 30, limit: 10)
        #expect(claimed.count == 2)
        #expect(try await outbox.claim(now: now.addingTimeInterval(1), lease: 30, limit: 10).isEmpty)
        var retried = claimed[0]
        retried.attempts = 1
        retried.nextAttemptAt = now.addingTimeInterval(60)
        try await outbox.reschedule(retried)
        try await outbox.delivered(id: claimed[1].id)
        // Reopened (a restart): the rescheduled message, with its attempts and time, and nothing else.
        let reopened = try DirectoryWebhookOutbox(directory: directory)
        #expect(await reopened.statistics(now: now).pending == 1)
        #expect(try await reopened.claim(now: now.addingTimeInterval(59), lease: 30, limit: 10).isEmpty)
        let again = try await reopened.claim(now: now.addingTimeInterval(60), lease: 30, limit: 10)
        #expect(again == [retried])
    }

    @Test func aFileThatDoesNotReadRefusesTheDirectory() throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not a message".utf8).write(to: directory.appendingPathComponent("msg_aaaaaaaaaaaaaaaaaaaaa1.msg"))
        #expect(throws: WebhookOutboxError.self) { try DirectoryWebhookOutbox(directory: directory) }
        // The decoder refuses a wrong magic line, a short head and bad numbers.
        #expect(DirectoryWebhookOutbox.decode(id: "x", Array("verifierd-webhook-v2\nshop 1 0 1\n{}".utf8)) == nil)
        #expect(DirectoryWebhookOutbox.decode(id: "x", Array("verifierd-webhook-v1\nshop 1 -1 1\n{}".utf8)) == nil)
        #expect(DirectoryWebhookOutbox.decode(id: "x", Array("verifierd-webhook-v1\nshop 1 0\n{}".utf8)) == nil)
        #expect(DirectoryWebhookOutbox.decode(id: "x", Array("verifierd-webhook-v1\nshop 1 0 1\n{}".utf8))?.body == Array("{}".utf8))
    }

    /// The loop: a 503 is rescheduled, a 2xx removes the message, the last allowed failure abandons it, and every
    /// attempt carries the three headers with one webhook-id.
    @Test func theLoopRetriesDeliversAndGivesUp() async throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try DirectoryWebhookOutbox(directory: directory)
        let clock = Mutex(Date(timeIntervalSince1970: 1_900_000_000))
        let answers = Mutex([503, 200])
        let seen = Mutex<[[String]]>([])
        let events = Mutex<[String]>([])
        let secret = try #require(WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let dispatcher = WebhookDispatcher(
            outbox: outbox, endpoints: [WebhookEndpoint(integrator: "shop", url: "https://shop.example/hook", secret: secret)],
            retry: WebhookRetryPolicy(baseDelay: 1, maximumDelay: 1, maximumAttempts: 2, maximumAge: 3600),
            send: { _, headers, _ in
                seen.withLock { $0.append(headers) }
                return .success(answers.withLock { $0.isEmpty ? 500 : $0.removeFirst() })
            },
            now: { clock.withLock { $0 } },
            observe: { event in
                switch event {
                case .delivered: events.withLock { $0.append("delivered") }
                case .failed: events.withLock { $0.append("failed") }
                case .abandoned: events.withLock { $0.append("abandoned") }
                default: break
                }
            })
        try await outbox.enqueue(Self.message(1))
        await dispatcher.deliverDue()
        #expect(events.withLock { $0 } == ["failed"])
        await dispatcher.deliverDue()  // not due yet
        #expect(seen.withLock { $0.count } == 1)
        clock.withLock { $0 = $0.addingTimeInterval(1.3) }
        await dispatcher.deliverDue()
        #expect(events.withLock { $0 } == ["failed", "delivered"])
        #expect(await outbox.statistics(now: clock.withLock { $0 }).pending == 0)
        let headers = seen.withLock { $0 }
        #expect(headers.allSatisfy { $0.contains("webhook-id: \(Self.message(1).id)") && $0.contains { $0.hasPrefix("webhook-signature: v1,") } })
        // A message whose two attempts fail is given up, and a message for an integrator without an endpoint too.
        try await outbox.enqueue(Self.message(2, at: clock.withLock { $0 }))
        await dispatcher.deliverDue()
        clock.withLock { $0 = $0.addingTimeInterval(1.3) }
        await dispatcher.deliverDue()
        #expect(events.withLock { $0 }.suffix(2) == ["failed", "abandoned"])
        #expect(await outbox.statistics(now: clock.withLock { $0 }).pending == 0)
        #expect(dispatcher.delivers(to: "shop") && !dispatcher.delivers(to: "other"))
    }
}
