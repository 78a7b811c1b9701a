import Foundation
import MDoc
import StrictJSON

/// What the wallet returned (OpenID4VP 1.0 Appendix A.4 and 8): an encrypted response, a `vp_token` in the clear,
/// or an error instead of a presentation.
public enum WalletAnswer: Sendable, Equatable {
    /// `{"response": "<compact JWE>"}` (`dc_api.jwt`), or the `response` form field (`direct_post.jwt`).
    case encrypted(String)
    /// `{"vp_token": {...}}` (`dc_api`).
    case plain(VPToken)
    /// `{"error": "access_denied", "error_description"?}`.
    case error(code: String, description: String?)

    /// The members of `DigitalCredential.data`; other members are ignored, as the wallet's to add.
    public struct Data: Decodable, Sendable {
        public let response: String?
        public let vp_token: VPToken?
        public let error: String?
        public let error_description: String?
    }

    /// Exactly one of `response`, `vp_token` and `error`.
    public init(_ data: Data) throws(ResponseFailure) {
        switch (data.response, data.vp_token, data.error) {
        case (let response?, nil, nil): self = .encrypted(response)
        case (nil, let token?, nil): self = .plain(token)
        case (nil, nil, let error?): self = .error(code: String(error.prefix(128)), description: data.error_description.map { String($0.prefix(512)) })
        default:
            throw ResponseFailure(.envelopeMalformed, "the wallet's answer must hold exactly one of response, vp_token and error")
        }
    }
}

/// `vp_token`: DCQL credential ids to arrays of presentations (for mso_mdoc, base64url DeviceResponses).
public struct VPToken: Decodable, Sendable, Equatable {
    public static let maximumCredentials = 16
    public static let maximumPresentations = 8

    public let presentations: [String: [String]]

    public init(presentations: [String: [String]]) {
        self.presentations = presentations
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        presentations = try container.decode([String: [String]].self)
    }

    /// The `vp_token` of a decrypted response: a JSON object (one value, no repeated names) with `vp_token`.
    public static func fromDecryptedResponse(_ plaintext: [UInt8]) throws(ResponseFailure) -> VPToken {
        struct Payload: Decodable { let vp_token: VPToken }
        guard JSONSyntaxScan.check(plaintext) == nil else {
            throw ResponseFailure(.vpTokenMalformed, "the decrypted response is not one JSON object without repeated names")
        }
        do {
            return try JSONDecoder().decode(Payload.self, from: Foundation.Data(plaintext)).vp_token
        } catch {
            throw ResponseFailure(.vpTokenMalformed, "the decrypted response has no vp_token of credential ids to arrays of strings")
        }
    }
}
