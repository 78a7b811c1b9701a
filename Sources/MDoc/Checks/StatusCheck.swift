/// `mso.status`: revocation status is not checked yet; an MSO that carries a status reference says so.
struct StatusCheck: DocumentCheck {
    let id = VerificationCheckID.msoStatus

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        guard context.mso.status != nil else { return .notApplicable("the MSO has no status entry") }
        return .warning(.statusUnchecked, "the MSO carries a status reference; revocation status was not checked")
    }
}
