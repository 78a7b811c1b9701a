import Foundation

/// What a cross-device flow shows as a QR code: `openid4vp://?client_id=…&request_uri=…` (OpenID4VP 1.0 §5.7, with
/// the request passed by reference, §5.10), each value form-encoded.
public enum CrossDeviceAuthorizationRequest {
    public static func uri(clientId: String, requestURI: String) -> String {
        "openid4vp://?client_id=\(formEncoded(clientId))&request_uri=\(formEncoded(requestURI))"
    }

    /// `application/x-www-form-urlencoded` for a value: unreserved characters stay, everything else is percent-encoded.
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
