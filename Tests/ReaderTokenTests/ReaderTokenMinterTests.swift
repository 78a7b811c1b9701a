import Crypto
import Foundation
import Testing
@testable import ReaderToken

@Suite struct ReaderTokenMinterTests {
    let now = Date(timeIntervalSince1970: 1_685_980_800)

    @Test func headerAndPayloadAreExact() throws {
        let minted = try Fixtures.minter().mint(readerInstanceIdentifier: "UVWXYZ1234", now: now)
        let parts = try Fixtures.split(minted.token)
        #expect(parts.header == #"{"alg":"ES256","kid":"ABCDEFGHIJ","typ":"JWT"}"#)
        #expect(parts.payload
            == #"{"aud":"apple-identityservices-v1","iss":"KLMNOPQRST","sub":"UVWXYZ1234","iat":1685980800,"exp":1685981100}"#)
        #expect(!minted.token.contains("="))
        #expect(minted.issuedAt == now)
        #expect(minted.expiresAt == now.addingTimeInterval(300))
    }

    @Test func claimsAreIntegersAndLifetimeMatches() throws {
        for lifetime in [1, 60, 299, 300] {
            let minted = try Fixtures.minter(lifetimeSeconds: lifetime).mint(readerInstanceIdentifier: "r", now: now)
            let payload = try Fixtures.split(minted.token).payload
            let object = try #require(JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["aud", "iss", "sub", "iat", "exp"])
            #expect(payload.contains(#""iat":1685980800,"#))
            let iat = try #require(object["iat"] as? Int)
            let exp = try #require(object["exp"] as? Int)
            #expect(exp - iat == lifetime)
            #expect(!payload.contains("."), "NumericDates must have no fraction")
        }
    }

    @Test func signatureIsRawRSAndVerifies() throws {
        let minted = try Fixtures.minter().mint(readerInstanceIdentifier: "UVWXYZ1234", now: now)
        let parts = try Fixtures.split(minted.token)
        #expect(parts.signature.count == 64)
        #expect(minted.token.split(separator: ".")[2].count == 86)
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: Fixtures.publicPEM)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: parts.signature)
        #expect(publicKey.isValidSignature(signature, for: Data(parts.signingInput.utf8)))
        // Tampering with the payload breaks verification.
        #expect(!publicKey.isValidSignature(signature, for: Data((parts.signingInput + "x").utf8)))
    }

    @Test func fractionalNowIsFloored() throws {
        let minter = try Fixtures.minter(lifetimeSeconds: 120)
        let minted = try minter.mint(readerInstanceIdentifier: "r", now: Date(timeIntervalSince1970: 1_685_980_800.999))
        #expect(minted.issuedAt == Date(timeIntervalSince1970: 1_685_980_800))
        #expect(minted.expiresAt == Date(timeIntervalSince1970: 1_685_980_920))
        let payload = try Fixtures.split(minted.token).payload
        #expect(payload.hasSuffix(#""iat":1685980800,"exp":1685980920}"#))
    }

    @Test func subIsJSONEscaped() throws {
        let sub = #"a"b\c/d e~"#
        let minted = try Fixtures.minter().mint(readerInstanceIdentifier: sub, now: now)
        let payload = try Fixtures.split(minted.token).payload
        #expect(payload.contains(#""sub":"a\"b\\c/d e~","#))
        let object = try #require(JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        #expect(object["sub"] as? String == sub)
    }

    @Test func brandIdAndKeyIdAreJSONEscaped() throws {
        let configuration = try ReaderTokenConfiguration(brandId: #"br"and\1"#, keyId: #"k"i\d/é"#)
        let minter = ReaderTokenMinter(configuration: configuration, signingKey: try Fixtures.signingKey())
        let parts = try Fixtures.split(try minter.mint(readerInstanceIdentifier: "r", now: now).token)
        #expect(parts.header == #"{"alg":"ES256","kid":"k\"i\\d/é","typ":"JWT"}"#)
        let header = try #require(JSONSerialization.jsonObject(with: Data(parts.header.utf8)) as? [String: Any])
        #expect(header["kid"] as? String == #"k"i\d/é"#)
        let payload = try #require(JSONSerialization.jsonObject(with: Data(parts.payload.utf8)) as? [String: Any])
        #expect(payload["iss"] as? String == #"br"and\1"#)
    }

    @Test(arguments: [
        "",
        String(repeating: "a", count: 257),
        "caf\u{E9}",
        "emoji\u{1F600}",
        "tab\there",
        "new\nline",
        "nul\u{0}",
        "del\u{7F}",
    ])
    func invalidReaderInstanceIdentifiersAreRejected(identifier: String) throws {
        let minter = try Fixtures.minter()
        let error = #expect(throws: ReaderTokenError.self) {
            try minter.mint(readerInstanceIdentifier: identifier, now: now)
        }
        #expect(error?.code == "INVALID_READER_INSTANCE_IDENTIFIER")
    }

    @Test func identifierBoundariesAreAccepted() throws {
        let minter = try Fixtures.minter()
        _ = try minter.mint(readerInstanceIdentifier: "x", now: now)
        _ = try minter.mint(readerInstanceIdentifier: String(repeating: "a", count: 256), now: now)
        let allPrintable = String(decoding: Array(UInt8(0x20)...UInt8(0x7E)), as: UTF8.self)
        let minted = try minter.mint(readerInstanceIdentifier: allPrintable, now: now)
        let payload = try Fixtures.split(minted.token).payload
        let object = try #require(JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        #expect(object["sub"] as? String == allPrintable)
    }

    @Test func rejectedIdentifierIsNotEchoed() throws {
        let error = #expect(throws: ReaderTokenError.self) {
            try Fixtures.minter().mint(readerInstanceIdentifier: "secret-ish\u{1B}[31m", now: now)
        }
        #expect(error.map { !String(describing: $0).contains("secret-ish") } == true)
    }

    @Test(arguments: [-1.0, .nan, .infinity, 253_402_300_800.0])
    func unrepresentableNowIsRejected(seconds: Double) throws {
        let error = #expect(throws: ReaderTokenError.self) {
            try Fixtures.minter().mint(readerInstanceIdentifier: "r", now: Date(timeIntervalSince1970: seconds))
        }
        #expect(error?.code == "INVALID_ISSUED_AT")
    }

    @Test func signaturesDifferButAllVerify() throws {
        let minter = try Fixtures.minter()
        let a = try minter.mint(readerInstanceIdentifier: "r", now: now)
        let b = try minter.mint(readerInstanceIdentifier: "r", now: now)
        let pa = try Fixtures.split(a.token), pb = try Fixtures.split(b.token)
        #expect(pa.signingInput == pb.signingInput)
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: Fixtures.publicPEM)
        for sig in [pa.signature, pb.signature] {
            #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: sig),
                                               for: Data(pa.signingInput.utf8)))
        }
    }

    @Test func minterDoesNotLeakKey() throws {
        let minter = try Fixtures.minter()
        var dumped = ""
        dump(minter, to: &dumped)
        let renderings = [String(describing: minter), String(reflecting: minter), dumped, "\(minter)",
                          String(describing: Mirror(reflecting: minter).children.map { "\($0.label ?? ""):\($0.value)" })]
        let keyPEM = try Fixtures.signingKey().pkcs8PEM
        let secrets = [Fixtures.privateScalarHex, Fixtures.privateScalarHex.uppercased(), "MHcCAQEEINEOOcTX", "0Q45xNdovhIf",
                       "PRIVATE KEY", String(keyPEM.split(separator: "\n")[1].prefix(24))]
        for rendering in renderings {
            for secret in secrets {
                #expect(!rendering.contains(secret), "leaked via: \(rendering)")
            }
            #expect(rendering.contains("redacted") || rendering.contains("<redacted>"))
        }
        #expect(dumped.contains("ABCDEFGHIJ"), "non-secret configuration is still visible")
    }
}
