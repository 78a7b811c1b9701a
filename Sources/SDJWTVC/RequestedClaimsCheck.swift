import MDoc
import SDJWT
import StrictJSON

/// `request.claims` for an SD-JWT VC (OpenID4VP 1.0 6.3, 6.4, B.3.5, 14.9): `vct` among `meta.vct_values`; every
/// disclosure on or under a requested path (a wallet must not disclose more, and its value is never returned); the
/// requested claims present, with the query's `values` enforced here rather than trusted to the wallet.
enum RequestedClaimsCheck {
    /// `akaVcts`: the credential's plain `aka_vcts` (SD-JWT VC -18 and later: other names of its type, which match
    /// `meta.vct_values` too). An alias is the issuer's own word: it satisfies a requested type only when
    /// `issuerScope` (the operator's scope of the anchor or listing that vouches for the issuer) holds that type too,
    /// exactly as `vct` itself is held to it by `sdjwt.issuerCertificateChain`.
    static func evaluate(query: SDJWTVCQuery, vct: String, akaVcts: [String], issuerScope: (String) -> Bool, claims: JSON,
                         disclosedPaths: [ClaimPath]) -> SDJWTVCCheckResult {
        let id = SDJWTVCCheckID.requestClaims
        if !query.vctValues.contains(vct) {
            let requestedAliases = akaVcts.filter(query.vctValues.contains)
            guard let alias = requestedAliases.first else {
                return .failed(id, FailureCode(.vctNotRequested), "vct \"\(vct.prefix(128))\" is not among the query's vct_values")
            }
            guard requestedAliases.contains(where: issuerScope) else {
                return .failed(id, FailureCode(.issuerNotAuthorizedForVCT),
                               "aka_vcts names the requested type \"\(alias.prefix(128))\", but the issuer is not trusted for it "
                               + "(its anchor or listing is scoped to other types); an alias the issuer chose does not widen its scope")
            }
        }
        guard query.restrictsClaims else { return .passed(id, "vct accepted; every claim reported") }
        let patterns = query.claims.map(\.path)
        if let unrequested = disclosedPaths.first(where: { !ClaimsPathPointer.isRequested($0, by: patterns) }) {
            return .failed(id, FailureCode(.elementNotRequested), "the presentation discloses \(unrequested.shortDotted), which the query does not request")
        }
        var satisfied: [Int: Bool] = [:]
        var firstProblem: (code: SDJWTVCErrorCode, detail: String)?
        for (index, claim) in query.claims.enumerated() {
            let selected = ClaimsPathPointer.select(claim.path, in: claims)
            if selected.isEmpty {
                satisfied[index] = false
                if firstProblem == nil { firstProblem = (.claimMissing, "requested claim \(claim.pathText) is not in the presentation") }
            } else if let values = claim.values, !selected.contains(where: { value in values.contains { ClaimsPathPointer.matches(value, $0) } }) {
                satisfied[index] = false
                if firstProblem == nil { firstProblem = (.claimValueMismatch, "requested claim \(claim.pathText) has none of the query's values") }
            } else {
                satisfied[index] = true
            }
        }
        if query.claimSets.isEmpty {
            if let firstProblem { return .failed(id, FailureCode(firstProblem.code), firstProblem.detail) }
        } else {
            let met = query.claimSets.contains { option in
                option.allSatisfy { claimId in
                    query.claims.indices.contains { query.claims[$0].id == claimId && satisfied[$0] == true }
                }
            }
            if !met {
                let problem = firstProblem ?? (.claimMissing, "no claim_sets option is met")
                return .failed(id, FailureCode(problem.code), "no claim_sets option is met: \(problem.detail)")
            }
        }
        return .passed(id, "vct requested; \(disclosedPaths.count) disclosure(s), all requested")
    }
}
