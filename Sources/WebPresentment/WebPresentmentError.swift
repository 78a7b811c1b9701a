import MDoc

/// A failure before the documents could be judged: a stable code from ``VerificationErrorCode`` and a detail.
public struct WebPresentmentError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: VerificationErrorCode
    public let detail: String

    public init(_ code: VerificationErrorCode, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
