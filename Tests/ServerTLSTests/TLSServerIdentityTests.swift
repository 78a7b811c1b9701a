import Foundation
import ServerTLS
import Testing
import TestSupport

/// The certificate and key a TLS listener serves, on a throwaway PKI made now by `tls_test_pki.py` (Python
/// `cryptography`): a pair loads, a mismatched or unusable file is refused naming its setting, and a reload that
/// does not load keeps the pair in force.
@Suite(.serialized)
struct TLSServerIdentityTests {
    static func pki() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-tls-\(UUID().uuidString)")
        let run = try ProcessRunner.run(["python3", "TestVectors/generator/tls_test_pki.py", folder.path])
        try #require(run.status == 0, "\(run.error)")
        return folder
    }

    @Test func aPairLoadsAndAReloadThatFailsKeepsIt() throws {
        let folder = try Self.pki()
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = folder.appendingPathComponent("served.pem"), key = folder.appendingPathComponent("served.key")
        func install(_ stem: String) throws {
            try FileManager.default.removeItem(at: certificate)
            try FileManager.default.removeItem(at: key)
            try FileManager.default.copyItem(at: folder.appendingPathComponent("\(stem).pem"), to: certificate)
            try FileManager.default.copyItem(at: folder.appendingPathComponent("\(stem).key"), to: key)
        }
        try FileManager.default.copyItem(at: folder.appendingPathComponent("server.pem"), to: certificate)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("server.key"), to: key)
        let identity = try TLSServerIdentity(settings: TLSSettings(certificateChain: certificate, privateKey: key))
        let first = identity.context.certificateSerial
        #expect(first.lowercased().contains("1001"), "\(first)")
        try install("server-next")
        #expect(try identity.reload().certificateSerial.lowercased().contains("1002"))
        // A key that is not a key: refused, and the pair in force stays.
        try FileManager.default.removeItem(at: key)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("not-a-key.key"), to: key)
        #expect(throws: TLSSetupError.self) { try identity.reload() }
        #expect(identity.context.certificateSerial.lowercased().contains("1002"))
    }

    @Test func mismatchedOrUnusableFilesNameTheirSetting() throws {
        let folder = try Self.pki()
        defer { try? FileManager.default.removeItem(at: folder) }
        func problem(_ certificate: String, _ key: String) -> TLSSetupError? {
            do {
                _ = try TLSServerIdentity(settings: TLSSettings(certificateChain: folder.appendingPathComponent(certificate),
                                                                privateKey: folder.appendingPathComponent(key)))
                return nil
            } catch {
                return error
            }
        }
        #expect(problem("server.pem", "server.key") == nil)
        #expect(problem("server.pem", "server-next.key")?.setting == .privateKey, "the key does not match the certificate")
        #expect(problem("server.pem", "not-a-key.key")?.setting == .privateKey)
        #expect(problem("absent.pem", "server.key")?.setting == .certificateChain)
    }
}
