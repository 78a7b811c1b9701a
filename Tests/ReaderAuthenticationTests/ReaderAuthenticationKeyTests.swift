import Crypto
import Foundation
import SwiftASN1
import Testing
import TestSupport
import X509
@testable import ReaderAuthentication

/// Start-up checks of the readerAuth key and chain: each rule has a passing and a failing case.
struct ReaderAuthenticationKeyTests {
    static func pem(_ certificates: [Certificate]) throws -> String {
        try certificates.map { try ReaderAuthTestChain.pem($0) }.joined()
    }

    /// The demo configuration's TEST-ONLY reader key and chain.
    static func demoReaderKey() throws -> ReaderAuthenticationKey {
        let keys = Fixtures.testVectors.appendingPathComponent("demo/keys")
        return try ReaderAuthenticationKey(keyPEM: try Fixtures.text(keys.appendingPathComponent("reader-auth.pem")),
                                           chainPEM: try Fixtures.text(keys.appendingPathComponent("reader-auth-chain.pem")))
    }

    @Test func theDemoChainLoadsAndDropsItsRootFromX5chain() throws {
        let key = try Self.demoReaderKey()
        #expect(key.chain.count == 2)
        #expect(key.x5chain.count == 1)
        let root = try Certificate(pemEncoded: try Fixtures.text(Fixtures.testVectors.appendingPathComponent("demo/reader-root.pem")))
        #expect(key.rootKeyIdentifier == (try root.extensions.subjectKeyIdentifier).map { Array($0.keyIdentifier) })
    }

    @Test func aGeneratedTestChainLoads() throws {
        let chain = try ReaderAuthTestChain()
        let key = try ReaderAuthenticationKey(keyPEM: chain.readerKey.pemRepresentation, chainPEM: try Self.pem([chain.reader, chain.root]))
        #expect(key.rootKeyIdentifier == chain.rootKeyIdentifier)
        #expect(chain.rootKeyIdentifier.count == 20)
        // The leaf's AKI names the root's SKI: the link a provider app checks.
        let aki = try #require(try chain.reader.extensions.authorityKeyIdentifier)
        #expect(aki.keyIdentifier.map(Array.init) == chain.rootKeyIdentifier)
        // A chain of the reader certificate alone is fine too; the AKI then names the root.
        let alone = try ReaderAuthenticationKey(keyPEM: chain.readerKey.pemRepresentation, chainPEM: try Self.pem([chain.reader]))
        #expect(alone.rootKeyIdentifier == chain.rootKeyIdentifier)
    }

    func problem(key: String, chain: String) -> ReaderAuthenticationKey.Problem? {
        do {
            _ = try ReaderAuthenticationKey(keyPEM: key, chainPEM: chain)
            return nil
        } catch {
            return error
        }
    }

    @Test func aKeyThatIsNotTheLeafsIsRefused() throws {
        let chain = try ReaderAuthTestChain()
        let found = problem(key: P256.Signing.PrivateKey().pemRepresentation, chain: try Self.pem([chain.reader, chain.root]))
        #expect(found?.part == .signingKey)
    }

    @Test func theWrongOrderIsRefused() throws {
        let chain = try ReaderAuthTestChain()
        let found = problem(key: chain.readerKey.pemRepresentation, chain: try Self.pem([chain.root, chain.reader]))
        #expect(found?.part == .certificateChain)
    }

    @Test func aCertificateFromAnotherRootIsRefused() throws {
        let chain = try ReaderAuthTestChain(), other = try ReaderAuthTestChain()
        let found = problem(key: chain.readerKey.pemRepresentation, chain: try Self.pem([chain.reader, other.root]))
        #expect(found?.part == .certificateChain)
        #expect(found?.description.contains("not issued by") == true)
    }

    @Test func aLeafWithoutTheReaderEKUIsRefused() throws {
        let chain = try ReaderAuthTestChain()
        let key = P256.Signing.PrivateKey()
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: Date(),
            notValidAfter: Date().addingTimeInterval(86_400), issuer: chain.root.subject,
            subject: try DistinguishedName { CommonName("no eku") }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { Critical(KeyUsage(digitalSignature: true)) },
            issuerPrivateKey: .init(chain.rootKey))
        let found = problem(key: key.pemRepresentation, chain: try Self.pem([leaf, chain.root]))
        #expect(found?.part == .certificateChain)
        #expect(found?.description.contains("1.0.18013.5.1.6") == true)
    }

    @Test func aKeyNotOnP256IsRefused() throws {
        let key = P384.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("p384 reader") }
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: Date(),
            notValidAfter: Date().addingTimeInterval(86_400), issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                try ExtendedKeyUsage([ExtendedKeyUsage.Usage(oid: ReaderAuthenticationKey.readerEKU)])
            }, issuerPrivateKey: .init(key))
        #expect(problem(key: key.pemRepresentation, chain: try Self.pem([leaf])) != nil)
        #expect(problem(key: "not a key", chain: try Self.pem([leaf]))?.part == .signingKey)
        #expect(problem(key: P256.Signing.PrivateKey().pemRepresentation, chain: "")?.part == .certificateChain)
    }
}
