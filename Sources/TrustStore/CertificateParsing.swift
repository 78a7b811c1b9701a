import Foundation

/// Splits PEM (one or many certificates) or DER input into DER certificate bytes, with errors that say which block
/// and line, never a parser library's own message.
public enum CertificateParsing {
    /// The DER bytes of every certificate in `data`: PEM with one or more `CERTIFICATE` blocks (other blocks, such as
    /// a key, are skipped), or a single DER certificate.
    public static func derCertificates(from data: [UInt8], source: String? = nil) throws(TrustAnchorError) -> [[UInt8]] {
        if data.first == 0x30 { return [data] }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .unparsable(source: source, reason: "neither DER nor PEM text")
        }
        var certificates: [[UInt8]] = []
        var block = 0
        var open: (label: String, line: Int, body: String)?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(.init(charactersIn: "\r")))
            if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                if let open {
                    throw .unparsable(source: source, reason: "PEM block \(block) (\(open.label), line \(open.line)) has no END line")
                }
                block += 1
                open = (String(line.dropFirst(11).dropLast(5)), index + 1, "")
            } else if line.hasPrefix("-----END "), line.hasSuffix("-----") {
                guard let current = open else {
                    throw .unparsable(source: source, reason: "line \(index + 1): END without BEGIN")
                }
                let label = String(line.dropFirst(9).dropLast(5))
                guard label == current.label else {
                    throw .unparsable(source: source, reason: "PEM block \(block) (line \(current.line)) begins \(current.label) but ends \(label)")
                }
                if label == "CERTIFICATE" {
                    guard let der = Data(base64Encoded: current.body), !der.isEmpty else {
                        throw .unparsable(source: source, reason: "PEM block \(block) (CERTIFICATE, line \(current.line)) is not valid base64")
                    }
                    certificates.append(Array(der))
                }
                open = nil
            } else if open != nil {
                open!.body += line
            }
        }
        if let open {
            throw .unparsable(source: source, reason: "PEM block \(block) (\(open.label), line \(open.line)) has no END line")
        }
        guard !certificates.isEmpty else {
            throw .unparsable(source: source, reason: block == 0 ? "no PEM block and not DER" : "no CERTIFICATE block among \(block) PEM blocks")
        }
        return certificates
    }
}
