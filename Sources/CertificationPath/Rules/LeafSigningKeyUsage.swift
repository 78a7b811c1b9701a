import TrustStore
import X509

/// The leaf's key usage allows signing: digitalSignature (or, where `nonRepudiationSuffices`, nonRepudiation).
/// With `required`, the extension must be present; without, an absent one is allowed.
public struct LeafSigningKeyUsage: PathRule {
    public let required: Bool
    public let nonRepudiationSuffices: Bool

    public init(required: Bool, nonRepudiationSuffices: Bool = false) {
        self.required = required
        self.nonRepudiationSuffices = nonRepudiationSuffices
    }

    public func problem(with candidate: PathCandidate, at stage: PathStage) -> PathProblem? {
        guard stage == .verified else { return nil }
        let leaf = candidate.leaf
        switch Result(catching: { try leaf.extensions.keyUsage }) {
        case .success(let usage?):
            if usage.digitalSignature || (nonRepudiationSuffices && usage.nonRepudiation) { return nil }
            return PathProblem(.notAuthorized, nonRepudiationSuffices
                ? "\(leaf.subject) key usage allows neither nonRepudiation nor digitalSignature"
                : "\(leaf.subject) lacks keyUsage digitalSignature")
        case .success(nil):
            return required ? PathProblem(.notAuthorized, "\(leaf.subject) lacks keyUsage digitalSignature") : nil
        case .failure(let error):
            return PathProblem(.notAuthorized, "\(leaf.subject) key usage does not parse: \(DERProblem.phrase(error))")
        }
    }
}
