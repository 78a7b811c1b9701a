import Dispatch

/// What every connection of one server shares: immutable configuration, routes, callbacks and the readiness set.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let limits: HTTPParserLimits
    let router: Router
    let observer: HTTPRequestObserver?
    /// Every connection socket's readiness.
    let readiness: SocketReadiness
    /// Called (on the connection's queue) once a connection's descriptor is closed.
    let connectionClosed: @Sendable (ObjectIdentifier) -> Void

    init(configuration: HTTPServerConfiguration, router: Router, observer: HTTPRequestObserver?,
         readiness: SocketReadiness, connectionClosed: @escaping @Sendable (ObjectIdentifier) -> Void) {
        self.configuration = configuration
        self.readiness = readiness
        self.limits = HTTPParserLimits(configuration)
        self.router = router
        self.observer = observer
        self.connectionClosed = connectionClosed
    }

    func problemResponse(_ kind: HTTPServerErrorKind, _ detail: String) -> HTTPServerResponse {
        .problem(kind.problem(detail: detail, typeBase: configuration.problemTypeBase))
    }
}
