import HTTPServer

/// What runs around every route of a group, as a router group with middleware would: who may call (``admit``
/// turns a request into its caller, or refuses it with a problem), and what is recorded once the answer is known
/// (``settle``). Handlers receive the admitted caller and never check credentials themselves.
struct RouteGroup<Caller: Sendable>: Sendable {
    let admit: @Sendable (HTTPServerRequest) throws(ServiceProblem) -> Caller
    let settle: @Sendable (inout HTTPServerResponse, Caller?) -> Void

    /// Routes anyone may call (health, the console's static files, the OpenAPI document).
    static var open: RouteGroup<Void> {
        RouteGroup<Void>(admit: { _ throws(ServiceProblem) in () }, settle: { _, _ in })
    }

    /// Runs `handler` for an admitted caller; a ``ServiceProblem`` becomes its problem response.
    func run(_ request: HTTPServerRequest,
             _ handler: (HTTPServerRequest, Caller) async throws(ServiceProblem) -> HTTPServerResponse) async -> HTTPServerResponse
    {
        var caller: Caller?
        var response: HTTPServerResponse
        do {
            let admitted = try admit(request)
            caller = admitted
            response = try await handler(request, admitted)
        } catch {
            response = error.response
        }
        settle(&response, caller)
        return response
    }

    /// The same for a handler that answers at once, on the connection's queue.
    func runNow(_ request: HTTPServerRequest,
                _ handler: (HTTPServerRequest, Caller) throws(ServiceProblem) -> HTTPServerResponse) -> HTTPServerResponse
    {
        var caller: Caller?
        var response: HTTPServerResponse
        do {
            let admitted = try admit(request)
            caller = admitted
            response = try handler(request, admitted)
        } catch {
            response = error.response
        }
        settle(&response, caller)
        return response
    }
}

extension RouteGroup where Caller == Integrator {
    /// The create and verify routes: an authenticated integrator, whose name (never the token, not even in part)
    /// goes into the access log (`integrator`) and `verifierd_integrator_requests_total`; a refused request names
    /// no one (`-`).
    static func integrators(_ authentication: IntegratorAuthentication, metrics: ServiceMetrics) -> RouteGroup<Integrator> {
        RouteGroup(admit: { request throws(ServiceProblem) in try authentication.authenticate(request) },
                   settle: settlingAsIntegrator(metrics: metrics))
    }

    /// What every integrator route records once answered: the integrator's name (`-` when none was admitted) in the
    /// access log and `verifierd_integrator_requests_total`.
    static func settlingAsIntegrator(metrics: ServiceMetrics) -> @Sendable (inout HTTPServerResponse, Integrator?) -> Void {
        { response, integrator in
            let name = integrator?.name ?? "-"
            response.logAnnotations["integrator"] = name
            metrics.integratorRequest(integrator: name, status: response.head.status.code)
        }
    }
}

extension RouteGroup where Caller == AdminActor {
    /// The admin routes: the admin bearer token (404 when none is configured, so the routes do not exist).
    static func admin(_ authorization: AdminAuthorization) -> RouteGroup<AdminActor> {
        RouteGroup(admit: { request throws(ServiceProblem) in try authorization.authorize(request) }, settle: { _, _ in })
    }
}
