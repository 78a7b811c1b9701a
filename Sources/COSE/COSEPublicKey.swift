import Crypto
import Foundation

/// An ECDSA public key on one of the COSE curves.
public enum COSEPublicKey: Sendable {
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)
    case p521(P521.Signing.PublicKey)

    public var curve: COSECurve {
        switch self {
        case .p256: return .p256
        case .p384: return .p384
        case .p521: return .p521
        }
    }

    /// Builds a key from an uncompressed point `04 || X || Y` on `curve`; fails if the point is not on the curve.
    public init(curve: COSECurve, x963 point: [UInt8]) throws(COSEError) {
        do {
            switch curve {
            case .p256: self = .p256(try P256.Signing.PublicKey(x963Representation: point))
            case .p384: self = .p384(try P384.Signing.PublicKey(x963Representation: point))
            case .p521: self = .p521(try P521.Signing.PublicKey(x963Representation: point))
            }
        } catch {
            throw .keyInvalid("the point is not on \(curve)")
        }
    }

    /// Checks a raw `r || s` signature made with `algorithm` over `message`.
    /// A signature that is not exactly twice the curve's byte size (DER included) is rejected.
    public func verify(signature: ArraySlice<UInt8>, over message: [UInt8], algorithm: COSEAlgorithm)
        throws(COSEError)
    {
        guard algorithm.curve == curve else {
            if algorithm.curve == nil { throw .algorithmUnsupported(algorithm.rawValue) }
            throw .algorithmKeyMismatch(algorithm: algorithm, curve: curve)
        }
        let expected = 2 * curve.coordinateByteCount
        guard signature.count == expected else {
            throw .signatureLengthInvalid(expected: expected, actual: signature.count)
        }
        let raw = Data(signature)
        let valid: Bool
        switch self {
        case .p256(let key):
            guard let sig = try? P256.Signing.ECDSASignature(rawRepresentation: raw) else { throw .signatureInvalid }
            valid = key.isValidSignature(sig, for: message)
        case .p384(let key):
            guard let sig = try? P384.Signing.ECDSASignature(rawRepresentation: raw) else { throw .signatureInvalid }
            valid = key.isValidSignature(sig, for: message)
        case .p521(let key):
            guard let sig = try? P521.Signing.ECDSASignature(rawRepresentation: raw) else { throw .signatureInvalid }
            valid = key.isValidSignature(sig, for: message)
        }
        guard valid else { throw .signatureInvalid }
    }

    /// The uncompressed point `04 || X || Y`.
    public var x963Representation: [UInt8] {
        switch self {
        case .p256(let key): return Array(key.x963Representation)
        case .p384(let key): return Array(key.x963Representation)
        case .p521(let key): return Array(key.x963Representation)
        }
    }
}
