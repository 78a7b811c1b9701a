import COSE

/// `issuer.signature`: issuerAuth is a valid COSE_Sign1 over MobileSecurityObjectBytes by the DS key, with the
/// protected header's alg fitting that key.
struct IssuerSignatureCheck: DocumentCheck {
    let id = VerificationCheckID.issuerSignature

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        // Without a trusted path the signature could not change the verdict, and its cost (curve, size) would be
        // the sender's choice: it is not checked.
        guard context.chain.anchor != nil else {
            return .notApplicable("not checked: no trusted IACA issued the document signer (see issuer.certificateChain)")
        }
        guard context.chain.documentSigner != nil else {
            return .failed(.issuerSignatureInvalid, "no document signer certificate to verify with")
        }
        guard let key = context.chain.documentSignerKey else {
            return .failed(.algorithmUnsupported, "the DS key is not an EC P-256, P-384 or P-521 key")
        }
        do {
            try context.document.issuerSigned.issuerAuth.verify(using: key)
            return .passed("\(context.document.issuerSigned.issuerAuth.headers.algorithmDescription) signature by the DS key")
        } catch {
            switch error {
            case .algorithmMissing, .algorithmUnsupported, .algorithmKeyMismatch:
                return .failed(.algorithmUnsupported, error.description)
            default:
                return .failed(.issuerSignatureInvalid, error.description)
            }
        }
    }
}

extension COSEHeaders {
    var algorithmDescription: String {
        (try? algorithm().description) ?? "unknown alg"
    }
}
