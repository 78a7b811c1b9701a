import CBOR
import Foundation
import Testing
import TestSupport
@testable import VerifierService

/// Reports that cannot mislead, and metrics that cannot grow without bound.
@Suite(.serialized)
struct ReportHonestyTests {
    static let cases = Fixtures.testVectors.appendingPathComponent("mdoc/cases")

    static func caseBytes(_ name: String, _ kind: String) throws -> [UInt8] {
        try Fixtures.hexFile(cases.appendingPathComponent("\(name).\(kind).hex"))
    }

    /// A DeviceResponse holding the documents of two generated cases.
    static func combined(_ first: String, _ second: String) throws -> [UInt8] {
        func document(_ name: String) throws -> CBOR {
            let response = try CBORDecoder().decode(try caseBytes(name, "deviceresponse"))
            let document = try #require(response["documents"]?.arrayValue?.first)
            return .encoded(Array(document.encoded))
        }
        return CBOREncoder().encode(.map([
            .init("version", "1.0"), .init("documents", [try document(first), try document(second)]), .init("status", 0),
        ]))
    }

    /// One document verifies, the other does not: the response is 422 and carries no claim values at all.
    @Test func failedResponseCarriesNoClaimsForAnyDocument() async throws {
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")])
        defer { Task { await harness.stop() } }
        let name = "valid-p256-sha256-signature"
        let response = try await harness.post("/v1/mdoc/verify", json: [
            "deviceResponse": Data(try Self.combined(name, "issuer-signature-invalid")).base64EncodedString(),
            "sessionTranscript": Data(try Self.caseBytes(name, "transcript")).base64EncodedString(),
            "verificationTime": "2030-01-01T00:00:00Z",
        ])
        #expect(response.status == 422)
        let documents = try #require(response.json["documents"] as? [[String: Any]])
        #expect(documents.count == 2)
        #expect(documents[0]["verified"] as? Bool == true)
        #expect(documents[1]["verified"] as? Bool == false)
        for document in documents {
            #expect(document["claims"] == nil)
            #expect(document["deviceSignedClaims"] == nil)
            #expect(document["checks"] != nil)
        }
        #expect(!String(decoding: response.body, as: UTF8.self).contains("Mustermann"))
        await harness.stop()
    }

    /// Device-signed elements are the holder's assertions: they never share an object with issuer-signed ones, so
    /// a JSON parser that keeps the last duplicate cannot hand the holder's value over the issuer's.
    @Test func deviceSignedElementsAreKeptApartFromIssuerSigned() async throws {
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")])
        defer { Task { await harness.stop() } }
        let name = "valid-device-signed-overlaps-issuer"
        let response = try await harness.post("/v1/mdoc/verify", json: [
            "deviceResponse": Data(try Self.caseBytes(name, "deviceresponse")).base64EncodedString(),
            "sessionTranscript": Data(try Self.caseBytes(name, "transcript")).base64EncodedString(),
            "verificationTime": "2030-01-01T00:00:00Z",
        ])
        #expect(response.status == 200)
        let document = try #require((response.json["documents"] as? [[String: Any]])?.first)
        let claims = try #require(document["claims"] as? [String: [String: Any]])
        let deviceClaims = try #require(document["deviceSignedClaims"] as? [String: [String: Any]])
        #expect(claims["org.iso.18013.5.1"]?["family_name"] as? String == "Mustermann")
        #expect(deviceClaims["org.iso.18013.5.1"]?["family_name"] as? String == "Holder-Asserted")
        #expect(!JSONKeyScanner.hasDuplicateKeys(response.body))
        await harness.stop()
    }

    /// 3,000 requests with invented methods and paths leave `/metrics` the same size: label values come from
    /// fixed sets.
    @Test func metricsLabelsComeFromFixedSets() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        func send(_ range: Range<Int>) {
            for index in range {
                _ = RawHTTPClient.send(port: harness.server.port,
                    "M\(index)X /invented/\(index)?q=\(index) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                _ = RawHTTPClient.send(port: harness.server.port,
                    "GET /nowhere/\(index) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            }
        }
        send(0..<50)
        _ = try await harness.request("GET", "/metrics")  // the /metrics route's own series exist from now on
        let before = try await harness.request("GET", "/metrics").body
        send(50..<1550)
        let after = try await harness.request("GET", "/metrics").body
        let lines = { (data: Data) in String(decoding: data, as: UTF8.self).split(separator: "\n").count }
        #expect(lines(after) == lines(before), "\(String(decoding: after, as: UTF8.self))")
        #expect(after.count < before.count + 128)  // counter values gain digits, nothing else
        #expect(!String(decoding: after, as: UTF8.self).contains("invented"))
        #expect(!String(decoding: after, as: UTF8.self).contains("M1000X"))
        await harness.stop()
    }
}

/// Finds repeated keys in any JSON object of a document (Foundation's parser silently keeps one of them).
enum JSONKeyScanner {
    static func hasDuplicateKeys(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var index = 0
        var stack: [Set<String>?] = []  // a set per open object, nil per open array
        var expectingKey = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"): stack.append([]); expectingKey = true
            case UInt8(ascii: "["): stack.append(nil); expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"): stack.removeLast(); expectingKey = false
            case UInt8(ascii: ","): expectingKey = stack.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                if expectingKey, var keys = stack.last ?? nil {
                    let key = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                    if !keys.insert(key).inserted { return true }
                    stack[stack.count - 1] = keys
                    expectingKey = false
                }
                index = end
            default: break
            }
            index += 1
        }
        return false
    }
}
