import Crypto
import Encodings

/// The identifiers of a cross-device session (OpenID4VP 1.0 §14.3). The caller's session id stays with the caller;
/// the wallet sees only the response id (the last segment of its response URI) and the request object's id, derived
/// one way from it, so it cannot compute the handle the result is read with; the result is kept under an id of its
/// own, derived from the response id.
public enum CrossDeviceIdentifiers {
    /// The id in the session's response URI, and the session's store id.
    public static func responseId(sessionId: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array("oid4vp-response:\(sessionId)".utf8))))
    }

    /// The id in the session's request URI, derived from the response id, so that the session's answer can retire
    /// its request object (both are the wallet's to know).
    public static func requestObjectId(responseId: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array("oid4vp-request-object:\(responseId)".utf8))))
    }

    /// Where the session's result is kept.
    public static func resultId(responseId: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array("oid4vp-result:\(responseId)".utf8))))
    }
}
