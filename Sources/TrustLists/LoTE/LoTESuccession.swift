extension VerifiedLoTE {
    /// Whether this list may follow the one in force for its source, given that one's sequence number and SHA-256
    /// (nil when the source has none): `LoTESequenceNumber` never goes back (TS 119 602: it increases with every
    /// issue and is never reused), and the same number with other content is refused too. The same list fetched
    /// again passes.
    public func checkSuccession(afterSequence inForce: UInt64?, sha256 inForceSHA256: String?) throws(LoTEError) {
        guard let inForce else { return }
        if sequenceNumber < inForce {
            throw LoTEError(.sequenceRegression, "LoTESequenceNumber \(sequenceNumber) is lower than \(inForce), the list in force")
        }
        if sequenceNumber == inForce, let inForceSHA256, inForceSHA256 != sha256 {
            throw LoTEError(.sequenceRegression, "LoTESequenceNumber \(sequenceNumber) is reused: the list in force has the "
                            + "same number with other content")
        }
    }
}
