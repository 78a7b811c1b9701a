import StrictJSON

/// How a wallet fetches a cross-device request object (OpenID4VP 1.0 §5.10): by GET, or by POST with the form
/// parameters of §5.10.1, read strictly (each at most once, bounded; parameters verifierd does not know ignored, as
/// the section requires).
public enum RequestObjectFetch: Sendable, Equatable {
    case get
    /// `wallet_nonce` (echoed in the request object) and `wallet_metadata` (taken into account), both optional.
    case post(walletNonce: String?, walletMetadata: WalletMetadata?)

    /// The longest `wallet_nonce` accepted.
    public static let maximumNonceBytes = 256

    /// A POST body's fields (`application/x-www-form-urlencoded`, each name once).
    public static func post(fields: [String: String]) throws(RequestObjectRefusal) -> RequestObjectFetch {
        var nonce: String?
        if let text = fields["wallet_nonce"] {
            guard !text.isEmpty, text.utf8.count <= maximumNonceBytes,
                  text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" })
            else {
                throw RequestObjectRefusal(.invalidRequest, "wallet_nonce is not 1 to \(maximumNonceBytes) printable ASCII characters")
            }
            nonce = text
        }
        var metadata: WalletMetadata?
        if let text = fields["wallet_metadata"] {
            do {
                metadata = try WalletMetadata(text)
            } catch {
                throw RequestObjectRefusal(.invalidRequest, error.detail)
            }
        }
        return .post(walletNonce: nonce, walletMetadata: metadata)
    }
}

/// Why a request object is not served to a wallet: an OAuth error (RFC 6749 §5.2 form: `error`, `error_description`),
/// answered with HTTP 400; the wallet then ends the flow (§5.10.2).
public struct RequestObjectRefusal: Error, Sendable, Equatable {
    public enum Code: String, Sendable {
        case invalidRequest = "invalid_request"
        /// The wallet supports none of the formats, or none of their algorithms, the request asks for (§8.5).
        case vpFormatsNotSupported = "vp_formats_not_supported"
    }

    public let code: Code
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The body: `{"error", "error_description"}`.
    public var body: JSON { .object([("error", .string(code.rawValue)), ("error_description", .string(detail))]) }
}
