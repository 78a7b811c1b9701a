/// At most `maximum` intermediate CAs between the anchor and the leaf (ISO 18013-5 Annex B: none under an IACA).
public struct MaximumIntermediateCAs: PathRule {
    public let maximum: Int
    /// Names the profile in the message, e.g. "the IACA profile".
    public let profile: String

    public init(_ maximum: Int, profile: String) {
        self.maximum = maximum
        self.profile = profile
    }

    public func problem(with candidate: PathCandidate, at stage: PathStage) -> PathProblem? {
        guard stage == .structure, candidate.intermediates.count > maximum else { return nil }
        let names = candidate.intermediates.map { "\($0.subject)" }.joined(separator: ", ")
        return PathProblem(.invalid, "\(candidate.leaf.subject) is issued through intermediate CA \(names); \(profile) allows "
            + "\(maximum) intermediate CA(s) (pathLenConstraint 0)")
    }
}
