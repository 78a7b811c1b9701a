/// How a flow's library has a DeviceResponse verified once it has it in the clear: over the SessionTranscript both
/// sides built, for what the request asked (nil when the request is not known). The caller injects it, choosing the
/// trust set, the verification time and revocation (`StatusAwareVerifier`); the flows stay free of those choices.
public typealias DeviceResponseCheck = @Sendable (_ response: DeviceResponse, _ sessionTranscript: [UInt8],
                                                  _ requested: RequestedItems?) async -> VerificationReport
