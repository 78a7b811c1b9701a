import MDoc

/// An envelope-level failure of Apple's in-app flow: a stable code and a readable detail.
public typealias AppleWalletError = ResponseFailure

extension FailureCode {
    /// The envelope's `infoHash` is not the one of the merchant, team and nonce given.
    public static let infoHashMismatch = FailureCode(rawValue: "INFO_HASH_MISMATCH")
    /// The nonce given for the transcript is empty or longer than 64 bytes.
    public static let nonceInvalid = FailureCode(rawValue: "NONCE_INVALID")
    /// Every code this module answers with.
    public static let appleWalletCodes: [FailureCode] = [.infoHashMismatch, .nonceInvalid]
}
