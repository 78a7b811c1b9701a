import COSE
import Crypto
import Foundation
import SwiftASN1
import TrustStore
import X509

/// The document signer certificate and the path from it to a trusted IACA, built once per document.
///
/// The path is found by names first (no cryptography), checked against the policy and RFC 5280 basic constraints,
/// and only then are signatures verified, from the trusted anchor down, stopping at the first failure. So the work
/// per x5chain is bounded by the policy's caps, whatever the sender puts in it.
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
        switch Self.buildPath(leaf: leaf, others: Array(certificates.dropFirst()), trust: trust, policy: policy) {
        case .success(let (path, anchor)):
            self.init(documentSigner: leaf, path: path, anchor: anchor, failure: nil)
        case .failure(let failure):
            self.init(documentSigner: leaf, path: [leaf], anchor: nil, failure: (failure.code, failure.detail))
        }
    }

    struct PathFailure: Error {
        let code: VerificationErrorCode
        let detail: String
    }

    /// Finds the path by names (leaf up to an anchor), applies the policy and basic constraints, then verifies the
    /// signatures top-down.
    static func buildPath(leaf: Certificate, others: [Certificate], trust: TrustSnapshot, policy: IssuerChainPolicy)
        -> Result<([Certificate], TrustAnchor), PathFailure>
    {
        guard COSEPublicKey(certificate: leaf) != nil else {
            return .failure(PathFailure(code: .issuerCertificateInvalid,
                detail: "DS key is not an EC P-256, P-384 or P-521 key; no signature was checked"))
        }
        // 1. By names only: DS, then intermediates from the x5chain, until an anchor could be the issuer.
        var path = [leaf]
        var anchors: [TrustAnchor] = []
        while true {
            let current = path[path.count - 1]
            anchors = trust.candidateIssuers(authorityKeyIdentifier: authorityKeyIdentifier(of: current),
                                             issuer: current.issuer)
            if !anchors.isEmpty { break }
            guard path.count <= others.count,
                  let next = others.first(where: { $0.subject == current.issuer && !path.contains($0) })
            else {
                let aki = authorityKeyIdentifier(of: current).map { ", AKI \($0.hexString)" } ?? ""
                return .failure(PathFailure(code: .issuerCertificateUntrusted,
                    detail: "no trusted IACA issued \(current.subject) (issuer \(current.issuer)\(aki))"))
            }
            path.append(next)
        }
        // 2. The policy and RFC 5280 6.1.4 on every CA, before any signature.
        let intermediates = path.dropFirst()
        if intermediates.count > policy.maximumIntermediateCAs {
            let names = intermediates.map { "\($0.subject)" }.joined(separator: ", ")
            return .failure(PathFailure(code: .issuerCertificateInvalid,
                detail: "DS is issued through intermediate CA \(names); the IACA profile allows "
                    + "\(policy.maximumIntermediateCAs) intermediate CA(s) (pathLenConstraint 0)"))
        }
        for (position, certificate) in intermediates.enumerated() {
            let below = intermediates.count - position - 1
            if let problem = caProblem(certificate, certificatesBelow: below) {
                return .failure(PathFailure(code: .issuerCertificateInvalid, detail: problem))
            }
            if COSEPublicKey(certificate: certificate) == nil {
                return .failure(PathFailure(code: .issuerCertificateInvalid,
                    detail: "\(certificate.subject) key is not an EC P-256, P-384 or P-521 key"))
            }
        }
        // 3. Signatures from the anchor down, stopping at the first that fails.
        let top = path[path.count - 1]
        for anchor in anchors where anchor.certificate.publicKey.isValidSignature(top.signature, for: top) {
            if let problem = caProblem(anchor.certificate, certificatesBelow: intermediates.count) {
                return .failure(PathFailure(code: .issuerCertificateInvalid, detail: problem))
            }
            for index in stride(from: path.count - 2, through: 0, by: -1) {
                let issuer = path[index + 1]
                let subject = path[index]
                guard issuer.publicKey.isValidSignature(subject.signature, for: subject) else {
                    return .failure(PathFailure(code: .issuerCertificateUntrusted,
                        detail: "the signature of \(issuer.subject) on \(subject.subject) does not verify"))
                }
            }
            return .success((path, anchor))
        }
        return .failure(PathFailure(code: .issuerCertificateUntrusted,
            detail: "no trusted IACA's signature on \(top.subject) verifies (issuer \(top.issuer))"))
    }

    /// RFC 5280 6.1.4 (k), (l), (m), (n) for a CA that has `certificatesBelow` CA certificates under it in the path
    /// (the DS does not count): cA true, keyCertSign, and a pathLenConstraint that allows them.
    static func caProblem(_ certificate: Certificate, certificatesBelow: Int) -> String? {
        switch Result(catching: { try certificate.extensions.basicConstraints }) {
        case .success(.isCertificateAuthority(let maxPathLength)):
            if let maxPathLength, certificatesBelow > maxPathLength {
                return "\(certificate.subject) has pathLenConstraint \(maxPathLength) but \(certificatesBelow) CA certificate(s) below it"
            }
        case .success:
            return "\(certificate.subject) is not a CA certificate (basicConstraints cA is not true) and may not sign certificates"
        case .failure(let error):
            return "\(certificate.subject) basicConstraints does not parse: \(DERProblem.phrase(error))"
        }
        guard case .success(let usage?) = Result(catching: { try certificate.extensions.keyUsage }), usage.keyCertSign else {
            return "\(certificate.subject) lacks keyUsage keyCertSign and may not sign certificates"
        }
        return nil
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

    static func authorityKeyIdentifier(of certificate: Certificate) -> [UInt8]? {
        ((try? certificate.extensions.authorityKeyIdentifier) ?? nil)?.keyIdentifier.map(Array.init)
    }
}
