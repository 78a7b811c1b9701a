import Crypto
import Encodings
import Foundation
import SwiftASN1
import X509

/// A TEST-ONLY reader PKI for `verifierd reader-auth init`: a self-signed P-256 reader root CA with a subject key
/// identifier, and a reader certificate under it with the mdoc reader EKU and an authority key identifier equal to
/// the root's SKI. Real deployments get their reader certificate from their trust framework (for Apple Wallet on
/// the web, from Apple Business Connect).
public struct ReaderAuthTestChain: Sendable {
    public let rootKey: P256.Signing.PrivateKey
    public let root: Certificate
    public let readerKey: P256.Signing.PrivateKey
    public let reader: Certificate

    /// The root's subject key identifier: what a provider app lists in `supportedAuthorityKeyIdentifiers`.
    public var rootKeyIdentifier: [UInt8] {
        ((try? root.extensions.subjectKeyIdentifier)?.map { Array($0.keyIdentifier) }) ?? []
    }

    public init(commonName: String = "verifierd TEST-ONLY reader", now: Date = Date()) throws {
        rootKey = P256.Signing.PrivateKey()
        readerKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CountryName("US")
            OrganizationName("verifierd TEST-ONLY")
            CommonName("\(commonName) root")
        }
        let readerName = try DistinguishedName {
            CountryName("US")
            OrganizationName("verifierd TEST-ONLY")
            CommonName(commonName)
        }
        let rootPublic = Certificate.PublicKey(rootKey.publicKey)
        let rootSKI = SubjectKeyIdentifier(hash: rootPublic)
        root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: rootPublic,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400 * 365 * 5),
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                rootSKI
            },
            issuerPrivateKey: .init(rootKey))
        let readerPublic = Certificate.PublicKey(readerKey.publicKey)
        reader = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: readerPublic,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400 * 365),
            issuer: rootName, subject: readerName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([ExtendedKeyUsage.Usage(oid: ReaderAuthenticationKey.readerEKU)])
                AuthorityKeyIdentifier(keyIdentifier: rootSKI.keyIdentifier)
                SubjectKeyIdentifier(hash: readerPublic)
            },
            issuerPrivateKey: .init(rootKey))
    }

    /// PEM of one certificate.
    public static func pem(_ certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return PEM.encode(label: "CERTIFICATE", bytes: serializer.serializedBytes)
    }
}
