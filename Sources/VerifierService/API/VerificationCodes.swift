import AppleWallet
import MDoc
import OpenID4VP
import Proximity
import SDJWT
import SDJWTVC

/// Every stable verification code the service can answer with, each declared by the module that owns it (the core's
/// checks and response-level codes, then each flow's own): the one table the OpenAPI document's `VerificationCode`
/// and the documentation list.
enum VerificationCodes {
    static let all: [String] = VerificationErrorCode.allCases.map(\.rawValue)
        + (FailureCode.appleWalletCodes + FailureCode.proximityCodes + FailureCode.openID4VPCodes).map(\.rawValue)
        + SDJWTErrorCode.allCases.map(\.rawValue).filter { !VerificationErrorCode.allCases.map(\.rawValue).contains($0) }
        + SDJWTVCErrorCode.allCases.map(\.rawValue).filter { $0 != VerificationErrorCode.elementNotRequested.rawValue }
        + [sdJwtVcNotConfigured]

    /// An SD-JWT VC presentation reached a service without `sdJwtVc` configured.
    static let sdJwtVcNotConfigured = "SDJWT_VC_NOT_CONFIGURED"
}
