import MDoc

extension FailureCode {
    /// SessionData is not `{? "data": bstr, ? "status": uint}`.
    public static let sessionDataMalformed = FailureCode(rawValue: "SESSION_DATA_MALFORMED")
    /// The mdoc encrypted with a message counter other than the next one expected (replayed or out of order).
    public static let sessionCounterInvalid = FailureCode(rawValue: "SESSION_COUNTER_INVALID")
    /// The mdoc encrypted with the wrong session key (SKReader instead of SKDevice).
    public static let sessionKeyMismatch = FailureCode(rawValue: "SESSION_KEY_MISMATCH")
    /// The mdoc ended the session with a status (10, 11 or 20) instead of answering.
    public static let sessionEndedByDevice = FailureCode(rawValue: "SESSION_ENDED_BY_DEVICE")
    /// Every code this module answers with.
    public static let proximityCodes: [FailureCode] = [.sessionDataMalformed, .sessionCounterInvalid, .sessionKeyMismatch,
                                                       .sessionEndedByDevice]
}
