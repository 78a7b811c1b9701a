import Foundation
import HTTPServer
import HTTPTypes
import OpenID4VP
import SessionStore
import StrictJSON

/// `GET /v1/oid4vp/sessions/{id}/result`: the integrator reads a cross-device session's result once, by polling or
/// by a long poll.
struct CrossDeviceResultHandler: Sendable {
    let oid4vp: ServiceConfiguration.OpenID4VP?
    let sessions: SessionGate
    /// Long polls on the result route, woken by this process's wallet posts.
    let waiters: ResultWaiters
    /// Whether the store is shared with other replicas (a waiting poll then re-reads it).
    let sharedStore: Bool

    /// `GET /v1/oid4vp/sessions/{id}/result[?wait=N]`: 202 while the wallet has not answered, then the report once,
    /// then 409. With `wait` (seconds, at most ``ResultWaiters/maximumWaitSeconds``) a pending poll is held until the
    /// wallet's answer is stored (answered at once when it reaches this process; a replica on a shared store also
    /// re-reads it every ``ResultWaiters/sharedStoreInterval``) or the wait ends, then answers as without it.
    func result(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(oid4vp, "oid4vp")
        let id = request.pathParameters["id"] ?? ""
        var wait = 0
        if let text = request.query("wait") {
            guard let seconds = Int(text), (0...ResultWaiters.maximumWaitSeconds).contains(seconds), text.utf8.count <= 2 else {
                throw ServiceProblem.invalidRequest("wait is a whole number of seconds from 0 to \(ResultWaiters.maximumWaitSeconds)")
            }
            wait = seconds
        }
        guard SessionIdentifier.isWellFormed(id) else { throw ServiceProblem.sessionNotFound() }
        let resultId = CrossDeviceIdentifiers.resultId(responseId: CrossDeviceIdentifiers.responseId(sessionId: id))
        let deadline = ContinuousClock.now + .seconds(wait)
        while true {
            if let answer = try await resultOnce(request, sessionId: id, for: integrator) { return answer }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            let slice = sharedStore ? min(left, ResultWaiters.sharedStoreInterval) : left
            guard await waiters.wait(for: resultId, timeout: slice) else { break }
        }
        var response = HTTPServerResponse.json(JSON.object([("status", .string("pending"))]), status: .accepted)
        response.head.headerFields[.retryAfter] = "1"
        return response
    }

    /// One read of the result: the answer to give, or nil while it is pending.
    private func resultOnce(_ request: HTTPServerRequest, sessionId id: String, for integrator: Integrator)
        async throws(ServiceProblem) -> HTTPServerResponse?
    {
        let notFound = ServiceProblem.sessionNotFound()
        let responseId = CrossDeviceIdentifiers.responseId(sessionId: id)
        switch await sessions.takeFilled(CrossDeviceIdentifiers.resultId(responseId: responseId), kind: .oid4vpResult, owner: integrator) {
        case .taken(let record):
            guard let result = CrossDeviceResult(encoded: record.payload.bytes) else {
                throw ServiceProblem.sessionUnreadable("the stored result could not be read")
            }
            // The result is taken either way: a presentation whose response code does not come back is discarded.
            guard result.isReleased(to: request.query("response_code")) else {
                throw ServiceProblem(.forbidden, "RESPONSE_CODE_MISMATCH",
                                     "response_code is not the one the wallet's redirect carried; the presentation is discarded")
            }
            var response = HTTPServerResponse.json(result.report, status: result.verified ? .ok : .unprocessableContent)
            response.logAnnotations = ["outcome": result.verified ? "verified" : "NOT_VERIFIED"]
            return response
        case .alreadyUsed:
            throw ServiceProblem.sessionAlreadyUsed("this result was already fetched")
        case .unavailable(let reason):
            throw SessionGate.storeUnavailable(reason)
        case .expired:
            throw ServiceProblem.sessionExpired("the result was not fetched in time, or no answer was stored in time")
        case .notFound:
            throw notFound
        case .pending:
            break
        }
        // The reservation is still empty: waiting for the wallet, or its answer is being verified; a session that
        // expired unanswered ends the poll.
        switch await sessions.presence(responseId, kind: .oid4vpCrossDevice, owner: integrator) {
        case .open, .alreadyUsed:
            return nil
        case .expired, .notFound:
            throw ServiceProblem.sessionExpired("this session expired before the wallet answered")
        case .unavailable(let reason):
            throw SessionGate.storeUnavailable(reason)
        }
    }
}
