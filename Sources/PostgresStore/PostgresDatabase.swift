import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The connection pool to the database, with a deadline on every operation, a record of whether the last
/// operations reached the database (for `/readyz`), and a circuit (``DatabaseCircuit``): once an operation finds the
/// database unreachable, the next ones fail at once while a probe tries it every `probeInterval`. The pool
/// reconnects by itself after the database comes back.
public final class PostgresDatabase: Sendable {
    public let configuration: PostgresStoreConfiguration
    let client: PostgresClient
    let logger: Logger
    private let runner: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let problem = Mutex<String?>(nil)
    private let circuit = Mutex(DatabaseCircuit())
    private let prober: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let deadlines: OperationDeadlines
    /// Operations sent to the database (probes included), refused by the open circuit, and probes run.
    let attemptedOperations = Atomic<Int>(0)
    let refusedOperations = Atomic<Int>(0)
    let probes = Atomic<Int>(0)

    /// Creates the pool and starts it; no connection is opened until the first operation.
    public init(configuration: PostgresStoreConfiguration, logger: Logger) throws(PostgresStoreError) {
        self.configuration = configuration
        self.logger = logger
        self.deadlines = OperationDeadlines(tick: min(.milliseconds(50), configuration.operationTimeout / 4))
        let tls: PostgresClient.Configuration.TLS
        switch configuration.tlsMode {
        case .disable:
            tls = .disable
        case .prefer:
            var unverified = TLSConfiguration.makeClientConfiguration()
            unverified.certificateVerification = .none
            tls = .prefer(unverified)
        case .require:
            var verified = TLSConfiguration.makeClientConfiguration()
            if let caFile = configuration.tlsCAFile {
                do {
                    verified.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile.path))
                } catch {
                    throw .configuration(setting: "store.tls.caFile", reason: "cannot read certificates from \(caFile.path)")
                }
            }
            tls = .require(verified)
        }
        var settings = PostgresClient.Configuration(host: configuration.host, port: configuration.port,
                                                  username: configuration.username, password: configuration.password,
                                                  database: configuration.database, tls: tls)
        settings.options.maximumConnections = max(1, configuration.poolSize)
        settings.options.minimumConnections = 0
        settings.options.connectTimeout = configuration.operationTimeout
        settings.options.keepAliveBehavior = .init(frequency: .seconds(15))
        var background = logger
        background.logLevel = .critical
        self.client = PostgresClient(configuration: settings, backgroundLogger: background)
        let client = self.client
        runner.withLock { $0 = Task { await client.run() } }
    }

    /// Stops the pool (the process is ending).
    public func shutdown() {
        runner.withLock { task in
            task?.cancel()
            task = nil
        }
        prober.withLock { task in
            task?.cancel()
            task = nil
        }
        deadlines.stop()
    }

    /// Nil while the database answers; otherwise why the last operation failed.
    public var unavailableReason: String? { problem.withLock { $0 } }

    /// True while operations fail at once because the database was found unreachable (a probe runs meanwhile).
    public var circuitOpen: Bool { circuit.withLock { $0.isOpen } }

    /// Runs `body` under the operation deadline; any failure is ``PostgresStoreError/unavailable(_:)`` (or the
    /// ``PostgresStoreError`` the body threw) and is remembered for `/readyz` until an operation succeeds. While the
    /// circuit is open (the database was found unreachable) it fails at once, without trying.
    func perform<Result: Sendable>(_ operation: String,
                                   _ body: @escaping @Sendable (PostgresClient) async throws -> Result)
        async throws(PostgresStoreError) -> Result
    {
        if let refusal = circuit.withLock({ $0.refusal(now: .now) }) {
            refusedOperations.add(1, ordering: .relaxed)
            throw .unavailable(refusal)
        }
        switch await attempt(body) {
        case .success(let result):
            reached()
            return result
        case .failure(let error):
            if let error = error as? PostgresStoreError {
                if case .unavailable(let reason) = error { remember(reason, operation: operation) }
                throw error
            }
            let reason = reason(error, operation: operation)
            remember(reason, operation: operation, unreachable: Self.isUnreachable(error))
            throw .unavailable(reason)
        }
    }

    /// Runs `body` on its own task and answers with its result, or with ``OperationTimeout`` at the deadline, or
    /// with `CancellationError` when the caller is cancelled (the work is then cancelled too).
    private func attempt<Value: Sendable>(_ body: @escaping @Sendable (PostgresClient) async throws -> Value)
        async -> Swift.Result<Value, any Error>
    {
        attemptedOperations.add(1, ordering: .relaxed)
        let client = self.client, deadlines = self.deadlines
        let answer = OperationAnswer<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                answer.wait(continuation)
                let key = deadlines.add(deadline: .now + configuration.operationTimeout) {
                    answer.answer(.failure(OperationTimeout()), fromWork: false)
                }
                answer.attach(Task {
                    let outcome: Swift.Result<Value, any Error>
                    do {
                        outcome = .success(try await body(client))
                    } catch {
                        outcome = .failure(error)
                    }
                    deadlines.remove(key)
                    answer.answer(outcome, fromWork: true)
                })
            }
        } onCancel: {
            answer.answer(.failure(CancellationError()), fromWork: false)
        }
    }

    /// An operation or probe reached the database: the circuit closes and `/readyz` forgets the last failure.
    private func reached() {
        let closed = circuit.withLock { circuit -> Bool in
            guard circuit.isOpen else { return false }
            _ = circuit.finished(unreachable: nil, now: .now)
            return true
        }
        problem.withLock { $0 = nil }
        if closed {
            logger.notice("database reachable again", metadata: ["database": "\(configuration.redactedLocation)"])
        }
    }

    /// Probes the database while the circuit is open: one `SELECT 1` every probe interval, until one reaches it.
    private func startProbing() {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                guard let interval = self?.configuration.probeInterval else { return }
                try? await Task.sleep(for: interval)
                guard let self, self.circuit.withLock({ $0.isOpen }), !Task.isCancelled else { return }
                self.probes.add(1, ordering: .relaxed)
                let logger = self.logger
                switch await self.attempt({ client in try await client.query("SELECT 1", logger: logger).collect().count }) {
                case .success:
                    self.reached()
                    return
                case .failure(let error):
                    let reason = self.reason(error, operation: "probe")
                    _ = self.circuit.withLock { $0.finished(unreachable: reason, now: .now) }
                    self.problem.withLock { $0 = reason }
                }
            }
        }
        prober.withLock { old in
            old?.cancel()
            old = task
        }
    }

    /// Whether `error` says the database was not reached (as opposed to an SQL error it answered with): a deadline,
    /// a connection that failed or closed, or a server refusing work (SQLSTATE classes 08, 53 and 57P).
    static func isUnreachable(_ error: any Error) -> Bool {
        if error is OperationTimeout { return true }
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] {
            return state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P")
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .failedToAddSSLHandler, .sslUnsupported:
            return true
        default:
            return false
        }
    }

    private func remember(_ reason: String, operation: String, unreachable: Bool = false) {
        let opened = unreachable && circuit.withLock { $0.finished(unreachable: reason, now: .now) }
        let changed = problem.withLock { old in
            defer { old = reason }
            return old == nil
        }
        if changed || opened {
            logger.error(opened ? "database unreachable: operations fail at once until a probe reaches it"
                                : "database unavailable",
                         metadata: ["operation": "\(operation)", "reason": "\(reason)",
                                    "database": "\(configuration.redactedLocation)"])
        }
        if opened { startProbing() }
    }

    /// Why `operation` failed, for logs, `/readyz` and answers.
    private func reason(_ error: any Error, operation: String) -> String {
        error is OperationTimeout ? "\(operation) took longer than \(configuration.operationTimeout)" : Self.describe(error)
    }

    /// A message for logs and answers: the server's message when it sent one, the client's error code otherwise.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "\(message) (\(error.serverInfo?[.sqlState] ?? "server error"))"
            }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        if error is CancellationError { return "cancelled" }
        return "\(error)"
    }
}

/// An operation that did not end by its deadline.
struct OperationTimeout: Error {}
