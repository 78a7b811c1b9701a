import Crypto
import Foundation
import MDoc
import SessionStore
import Testing
@testable import ReaderAuthentication
@testable import WebPresentment

struct WebSessionTests {
    @Test func aSessionSurvivesTheStoreByteForByte() throws {
        let request = try WebRequest(origin: SerializedOrigin("https://shop.example")!, requested: RequestLimits.defaultRequest,
                                     builder: DeviceRequestBuilder(readerAuth: nil, mode: .readerAuth))
        let record = WebSession(request).record(id: "id", createdAt: Date(), expiresAt: Date())
        #expect(record.kind == "web")
        let back = try #require(WebSession(record: record))
        #expect(back.origin == request.origin)
        #expect(back.encryptionInfo == request.encryptionInfo.base64URL)
        #expect(back.recipientKey.rawRepresentation == request.recipientKey.rawRepresentation)
        #expect(back.requested == request.requested)
        #expect(back.transcript == request.transcript)
        // A record never prints its content.
        #expect("\(record.payload)" == "SecretBytes(\(record.payload.count) bytes)")
        #expect(!"\(record)".contains(request.encryptionInfo.base64URL))
        let other = SessionRecord(id: "x", kind: "proximity", createdAt: Date(), expiresAt: Date(), payload: record.payload)
        #expect(WebSession(record: other) == nil)
    }
}
