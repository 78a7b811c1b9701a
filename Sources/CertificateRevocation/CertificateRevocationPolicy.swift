/// How CRL checking of issuer chains applies (`crl.mode`).
public struct CertificateRevocationPolicy: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// A revoked certificate fails; so does one whose status could not be determined.
        case enforce
        /// A revoked certificate fails; an undetermined status is a warning (the default).
        case warn
        /// No CRL is fetched; the check is not applicable.
        case off
    }

    public var mode: Mode

    public init(mode: Mode = .warn) {
        self.mode = mode
    }
}
