/// Why the parser rejected a request: the status kind to answer and what exactly happened.
public struct HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error, which gives the status and the stable code.
    public var kind: HTTPServerErrorKind
    /// What happened, for the problem document's `detail`.
    public var detail: String

    /// Creates a parse error.
    public init(_ kind: HTTPServerErrorKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }

    static func malformed(_ detail: String) -> HTTPParseError { .init(.malformedRequest, detail) }
}
