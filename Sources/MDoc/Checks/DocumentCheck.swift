/// One verification check: a stable ID and a decision over a document's context.
protocol DocumentCheck: Sendable {
    var id: VerificationCheckID { get }
    func evaluate(_ context: DocumentContext) -> CheckOutcome
}
