import CertificationPath
import Foundation
import TrustManagement
import X509

/// Whether the service's access certificate (`readerAuth.certificateChain`, the `x5c` of every signed request)
/// chains to a provider that a WRPAC providers list in force names (ETSI TS 119 602 Annex F): EU wallets refuse a
/// signed request whose access certificate does not. A readiness check: the operator must hear it, while requests
/// still go (the certificate is the service's own; only a new one from a listed provider mends it).
struct AccessCertificateListing: Sendable {
    /// Leaf first, as configured.
    let chain: [Certificate]
    let providers: ListedProviderAnchors

    /// Why the access certificate is not listed at `time`; nil when it chains to a listed provider, or while no
    /// list is in force (the list's own readiness reason says so).
    func problem(at time: Date) -> String? {
        let listed = providers.certificates
        guard let leaf = chain.first, !listed.isEmpty else { return nil }
        let builder = CertificationPathBuilder(anchors: PinnedAnchors(listed, name: "WRPAC provider"), rules: [ValidAtTime(time)])
        switch builder.build(leaf: leaf, others: Array(chain.dropFirst())) {
        case .success: return nil
        case .failure(let problem):
            return "the access certificate (readerAuth.certificateChain, \(leaf.subject)) chains to no provider on the WRPAC providers "
                + "lists in force (\(problem.detail)): EU wallets refuse its signed requests"
        }
    }
}
