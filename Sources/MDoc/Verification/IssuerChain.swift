import CertificateRevocation
import CertificationPath
import COSE
import Crypto
import Foundation
import SwiftASN1
import TrustStore
import X509

/// The document signer certificate and the path from it to a trusted IACA, built once per document.
///
/// The path comes from the one ``CertificationPathBuilder`` with the document-signer rule set (``IssuerChainPolicy/rules``):
/// found by names first, checked against the rules before any signature, then verified from the trusted IACA down.
/// So the work per x5chain is bounded by the policy's caps, whatever the sender puts in it.
struct IssuerChain: Sendable {
    /// The DS certificate (first x5chain entry), when it parsed.
    let documentSigner: Certificate?
    /// The DS subject, formatted once.
    let documentSignerSubject: String?
    /// The DS countryName, read once.
    let documentSignerCountry: String?
    /// The DS public key as a COSE key; nil when there is no DS or its key is not on P-256, P-384 or P-521.
    let documentSignerKey: COSEPublicKey?
    /// DS, then any intermediates used, in issuing order (the anchor is not included).
    let path: [Certificate]
    /// The trusted IACA the path ends in.
    let anchor: TrustAnchor?
    /// Key usage and critical-extension problems along the path (time-independent, computed once).
    let usageProblems: [String]
    /// Annex B profile findings about the certificates alone (computed once).
    let profileFindings: [ProfileFinding]
    /// Why no path could be built or the x5chain could not be read.
    let failure: (code: VerificationErrorCode, detail: String)?
    /// What CRLs are checked for: each certificate of ``path`` with its issuer (the next one, the anchor's for the
    /// last); nil without a path to an anchor.
    var revocationLinks: [ChainRevocationChecker.Link]? {
        guard let anchor, !path.isEmpty else { return nil }
        return ChainRevocationChecker.links(path: path, anchor: anchor.certificate)
    }
    /// The AuthorityKeyIdentifier keyIdentifiers of the certificates the x5chain carries, in its order (what a
    /// request's trusted authorities are matched against).
    private(set) var presentedAuthorityKeyIdentifiers: [[UInt8]] = []

    init(x5chain: [ArraySlice<UInt8>], trust: TrustSnapshot, policy: IssuerChainPolicy = .iso18013) {
        guard !x5chain.isEmpty else {
            self.init(documentSigner: nil, failure: (.issuerCertificateInvalid, "issuerAuth carries no x5chain"))
            return
        }
        guard x5chain.count <= policy.maximumCertificates else {
            self.init(documentSigner: nil, failure: (.issuerCertificateInvalid,
                "x5chain holds \(x5chain.count) certificates; at most \(policy.maximumCertificates) are accepted"))
            return
        }
        if let index = x5chain.firstIndex(where: { $0.count > policy.maximumCertificateBytes }) {
            self.init(documentSigner: nil, failure: (.issuerCertificateInvalid,
                "x5chain certificate \(index) is \(x5chain[index].count) bytes; at most \(policy.maximumCertificateBytes) are accepted"))
            return
        }
        var certificates: [Certificate] = []
        for (index, der) in x5chain.enumerated() {
            do {
                certificates.append(try Certificate(derEncoded: Array(der)))
            } catch {
                self.init(documentSigner: certificates.first, failure: (.issuerCertificateInvalid,
                    "x5chain certificate \(index) does not parse as an X.509 certificate (\(DERProblem.phrase(error)))"))
                return
            }
        }
        let leaf = certificates[0]
        let builder = CertificationPathBuilder(anchors: IACAAnchors(trust), rules: policy.rules)
        switch builder.build(leaf: leaf, others: Array(certificates.dropFirst())) {
        case .success(let built):
            self.init(documentSigner: leaf, path: built.path, anchor: built.anchor, failure: nil)
        case .failure(let problem):
            let code: VerificationErrorCode = problem.kind == .untrusted ? .issuerCertificateUntrusted : .issuerCertificateInvalid
            self.init(documentSigner: leaf, path: [leaf], anchor: nil, failure: (code, problem.detail))
        }
        presentedAuthorityKeyIdentifiers = certificates.compactMap(\.authorityKeyIdentifierBytes)
    }

    private init(documentSigner: Certificate?, path: [Certificate] = [], anchor: TrustAnchor? = nil,
                 failure: (code: VerificationErrorCode, detail: String)?) {
        self.documentSigner = documentSigner
        self.documentSignerSubject = documentSigner?.subject.description
        self.documentSignerCountry = documentSigner?.subject.firstValue(of: .RDNAttributeType.countryName)
        self.documentSignerKey = documentSigner.flatMap { COSEPublicKey(certificate: $0) }
        if let documentSigner, let anchor {
            var problems = CertificateChainCheck.usageProblems(documentSigner: documentSigner)
            for certificate in path + [anchor.certificate] {
                problems += CertificateChainCheck.unknownCriticalExtensions(certificate)
            }
            self.usageProblems = problems
        } else {
            self.usageProblems = []
        }
        self.profileFindings = documentSigner.map {
            CertificateProfileCheck.certificateFindings(documentSigner: $0, iaca: anchor?.certificate)
        } ?? []
        self.path = path
        self.anchor = anchor
        self.failure = failure
    }
}
