import Testing
@testable import MDoc

/// "Valid as issued" (which status lists are fetched, and whether `mso.status` applies) over every outcome the
/// chain, profile and issuer-signature checks can have: a granted warning counts as valid, a failure never does, and
/// a chain or signature that did not apply is no proof of the issuer.
struct ValidAsIssuedRuleTests {
    static let outcomes: [(name: String, outcome: CheckOutcome)] = [
        ("passed", .passed()),
        ("warning", .warning(.documentSignerEKUPrePublication, "granted")),
        ("failed", .failed(.issuerCertificateInvalid, "no")),
        ("notApplicable", .notApplicable()),
    ]

    @Test func everyCombinationOfOutcomes() {
        for chain in Self.outcomes {
            for profile in Self.outcomes {
                for signature in Self.outcomes {
                    let reason = DocumentContext.notValidAsIssuedReason(chain: chain.outcome, profile: profile.outcome,
                                                                        signature: signature.outcome)
                    let valid = ["passed", "warning"].contains(chain.name) && profile.name != "failed"
                        && ["passed", "warning"].contains(signature.name)
                    #expect((reason == nil) == valid, "chain \(chain.name), profile \(profile.name), signature \(signature.name)")
                }
            }
        }
    }

    @Test func theReasonNamesTheFirstCheckThatDecided() {
        #expect(DocumentContext.notValidAsIssuedReason(chain: .failed(.issuerCertificateUntrusted, "x"), profile: .passed(),
                                                       signature: .passed()) == "issuer.certificateChain failed (ISSUER_CERTIFICATE_UNTRUSTED)")
        #expect(DocumentContext.notValidAsIssuedReason(chain: .passed(), profile: .failed(.certificateProfileViolation, "x"),
                                                       signature: .passed()) == "issuer.certificateProfile failed (CERTIFICATE_PROFILE_VIOLATION)")
        #expect(DocumentContext.notValidAsIssuedReason(chain: .warning(.documentSignerEKUPrePublication, "x"),
                                                       profile: .warning(.issuingCountryMismatch, "x"),
                                                       signature: .failed(.issuerSignatureInvalid, "x"))
            == "issuer.signature failed (ISSUER_SIGNATURE_INVALID)")
    }
}
