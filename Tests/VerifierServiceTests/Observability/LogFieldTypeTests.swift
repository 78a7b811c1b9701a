import Foundation
import Logging
import Testing
import TestSupport
@testable import ServiceObservability
import VerifierService

/// Log lines keep the JSON type of what they carry: counts, ports and versions are numbers, lists are arrays,
/// booleans are booleans; only text is a string.
@Suite(.serialized)
struct LogFieldTypeTests {
    static let p256 = ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")
    static let p384 = ServiceHarness.pki.appendingPathComponent("iaca-p384.pem")

    /// A log line as a JSON object (empty when it is not one).
    static func object(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    /// The JSON type of the member `key` of a one-level log line, read from the text after `"key":` (decoded
    /// values alone cannot tell a boolean from a number on every platform): number, string, boolean, array, object.
    static func type(of key: String, in line: String) -> String? {
        guard let range = line.range(of: "\"\(key)\":"), let first = line[range.upperBound...].first else { return nil }
        switch first {
        case "\"": return "string"
        case "t", "f": return "boolean"
        case "[": return "array"
        case "{": return "object"
        case "-", "0"..."9": return "number"
        default: return nil
        }
    }

    @Test func theHandlerWritesNumbersBooleansAndListsWithTheirTypes() throws {
        let lines = LogCapture()
        let logger = LogOutput { lines.append($0) }.logger(label: "types")
        logger.info("typed", metadata: [
            "count": .stringConvertible(3), "big": .stringConvertible(Int64(1) << 40), "ratio": .stringConvertible(1.5),
            "on": .stringConvertible(true), "off": .stringConvertible(false),
            "list": .array([.string("a"), .stringConvertible(2)]), "text": "3",
        ])
        let line = try #require(lines.all.first)
        let object = Self.object(line)
        #expect(object["count"] as? Int == 3 && Self.type(of: "count", in: line) == "number")
        #expect(object["big"] as? Int == 1 << 40 && Self.type(of: "big", in: line) == "number")
        #expect(object["ratio"] as? Double == 1.5 && Self.type(of: "ratio", in: line) == "number")
        #expect(object["on"] as? Bool == true && Self.type(of: "on", in: line) == "boolean")
        #expect(object["off"] as? Bool == false && Self.type(of: "off", in: line) == "boolean")
        let list = try #require(object["list"] as? [Any])
        #expect(list.count == 2 && list[0] as? String == "a" && list[1] as? Int == 2)
        // Text stays text, even when it looks like a number.
        #expect(object["text"] as? String == "3" && Self.type(of: "text", in: line) == "string")
    }

    @Test func aTrustChangeLineHasNumericVersionAndCountAndAListOfFingerprints() async throws {
        let harness = try ServiceHarness(anchors: [Self.p384])
        defer { Task { await harness.stop() } }
        let before = harness.service.iacaTrust.snapshot.version
        #expect(try await harness.admin("POST", "/v1/admin/iaca", body: try Data(contentsOf: Self.p256)).status == 201)
        let line = try #require(harness.logs.all.first { $0.contains("trust set changed") })
        let change = Self.object(line)
        #expect(Self.type(of: "version", in: line) == "number" && change["version"] as? Int == before + 1, "\(line)")
        #expect(Self.type(of: "anchorCount", in: line) == "number" && change["anchorCount"] as? Int == 2, "\(line)")
        let fingerprints = try #require(change["fingerprints"] as? [String], "\(line)")
        #expect(fingerprints.count == 1 && fingerprints[0].count == 64)
        #expect(change["action"] as? String == "add")
        await harness.stop()
    }

    @Test func theListeningLineHasNumericPortAnchorsAndVersion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-logtypes-\(UUID().uuidString.prefix(8))")
        let trust = folder.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.p256, to: trust.appendingPathComponent("iaca-p256.pem"))
        let config = folder.appendingPathComponent("verifierd.json")
        try JSONSerialization.data(withJSONObject: [
            "server": ["host": "127.0.0.1", "port": 0], "trust": ["iacaDirectory": trust.path, "pollSeconds": 0],
        ]).write(to: config)
        let serve = try ServeProcess(config: config)
        let line = try #require(serve.startLog.split(separator: "\n").map(String.init).first { $0.contains(#""listening""#) },
                                "no listening line in: \(serve.startLog)")
        let listening = Self.object(line)
        #expect(Self.type(of: "port", in: line) == "number" && (listening["port"] as? Int ?? 0) > 0, "\(line)")
        #expect(Self.type(of: "trustAnchors", in: line) == "number" && listening["trustAnchors"] as? Int == 1, "\(line)")
        #expect(Self.type(of: "trustVersion", in: line) == "number" && listening["trustVersion"] is Int, "\(line)")
        #expect(listening["host"] as? String == "127.0.0.1")
        #expect(listening["level"] as? String == "notice")
        #expect(try serve.port() == listening["port"] as? Int)
        #expect(serve.terminate())
    }
}
