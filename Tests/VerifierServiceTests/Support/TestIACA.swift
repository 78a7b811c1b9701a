import Crypto
import Foundation
import SwiftASN1
import TrustStore
import X509

/// Throwaway self-signed IACA certificates for trust-store tests (not verification vectors: only their identity
/// matters here). Each call makes a new key, so every certificate differs.
enum TestIACA {
    static func pem(commonName: String) throws -> String {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            CountryName("US")
            CommonName(commonName)
        }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-86_400 * 365), notValidAfter: now.addingTimeInterval(86_400 * 365 * 20),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
            },
            issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return TrustDirectory.pem(serializer.serializedBytes)
    }
}

