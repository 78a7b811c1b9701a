/// Why a proximity session could not be opened from what the reader forwarded (a 400 with this code). Failures of
/// the mdoc's answer are ``MDoc/ResponseFailure``s, reported like every other verification failure.
public struct ProximityError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case deviceEngagementInvalid = "DEVICE_ENGAGEMENT_INVALID"
        case handoverInvalid = "HANDOVER_INVALID"
        case deviceRequestInvalid = "DEVICE_REQUEST_INVALID"
    }

    public let code: Code
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
