import Foundation
import Testing
import TestSupport
import TrustStore

struct TrustStoreTests {
    static let pki = Fixtures.testVectors.appendingPathComponent("pki")

    @Test func loadsADirectoryOfPEMAndDER() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("truststore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let p256 = try Data(contentsOf: Self.pki.appendingPathComponent("iaca-p256.pem"))
        let p384 = try Data(contentsOf: Self.pki.appendingPathComponent("iaca-p384.pem"))
        try (p256 + p384).write(to: directory.appendingPathComponent("bundle.pem"))
        let der = try CertificateParsing.derCertificates(from: Array(p384))[0]
        try Data(der).write(to: directory.appendingPathComponent("p384.der"))
        try Data("ignored".utf8).write(to: directory.appendingPathComponent("README.md"))
        let anchors = try AnchorFiles.load(from: directory).anchors
        #expect(anchors.count == 2, "the same certificate in two files is one anchor")
        let snapshot = TrustSnapshot(anchors: anchors)
        #expect(snapshot.anchors.count == 2, "the same certificate twice is one anchor")
        #expect(snapshot.anchors.allSatisfy { $0.sha256.count == 64 && $0.subjectKeyIdentifier != nil })
    }

    @Test func rejectsCertificatesThatAreNotCAs() throws {
        let ds = try CertificateParsing.derCertificates(
            from: try Fixtures.bytes(Self.pki.appendingPathComponent("ds-p256.pem")))[0]
        #expect {
            try TrustAnchor(derBytes: ds, file: "ds-p256.pem")
        } throws: { error in
            (error as? TrustAnchorError)?.code == "IACA_NOT_CA"
        }
        #expect(throws: TrustAnchorError.self) { try TrustAnchor(derBytes: [0x30, 0x00]) }
        #expect(throws: TrustAnchorError.self) { try CertificateParsing.derCertificates(from: Array("hello".utf8)) }
    }
}
