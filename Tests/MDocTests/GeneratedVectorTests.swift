import Foundation
import Testing
import TestSupport
import TrustStore
@testable import MDoc

/// Our own vectors (TestVectors/mdoc), made by the Python generator with independent libraries.
struct GeneratedVectorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let json: JSONValue
        var testDescription: String { json["name"]?.string ?? "?" }
    }

    static let folder = Fixtures.testVectors.appendingPathComponent("mdoc")

    static let cases: [Case] = {
        let manifest = try? JSONValue.load(folder.appendingPathComponent("manifest.json"))
        return (manifest?["cases"]?.array ?? []).map(Case.init)
    }()

    @Test func manifestHasCases() {
        #expect(Self.cases.count >= 40)
    }

    @Test(arguments: cases)
    func verifiesAsTheManifestSays(_ testCase: Case) throws {
        let json = testCase.json
        func file(_ key: String) throws -> [UInt8] {
            let path = try #require(json[key]?.string)
            return try Fixtures.hexFile(Self.folder.appendingPathComponent(path))
        }
        let anchors = json["trustAnchors"]?.array.compactMap(\.string).map { Self.folder.appendingPathComponent($0) } ?? []
        let time = try #require(json["verificationTime"]?.string)
        var options = VerificationOptions(verificationTime: TestClock.date(time))
        options.profileChecks = ProfileCheckMode(rawValue: json["profileChecks"]?.string ?? "warn") ?? .warn
        if let reader = json["readerPrivateKey"]?.string {
            let scalar = try #require([UInt8](hex: reader))
            options.readerKey = try EphemeralReaderKey(rawScalar: scalar)
        }
        let report = MDocVerifier(trust: try TrustFixtures.anchors(anchors)).verify(
            deviceResponse: try file("deviceResponse"), sessionTranscript: try file("sessionTranscript"), options: options)

        let expect = try #require(json["expect"])
        #expect(report.verified == expect["verified"]?.bool)
        let expectedCodes = Set(expect["failedCodes"]?.array.compactMap(\.string) ?? [])
        var failedCodes = Set(report.documents.flatMap(\.checks).filter { $0.status == .failed }.compactMap(\.code?.rawValue))
        if let code = report.failureCode, report.documents.isEmpty { failedCodes.insert(code.rawValue) }
        #expect(failedCodes == expectedCodes)

        let document = report.documents.first
        for (id, expected) in expect["checks"]?.object ?? [:] {
            let checkID = try #require(VerificationCheckID(rawValue: id))
            let result = try #require(document?.check(checkID))
            #expect(result.status.rawValue == expected["outcome"]?.string, "\(id): \(result.detail ?? "")")
            #expect(result.code?.rawValue == expected["code"]?.string, "\(id)")
        }
        for (key, source) in [("claims", Claim.Source.issuerSigned), ("deviceSignedClaims", .deviceSigned)] {
            for (nameSpace, elements) in expect[key]?.object ?? [:] {
                for (identifier, value) in elements.object {
                    #expect(document?.claim(nameSpace, identifier, source: source).map(Self.jsonLike) == value,
                            "\(key) \(nameSpace)/\(identifier)")
                }
            }
        }
    }

    /// Claims compared with JSON: text and dates as strings, integers and booleans as themselves.
    static func jsonLike(_ element: ElementValue) -> JSONValue {
        switch element {
        case .text(let s), .fullDate(let s), .tdate(let s): return .string(s)
        case .integer(let n): return .integer(n)
        case .bool(let b): return .bool(b)
        default: return .string("\(element)")
        }
    }
}
