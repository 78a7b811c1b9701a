import Foundation
import MDoc
import OpenID4VP
import SDJWT
import SDJWTVC
import SessionStore
import StrictJSON
import Testing

/// OpenID4VP 1.0 `transaction_data` in requests (§5.1, §8.4): what an integrator may send, how each entry is encoded
/// and kept, every refusal, and the verdict's rule that each entry is approved exactly once.
@Suite struct TransactionDataTests {
    static let query = #"""
    {"credentials": [
      {"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}, "claims": [{"path": ["given_name"]}]},
      {"id": "card", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:example:card"]}},
      {"id": "loose", "format": "dc+sd-jwt", "meta": {"vct_values": ["v"]}, "require_cryptographic_holder_binding": false},
      {"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "age_over_18"]}]}
    ]}
    """#

    static func dcql() throws -> DCQLQuery { try SDJWTVCQueryTests.parse(query) }

    static let policy = TransactionDataPolicy(types: [
        .init(type: "urn:eudi:sca:payment:1"),
        .init(type: "qes_authorization"),
        .init(type: "schema-checked", schema: try! TransactionDataSchema(bytes: Array(#"""
            {"type": "object", "required": ["amount"], "properties": {"amount": {"type": "number", "minimum": 0}}}
            """#.utf8)), schemaMember: "payload"),
    ])

    static func parse(_ text: String) throws -> JSON { try JSONParser.parse(Array(text.utf8)) }

    /// base64url of the compact JSON of ``paymentObject``, made by Python's `json` (the same string as in
    /// SDJWTVCTests' TransactionDataBindingTests).
    static let paymentEncoded = "eyJ0eXBlIjoidXJuOmV1ZGk6c2NhOnBheW1lbnQ6MSIsImNyZWRlbnRpYWxfaWRzIjpbInBpZCJdLCJ0cmFuc2FjdGlvbl9kYXRhX2hhc2hlc19hbGciOlsic2hhLTI1NiIsInNoYS0zODQiXSwicGF5bG9hZCI6eyJ0cmFuc2FjdGlvbl9pZCI6IjhEOEFDNjEwLTU2NkQtNEVGMC05QzIyLTE4NkIyQTVFRDc5MyIsInBheWVlIjp7Im5hbWUiOiJTaG9wIiwiaWQiOiJERTEyMyJ9LCJjdXJyZW5jeSI6IkVVUiIsImFtb3VudCI6MjMuNX19"

    /// The object Python's `json.dumps(..., separators=(",", ":"))` turned into `Self.paymentEncoded`.
    static let paymentObject = #"""
    {"type": "urn:eudi:sca:payment:1", "credential_ids": ["pid"], "transaction_data_hashes_alg": ["sha-256", "sha-384"],
     "payload": {"transaction_id": "8D8AC610-566D-4EF0-9C22-186B2A5ED793", "payee": {"name": "Shop", "id": "DE123"},
                 "currency": "EUR", "amount": 23.5}}
    """#

    @Test func eachEntryIsItsCompactJSONInBase64URLAsPythonWritesIt() throws {
        let data = try TransactionData(requested: Self.parse("[\(Self.paymentObject)]"), query: Self.dcql(), policy: Self.policy)
        #expect(data.strings == [Self.paymentEncoded])
        let entry = try #require(data.entries.first)
        #expect(entry.type == "urn:eudi:sca:payment:1")
        #expect(entry.credentialIds == ["pid"])
        #expect(entry.hashAlgorithms == [.sha256, .sha384])
    }

    @Test func anEntryNamingSeveralCredentialsIsOptionalForEach() throws {
        let data = try TransactionData(requested: Self.parse(#"[{"type":"qes_authorization","credential_ids":["pid","card"]}, {"type":"qes_authorization","credential_ids":["card"]}]"#),
                                       query: Self.dcql(), policy: Self.policy, reportsObjects: true)
        let query = try Self.dcql()
        let pid = data.expectation(for: try #require(query.credential("pid")))
        #expect(pid.entries.map(\.index) == [0])
        #expect(pid.entries.map(\.required) == [false])
        #expect(pid.reportsObjects)
        let card = data.expectation(for: try #require(query.credential("card")))
        #expect(card.entries.map(\.index) == [0, 1])
        #expect(card.entries.map(\.required) == [false, true])
        #expect(card.entries.map(\.hashAlgorithms) == [nil, nil])
    }

    @Test(arguments: [
        ("{}", "TRANSACTION_DATA_INVALID"),
        ("[]", "TRANSACTION_DATA_INVALID"),
        (#"["eyJ0eXBlIjoieCJ9"]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"credential_ids":["pid"]}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"","credential_ids":["pid"]}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":1,"credential_ids":["pid"]}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"qes_authorization"}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"qes_authorization","credential_ids":[]}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"qes_authorization","credential_ids":"pid"}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"qes_authorization","credential_ids":["pid","pid"]}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"qes_authorization","credential_ids":["nobody"]}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"qes_authorization","credential_ids":["pid"],"transaction_data_hashes_alg":[]}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"qes_authorization","credential_ids":["pid"],"transaction_data_hashes_alg":"sha-256"}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"qes_authorization","credential_ids":["pid"],"transaction_data_hashes_alg":["sha3-256"]}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"qes_authorization","credential_ids":["pid"],"transaction_data_hashes_alg":["sha-256","sha-256"]}]"#, "TRANSACTION_DATA_INVALID"),
        // One KB-JWT names one algorithm: two entries for "pid" with nothing in common cannot both be approved.
        (#"[{"type":"qes_authorization","credential_ids":["pid"],"transaction_data_hashes_alg":["sha-384"]},{"type":"qes_authorization","credential_ids":["pid"]}]"#, "TRANSACTION_DATA_INVALID"),
        (#"[{"type":"urn:example:unknown","credential_ids":["pid"]}]"#, "TRANSACTION_DATA_TYPE_NOT_ALLOWED"),
        (#"[{"type":"schema-checked","credential_ids":["pid"],"payload":{"amount":-1}}]"#, "TRANSACTION_DATA_SCHEMA_MISMATCH"),
        (#"[{"type":"schema-checked","credential_ids":["pid"],"payload":{"amount":"1"}}]"#, "TRANSACTION_DATA_SCHEMA_MISMATCH"),
        (#"[{"type":"schema-checked","credential_ids":["pid"]}]"#, "TRANSACTION_DATA_SCHEMA_MISMATCH"),
        (#"[{"type":"qes_authorization","credential_ids":["mdl"]}]"#, "TRANSACTION_DATA_NOT_BINDABLE"),
        (#"[{"type":"qes_authorization","credential_ids":["pid","mdl"]}]"#, "TRANSACTION_DATA_NOT_BINDABLE"),
        (#"[{"type":"qes_authorization","credential_ids":["loose"]}]"#, "TRANSACTION_DATA_NOT_BINDABLE"),
    ])
    func everyRefusalHasItsCode(_ requested: String, _ code: String) throws {
        let value = try Self.parse(requested)
        let query = try Self.dcql()
        do throws(TransactionDataRefusal) {
            _ = try TransactionData(requested: value, query: query, policy: Self.policy)
            Issue.record("accepted \(requested)")
        } catch {
            #expect(error.kind.rawValue == code, "\(error.detail)")
        }
    }

    @Test func aSchemaThatAcceptsLetsTheEntryThrough() throws {
        let data = try TransactionData(requested: Self.parse(#"[{"type":"schema-checked","credential_ids":["pid"],"payload":{"amount":12}}]"#),
                                       query: Self.dcql(), policy: Self.policy)
        #expect(data.entries.count == 1)
    }

    @Test func countAndSizeAreBounded() throws {
        let entry = #"{"type":"qes_authorization","credential_ids":["pid"]}"#
        let nine = "[" + Array(repeating: entry, count: 9).joined(separator: ",") + "]"
        let eight = "[" + Array(repeating: entry, count: 8).joined(separator: ",") + "]"
        #expect(try TransactionData(requested: Self.parse(eight), query: Self.dcql(), policy: Self.policy).entries.count == 8)
        #expect(throws: TransactionDataRefusal.self) { try TransactionData(requested: try Self.parse(nine), query: try Self.dcql(), policy: Self.policy) }
        let big = #"[{"type":"qes_authorization","credential_ids":["pid"],"note":""# + String(repeating: "x", count: 4_096) + "\"}]"
        #expect(throws: TransactionDataRefusal.self) { try TransactionData(requested: try Self.parse(big), query: try Self.dcql(), policy: Self.policy) }
        // 5 entries of ~3.5 KiB: each under the entry bound, together over the total.
        let large = #"{"type":"qes_authorization","credential_ids":["pid"],"note":""# + String(repeating: "x", count: 3_500) + "\"}"
        let five = "[" + Array(repeating: large, count: 5).joined(separator: ",") + "]"
        #expect(throws: TransactionDataRefusal.self) { try TransactionData(requested: try Self.parse(five), query: try Self.dcql(), policy: Self.policy) }
    }

    @Test func noTypeIsAllowedUnlessConfigured() throws {
        #expect(throws: TransactionDataRefusal.self) {
            try TransactionData(requested: try Self.parse(#"[{"type":"qes_authorization","credential_ids":["pid"]}]"#), query: try Self.dcql(), policy: .none)
        }
    }

    /// Sent only when there is some: a request without transaction data has no `transaction_data` member at all.
    @Test func theRequestCarriesTheStringsOnlyWhenThereAreAny() throws {
        let query = try Self.dcql()
        let data = try TransactionData(requested: Self.parse("[\(Self.paymentObject)]"), query: query, policy: Self.policy)
        let with = try OpenID4VPRequest(origin: "https://shop.example", query: query, mode: .dcAPIJWT, signer: nil, transactionData: data)
        #expect(with.parameters[member: "transaction_data"] == .array([.string(Self.paymentEncoded)]))
        let without = try OpenID4VPRequest(origin: "https://shop.example", query: query, mode: .dcAPIJWT, signer: nil)
        #expect(without.parameters[member: "transaction_data"] == nil)
        #expect(!String(decoding: without.parameters.serialized(), as: UTF8.self).contains("transaction_data"))
    }

    @Test(arguments: [false, true])
    func theSessionKeepsTheExactStrings(_ objects: Bool) throws {
        let query = try Self.dcql()
        let data = try TransactionData(requested: Self.parse("[\(Self.paymentObject), {\"type\":\"qes_authorization\",\"credential_ids\":[\"card\"]}]"),
                                       query: query, policy: Self.policy, reportsObjects: objects)
        let made = try OpenID4VPRequest(origin: "https://shop.example", query: query, mode: .dcAPIJWT, signer: nil, transactionData: data)
        let record = made.session.record(id: "s", createdAt: Date(), expiresAt: Date().addingTimeInterval(60))
        let read = try #require(OpenID4VPSession(record: record))
        #expect(read.transactionData == data)
        #expect(read.transactionData?.strings.first == Self.paymentEncoded)
        #expect(read.transactionData?.reportsObjects == objects)
        // A session without transaction data stores none and reads none.
        let plain = try OpenID4VPRequest(origin: "https://shop.example", query: query, mode: .dcAPIJWT, signer: nil)
        #expect(OpenID4VPSession(record: plain.session.record(id: "t", createdAt: Date(), expiresAt: Date().addingTimeInterval(60)))?.transactionData == nil)
    }

    // MARK: The verdict: each entry approved exactly once

    static func session(_ transactionData: String) throws -> OpenID4VPSession {
        // Two SD-JWT VC queries, both answered unless `credential_sets` says otherwise.
        let query = try SDJWTVCQueryTests.parse(#"""
        {"credentials": [{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["v"]}},
                         {"id": "card", "format": "dc+sd-jwt", "meta": {"vct_values": ["w"]}}],
         "credential_sets": [{"options": [["pid", "card"], ["card"]]}]}
        """#)
        let data = try TransactionData(requested: parse(transactionData), query: query, policy: policy)
        return OpenID4VPSession(flow: .digitalCredentialsAPI, origin: "https://shop.example", nonce: "n", mode: .dcAPI, key: nil,
                                query: query, clientId: nil, responseURI: nil, transactionData: data)
    }

    /// A verifier whose SD-JWT VC check approves what `approving` says for each credential id.
    static func verifier(approving: [String: [Int]]) -> OpenID4VPVerifier {
        OpenID4VPVerifier(mdoc: { _, _, _ in .failure(.deviceResponseMalformed, "no mdoc here") }, sdJwtVc: { presentation, _, _, _, expectation in
            let indexes = approving[presentation] ?? []
            let approved = indexes.map { ApprovedTransactionData(index: $0, type: "qes_authorization", hashAlgorithm: .sha256, hash: "h", object: nil) }
            let check = SDJWTVCCheckResult(id: .transactionData, status: expectation == nil ? .notApplicable : .passed)
            return .report(SDJWTVCReport(vct: "v", verified: true, claims: nil, disclosedPaths: [],
                                         issuer: SDJWTVCIssuerSummary(iss: nil, signerSubject: nil, anchorSubject: nil, anchorSHA256: nil),
                                         issuedAt: nil, notBefore: nil, expiresAt: nil, keyBinding: nil,
                                         approvedTransactionData: approved, checks: [check]))
        })
    }

    @Test func anEntryApprovedOnceVerifies() async throws {
        let session = try Self.session(#"[{"type":"qes_authorization","credential_ids":["pid","card"]}]"#)
        let verdict = await Self.verifier(approving: ["pid~": [0]]).verify(.plain(VPToken(presentations: ["pid": ["pid~"], "card": ["card~"]])),
                                                                            session: session)
        #expect(verdict.verified)
    }

    @Test func anEntryApprovedByTwoCredentialsFailsTheSecond() async throws {
        let session = try Self.session(#"[{"type":"qes_authorization","credential_ids":["pid","card"]}]"#)
        let verdict = await Self.verifier(approving: ["pid~": [0], "card~": [0]]).verify(
            .plain(VPToken(presentations: ["pid": ["pid~"], "card": ["card~"]])), session: session)
        #expect(!verdict.verified)
        #expect(verdict.failureCode?.rawValue == "TRANSACTION_DATA_APPROVED_TWICE")
        #expect(verdict.documents.filter(\.verified).count == 1)
    }

    @Test func anEntryNobodyApprovedFailsTheCredentialsItNames() async throws {
        let session = try Self.session(#"[{"type":"qes_authorization","credential_ids":["pid","card"]}]"#)
        let verdict = await Self.verifier(approving: [:]).verify(.plain(VPToken(presentations: ["pid": ["pid~"], "card": ["card~"]])),
                                                                  session: session)
        #expect(!verdict.verified)
        #expect(verdict.failureCode?.rawValue == "TRANSACTION_DATA_HASH_MISSING")
        #expect(verdict.documents.allSatisfy { !$0.verified })
    }

    /// A query the answer could leave out (credential_sets) names the only credential that could approve the entry.
    @Test func anEntryWhoseCredentialsWereNotPresentedFailsTheAnswer() async throws {
        let query = try SDJWTVCQueryTests.parse(#"""
        {"credentials": [{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["v"]}},
                         {"id": "card", "format": "dc+sd-jwt", "meta": {"vct_values": ["w"]}}],
         "credential_sets": [{"options": [["pid"], ["card"]]}]}
        """#)
        let data = try TransactionData(requested: Self.parse(#"[{"type":"qes_authorization","credential_ids":["card"]}]"#), query: query, policy: Self.policy)
        let session = OpenID4VPSession(flow: .digitalCredentialsAPI, origin: "https://shop.example", nonce: "n", mode: .dcAPI, key: nil,
                                       query: query, clientId: nil, responseURI: nil, transactionData: data)
        let verdict = await Self.verifier(approving: [:]).verify(.plain(VPToken(presentations: ["pid": ["pid~"]])), session: session)
        #expect(!verdict.verified)
        #expect(verdict.failureCode?.rawValue == "TRANSACTION_DATA_NOT_APPROVED")
    }

    /// Each presentation is handed the entries addressed to its own credential query, and only those.
    @Test func eachPresentationIsHandedItsOwnEntries() async throws {
        let session = try Self.session(#"[{"type":"qes_authorization","credential_ids":["card"]}, {"type":"qes_authorization","credential_ids":["pid","card"]}]"#)
        let seen = SeenExpectations()
        let verifier = OpenID4VPVerifier(mdoc: { _, _, _ in .failure(.deviceResponseMalformed, "x") }, sdJwtVc: { presentation, _, _, _, expectation in
            seen.record(presentation, expectation)
            return .failure(FailureCode(rawValue: "STOP"), "x")
        })
        _ = await verifier.verify(.plain(VPToken(presentations: ["card": ["card~"]])), session: session)
        let card = try #require(seen.value["card~"] ?? nil)
        #expect(card.entries.map(\.index) == [0, 1])
        #expect(card.entries.map(\.required) == [true, false])
    }
}

final class SeenExpectations: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String: TransactionDataExpectation?] = [:]

    func record(_ key: String, _ value: TransactionDataExpectation?) { lock.withLock { seen[key] = value } }
    var value: [String: TransactionDataExpectation?] { lock.withLock { seen } }
}
