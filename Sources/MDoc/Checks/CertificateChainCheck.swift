import Encodings
import Foundation
import SwiftASN1
import TrustStore
import X509

/// `issuer.certificateChain`: the DS certificate chains to a trusted IACA, every certificate is within its
/// validity at the verification time, and each certificate may be used the way the chain uses it.
struct CertificateChainCheck: DocumentCheck {
    let id = VerificationCheckID.issuerCertificateChain

    /// The ISO 18013-5 mdlDS extended key usage.
    static let documentSignerUsage = ExtendedKeyUsage.Usage(oid: [1, 0, 18013, 5, 1, 2])
    /// The mdlDS OID of ISO 18013-5 drafts, still in issuers' certificates (the EUDI reference issuer's): accepted, as a
    /// warning of its own, only under an anchor named lenient.
    static let prePublicationDocumentSignerUsage = ExtendedKeyUsage.Usage(oid: [1, 3, 130, 2, 0, 0, 1, 2])
    static let prePublicationProblem = "DS extendedKeyUsage lacks 1.0.18013.5.1.2 (mdlDS); it has 1.3.130.2.0.0.1.2, a pre-publication OID"
    /// Extensions we understand; any other critical extension makes a certificate unusable (RFC 5280 4.2).
    static let understoodExtensions: Set<ASN1ObjectIdentifier> = [
        .X509ExtensionID.basicConstraints, .X509ExtensionID.keyUsage, .X509ExtensionID.extendedKeyUsage,
        .X509ExtensionID.subjectKeyIdentifier, .X509ExtensionID.authorityKeyIdentifier,
        .X509ExtensionID.subjectAlternativeName, [2, 5, 29, 18], [2, 5, 29, 31],
    ]

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        // ISO 18013-5 Annex C: a VICAL entry (or an operator's scope) limits the docTypes an IACA vouches for. Both
        // the docType the document claims and the one the issuer signed in the MSO must be in scope.
        Self.evaluate(context.chain, docTypes: [context.document.docType, context.document.mobileSecurityObject.docType],
                      at: context.options.verificationTime, profileMode: context.profileMode)
    }

    /// The rule over a built chain: `docTypes` are those the IACA must vouch for, `time` the verification time.
    static func evaluate(_ chain: IssuerChain, docTypes: [String], at time: Date, profileMode: ProfileCheckMode) -> CheckOutcome {
        if let failure = chain.failure { return .failed(failure.code, failure.detail) }
        guard let anchor = chain.anchor, chain.documentSigner != nil else {
            return .failed(.issuerCertificateUntrusted, "no trusted IACA")
        }
        let prePublicationGranted = chain.usageProblems == [Self.prePublicationProblem] && profileMode == .lenient
        if !chain.usageProblems.isEmpty && !prePublicationGranted {
            return .failed(.issuerCertificateInvalid, chain.usageProblems.joined(separator: "; "))
        }
        for docType in docTypes where !anchor.metadata.authorizes(docType: docType) {
            let scope = anchor.metadata.docTypes?.joined(separator: ", ") ?? ""
            return .failed(.issuerNotAuthorizedForDocType,
                           "trusted IACA \(anchor.subject) (\(anchor.metadata.source)) may vouch only for \(scope), not \(docType)")
        }
        for certificate in chain.path where !(certificate.notValidBefore <= time && time <= certificate.notValidAfter) {
            return .failed(.issuerCertificateExpired,
                           "\(certificate.subject) is valid \(Self.period(certificate)), not at \(RFC3339Timestamp.string(time))")
        }
        guard anchor.isValid(at: time) else {
            return .failed(.trustedIssuerCertificateExpired,
                           "trusted IACA \(anchor.subject) is valid \(Self.period(anchor.certificate)), not at \(RFC3339Timestamp.string(time))")
        }
        if prePublicationGranted {
            return .warning(.documentSignerEKUPrePublication, Self.prePublicationProblem + " (granted: the trusted IACA is named lenient)")
        }
        return .passed("\(chain.documentSignerSubject ?? "DS") chains to trusted IACA \(anchor.subject)")
    }

    static func usageProblems(documentSigner: Certificate) -> [String] {
        var problems: [String] = []
        switch Result(catching: { try documentSigner.extensions.keyUsage }) {
        case .success(let usage?) where usage.digitalSignature: break
        case .success: problems.append("DS keyUsage lacks digitalSignature")
        case .failure(let error): problems.append("DS keyUsage does not parse: \(DERProblem.phrase(error))")
        }
        switch Result(catching: { try documentSigner.extensions.extendedKeyUsage }) {
        case .success(let usage?) where usage.contains(documentSignerUsage): break
        case .success(let usage?) where usage.contains(prePublicationDocumentSignerUsage): problems.append(prePublicationProblem)
        case .success: problems.append("DS extendedKeyUsage lacks 1.0.18013.5.1.2 (mdlDS)")
        case .failure(let error): problems.append("DS extendedKeyUsage does not parse: \(DERProblem.phrase(error))")
        }
        if case .success(.isCertificateAuthority) = Result(catching: { try documentSigner.extensions.basicConstraints }) {
            problems.append("DS is a CA certificate")
        }
        return problems
    }

    static func unknownCriticalExtensions(_ certificate: Certificate) -> [String] {
        certificate.extensions.filter { $0.critical && !understoodExtensions.contains($0.oid) }.map {
            "\(certificate.subject) has an unsupported critical extension \($0.oid)"
        }
    }

    static func period(_ certificate: Certificate) -> String {
        "\(RFC3339Timestamp.string(certificate.notValidBefore)) to \(RFC3339Timestamp.string(certificate.notValidAfter))"
    }
}
