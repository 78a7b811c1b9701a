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
    /// Outcomes already computed by ``MDocVerifier/prepare(_:sessionTranscript:options:)`` (the chain and the issuer
    /// signature), used instead of evaluating those checks again.
    var settledChain: CheckOutcome?
    var settledIssuerSignature: CheckOutcome?

    /// The outcome `prepare` settled for a check, if any.
    func settled(_ id: VerificationCheckID) -> CheckOutcome? {
        switch id {
        case .issuerCertificateChain: settledChain
        case .issuerSignature: settledIssuerSignature
        default: nil
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
