import TrustStore
import X509

/// RFC 5280 6.1.4 (k), (l), (m), (n) on every certificate that issues another in the path (the intermediates at
/// ``PathStage/structure``, the anchor at ``PathStage/anchor``): basicConstraints cA true, a pathLenConstraint that
/// allows the CA certificates below it, and keyUsage keyCertSign. `keyUsageRequired` is the profiles' stricter form
/// (the IACA profile requires the extension); without it, an absent keyUsage is allowed as RFC 5280 allows it.
public struct CertificateAuthorityConstraints: PathRule {
    public let keyUsageRequired: Bool

    public init(keyUsageRequired: Bool) {
        self.keyUsageRequired = keyUsageRequired
    }

    public func problem(with candidate: PathCandidate, at stage: PathStage) -> PathProblem? {
        switch stage {
        case .structure:
            let intermediates = Array(candidate.intermediates)
            for (position, certificate) in intermediates.enumerated() {
                if let problem = problem(certificate, certificatesBelow: intermediates.count - position - 1) {
                    return PathProblem(.invalid, problem)
                }
            }
            return nil
        case .anchor:
            // A pinned leaf issues nothing in this path.
            guard let anchor = candidate.anchor, !candidate.path.isEmpty else { return nil }
            return problem(anchor, certificatesBelow: candidate.intermediates.count).map { PathProblem(.invalid, $0) }
        case .leaf, .verified:
            return nil
        }
    }

    /// The problem with `certificate` as a CA with `certificatesBelow` CA certificates under it (the leaf does not count).
    public func problem(_ certificate: Certificate, certificatesBelow: Int) -> String? {
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
        switch Result(catching: { try certificate.extensions.keyUsage }) {
        case .success(let usage?) where usage.keyCertSign: return nil
        case .success(nil) where !keyUsageRequired: return nil
        default: return "\(certificate.subject) lacks keyUsage keyCertSign and may not sign certificates"
        }
    }
}
