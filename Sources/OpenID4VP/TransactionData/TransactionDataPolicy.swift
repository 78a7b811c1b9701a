/// Which transaction data types an operator accepts (`oid4vp.transactionDataTypes`), each with the JSON Schema its
/// entries must meet when the operator gives one.
public struct TransactionDataPolicy: Sendable {
    public struct AllowedType: Sendable {
        /// The `type` value, compared exactly.
        public let type: String
        public let schema: TransactionDataSchema?
        /// The member the schema applies to (TS12's `payload`), which must then be present; nil: the whole entry.
        public let schemaMember: String?

        public init(type: String, schema: TransactionDataSchema? = nil, schemaMember: String? = nil) {
            self.type = type
            self.schema = schema
            self.schemaMember = schemaMember
        }
    }

    public let types: [AllowedType]

    public init(types: [AllowedType]) {
        self.types = types
    }

    /// No type: every request with transaction data is refused.
    public static let none = TransactionDataPolicy(types: [])

    public func allowed(_ type: String) -> AllowedType? { types.first { $0.type == type } }
}
