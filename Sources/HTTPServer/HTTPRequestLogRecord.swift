/// One finished request, handed to the server's observer for logging and metrics.
///
/// The server depends on no logging backend: the observer decides what to do with it.
public struct HTTPRequestLogRecord: Sendable {
    /// The request ID echoed in `X-Request-Id`.
    public var requestID: String
    /// The request method as sent (`"GET"`), or `"-"` when the request line could not be parsed.
    public var method: String
    /// The path without the query, or `"-"` when unknown.
    public var path: String
    /// The matched route pattern, or `nil` when no route matched (404, 405 and parse errors).
    public var routePattern: String?
    /// The response status code.
    public var status: Int
    /// The stable error code when the server answered the error itself (`MALFORMED_REQUEST`...).
    public var errorCode: String?
    /// Time from the complete request head to the response handed to the socket.
    public var duration: Duration
    /// Body bytes received and sent.
    public var requestBodyBytes: Int
    /// Body bytes sent.
    public var responseBodyBytes: Int
    /// Peer address as text (`127.0.0.1:51234`, `[::1]:51234`).
    public var remoteAddress: String
    /// The socket peer's IP address (``PeerAddress/host``): never taken from the request's headers.
    public var clientAddress: String
    /// The socket peer's TCP port, when the address has one.
    public var clientPort: Int?
    /// What the handler attached with ``HTTPServerResponse/logAnnotations`` (empty for server-made responses).
    public var annotations: [String: String] = [:]
}

/// Observer called once per response the server sends (on a server thread: keep it fast and non-blocking).
public typealias HTTPRequestObserver = @Sendable (HTTPRequestLogRecord) -> Void
