import Encodings

/// Splits PEM (one or many certificates) or DER input into DER certificate bytes, with errors that say which block
/// and line, never a parser library's own message.
public enum CertificateParsing {
    /// The DER bytes of every certificate in `data`: PEM (RFC 7468, any line ends) with one or more `CERTIFICATE`
    /// blocks (other blocks, such as a key, are skipped), or a single DER certificate.
    public static func derCertificates(from data: [UInt8], source: String? = nil) throws(TrustAnchorError) -> [[UInt8]] {
        if data.first == 0x30 { return [data] }
        let blocks: [PEMBlock]
        do {
            blocks = try PEM.blocks(in: data)
        } catch {
            throw .unparsable(source: source, reason: error.description)
        }
        let certificates = blocks.filter { $0.label == "CERTIFICATE" }.map(\.bytes)
        guard !certificates.isEmpty else {
            throw .unparsable(source: source, reason: blocks.isEmpty
                ? "no PEM block and not DER"
                : "no CERTIFICATE block among \(blocks.count) PEM blocks")
        }
        return certificates
    }
}
