import Crypto
import Foundation
import Longfellow
import LongfellowAlgebra
import X509

/// What verifierd accepts of zero-knowledge documents, and the pieces of its rules: the accepted systems (and whether
/// one proves every element a document discloses), the freshness window of the time a proof states, the statement a
/// proof must prove and the issuer key it is proven under, and where proofs run. MDoc applies them, in one place
/// (its `zk.*` checks), together with the document signer's chain to a trusted IACA.
public struct ZkDocumentVerifier: Sendable {
    public let systems: [ZKSystem]
    public let clockSkew: TimeInterval
    /// How long before now a proof's time may lie. Wallets state the end of the current UTC day, so the time is
    /// usually ahead of the clock; one that lies behind it was made earlier.
    public let maximumAge: TimeInterval
    /// Where the service runs proofs; nil: the caller's thread.
    public let pool: ZKProofPool?

    public init(systems: [ZKSystem], clockSkew: TimeInterval = 300, maximumAge: TimeInterval = 86_400, pool: ZKProofPool? = nil) {
        self.systems = systems
        self.clockSkew = clockSkew
        self.maximumAge = maximumAge
        self.pool = pool
    }

    /// The accepted system a document names (by its configured id or its circuit hash).
    public func system(named id: String) -> ZKSystem? {
        systems.first { $0.id == id } ?? systems.first { $0.spec.circuitHash == id }
    }

    /// Whether a proof's time is fresh at `now` (``ZKTime/isFresh(_:now:clockSkew:maximumAge:)``).
    public func isFresh(_ timestamp: String, now: Date) -> Bool {
        ZKTime.isFresh(timestamp, now: now, clockSkew: clockSkew, maximumAge: maximumAge)
    }

    /// The statement a document's proof must prove: the issuer key, the transcript, the docType, the elements in
    /// order with their exact value bytes, and the time.
    public static func statement(_ document: ZkDocument, issuerKey key: (x: Fp256, y: Fp256), sessionTranscript: [UInt8])
        -> MdocZKStatement
    {
        MdocZKStatement(issuerKeyX: key.x, issuerKeyY: key.y, sessionTranscript: sessionTranscript, docType: document.docType,
                        attributes: document.elements.map { .init(identifier: $0.identifier, value: $0.value) },
                        timestamp: document.timestamp)
    }

    /// The P-256 public key of a DER certificate, as field elements; nil when it is not a P-256 key (the circuits
    /// verify ECDSA P-256 only).
    public static func issuerKey(_ der: [UInt8]) -> (x: Fp256, y: Fp256)? {
        guard let certificate = try? Certificate(derEncoded: der) else { return nil }
        return issuerKey(certificate)
    }

    /// The same for a parsed certificate.
    public static func issuerKey(_ certificate: Certificate) -> (x: Fp256, y: Fp256)? {
        guard let key = P256.Signing.PublicKey(certificate.publicKey) else { return nil }
        let point = Array(key.x963Representation)  // 04 ‖ x ‖ y, big-endian
        guard point.count == 65, let x = Fp256(littleEndian: point[1..<33].reversed()),
              let y = Fp256(littleEndian: point[33..<65].reversed()) else { return nil }
        return (x, y)
    }
}
