import Dispatch

/// What every connection of one server shares: immutable configuration, routes and callbacks.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let limits: HTTPParserLimits
    let router: Router
    let observer: HTTPRequestObserver?
    /// Called (on the connection's queue) once a connection's descriptor is closed.
    let connectionClosed: @Sendable (ObjectIdentifier) -> Void

    init(configuration: HTTPServerConfiguration, router: Router, observer: HTTPRequestObserver?,
         connectionClosed: @escaping @Sendable (ObjectIdentifier) -> Void) {
        self.configuration = configuration
        self.limits = HTTPParserLimits(configuration)
        self.router = router
        self.observer = observer
        self.connectionClosed = connectionClosed
    }

    func problemResponse(_ kind: HTTPServerErrorKind, _ detail: String) -> HTTPServerResponse {
        .problem(kind.problem(detail: detail, typeBase: configuration.problemTypeBase))
    }
}
