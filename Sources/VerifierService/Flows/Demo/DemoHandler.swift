import HTTPServer
import OpenID4VP

/// The example page (`GET /demo`, with `demo.js` and `demo.css`) and the two open routes it calls,
/// `POST /demo/requests` and `POST /demo/verify`: the page's backend in the integration guide, played by this service.
/// They run `/v1/presentations/requests` and `/v1/presentations/verify` as the configured `demo.integrator`, so the
/// page never holds an integrator token. The routes exist only with a `demo` section.
struct DemoHandler: Sendable {
    /// `demo.integrator`: whose sessions the page's are.
    let integrator: Integrator
    let presentations: PresentationHandler
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

    /// A presentation session for the page's own origin: the answer of `/v1/presentations/requests`.
    func createRequest(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        var request = request
        if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { request.body = Array("{}".utf8) }
        let body = try RequestDecoding.decode(DemoRequestBody.self, from: request)
        let origin = try DemoPageOrigin.of(request, web: webConfiguration, tls: tls)
        return try await presentations.makeRequest(origin: origin.text, query: DCQLQuery(try RequestedDocument.items(body.documents, zeroKnowledge: presentations.verification.zeroKnowledge, naming: presentations.verification.anchorsToName)),
                                                   for: integrator)
    }

    /// The report for the page's answer, as `/v1/presentations/verify` gives it.
    func verify(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let body = try RequestDecoding.decode(DemoVerifyBody.self, from: request)
        return try await presentations.verifySession(body.sessionId, credential: body.credential, at: presentations.clock.now(),
                                                     for: integrator)
    }
}
