import COSE
import Crypto
import X509

extension COSEPublicKey {
    /// The certificate's key as a COSE key; nil unless it is an EC key on P-256, P-384 or P-521 (the curves ISO
    /// 18013-5 allows for issuer, status-list and VICAL signatures).
    public init?(certificate: Certificate) {
        if let key = P256.Signing.PublicKey(certificate.publicKey) {
            self = .p256(key)
        } else if let key = P384.Signing.PublicKey(certificate.publicKey) {
            self = .p384(key)
        } else if let key = P521.Signing.PublicKey(certificate.publicKey) {
            self = .p521(key)
        } else {
            return nil
        }
    }
}
