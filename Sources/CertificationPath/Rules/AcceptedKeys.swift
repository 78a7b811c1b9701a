import X509

/// Every certificate of the path (the leaf at ``PathStage/leaf``, the intermediates at ``PathStage/structure``)
/// holds a key of a type this use verifies, checked before any signature.
public struct AcceptedKeys: PathRule {
    /// E.g. "an EC P-256, P-384 or P-521 key".
    public let description: String
    public let accepts: @Sendable (Certificate) -> Bool

    public init(_ description: String, accepts: @escaping @Sendable (Certificate) -> Bool) {
        self.description = description
        self.accepts = accepts
    }

    public func problem(with candidate: PathCandidate, at stage: PathStage) -> PathProblem? {
        switch stage {
        case .leaf:
            return accepts(candidate.leaf) ? nil
                : PathProblem(.invalid, "\(candidate.leaf.subject) key is not \(description); no signature was checked")
        case .structure:
            guard let certificate = candidate.intermediates.first(where: { !accepts($0) }) else { return nil }
            return PathProblem(.invalid, "\(certificate.subject) key is not \(description)")
        case .anchor, .verified:
            return nil
        }
    }
}
