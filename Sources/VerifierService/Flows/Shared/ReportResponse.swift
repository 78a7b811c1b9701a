import HTTPServer
import MDoc
import OpenID4VP
import ReportEncoding
import StrictJSON

extension HTTPServerResponse {
    /// 200 with claims, or 422 with the checks; response-level input problems (nothing to verify) are 400.
    /// `extra` members are appended to the report object (e.g. the proximity `reply`). The outcome code goes into
    /// the request's single access-log line (never claims or details), where the route's meter reads it.
    static func report(_ report: VerificationReport, extra: [(String, JSON?)] = []) throws(ServiceProblem) -> HTTPServerResponse {
        let outcome = report.verified ? "verified" : (report.failureCode?.rawValue ?? "NOT_VERIFIED")
        if let code = report.failureCode, report.documents.isEmpty,
           [.envelopeMalformed, .envelopeUnsupported, .nonceInvalid, .sessionTranscriptMalformed,
            .sessionDataMalformed].contains(code)
        {
            var problem = ServiceProblem(.badRequest, code.rawValue, report.failureDetail ?? code.rawValue)
            problem.logAnnotations = ["outcome": outcome]
            throw problem
        }
        if let problem = ServiceProblem.unjudged(report) { throw problem }
        var response = HTTPServerResponse.json(ReportJSON.bytes(report, includeClaims: true, extra: extra),
                                               status: report.verified ? .ok : .unprocessableContent)
        response.logAnnotations = ["outcome": outcome]
        return response
    }

    /// A verdict as ``report(_:extra:)`` answers a report: 200 verified, 422 not, 400 for the input problems that
    /// leave nothing to verify.
    static func verdict(_ verdict: OpenID4VPVerdict, extra: [(String, JSON?)] = []) throws(ServiceProblem) -> HTTPServerResponse {
        guard !verdict.documents.isEmpty else { return try .report(verdict.report, extra: extra) }
        var response = HTTPServerResponse.json(VerdictJSON.bytes(verdict, includeClaims: true, extra: extra),
                                               status: verdict.verified ? .ok : .unprocessableContent)
        response.logAnnotations = ["outcome": verdict.verified ? "verified" : (verdict.failureCode?.rawValue ?? "NOT_VERIFIED")]
        return response
    }
}

extension ServiceProblem {
    /// 503 `ZK_CAPACITY_EXHAUSTED` with `Retry-After` for a report refused for want of proof capacity: nothing about
    /// the response was decided (no report), and the one-time session it came with is put back
    /// (``leftAnswerUnjudged``). Nil for every report that was judged.
    static func unjudged(_ report: VerificationReport) -> ServiceProblem? {
        guard report.documents.isEmpty, let code = report.failureCode, code == .zkCapacityExhausted,
              let seconds = report.retryAfterSeconds else { return nil }
        var problem = ServiceProblem(.serviceUnavailable, code.rawValue, report.failureDetail ?? code.rawValue)
            .with(.retryAfter, String(seconds))
        problem.logAnnotations = ["outcome": code.rawValue]
        problem.leftAnswerUnjudged = true
        return problem
    }
}
