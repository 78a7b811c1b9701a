import Dispatch
import ServerTLS

/// Limits, timeouts and addresses for an ``HTTPServer``.
///
/// Every limit is explicit and has a conservative default. Durations are Swift `Duration` values.
public struct HTTPServerConfiguration: Sendable {
    /// Host to listen on: a numeric IPv4 or IPv6 address (`"127.0.0.1"`, `"::1"`, `"0.0.0.0"`, `"::"`)
    /// or a name such as `"localhost"`, in which case every address it resolves to gets a listener.
    public var host: String
    /// TCP port; `0` picks a free port (read it back from ``HTTPServer/port``).
    public var port: Int
    /// Listen backlog passed to `listen(2)` (the kernel caps it at `net.core.somaxconn`).
    public var backlog: Int32

    /// Longest accepted request line, in bytes, excluding CRLF (longer: 414).
    public var maxRequestLineLength: Int
    /// Largest header block, in bytes, after the request line (larger: 431).
    public var maxHeaderBytes: Int
    /// Most header fields in one request (more: 431).
    public var maxHeaderCount: Int
    /// Largest request body, in bytes, whether sent with Content-Length or chunked (larger: 413).
    public var maxBodyBytes: Int
    /// Paths (without the query) whose bodies may be larger than ``maxBodyBytes``, up to the value: the routes that
    /// carry zero-knowledge proofs. A key ending in `/` is a prefix (`/v1/proximity/sessions/` for every session's
    /// messages), any other an exact path. Others keep ``maxBodyBytes``.
    public var largeBodyPaths: [String: Int] = [:]

    /// Time allowed from the first byte of a request (or from accept) to the end of its header block (then: 408 and close).
    public var headerReadTimeout: Duration
    /// Time allowed to receive the whole body once the header block is in (then: 408 and close).
    public var bodyReadTimeout: Duration
    /// How long a kept-alive connection may sit idle between requests before the server closes it.
    public var idleTimeout: Duration
    /// Time the client may go without taking any response bytes while the socket's send buffer is full (then: close).
    public var writeTimeout: Duration
    /// How long the server keeps reading and discarding after it has sent its last response and half-closed,
    /// so that the client sees the response rather than a reset.
    public var lingerTimeout: Duration

    /// Most connections served at once; beyond it new connections get 503 and are closed.
    public var maxConnections: Int
    /// Most requests served on one connection; the last response carries `Connection: close`.
    public var maxRequestsPerConnection: Int
    /// Default grace period for ``HTTPServer/shutdown(deadline:)``.
    public var shutdownGracePeriod: Duration

    /// Longest `X-Request-Id` accepted from a client; longer or non-printable ones are replaced by a generated id.
    public var maxRequestIDLength: Int
    /// The `type` member of problem documents the server produces itself (RFC 9457); `about:blank` by default.
    public var problemTypeBase: String?

    /// With an identity the listener speaks only TLS (1.2 or 1.3, ALPN `http/1.1`); nil: plain HTTP.
    public var tls: TLSServerIdentity?
    /// Path prefixes (such as `/v1/admin/`) whose requests need a client certificate chaining to the identity's
    /// client CA; others are answered 403 `CLIENT_CERTIFICATE_REQUIRED` before any handler runs.
    public var clientCertificateRequiredPrefixes: [String]

    /// Creates a configuration; every parameter has a default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        backlog: Int32 = 1024,
        maxRequestLineLength: Int = 8 * 1024,
        maxHeaderBytes: Int = 16 * 1024,
        maxHeaderCount: Int = 100,
        maxBodyBytes: Int = 1024 * 1024,
        headerReadTimeout: Duration = .seconds(10),
        bodyReadTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(60),
        writeTimeout: Duration = .seconds(30),
        lingerTimeout: Duration = .seconds(2),
        maxConnections: Int = 4096,
        maxRequestsPerConnection: Int = 10_000,
        shutdownGracePeriod: Duration = .seconds(10),
        maxRequestIDLength: Int = 128,
        problemTypeBase: String? = nil,
        tls: TLSServerIdentity? = nil,
        clientCertificateRequiredPrefixes: [String] = []
    ) {
        self.host = host
        self.port = port
        self.backlog = backlog
        self.maxRequestLineLength = maxRequestLineLength
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.headerReadTimeout = headerReadTimeout
        self.bodyReadTimeout = bodyReadTimeout
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.lingerTimeout = lingerTimeout
        self.maxConnections = maxConnections
        self.maxRequestsPerConnection = maxRequestsPerConnection
        self.shutdownGracePeriod = shutdownGracePeriod
        self.maxRequestIDLength = maxRequestIDLength
        self.problemTypeBase = problemTypeBase
        self.tls = tls
        self.clientCertificateRequiredPrefixes = clientCertificateRequiredPrefixes
    }
}

extension Duration {
    /// Whole nanoseconds, clamped to a non-negative `Int`, for Dispatch deadlines.
    var nanosecondsClamped: Int {
        let (seconds, attoseconds) = self.components
        if seconds < 0 { return 0 }
        if seconds > Int64(Int.max / 1_000_000_000) - 1 { return Int.max }
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }

    var dispatchInterval: DispatchTimeInterval { .nanoseconds(nanosecondsClamped) }
}

extension HTTPServerConfiguration {
    /// How long a connection waits in the phase `timer` guards.
    func timeout(for timer: ConnectionState.Timer) -> Duration {
        switch timer {
        case .header: return headerReadTimeout
        case .body: return bodyReadTimeout
        case .idle: return idleTimeout
        case .linger: return lingerTimeout
        case .write: return writeTimeout
        case .none: return .zero
        }
    }
}
