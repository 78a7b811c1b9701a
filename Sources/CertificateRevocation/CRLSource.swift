import Foundation
import X509

/// What a source of CRLs found at one distribution point for one issuer.
public enum CRLLookup: Sendable {
    /// A CRL, read; `issuerProblem` is ``CRLJudge/issuerProblem(_:issuer:)`` for this issuer when the source knows it
    /// (a cache computes it once), and `staleGrace` how far past nextUpdate it may still be used (a newer one could
    /// not be fetched).
    case crl(CertificateRevocationList, issuerProblem: (CRLProblem, String)??, staleGrace: TimeInterval)
    /// Nothing usable: unreachable, refused by the destination policy, too large, or not a CRL.
    case failed(CRLProblem, String)
}

/// Where CRLs come from: the service's cache over the outbound fetcher, or a test's files.
public protocol CRLSource: Sendable {
    func crl(at url: String, issuer: Certificate, now: Date) async -> CRLLookup
}
