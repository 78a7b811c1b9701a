import Crypto

/// A hash algorithm for `transaction_data_hashes` (OpenID4VP 1.0 B.3.3.1), by its name in the IANA "Named
/// Information Hash Algorithm" registry. verifierd computes exactly these three; a request never offers another.
public enum TransactionDataHashAlgorithm: String, Sendable, CaseIterable, Equatable {
    case sha256 = "sha-256"
    case sha384 = "sha-384"
    case sha512 = "sha-512"

    /// The digest of `bytes`.
    public func digest(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .sha256: return Array(SHA256.hash(data: bytes))
        case .sha384: return Array(SHA384.hash(data: bytes))
        case .sha512: return Array(SHA512.hash(data: bytes))
        }
    }

    /// The algorithm a wallet must use when an entry offers none (B.3.3.1).
    public static let `default` = TransactionDataHashAlgorithm.sha256
}
