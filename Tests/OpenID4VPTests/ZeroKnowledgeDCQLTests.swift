import Foundation
import Longfellow
import MDoc
import StrictJSON
import Testing
import ZKMdoc
@testable import OpenID4VP

/// `mso_mdoc_zk` (Longfellow's proposal for zero-knowledge mdoc proofs over OpenID4VP): the query verifierd makes
/// for a document that requires a proof, a caller's own read strictly, the session keeping the systems, and the
/// answer's format held to the query's.
struct ZeroKnowledgeDCQLTests {
    static let v7 = try! #require(LongfellowSystemSpec.published(circuitHash: "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"))
    static let ageRequired = RequestedItems.Document(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
        (nameSpace: "org.iso.18013.5.1", elements: [RequestedItems.Element("age_over_18", intentToRetain: false)]),
    ], zeroKnowledge: ZKRequest(systems: [.init(id: v7.circuitHash, spec: v7)], required: true))

    struct Refused: Error { let detail: String }

    static func parse(_ json: String) -> Result<DCQLQuery, Refused> {
        do {
            return .success(try DCQLQuery(parsing: try JSONDecoder().decode(RawJSON.self, from: Data(json.utf8))))
        } catch let refusal as DCQLQuery.Refusal {
            return .failure(Refused(detail: refusal.detail))
        } catch {
            return .failure(Refused(detail: "\(error)"))
        }
    }

    static func query(system: String, meta extra: String = "", claims: String = #"[{"path": ["org.iso.18013.5.1", "age_over_18"]}]"#,
                      docType: String = "org.iso.18013.5.1.mDL") -> String {
        #"{"credentials": [{"id": "age", "format": "mso_mdoc_zk", "meta": {"doctype_value": "\#(docType)", "zk_system_type": [\#(system)]\#(extra)}, "claims": \#(claims)}]}"#
    }

    static let v7System = #"{"system": "longfellow-libzk-v1", "circuit_hash": "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121", "num_attributes": 1, "version": 7, "block_enc_hash": 4151, "block_enc_sig": 4096}"#

    @Test func aRequiredProofIsAskedAsMsoMdocZK() throws {
        let query = DCQLQuery(RequestedItems(documents: [Self.ageRequired]))
        #expect(query.credentials[0].format == "mso_mdoc_zk")
        let text = query.json.text
        #expect(text.contains(#""format":"mso_mdoc_zk""#) && text.contains(#""zk_system_type":[{"id":"8d0792"#))
        #expect(text.contains(#""num_attributes":1,"version":7,"block_enc_hash":4151,"block_enc_sig":4096"#))
        // Read back as a caller's query, it is the same request.
        guard case .success(let read) = Self.parse(text) else { Issue.record("verifierd's own query is refused"); return }
        #expect(read.credentials[0].document == Self.ageRequired)
        // An allowed proof is a plain mso_mdoc query (DCQL has no "either" for one credential).
        let allowed = RequestedItems.Document(docType: Self.ageRequired.docType, nameSpaces: Self.ageRequired.nameSpaces,
                                              zeroKnowledge: ZKRequest(systems: Self.ageRequired.zeroKnowledge!.systems, required: false))
        #expect(DCQLQuery(RequestedItems(documents: [allowed])).credentials[0].format == "mso_mdoc")
    }

    @Test func aCallersZKQueryIsReadStrictly() {
        if case .failure(let refused) = Self.parse(Self.query(system: Self.v7System, meta: #", "verifier_message": "challenge""#)) {
            Issue.record("refused: \(refused.detail)")
        }
        let refusals: [(String, String)] = [
            (Self.query(system: Self.v7System.replacingOccurrences(of: "4151", with: "4152")), "published parameters"),
            (Self.query(system: Self.v7System.replacingOccurrences(of: "8d0792", with: "8d0793")), "circuit_hash"),
            (Self.query(system: Self.v7System.replacingOccurrences(of: "longfellow-libzk-v1", with: "other")), ".system"),
            (Self.query(system: Self.v7System.replacingOccurrences(of: #""version""#, with: #""extra": 1, "version""#)), ".extra"),
            (Self.query(system: Self.v7System, meta: #", "vct_values": []"#), "vct_values"),
            (Self.query(system: Self.v7System + ", " + Self.v7System), "twice"),
            (Self.query(system: ""), "zk_system_type"),
            (Self.query(system: Self.v7System, claims: #"[{"path": ["org.iso.18013.5.1", "age_over_18"]}, {"path": ["org.iso.18013.5.1", "age_over_21"]}]"#),
             "does not prove 2"),
            (Self.query(system: Self.v7System, claims: #"[{"path": ["org.iso.18013.5.1.aamva", "DHS_compliance"]}]"#), "namespace"),
            (Self.query(system: Self.v7System, docType: "org.example.unknown"), "namespace"),
            // v5 predates the soundness fix: not a published system here.
            (Self.query(system: #"{"system": "longfellow-libzk-v1", "circuit_hash": "f88a39e561ec0be02bb3dfe38fb609ad154e98decbbe632887d850fc612fea6f", "num_attributes": 1, "version": 5, "block_enc_hash": 4096, "block_enc_sig": 2945}"#),
             "circuit_hash"),
        ]
        for (json, expected) in refusals {
            switch Self.parse(json) {
            case .success: Issue.record("accepted: \(json)")
            case .failure(let refused): #expect(refused.detail.contains(expected), "\(refused.detail)")
            }
        }
    }

    @Test func aQueryMayNameOnlyAcceptedSystems() throws {
        guard case .success(let zk) = Self.parse(Self.query(system: Self.v7System)) else { Issue.record("refused"); return }
        // Without accepted systems (no zk section), the v7 system the query names is refused, by credential and id.
        let refused = try #require(zk.zeroKnowledgeSystemNotAccepted(by: nil))
        #expect(refused.credentialId == "age" && refused.systemId == Self.v7.circuitHash)
        // A query without mso_mdoc_zk names none. (Accepted systems, with circuits loaded: ZeroKnowledgeOverHTTPTests.)
        #expect(DCQLQuery(RequestedItems(documents: [RequestedItems.Document(docType: Self.ageRequired.docType,
                                                                             nameSpaces: Self.ageRequired.nameSpaces)]))
            .zeroKnowledgeSystemNotAccepted(by: nil) == nil)
    }

    @Test func theSessionKeepsTheSystemsAsked() throws {
        let query = DCQLQuery(credentials: [DCQLQuery.Credential(id: "age", document: Self.ageRequired)])
        let session = OpenID4VPSession(flow: .digitalCredentialsAPI, origin: "https://shop.example", nonce: "n", mode: .dcAPI, key: nil,
                                       query: query, clientId: nil, responseURI: nil)
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        let read = try #require(OpenID4VPSession(record: session.record(id: "id", createdAt: now, expiresAt: now.addingTimeInterval(300))))
        #expect(read.query.credentials[0].document == Self.ageRequired && read.query.credentials[0].format == "mso_mdoc_zk")
    }
}
