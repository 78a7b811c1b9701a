import Encodings
import Foundation
import Synchronization
import MDoc
import SessionStore
import Testing
import TestSupport
@testable import OpenID4VP

/// The cross-device pieces of the library: identifiers the wallet cannot turn back into the caller's handle, the
/// QR code's URI, the wallet's form, and the stored result (keyed, versioned, released only with its response code).
struct CrossDeviceTests {
    @Test func identifiersAreOneWayAndDistinct() {
        let session = SessionIdentifier.make()
        let response = CrossDeviceIdentifiers.responseId(sessionId: session)
        let result = CrossDeviceIdentifiers.resultId(responseId: response)
        #expect(Set([session, response, result]).count == 3)
        #expect(response.count == 43 && result.count == 43)
        #expect(CrossDeviceIdentifiers.responseId(sessionId: session) == response, "derived, not random")
    }

    @Test func theAuthorizationRequestFormEncodesItsValues() throws {
        let uri = WalletAuthorizationEndpoint.openID4VP.uri(clientId: "x509_hash:abc+/=", requestURI: "https://v.example/r/1?a=b&c",
                                                            method: .get)
        #expect(uri == "openid4vp://?client_id=x509_hash%3Aabc%2B%2F%3D&request_uri=https%3A%2F%2Fv.example%2Fr%2F1%3Fa%3Db%26c")
        // A web wallet's https endpoint (the conformance suite's), with the POST method announced.
        let suite = try #require(WalletAuthorizationEndpoint("https://suite.example/test/a/verifierd/authorize"))
        #expect(suite.uri(clientId: "x509_hash:abc", requestURI: "https://v.example/r/1", method: .post)
                == "https://suite.example/test/a/verifierd/authorize?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fv.example%2Fr%2F1&request_uri_method=post")
        #expect(WalletAuthorizationEndpoint("haip-vp://")?.text == "haip-vp://")
        for refused in ["http://wallet.example/authorize", "https://wallet.example/a?x=1", "https://wallet.example/a#f", "openid4vp://x",
                        "https://user@wallet.example/a", "1scheme://", "://", "https://"] {
            #expect(WalletAuthorizationEndpoint(refused) == nil, "\(refused)")
        }
    }

    @Test func theWalletsFormHoldsAResponseOrAnError() throws {
        #expect(try WalletAnswer(directPostFields: ["response": "jwe"]) == .encrypted("jwe"))
        #expect(try WalletAnswer(directPostFields: ["error": String(repeating: "e", count: 200), "error_description": "d"])
            == .error(code: String(repeating: "e", count: 128), description: "d"))
        #expect(throws: ResponseFailure.self) { try WalletAnswer(directPostFields: ["response": "jwe", "error": "x"]) }
        #expect(throws: ResponseFailure.self) { try WalletAnswer(directPostFields: ["vp_token": "x"]) }
    }

    @Test func aStoredResultReadsBackAndIsReleasedOnlyWithItsCode() throws {
        let result = CrossDeviceResult(verified: true, responseCode: "code-123", report: Array(#"{"verified":true}"#.utf8))
        let read = try #require(CrossDeviceResult(encoded: result.encoded))
        #expect(read == result)
        #expect(read.isReleased(to: "code-123"))
        #expect(!read.isReleased(to: "code-124") && !read.isReleased(to: nil))
        let open = CrossDeviceResult(verified: false, responseCode: nil, report: [])
        #expect(try #require(CrossDeviceResult(encoded: open.encoded)).isReleased(to: nil))
        // Another version, or the hand-packed form of earlier releases, is refused, never misread.
        #expect(CrossDeviceResult(encoded: StoredPayload.encode(version: 2, [("verified", .bool(true))])) == nil)
        #expect(CrossDeviceResult(encoded: [1, 0] + Array("{}".utf8)) == nil)
    }

    static func session(flow: OpenID4VPSession.Flow) -> OpenID4VPSession {
        let document = RequestedItems.Document(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
            (nameSpace: "org.iso.18013.5.1", elements: [RequestedItems.Element("age_over_21", intentToRetain: false)]),
        ])
        let query = DCQLQuery(credentials: [DCQLQuery.Credential(id: "mdl", document: document, multiple: false)],
                              credentialSets: [DCQLQuery.CredentialSet(options: [["mdl"]], required: true)])
        return flow == .crossDevice
            ? OpenID4VPSession(flow: .crossDevice, origin: nil, nonce: "n", mode: .directPostJWT, key: ResponseEncryptionKey(kid: "k"),
                               query: query, clientId: "x509_hash:c", responseURI: "https://v.example/r", redirectURI: "https://shop.example/done")
            : OpenID4VPSession(flow: .digitalCredentialsAPI, origin: "https://shop.example", nonce: "n", mode: .dcAPI, key: nil,
                               query: query, clientId: nil, responseURI: nil)
    }

    @Test(arguments: [OpenID4VPSession.Flow.crossDevice, .digitalCredentialsAPI])
    func aSessionRecordReadsBackMemberByMember(_ flow: OpenID4VPSession.Flow) throws {
        let session = Self.session(flow: flow)
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        let record = session.record(id: "id", createdAt: now, expiresAt: now.addingTimeInterval(300))
        #expect(record.kind == flow.kind)
        let read = try #require(OpenID4VPSession(record: record))
        #expect(read.flow == flow && read.origin == session.origin && read.nonce == "n" && read.mode == session.mode)
        #expect(read.key?.kid == session.key?.kid && read.clientId == session.clientId && read.redirectURI == session.redirectURI)
        #expect(read.query.credentials.map(\.id) == ["mdl"] && read.query.credentialSets == session.query.credentialSets)
        #expect(read.transcript == session.transcript)
        // Under another kind it is not read at all.
        let other = SessionRecord(id: "id", kind: "web", createdAt: now, expiresAt: now, payload: record.payload)
        #expect(OpenID4VPSession(record: other) == nil)
    }

    /// The verifier merges the per-format checks' reports and names each document's credential query; a
    /// presentation that fails as a whole decides the answer; an error answer never reaches the check.
    @Test func theVerifierDelegatesEachPresentationToItsFormat() async throws {
        let session = Self.session(flow: .digitalCredentialsAPI)
        let calls = CallCounter()
        let verifier = OpenID4VPVerifier(mdoc: { _, _, _ in
            calls.increment()
            return .failure(.deviceResponseMalformed, "never reached")
        })
        let declined = await verifier.verify(.error(code: "access_denied", description: nil), session: session)
        #expect(declined.report.failureCode == .walletDeclined && calls.value == 0)
        let empty = await verifier.verify(.plain(VPToken(presentations: [:])), session: session)
        #expect(empty.report.failureCode == .documentsNotReturned && calls.value == 0)
        // A presentation that parses goes to the injected check, with the session's transcript and the document its
        // credential query asked for; a check that fails the whole presentation decides the answer.
        let bytes = try Fixtures.hexFile(Fixtures.testVectors.appendingPathComponent("mdoc/cases/valid-device-mac.deviceresponse.hex"))
        let seen = Mutex<(transcript: [UInt8], docTypes: [String])>(([], []))
        let injected = OpenID4VPVerifier(mdoc: { _, transcript, requested in
            seen.withLock { $0 = (transcript, requested?.documents.map(\.docType) ?? []) }
            return .failure(FailureCode(rawValue: "INJECTED"), "the injected check's own verdict")
        })
        let delegated = await injected.verify(.plain(VPToken(presentations: ["mdl": [Base64URL.encode(bytes)]])), session: session)
        #expect(delegated.report.failureCode?.rawValue == "INJECTED" && delegated.credentialIds.isEmpty)
        #expect(seen.withLock { $0.transcript } == session.transcript)
        #expect(seen.withLock { $0.docTypes } == ["org.iso.18013.5.1.mDL"])
    }
}

/// A counter the injected check bumps (Sendable, for the closure).
final class CallCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// The checks OpenID4VP leaves to the verifier, on the library alone (`OpenID4VPPresentations`).
struct OpenID4VPPresentationsTests {
    static let session = CrossDeviceTests.session(flow: .digitalCredentialsAPI)

    static func code(_ answer: WalletAnswer, session: OpenID4VPSession = session) -> FailureCode? {
        do {
            _ = try OpenID4VPPresentations(answer, session: session)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func eachRefusalHasItsCode() {
        // An unencrypted session takes no JWE; an encrypted one takes no vp_token in the clear.
        #expect(Self.code(.encrypted("a.b.c.d.e")) == .envelopeMalformed)
        #expect(Self.code(.plain(VPToken(presentations: ["mdl": ["AA"]])), session: CrossDeviceTests.session(flow: .crossDevice))
            == .envelopeMalformed)
        #expect(Self.code(.error(code: "access_denied", description: "no")) == .walletDeclined)
        #expect(Self.code(.plain(VPToken(presentations: [:]))) == .documentsNotReturned)
        #expect(Self.code(.plain(VPToken(presentations: ["other": ["AA"]]))) == .elementNotRequested, "an id the query lacks")
        #expect(Self.code(.plain(VPToken(presentations: ["mdl": []]))) == .vpTokenMalformed, "an empty array")
        #expect(Self.code(.plain(VPToken(presentations: ["mdl": ["AA", "AA"]]))) == .vpTokenMalformed, "two without multiple")
        #expect(Self.code(.plain(VPToken(presentations: ["mdl": ["not base64url!"]]))) == .vpTokenMalformed)
        #expect(Self.code(.plain(VPToken(presentations: ["mdl": ["oA"]]))) == .deviceResponseMalformed, "not a DeviceResponse")
    }
}
