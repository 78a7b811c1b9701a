import CBOR
import CertificationPath
import Crypto
import Encodings
import Foundation
import SwiftASN1
import X509

/// The reader's signing key and certificate chain for `readerAuth`, checked once at start-up.
///
/// Rules: the chain file holds the reader (leaf) certificate first, then each issuer in order (the root may be
/// included); every certificate is signed by the next; the leaf holds a P-256 key equal to the signing key and
/// the mdoc reader EKU `1.0.18013.5.1.6`. The `x5chain` sent is the chain without a self-signed root: the wallet
/// holds the roots it trusts (provider apps match the root's subject key identifier).
public struct ReaderAuthenticationKey: Sendable {
    /// ISO 18013-5 Annex B: id-mdl-kp-mdlReaderAuth.
    public static let readerEKU: ASN1ObjectIdentifier = [1, 0, 18013, 5, 1, 6]

    public let privateKey: P256.Signing.PrivateKey
    /// Leaf first, as read from the chain file.
    public let chain: [Certificate]
    /// DER of the certificates sent in `x5chain`.
    public let x5chain: [[UInt8]]
    /// The subject key identifier of the root (when the chain includes it), else the leaf's authority key
    /// identifier: the value provider apps list in `supportedAuthorityKeyIdentifiers`.
    public let rootKeyIdentifier: [UInt8]?

    /// A problem with the configured key or chain, naming which.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public enum Part: String, Sendable {
            case signingKey
            case certificateChain
        }

        public let part: Part
        public let description: String
    }

    public init(keyPEM: String, chainPEM: String) throws(Problem) {
        let key: P256.Signing.PrivateKey
        do {
            key = try P256PrivateKeyPEM.key(from: keyPEM)
        } catch {
            switch error {
            case .notPEM(let reason): throw Problem(part: .signingKey, description: "not PEM: \(reason)")
            case .encrypted, .noKeyBlock:
                throw Problem(part: .signingKey, description: "holds no PRIVATE KEY (PKCS#8) or EC PRIVATE KEY (SEC1) block")
            case .notP256: throw Problem(part: .signingKey, description: "not a P-256 private key (PKCS#8 or SEC1 PEM)")
            }
        }
        let blocks: [PEMBlock]
        do {
            blocks = try PEM.blocks(in: chainPEM)
        } catch {
            throw Problem(part: .certificateChain, description: "not PEM: \(error)")
        }
        var chain: [Certificate] = []
        var ders: [[UInt8]] = []
        for block in blocks where block.label == "CERTIFICATE" {
            do {
                chain.append(try Certificate(derEncoded: block.bytes))
                ders.append(block.bytes)
            } catch {
                throw Problem(part: .certificateChain,
                              description: "PEM block \(block.index) (line \(block.line)) is not a DER X.509 certificate")
            }
        }
        guard let leaf = chain.first else { throw Problem(part: .certificateChain, description: "holds no certificate") }
        guard chain.count <= 4 else { throw Problem(part: .certificateChain, description: "holds more than 4 certificates") }
        guard let leafKey = P256.Signing.PublicKey(leaf.publicKey) else {
            throw Problem(part: .certificateChain, description: "the reader certificate's key is not on P-256")
        }
        let matches = { (certificate: Certificate) in
            P256.Signing.PublicKey(certificate.publicKey)?.rawRepresentation == key.publicKey.rawRepresentation
        }
        guard matches(leaf) || !chain.dropFirst().contains(where: matches) else {
            throw Problem(part: .certificateChain,
                          description: "the signing key's certificate is not first: the order must be reader certificate "
                              + "first, then each issuer")
        }
        guard leafKey.rawRepresentation == key.publicKey.rawRepresentation else {
            throw Problem(part: .signingKey, description: "does not match the reader certificate (the first in the chain)")
        }
        // The configured chain must lead, in the order given, from the reader certificate to its last certificate
        // (trusted as configured), under the reader rule set.
        let builder = CertificationPathBuilder(anchors: PinnedAnchors([chain[chain.count - 1]], name: "last certificate of the chain"),
                                               rules: Self.rules)
        switch builder.build(leaf: leaf, others: Array(chain.dropFirst())) {
        case .success(let built) where built.path + [built.anchor] == chain:
            break
        case .success:
            throw Problem(part: .certificateChain,
                          description: "each certificate must be issued by the next: the order must be reader certificate "
                              + "first, then each issuer")
        case .failure(let problem) where problem.kind == .untrusted:
            throw Problem(part: .certificateChain,
                          description: "a certificate is not issued by the next one (\(problem.detail)): the order must be "
                              + "reader certificate first, then each issuer")
        case .failure(let problem):
            throw Problem(part: .certificateChain, description: problem.detail)
        }
        let last = chain[chain.count - 1]
        let endsWithRoot = chain.count > 1 && last.subject == last.issuer
            && last.publicKey.isValidSignature(last.signature, for: last)
        privateKey = key
        self.chain = chain
        x5chain = endsWithRoot ? Array(ders.dropLast()) : ders
        if endsWithRoot, let ski = try? last.extensions.subjectKeyIdentifier {
            rootKeyIdentifier = Array(ski.keyIdentifier)
        } else if let aki = try? chain[x5chain.count - 1].extensions.authorityKeyIdentifier, let id = aki.keyIdentifier {
            rootKeyIdentifier = Array(id)
        } else {
            rootKeyIdentifier = nil
        }
    }

    /// Signs a detached-payload COSE_Sign1 (ES256, `x5chain` unprotected): `[h'a10126', {33: x5chain}, null, sig]`.
    /// `payload` is the tag-24 ReaderAuthenticationBytes or ReaderAuthenticationAllBytes.
    public func sign(detachedPayload payload: [UInt8]) throws -> CBOR {
        let protected = CBOREncoder().encode(.map([.init(1, -7)]))
        // Sig_structure: the detached payload goes in as a byte string (RFC 9052 4.4).
        let toBeSigned = CBOREncoder().encode([.text("Signature1"), .bytes(protected), .bytes([]), .bytes(payload)])
        // swift-crypto hashes with SHA-256 for P-256; the raw form is r || s, 64 bytes, as COSE wants.
        let signature = try privateKey.signature(for: toBeSigned).rawRepresentation
        let chainValue: CBOR = x5chain.count == 1 ? .bytes(x5chain[0]) : .array(x5chain.map { .bytes($0) })
        return [.bytes(protected), .map([.init(33, chainValue)]), nil, .bytes(Array(signature))]
    }

    /// The reader rule set: the mdoc reader extended key usage on the reader certificate, RFC 5280 CA constraints on
    /// every issuer.
    static let rules: [any PathRule] = [
        LeafExtendedKeyUsage(readerEKU, name: "mdoc reader"),
        CertificateAuthorityConstraints(keyUsageRequired: false),
    ]
}
