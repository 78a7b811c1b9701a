import COSE
import Crypto
import Foundation
import SwiftASN1
import TrustStore
import X509

/// The document signer certificate and the path from it to a trusted IACA, built once per document.
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
    /// Key usage, CA flag and critical-extension problems along the path (time-independent, computed once).
    let usageProblems: [String]
    /// Annex B profile findings about the certificates alone (computed once).
    let profileViolations: [String]
    /// Why no path could be built or the x5chain could not be read.
    let failure: (code: VerificationErrorCode, detail: String)?

    static let maximumPathLength = 4

    init(x5chain: [ArraySlice<UInt8>], trust: TrustSnapshot) {
        var certificates: [Certificate] = []
        for (index, der) in x5chain.enumerated() {
            do {
                certificates.append(try Certificate(derEncoded: Array(der)))
            } catch {
                self.init(documentSigner: certificates.first, path: [], anchor: nil,
                          failure: (.issuerCertificateInvalid, "x5chain certificate \(index) does not parse: \(error)"))
                return
            }
        }
        guard let leaf = certificates.first else {
            self.init(documentSigner: nil, path: [], anchor: nil,
                      failure: (.issuerCertificateInvalid, "issuerAuth carries no x5chain"))
            return
        }
        let intermediates = Array(certificates.dropFirst())
        var path = [leaf]
        var current = leaf
        while path.count <= Self.maximumPathLength {
            let aki = Self.authorityKeyIdentifier(of: current)
            if let anchor = trust.candidateIssuers(authorityKeyIdentifier: aki, issuer: current.issuer)
                .first(where: { $0.certificate.publicKey.isValidSignature(current.signature, for: current) })
            {
                self.init(documentSigner: leaf, path: path, anchor: anchor, failure: nil)
                return
            }
            guard let next = intermediates.first(where: { candidate in
                candidate.subject == current.issuer && candidate != current && !path.contains(candidate)
                    && candidate.publicKey.isValidSignature(current.signature, for: current)
            }) else { break }
            path.append(next)
            current = next
        }
        let detail = "no trusted IACA issued \(current.subject) (issuer \(current.issuer)"
            + (Self.authorityKeyIdentifier(of: current).map { ", AKI \($0.hexString)" } ?? "") + ")"
        self.init(documentSigner: leaf, path: path, anchor: nil, failure: (.issuerCertificateUntrusted, detail))
    }

    private init(documentSigner: Certificate?, path: [Certificate], anchor: TrustAnchor?,
                 failure: (code: VerificationErrorCode, detail: String)?) {
        self.documentSigner = documentSigner
        self.documentSignerSubject = documentSigner?.subject.description
        self.documentSignerCountry = documentSigner?.subject.firstValue(of: .RDNAttributeType.countryName)
        self.documentSignerKey = documentSigner.flatMap(Self.coseKey)
        if let documentSigner, let anchor {
            var problems = CertificateChainCheck.usageProblems(documentSigner: documentSigner)
            for intermediate in path.dropFirst() { problems += CertificateChainCheck.authorityProblems(intermediate) }
            for certificate in path + [anchor.certificate] { problems += CertificateChainCheck.unknownCriticalExtensions(certificate) }
            self.usageProblems = problems
        } else {
            self.usageProblems = []
        }
        self.profileViolations = documentSigner.map {
            CertificateProfileCheck.certificateViolations(documentSigner: $0, iaca: anchor?.certificate)
        } ?? []
        self.path = path
        self.anchor = anchor
        self.failure = failure
    }

    static func authorityKeyIdentifier(of certificate: Certificate) -> [UInt8]? {
        ((try? certificate.extensions.authorityKeyIdentifier) ?? nil)?.keyIdentifier.map(Array.init)
    }

    static func coseKey(_ certificate: Certificate) -> COSEPublicKey? {
        if let key = P256.Signing.PublicKey(certificate.publicKey) { return .p256(key) }
        if let key = P384.Signing.PublicKey(certificate.publicKey) { return .p384(key) }
        if let key = P521.Signing.PublicKey(certificate.publicKey) { return .p521(key) }
        return nil
    }
}
