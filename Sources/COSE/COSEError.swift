/// Why a COSE structure could not be read or did not verify.
public enum COSEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The structure is not the expected COSE shape.
    case malformed(String, offset: Int)
    /// No `alg` in the protected header.
    case algorithmMissing
    /// An `alg` we do not implement, or one that is not for this kind of structure.
    case algorithmUnsupported(Int64)
    /// The `alg` does not fit the key (e.g. ES384 with a P-256 key).
    case algorithmKeyMismatch(algorithm: COSEAlgorithm, curve: COSECurve)
    /// The signature or tag length is not the one the algorithm defines (a DER signature lands here).
    case signatureLengthInvalid(expected: Int, actual: Int)
    case signatureInvalid
    case tagInvalid
    /// Neither an attached nor a detached payload.
    case payloadMissing
    /// A COSE_Key that is not a well-formed EC2 public key (RFC 9053 section 7.1.1): a missing or mistyped
    /// parameter, coordinates of the wrong length, a point not on the curve.
    case keyInvalid(String)
    /// A COSE_Key of a key type or curve this implementation does not support (e.g. OKP, or a brainpool curve).
    case keyUnsupported(String)
    /// The `crit` header breaks RFC 9052 section 3.1: not in the protected bucket, empty, or listing a label that
    /// is absent or not understood.
    case criticalHeaderInvalid(String)

    public var description: String {
        switch self {
        case .malformed(let what, let offset): return "malformed COSE structure: \(what) (offset \(offset))"
        case .algorithmMissing: return "no alg in the protected header"
        case .algorithmUnsupported(let alg): return "unsupported alg \(alg)"
        case .algorithmKeyMismatch(let alg, let curve): return "alg \(alg) does not fit a \(curve) key"
        case .signatureLengthInvalid(let expected, let actual):
            return "signature is \(actual) bytes, expected \(expected) (raw r||s)"
        case .signatureInvalid: return "signature does not verify"
        case .tagInvalid: return "MAC tag does not verify"
        case .payloadMissing: return "payload is detached and none was supplied"
        case .keyInvalid(let why): return "invalid COSE_Key: \(why)"
        case .keyUnsupported(let why): return "unsupported COSE_Key: \(why)"
        case .criticalHeaderInvalid(let why): return "crit header: \(why)"
        }
    }
}
