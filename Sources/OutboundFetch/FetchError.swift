/// Why a fetch produced no usable answer, said for an operator (never a library's internals).
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The destination policy refused a URL, a redirect or an address.
        case refused
        /// The body was larger than the limit.
        case tooLarge
        /// The total or idle deadline passed.
        case timedOut
        /// Resolution, connection, TLS or the HTTP exchange failed.
        case failed
    }

    public let kind: Kind
    public let reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The operator's sentence: what happened (`the fetch was refused: …`), then why.
    public var description: String {
        switch kind {
        case .refused: "the fetch was refused: \(reason)"
        case .tooLarge: reason
        case .timedOut: "the fetch timed out: \(reason)"
        case .failed: "the fetch failed: \(reason)"
        }
    }
}
