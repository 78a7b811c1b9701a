import CBOR
import Foundation
import Testing
import TrustStore
@testable import MDoc

struct ModelTests {
    @Test func tdatesParseWithFractionsAndOffsets() {
        #expect(TDate.parse("2020-10-01T13:30:02Z") == Date(timeIntervalSince1970: 1_601_559_002))
        #expect(TDate.parse("2020-10-01T13:30:02.25Z") == Date(timeIntervalSince1970: 1_601_559_002.25))
        #expect(TDate.parse("2020-10-01T15:30:02+02:00") == Date(timeIntervalSince1970: 1_601_559_002))
        #expect(TDate.parse("2020-10-01T11:30:02-02:00") == Date(timeIntervalSince1970: 1_601_559_002))
        #expect(TDate.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        for bad in ["2020-10-01", "2020-13-01T00:00:00Z", "2020-02-30T00:00:00Z", "2020-10-01T24:00:00Z",
                    "2020-10-01T13:30:02", "2020-10-01T13:30:02.Z", "2020-10-01T13:30:02+0200", "x020-10-01T13:30:02Z"] {
            #expect(TDate.parse(bad) == nil, "\(bad)")
        }
        #expect(FullDate.isValid("2024-02-29"))
        #expect(!FullDate.isValid("2023-02-29"))
    }

    @Test func malformedResponsesSayWhyAndWhere() {
        func reason(_ bytes: [UInt8]) -> MDocDecodingError? {
            do { _ = try DeviceResponse(bytes: bytes); return nil } catch { return error }
        }
        #expect(reason([0xff])?.description.contains("not a CBOR item") == true)
        #expect(reason([0x80])?.description == "DeviceResponse is an array, expected a map (offset 0)")
        #expect(reason([0xa0])?.reason == "DeviceResponse has no \"version\"")
        let noDocuments = CBOREncoder().encode(.map([.init("version", "1.0"), .init("status", 0)]))
        #expect(reason(noDocuments)?.reason.contains("no documents") == true)
        #expect(reason(noDocuments)?.code == .documentsNotReturned)
        let emptyDocuments = CBOREncoder().encode(.map([.init("version", "1.0"), .init("documents", []), .init("status", 0)]))
        #expect(reason(emptyDocuments)?.code == .deviceResponseMalformed)
        let deep = [UInt8](repeating: 0x81, count: 100_000)
        #expect(reason(deep)?.reason.contains("nesting deeper") == true)
        let mistyped = CBOREncoder().encode(.map([.init("version", 1), .init("status", 0)]))
        #expect(reason(mistyped)?.description == "DeviceResponse.version is an integer, expected a text string (offset 9)")
    }

    /// One namespace, `count` items named e0, e1, ...; with `repeating`, the last item reuses the first name.
    /// The issuerAuth is left out: the items are read first, so only a repeated name can be the complaint before it.
    static func response(items count: Int, repeating: Bool) -> [UInt8] {
        let encoder = CBOREncoder()
        let items: [CBOR] = (0..<count).map { i in
            let name = repeating && i == count - 1 ? "e0" : "e\(i)"
            let item = encoder.encode(.map([.init("digestID", .unsigned(UInt64(i))), .init("random", .bytes([0])),
                                            .init("elementIdentifier", .text(name)), .init("elementValue", .unsigned(1))]))
            return .tagged(24, .bytes(item))
        }
        let issuerSigned = CBOR.map([.init("nameSpaces", .map([.init("org.iso.18013.5.1", .array(items))]))])
        let document = CBOR.map([.init("docType", "org.iso.18013.5.1.mDL"), .init("issuerSigned", issuerSigned)])
        return encoder.encode(.map([.init("version", "1.0"), .init("documents", .array([document])), .init("status", 0)]))
    }

    @Test(arguments: [2, 32, 33, 100])
    func anElementDisclosedTwiceInANamespaceIsRefused(count: Int) {
        func reason(_ bytes: [UInt8]) -> String? {
            do { _ = try DeviceResponse(bytes: bytes); return nil } catch { return error.reason }
        }
        #expect(reason(Self.response(items: count, repeating: true)) == "org.iso.18013.5.1 discloses e0 twice")
        // The same namespace with distinct names gets past the items and fails only for the missing issuerAuth.
        #expect(reason(Self.response(items: count, repeating: false)) == "IssuerSigned has no \"issuerAuth\"")
    }

    @Test func verifierReportsMalformedResponsesAsOneError() {
        let report = MDocVerifier(trust: .empty).verify(
            deviceResponse: [0x01, 0x02], sessionTranscript: [0x80],
            options: VerificationOptions(verificationTime: Date(timeIntervalSince1970: 0)))
        #expect(!report.verified)
        #expect(report.failureCode == .deviceResponseMalformed)
        #expect(report.failureDetail?.contains("offset 1") == true)
        #expect(report.documents.isEmpty)
    }

    @Test func elementValuesCoverEveryKind() throws {
        let value: CBOR = [
            "t", 1, -2, true, .bytes([1]), .tagged(1004, "2020-01-01"), .tagged(0, "2020-01-01T00:00:00Z"),
            .map([.init("k", nil), .init(5, .float(1.5))]), .negative(UInt64.max), .tagged(99, 1),
        ]
        let decoded = ElementValue(try CBORDecoder().decode(CBOREncoder().encode(value)))
        #expect(decoded == .array([
            .text("t"), .integer(1), .integer(-2), .bool(true), .bytes([1]), .fullDate("2020-01-01"),
            .tdate("2020-01-01T00:00:00Z"), .map([("k", .null), ("5", .float(1.5))]),
            .bigInteger("-18446744073709551616"), .tagged(99, .integer(1)),
        ]))
    }
}
