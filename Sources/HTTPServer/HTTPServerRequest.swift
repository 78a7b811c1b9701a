import HTTPTypes
import ServerTLS

/// A complete request as handed to a handler: the head as a swift-http-types value and the whole body.
public struct HTTPServerRequest: Sendable {
    /// Method, path (request target as sent, query included) and header fields.
    public var head: HTTPRequest
    /// The request body (already de-chunked), at most ``HTTPServerConfiguration/maxBodyBytes`` long.
    public var body: [UInt8]
    /// Values of the `:name` segments of the matched route pattern, percent-decoded.
    public var pathParameters: [String: String]
    /// The path part of the request target, without the query, still percent-encoded.
    public var path: String
    /// Query items in order of appearance, percent-decoded (`+` read as space).
    public var queryItems: [(name: String, value: String)]
    /// The request ID: the client's valid `X-Request-Id`, or a generated one. Echoed in the response.
    public var requestID: String
    /// The route pattern that matched, such as `/v1/items/:id`.
    public var routePattern: String
    /// The peer address as text (`127.0.0.1:51234`, `[::1]:51234`).
    public var remoteAddress: String
    /// The certificate the client presented in the TLS handshake, if any (never on plain HTTP).
    public var clientCertificate: TLSClientCertificate?

    /// Creates a request value (the server builds these; tests may too).
    public init(
        head: HTTPRequest,
        body: [UInt8] = [],
        pathParameters: [String: String] = [:],
        path: String? = nil,
        queryItems: [(name: String, value: String)] = [],
        requestID: String = "",
        routePattern: String = "",
        remoteAddress: String = "",
        clientCertificate: TLSClientCertificate? = nil
    ) {
        self.head = head
        self.body = body
        self.pathParameters = pathParameters
        self.path = path ?? RequestTarget.split(head.path ?? "/").path
        self.queryItems = queryItems
        self.requestID = requestID
        self.routePattern = routePattern
        self.remoteAddress = remoteAddress
        self.clientCertificate = clientCertificate
    }

    /// The last value of the query item `name`, if present.
    public func query(_ name: String) -> String? {
        queryItems.last(where: { $0.name == name })?.value
    }

    /// The body decoded as UTF-8 (invalid sequences repaired).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
