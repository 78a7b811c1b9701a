import Encodings
import Foundation

/// `mso.validity`: the timestamps keep to ISO 18013-5 9.1.2.4 (tag 0, UTC, no fractional seconds, validFrom not
/// before signed), validFrom <= now <= validUntil (with the configured clock skew), and the MSO was signed while
/// the DS certificate was valid.
struct MSOValidityCheck: DocumentCheck {
    let id = VerificationCheckID.msoValidity

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        let validity = context.mso.validityInfo
        let now = context.options.verificationTime
        let skew = context.options.clockSkew
        let format = { (date: Date) in RFC3339Timestamp.string(date) }
        // An anchor named lenient may be granted fractional seconds (a warning of its own); nothing else here.
        let fractionalGranted = validity.onlyFractionalSeconds && context.profileMode == .lenient
        if !validity.profileViolations.isEmpty && !fractionalGranted {
            return .failed(.msoMalformed, "validityInfo: " + validity.profileViolations.joined(separator: "; "))
        }
        if validity.validFrom < validity.signed {
            return .failed(.msoMalformed,
                           "validFrom \(format(validity.validFrom)) is earlier than signed \(format(validity.signed))")
        }
        if now < validity.validFrom.addingTimeInterval(-skew) {
            return .failed(.msoNotYetValid, "MSO is valid from \(format(validity.validFrom)), now is \(format(now))")
        }
        if now > validity.validUntil.addingTimeInterval(skew) {
            return .failed(.msoExpired, "MSO was valid until \(format(validity.validUntil)), now is \(format(now))")
        }
        if let ds = context.chain.documentSigner,
           !(ds.notValidBefore <= validity.signed && validity.signed <= ds.notValidAfter)
        {
            return .failed(.msoSignedOutsideCertificateValidity,
                           "MSO signed at \(format(validity.signed)), DS valid \(CertificateChainCheck.period(ds))")
        }
        if fractionalGranted {
            return .warning(.msoDateFractionalSeconds, "validityInfo: " + validity.profileViolations.joined(separator: "; ")
                + " (granted: the trusted IACA is named lenient)")
        }
        return .passed("valid \(format(validity.validFrom)) to \(format(validity.validUntil))")
    }
}
