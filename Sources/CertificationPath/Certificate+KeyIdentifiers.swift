import X509

extension Certificate {
    /// The keyIdentifier of the AuthorityKeyIdentifier extension (RFC 5280 §4.2.1.1), the bytes OpenID4VP's `aki`
    /// trusted-authority values and ISO 18013-5's `issuerIdentifiers` name; nil when absent or unreadable.
    public var authorityKeyIdentifierBytes: [UInt8]? {
        guard let extensionValue = try? extensions.authorityKeyIdentifier, let identifier = extensionValue.keyIdentifier else { return nil }
        return Array(identifier)
    }

    /// The keyIdentifier of the SubjectKeyIdentifier extension (RFC 5280 §4.2.1.2): what the AuthorityKeyIdentifier
    /// of a certificate this one issued names; nil when absent or unreadable.
    public var subjectKeyIdentifierBytes: [UInt8]? {
        guard let extensionValue = try? extensions.subjectKeyIdentifier else { return nil }
        return Array(extensionValue.keyIdentifier)
    }
}
