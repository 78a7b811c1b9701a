import Encodings
import X509

/// Builds and verifies certification paths for one use: the anchors it trusts and the rules the path must meet.
///
/// The path is found by names first (no cryptography): from the leaf through the other certificates given until an
/// anchor could be the issuer, or a certificate is itself a pinned anchor. The ``PathStage/leaf`` and
/// ``PathStage/structure`` rules run next, then signatures are verified from the anchor down, stopping at the first
/// failure, with the ``PathStage/anchor`` rules before and the ``PathStage/verified`` rules after. So the work is
/// bounded by the certificates given (each is used at most once), whatever their contents.
public struct CertificationPathBuilder<Anchors: PathAnchors>: Sendable {
    public let anchors: Anchors
    public let rules: [any PathRule]

    public init(anchors: Anchors, rules: [any PathRule]) {
        self.anchors = anchors
        self.rules = rules
    }

    /// The path from `leaf` to an anchor through `others` (in any order), or the first problem.
    public func build(leaf: Certificate, others: [Certificate]) -> Result<CertificationPath<Anchors.Anchor>, PathProblem> {
        if let problem = check(PathCandidate(path: [leaf], anchor: nil, leaf: leaf), at: .leaf) { return .failure(problem) }
        // 1. By names only.
        var path = [leaf]
        var candidates: [Anchors.Anchor] = []
        while true {
            let current = path[path.count - 1]
            if let pinned = anchors.pinned(current) {
                path.removeLast()
                return finish(path: path, leaf: leaf, anchor: pinned, topSignatureVerified: false)
            }
            candidates = anchors.issuers(of: current)
            if !candidates.isEmpty { break }
            guard path.count <= others.count,
                  let next = others.first(where: { $0.subject == current.issuer && !path.contains($0) })
            else {
                let aki = Self.authorityKeyIdentifier(of: current).map { ", AKI \($0.hexString)" } ?? ""
                return .failure(PathProblem(.untrusted, "no \(anchors.name) issued \(current.subject) (issuer \(current.issuer)\(aki))"))
            }
            path.append(next)
        }
        // 2. The structure, before any signature.
        if let problem = check(PathCandidate(path: path, anchor: nil, leaf: leaf), at: .structure) { return .failure(problem) }
        // 3. Signatures from the anchor down.
        let top = path[path.count - 1]
        for anchor in candidates where anchors.certificate(of: anchor).publicKey.isValidSignature(top.signature, for: top) {
            return finish(path: path, leaf: leaf, anchor: anchor, topSignatureVerified: true)
        }
        return .failure(PathProblem(.untrusted, "no \(anchors.name)'s signature on \(top.subject) verifies (issuer \(top.issuer))"))
    }

    /// The anchor stage, the signatures below the top, and the verified stage.
    private func finish(path: [Certificate], leaf: Certificate, anchor: Anchors.Anchor, topSignatureVerified: Bool)
        -> Result<CertificationPath<Anchors.Anchor>, PathProblem>
    {
        let anchorCertificate = anchors.certificate(of: anchor)
        let candidate = PathCandidate(path: path, anchor: anchorCertificate, leaf: leaf)
        if !topSignatureVerified, let problem = check(PathCandidate(path: path, anchor: nil, leaf: leaf), at: .structure) {
            return .failure(problem)
        }
        if let problem = check(candidate, at: .anchor) { return .failure(problem) }
        let chain = path + [anchorCertificate]
        let lowest = topSignatureVerified ? chain.count - 3 : chain.count - 2
        if lowest >= 0 {
            for index in stride(from: lowest, through: 0, by: -1) {
                let issuer = chain[index + 1]
                let subject = chain[index]
                guard issuer.publicKey.isValidSignature(subject.signature, for: subject) else {
                    return .failure(PathProblem(.untrusted, "the signature of \(issuer.subject) on \(subject.subject) does not verify"))
                }
            }
        }
        if let problem = check(candidate, at: .verified) { return .failure(problem) }
        return .success(CertificationPath(path: path, anchor: anchor))
    }

    private func check(_ candidate: PathCandidate, at stage: PathStage) -> PathProblem? {
        for rule in rules {
            if let problem = rule.problem(with: candidate, at: stage) { return problem }
        }
        return nil
    }

    /// The authority key identifier of `certificate`, when it has one that parses.
    public static func authorityKeyIdentifier(of certificate: Certificate) -> [UInt8]? {
        ((try? certificate.extensions.authorityKeyIdentifier) ?? nil)?.keyIdentifier.map(Array.init)
    }
}
