import Foundation
import MDoc

/// The service clock, and the one way a request may move it: `verificationTime`, only where the configuration
/// allows it (`verification.allowVerificationTimeOverride`, tests and replays).
struct RequestClock: Sendable {
    let allowOverride: Bool
    let now: @Sendable () -> Date

    /// An RFC 3339 time, honoured only when overriding the clock is allowed; without one, now.
    func verificationTime(_ text: String?) throws(ServiceProblem) -> Date {
        guard let text else { return now() }
        guard allowOverride else {
            throw ServiceProblem(.badRequest, "VERIFICATION_TIME_OVERRIDE_DISABLED",
                                 "verificationTime is not accepted: verification.allowVerificationTimeOverride is false")
        }
        guard let date = TDate.parse(text) else {
            throw ServiceProblem.invalidRequest("\"verificationTime\" is not an RFC 3339 date-time")
        }
        return date
    }
}
