/// Stable identifiers of an SD-JWT VC's checks, in the fixed order they are reported.
public enum SDJWTVCCheckID: String, Sendable, CaseIterable, Codable {
    /// `typ` `dc+sd-jwt`, `alg` on the allow-list, no unknown `crit`, `x5c` present, the ES256 signature by `x5c[0]`.
    case issuerSignature = "sdjwt.issuerSignature"
    /// `x5c` to an anchor of the SD-JWT VC issuer trust set (scoped by `vct`), with the issuer rule set.
    case issuerCertificateChain = "sdjwt.issuerCertificateChain"
    /// Every certificate of the path below the anchor against its issuer's CRL (RFC 5280 §6.3), for a chain that holds.
    case issuerCertificateRevocation = "sdjwt.issuerCertificateRevocation"
    /// The disclosures applied to the payload under every RFC 9901 7.1 rule.
    case disclosures = "sdjwt.disclosures"
    /// `vct` and the claims the verifier reads (`iss`, `iat`, `nbf`, `exp`, `cnf`, `status`) are well formed.
    case claims = "sdjwt.claims"
    /// `nbf` and `exp` against the verification time, with the clock skew.
    case validity = "sdjwt.validity"
    /// The KB-JWT: required when the credential has `cnf` or the query asks for holder binding.
    case keyBinding = "sdjwt.keyBinding"
    /// OpenID4VP `transaction_data`: the KB-JWT's `transaction_data_hashes` approve exactly the strings addressed to
    /// this credential, in order, with an offered algorithm.
    case transactionData = "sdjwt.transactionData"
    /// `status.status_list`: the JWT status list, for a credential valid as issued.
    case status = "sdjwt.status"
    /// DCQL: `vct` among `meta.vct_values`, every disclosure requested, the requested claims present with their values.
    case requestClaims = "request.claims"
    /// DCQL `trusted_authorities` (`aki`): a certificate of `x5c` carries one of the AuthorityKeyIdentifiers asked for.
    case requestTrustedAuthorities = "request.trustedAuthorities"
}
