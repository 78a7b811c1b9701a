import Crypto
import Foundation
import Testing
import TestSupport
import TrustStore
import X509
@testable import TrustLists

/// The signed lists of trusted entities in TestVectors/lote (made by lote_lists.py, TEST-ONLY keys), and lists the
/// tests sign themselves with the TEST-ONLY operator signer key, for the cases the vectors leave out.
enum LoTETestLists {
    static let folder = Fixtures.testVectors.appendingPathComponent("lote")
    /// The manifest's verification time.
    static let time = TestClock.date("2030-01-01T00:00:00Z")

    static func certificate(_ path: String) throws -> Certificate {
        let der = try CertificateParsing.derCertificates(from: try Fixtures.bytes(folder.appendingPathComponent(path)))
        return try Certificate(derEncoded: der[0])
    }

    /// `pki/operator-ca.pem`, the only list-signer anchor of the manifest.
    static func operatorCA() throws -> Certificate { try certificate("pki/operator-ca.pem") }

    static func bytes(_ file: String) throws -> [UInt8] {
        try Fixtures.bytes(folder.appendingPathComponent(file))
    }

    static func list(_ name: String) throws -> [UInt8] { try bytes("lists/\(name).jwt") }

    static func verify(_ bytes: [UInt8], kind: LoTEKind, at time: Date = time, anchors: [Certificate]? = nil,
                       staleGrace: TimeInterval = 0, verifier: LoTEVerifier = LoTEVerifier()) throws -> VerifiedLoTE {
        try verifier.verify(bytes, source: "test", kind: kind, signerAnchors: try anchors ?? [operatorCA()], at: time,
                            staleGrace: staleGrace)
    }

    /// The refusal's code, or nil when `body` verifies.
    static func code(_ body: () throws -> VerifiedLoTE) -> LoTEError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as LoTEError {
            return error.code
        } catch {
            Issue.record("not a LoTEError: \(error)")
            return nil
        }
    }

    // MARK: Lists signed here

    /// The payload (decoded) of a list file.
    static func payload(of name: String) throws -> String {
        let parts = String(decoding: try list(name), as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        return String(decoding: try #require(base64URLDecode(String(parts[1]))), as: UTF8.self)
    }

    /// x5c[0] of the vectors' lists: operator-signer, standard base64 DER.
    static func operatorSignerX5C() throws -> String {
        let der = try CertificateParsing.derCertificates(from: try bytes("pki/operator-signer.pem"))[0]
        return Data(der).base64EncodedString()
    }

    /// The vectors' header (`alg` ES256, x5c operator-signer, `iat` 2029-12-01) with `members` instead of `iat`.
    static func header(_ members: String = "\"iat\":1890777600") throws -> String {
        "{\"alg\":\"ES256\",\"x5c\":[\"\(try operatorSignerX5C())\"]" + (members.isEmpty ? "" : ",\(members)") + "}"
    }

    /// A compact JWS of `header` and `payload`, signed ES256 by the TEST-ONLY operator signer key.
    static func signed(header: String, payload: String) throws -> [UInt8] {
        let key = try P256.Signing.PrivateKey(pemRepresentation: try Fixtures.text(folder.appendingPathComponent("pki/keys/operator-signer.pem")))
        let input = base64URL(Array(header.utf8)) + "." + base64URL(Array(payload.utf8))
        let signature = try key.signature(for: Array(input.utf8))
        return Array((input + "." + base64URL(Array(signature.rawRepresentation))).utf8)
    }

    /// `name`'s payload with each `(of, with)` replaced (each must occur), signed again.
    static func resigned(_ name: String, replacing replacements: [(String, String)] = [], header: String? = nil) throws -> [UInt8] {
        var payload = try payload(of: name)
        for (old, new) in replacements {
            guard payload.contains(old) else { throw Missing(text: old) }
            payload = payload.replacingOccurrences(of: old, with: new)
        }
        return try signed(header: try header ?? Self.header(), payload: payload)
    }

    struct Missing: Error { let text: String }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecode(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
