/// The transaction data one presented SD-JWT VC may approve: the request's `transaction_data` entries whose
/// `credential_ids` name its credential query, in request order, each as the exact string sent.
public struct TransactionDataExpectation: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// The entry's position in the request's `transaction_data` array.
        public let index: Int
        /// The base64url string exactly as sent: what the holder hashes (never decoded first).
        public let encoded: String
        public let type: String
        /// `transaction_data_hashes_alg`, or nil when the entry has no such member (then only sha-256 is offered,
        /// and the KB-JWT need not name it).
        public let hashAlgorithms: [TransactionDataHashAlgorithm]?
        /// True when this credential is the only one that can approve the entry (its `credential_ids` name only this
        /// query, which allows one presentation): the KB-JWT must then approve it.
        public let required: Bool

        public init(index: Int, encoded: String, type: String, hashAlgorithms: [TransactionDataHashAlgorithm]?, required: Bool) {
            self.index = index
            self.encoded = encoded
            self.type = type
            self.hashAlgorithms = hashAlgorithms
            self.required = required
        }

        /// What the entry lets the holder hash with.
        public var offered: [TransactionDataHashAlgorithm] { hashAlgorithms ?? [.default] }
    }

    /// Entries addressed to this credential; empty when none is (then the KB-JWT must approve nothing).
    public let entries: [Entry]
    /// Whether the report carries each approved entry's decoded object (the caller's `transactionDataReport: "objects"`).
    public let reportsObjects: Bool

    public init(entries: [Entry], reportsObjects: Bool = false) {
        self.entries = entries
        self.reportsObjects = reportsObjects
    }
}
