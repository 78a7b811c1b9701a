/// `mso.docType`: the MSO's docType equals the document's.
struct DocTypeCheck: DocumentCheck {
    let id = VerificationCheckID.msoDocType

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        let signed = context.mso.docType
        let claimed = context.document.docType
        guard signed == claimed else {
            return .failed(.docTypeMismatch, "document says \(claimed), MSO says \(signed)")
        }
        return .passed()
    }
}
