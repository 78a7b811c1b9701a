import SwiftASN1

/// Splits PEM (one or many certificates) or DER input into DER certificate bytes.
public enum CertificateParsing {
    /// The DER bytes of every certificate in `data`: PEM with one or more `CERTIFICATE` blocks, or a single DER
    /// certificate.
    public static func derCertificates(from data: [UInt8], source: String? = nil) throws(TrustAnchorError) -> [[UInt8]] {
        if data.first == 0x30 { return [data] }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .unparsable(source: source, reason: "neither DER nor PEM text")
        }
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: text)
        } catch {
            throw .unparsable(source: source, reason: "invalid PEM: \(error)")
        }
        let certificates = documents.filter { $0.discriminator == "CERTIFICATE" }.map(\.derBytes)
        guard !certificates.isEmpty else { throw .unparsable(source: source, reason: "no CERTIFICATE block") }
        return certificates
    }
}
