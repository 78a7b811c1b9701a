import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The connection pool to the database, with a deadline on every operation and a record of whether the last
/// operations reached the database (for `/readyz`). The pool reconnects by itself after the database comes back.
public final class PostgresDatabase: Sendable {
    public let configuration: PostgresStoreConfiguration
    let client: PostgresClient
    let logger: Logger
    private let runner: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let problem = Mutex<String?>(nil)

    /// Creates the pool and starts it; no connection is opened until the first operation.
    public init(configuration: PostgresStoreConfiguration, logger: Logger) throws(PostgresStoreError) {
        self.configuration = configuration
        self.logger = logger
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
    }

    /// Nil while the database answers; otherwise why the last operation failed.
    public var unavailableReason: String? { problem.withLock { $0 } }

    /// Runs `body` with the operation deadline; any failure is ``PostgresStoreError/unavailable(_:)`` (or the
    /// ``PostgresStoreError`` the body threw) and is remembered for `/readyz` until an operation succeeds.
    func perform<Result: Sendable>(_ operation: String,
                                   _ body: @escaping @Sendable (PostgresClient) async throws -> Result)
        async throws(PostgresStoreError) -> Result
    {
        let client = self.client
        let timeout = configuration.operationTimeout
        do {
            let result = try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask { try await body(client) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let result = first else {
                    throw PostgresStoreError.unavailable("\(operation) took longer than \(timeout)")
                }
                return result
            }
            problem.withLock { $0 = nil }
            return result
        } catch let error as PostgresStoreError {
            if case .unavailable(let reason) = error { remember(reason, operation: operation) }
            throw error
        } catch {
            let reason = Self.describe(error)
            remember(reason, operation: operation)
            throw .unavailable(reason)
        }
    }

    private func remember(_ reason: String, operation: String) {
        let changed = problem.withLock { old in
            defer { old = reason }
            return old == nil
        }
        if changed {
            logger.error("database unavailable", metadata: ["operation": "\(operation)", "reason": "\(reason)",
                                                             "database": "\(configuration.redactedLocation)"])
        }
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
