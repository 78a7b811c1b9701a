/// One disclosed data element.
public struct Claim: Sendable, Equatable {
    public enum Source: String, Sendable, Codable {
        case issuerSigned
        case deviceSigned
    }

    public let nameSpace: String
    public let identifier: String
    public let value: ElementValue
    public let source: Source
    /// True only when the document verified and, for issuer-signed elements, this element's own digest matched.
    public let verified: Bool
}
