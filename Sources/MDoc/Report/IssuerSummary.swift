import Foundation

/// Who issued a document, as far as the certificates tell.
public struct IssuerSummary: Sendable, Equatable {
    /// Subject of the document signer certificate.
    public let documentSignerSubject: String?
    /// Subject of the trusted IACA the chain ends in, if any.
    public let iacaSubject: String?
    /// Lowercase hex SHA-256 of the IACA certificate DER.
    public let iacaSHA256: String?
    /// countryName of the DS (or else of the IACA).
    public let country: String?
    public let documentSignerNotBefore: Date?
    public let documentSignerNotAfter: Date?
}
