import X509

/// The leaf is an end-entity certificate: basicConstraints cA is not true (a status-list signer, for example).
public struct LeafIsNotCA: PathRule {
    public init() {}

    public func problem(with candidate: PathCandidate, at stage: PathStage) -> PathProblem? {
        guard stage == .verified else { return nil }
        if case .success(.isCertificateAuthority) = Result(catching: { try candidate.leaf.extensions.basicConstraints }) {
            return PathProblem(.notAuthorized, "\(candidate.leaf.subject) is a CA certificate")
        }
        return nil
    }
}
