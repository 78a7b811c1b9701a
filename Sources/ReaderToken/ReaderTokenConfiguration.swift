/// Static settings for minting reader tokens, validated on creation.
public struct ReaderTokenConfiguration: Sendable, Equatable {
    /// Apple's maximum token lifetime: `exp` must be no later than `iat + 300`.
    public static let maximumLifetimeSeconds = 300
    /// Allowed range for ``lifetimeSeconds``.
    public static let lifetimeRange = 1...maximumLifetimeSeconds
    /// Maximum length (in UTF-8 bytes) of ``brandId`` and ``keyId``.
    public static let maximumFieldLength = 256

    /// Brand ID from Apple Business Register; becomes the `iss` claim.
    public let brandId: String
    /// Key identifier from Apple Business Register; becomes the `kid` header.
    public let keyId: String
    /// Token lifetime in whole seconds (`exp - iat`), 1...300.
    public let lifetimeSeconds: Int

    /// Validates and creates a configuration.
    /// - Throws: ``ReaderTokenError/invalidConfiguration(field:reason:)``.
    public init(brandId: String, keyId: String, lifetimeSeconds: Int = maximumLifetimeSeconds) throws(ReaderTokenError) {
        try Self.validateText(brandId, field: "brandId")
        try Self.validateText(keyId, field: "keyId")
        guard Self.lifetimeRange.contains(lifetimeSeconds) else {
            throw .invalidConfiguration(
                field: "lifetimeSeconds",
                reason: "must be \(Self.lifetimeRange.lowerBound)...\(Self.lifetimeRange.upperBound), got \(lifetimeSeconds)"
            )
        }
        self.brandId = brandId
        self.keyId = keyId
        self.lifetimeSeconds = lifetimeSeconds
    }

    private static func validateText(_ value: String, field: String) throws(ReaderTokenError) {
        if value.isEmpty {
            throw .invalidConfiguration(field: field, reason: "must not be empty")
        }
        if value.utf8.count > maximumFieldLength {
            throw .invalidConfiguration(
                field: field, reason: "must be at most \(maximumFieldLength) bytes, got \(value.utf8.count)")
        }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .invalidConfiguration(field: field, reason: "must not contain control characters")
        }
        if value.unicodeScalars.first!.properties.isWhitespace || value.unicodeScalars.last!.properties.isWhitespace {
            throw .invalidConfiguration(field: field, reason: "must not have leading or trailing whitespace")
        }
    }
}
