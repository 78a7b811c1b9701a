import HTTPServer

/// The create and verify routes run for an authenticated integrator, whose name goes into the access log
/// (`integrator`) and the metrics (`verifierd_integrator_requests_total`).
extension VerifierService {
    func respondAsIntegrator(_ request: HTTPServerRequest,
                             _ handler: (HTTPServerRequest, Integrator) async throws(ServiceProblem) -> HTTPServerResponse) async
        -> HTTPServerResponse
    {
        var name: String?
        var response: HTTPServerResponse
        do {
            let integrator = try integratorAuthentication.authenticate(request)
            name = integrator.name
            response = try await handler(request, integrator)
        } catch {
            response = error.response
        }
        return annotated(response, integrator: name)
    }

    func respondNowAsIntegrator(_ request: HTTPServerRequest,
                                _ handler: (HTTPServerRequest, Integrator) throws(ServiceProblem) -> HTTPServerResponse)
        -> HTTPServerResponse
    {
        var name: String?
        var response: HTTPServerResponse
        do {
            let integrator = try integratorAuthentication.authenticate(request)
            name = integrator.name
            response = try handler(request, integrator)
        } catch {
            response = error.response
        }
        return annotated(response, integrator: name)
    }

    private func annotated(_ response: HTTPServerResponse, integrator: String?) -> HTTPServerResponse {
        var response = response
        // An unauthenticated request names no one: a presented token is never logged, not even in part.
        response.logAnnotations["integrator"] = integrator ?? "-"
        metrics.integratorRequest(integrator: integrator ?? "-", status: response.head.status.code)
        return response
    }
}
