import Foundation
import MDoc
import Testing
@testable import VerifierService

/// The OpenAPI document names every stable verification code, so clients can switch on them.
struct OpenAPICodesTests {
    @Test func everyVerificationCodeIsListed() throws {
        let document = try JSONSerialization.jsonObject(with: Data(EmbeddedAssets.openAPIDocument.utf8)) as? [String: Any]
        let schemas = (document?["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let listed = ((schemas?["VerificationCode"] as? [String: Any])?["enum"] as? [String]) ?? []
        #expect(Set(listed) == Set(VerificationCodes.all))
    }

    @Test func everyCheckIDIsListedInOrder() throws {
        let document = try JSONSerialization.jsonObject(with: Data(EmbeddedAssets.openAPIDocument.utf8)) as? [String: Any]
        let schemas = (document?["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let check = (schemas?["Check"] as? [String: Any])?["properties"] as? [String: Any]
        let listed = ((check?["id"] as? [String: Any])?["enum"] as? [String]) ?? []
        #expect(listed == VerificationCheckID.allCases.map(\.rawValue))
    }
}
