/// verifierd's bounds on one SD-JWT presentation, whatever it declares: each is checked before the work it bounds.
public struct SDJWTLimits: Sendable, Equatable {
    /// Bytes of the whole presentation (a PID with 15 disclosures and an x5c of two is about 6 KB).
    public var maximumBytes: Int
    /// Disclosures in one presentation.
    public var maximumDisclosures: Int
    /// Nesting of the payload and of disclosed values together.
    public var maximumDepth: Int
    /// JSON values in one JWT part or disclosure.
    public var maximumValues: Int
    /// Certificates in `x5c`.
    public var maximumCertificates: Int

    public init(maximumBytes: Int = 128 << 10, maximumDisclosures: Int = 256, maximumDepth: Int = 32,
                maximumValues: Int = 8_192, maximumCertificates: Int = 5) {
        self.maximumBytes = maximumBytes
        self.maximumDisclosures = maximumDisclosures
        self.maximumDepth = maximumDepth
        self.maximumValues = maximumValues
        self.maximumCertificates = maximumCertificates
    }
}
