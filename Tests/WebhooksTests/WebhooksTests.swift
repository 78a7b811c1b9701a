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

    static let key = WebhookSealingKey(bytes: Array(repeating: 7, count: 32))

    static func message(_ n: Int, at time: Date = Date(timeIntervalSince1970: 1_900_000_000)) -> WebhookMessage {
        WebhookMessage(id: "msg_" + String(repeating: "a", count: 21) + String(n % 10), integrator: "shop",
                       body: Array(#"{"n":\#(n)}"#.utf8), createdAt: time)
    }

    @Test func theDirectoryKeepsMessagesAcrossAReopen() async throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try DirectoryWebhookOutbox(directory: directory, sealing: Self.key, maximumMessages: 2)
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
        let reopened = try DirectoryWebhookOutbox(directory: directory, sealing: Self.key)
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
        #expect(throws: WebhookOutboxError.self) { try DirectoryWebhookOutbox(directory: directory, sealing: Self.key) }
        // The decoder refuses a wrong magic line, a short head, bad numbers and a v2 body that is not sealed.
        func decode(_ text: String) -> WebhookMessage? { DirectoryWebhookOutbox.decode(id: "x", Array(text.utf8), sealing: Self.key)?.0 }
        #expect(decode("verifierd-webhook-v3\nshop 1 0 1\n{}") == nil)
        #expect(decode("verifierd-webhook-v1\nshop 1 -1 1\n{}") == nil)
        #expect(decode("verifierd-webhook-v1\nshop 1 0\n{}") == nil)
        #expect(decode("verifierd-webhook-v2\nshop 1 0 1\n{}") == nil)
        #expect(decode("verifierd-webhook-v1\nshop 1 0 1\n{}")?.body == Array("{}".utf8))
    }

    /// What waits on disk holds no claim value in plain text: each body is sealed with the outbox key, bound to its
    /// message (a body moved into another message's file, or read with another key, does not open); a file of the
    /// first version is sealed at start.
    @Test func bodiesAreSealedOnDisk() async throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try DirectoryWebhookOutbox(directory: directory, sealing: Self.key)
        let claims = WebhookMessage(id: "msg_" + String(repeating: "b", count: 22), integrator: "shop",
                                    body: Array(#"{"claims":{"family_name":"Mustermann"}}"#.utf8), createdAt: Date(timeIntervalSince1970: 1_900_000_000))
        try await outbox.enqueue(claims)
        let file = directory.appendingPathComponent("\(claims.id).msg")
        let stored = try Data(contentsOf: file)
        #expect(stored.range(of: Data("Mustermann".utf8)) == nil, "the body is not on disk in plain text")
        #expect(String(decoding: stored.prefix(21), as: UTF8.self) == "verifierd-webhook-v2\n")
        // Another key does not open it, and the start refuses the directory rather than dropping the message.
        #expect(throws: WebhookOutboxError.self) {
            try DirectoryWebhookOutbox(directory: directory, sealing: WebhookSealingKey(bytes: Array(repeating: 8, count: 32)))
        }
        // The same sealed body under another message id does not open.
        let other = "msg_" + String(repeating: "c", count: 22)
        #expect(DirectoryWebhookOutbox.decode(id: other, Array(stored), sealing: Self.key) == nil)
        #expect(DirectoryWebhookOutbox.decode(id: claims.id, Array(stored), sealing: Self.key)?.0.body == claims.body)
        // A plain first-version file (written before sealing) is read, then rewritten sealed.
        try FileManager.default.removeItem(at: file)
        try Data(("verifierd-webhook-v1\nshop 1900000000000 0 1900000000000\n" + #"{"claims":{"family_name":"Mustermann"}}"#).utf8).write(to: file)
        let reopened = try DirectoryWebhookOutbox(directory: directory, sealing: Self.key)
        #expect(await reopened.statistics(now: Date(timeIntervalSince1970: 1_900_000_000)).pending == 1)
        #expect(try Data(contentsOf: file).range(of: Data("Mustermann".utf8)) == nil)
    }

    /// An outbox directory that already exists with a wider mode (and files readable by others) is set to 0700 and
    /// 0600 at start, as the documentation promises.
    @Test func anExistingWiderDirectoryIsNarrowedAtStart() async throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let first = try DirectoryWebhookOutbox(directory: directory, sealing: Self.key)
        try await first.enqueue(Self.message(1))
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".msg") })
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory.appendingPathComponent(file).path)
        _ = try DirectoryWebhookOutbox(directory: directory, sealing: Self.key)
        #expect(try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int == 0o700)
        #expect(try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)[.posixPermissions] as? Int == 0o600)
    }

    /// The loop: a 503 is rescheduled, a 2xx removes the message, the last allowed failure abandons it, and every
    /// attempt carries the three headers with one webhook-id.
    @Test func theLoopRetriesDeliversAndGivesUp() async throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try DirectoryWebhookOutbox(directory: directory, sealing: Self.key)
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
