import CBOR

/// A COSE_Key of type EC2 (RFC 9053 section 7.1.1) holding a public key, e.g. the MSO `deviceKey`.
public struct COSEKey: Sendable {
    public let curve: COSECurve
    public let x: [UInt8]
    public let y: [UInt8]
    /// The validated public key.
    public let publicKey: COSEPublicKey

    public static let keyTypeEC2: Int64 = 2

    /// Reads an EC2 key. Other key types and unknown curves are ``COSEError/keyUnsupported(_:)``; a missing or
    /// mistyped parameter, coordinates of the wrong length (RFC 9053 section 7.1.1: as long as the field) and points
    /// that are not on the curve are ``COSEError/keyInvalid(_:)``.
    public init(item: CBORItem) throws(COSEError) {
        guard item.isMap else { throw .keyInvalid("not a map") }
        guard let kty = item[intKey: 1]?.intValue else { throw .keyInvalid("kty missing or not an integer") }
        guard kty == Self.keyTypeEC2 else { throw .keyUnsupported("kty \(kty) is not EC2 (2)") }
        guard let crvID = item[intKey: -1]?.intValue else { throw .keyInvalid("crv missing or not an integer") }
        guard let curve = COSECurve(rawValue: crvID) else {
            throw .keyUnsupported("crv \(crvID) is not P-256 (1), P-384 (2) or P-521 (3)")
        }
        guard let x = item[intKey: -2]?.bytesValue else { throw .keyInvalid("x missing or not a bstr") }
        if item[intKey: -3]?.boolValue != nil { throw .keyUnsupported("y is a sign bit (a compressed point)") }
        guard let y = item[intKey: -3]?.bytesValue else { throw .keyInvalid("y missing or not a bstr") }
        let size = curve.coordinateByteCount
        guard x.count == size, y.count == size else {
            throw .keyInvalid("coordinates are \(x.count)/\(y.count) bytes, \(curve) needs \(size)")
        }
        self.curve = curve
        self.x = Array(x)
        self.y = Array(y)
        self.publicKey = try COSEPublicKey(curve: curve, x963: [0x04] + x + y)
    }

    /// The uncompressed point `04 || X || Y`.
    public var x963Representation: [UInt8] { [0x04] + x + y }
}
