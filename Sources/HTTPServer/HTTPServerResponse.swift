import HTTPTypes

/// A complete response: the head as a swift-http-types value and the whole body.
///
/// The server sets `Content-Length` (except for 1xx/204/304), `Date`, `X-Request-Id` and, when it closes,
/// `Connection: close`; a handler's own `Content-Length`, `Transfer-Encoding` and `Connection` fields are replaced.
public struct HTTPServerResponse: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The response body (not sent for HEAD requests, 204 and 304).
    public var body: [UInt8]
    /// Key/values for the request's log record (``HTTPRequestLogRecord/annotations``); never sent to the client.
    public var logAnnotations: [String: String] = [:]

    /// Creates a response.
    public init(head: HTTPResponse, body: [UInt8] = []) {
        self.head = head
        self.body = body
    }

    /// Creates a response from a status, header fields and body.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: [UInt8] = []) {
        self.head = HTTPResponse(status: status, headerFields: headerFields)
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok) -> HTTPServerResponse {
        var fields = HTTPFields()
        fields[.contentType] = "text/plain; charset=utf-8"
        return HTTPServerResponse(status: status, headerFields: fields, body: Array(text.utf8))
    }

    /// An `application/json` response from already-encoded JSON bytes.
    public static func json(_ jsonBytes: [UInt8], status: HTTPResponse.Status = .ok) -> HTTPServerResponse {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        return HTTPServerResponse(status: status, headerFields: fields, body: jsonBytes)
    }

    /// An `application/problem+json` response (RFC 9457); its status is the problem's.
    public static func problem(_ problem: HTTPProblem) -> HTTPServerResponse {
        var fields = HTTPFields()
        fields[.contentType] = "application/problem+json"
        return HTTPServerResponse(
            status: HTTPResponse.Status(code: problem.status),
            headerFields: fields,
            body: problem.jsonBytes
        )
    }
}
