import MDoc

/// A proximity failure before the documents could be judged: a stable code and a readable detail.
public struct ProximityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Problems with what the reader forwarded when opening a session (400s).
    public enum RequestProblem: String, Sendable {
        case deviceEngagementInvalid = "DEVICE_ENGAGEMENT_INVALID"
        case handoverInvalid = "HANDOVER_INVALID"
        case deviceRequestInvalid = "DEVICE_REQUEST_INVALID"
    }

    public enum Code: Sendable, Equatable {
        case request(RequestProblem)
        case verification(VerificationErrorCode)

        public var rawValue: String {
            switch self {
            case .request(let problem): return problem.rawValue
            case .verification(let code): return code.rawValue
            }
        }
    }

    public let code: Code
    public let detail: String

    public init(_ problem: RequestProblem, _ detail: String) {
        self.code = .request(problem)
        self.detail = detail
    }

    public init(_ code: VerificationErrorCode, _ detail: String) {
        self.code = .verification(code)
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
