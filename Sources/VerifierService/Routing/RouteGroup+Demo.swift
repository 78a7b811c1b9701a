import HTTPServer

extension RouteGroup where Caller == Integrator {
    /// The demo page's routes: no token, every request counts as the configured `demo.integrator` (its name in the
    /// access log and `verifierd_integrator_requests_total`, its share of the sessions), like an integrator's.
    static func demo(_ integrator: Integrator, metrics: ServiceMetrics) -> RouteGroup<Integrator> {
        RouteGroup(admit: { _ throws(ServiceProblem) in integrator }, settle: settlingAsIntegrator(metrics: metrics))
    }
}
