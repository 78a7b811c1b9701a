import Encodings

/// A failure before the documents of a response could be judged (an envelope, a transcript, decryption): a stable
/// ``FailureCode`` (this module's, or the flow's own) and a readable detail. Each flow names it after itself
/// (`AppleWalletError`, `WebPresentmentError`).
public typealias ResponseFailure = CodedFailure<FailureCode>
