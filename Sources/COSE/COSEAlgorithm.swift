/// COSE algorithms this project verifies (RFC 9053).
public enum COSEAlgorithm: Int64, Sendable, CaseIterable, CustomStringConvertible {
    /// ECDSA with SHA-256 on P-256.
    case es256 = -7
    /// ECDSA with SHA-384 on P-384.
    case es384 = -35
    /// ECDSA with SHA-512 on P-521.
    case es512 = -36
    /// HMAC with SHA-256, 256-bit tag.
    case hmac256 = 5

    /// The curve an ECDSA algorithm is defined for (ISO 18013-5 pairs each alg with one curve).
    public var curve: COSECurve? {
        switch self {
        case .es256: return .p256
        case .es384: return .p384
        case .es512: return .p521
        case .hmac256: return nil
        }
    }

    public var description: String {
        switch self {
        case .es256: return "ES256"
        case .es384: return "ES384"
        case .es512: return "ES512"
        case .hmac256: return "HMAC 256/256"
        }
    }
}

/// Elliptic curves of COSE EC2 keys (RFC 9053 table 18).
public enum COSECurve: Int64, Sendable, CaseIterable, CustomStringConvertible {
    case p256 = 1
    case p384 = 2
    case p521 = 3

    /// Size in bytes of one coordinate, and of each of r and s in a signature.
    public var coordinateByteCount: Int {
        switch self {
        case .p256: return 32
        case .p384: return 48
        case .p521: return 66
        }
    }

    public var description: String {
        switch self {
        case .p256: return "P-256"
        case .p384: return "P-384"
        case .p521: return "P-521"
        }
    }
}

/// Header labels we read (RFC 9052 section 3.1, RFC 9360).
public enum COSEHeaderLabel {
    public static let algorithm: Int64 = 1
    public static let critical: Int64 = 2
    public static let contentType: Int64 = 3
    public static let keyIdentifier: Int64 = 4
    public static let x5chain: Int64 = 33

    /// The labels this library processes, and so the only ones a `crit` header may list.
    public static let understood: Set<Int64> = [algorithm, critical, contentType, keyIdentifier, x5chain]
}
