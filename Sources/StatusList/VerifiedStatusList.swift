import CertificateRevocation
import Foundation
import MDoc

/// A status list token whose signature, signer and claims held, ready to answer lookups.
public struct VerifiedStatusList: Sendable {
    /// What the token carries.
    public enum Content: Sendable {
        /// A Token Status List: `bits` per entry, the decompressed `lst`.
        case statusList(bits: Int, statuses: [UInt8])
        /// An identifier list: the listed identifiers.
        case identifierList(Set<[UInt8]>)
    }

    public let uri: String
    public let content: Content
    public let issuedAt: Date
    public let expiresAt: Date?
    public let timeToLive: TimeInterval?
    public let signerTrust: StatusEvidence.SignerTrust
    public let signerCertificate: [UInt8]
    /// The signer's path, each certificate with its issuer, for CRL checking (empty for a list signed by an issuer's
    /// metadata key).
    public var signerLinks: [ChainRevocationChecker.Link] = []

    /// The bytes this list holds in memory: its statuses or identifiers (each with the set's own cost per entry),
    /// its URI and its signer's certificate. What a cache counts against its byte budget.
    public var heldBytes: Int {
        let content: Int
        switch self.content {
        case .statusList(_, let statuses): content = statuses.count
        case .identifierList(let identifiers): content = identifiers.reduce(0) { $0 + $1.count + 48 }
        }
        return content + uri.utf8.count + signerCertificate.count + 256
    }

    /// The status at `index`, or nil when the index is out of range (the token must then be rejected).
    public func status(at index: UInt64) -> UInt8? {
        guard case .statusList(let bits, let statuses) = content else { return nil }
        let entries = UInt64(statuses.count) * 8 / UInt64(bits)
        guard index < entries else { return nil }
        let bit = index * UInt64(bits)
        let byte = statuses[Int(bit / 8)]
        let shift = UInt8(bit % 8)
        let mask = UInt8(truncatingIfNeeded: (1 << bits) - 1)
        return (byte >> shift) & mask
    }

    /// Whether `identifier` is listed; nil when this is not an identifier list.
    public func lists(_ identifier: [UInt8]) -> Bool? {
        guard case .identifierList(let identifiers) = content else { return nil }
        return identifiers.contains(identifier)
    }
}
