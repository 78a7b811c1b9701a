/// Stable identifiers of the verification checks, in the fixed order they are reported.
public enum VerificationCheckID: String, Sendable, CaseIterable, Codable {
    case issuerCertificateChain = "issuer.certificateChain"
    case issuerCertificateProfile = "issuer.certificateProfile"
    /// Every certificate of the path below the IACA against its issuer's CRL (RFC 5280 §6.3), when the chain verifies.
    case issuerCertificateRevocation = "issuer.certificateRevocation"
    case issuerSignature = "issuer.signature"
    case msoDocType = "mso.docType"
    case issuerValueDigests = "issuer.valueDigests"
    case msoValidity = "mso.validity"
    case msoDeviceKey = "mso.deviceKey"
    case deviceAuthentication = "device.authentication"
    case deviceKeyAuthorizations = "device.keyAuthorizations"
    case msoStatus = "mso.status"
    case requestElements = "request.elements"
    /// The issuer chain names one of the authorities the request asked for (OpenID4VP `trusted_authorities`, `aki`).
    case requestTrustedAuthorities = "request.trustedAuthorities"
    // Zero-knowledge documents (`zkDocuments`): these replace issuer.signature to device.keyAuthorizations, which a
    // proof covers without revealing what they read.
    case zkSystem = "zk.system"
    case zkNameSpace = "zk.nameSpace"
    case zkTimestamp = "zk.timestamp"
    case zkProof = "zk.proof"
}
