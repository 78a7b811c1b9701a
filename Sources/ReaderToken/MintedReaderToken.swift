import Foundation

/// A signed reader token and its validity window.
public struct MintedReaderToken: Sendable, Equatable {
    /// The JWS compact serialization `header.payload.signature`.
    public let token: String
    /// The `iat` claim (whole seconds).
    public let issuedAt: Date
    /// The `exp` claim (whole seconds).
    public let expiresAt: Date
}
