/// The answer to "can this response be trusted?": an overall verdict, the first failing code, and per document
/// every check and the claims.
public struct VerificationReport: Sendable {
    /// True when there is at least one document and every document verified.
    public let verified: Bool
    /// The first failing code: a response-level failure, or the first failed check of the first failing document.
    public let failureCode: FailureCode?
    /// A readable reason for a response-level failure (parser reason with offset, envelope problem, ...).
    public let failureDetail: String?
    public let documents: [DocumentReport]
    /// For a response refused for want of capacity (``FailureCode/zkCapacityExhausted``): when to try again.
    public private(set) var retryAfterSeconds: Int?

    public init(documents: [DocumentReport]) {
        self.documents = documents
        self.verified = !documents.isEmpty && documents.allSatisfy(\.verified)
        let firstFailing = documents.lazy.compactMap(\.firstFailureCode).first
        self.failureCode = firstFailing.map(FailureCode.init)
        self.failureDetail = nil
    }

    /// A response that could not be judged document by document.
    public static func failure(_ code: FailureCode, _ detail: String) -> VerificationReport {
        VerificationReport(code: code, detail: detail)
    }

    /// A response not judged because the work it needs cannot be done now; the caller may retry after `seconds`.
    public static func busy(_ code: FailureCode, _ detail: String, retryAfterSeconds seconds: Int) -> VerificationReport {
        var report = VerificationReport(code: code, detail: detail)
        report.retryAfterSeconds = max(1, seconds)
        return report
    }

    private init(code: FailureCode, detail: String) {
        verified = false
        failureCode = code
        failureDetail = detail
        documents = []
    }
}
