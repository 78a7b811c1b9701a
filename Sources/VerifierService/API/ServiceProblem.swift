import StrictJSON
import HTTPServer
import HTTPTypes

/// Errors the service answers with: `application/problem+json` (RFC 9457) with a stable `code`.
public struct ServiceProblem: Error, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let detail: String
    var headers: HTTPFields = [:]
    /// Added to the request's access-log line.
    var logAnnotations: [String: String] = [:]
    /// Nothing about the answer was decided (the proof pool had no room for it): the one-time session it was taken
    /// from is put back, so that the same answer can be sent again (``SessionGate/take(_:as:for:judging:)``).
    var leftAnswerUnjudged = false

    init(_ status: HTTPResponse.Status, _ code: String, _ detail: String) {
        self.status = status
        self.code = code
        self.detail = detail
    }

    /// The one scheme of every problem `type`, the service's and the HTTP layer's alike: this base, then the code in
    /// lower case with dashes (`https://verifierd.example/problems/session-not-found`).
    public static let typeBase = "https://verifierd.example/problems/"

    var response: HTTPServerResponse {
        let problem = HTTPProblem(
            type: Self.typeBase + code.lowercased().replacingOccurrences(of: "_", with: "-"),
            title: status.reasonPhrase, status: status.code, detail: detail, code: code)
        var response = HTTPServerResponse.problem(problem)
        for field in headers { response.head.headerFields.append(field) }
        response.logAnnotations = logAnnotations.merging(["code": code]) { current, _ in current }
        return response
    }

    static func invalidRequest(_ detail: String) -> ServiceProblem {
        ServiceProblem(.badRequest, "INVALID_REQUEST", detail)
    }

    /// 401 `UNAUTHORIZED` with `WWW-Authenticate: Bearer` (admin, integrator and client tokens alike).
    static func unauthorized(_ detail: String) -> ServiceProblem {
        ServiceProblem(.unauthorized, "UNAUTHORIZED", detail).with(.wwwAuthenticate, "Bearer")
    }

    /// The same problem with one more header field (e.g. `Retry-After`).
    func with(_ name: HTTPField.Name, _ value: String) -> ServiceProblem {
        var problem = self
        problem.headers[name] = value
        return problem
    }
}

extension HTTPServerResponse {
    static func json(_ value: JSON, status: HTTPResponse.Status = .ok) -> HTTPServerResponse {
        .json(value.serialized(), status: status)
    }
}
