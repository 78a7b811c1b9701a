import Encodings
import Foundation
import SwiftASN1
import Testing
import TestSupport
import X509
@testable import CertificationPath

/// The key identifiers OpenID4VP's `aki` trusted authorities and ISO 18013-5's `issuerIdentifiers` carry, read from
/// the published certificates of ../shared/vectors (ISO 18013-5 Annex D's IACA, DS, reader root and reader; Apple's
/// sample issuer root and signer) and compared with what OpenSSL prints for each
/// (`openssl x509 -noout -ext authorityKeyIdentifier,subjectKeyIdentifier`): the 20-byte keyIdentifier, not the
/// extension's DER.
@Suite(.enabled(if: Fixtures.sharedVectorsAvailable, "../shared/vectors is not beside the repository"))
struct KeyIdentifierVectorTests {
    /// OpenSSL's view of one extension: the hex after its name, colons dropped (nil when the certificate has none).
    static func openssl(_ der: [UInt8], _ name: String) throws -> [UInt8]? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("aki-\(UUID().uuidString).der")
        try Data(der).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try ProcessRunner.run(["openssl", "x509", "-inform", "DER", "-in", file.path, "-noout", "-ext", name])
        let lines = run.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let index = lines.firstIndex(where: { $0.hasPrefix("X509v3") }), index + 1 < lines.count else { return nil }
        // OpenSSL 3 writes "keyid:AA:BB…" for an AKI, or the bare "AA:BB…".
        let value = lines[index + 1].replacingOccurrences(of: "keyid:", with: "").replacingOccurrences(of: ":", with: "")
        return [UInt8](hexString: value)
    }

    static func certificates() throws -> [(String, [UInt8])] {
        var named: [(String, [UInt8])] = []
        for name in ["iaca_cert", "ds_cert", "reader_root_cert", "reader_cert"] {
            named.append(("Annex D \(name)", try Fixtures.annexD(name)))
        }
        for name in ["issuer_root.pem", "issuer_signing.pem"] {
            let certificate = try Certificate(pemEncoded: try Fixtures.text(try Fixtures.appleSample(name)))
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            named.append(("Apple \(name)", serializer.serializedBytes))
        }
        return named
    }

    @Test func authorityAndSubjectKeyIdentifiersAsOpenSSLReadsThem() throws {
        var compared = 0
        for (name, der) in try Self.certificates() {
            let certificate = try Certificate(derEncoded: der)
            let aki = try Self.openssl(der, "authorityKeyIdentifier")
            let ski = try Self.openssl(der, "subjectKeyIdentifier")
            #expect(certificate.authorityKeyIdentifierBytes == aki, "\(name) AKI")
            #expect(certificate.subjectKeyIdentifierBytes == ski, "\(name) SKI")
            if let aki { #expect(aki.count == 20, "\(name): a SHA-1 key identifier"); compared += 1 }
        }
        #expect(compared >= 3, "the DS, the reader and the Apple signer name their issuer's key")
        // The document signer names its IACA: Annex D's DS AKI is the IACA's SKI, the value a request names.
        let iaca = try Certificate(derEncoded: try Fixtures.annexD("iaca_cert"))
        let ds = try Certificate(derEncoded: try Fixtures.annexD("ds_cert"))
        #expect(ds.authorityKeyIdentifierBytes != nil && ds.authorityKeyIdentifierBytes == iaca.subjectKeyIdentifierBytes)
    }
}
