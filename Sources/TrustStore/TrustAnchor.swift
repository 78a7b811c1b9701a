import Crypto
import Foundation
import SwiftASN1
import X509

/// A trusted IACA root certificate, validated as a CA when it was loaded.
public struct TrustAnchor: Sendable, Hashable {
    public let certificate: Certificate
    /// The DER bytes as loaded.
    public let derBytes: [UInt8]
    /// Lowercase hex SHA-256 of `derBytes`, without separators.
    public let sha256: String
    /// The subject key identifier, when the certificate has one.
    public let subjectKeyIdentifier: [UInt8]?
    /// The file it was read from (a name inside the trust directory), if known.
    public let file: String?
    /// Its source (manual or a VICAL) and the docTypes it may vouch for.
    public var metadata: TrustAnchorMetadata
    /// The subject as an RFC 4514-style string (formatted once).
    public let subject: String
    /// The subject's countryName, if any.
    public let country: String?

    /// Parses and validates an IACA certificate. Throws when it is not a usable CA (see ``TrustAnchorError``).
    public init(derBytes: [UInt8], file: String? = nil, metadata: TrustAnchorMetadata = .manual) throws(TrustAnchorError) {
        let source = file
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: derBytes)
        } catch {
            throw .unparsable(source: source, reason: "the DER does not parse as an X.509 certificate (\(DERProblem.phrase(error)))")
        }
        try Self.requireCertificateAuthority(certificate, source: source)
        self.certificate = certificate
        self.derBytes = derBytes
        self.sha256 = SHA256.hash(data: derBytes).hexString
        self.subjectKeyIdentifier = (try? certificate.extensions.subjectKeyIdentifier).flatMap { $0 }.map {
            Array($0.keyIdentifier)
        }
        self.file = file
        self.metadata = metadata
        self.subject = certificate.subject.description
        self.country = certificate.subject.firstValue(of: .RDNAttributeType.countryName)
    }

    /// An IACA must be a CA (basicConstraints cA) and may sign certificates (keyUsage keyCertSign).
    static func requireCertificateAuthority(_ certificate: Certificate, source: String?) throws(TrustAnchorError) {
        let constraints: BasicConstraints?
        let usage: KeyUsage?
        do {
            constraints = try certificate.extensions.basicConstraints
            usage = try certificate.extensions.keyUsage
        } catch {
            throw .unparsable(source: source, reason: "its basicConstraints or keyUsage extension is malformed")
        }
        guard case .isCertificateAuthority = constraints else {
            throw .notCertificateAuthority(source: source, subject: certificate.subject.description)
        }
        guard let usage, usage.keyCertSign else {
            throw .missingKeyCertSign(source: source, subject: certificate.subject.description)
        }
    }

    public var notBefore: Date { certificate.notValidBefore }
    public var notAfter: Date { certificate.notValidAfter }

    /// Whether `time` lies within the certificate's validity period.
    public func isValid(at time: Date) -> Bool { notBefore <= time && time <= notAfter }

    /// The same certificate from the same source (the scope and file may differ).
    public static func == (lhs: TrustAnchor, rhs: TrustAnchor) -> Bool {
        lhs.derBytes == rhs.derBytes && lhs.metadata.source == rhs.metadata.source
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derBytes)
        hasher.combine(metadata.source)
    }

    /// The same anchor read from another file.
    public func with(file: String?) -> TrustAnchor {
        TrustAnchor(copying: self, file: file)
    }

    private init(copying other: TrustAnchor, file: String?) {
        certificate = other.certificate
        derBytes = other.derBytes
        sha256 = other.sha256
        subjectKeyIdentifier = other.subjectKeyIdentifier
        self.file = file
        metadata = other.metadata
        subject = other.subject
        country = other.country
    }
}

extension DistinguishedName {
    /// The first value of an attribute type (e.g. countryName), as a string.
    public func firstValue(of type: ASN1ObjectIdentifier) -> String? {
        for rdn in self {
            for attribute in rdn where attribute.type == type {
                return String(describing: attribute.value)
            }
        }
        return nil
    }
}

extension Sequence where Element == UInt8 {
    /// Lowercase hex without separators.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
