import Crypto
import Foundation
import SDJWT
import StrictJSON
import TestSupport
import Testing

/// The specifications' own examples (`TestVectors/sdjwt-spec`, brought with their sources in SOURCES.md): RFC 9901's
/// disclosure digests and its section 5 example presentation, OpenID4VP 1.0's Appendix B.3.2 disclosures and its
/// `sd_jwt_vcld/01` presentation with key binding. Byte for byte, at the SD-JWT layer (neither example has `x5c`).
@Suite struct SDJWTSpecVectorTests {
    static let folder = Fixtures.testVectors.appendingPathComponent("sdjwt-spec")

    static func load(_ name: String) throws -> JSONValue { try JSONValue.load(folder.appendingPathComponent(name)) }

    static func sorted(_ value: JSON) -> JSON {
        switch value {
        case .object(let members): return .object(members.sorted { $0.0 < $1.0 }.map { ($0.0, sorted($0.1)) })
        case .array(let items): return .array(items.map(sorted))
        default: return value
        }
    }

    static func key(_ jwk: JSONValue) throws -> P256.Signing.PublicKey {
        try #require(P256PublicJWK.key(JSON(jwk)))
    }

    @Test(arguments: ["rfc9901-disclosures.json", "openid4vp-b32-disclosures.json"])
    func disclosureDigestsAreOverTheReceivedString(_ file: String) throws {
        let entries = try Self.load(file).array
        #expect(!entries.isEmpty)
        for entry in entries {
            let text = try #require(entry["disclosure"]?.string)
            #expect(Disclosure.digest(of: text) == entry["digest"]?.string, "\(text)")
            let disclosure = try Disclosure(Substring(text), limits: SDJWTLimits())
            if let decoded = entry["decoded"] {
                let parts = decoded.array
                #expect(disclosure.salt == parts.first?.string)
                #expect(disclosure.value == JSON(parts.last ?? .null))
            }
        }
    }

    /// Verifies a presentation as the SD-JWT layer does, returning the processed claims.
    static func verify(_ text: String, issuer: P256.Signing.PublicKey, nonce: String, audience: String, iat: Double) throws -> JSON {
        let limits = SDJWTLimits()
        let presentation = try SDJWTPresentation(text, limits: limits)
        let jws = try CompactJWS(presentation.issuerJWT, limits: limits)
        #expect(jws.algorithm == "ES256")
        #expect(ES256.isValid(jws.signature, over: jws.signingInput, key: issuer))
        let disclosures = try presentation.disclosures.map { try Disclosure($0, limits: limits) }
        let resolved = try DisclosureResolver(protectedNames: ["iss", "exp", "nbf", "cnf"], limits: limits)
            .resolve(payload: jws.payload, disclosures: disclosures)
        let holder = try #require(resolved.claims[member: "cnf"]?[member: "jwk"].flatMap(P256PublicJWK.key))
        let at = Date(timeIntervalSince1970: iat)
        let verified = try KeyBindingVerifier().verify(presentation, holderKey: holder, expected: KeyBindingExpectation(
            nonce: nonce, audience: audience, notBefore: at.addingTimeInterval(-60), notAfter: at.addingTimeInterval(60)))
        #expect(verified.nonce == nonce)
        // One byte more in the hashed part, and sd_hash no longer holds.
        if let kb = presentation.keyBindingJWT {
            let altered = String(presentation.keyBindingInput.dropLast()) + "A~" + kb
            if let other = try? SDJWTPresentation(altered, limits: limits) {
                #expect(throws: SDJWTFailure.self) {
                    _ = try KeyBindingVerifier().verify(other, holderKey: holder, expected: KeyBindingExpectation(
                        nonce: nonce, audience: audience, notBefore: at.addingTimeInterval(-60), notAfter: at.addingTimeInterval(60)))
                }
            }
        }
        return resolved.claims
    }

    @Test func rfc9901ExamplePresentationVerifies() throws {
        let example = try Self.load("rfc9901-example.json")
        let binding = try #require(example["expectedKeyBinding"])
        let claims = try Self.verify(try #require(example["sdJwtPresentation"]?.string), issuer: try Self.key(try #require(example["issuerPublicKeyJwk"])),
                                     nonce: binding["nonce"]?.string ?? "", audience: binding["aud"]?.string ?? "",
                                     iat: Double(try #require(binding["iat"].flatMap { if case .integer(let n) = $0 { return n } else { return nil } })))
        #expect(Self.sorted(claims) == Self.sorted(JSON(try #require(example["processedPayload"]))))
    }

    @Test func openID4VPExamplePresentationVerifies() throws {
        let base = Self.folder.appendingPathComponent("openid4vp-1.0/sd_jwt_vcld")
        // The example files are wrapped at 68 columns.
        let text = try Fixtures.text(base.appendingPathComponent("01/sd_jwt_presentation.txt")).filter { !$0.isWhitespace }
        let settings = try Fixtures.text(base.appendingPathComponent("settings.yml"))
        func value(_ name: String, after marker: String) throws -> String {
            let tail = try #require(settings.range(of: marker)).upperBound
            let line = try #require(settings[tail...].split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + ":") })
            return line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        }
        let issuerJWK: JSON = .object([("kty", .string("EC")), ("crv", .string("P-256")),
                                       ("x", .string(try value("x", after: "issuer_keys:"))), ("y", .string(try value("y", after: "issuer_keys:")))])
        let issuer = try #require(P256PublicJWK.key(issuerJWK))
        let kb = try Self.load("openid4vp-1.0/sd_jwt_vcld/01/kb_jwt_payload.json")
        let claims = try Self.verify(text, issuer: issuer, nonce: kb["nonce"]?.string ?? "", audience: kb["aud"]?.string ?? "",
                                     iat: 1_744_743_394)
        let expected = try Self.load("openid4vp-1.0/sd_jwt_vcld/01/verified_contents.json")
        #expect(Self.sorted(claims) == Self.sorted(JSON(expected)))
        let jws = try CompactJWS(try SDJWTPresentation(text, limits: SDJWTLimits()).issuerJWT, limits: SDJWTLimits())
        #expect(jws.type == "dc+sd-jwt")
    }
}
