import CBOR
import Crypto
import Foundation
import Testing
import TestSupport
import TrustStore
import X509
@testable import MDoc

/// `mso.deviceKey`: a device key the issuer got wrong is the MSO's failure (MSO_MALFORMED), not the device's.
struct MSODeviceKeyTests {
    func report(_ builder: SignedDocumentBuilder) throws -> DocumentReport {
        let report = MDocVerifier(trust: try SignedDocumentBuilder.trust()).verify(
            deviceResponse: try builder.deviceResponse(), sessionTranscript: SignedDocumentBuilder.sessionTranscript,
            options: VerificationOptions(verificationTime: SignedDocumentBuilder.verificationTime))
        return try #require(report.documents.first)
    }

    func failedCodes(_ document: DocumentReport) -> Set<VerificationErrorCode> {
        Set(document.checks.filter { $0.status == .failed }.compactMap(\.code))
    }

    /// The builder's default key with one coordinate replaced.
    static func coseKey(_ key: P256.Signing.PublicKey, x: [UInt8]? = nil, y: [UInt8]? = nil, kty: Int64 = 2,
                        crv: Int64 = 1) -> CBOR {
        let point = Array(key.x963Representation)
        return .map([.init(1, .int(kty)), .init(-1, .int(crv)), .init(-2, .bytes(x ?? Array(point[1...32]))),
                     .init(-3, .bytes(y ?? Array(point[33...])))])
    }

    @Test func aWellFormedDeviceKeyPassesAndTheDeviceSignatureIsChecked() throws {
        let document = try report(SignedDocumentBuilder())
        #expect(document.check(.msoDeviceKey)?.status == .passed)
        #expect(document.check(.msoDeviceKey)?.detail == "EC2 P-256 device key")
        #expect(document.check(.deviceAuthentication)?.status == .passed)
        #expect(document.check(.issuerSignature)?.status == .passed)
        #expect(failedCodes(document).isEmpty)
        #expect(document.verified)
    }

    @Test func aDeviceSignatureByAnotherKeyStillFailsTheDevice() throws {
        var builder = SignedDocumentBuilder()
        builder.coseKey = SignedDocumentBuilder.coseKey(P256.Signing.PrivateKey().publicKey)
        let document = try report(builder)
        #expect(document.check(.msoDeviceKey)?.status == .passed)
        #expect(failedCodes(document) == [.deviceSignatureInvalid])
    }

    @Test(arguments: ["x", "y"])
    func aShortCoordinateIsTheIssuersDefect(coordinate: String) throws {
        var builder = SignedDocumentBuilder()
        let point = Array(builder.deviceKey.publicKey.x963Representation)
        builder.coseKey = coordinate == "x"
            ? Self.coseKey(builder.deviceKey.publicKey, x: Array(point[2...32]))
            : Self.coseKey(builder.deviceKey.publicKey, y: Array(point[34...]))
        let document = try report(builder)
        let check = try #require(document.check(.msoDeviceKey))
        #expect(check.status == .failed)
        #expect(check.code == .msoMalformed)
        #expect(check.detail?.contains(coordinate == "x" ? "31/32 bytes" : "32/31 bytes") == true)
        // The device is not blamed: its authentication cannot run without a usable key.
        #expect(document.check(.deviceAuthentication)?.status == .notApplicable)
        #expect(document.check(.deviceAuthentication)?.detail?.contains("mso.deviceKey") == true)
        #expect(failedCodes(document) == [.msoMalformed])
        #expect(!document.verified)
    }

    @Test func aPointOffTheCurveIsMalformed() throws {
        var builder = SignedDocumentBuilder()
        var y = Array(builder.deviceKey.publicKey.x963Representation)[33...].map { $0 }
        y[31] ^= 0x01
        builder.coseKey = Self.coseKey(builder.deviceKey.publicKey, y: y)
        let document = try report(builder)
        #expect(document.check(.msoDeviceKey)?.code == .msoMalformed)
        #expect(failedCodes(document) == [.msoMalformed])
    }

    @Test func anUnsupportedKeyTypeIsNotCalledMalformed() throws {
        var builder = SignedDocumentBuilder()
        builder.coseKey = .map([.init(1, 1), .init(-1, 6), .init(-2, .bytes(Array(repeating: 9, count: 32)))])  // OKP Ed25519
        let document = try report(builder)
        #expect(document.check(.msoDeviceKey)?.code == .algorithmUnsupported)
        #expect(document.check(.deviceAuthentication)?.status == .notApplicable)
        #expect(failedCodes(document) == [.algorithmUnsupported])
    }

    /// Library errors never reach a detail: no source file, line or error type of a parser.
    static func isClean(_ detail: String) -> Bool {
        !detail.contains(".swift") && !detail.contains("ASN1Error") && !detail.contains("CertificateError")
            && detail.range(of: #":\d"#, options: .regularExpression) == nil
    }

    @Test(arguments: [
        ("truncated", 120),
        ("garbage", 0),
    ])
    func anX5chainThatIsNotACertificateIsSaidSoPlainly(name: String, keep: Int) throws {
        let der = try CertificateParsing.derCertificates(
            from: try Fixtures.bytes(SignedDocumentBuilder.pki.appendingPathComponent("ds-p256.pem")))[0]
        var builder = SignedDocumentBuilder()
        builder.x5chain = keep > 0 ? Array(der.prefix(keep)) : [0x30, 0x03, 0x02, 0x01, 0xff, 0x00]
        let check = try #require(try report(builder).check(.issuerCertificateChain))
        #expect(check.code == .issuerCertificateInvalid)
        let detail = try #require(check.detail)
        #expect(detail.hasPrefix("x5chain certificate 0 does not parse as an X.509 certificate ("), "\(detail)")
        #expect(Self.isClean(detail), "\(detail)")
    }

    @Test func theCleanCheckCatchesALibraryDescription() throws {
        // The negative of the test above: a raw library error would be caught by `isClean`.
        let der = try CertificateParsing.derCertificates(
            from: try Fixtures.bytes(SignedDocumentBuilder.pki.appendingPathComponent("ds-p256.pem")))[0]
        let raw = try #require(#expect(throws: (any Error).self) { try Certificate(derEncoded: Array(der.prefix(120))) })
        #expect(!Self.isClean("\(raw)"))
        #expect(Self.isClean("x5chain certificate 0 does not parse as an X.509 certificate (\(DERProblem.phrase(raw)))"))
    }
}
