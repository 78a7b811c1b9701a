/// Errors raised while configuring or minting reader tokens.
///
/// Every case has a stable, machine-readable ``code``. Messages never contain
/// private key material or the rejected reader instance identifier itself.
public enum ReaderTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A configuration field is invalid; `field` names it, `reason` says why.
    case invalidConfiguration(field: String, reason: String)
    /// The reader instance identifier is not 1...256 printable ASCII characters.
    case invalidReaderInstanceIdentifier(reason: String)
    /// The injected clock value cannot be expressed as a JWT NumericDate.
    case invalidIssuedAt(reason: String)
    /// The PEM text does not hold a usable P-256 private key.
    case invalidSigningKey(reason: String)
    /// The ECDSA signing operation failed.
    case signingFailed
    /// The private key file could not be written.
    case keyFileWriteFailed(path: String, reason: String)

    /// Stable error code, suitable for API responses and logs.
    public var code: String {
        switch self {
        case .invalidConfiguration: "INVALID_READER_TOKEN_CONFIGURATION"
        case .invalidReaderInstanceIdentifier: "INVALID_READER_INSTANCE_IDENTIFIER"
        case .invalidIssuedAt: "INVALID_ISSUED_AT"
        case .invalidSigningKey: "INVALID_SIGNING_KEY"
        case .signingFailed: "SIGNING_FAILED"
        case .keyFileWriteFailed: "KEY_FILE_WRITE_FAILED"
        }
    }

    /// Human-readable message (no secrets).
    public var message: String {
        switch self {
        case let .invalidConfiguration(field, reason): "\(field) \(reason)"
        case let .invalidReaderInstanceIdentifier(reason): "readerInstanceIdentifier \(reason)"
        case let .invalidIssuedAt(reason): "now \(reason)"
        case let .invalidSigningKey(reason): "signing key \(reason)"
        case .signingFailed: "ES256 signing failed"
        case let .keyFileWriteFailed(path, reason): "cannot write private key to \(path): \(reason)"
        }
    }

    public var description: String { "\(code): \(message)" }
}
