import MDoc

/// An envelope-level failure of Apple's in-app flow: a stable code and a readable detail.
public typealias AppleWalletError = ResponseFailure
