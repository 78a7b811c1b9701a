/// `issuer.valueDigests`: the digest of every IssuerSignedItemBytes, as received, equals the MSO digest for
/// its namespace and digestID.
struct ValueDigestsCheck: DocumentCheck {
    let id = VerificationCheckID.issuerValueDigests

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        let evaluation = context.digests
        guard evaluation.algorithm != nil else {
            return .failed(.digestAlgorithmUnsupported,
                           "digest algorithm \"\(context.mso.digestAlgorithm)\" is not SHA-256, SHA-384 or SHA-512")
        }
        func list(_ wanted: DigestEvaluation.ItemResult) -> [String] {
            evaluation.results.filter { $0.result == wanted }.map { "\($0.nameSpace)/\($0.identifier) (digestID \($0.digestID))" }
        }
        let mismatched = list(.mismatched)
        if !mismatched.isEmpty {
            return .failed(.digestMismatch, "digest differs for " + mismatched.joined(separator: ", "))
        }
        let missing = list(.missing)
        if !missing.isEmpty {
            return .failed(.digestMissing, "no MSO digest for " + missing.joined(separator: ", "))
        }
        return .passed("\(evaluation.results.count) digests match (\(context.mso.digestAlgorithm))")
    }
}
