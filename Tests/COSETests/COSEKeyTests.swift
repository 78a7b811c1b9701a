import CBOR
import Crypto
import Testing
@testable import COSE

struct COSEKeyTests {
    func keyItem(kty: CBOR = 2, crv: CBOR = 1, x: [UInt8], y: [UInt8]) throws -> CBORItem {
        try CBORDecoder().decode(CBOREncoder().encode(.map([.init(1, kty), .init(-1, crv), .init(-2, .bytes(x)), .init(-3, .bytes(y))])))
    }

    @Test(arguments: [COSECurve.p256, .p384, .p521])
    func validPointsAreAccepted(_ curve: COSECurve) throws {
        let point: [UInt8]
        switch curve {
        case .p256: point = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
        case .p384: point = Array(P384.Signing.PrivateKey().publicKey.x963Representation)
        case .p521: point = Array(P521.Signing.PrivateKey().publicKey.x963Representation)
        }
        let n = curve.coordinateByteCount
        let key = try COSEKey(item: try keyItem(crv: .int(curve.rawValue), x: Array(point[1...n]), y: Array(point[(n + 1)...])))
        #expect(key.curve == curve)
        #expect(key.x963Representation == point)
    }

    @Test func invalidKeysAreRejected() throws {
        let point = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
        let x = Array(point[1...32]), y = Array(point[33...])
        var offCurve = y
        offCurve[31] ^= 1
        #expect(throws: COSEError.self) { try COSEKey(item: try keyItem(x: x, y: offCurve)) }
        #expect(throws: COSEError.self) { try COSEKey(item: try keyItem(x: Array(x.dropFirst()), y: y)) }
        #expect(throws: COSEError.self) { try COSEKey(item: try keyItem(crv: 2, x: x, y: y)) }  // P-384 with 32-byte coordinates
        #expect(throws: COSEError.self) { try COSEKey(item: try keyItem(kty: 1, x: x, y: y)) }
        #expect(throws: COSEError.self) { try COSEKey(item: try keyItem(crv: 99, x: x, y: y)) }
    }

    @Test(arguments: [COSEAlgorithm.es256, .es384, .es512])
    func signaturesOfEachCurveVerify(_ algorithm: COSEAlgorithm) throws {
        let message: [UInt8] = Array("to be signed".utf8)
        let key: COSEPublicKey
        let signature: [UInt8]
        switch algorithm {
        case .es256:
            let k = P256.Signing.PrivateKey()
            key = .p256(k.publicKey)
            signature = Array(try k.signature(for: message).rawRepresentation)
        case .es384:
            let k = P384.Signing.PrivateKey()
            key = .p384(k.publicKey)
            signature = Array(try k.signature(for: message).rawRepresentation)
        default:
            let k = P521.Signing.PrivateKey()
            key = .p521(k.publicKey)
            signature = Array(try k.signature(for: message).rawRepresentation)
        }
        try key.verify(signature: signature[...], over: message, algorithm: algorithm)
        var bad = signature
        bad[0] ^= 1
        #expect(throws: COSEError.self) { try key.verify(signature: bad[...], over: message, algorithm: algorithm) }
    }
}
