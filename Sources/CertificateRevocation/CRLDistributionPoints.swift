import SwiftASN1
import X509

/// Where a certificate says its revocation is published: the http(s) URIs of its cRLDistributionPoints extension
/// (RFC 5280 §4.2.1.13) that cover every reason and are the issuer's own (no `reasons`, no `cRLIssuer`).
public enum CRLDistributionPoints {
    static let oid: ASN1ObjectIdentifier = [2, 5, 29, 31]
    /// Most distribution points read from one certificate.
    public static let maximum = 8

    /// What a certificate names.
    public enum Named: Sendable, Equatable {
        /// No extension.
        case none
        /// The URIs to try, in the certificate's order.
        case uris([String])
        /// The extension names only what verifierd does not fetch (partitioned by reasons, another CRL issuer, a
        /// relative name, or no http(s) URI), or does not parse.
        case unusable(String)
    }

    public static func named(by certificate: Certificate) -> Named {
        guard let found = certificate.extensions.first(where: { $0.oid == oid }) else { return .none }
        do {
            let points = try DER.parse(found.value).children()
            guard !points.isEmpty, points.count <= maximum else { return .unusable("the extension holds \(points.count) distribution points") }
            var uris: [String] = []
            var skipped: [String] = []
            for point in points {
                try DER.sequence(point, identifier: .sequence) { fields in
                    var name: [String] = []
                    var usable = true
                    while let field = fields.next() {
                        switch (field.identifier.tagClass, field.identifier.tagNumber) {
                        case (.contextSpecific, 0): name = try CertificateRevocationList.distributionPointNameURIs(field)
                        case (.contextSpecific, 1): usable = false; skipped.append("a distribution point partitioned by reasons")
                        case (.contextSpecific, 2): usable = false; skipped.append("a distribution point of another CRL issuer")
                        default: throw CertificateRevocationList.Malformed(detail: "unexpected DistributionPoint field")
                        }
                    }
                    guard usable else { return }
                    let fetchable = name.filter { $0.lowercased().hasPrefix("http://") || $0.lowercased().hasPrefix("https://") }
                    if fetchable.isEmpty { skipped.append("a distribution point without an http(s) URI") }
                    uris += fetchable
                }
            }
            return uris.isEmpty ? .unusable(skipped.first ?? "no usable distribution point") : .uris(Array(uris.prefix(maximum)))
        } catch {
            return .unusable("the cRLDistributionPoints extension does not parse")
        }
    }
}
