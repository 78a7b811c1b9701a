import Foundation
import MDoc
import OpenID4VP
import SDJWTVC
import SessionStore
import StrictJSON
import Synchronization
import Testing

/// `dc+sd-jwt` credential queries (OpenID4VP 1.0 6.1, 6.3, 7, B.3.5): read, refused, stored with the session and read
/// back; presentations routed by format, with the KB-JWT audience of each flow.
@Suite struct SDJWTVCQueryTests {
    static func parse(_ json: String) throws -> DCQLQuery {
        try DCQLQuery(parsing: try JSONDecoder().decode(RawJSON.self, from: Data(json.utf8)))
    }

    static let mixed = #"""
    {"credentials": [
      {"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"},
       "claims": [{"path": ["org.iso.18013.5.1", "age_over_21"]}]},
      {"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1", "urn:eudi:pid:de:1"]},
       "claims": [{"id": "g", "path": ["given_name"]}, {"id": "n", "path": ["nationalities", null]},
                  {"id": "c", "path": ["address", "country"], "values": ["DE", "AT"]}, {"path": ["items", 0]}],
       "claim_sets": [["g", "c"], ["n"]], "require_cryptographic_holder_binding": false}],
     "credential_sets": [{"options": [["mdl"], ["pid"]]}]}
    """#

    @Test func readsAQueryThatMixesFormats() throws {
        let query = try Self.parse(Self.mixed)
        #expect(query.credentials.map(\.format) == ["mso_mdoc", "dc+sd-jwt"])
        #expect(query.requested.documents.map(\.docType) == ["org.iso.18013.5.1.mDL"])
        #expect(query.asksForSDJWTVC)
        let pid = try #require(query.credential("pid")?.sdJwtVc)
        #expect(pid.vctValues == ["urn:eudi:pid:1", "urn:eudi:pid:de:1"])
        #expect(pid.claims.map(\.path) == [[.name("given_name")], [.name("nationalities"), .all], [.name("address"), .name("country")],
                                           [.name("items"), .index(0)]])
        #expect(pid.claims[2].values == [.string("DE"), .string("AT")])
        #expect(pid.claimSets == [["g", "c"], ["n"]])
        #expect(!pid.requireHolderBinding)
        #expect(query.unmet(answered: ["pid"]) == nil)
    }

    @Test(arguments: [
        (#"{"id":"p","format":"dc+sd-jwt","meta":{}}"#, "vct_values"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":[]}}"#, "vct_values"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":[1]}}"#, "vct_values"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":["v"]},"claims":[{"path":[]}]}"#, "path"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":["v"]},"claims":[{"path":[null,"a"]}]}"#, "start"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":["v"]},"claims":[{"path":["a",-1]}]}"#, "path"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":["v"]},"claims":[{"path":["a",1.5]}]}"#, "path"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":["v"]},"claims":[{"path":["a"]},{"path":["a"]}]}"#, "same path"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":["v"]},"claims":[{"path":["a"],"values":[{"x":1}]}]}"#, "values"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":["v"]},"claims":[{"id":"a","path":["a"]}],"claim_sets":[["b"]]}"#, "claim_sets"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":["v"]},"require_cryptographic_holder_binding":"yes"}"#, "require_cryptographic_holder_binding"),
        (#"{"id":"p","format":"dc+sd-jwt","meta":{"vct_values":["v"]},"trusted_authorities":[]}"#, "trusted_authorities"),
        (#"{"id":"p","format":"jwt_vc_json","meta":{"vct_values":["v"]}}"#, "format"),
    ])
    func refusesMalformedSDJWTVCQueries(_ credential: String, _ needle: String) {
        do {
            _ = try Self.parse(#"{"credentials":[\#(credential)]}"#)
            Issue.record("accepted \(credential)")
        } catch let refusal as DCQLQuery.Refusal {
            #expect(refusal.detail.contains(needle), "\(refusal.detail)")
        } catch {
            Issue.record("\(error)")
        }
    }

    static func session(flow: OpenID4VPSession.Flow, query: DCQLQuery) -> OpenID4VPSession {
        flow == .crossDevice
            ? OpenID4VPSession(flow: .crossDevice, origin: nil, nonce: "nonce-1", mode: .directPostJWT, key: ResponseEncryptionKey(kid: "k"),
                               query: query, clientId: "x509_hash:abc", responseURI: "https://verifier.example/v1/oid4vp/responses/x")
            : OpenID4VPSession(flow: .digitalCredentialsAPI, origin: "https://shop.example", nonce: "nonce-1", mode: .dcAPI, key: nil,
                               query: query, clientId: nil, responseURI: nil)
    }

    @Test(arguments: [OpenID4VPSession.Flow.digitalCredentialsAPI, .crossDevice])
    func aSessionKeepsItsSDJWTVCQueries(_ flow: OpenID4VPSession.Flow) throws {
        let query = try Self.parse(Self.mixed)
        let session = Self.session(flow: flow, query: query)
        let record = session.record(id: "id", createdAt: Date(), expiresAt: Date().addingTimeInterval(60))
        let read = try #require(OpenID4VPSession(record: record))
        #expect(read.query.credentials.map(\.format) == ["mso_mdoc", "dc+sd-jwt"])
        #expect(read.query.credential("pid")?.sdJwtVc == query.credential("pid")?.sdJwtVc)
        #expect(read.query.credential("mdl")?.document == query.credential("mdl")?.document)
    }

    /// Each presentation goes to its format's check; the KB-JWT audience is `origin:<origin>` over the DC API and
    /// the client id cross-device; the verdict keeps the order and names each credential id.
    @Test(arguments: [OpenID4VPSession.Flow.digitalCredentialsAPI, .crossDevice])
    func presentationsGoToTheirFormatsCheck(_ flow: OpenID4VPSession.Flow) async throws {
        let query = try Self.parse(#"{"credentials":[{"id":"pid","format":"dc+sd-jwt","meta":{"vct_values":["v"]}}]}"#)
        let session = Self.session(flow: flow, query: query)
        let seen = Mutex<[String]>([])
        let verifier = OpenID4VPVerifier(mdoc: { _, _, _ in .failure(.deviceResponseMalformed, "not an mdoc") },
                                         sdJwtVc: { presentation, nonce, audience, query, _ in
            seen.withLock { $0 = [presentation, nonce, audience, query?.vctValues.first ?? ""] }
            return .failure(FailureCode(rawValue: "INJECTED"), "the injected verdict")
        })
        let answer: WalletAnswer = .plain(VPToken(presentations: ["pid": ["a.b.c~d~e.f.g"]]))
        // The session's key decides the mode: cross-device sessions take only JWEs.
        if flow == .crossDevice {
            let refused = await verifier.verify(answer, session: session)
            #expect(refused.failureCode == .envelopeMalformed)
            return
        }
        let verdict = await verifier.verify(answer, session: session)
        #expect(verdict.failureCode?.rawValue == "INJECTED")
        #expect(seen.withLock { $0 } == ["a.b.c~d~e.f.g", "nonce-1", "origin:https://shop.example", "v"])
        #expect(Self.session(flow: .crossDevice, query: query).keyBindingAudience == "x509_hash:abc")
    }

    /// An SD-JWT VC where the query asked for an mdoc is not taken for one; offline (no query) the '~' tells.
    @Test func aPresentationOfTheWrongFormatIsRefused() async throws {
        let query = try Self.parse(#"{"credentials":[{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"x"},"claims":[{"path":["n","e"]}]}]}"#)
        let verifier = OpenID4VPVerifier(mdoc: { _, _, _ in .failure(.deviceResponseMalformed, "x") },
                                         sdJwtVc: { _, _, _, _, _ in .failure(FailureCode(rawValue: "REACHED"), "x") })
        let verdict = await verifier.verify(.plain(VPToken(presentations: ["mdl": ["a.b.c~"]])), session: Self.session(flow: .digitalCredentialsAPI, query: query))
        #expect(verdict.failureCode == .vpTokenMalformed)
        let offline = await verifier.verify(.plain(VPToken(presentations: ["x": ["a.b.c~"]])),
                                            session: Self.session(flow: .digitalCredentialsAPI, query: DCQLQuery(credentials: [])))
        #expect(offline.failureCode?.rawValue == "REACHED")
    }
}
