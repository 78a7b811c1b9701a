import Foundation

/// How to reach the database and seal what goes into it, from the service's `store` section.
public struct PostgresStoreConfiguration: Sendable {
    /// TLS to the database server.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP (loopback, or a network the operator trusts).
        case disable
        /// TLS when the server offers it, plain otherwise (no server authentication).
        case prefer
        /// TLS required, the server's certificate verified against the system roots or `caFile`.
        case require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String?
    public var poolSize: Int
    public var tlsMode: TLSMode
    /// Certificates (PEM) that the server's certificate must chain to, with `tlsMode == .require`.
    public var tlsCAFile: URL?
    /// Seals session payloads (reader and recipient private keys) at rest.
    public var sessionKey: SessionSealingKey
    /// How long one store operation may take before it fails as unavailable.
    public var operationTimeout: Duration
    /// How often the database is probed while it is unreachable (operations fail at once meanwhile).
    public var probeInterval: Duration

    public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String? = nil,
                poolSize: Int = 8, tlsMode: TLSMode = .disable, tlsCAFile: URL? = nil, sessionKey: SessionSealingKey,
                operationTimeout: Duration = .seconds(2), probeInterval: Duration = .milliseconds(500)) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.poolSize = poolSize
        self.tlsMode = tlsMode
        self.tlsCAFile = tlsCAFile
        self.sessionKey = sessionKey
        self.operationTimeout = operationTimeout
        self.probeInterval = probeInterval
    }

    /// The parts of `postgres://user[:password]@host[:port][/database]` (also `postgresql://`). Percent-escapes in
    /// the user, password and database are decoded. Query parameters are refused: settings go in the `store`
    /// section, where they are checked.
    public struct Location: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String?

        public init(host: String, port: Int, username: String, password: String?, database: String?) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
        }
    }

    public static func parse(url text: String) throws(PostgresStoreError) -> Location {
        func fail(_ reason: String) -> PostgresStoreError { .configuration(setting: "store.url", reason: reason) }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw fail("not a URL; expected postgres://user@host:5432/database")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw fail("scheme \(scheme) is not postgres or postgresql")
        }
        guard let host = components.host, !host.isEmpty else { throw fail("no host") }
        guard let user = components.user, !user.isEmpty else { throw fail("no user (postgres://user@host/database)") }
        guard components.query == nil, components.fragment == nil else {
            throw fail("query parameters are not read; use store.tls and the other store settings")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw fail("port \(port) is out of range") }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw fail("the path must be one database name") }
        return Location(host: host, port: port, username: user.removingPercentEncoding ?? user,
                        password: components.password.map { $0.removingPercentEncoding ?? $0 },
                        database: path.isEmpty ? nil : (path.removingPercentEncoding ?? path))
    }

    /// The location for messages and logs: never the password.
    public var redactedLocation: String {
        "postgres://\(username)@\(host):\(port)/\(database ?? "")"
    }
}
