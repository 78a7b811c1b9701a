import SwiftASN1
import TrustStore
import X509

/// The leaf carries an extended key usage (e.g. 1.0.18013.5.1.8, VICAL signer; 1.0.18013.5.1.6, mdoc reader).
public struct LeafExtendedKeyUsage: PathRule {
    public let usage: ASN1ObjectIdentifier
    /// Names the usage in the message, e.g. "VICAL signer".
    public let name: String

    public init(_ usage: ASN1ObjectIdentifier, name: String) {
        self.usage = usage
        self.name = name
    }

    public func problem(with candidate: PathCandidate, at stage: PathStage) -> PathProblem? {
        guard stage == .verified else { return nil }
        let leaf = candidate.leaf
        switch Result(catching: { try leaf.extensions.extendedKeyUsage }) {
        case .success(let usages?) where usages.contains(ExtendedKeyUsage.Usage(oid: usage)): return nil
        case .success: return PathProblem(.notAuthorized, "\(leaf.subject) lacks extended key usage \(usage) (\(name))")
        case .failure(let error): return PathProblem(.notAuthorized, "\(leaf.subject) extended key usage does not parse: \(DERProblem.phrase(error))")
        }
    }
}
