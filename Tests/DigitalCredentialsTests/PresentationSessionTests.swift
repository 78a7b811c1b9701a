import CBOR
import Crypto
import DigitalCredentials
import Foundation
import MDoc
import OpenID4VP
import SessionStore
import Testing
import WebPresentment

/// The one stored record of a multi-protocol request, and the answer verified by the protocol it names.
struct PresentationSessionTests {
    typealias F = PresentationFixtures
    static let now = Date(timeIntervalSince1970: 1_893_456_000)

    static func record(_ session: PresentationSession) -> SessionRecord {
        session.record(id: "session-id", createdAt: now, expiresAt: now.addingTimeInterval(300))
    }

    static func expectSame(_ read: OpenID4VPSession?, _ original: OpenID4VPSession?, _ what: String) {
        #expect((read == nil) == (original == nil), "\(what)")
        guard let read, let original else { return }
        #expect(read.flow == original.flow && read.origin == original.origin && read.nonce == original.nonce, "\(what)")
        #expect(read.mode == original.mode && read.clientId == original.clientId && read.responseURI == original.responseURI, "\(what)")
        #expect(read.key?.kid == original.key?.kid, "\(what)")
        #expect(read.key?.privateKey.rawRepresentation == original.key?.privateKey.rawRepresentation, "\(what)")
        #expect(read.query.credentials.map(\.id) == original.query.credentials.map(\.id), "\(what)")
        #expect(read.query.requested == original.query.requested, "\(what)")
        #expect(read.transcript == original.transcript, "\(what)")
    }

    // MARK: - The stored record

    /// `record` then `init(record:)` gives every part back: the order offered, the Annex C session (origin, the
    /// exact encryptionInfo, recipient key, what was asked, transcript) and each OpenID4VP session.
    @Test(arguments: PresentationRequestTests.preferences + [[.openID4VPSigned, .isoMdoc, .openID4VPUnsigned]])
    func aRecordReadsBackPartByPart(_ preference: [DigitalCredentialProtocol]) throws {
        let session = try F.request(preference).session
        let record = Self.record(session)
        #expect(record.kind == PresentationSession.kind && record.kind.rawValue == "dc-presentation")
        #expect(record.id == "session-id" && record.expiresAt == Self.now.addingTimeInterval(300))
        // A record never prints its content.
        #expect("\(record.payload)" == "SecretBytes(\(record.payload.count) bytes)")
        let read = try #require(PresentationSession(record: record))
        #expect(read.offered == session.offered && read.offered == preference)
        #expect((read.web == nil) == (session.web == nil))
        if let web = read.web, let original = session.web {
            #expect(web.origin == original.origin && web.encryptionInfo == original.encryptionInfo)
            #expect(web.recipientKey.rawRepresentation == original.recipientKey.rawRepresentation)
            #expect(web.requested == original.requested && web.transcript == original.transcript)
        }
        Self.expectSame(read.signed, session.signed, "signed")
        Self.expectSame(read.unsigned, session.unsigned, "unsigned")
    }

    /// A payload written by hand: `offered`, and each part's stored payload or null.
    static func payload(version: Int64 = 1, _ members: [(String, CBOR)]) -> SessionRecord {
        var bytes = StoredPayload.encode(version: version, members)
        return SessionRecord(id: "session-id", kind: PresentationSession.kind, createdAt: now, expiresAt: now.addingTimeInterval(300),
                             payload: SecretBytes(consuming: &bytes))
    }

    static func offered(_ names: [String]) -> CBOR { .array(names.map { CBOR.text($0) }) }

    /// A record that is not one `record` wrote reads as nil: another kind, another version, a part missing, a part
    /// that does not read back, a part the offer does not name (or the other way round), an unknown protocol.
    @Test func aBrokenRecordReadsAsNil() throws {
        let full = try F.request([.openID4VPSigned, .isoMdoc, .openID4VPUnsigned]).session
        let record = Self.record(full)
        let web = Self.record(full).payload  // the whole record, for the kind test
        let webPart = CBOR.bytes(try #require(full.web).record(id: "x", createdAt: Self.now, expiresAt: Self.now).payload.bytes)
        let signedPart = CBOR.bytes(try #require(full.signed).record(id: "x", createdAt: Self.now, expiresAt: Self.now).payload.bytes)
        let unsignedPart = CBOR.bytes(try #require(full.unsigned).record(id: "x", createdAt: Self.now, expiresAt: Self.now).payload.bytes)
        let annexC = Self.offered(["org-iso-mdoc"])

        // The hand-written form is the stored form: these read back.
        #expect(PresentationSession(record: Self.payload([("offered", annexC), ("web", webPart), ("signed", .null), ("unsigned", .null)]))?
                .offered == [.isoMdoc])
        #expect(PresentationSession(record: Self.payload([
            ("offered", Self.offered(["openid4vp-v1-unsigned", "openid4vp-v1-signed", "org-iso-mdoc"])),
            ("web", webPart), ("signed", signedPart), ("unsigned", unsignedPart),
        ]))?.offered == [.openID4VPUnsigned, .openID4VPSigned, .isoMdoc])

        // Another kind: the same bytes are not this record.
        for kind: SessionKind in [.web, .oid4vpDigitalCredentialsAPI, "dc-presentation-2"] {
            let other = SessionRecord(id: record.id, kind: kind, createdAt: record.createdAt, expiresAt: record.expiresAt, payload: web)
            #expect(PresentationSession(record: other) == nil, "\(kind)")
        }
        let broken: [(String, SessionRecord)] = [
            ("version 2", Self.payload(version: 2, [("offered", annexC), ("web", webPart), ("signed", .null), ("unsigned", .null)])),
            ("no unsigned member", Self.payload([("offered", annexC), ("web", webPart), ("signed", .null)])),
            ("an extra member", Self.payload([("offered", annexC), ("web", webPart), ("signed", .null), ("unsigned", .null),
                                              ("cross-device", .null)])),
            ("a tampered web part", Self.payload([("offered", annexC), ("web", .bytes([0xa1, 0x01, 0x02])), ("signed", .null),
                                                  ("unsigned", .null)])),
            ("a web part that is text", Self.payload([("offered", annexC), ("web", .text("web")), ("signed", .null), ("unsigned", .null)])),
            ("an OpenID4VP session as the web part", Self.payload([("offered", annexC), ("web", signedPart), ("signed", .null),
                                                                    ("unsigned", .null)])),
            ("a web session as the signed part", Self.payload([("offered", Self.offered(["openid4vp-v1-signed"])), ("web", .null),
                                                               ("signed", webPart), ("unsigned", .null)])),
            ("an unsigned session as the signed part", Self.payload([("offered", Self.offered(["openid4vp-v1-signed"])),
                                                                     ("web", .null), ("signed", unsignedPart), ("unsigned", .null)])),
            ("a signed session as the unsigned part", Self.payload([("offered", Self.offered(["openid4vp-v1-unsigned"])),
                                                                    ("web", .null), ("signed", .null), ("unsigned", signedPart)])),
            ("offered without its part", Self.payload([("offered", Self.offered(["org-iso-mdoc", "openid4vp-v1-signed"])),
                                                       ("web", webPart), ("signed", .null), ("unsigned", .null)])),
            ("a part not offered", Self.payload([("offered", annexC), ("web", webPart), ("signed", signedPart), ("unsigned", .null)])),
            ("an unknown protocol", Self.payload([("offered", Self.offered(["org-iso-mdoc", "openid4vp-v2"])), ("web", webPart),
                                                  ("signed", .null), ("unsigned", .null)])),
            ("a protocol offered twice", Self.payload([("offered", Self.offered(["org-iso-mdoc", "org-iso-mdoc"])), ("web", webPart),
                                                       ("signed", .null), ("unsigned", .null)])),
            ("nothing offered", Self.payload([("offered", Self.offered([])), ("web", .null), ("signed", .null), ("unsigned", .null)])),
            ("offered is not an array", Self.payload([("offered", .text("org-iso-mdoc")), ("web", webPart), ("signed", .null),
                                                      ("unsigned", .null)])),
        ]
        for (what, record) in broken {
            #expect(PresentationSession(record: record) == nil, "\(what)")
        }
    }

    /// A session keeps a part for each protocol offered, and none for another.
    @Test func aSessionHoldsExactlyTheOfferedParts() throws {
        let full = try F.request([.openID4VPSigned, .isoMdoc, .openID4VPUnsigned]).session
        #expect(PresentationSession(offered: [.isoMdoc], web: full.web, signed: nil, unsigned: nil) != nil)
        #expect(PresentationSession(offered: [.isoMdoc], web: full.web, signed: full.signed, unsigned: nil) == nil)
        #expect(PresentationSession(offered: [.isoMdoc, .openID4VPSigned], web: full.web, signed: nil, unsigned: nil) == nil)
        #expect(PresentationSession(offered: [], web: nil, signed: nil, unsigned: nil) == nil)
        #expect(PresentationSession(offered: [.openID4VPSigned], web: nil, signed: full.unsigned, unsigned: nil) == nil)
        #expect(PresentationSession(offered: [.openID4VPUnsigned], web: nil, signed: nil, unsigned: full.signed) == nil)
        #expect(PresentationSession(offered: [.openID4VPUnsigned], web: nil, signed: nil, unsigned: full.unsigned) != nil)
    }

    // MARK: - Verifying an answer

    func refusal(_ session: PresentationSession, _ credential: DigitalCredentialResponse) async -> String? {
        do throws(PresentationRefusal) {
            _ = try await session.verify(credential, mdoc: F.mdocCheck, openID4VP: F.verifier)
            return nil
        } catch {
            return error.detail
        }
    }

    func verdict(_ session: PresentationSession, _ credential: DigitalCredentialResponse) async throws -> PresentationVerdict {
        do throws(PresentationRefusal) {
            return try await session.verify(credential, mdoc: F.mdocCheck, openID4VP: F.verifier)
        } catch {
            throw F.FixtureProblem("refused: \(error.detail)")
        }
    }

    /// A protocol the session did not offer, or one nobody knows, is refused before anything is read; one it
    /// offered is verified.
    @Test func aProtocolNotOfferedIsRefused() async throws {
        let answer = #"{"response": "eyJ9.e30..AA.AA"}"#
        func credential(_ name: String) throws -> DigitalCredentialResponse { try F.credential(name, answer) }
        let annexCOnly = try F.request([.isoMdoc]).session
        for name in ["openid4vp-v1-signed", "openid4vp-v1-unsigned"] {
            let answered = try credential(name)
            let detail = await refusal(annexCOnly, answered)
            #expect(detail?.contains("\"\(name)\" is not one this session offered (org-iso-mdoc)") == true, "\(detail ?? "accepted")")
        }
        let signedOnly = try F.request([.openID4VPSigned]).session
        let annexC = try credential("org-iso-mdoc"), unsigned = try credential("openid4vp-v1-unsigned")
        let signed = try credential("openid4vp-v1-signed")
        #expect(await refusal(signedOnly, annexC) != nil)
        #expect(await refusal(signedOnly, unsigned) != nil)
        let everything = try F.request([.openID4VPSigned, .isoMdoc, .openID4VPUnsigned]).session
        for name in ["openid4vp", "org-iso-mdoc ", "ORG-ISO-MDOC", "", "openid4vp-v1-multisigned", String(repeating: "x", count: 1000)] {
            let answered = try credential(name)
            let detail = await refusal(everything, answered)
            #expect(detail != nil, "\(name.prefix(40)) was verified")
            #expect((detail?.count ?? 0) < 300, "the detail quotes at most 64 characters of the name")
        }
        // Offered: verified (here: failed on its content, not refused).
        #expect(await refusal(annexCOnly, annexC) == nil)
        #expect(await refusal(signedOnly, signed) == nil)
        #expect(await refusal(everything, unsigned) == nil)
    }

    /// org-iso-mdoc data is exactly `{"response": "<string>"}`: anything else is ENVELOPE_MALFORMED, whatever it holds.
    @Test(arguments: [
        #"{}"#, #"{"response": 5}"#, #"{"response": null}"#, #"{"response": ["a"]}"#, #"{"response": "a", "extra": "b"}"#,
        #"{"vp_token": {"mdl": ["AA"]}}"#, #"{"Response": "a"}"#, #""a""#, #"["a"]"#, #"null"#,
    ])
    func annexCDataOfAnotherShapeIsEnvelopeMalformed(_ json: String) async throws {
        let session = try F.request([.isoMdoc]).session
        let credential = try F.credential("org-iso-mdoc", json)
        guard case .isoMdoc(let report) = try await verdict(session, credential) else {
            Issue.record("not an Annex C verdict")
            return
        }
        #expect(!report.verified && report.failureCode == .envelopeMalformed)
        #expect(report.failureDetail?.contains("org-iso-mdoc data is") == true, "\(report.failureDetail ?? "")")
    }

    /// `{"response"}` is opened with the session's own key and transcript: a DeviceResponse sealed to them decrypts
    /// (and is judged: here it returns no document); sealed to another key or over another origin it does not.
    @Test func annexCDataOfTheRightShapeIsOpenedWithTheSessionsKey() async throws {
        func report(_ make: (WebSession) throws -> String) async throws -> VerificationReport {
            let session = try F.request([.isoMdoc]).session
            let web = try #require(session.web)
            let response = try make(web)
            let credential = try F.credential("org-iso-mdoc", #"{"response": "\#(response)"}"#)
            guard case .isoMdoc(let report) = try await verdict(session, credential) else {
                throw F.FixtureProblem("not an Annex C verdict")
            }
            return report
        }
        let declined = F.declinedDeviceResponse
        let opened = try await report { web in
            try F.annexCResponse(declined, to: web.recipientKey.publicKey, transcript: web.transcript.bytes)
        }
        #expect(opened.failureCode == .documentsNotReturned, "decrypted, then judged: \(opened.failureDetail ?? "")")
        let otherKey = try await report { web in
            try F.annexCResponse(declined, to: P256.KeyAgreement.PrivateKey().publicKey, transcript: web.transcript.bytes)
        }
        #expect(otherKey.failureCode == .decryptionFailed)
        let otherOrigin = try await report { web in
            let transcript = DCAPISessionTranscript(encryptionInfo: web.encryptionInfo, origin: "https://other.example")
            return try F.annexCResponse(declined, to: web.recipientKey.publicKey, transcript: transcript.bytes)
        }
        #expect(otherOrigin.failureCode == .decryptionFailed)
        let garbage = try await report { _ in "not base64url!" }
        #expect(garbage.failureCode == .envelopeMalformed && garbage.failureDetail?.contains("org-iso-mdoc data is") == false)
    }

    /// OpenID4VP data goes to the session of the protocol named: a JWE to the signed request's key decrypts when
    /// answered as openid4vp-v1-signed (and is judged by its query) and names an unknown key as unsigned.
    @Test func openID4VPDataIsVerifiedAgainstTheNamedProtocolsSession() async throws {
        let session = try F.request([.openID4VPSigned, .isoMdoc, .openID4VPUnsigned]).session
        let signedKey = try #require(session.signed?.key)
        let jwe = try F.jwe(Array(#"{"vp_token": {"not_asked": ["AA"]}}"#.utf8), to: signedKey)
        let data = #"{"response": "\#(jwe)"}"#
        let asSigned = try F.credential("openid4vp-v1-signed", data), asUnsigned = try F.credential("openid4vp-v1-unsigned", data)
        guard case .openID4VP(let named, let signedVerdict) = try await verdict(session, asSigned) else {
            Issue.record("not an OpenID4VP verdict")
            return
        }
        #expect(named == .openID4VPSigned)
        #expect(signedVerdict.failureCode == .elementNotRequested,
                "decrypted, then judged by its query: \(signedVerdict.failureDetail ?? "")")
        guard case .openID4VP(let other, let unsignedVerdict) = try await verdict(session, asUnsigned) else {
            Issue.record("not an OpenID4VP verdict")
            return
        }
        #expect(other == .openID4VPUnsigned && unsignedVerdict.failureCode == .recipientKeyUnknown)
        // The wallet's refusal is the wallet's, in either protocol.
        let refused = try F.credential("openid4vp-v1-unsigned", #"{"error": "access_denied"}"#)
        let declined = try await verdict(session, refused)
        #expect(declined.answeredWith == .openID4VPUnsigned)
        if case .openID4VP(_, let answer) = declined { #expect(answer.failureCode == .walletDeclined) }
    }

    /// OpenID4VP data of another shape is ENVELOPE_MALFORMED (a verdict, not a refusal).
    @Test(arguments: [
        #"{}"#, #"{"response": 5}"#, #"{"vp_token": "AA"}"#, #"{"vp_token": {"mdl": "AA"}}"#, #"{"vp_token": {"mdl": [5]}}"#,
        #"{"error": 1}"#, #"{"response": "a", "error": "access_denied"}"#, #""a""#, #"[]"#,
    ])
    func openID4VPDataOfAnotherShapeIsEnvelopeMalformed(_ json: String) async throws {
        let session = try F.request([.openID4VPSigned]).session
        let credential = try F.credential("openid4vp-v1-signed", json)
        guard case .openID4VP(let named, let answer) = try await verdict(session, credential) else {
            Issue.record("not an OpenID4VP verdict")
            return
        }
        #expect(named == .openID4VPSigned && !answer.verified && answer.failureCode == .envelopeMalformed,
                "\(answer.failureCode?.rawValue ?? "verified")")
    }
}
