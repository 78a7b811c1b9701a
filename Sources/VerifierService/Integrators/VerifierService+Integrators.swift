import HTTPServer

/// The create and verify routes run for an authenticated integrator, whose name goes into the access log
/// (`integrator`) and the metrics (`verifierd_integrator_requests_total`).
extension VerifierService {
    func respondAsIntegrator(_ request: HTTPServerRequest,
                             _ handler: (HTTPServerRequest, Integrator) async throws(ServiceProblem) -> HTTPServerResponse) async
        -> HTTPServerResponse
    {
        var integrator: Integrator?
        let response = await respond(request) { request throws(ServiceProblem) in
            integrator = try integratorAuthentication.authenticate(request)
            return try await handler(request, integrator!)
        }
        return annotated(response, integrator: integrator)
    }

    func respondNowAsIntegrator(_ request: HTTPServerRequest,
                                _ handler: (HTTPServerRequest, Integrator) throws(ServiceProblem) -> HTTPServerResponse)
        -> HTTPServerResponse
    {
        var integrator: Integrator?
        let response = respondNow(request) { request throws(ServiceProblem) in
            integrator = try integratorAuthentication.authenticate(request)
            return try handler(request, integrator!)
        }
        return annotated(response, integrator: integrator)
    }

    /// Names the integrator in the access log and the metrics; an unauthenticated request names no one (`-`): a
    /// presented token is never logged, not even in part.
    private func annotated(_ response: HTTPServerResponse, integrator: Integrator?) -> HTTPServerResponse {
        var response = response
        let name = integrator?.name ?? "-"
        response.logAnnotations["integrator"] = name
        metrics.integratorRequest(integrator: name, status: response.head.status.code)
        return response
    }
}
