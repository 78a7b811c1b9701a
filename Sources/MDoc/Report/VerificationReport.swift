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

    private init(code: FailureCode, detail: String) {
        verified = false
        failureCode = code
        failureDetail = detail
        documents = []
    }
}
