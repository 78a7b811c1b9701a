import Encodings

/// Why a proximity session could not be opened from what the reader forwarded (a 400 with this code). Failures of
/// the mdoc's answer are ``MDoc/ResponseFailure``s, reported like every other verification failure.
public typealias ProximityError = CodedFailure<ProximityErrorCode>

/// The codes of ``ProximityError``.
public enum ProximityErrorCode: String, Sendable, CaseIterable {
    case deviceEngagementInvalid = "DEVICE_ENGAGEMENT_INVALID"
    case handoverInvalid = "HANDOVER_INVALID"
    case deviceRequestInvalid = "DEVICE_REQUEST_INVALID"
}
