/// What a zero-knowledge document's report adds: the system that proved it, the time it states, and what the proof
/// does and does not establish (stable tokens, explained in docs/verification.md), so that no reader takes a
/// proven age for a fully checked mdoc.
public struct ZeroKnowledgeSummary: Sendable, Equatable {
    /// The system's id as the document named it, and its circuit.
    public let system: String
    public let circuitHash: String?
    public let version: Int?
    /// `YYYY-MM-DDTHH:MM:SSZ`, as the proof states it (the circuit checks validFrom ≤ timestamp ≤ validUntil).
    public let timestamp: String

    /// What a verified proof establishes.
    public static let proves = [
        "issuerSignature",       // the DS key signed an MSO of this docType
        "elementDigests",        // the disclosed elements, with these values and in this order, are in that MSO
        "validityAtTimestamp",   // validFrom ≤ timestamp ≤ validUntil
        "deviceSignature",       // the MSO's device key signed this SessionTranscript and docType
    ]
    /// What it does not.
    public static let doesNotProve = [
        "revocationStatus",      // the MSO's status reference stays hidden: revocation is not checked
        "deviceKey",             // the device key is hidden: it cannot be pinned or compared
        "validityDates",         // only that the timestamp lies within them
        "nameSpace",             // not bound by the proof: verifierd fixes it from the docType
        "otherElements",         // nothing about elements not disclosed
    ]
}
