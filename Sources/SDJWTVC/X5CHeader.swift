import Foundation
import X509

/// The `x5c` JOSE header (RFC 7515 4.1.6): standard (padded) base64 DER certificates, the signer first, read for an
/// SD-JWT VC issuer and for a JWT status list alike.
public enum X5CHeader {
    /// Largest base64 text of one certificate read (a 16 KiB DER).
    public static let maximumEntryBytes = 22_000

    /// Each entry's certificate and DER, in order; nil with the position of the first entry that is not a base64 DER
    /// X.509 certificate.
    public static func certificates(_ entries: [String]) -> Result<[(certificate: Certificate, der: [UInt8])], X5CEntryProblem> {
        var certificates: [(certificate: Certificate, der: [UInt8])] = []
        certificates.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            guard entry.utf8.count <= maximumEntryBytes, let der = Data(base64Encoded: entry).map(Array.init),
                  let certificate = try? Certificate(derEncoded: der)
            else { return .failure(X5CEntryProblem(index: index)) }
            certificates.append((certificate, der))
        }
        return .success(certificates)
    }
}

/// The `x5c` entry (by position) that is not a base64 DER X.509 certificate.
public struct X5CEntryProblem: Error, Sendable {
    public let index: Int
}
