/// Why a request's `transaction_data` was refused before anything was sent; each kind is its own stable code.
public struct TransactionDataRefusal: Error, Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Not 1 to 8 objects within the size bounds, a member missing or of the wrong type, `credential_ids` naming
        /// no credential query of this request, an algorithm verifierd cannot compute.
        case invalid = "TRANSACTION_DATA_INVALID"
        /// `type` is not one the configuration accepts.
        case typeNotAllowed = "TRANSACTION_DATA_TYPE_NOT_ALLOWED"
        /// The type's JSON Schema refuses the entry.
        case schemaMismatch = "TRANSACTION_DATA_SCHEMA_MISMATCH"
        /// No presentation of the credentials named could bind it: an `mso_mdoc` query (no binding the sources agree
        /// on), or a `dc+sd-jwt` query without cryptographic holder binding.
        case notBindable = "TRANSACTION_DATA_NOT_BINDABLE"
    }

    public let kind: Kind
    /// Names the entry and the member; never quotes a value.
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }
}
