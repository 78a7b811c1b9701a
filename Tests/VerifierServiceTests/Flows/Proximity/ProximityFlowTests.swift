import Foundation
import Testing
import TestSupport
import TrustStore

/// `/v1/proximity/sessions` over real sockets: Annex D end to end with the injected reader key, and the refusals.
@Suite(.serialized, .enabled(if: Fixtures.sharedVectorsAvailable, "needs ../shared/vectors"))
struct ProximityFlowTests {
    static func harness(injection: Bool = true, proximity: Bool = true, clock: ManualClock? = nil) throws -> ServiceHarness {
        try ServiceHarness.withAnnexDIACA { iaca in
            try ServiceHarness(anchors: [iaca], clock: clock) { config in
                if proximity { config["proximity"] = ["sessionTTLSeconds": 300, "allowInjectedReaderKey": injection] }
            }
        }
    }

    static func b64(_ name: String) throws -> String { Data(try Fixtures.annexD(name)).base64EncodedString() }

    static func annexDSession() throws -> [String: Any] {
        ["deviceEngagement": try b64("session_transcript_device_engagement"), "handover": try b64("handover_nfc"),
         "deviceRequest": try b64("device_request"),
         "eReaderPrivateKey": (try Fixtures.annexD("e_reader_key_d")).map { String(format: "%02x", $0) }.joined()]
    }

    @Test func annexDEndToEnd() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let created = try await harness.post("/v1/proximity/sessions", json: try Self.annexDSession())
        #expect(created.status == 201)
        let id = try #require(created.json["sessionId"] as? String)
        #expect(created.json["sessionEstablishment"] as? String == (try Self.b64("session_establishment")))
        let coseKey = try #require(Data(base64Encoded: created.json["eReaderKey"] as? String ?? ""))
        #expect(Array(coseKey) == Array((try Fixtures.annexD("e_reader_key_bytes")).dropFirst(4)))
        let message = ["sessionData": try Self.b64("session_data"), "verificationTime": "2021-01-01T00:00:00Z"]
        let verified = try await harness.post("/v1/proximity/sessions/\(id)/messages", json: message)
        #expect(verified.status == 200)
        #expect(verified.json["verified"] as? Bool == true)
        #expect(verified.json["reply"] as? String == (try Self.b64("session_termination")))
        let document = try #require((verified.json["documents"] as? [[String: Any]])?.first)
        #expect(document["deviceAuthentication"] as? String == "mac")
        let again = try await harness.post("/v1/proximity/sessions/\(id)/messages", json: message)
        #expect(again.status == 409)
        #expect(again.json["code"] as? String == "SESSION_ALREADY_USED")
        // The reader key never reaches the logs.
        let keyHex = (try Self.annexDSession())["eReaderPrivateKey"] as! String
        #expect(!harness.logs.all.joined().contains(keyHex))
        await harness.stop()
    }

    @Test func theDeviceEndingTheSessionIsReportedAsSuch() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.stop() } }
        let created = try await harness.post("/v1/proximity/sessions", json: try Self.annexDSession())
        let id = try #require(created.json["sessionId"] as? String)
        let ended = try await harness.post("/v1/proximity/sessions/\(id)/messages", json: ["sessionData": try Self.b64("session_termination")])
        #expect(ended.status == 422)
        #expect(ended.json["code"] as? String == "SESSION_ENDED_BY_DEVICE")
        let malformed = try await harness.post("/v1/proximity/sessions", json: try Self.annexDSession())
        let other = try #require(malformed.json["sessionId"] as? String)
        let bad = try await harness.post("/v1/proximity/sessions/\(other)/messages", json: ["sessionData": "oA=="])
        #expect(bad.status == 400)
        #expect(bad.json["code"] as? String == "SESSION_DATA_MALFORMED")
        await harness.stop()
    }

    @Test func anExpiredSessionIs410() async throws {
        let clock = ManualClock(TestClock.date("2030-01-01T00:00:00Z"))
        let harness = try Self.harness(clock: clock)
        defer { Task { await harness.stop() } }
        let created = try await harness.post("/v1/proximity/sessions", json: try Self.annexDSession())
        let id = try #require(created.json["sessionId"] as? String)
        #expect(created.json["expiresAt"] as? String == "2030-01-01T00:05:00Z")
        clock.advance(by: 301)
        let late = try await harness.post("/v1/proximity/sessions/\(id)/messages", json: ["sessionData": try Self.b64("session_data")])
        #expect(late.status == 410)
        #expect(late.json["code"] as? String == "SESSION_EXPIRED")
        await harness.stop()
    }

    @Test func refusals() async throws {
        let harness = try Self.harness(injection: false)
        defer { Task { await harness.stop() } }
        let injected = try await harness.post("/v1/proximity/sessions", json: try Self.annexDSession())
        #expect(injected.status == 400)
        #expect(injected.json["code"] as? String == "INJECTED_READER_KEY_DISABLED")
        var body = try Self.annexDSession()
        body["eReaderPrivateKey"] = nil
        // The QR engagement with a fresh reader key works; an unusable engagement does not.
        body["deviceEngagement"] = "mdoc:" + (try Self.b64("device_engagement")).replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        body["handover"] = nil
        #expect(try await harness.post("/v1/proximity/sessions", json: body).status == 201)
        body["deviceEngagement"] = "oQBjMS4w"
        let invalid = try await harness.post("/v1/proximity/sessions", json: body)
        #expect(invalid.status == 400)
        #expect(invalid.json["code"] as? String == "DEVICE_ENGAGEMENT_INVALID")
        body["deviceEngagement"] = try Self.b64("device_engagement")
        body["documents"] = [["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["family_name": false]]]]
        let both = try await harness.post("/v1/proximity/sessions", json: body)
        #expect(both.status == 400)
        let unknown = try await harness.post("/v1/proximity/sessions/\(String(repeating: "A", count: 43))/messages",
                                             json: ["sessionData": try Self.b64("session_data")])
        #expect(unknown.status == 404)
        await harness.stop()
        let off = try Self.harness(proximity: false)
        defer { Task { await off.stop() } }
        #expect(try await off.post("/v1/proximity/sessions", json: body).json["code"] as? String == "PROXIMITY_NOT_CONFIGURED")
        await off.stop()
    }
}
