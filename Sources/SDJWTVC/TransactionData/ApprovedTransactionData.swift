import StrictJSON

/// One transaction data entry the holder's key approved in a KB-JWT: holder-asserted, reported apart from the
/// issuer's claims so that the integrator executes exactly this and nothing else.
public struct ApprovedTransactionData: Sendable, Equatable {
    /// The entry's position in the request's `transaction_data`.
    public let index: Int
    public let type: String
    public let hashAlgorithm: TransactionDataHashAlgorithm
    /// base64url of the digest the KB-JWT carried (equal to the digest of the string sent).
    public let hash: String
    /// The decoded entry, when the caller asked for objects in the report.
    public let object: JSON?

    public init(index: Int, type: String, hashAlgorithm: TransactionDataHashAlgorithm, hash: String, object: JSON?) {
        self.index = index
        self.type = type
        self.hashAlgorithm = hashAlgorithm
        self.hash = hash
        self.object = object
    }
}
