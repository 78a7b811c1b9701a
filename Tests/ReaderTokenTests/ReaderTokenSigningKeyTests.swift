import Crypto
import Foundation
import Testing
@testable import ReaderToken

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ReaderTokenSigningKeyTests {
    @Test func sec1AndPKCS8LoadTheSameKey() throws {
        let sec1 = try ReaderTokenSigningKey(pemRepresentation: Fixtures.sec1PEM)
        let pkcs8 = try ReaderTokenSigningKey(pemRepresentation: Fixtures.pkcs8PEM)
        #expect(sec1.publicKeyPEM == pkcs8.publicKeyPEM)
        #expect(sec1.publicKeyPEM == Fixtures.publicPEM)
        #expect(sec1.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(sec1.pkcs8PEM == Fixtures.pkcs8PEM.trimmingCharacters(in: .newlines))
    }

    @Test func toleratesParametersBlockCRLFAndIndentation() throws {
        _ = try ReaderTokenSigningKey(pemRepresentation: Fixtures.withParametersPEM)
        let crlf = Fixtures.pkcs8PEM.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try ReaderTokenSigningKey(pemRepresentation: crlf).publicKeyPEM == Fixtures.publicPEM)
        let indented = "\n  " + Fixtures.sec1PEM.replacingOccurrences(of: "\n", with: "\n  ")
        #expect(try ReaderTokenSigningKey(pemRepresentation: indented).publicKeyPEM == Fixtures.publicPEM)
    }

    @Test(arguments: [
        "",
        "not a key",
        Fixtures.publicPEM,
        Fixtures.p384PEM,
        Fixtures.sec1PEM.replacingOccurrences(of: "MHcCAQEE", with: "MHcCAQEF"),
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----",
    ])
    func invalidKeysAreRejectedWithoutEchoingInput(pem: String) {
        let error = #expect(throws: ReaderTokenError.self) {
            try ReaderTokenSigningKey(pemRepresentation: pem)
        }
        #expect(error?.code == "INVALID_SIGNING_KEY")
        let text = error.map(String.init(describing:)) ?? ""
        #expect(!text.contains("MHcCAQE") && !text.contains("MIGkAgEB"))
    }

    @Test func generatedKeyRoundTripsThroughPKCS8() throws {
        let key = ReaderTokenSigningKey.generate()
        let reloaded = try ReaderTokenSigningKey(pemRepresentation: key.pkcs8PEM)
        #expect(reloaded.publicKeyPEM == key.publicKeyPEM)
        #expect(ReaderTokenSigningKey.generate().publicKeyPEM != key.publicKeyPEM)
    }

    @Test func signingKeyDescriptionsAreRedacted() throws {
        let key = try Fixtures.signingKey()
        var dumped = ""
        dump(key, to: &dumped)
        for rendering in [String(describing: key), String(reflecting: key), dumped] {
            #expect(!rendering.contains(Fixtures.privateScalarHex))
            #expect(!rendering.contains("PRIVATE KEY"))
        }
    }

    @Test func writtenKeyFileHasMode0600AndIsNotOverwritten() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("readertoken-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("reader-token-key.pem")

        let key = ReaderTokenSigningKey.generate()
        try key.writePrivateKey(to: file)
        #expect(try mode(of: file) == 0o600)
        let reloaded = try ReaderTokenSigningKey(pemRepresentation: String(contentsOf: file, encoding: .utf8))
        #expect(reloaded.publicKeyPEM == key.publicKeyPEM)

        let other = ReaderTokenSigningKey.generate()
        let error = #expect(throws: ReaderTokenError.self) { try other.writePrivateKey(to: file) }
        #expect(error?.code == "KEY_FILE_WRITE_FAILED")
        #expect(try ReaderTokenSigningKey(pemRepresentation: String(contentsOf: file, encoding: .utf8)).publicKeyPEM
            == key.publicKeyPEM)

        chmod(file.path, 0o644)
        try other.writePrivateKey(to: file, overwrite: true)
        #expect(try mode(of: file) == 0o600)
        #expect(try ReaderTokenSigningKey(pemRepresentation: String(contentsOf: file, encoding: .utf8)).publicKeyPEM
            == other.publicKeyPEM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["reader-token-key.pem"])
    }

    private func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }
}
