import TrustStore
import X509

/// The certificate a VICAL source's signer must chain to (`trust.vicalSigners`): the provider's root, or a pinned
/// intermediate or signer certificate.
public struct VICALSignerAnchor: Sendable {
    public let certificate: Certificate
    public let derBytes: [UInt8]
    public let subject: String

    /// Reads the first certificate of PEM or DER input.
    public init(pemOrDER data: [UInt8], source: String? = nil) throws(TrustAnchorError) {
        guard let der = try CertificateParsing.derCertificates(from: data, source: source).first else {
            throw .unparsable(source: source, reason: "no certificate")
        }
        do {
            certificate = try Certificate(derEncoded: der)
        } catch {
            throw .unparsable(source: source, reason: "the DER does not parse as an X.509 certificate (\(DERProblem.phrase(error)))")
        }
        derBytes = der
        subject = certificate.subject.description
    }
}
