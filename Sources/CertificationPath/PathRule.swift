import X509

/// When a rule runs while a path is built. Rules before ``PathStage/anchor`` run before any signature is verified,
/// so a sender cannot make the verifier do cryptography on a path that is refused anyway.
public enum PathStage: Sendable {
    /// The leaf alone, before the path is looked for.
    case leaf
    /// The path found by names (leaf first, anchor excluded; ``PathCandidate/anchor`` is nil).
    case structure
    /// An anchor whose signature on the top of the path verifies, before the signatures below it are verified.
    case anchor
    /// Every signature on the path verifies.
    case verified
}

/// A path as a rule sees it: `path` from the leaf up to, not including, the anchor (empty when the leaf is itself a
/// pinned anchor), and the anchor's certificate once known.
public struct PathCandidate: Sendable {
    public let path: [Certificate]
    public let anchor: Certificate?
    /// The certificate the path is for.
    public let leaf: Certificate

    /// The CA certificates below the anchor (the path without its leaf).
    public var intermediates: ArraySlice<Certificate> { path.dropFirst() }

    public init(path: [Certificate], anchor: Certificate?, leaf: Certificate) {
        self.path = path
        self.anchor = anchor
        self.leaf = leaf
    }
}

/// One rule a certification path must meet for one use (one file each, in the style of swift-certificates'
/// `VerifierPolicy`); a use is a list of rules (``CertificationPathBuilder``).
public protocol PathRule: Sendable {
    /// The problem with `candidate` at `stage`, or nil; a rule ignores the stages it has nothing to say about.
    func problem(with candidate: PathCandidate, at stage: PathStage) -> PathProblem?
}

/// Why a path was refused: a kind each use maps to its own error code, and a sentence for the report.
public struct PathProblem: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No path to a trusted anchor, or a signature on it does not verify.
        case untrusted
        /// A certificate on the path breaks a structural rule (CA constraints, key type, length).
        case invalid
        /// A certificate on the path is not valid at the verification time.
        case expired
        /// The leaf is not authorized for this use (key usage, extended key usage).
        case notAuthorized
    }

    public let kind: Kind
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }
}
