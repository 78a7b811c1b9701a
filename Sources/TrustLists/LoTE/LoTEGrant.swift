import X509

/// One certificate a verified list of trusted entities names as a service's digital identity, with what it may be
/// trusted for.
public struct LoTEGrant: Sendable, Equatable {
    /// What the service's type makes the certificate an anchor of.
    public enum Purpose: String, Sendable {
        /// Credentials (mdocs, PIDs, wallet attestations, access or registration certificates, EAAs).
        case issuance
        /// Revocation information only (status lists, CRLs), never credentials.
        case revocation
        /// A register of relying parties (Annex I).
        case register
    }

    public let certificate: Certificate
    /// The certificate as listed (DER).
    public let der: [UInt8]
    /// SHA-256 of ``der``, lowercase hex.
    public let sha256: String
    /// `ServiceTypeIdentifier`.
    public let serviceType: String
    public let purpose: Purpose
    /// The entity's `TEName` in English (else its first name).
    public let entityName: String
    /// False when the service's status withdraws it (a Pub-EAA service not `notified`, or notified only from a time
    /// after the verification time), or its type is none the kind's profile maps to a purpose.
    public let grantsTrust: Bool
    /// The entity's country: the `<CC>` that ends its ETSI `TEInformationURI`
    /// (`http://uri.etsi.org/19602/ListOfTrustedEntities/PIDProvider/DE`), else the certificate's subject
    /// countryName.
    public let country: String?

    public init(certificate: Certificate, der: [UInt8], sha256: String, serviceType: String, purpose: Purpose,
                entityName: String, grantsTrust: Bool, country: String?) {
        self.certificate = certificate
        self.der = der
        self.sha256 = sha256
        self.serviceType = serviceType
        self.purpose = purpose
        self.entityName = entityName
        self.grantsTrust = grantsTrust
        self.country = country
    }
}
