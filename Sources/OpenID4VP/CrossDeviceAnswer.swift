import Foundation
import SessionStore
import StrictJSON

/// What a wallet's answer to a cross-device session becomes once judged (OpenID4VP 1.0 §8.2, §14.2, HAIP §5.1): the
/// result the caller reads, with a fresh response code when the caller gave a redirect URI (the result is released
/// only to whoever presents it, so an answer given in another browser is refused), and the wallet's reply: `{}`, or
/// `{"redirect_uri": <the caller's page>#response_code=<code>}`. The wallet never learns the verdict.
public struct CrossDeviceAnswer: Sendable {
    public let result: CrossDeviceResult
    /// What the response URI answers the wallet.
    public let walletReply: JSON

    /// `report` is the verdict as the caller receives it (its JSON).
    public init(verdict: OpenID4VPVerdict, session: OpenID4VPSession, report: [UInt8]) {
        let responseCode = session.redirectURI == nil ? nil : SessionIdentifier.make()
        result = CrossDeviceResult(verified: verdict.verified, responseCode: responseCode, report: report)
        walletReply = JSON.object([
            ("redirect_uri", session.redirectURI.map { JSON.string("\($0)#response_code=\(responseCode ?? "")") }),
        ])
    }
}
