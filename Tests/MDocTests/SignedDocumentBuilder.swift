import CBOR
import Crypto
import Foundation
import TestSupport
import TrustStore

/// Builds a one-document DeviceResponse signed with the test PKI (TestVectors/pki: ds-p256 under iaca-p256), with
/// the MSO's device key and the x5chain chosen by the test, and a device signature by `deviceKey`.
struct SignedDocumentBuilder {
    static let pki = Fixtures.testVectors.appendingPathComponent("pki")
    static let docType = "org.iso.18013.5.1.mDL"
    static let nameSpace = "org.iso.18013.5.1"
    /// Within the test PKI's and the MSO's validity.
    static let verificationTime = TestClock.date("2030-01-01T00:00:00Z")
    static let sessionTranscript = CBOREncoder().encode([nil, nil, ["verifierd-test-handover", .bytes([1, 2, 3])]])

    var deviceKey = P256.Signing.PrivateKey()
    /// The MSO's `deviceKeyInfo.deviceKey`; by default the COSE_Key of `deviceKey`.
    var coseKey: CBOR?
    /// The x5chain sent; by default the ds-p256 certificate.
    var x5chain: [UInt8]?

    static func coseKey(_ key: P256.Signing.PublicKey) -> CBOR {
        let point = Array(key.x963Representation)
        return .map([.init(1, 2), .init(-1, 1), .init(-2, .bytes(Array(point[1...32]))), .init(-3, .bytes(Array(point[33...])))])
    }

    static func trust() throws -> TrustSnapshot {
        try TrustFixtures.anchors([pki.appendingPathComponent("iaca-p256.pem")])
    }

    static func tag24(_ bytes: [UInt8]) -> CBOR { .tagged(24, .bytes(bytes)) }

    func deviceResponse() throws -> [UInt8] {
        let encoder = CBOREncoder()
        let signer = try P256.Signing.PrivateKey(
            pemRepresentation: try Fixtures.text(Self.pki.appendingPathComponent("keys/ds-p256.pem")))
        let dsDER = try CertificateParsing.derCertificates(
            from: try Fixtures.bytes(Self.pki.appendingPathComponent("ds-p256.pem")))[0]

        let item = encoder.encode(.map([
            .init("digestID", 0), .init("random", .bytes(Array(repeating: 7, count: 16))),
            .init("elementIdentifier", "family_name"), .init("elementValue", "Mustermann"),
        ]))
        let itemBytes = encoder.encode(Self.tag24(item))
        let mso = encoder.encode(.map([
            .init("version", "1.0"), .init("digestAlgorithm", "SHA-256"),
            .init("valueDigests", .map([.init(.text(Self.nameSpace), .map([.init(0, .bytes(Array(SHA256.hash(data: itemBytes))))]))])),
            .init("deviceKeyInfo", .map([.init("deviceKey", coseKey ?? Self.coseKey(deviceKey.publicKey))])),
            .init("docType", .text(Self.docType)),
            .init("validityInfo", .map([
                .init("signed", .tagged(0, "2024-06-01T00:00:00Z")), .init("validFrom", .tagged(0, "2024-06-01T00:00:00Z")),
                .init("validUntil", .tagged(0, "2073-01-01T00:00:00Z")),
            ])),
        ]))
        let msoBytes = encoder.encode(Self.tag24(mso))
        let protected = encoder.encode(.map([.init(1, -7)]))
        let issuerSignature = try signer.signature(for: encoder.encode(["Signature1", .bytes(protected), .bytes([]), .bytes(msoBytes)]))
        let issuerAuth: CBOR = [.bytes(protected), .map([.init(33, .bytes(x5chain ?? dsDER))]), .bytes(msoBytes),
                                .bytes(Array(issuerSignature.rawRepresentation))]

        let deviceNameSpaces = encoder.encode(Self.tag24(encoder.encode(.map([]))))
        let deviceAuthentication = encoder.encode(Self.tag24(encoder.encode([
            "DeviceAuthentication", .encoded(Self.sessionTranscript), .text(Self.docType), .encoded(deviceNameSpaces),
        ])))
        let deviceSignature = try deviceKey.signature(
            for: encoder.encode(["Signature1", .bytes(protected), .bytes([]), .bytes(deviceAuthentication)]))

        let document: CBOR = .map([
            .init("docType", .text(Self.docType)),
            .init("issuerSigned", .map([
                .init("nameSpaces", .map([.init(.text(Self.nameSpace), [.encoded(itemBytes)])])),
                .init("issuerAuth", issuerAuth),
            ])),
            .init("deviceSigned", .map([
                .init("nameSpaces", .encoded(deviceNameSpaces)),
                .init("deviceAuth", .map([.init("deviceSignature", [
                    .bytes(protected), .map([]), nil, .bytes(Array(deviceSignature.rawRepresentation)),
                ])])),
            ])),
        ])
        return encoder.encode(.map([.init("version", "1.0"), .init("documents", [document]), .init("status", 0)]))
    }
}
