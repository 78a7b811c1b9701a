/// Why a certificate cannot serve as a trusted IACA root.
public enum TrustAnchorError: Error, Sendable, Equatable, CustomStringConvertible {
    case unparsable(source: String?, reason: String)
    case notCertificateAuthority(source: String?, subject: String)
    case missingKeyCertSign(source: String?, subject: String)
    case unreadable(source: String, reason: String)

    /// A stable code for APIs.
    public var code: String {
        switch self {
        case .unparsable, .unreadable: return "IACA_UNPARSABLE"
        case .notCertificateAuthority: return "IACA_NOT_CA"
        case .missingKeyCertSign: return "IACA_NO_KEY_CERT_SIGN"
        }
    }

    public var description: String {
        func from(_ source: String?) -> String { source.map { " (\($0))" } ?? "" }
        switch self {
        case .unparsable(let source, let reason): return "not a certificate\(from(source)): \(reason)"
        case .notCertificateAuthority(let source, let subject):
            return "\(subject)\(from(source)) is not a CA certificate (basicConstraints cA is not set)"
        case .missingKeyCertSign(let source, let subject):
            return "\(subject)\(from(source)) may not sign certificates (keyUsage keyCertSign is not set)"
        case .unreadable(let source, let reason): return "cannot read \(source): \(reason)"
        }
    }
}
