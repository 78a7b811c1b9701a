import TrustStore
import X509

/// `request.trustedAuthorities`: when the request named trusted authorities for the docType (OpenID4VP 1.0 §6.1.1.1
/// `aki`; ISO 18013-5 `issuerIdentifiers`), a certificate of the x5chain the credential carries has an
/// AuthorityKeyIdentifier whose keyIdentifier is one of them: byte for byte, the key identifier and not the
/// extension's DER. The issuer's trust is judged by `issuer.certificateChain` all the same; this holds the answer to
/// what was asked. Not applicable when the request named none, or was not given.
struct TrustedAuthoritiesCheck: DocumentCheck {
    let id = VerificationCheckID.requestTrustedAuthorities

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        Self.outcome(docType: context.document.docType, presented: context.chain.presentedAuthorityKeyIdentifiers,
                     requested: context.options.requestedItems)
    }

    /// The rule over the AuthorityKeyIdentifiers of the certificates a credential of `docType` carries.
    static func outcome(docType: String, presented: [[UInt8]], requested: RequestedItems?) -> CheckOutcome {
        guard let requested else { return .notApplicable("the caller did not give the request") }
        let named = requested.requests(for: docType).compactMap(\.issuerKeyIdentifiers)
        guard !named.isEmpty else { return .notApplicable("the request names no trusted authorities") }
        let wanted = Set(named.joined())
        if let match = presented.first(where: wanted.contains) {
            return .passed("the x5chain names authority key identifier \(match.hexString)")
        }
        return .failed(.issuerNotTrustedAuthority, "no certificate of the x5chain has an AuthorityKeyIdentifier among the \(wanted.count) "
                       + "the request names (the x5chain names: "
                       + (presented.isEmpty ? "none" : presented.map(\.hexString).joined(separator: ", ")) + ")")
    }
}
