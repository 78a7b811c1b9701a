import CBOR
import COSE
import Foundation
import TrustStore

/// Everything the checks of one document read: the document, the caller's inputs and what is derived once.
struct DocumentContext: Sendable {
    let document: Document
    /// The SessionTranscript exactly as the caller gave it (one CBOR item).
    let sessionTranscript: [UInt8]
    /// The caller's options; ``MDocVerifier/finish(_:statusEvidence:)`` adds the status evidence.
    var options: VerificationOptions
    let trust: TrustSnapshot
    let chain: IssuerChain
    let digests: DigestEvaluation
    /// The MSO's device key, read once (`mso.deviceKey` reports a failure; `device.authentication` uses the key).
    let deviceKey: Result<COSEKey, COSEError>
    /// Outcomes already computed by ``MDocVerifier/prepare(_:sessionTranscript:options:)`` (the chain, its profile
    /// and the issuer signature), used instead of evaluating those checks again.
    private(set) var settledChain: CheckOutcome?
    private(set) var settledProfile: CheckOutcome?
    private(set) var settledIssuerSignature: CheckOutcome?

    /// The outcome `prepare` settled for a check, if any.
    func settled(_ id: VerificationCheckID) -> CheckOutcome? {
        switch id {
        case .issuerCertificateChain: settledChain
        case .issuerCertificateProfile: settledProfile
        case .issuerSignature: settledIssuerSignature
        default: nil
        }
    }

    /// Evaluates the checks that decide whether the document is valid as issued, once.
    mutating func settleIssuerChecks() {
        settledChain = CertificateChainCheck().evaluate(self)
        settledProfile = CertificateProfileCheck().evaluate(self)
        settledIssuerSignature = IssuerSignatureCheck().evaluate(self)
    }

    /// Why the document is not valid as issued, or nil when it is: its issuer is trusted and authentic. That holds
    /// when the chain to a trusted IACA holds (passed, or a warning the operator granted), the certificate profile
    /// does not fail (passed, a warning, or not applicable) and the signature over the MSO verifies (passed or
    /// warning). A chain that is not applicable, or any of the three that failed, means it is not: nothing the MSO
    /// says (its status references included) is the issuer's word then.
    var notValidAsIssuedReason: String? {
        Self.notValidAsIssuedReason(chain: settledChain ?? CertificateChainCheck().evaluate(self),
                                    profile: settledProfile ?? CertificateProfileCheck().evaluate(self),
                                    signature: settledIssuerSignature ?? IssuerSignatureCheck().evaluate(self))
    }

    /// The rule of ``notValidAsIssuedReason`` over the three outcomes.
    static func notValidAsIssuedReason(chain: CheckOutcome, profile: CheckOutcome, signature: CheckOutcome) -> String? {
        func failed(_ id: VerificationCheckID, _ code: VerificationErrorCode) -> String { "\(id.rawValue) failed (\(code.rawValue))" }
        switch chain {
        case .passed, .warning: break
        case .failed(let code, _): return failed(.issuerCertificateChain, code)
        case .notApplicable: return "\(VerificationCheckID.issuerCertificateChain.rawValue) did not apply"
        }
        if case .failed(let code, _) = profile { return failed(.issuerCertificateProfile, code) }
        switch signature {
        case .passed, .warning: return nil
        case .failed(let code, _): return failed(.issuerSignature, code)
        case .notApplicable: return "\(VerificationCheckID.issuerSignature.rawValue) did not apply"
        }
    }

    init(document: Document, sessionTranscript: [UInt8], options: VerificationOptions, trust: TrustSnapshot) {
        self.document = document
        self.sessionTranscript = sessionTranscript
        self.options = options
        self.trust = trust
        let x5chain = (try? document.issuerSigned.issuerAuth.headers.x5chain()) ?? []
        self.chain = IssuerChainCache.shared.chain(x5chain: x5chain, trust: trust, policy: options.chainPolicy)
        self.digests = DigestEvaluation(document: document)
        let deviceKeyItem = document.mobileSecurityObject.deviceKey
        self.deviceKey = Result { () throws(COSEError) in try COSEKey(item: deviceKeyItem) }
    }

    var mso: MobileSecurityObject { document.mobileSecurityObject }

    /// The profile mode for the anchor this document chains to.
    var profileMode: ProfileCheckMode {
        chain.anchor.flatMap { options.profileChecksByAnchor[$0.sha256] } ?? options.profileChecks
    }
}
