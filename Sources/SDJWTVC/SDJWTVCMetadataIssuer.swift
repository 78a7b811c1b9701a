/// An issuer an operator listed for JWT VC Issuer Metadata (SD-JWT VC section 4): credentials whose `iss` equals
/// ``iss`` exactly are verified with a key from that issuer's metadata, and only they (never as a fallback when `x5c`
/// is absent, and never for an `iss` nobody listed: section 7.1, 7.3). The listing decides the mechanism, not the
/// credential: a listed issuer's `x5c` is not consulted.
public struct SDJWTVCMetadataIssuer: Sendable, Hashable {
    /// The issuer identifier, an https URL (http only to a destination the outbound allowlist opens).
    public let iss: String
    /// The `vct` values this issuer is trusted for; empty for any.
    public let vcts: [String]

    public init(iss: String, vcts: [String] = []) {
        self.iss = iss
        self.vcts = vcts
    }

    /// Whether a credential of type `vct` from this issuer is in scope.
    public func isAuthorized(for vct: String?) -> Bool {
        vcts.isEmpty || vct.map(vcts.contains) == true
    }
}

extension Sequence<SDJWTVCMetadataIssuer> {
    /// The listing of `iss`: the entry whose `iss` is the same bytes (an identifier is case-sensitive and never
    /// normalised, so Swift's canonical-equivalence `==` is not used).
    public func listing(of iss: String) -> SDJWTVCMetadataIssuer? {
        first { $0.iss.utf8.elementsEqual(iss.utf8) }
    }
}
