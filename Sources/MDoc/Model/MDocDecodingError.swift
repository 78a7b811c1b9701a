import CBOR

/// Why bytes could not be read as an ISO 18013-5 structure: what was expected, and where.
public struct MDocDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    /// Offset in the outermost input, when known.
    public let offset: Int?
    /// The response-level code: `DEVICE_RESPONSE_MALFORMED`, or `DEVICE_RESPONSE_LIMIT_EXCEEDED` when the response
    /// is well formed but asks for more work than one request may cost.
    public let code: FailureCode

    public init(_ reason: String, offset: Int?, code: FailureCode = .deviceResponseMalformed) {
        self.reason = reason
        self.offset = offset
        self.code = code
    }

    init(_ error: CBORDecodingError, context: String) {
        self.init("\(context): \(error)", offset: error.offset)
    }

    public var description: String {
        offset.map { "\(reason) (offset \($0))" } ?? reason
    }
}
