import CBOR

/// Bounds on what reading a VICAL may cost, whatever it declares.
public struct VICALLimits: Sendable, Equatable {
    /// Largest VICAL accepted (the AAMVA list is 21 KB, RDW's 54 KB).
    public var maximumBytes: Int
    /// Most `certificateInfos` entries.
    public var maximumEntries: Int
    /// Most certificates in the signer's x5chain.
    public var maximumChainLength: Int

    public init(maximumBytes: Int = 4 << 20, maximumEntries: Int = 5_000, maximumChainLength: Int = 5) {
        self.maximumBytes = maximumBytes
        self.maximumEntries = maximumEntries
        self.maximumChainLength = maximumChainLength
    }

    public static let `default` = VICALLimits()

    var decoding: CBORDecodingLimits {
        CBORDecodingLimits(maxDepth: 16, maxItems: 64 + maximumEntries * 64, maxInputBytes: maximumBytes)
    }
}
