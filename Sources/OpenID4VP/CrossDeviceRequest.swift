import Foundation
import SessionStore
import StrictJSON

/// A cross-device request as it is opened (OpenID4VP 1.0 §5, `direct_post.jwt`, the request passed by reference):
/// the request object served at its request URI (``CrossDeviceRequestObject``: fetched again, by GET or POST, while
/// the session waits), the session the wallet's answer is verified against (kept under the response id, §14.3), the
/// room reserved for the result (a session and its result are one budget, so storing the result can never be
/// refused), and the authorization request the caller shows as a QR code or link.
public struct CrossDeviceRequest: Sendable {
    public let request: OpenID4VPRequest
    /// The wallet's authorization endpoint with `client_id`, `request_uri` (and `request_uri_method=post`).
    public let authorizationRequest: String
    let sessionId: String
    let requestObjectId: String

    /// A request for the caller's `sessionId`; `responseURI` and `requestObjectURI` place the response id and the
    /// request object's id in this service's URLs; `endpoint` and `method` make the authorization request.
    public init(sessionId: String, query: DCQLQuery, signer: RequestObjectSigner, redirectURI: RedirectURI?,
                endpoint: WalletAuthorizationEndpoint = .openID4VP, method: RequestURIMethod = .get, verifierInfo: [JSON] = [],
                transactionData: TransactionData? = nil,
                responseURI: (_ responseId: String) -> String, requestObjectURI: (_ requestObjectId: String) -> String) throws {
        self.sessionId = sessionId
        requestObjectId = CrossDeviceIdentifiers.requestObjectId(responseId: CrossDeviceIdentifiers.responseId(sessionId: sessionId))
        request = try OpenID4VPRequest(responseURI: responseURI(CrossDeviceIdentifiers.responseId(sessionId: sessionId)),
                                       query: query, signer: signer, redirectURI: redirectURI?.text, callerSessionId: sessionId,
                                       verifierInfo: verifierInfo, transactionData: transactionData)
        authorizationRequest = endpoint.uri(clientId: signer.clientId, requestURI: requestObjectURI(requestObjectId), method: method)
    }

    /// What is stored, in this order: the result's reservation (an empty record that only the wallet's answer fills,
    /// kept ``CrossDeviceResult/keptAfterSession`` longer), the session under the response id, the request object.
    public func records(createdAt: Date, expiresAt: Date) -> [SessionRecord] {
        let responseId = CrossDeviceIdentifiers.responseId(sessionId: sessionId)
        return [
            SessionRecord(id: CrossDeviceIdentifiers.resultId(responseId: responseId), kind: .oid4vpResult, createdAt: createdAt,
                          expiresAt: expiresAt.addingTimeInterval(CrossDeviceResult.keptAfterSession), payload: SecretBytes([])),
            request.session.record(id: responseId, createdAt: createdAt, expiresAt: expiresAt),
            CrossDeviceRequestObject(claims: request.parameters, responseId: responseId)
                .record(id: requestObjectId, createdAt: createdAt, expiresAt: expiresAt),
        ]
    }
}
