import Dispatch
import HTTPTypes
import ServerTLS

/// One answered exchange, for the bytes sent and the log: the response and what is recorded about it.
struct Exchange {
    let response: HTTPServerResponse
    let method: String
    let path: String
    let requestID: String
    /// The matched route pattern; nil when no route matched (404, 405, refusals and parse errors).
    let pattern: String?
    /// The code when the server answered the error itself.
    let errorCode: HTTPServerErrorKind?
    let requestBodyBytes: Int
    let responseBodyBytes: Int
    let isHead: Bool
    /// Since the request head arrived.
    let started: ContinuousClock.Instant
}

/// Turns a parsed request into its answer without touching the socket: the client-certificate gate, routing, the
/// request a handler sees, the hop to a task and back, the server's own error answers, and the log record of each
/// exchange.
struct RequestDispatcher {
    let context: ServerContext
    let peer: PeerAddress
    let remoteAddress: String

    /// Answers a complete request. `complete` runs on `queue`: at once for an immediate route or a refusal, after the
    /// handler's task otherwise.
    func dispatch(_ head: ParsedRequestHead, body: [UInt8], clientCertificate: TLSClientCertificate?,
                  started: ContinuousClock.Instant, queue: DispatchQueue, complete: @escaping @Sendable (Exchange) -> Void) {
        let (path, query) = RequestTarget.split(head.target)
        let requestID = RequestID.validated(head.fields[HTTPField.Name.xRequestID],
                                            maxLength: context.configuration.maxRequestIDLength) ?? RequestID.generate()
        let isHead = head.method == .head
        func exchange(_ response: HTTPServerResponse, pattern: String?, errorCode: HTTPServerErrorKind?) -> Exchange {
            Exchange(response: response, method: head.method.rawValue, path: path, requestID: requestID, pattern: pattern,
                     errorCode: errorCode, requestBodyBytes: body.count, responseBodyBytes: isHead ? 0 : response.body.count,
                     isHead: isHead, started: started)
        }
        let match = context.router.match(method: head.method, path: path)
        if requiresClientCertificate(path: path, match: match), clientCertificate?.chainsToClientCA != true {
            let detail = clientCertificate == nil
                ? "this route needs a client certificate"
                : "the client certificate does not chain to the configured client CA"
            complete(exchange(context.problemResponse(.clientCertificateRequired, detail), pattern: nil,
                              errorCode: .clientCertificateRequired))
            return
        }
        switch match {
        case .notFound:
            complete(exchange(context.problemResponse(.notFound, "no route for \(path)"), pattern: nil, errorCode: .notFound))
        case .badPath:
            complete(exchange(context.problemResponse(.malformedRequest, "invalid percent-encoding in the path"), pattern: nil,
                              errorCode: .malformedRequest))
        case .methodNotAllowed(let allowed):
            var response = context.problemResponse(.methodNotAllowed, "\(head.method.rawValue) is not allowed on \(path)")
            response.head.headerFields[.allow] = allowed.joined(separator: ", ")
            complete(exchange(response, pattern: nil, errorCode: .methodNotAllowed))
        case .found(let handler, let pattern, let parameters):
            let request = HTTPServerRequest(
                head: HTTPRequest(method: head.method, scheme: nil, authority: head.authority, path: head.target,
                                  headerFields: head.fields),
                body: body, pathParameters: parameters, path: path, queryItems: RequestTarget.queryItems(query),
                requestID: requestID, routePattern: pattern, remoteAddress: remoteAddress, clientCertificate: clientCertificate)
            switch handler {
            case .immediate(let answer):
                complete(exchange(answer(request), pattern: pattern, errorCode: nil))
            case .task(let handler):
                let context = self.context
                Task {
                    let answered: Exchange
                    do {
                        answered = exchange(try await handler(request), pattern: pattern, errorCode: nil)
                    } catch {
                        answered = exchange(context.problemResponse(.internalError, "the request handler failed"), pattern: pattern,
                                            errorCode: .internalError)
                    }
                    queue.async { complete(answered) }
                }
            }
        }
    }

    /// The server's own answer to a request it could not read (`head` when its head was complete), closed after.
    func refusal(_ kind: HTTPServerErrorKind, _ detail: String, head: ParsedRequestHead?, parser: HTTPRequestParser,
                 started: ContinuousClock.Instant) -> Exchange {
        let incomingID = head?.fields[HTTPField.Name.xRequestID] ?? parser.currentRequestID
        let requestID = RequestID.validated(incomingID, maxLength: context.configuration.maxRequestIDLength) ?? RequestID.generate()
        let response = context.problemResponse(kind, detail)
        let target = head?.target ?? parser.currentTarget ?? "-"
        return Exchange(response: response, method: head?.method.rawValue ?? parser.currentMethod ?? "-",
                        path: RequestTarget.split(target).path, requestID: requestID, pattern: nil, errorCode: kind,
                        requestBodyBytes: 0, responseBodyBytes: response.body.count, isHead: head?.method == .head,
                        started: started)
    }

    /// Hands the exchange's record to the observer (the access log and metrics).
    func log(_ exchange: Exchange) {
        guard let observer = context.observer else { return }
        observer(HTTPRequestLogRecord(
            requestID: exchange.requestID, method: exchange.method, path: exchange.path, routePattern: exchange.pattern,
            status: exchange.response.head.status.code, errorCode: exchange.errorCode?.rawValue,
            duration: ContinuousClock.now - exchange.started, requestBodyBytes: exchange.requestBodyBytes,
            responseBodyBytes: exchange.responseBodyBytes, remoteAddress: remoteAddress, clientAddress: peer.host,
            clientPort: peer.port, annotations: exchange.response.logAnnotations))
    }

    /// Whether the path, as sent or as routed, falls under a prefix that needs a client certificate.
    private func requiresClientCertificate(path: String, match: Router.Match) -> Bool {
        let prefixes = context.configuration.clientCertificateRequiredPrefixes
        guard !prefixes.isEmpty else { return false }
        var pattern = ""
        if case .found(_, let p, _) = match { pattern = p }
        return prefixes.contains { path.hasPrefix($0) || (!pattern.isEmpty && pattern.hasPrefix($0)) }
    }
}
