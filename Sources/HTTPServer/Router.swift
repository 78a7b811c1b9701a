import HTTPTypes

/// A request handler. Handlers run as Swift tasks on the global concurrent executor (a pool as wide as the
/// cores), never on the server's I/O queues; they should await rather than block (use `Task.sleep`, not `usleep`).
/// A thrown error becomes a 500 problem response whose detail does not reveal the error.
public typealias HTTPHandler = @Sendable (HTTPServerRequest) async throws -> HTTPServerResponse

/// A handler that answers at once, on the connection's own queue, without waiting for a place on the task pool
/// and without the hand-off there and back: for health checks and metrics, which must answer while every pool
/// thread is busy verifying, and for short work whose cost the request cannot raise (a token signature, a list
/// read from memory). It must be cheap and must never block.
public typealias HTTPImmediateHandler = @Sendable (HTTPServerRequest) -> HTTPServerResponse

/// How a route answers.
public enum HTTPRouteHandler: Sendable {
    /// As a Swift task on the global executor.
    case task(HTTPHandler)
    /// Synchronously on the connection's queue.
    case immediate(HTTPImmediateHandler)
}

/// A registered route: method and path pattern.
public struct HTTPRoute: Sendable, Hashable, CustomStringConvertible {
    /// The method, such as `GET`.
    public var method: HTTPRequest.Method
    /// The pattern, such as `/v1/admin/iaca/:fingerprint`.
    public var pattern: String
    /// `"GET /v1/items/:id"`.
    public var description: String { "\(method.rawValue) \(pattern)" }
}

/// Routes requests by method and path pattern. Segments starting with `:` match one non-empty path segment
/// and capture it (percent-decoded); other segments match literally. A pattern with more literal segments wins.
/// A `HEAD` request falls back to the `GET` route, unless that route was registered with `answersHead: false` (a
/// `GET` with a side effect, such as taking a one-time record: `HEAD` must never run it), where `HEAD` is 405 and
/// `Allow` does not name it. No route for the path gives 404; a route for the path but
/// not for the method gives 405 with `Allow`.
public struct Router: Sendable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    struct Entry: Sendable {
        var route: HTTPRoute
        var segments: [Segment]
        var literalCount: Int
        var handler: HTTPRouteHandler
        /// Whether a `HEAD` request may run this `GET` route.
        var answersHead: Bool
    }

    private var entries: [Entry] = []

    /// Creates an empty router.
    public init() {}

    /// Every registered route, in registration order.
    public var routes: [HTTPRoute] { entries.map(\.route) }

    /// Registers `handler` for `method` and `pattern` (which must start with `/`).
    /// Registering the same method and pattern twice replaces the earlier handler. A `GET` route with a side effect
    /// passes `answersHead: false`, so that `HEAD` is refused (405) rather than run it.
    public mutating func add(_ method: HTTPRequest.Method, _ pattern: String, answersHead: Bool = true,
                             handler: @escaping HTTPHandler) {
        add(method, pattern, routeHandler: .task(handler), answersHead: answersHead)
    }

    /// Registers an immediate handler (see ``HTTPImmediateHandler``).
    public mutating func addImmediate(_ method: HTTPRequest.Method, _ pattern: String, answersHead: Bool = true,
                                      handler: @escaping HTTPImmediateHandler) {
        add(method, pattern, routeHandler: .immediate(handler), answersHead: answersHead)
    }

    /// Registers an immediate `GET` handler (see ``HTTPImmediateHandler``).
    public mutating func getImmediate(_ pattern: String, handler: @escaping HTTPImmediateHandler) {
        addImmediate(.get, pattern, handler: handler)
    }

    mutating func add(_ method: HTTPRequest.Method, _ pattern: String, routeHandler handler: HTTPRouteHandler,
                      answersHead: Bool = true) {
        precondition(pattern.hasPrefix("/"), "route pattern must start with /: \(pattern)")
        let segments = Router.segments(of: pattern).map { s -> Segment in
            s.hasPrefix(":") && s.count > 1 ? .parameter(String(s.dropFirst())) : .literal(String(s))
        }
        let literalCount = segments.reduce(0) { if case .literal = $1 { return $0 + 1 } else { return $0 } }
        let entry = Entry(route: HTTPRoute(method: method, pattern: pattern), segments: segments,
                          literalCount: literalCount, handler: handler, answersHead: method == .get && answersHead)
        if let i = entries.firstIndex(where: { $0.route == entry.route }) {
            entries[i] = entry
        } else {
            entries.append(entry)
        }
    }

    /// Registers a `GET` route.
    public mutating func get(_ pattern: String, handler: @escaping HTTPHandler) { add(.get, pattern, handler: handler) }
    /// Registers a `POST` route.
    public mutating func post(_ pattern: String, handler: @escaping HTTPHandler) { add(.post, pattern, handler: handler) }
    /// Registers a `PUT` route.
    public mutating func put(_ pattern: String, handler: @escaping HTTPHandler) { add(.put, pattern, handler: handler) }
    /// Registers a `DELETE` route.
    public mutating func delete(_ pattern: String, handler: @escaping HTTPHandler) { add(.delete, pattern, handler: handler) }

    /// The outcome of routing one request.
    enum Match {
        case found(handler: HTTPRouteHandler, pattern: String, parameters: [String: String])
        case methodNotAllowed(allowed: [String])
        case notFound
        case badPath
    }

    static func segments(of path: String) -> [Substring] {
        // "/" -> [""], "/a/b" -> ["a", "b"], "/a/" -> ["a", ""]
        Array(path.utf8.dropFirst().isEmpty ? [""] : path.dropFirst().split(separator: "/", omittingEmptySubsequences: false))
    }

    func match(method: HTTPRequest.Method, path: String) -> Match {
        guard path.hasPrefix("/") else { return .notFound }
        let parts = Router.segments(of: path)
        var best: (entry: Entry, params: [String: String])?
        var getFallback: (entry: Entry, params: [String: String])?
        var allowed: Set<String> = []
        for entry in entries where entry.segments.count == parts.count {
            var params: [String: String] = [:]
            var ok = true
            for (seg, part) in zip(entry.segments, parts) {
                switch seg {
                case .literal(let lit):
                    if lit != part { ok = false }
                case .parameter(let name):
                    if part.isEmpty { ok = false; break }
                    guard let decoded = RequestTarget.percentDecode(part, plusAsSpace: false) else { return .badPath }
                    params[name] = decoded
                }
                if !ok { break }
            }
            guard ok else { continue }
            allowed.insert(entry.route.method.rawValue)
            if entry.answersHead { allowed.insert("HEAD") }
            if entry.route.method == method {
                if let current = best, current.entry.literalCount >= entry.literalCount { continue }
                best = (entry, params)
            } else if method == .head && entry.answersHead {
                if let current = getFallback, current.entry.literalCount >= entry.literalCount { continue }
                getFallback = (entry, params)
            }
        }
        if let chosen = best ?? getFallback {
            return .found(handler: chosen.entry.handler, pattern: chosen.entry.route.pattern, parameters: chosen.params)
        }
        if !allowed.isEmpty { return .methodNotAllowed(allowed: allowed.sorted()) }
        return .notFound
    }
}
