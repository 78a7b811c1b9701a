import Foundation

/// Where a cross-device authorization request sends the wallet (OpenID4VP 1.0 §5.7, the request passed by reference,
/// §5.10): `openid4vp://` (the default), a custom scheme of a profile (HAIP's `haip-vp://`), or the https URL of a
/// web wallet's authorization endpoint (the OpenID Foundation's conformance suite publishes one). The QR code or deep
/// link is the endpoint with `client_id`, `request_uri` and, when it is not the default, `request_uri_method`.
public struct WalletAuthorizationEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// `scheme://` or `https://host[:port]/path`.
    public let text: String

    public static let openID4VP = WalletAuthorizationEndpoint(checked: "openid4vp://")

    private init(checked text: String) { self.text = text }

    /// Nil unless `text` is a custom scheme alone (`[a-z][a-z0-9+.-]*://`, not http or https) or an https URL with a
    /// host and without user info, query or fragment; at most 2048 bytes.
    public init?(_ text: String) {
        guard text.utf8.count <= 2_048, let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
              scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0) })
        else { return nil }
        if scheme == "https" {
            guard let url = URLComponents(string: text), let host = url.host, !host.isEmpty, url.user == nil, url.password == nil,
                  url.query == nil, url.fragment == nil else { return nil }
        } else {
            guard scheme != "http", separator.upperBound == text.endIndex else { return nil }
        }
        self.text = text
    }

    public var description: String { text }

    /// The authorization request: `client_id`, `request_uri` and, for `post`, `request_uri_method=post`, each value
    /// form-encoded.
    public func uri(clientId: String, requestURI: String, method: RequestURIMethod) -> String {
        var query = "client_id=\(Self.formEncoded(clientId))&request_uri=\(Self.formEncoded(requestURI))"
        if method == .post { query += "&request_uri_method=post" }
        return text + "?" + query
    }

    /// `application/x-www-form-urlencoded` for a value: unreserved characters stay, everything else is percent-encoded.
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// How the wallet fetches the request object (OpenID4VP 1.0 §5.1 `request_uri_method`).
public enum RequestURIMethod: String, Sendable, CaseIterable {
    case get
    /// The wallet POSTs `wallet_nonce` and `wallet_metadata` (§5.10.1) and gets a request object made for them.
    case post
}
