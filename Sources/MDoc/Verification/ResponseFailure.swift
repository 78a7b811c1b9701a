/// A failure before the documents of a response could be judged (an envelope, a transcript, decryption): a stable
/// code from ``VerificationErrorCode`` and a readable detail. Each flow names it after itself
/// (`AppleWalletError`, `WebPresentmentError`).
public struct ResponseFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: VerificationErrorCode
    public let detail: String

    public init(_ code: VerificationErrorCode, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
