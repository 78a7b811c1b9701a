import Foundation

/// What the verifier expects of a KB-JWT (RFC 9901 7.3): the nonce it issued, the audience it is known by, and the
/// window `iat` must fall in.
public struct KeyBindingExpectation: Sendable, Equatable {
    public let nonce: String
    /// `origin:<origin>` over the Digital Credentials API; the full client id (with its prefix) otherwise.
    public let audience: String
    /// Earliest accepted `iat` (e.g. when the request was made, less the clock skew).
    public let notBefore: Date
    /// Latest accepted `iat` (now plus the clock skew).
    public let notAfter: Date

    public init(nonce: String, audience: String, notBefore: Date, notAfter: Date) {
        self.nonce = nonce
        self.audience = audience
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}
