import CBOR

/// Why bytes could not be read as an ISO 18013-5 structure: what was expected, and where.
public struct MDocDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    /// Offset in the outermost input, when known.
    public let offset: Int?

    public init(_ reason: String, offset: Int?) {
        self.reason = reason
        self.offset = offset
    }

    init(_ error: CBORDecodingError, context: String) {
        self.init("\(context): \(error)", offset: error.offset)
    }

    public var description: String {
        offset.map { "\(reason) (offset \($0))" } ?? reason
    }
}
