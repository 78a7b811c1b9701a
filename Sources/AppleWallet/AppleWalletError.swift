import MDoc

/// An envelope-level failure: a stable code from ``VerificationErrorCode`` and a readable detail.
public struct AppleWalletError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: VerificationErrorCode
    public let detail: String

    public init(_ code: VerificationErrorCode, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
