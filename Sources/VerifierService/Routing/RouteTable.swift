import HTTPServer
import HTTPTypes

/// The service's routes, written in one place: each line names the group (who may call), the method, the path and
/// the handler. Verifications run as tasks (their cost depends on what the sender wrote, and the connection queues
/// must stay free for health probes); short routes whose cost does not (a transcript, a token, a list) are added
/// with `now:` and answer on the connection's queue.
struct RouteTable {
    private(set) var router = Router()
    let metrics: ServiceMetrics

    init(metrics: ServiceMetrics) {
        self.metrics = metrics
    }

    /// Adds a route run as a task. With `metered`, the answer's verification outcome and the time taken are
    /// recorded under that endpoint (`verifierd_verifications_total`, `verifierd_verification_seconds`). A `GET` that
    /// takes a one-time record says so with `takesRecord`: `HEAD` is then 405 there, never a run of the `GET`.
    mutating func add<Caller>(_ group: RouteGroup<Caller>, _ method: HTTPRequest.Method, _ path: String, metered endpoint: String? = nil,
                              takesRecord: Bool = false,
                              _ handler: @escaping @Sendable (HTTPServerRequest, Caller) async throws(ServiceProblem) -> HTTPServerResponse)
    {
        let metrics = self.metrics
        router.add(method, path, answersHead: !takesRecord) { request in
            let started = ContinuousClock.now
            let response = await group.run(request, handler)
            if let endpoint { Self.meter(response, endpoint: endpoint, since: started, metrics: metrics) }
            return response
        }
    }

    /// Adds a route that answers at once, on the connection's queue.
    mutating func add<Caller>(_ group: RouteGroup<Caller>, _ method: HTTPRequest.Method, _ path: String, now handler:
                              @escaping @Sendable (HTTPServerRequest, Caller) throws(ServiceProblem) -> HTTPServerResponse)
    {
        router.addImmediate(method, path) { request in group.runNow(request, handler) }
    }

    /// Records a verification whose answer carries an outcome (a report, or a response-level failure).
    private static func meter(_ response: HTTPServerResponse, endpoint: String, since started: ContinuousClock.Instant,
                              metrics: ServiceMetrics)
    {
        guard let outcome = response.logAnnotations["outcome"] else { return }
        metrics.verification(endpoint: endpoint, outcome: outcome, duration: ContinuousClock.now - started)
    }
}
