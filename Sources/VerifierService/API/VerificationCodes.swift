import AppleWallet
import MDoc
import OpenID4VP
import Proximity

/// Every stable verification code the service can answer with, each declared by the module that owns it (the core's
/// checks and response-level codes, then each flow's own): the one table the OpenAPI document's `VerificationCode`
/// and the documentation list.
enum VerificationCodes {
    static let all: [String] = VerificationErrorCode.allCases.map(\.rawValue)
        + (FailureCode.appleWalletCodes + FailureCode.proximityCodes + FailureCode.openID4VPCodes).map(\.rawValue)
}
