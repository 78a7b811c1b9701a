import MDoc
import SDJWTVC

/// The outcome of one answer: its documents in the order presented, each with the DCQL credential id it answers and
/// its format's report, or a failure of the answer as a whole.
public struct OpenID4VPVerdict: Sendable {
    /// One presented credential.
    public struct Document: Sendable {
        public enum Report: Sendable {
            case mdoc(DocumentReport)
            case sdJwtVc(SDJWTVCReport)
        }

        public let credentialId: String
        public let report: Report

        public init(credentialId: String, report: Report) {
            self.credentialId = credentialId
            self.report = report
        }

        public var verified: Bool {
            switch report {
            case .mdoc(let document): return document.verified
            case .sdJwtVc(let document): return document.verified
            }
        }

        public var firstFailureCode: FailureCode? {
            switch report {
            case .mdoc(let document): return document.firstFailureCode.map(FailureCode.init)
            case .sdJwtVc(let document): return document.firstFailureCode
            }
        }
    }

    public let documents: [Document]
    /// The mdoc documents as one report, or the answer's failure (its code and detail) when it failed as a whole.
    public let report: VerificationReport
    /// True when there is at least one document and every document verified.
    public let verified: Bool
    /// The answer's failure, else the first failing document's first failing code.
    public let failureCode: FailureCode?

    /// A verdict of mdoc documents only (or of a failure, with no document).
    public init(report: VerificationReport, credentialIds: [String]) {
        self.report = report
        documents = zip(credentialIds, report.documents).map { Document(credentialId: $0, report: .mdoc($1)) }
        verified = report.verified
        failureCode = report.failureCode
    }

    public init(documents: [Document]) {
        self.documents = documents
        report = VerificationReport(documents: documents.compactMap {
            if case .mdoc(let document) = $0.report { return document }
            return nil
        })
        verified = !documents.isEmpty && documents.allSatisfy(\.verified)
        failureCode = documents.lazy.compactMap(\.firstFailureCode).first
    }

    /// The credential id of each document, in order.
    public var credentialIds: [String] { documents.map(\.credentialId) }

    /// The detail of a failure of the whole answer.
    public var failureDetail: String? { report.failureDetail }
}
