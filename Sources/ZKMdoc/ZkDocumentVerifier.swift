import Crypto
import Foundation
import Longfellow
import LongfellowAlgebra
import X509

/// Verifies one ZkDocument: the accepted system it names, the namespace its docType fixes, the freshness of the time
/// it states, the issuer key of its document signer certificate, and the proof over all of them and the
/// SessionTranscript. The certificate's chain to a trusted IACA is the caller's (the document-signer rules).
public struct ZkDocumentVerifier: Sendable {
    public enum Failure: Error, Sendable, Equatable {
        case systemNotAccepted(String)
        case docTypeNotSupported(String)
        case nameSpaceMismatch(expected: String, stated: String)
        case notFresh(String)
        case issuerKeyUnreadable
        case proof(String)
    }

    /// What a verified document proves: its elements, in the order proven, under the namespace its docType fixes.
    public struct Verified: Sendable {
        public let docType: String
        public let nameSpace: String
        public let elements: [ZkDocument.Element]
        public let timestamp: String
        public let system: String
    }

    public let systems: [ZKSystem]
    public let clockSkew: TimeInterval
    public let maximumAge: TimeInterval

    public init(systems: [ZKSystem], clockSkew: TimeInterval = 300, maximumAge: TimeInterval = 86_400) {
        self.systems = systems
        self.clockSkew = clockSkew
        self.maximumAge = maximumAge
    }

    public func verify(_ document: ZkDocument, sessionTranscript: [UInt8], now: Date) throws(Failure) -> Verified {
        guard let system = systems.first(where: { $0.id == document.zkSystemId || $0.spec.circuitHash == document.zkSystemId }) else {
            throw .systemNotAccepted(String(document.zkSystemId.prefix(80)))
        }
        guard let nameSpace = ZKNameSpaces.nameSpace(for: document.docType) else {
            throw .docTypeNotSupported(String(document.docType.prefix(80)))
        }
        guard document.nameSpace == nameSpace else { throw .nameSpaceMismatch(expected: nameSpace, stated: document.nameSpace) }
        guard ZKTime.isFresh(document.timestamp, now: now, clockSkew: clockSkew, maximumAge: maximumAge) else {
            throw .notFresh(document.timestamp)
        }
        guard let key = Self.issuerKey(document.certificates.first ?? []) else { throw .issuerKeyUnreadable }
        let statement = MdocZKStatement(issuerKeyX: key.x, issuerKeyY: key.y, sessionTranscript: sessionTranscript,
                                        docType: document.docType,
                                        attributes: document.elements.map { .init(identifier: $0.identifier, value: $0.value) },
                                        timestamp: document.timestamp)
        do throws(MdocZKVerifier.Failure) {
            try MdocZKVerifier.verify(document.proof, statement: statement, circuit: system.circuit, spec: system.spec)
        } catch {
            throw .proof(error.description)
        }
        return Verified(docType: document.docType, nameSpace: nameSpace, elements: document.elements, timestamp: document.timestamp,
                        system: system.id)
    }

    /// The P-256 public key of a DER certificate, as field elements.
    static func issuerKey(_ der: [UInt8]) -> (x: Fp256, y: Fp256)? {
        guard let certificate = try? Certificate(derEncoded: der), let key = P256.Signing.PublicKey(certificate.publicKey) else {
            return nil
        }
        let point = Array(key.x963Representation)  // 04 ‖ x ‖ y, big-endian
        guard point.count == 65, let x = Fp256(littleEndian: point[1..<33].reversed()),
              let y = Fp256(littleEndian: point[33..<65].reversed()) else { return nil }
        return (x, y)
    }
}
