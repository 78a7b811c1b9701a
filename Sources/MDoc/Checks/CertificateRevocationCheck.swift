import CertificateRevocation
import Foundation

/// `issuer.certificateRevocation`: every certificate of the path below the trusted IACA (the document signer and any
/// intermediate) against its issuer's CRL, from the outcomes the caller resolved beforehand (RFC 5280 §6.3). Looked
/// up only for a document valid as issued; revoked fails, undetermined fails under `crl.mode` `enforce` and warns
/// under `warn`.
struct CertificateRevocationCheck: DocumentCheck {
    let id = VerificationCheckID.issuerCertificateRevocation

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        let policy = context.options.certificateRevocation
        guard policy.mode != .off else { return .notApplicable("CRL checking is off (crl.mode)") }
        if let reason = context.notValidAsIssuedReason {
            return .notApplicable("not looked up: the document is not valid as issued (\(reason))")
        }
        guard let links = context.chain.revocationLinks else { return .notApplicable("no certification path to check") }
        return Self.outcome(links.map { context.options.certificateRevocationEvidence[$0.certificate]
                                ?? .undetermined(.unavailable, detail: "\($0.certificate.subject): the CRL was not resolved") },
                            policy: policy)
    }

    static func outcome(_ outcomes: [CertificateRevocationOutcome], policy: CertificateRevocationPolicy) -> CheckOutcome {
        switch CertificateRevocationVerdict.judge(outcomes, policy: policy) {
        case .passed(let detail): return .passed(detail)
        case .notApplicable(let detail): return .notApplicable(detail)
        case .failed(let code, let detail): return .failed(VerificationErrorCode(rawValue: code) ?? .certificateRevoked, detail)
        case .warning(let code, let detail): return .warning(VerificationErrorCode(rawValue: code) ?? .crlUnavailable, detail)
        }
    }
}
