/// A failure before the documents of a response could be judged (an envelope, a transcript, decryption): a stable
/// ``FailureCode`` (this module's, or the flow's own) and a readable detail. Each flow names it after itself
/// (`AppleWalletError`, `WebPresentmentError`).
public struct ResponseFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: FailureCode
    public let detail: String

    public init(_ code: FailureCode, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
