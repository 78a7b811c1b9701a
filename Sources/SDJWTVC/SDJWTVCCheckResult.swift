import MDoc

/// One SD-JWT VC check's result: its ID, outcome, and for failures and warnings a stable code and a readable detail
/// (never a claim value).
public struct SDJWTVCCheckResult: Sendable, Equatable, Error {
    public let id: SDJWTVCCheckID
    public let status: CheckStatus
    public let code: FailureCode?
    public let detail: String?

    public init(id: SDJWTVCCheckID, status: CheckStatus, code: FailureCode? = nil, detail: String? = nil) {
        self.id = id
        self.status = status
        self.code = code
        self.detail = detail
    }

    static func passed(_ id: SDJWTVCCheckID, _ detail: String? = nil) -> Self { Self(id: id, status: .passed, detail: detail) }
    static func notApplicable(_ id: SDJWTVCCheckID, _ detail: String) -> Self { Self(id: id, status: .notApplicable, detail: detail) }
    static func failed(_ id: SDJWTVCCheckID, _ code: FailureCode, _ detail: String) -> Self {
        Self(id: id, status: .failed, code: code, detail: detail)
    }
    static func warning(_ id: SDJWTVCCheckID, _ code: FailureCode, _ detail: String) -> Self {
        Self(id: id, status: .warning, code: code, detail: detail)
    }
}

extension FailureCode {
    public init(_ code: SDJWTVCErrorCode) { self.init(rawValue: code.rawValue) }
}
