import CBOR
import Crypto
import DigitalCredentials
import Encodings
import Foundation
import MDoc
import OpenID4VP
import ReaderAuthentication
import StrictJSON
import TestSupport
import WebPresentment

/// What the DigitalCredentials tests share: the TEST-ONLY demo reader key, queries, and requests made with them.
enum PresentationFixtures {
    static let demoKeys = Fixtures.testVectors.appendingPathComponent("demo/keys")
    static let origin = "https://shop.example"
    static let webOrigin = SerializedOrigin("https://shop.example")!

    static func readerKey() throws -> ReaderAuthenticationKey {
        try ReaderAuthenticationKey(keyPEM: try Fixtures.text(demoKeys.appendingPathComponent("reader-auth.pem")),
                                    chainPEM: try Fixtures.text(demoKeys.appendingPathComponent("reader-auth-chain.pem")))
    }

    static func signer() throws -> RequestObjectSigner { try RequestObjectSigner(key: try readerKey()) }

    /// Unsigned DeviceRequests: what the Annex C part is made of does not matter here.
    static let builder = DeviceRequestBuilder(readerAuth: nil, mode: .readerAuth)

    /// The default mDL request (documents shorthand): every protocol can carry it.
    static let mdlQuery = DCQLQuery(RequestLimits.defaultRequest)

    static func query(_ json: String) throws -> DCQLQuery {
        try DCQLQuery(parsing: try JSONDecoder().decode(RawJSON.self, from: Data(json.utf8)))
    }

    static let mdocClaims = #""meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "age_over_21"]}]"#
    /// A caller's own query for one mDL: Annex C can say the same.
    static let plainMdoc = #"{"credentials": [{"id": "mdl", "format": "mso_mdoc", \#(mdocClaims)}]}"#
    /// What a DeviceRequest cannot say: an SD-JWT VC, alternatives, several presentations of one credential.
    static let sdJwtVc = #"{"credentials": [{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}, "claims": [{"path": ["given_name"]}]}]}"#
    static let credentialSets = #"{"credentials": [{"id": "mdl", "format": "mso_mdoc", \#(mdocClaims)}], "credential_sets": [{"options": [["mdl"]]}]}"#
    static let multiple = #"{"credentials": [{"id": "mdl", "format": "mso_mdoc", "multiple": true, \#(mdocClaims)}]}"#

    /// A request over every protocol `preference` names, for the shop's origin in both flows.
    static func request(_ preference: [DigitalCredentialProtocol] = DigitalCredentialProtocol.defaultPreference,
                        query: DCQLQuery = mdlQuery, web: Bool = true, openID4VP: Bool = true, signed: Bool = true)
        throws -> PresentationRequest
    {
        var key: RequestObjectSigner?
        if signed { key = try signer() }
        return try PresentationRequest(query: query, preference: preference, webOrigin: web ? webOrigin : nil,
                                       openID4VPOrigin: openID4VP ? origin : nil, builder: builder, signer: key)
    }

    /// `{"requests": [...]}` read back with Foundation: each request's protocol and data, in order.
    static func requests(_ digital: JSON) throws -> [(name: String, data: [String: Any])] {
        let object = try JSONSerialization.jsonObject(with: Data(digital.text.utf8)) as? [String: Any]
        guard let object, object.count == 1, let list = object["requests"] as? [[String: Any]] else {
            throw FixtureProblem("digital is not {\"requests\": [...]}: \(digital.text)")
        }
        var requests: [(name: String, data: [String: Any])] = []
        for entry in list {
            guard entry.count == 2, let name = entry["protocol"] as? String, let data = entry["data"] as? [String: Any] else {
                throw FixtureProblem("a request is not {protocol, data}: \(entry)")
            }
            requests.append((name: name, data: data))
        }
        return requests
    }

    struct FixtureProblem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: - Answers made here

    /// `credential.data` of an Annex C answer: `plaintext` sealed as a wallet seals it (HPKE base mode to the
    /// session's recipient key, the dcapi transcript as info, empty aad), `["dcapi", {enc, cipherText}]` in base64url.
    static func annexCResponse(_ plaintext: [UInt8], to key: P256.KeyAgreement.PublicKey, transcript: [UInt8]) throws -> String {
        var sender = try HPKE.Sender(recipientKey: key, ciphersuite: WebResponseDecryptor.ciphersuite, info: Data(transcript))
        let sealed = try sender.seal(plaintext, authenticating: Data())
        let envelope: CBOR = .array([.text("dcapi"), .map([
            CBOR.Pair(.text("enc"), .bytes(Array(sender.encapsulatedKey))), CBOR.Pair(.text("cipherText"), .bytes(Array(sealed))),
        ])])
        return Base64URL.encode(CBOREncoder().encode(envelope))
    }

    /// A well-formed DeviceResponse that returns no document (the holder declined everything).
    static let declinedDeviceResponse = CBOREncoder().encode(.map([
        CBOR.Pair(.text("version"), .text("1.0")), CBOR.Pair(.text("status"), .unsigned(0)),
    ]))

    /// A compact JWE as an OpenID4VP wallet makes it: ECDH-ES to `key` (its kid), A128GCM, Concat KDF (RFC 7518
    /// 4.6.2) without apu/apv, the protected header's base64url as aad.
    static func jwe(_ plaintext: [UInt8], to key: ResponseEncryptionKey) throws -> String {
        let ephemeral = P256.KeyAgreement.PrivateKey()
        let point = Array(ephemeral.publicKey.x963Representation)
        let header = #"{"alg":"ECDH-ES","enc":"A128GCM","kid":"\#(key.kid)","epk":{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(point[1..<33]))","y":"\#(Base64URL.encode(point[33..<65]))"}}"#
        let protected = Base64URL.encode(Array(header.utf8))
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: key.privateKey.publicKey).withUnsafeBytes { Array($0) }
        func counted(_ bytes: [UInt8]) -> [UInt8] { bigEndian(bytes.count) + bytes }
        var input: [UInt8] = [0, 0, 0, 1]
        input += shared
        input += counted(Array("A128GCM".utf8))
        input += counted([])
        input += counted([])
        input += bigEndian(128)
        let contentKey = Array(Array(SHA256.hash(data: input)).prefix(16))
        let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: contentKey), authenticating: Array(protected.utf8))
        let nonce = box.nonce.withUnsafeBytes { Array($0) }
        return [protected, "", Base64URL.encode(nonce), Base64URL.encode(Array(box.ciphertext)), Base64URL.encode(Array(box.tag))]
            .joined(separator: ".")
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xff), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }

    /// The injected checks: no DeviceResponse reaches them in these tests (each answer fails before), so they fail
    /// loudly if one does.
    static let mdocCheck: DeviceResponseCheck = { _, _, _ in .failure(.deviceResponseMalformed, "the check was reached") }
    static let verifier = OpenID4VPVerifier(mdoc: mdocCheck)

    /// A `DigitalCredential` as the page posts it: `protocol`, and `data` read from `json` as a member of an object
    /// (as the service reads it from its body), whatever JSON value it is.
    static func credential(_ name: String, _ json: String) throws -> DigitalCredentialResponse {
        struct Member: Decodable { let data: RawJSON }
        let member = try JSONDecoder().decode(Member.self, from: Data(#"{"data": \#(json)}"#.utf8))
        return DigitalCredentialResponse(protocol: name, data: member.data)
    }
}
