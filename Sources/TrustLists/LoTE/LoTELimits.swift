/// Bounds on what reading a list of trusted entities may cost, whatever it declares.
public struct LoTELimits: Sendable, Equatable {
    /// Largest list accepted, the whole JWS (the Commission's lists are tens of kilobytes).
    public var maximumBytes: Int
    /// Most entries of `TrustedEntitiesList`.
    public var maximumEntities: Int
    /// Most `TrustedEntityServices` of one entity (and most `ServiceHistory` instances of one service).
    public var maximumServicesPerEntity: Int
    /// Most `X509Certificates` of one service digital identity.
    public var maximumCertificatesPerService: Int
    /// Largest DER certificate, listed or in the header's x5c.
    public var maximumCertificateBytes: Int
    /// Most certificates in the header's x5c.
    public var maximumX5CLength: Int

    public init(maximumBytes: Int = 4 << 20, maximumEntities: Int = 4_096, maximumServicesPerEntity: Int = 64,
                maximumCertificatesPerService: Int = 16, maximumCertificateBytes: Int = 16 << 10,
                maximumX5CLength: Int = 4) {
        self.maximumBytes = maximumBytes
        self.maximumEntities = maximumEntities
        self.maximumServicesPerEntity = maximumServicesPerEntity
        self.maximumCertificatesPerService = maximumCertificatesPerService
        self.maximumCertificateBytes = maximumCertificateBytes
        self.maximumX5CLength = maximumX5CLength
    }

    public static let `default` = LoTELimits()

    /// Most JSON values in the payload: generous for entities with every optional member, small enough that a
    /// document of tiny values cannot build a tree far larger than a real list.
    var maximumJSONValues: Int { 8_192 + maximumEntities * 128 }
}
