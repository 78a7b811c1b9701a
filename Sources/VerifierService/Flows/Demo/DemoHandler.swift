import HTTPServer

/// The example page (`GET /demo`, with `demo.js` and `demo.css`) and the two open routes it calls,
/// `POST /demo/requests` and `POST /demo/verify`: the web flow run as the configured `demo.integrator`, so the page
/// never holds an integrator token. The routes exist only with a `demo` section.
struct DemoHandler: Sendable {
    /// `demo.integrator`: whose sessions the page's are.
    let integrator: Integrator
    let web: WebHandler
    let webConfiguration: ServiceConfiguration.Web
    /// Whether the listener speaks HTTPS (the scheme of a request that carries no `Origin`).
    let tls: Bool

    /// Served like the operations console: files of this service only, no inline code, no frames.
    static func page(_: HTTPServerRequest, _: Void) -> HTTPServerResponse {
        ConsoleHandler.consoleAsset(EmbeddedAssets.demoHTML, contentType: "text/html; charset=utf-8")
    }

    static func script(_: HTTPServerRequest, _: Void) -> HTTPServerResponse {
        ConsoleHandler.consoleAsset(EmbeddedAssets.demoScript, contentType: "text/javascript; charset=utf-8")
    }

    static func style(_: HTTPServerRequest, _: Void) -> HTTPServerResponse {
        ConsoleHandler.consoleAsset(EmbeddedAssets.demoStyle, contentType: "text/css; charset=utf-8")
    }

    /// A web session for the page's own origin: the answer of `/v1/web/requests`.
    func createRequest(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        var request = request
        if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { request.body = Array("{}".utf8) }
        let body = try RequestDecoding.decode(DemoRequestBody.self, from: request)
        let origin = try DemoPageOrigin.of(request, web: webConfiguration, tls: tls)
        return try await web.makeRequest(origin: origin, documents: body.documents, web: webConfiguration, for: integrator)
    }

    /// The report for the page's answer, as `/v1/web/verify` gives it for a session.
    func verify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let body = try RequestDecoding.decode(DemoVerifyBody.self, from: request)
        return try await web.verifySession(body.sessionId, response: body.response, at: web.clock.now(), for: integrator)
    }
}
