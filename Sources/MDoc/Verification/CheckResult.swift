/// The outcome of one check.
public enum CheckStatus: String, Sendable, Codable {
    case passed
    case failed
    case warning
    case notApplicable
}

/// One check's result: its ID, outcome, and for failures and warnings a stable code and a readable detail.
public struct CheckResult: Sendable, Equatable {
    public let id: VerificationCheckID
    public let status: CheckStatus
    public let code: VerificationErrorCode?
    public let detail: String?

    public init(id: VerificationCheckID, status: CheckStatus, code: VerificationErrorCode? = nil, detail: String? = nil) {
        self.id = id
        self.status = status
        self.code = code
        self.detail = detail
    }
}

/// What a check decides, before it is tagged with the check's ID.
public enum CheckOutcome: Sendable, Equatable {
    case passed(String? = nil)
    case failed(VerificationErrorCode, String)
    case warning(VerificationErrorCode, String)
    case notApplicable(String? = nil)

    func result(for id: VerificationCheckID) -> CheckResult {
        switch self {
        case .passed(let detail): return CheckResult(id: id, status: .passed, detail: detail)
        case .failed(let code, let detail): return CheckResult(id: id, status: .failed, code: code, detail: detail)
        case .warning(let code, let detail): return CheckResult(id: id, status: .warning, code: code, detail: detail)
        case .notApplicable(let detail): return CheckResult(id: id, status: .notApplicable, detail: detail)
        }
    }
}
