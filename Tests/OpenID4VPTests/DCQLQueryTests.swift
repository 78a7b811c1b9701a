import Encodings
import Foundation
import MDoc
import StrictJSON
import Testing
@testable import OpenID4VP

/// DCQL for mdocs: queries made from requested documents, and a caller's own query read strictly.
struct DCQLQueryTests {
    static let mdl = RequestedItems.Document(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
        (nameSpace: "org.iso.18013.5.1", elements: [RequestedItems.Element("age_over_21", intentToRetain: true)]),
    ])

    @Test func idsAreMadeFromDocTypesAndUnique() {
        let query = DCQLQuery(RequestedItems(documents: [Self.mdl, Self.mdl]))
        #expect(query.credentials.map(\.id) == ["org_iso_18013_5_1_mDL", "org_iso_18013_5_1_mDL_2"])
        #expect(query.json.text.contains(#""claims":[{"path":["org.iso.18013.5.1","age_over_21"],"intent_to_retain":true}]"#))
    }

    func parse(_ json: String) -> String? {
        do {
            let raw = try JSONDecoder().decode(RawJSON.self, from: Data(json.utf8))
            _ = try DCQLQuery(parsing: raw)
            return nil
        } catch let refusal as DCQLQuery.Refusal {
            return refusal.detail
        } catch {
            return "\(error)"
        }
    }

    @Test func aCallersQueryIsReadWithItsIdsAndMultiple() throws {
        let raw = try JSONDecoder().decode(RawJSON.self, from: Data(#"""
            {"credentials": [{"id": "q0", "format": "mso_mdoc", "multiple": true, "meta": {"doctype_value": "org.iso.18013.5.1.mDL"},
              "claims": [{"path": ["org.iso.18013.5.1", "family_name"]}, {"path": ["org.iso.18013.5.1", "age_over_21"], "intent_to_retain": true}]}],
             "unknown": {"ignored": true}}
            """#.utf8))
        let query = try DCQLQuery(parsing: raw)
        #expect(query.credentials.count == 1 && query.credentials[0].id == "q0" && query.credentials[0].multiple)
        #expect(query.requested.documents[0].nameSpaces[0].elements.map(\.identifier) == ["family_name", "age_over_21"])
    }

    @Test func refusals() {
        let claims = #""claims": [{"path": ["n", "e"]}]"#
        #expect(parse(#"[]"#)?.contains("not an object") == true)
        // trusted_authorities: only aki, with base64url key identifiers of 1 to 64 bytes (6.1.1.1).
        for refused in [#"[]"#, #"[{"type": "aki", "values": []}]"#, #"[{"type": "aki", "values": ["a+/="]}]"#,
                        #"[{"type": "aki"}]"#, #"[{"type": "etsi_tl", "values": ["https://lotl.example.com"]}]"#] {
            #expect(parse(#"{"credentials": [{"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, "trusted_authorities": \#(refused), \#(claims)}]}"#)?
                .contains("trusted_authorities") == true, "\(refused)")
        }
        #expect(parse(#"{"credentials": [{"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, "claims": [{"path": ["n", "e"], "values": [true]}]}]}"#)?.contains("values") == true)
        #expect(parse(#"{"credentials": [{"id": "", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, \#(claims)}]}"#) != nil)
        #expect(parse(#"{"credentials": [{"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, \#(claims)}, {"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, \#(claims)}]}"#)?.contains("twice") == true)
        #expect(parse(#"{"credentials": [{"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, "multiple": "yes", \#(claims)}]}"#)?.contains("multiple") == true)
        #expect(parse(#"{"credentials": [{"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, "claims": [{"path": ["n", "e"]}, {"path": ["n", "e"]}]}]}"#)?.contains("second time") == true)
        #expect(parse(#"{"credentials": [{"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, "claims": [{"id": "c", "path": ["n", "e"]}], "claim_sets": [["d"]]}]}"#)?.contains("claim_sets") == true)
        let five = Array(repeating: #"{"id": "ID", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, \#(claims)}"#, count: 5)
            .enumerated().map { $0.element.replacingOccurrences(of: "ID", with: "c\($0.offset)") }.joined(separator: ",")
        #expect(parse(#"{"credentials": [\#(five)]}"#)?.contains("at most 4") == true)
    }

    /// 6.4: without credential sets every query must be answered; with them, each required set needs a complete option.
    @Test func coverage() throws {
        let plain = DCQLQuery(RequestedItems(documents: [Self.mdl, Self.mdl]))
        #expect(plain.unmet(answered: ["org_iso_18013_5_1_mDL"])?.contains("org_iso_18013_5_1_mDL_2") == true)
        #expect(plain.unmet(answered: ["org_iso_18013_5_1_mDL", "org_iso_18013_5_1_mDL_2"]) == nil)
        let raw = try JSONDecoder().decode(RawJSON.self, from: Data(#"""
            {"credentials": [
              {"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["n", "a"]}]},
              {"id": "pid", "format": "mso_mdoc", "meta": {"doctype_value": "eu.europa.ec.eudi.pid.1"}, "claims": [{"path": ["n", "b"]}]},
              {"id": "photo", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.23220.photoid.1"}, "claims": [{"path": ["n", "c"]}]}],
             "credential_sets": [{"options": [["mdl"], ["pid"]]}, {"required": false, "options": [["photo"]]}]}
            """#.utf8))
        let sets = try DCQLQuery(parsing: raw)
        #expect(sets.unmet(answered: ["pid"]) == nil)
        #expect(sets.unmet(answered: ["mdl", "photo"]) == nil)
        #expect(sets.unmet(answered: ["photo"])?.contains("credential_sets[0]") == true)
    }

    /// OpenID4VP 1.0 §6.1.1.1's example value, as the spec writes it: accepted, its key identifier kept as raw bytes
    /// (the 20 of a SHA-1 key id) for the document and for an SD-JWT VC query; other types refused by kind.
    @Test func trustedAuthoritiesOfTypeAki() throws {
        let example = try #require(Base64URL.decodeBytes("s9tIpPmhxdiuNkHMEWNpYim8S8Y"))
        #expect(example.count == 20)
        let text = #"{"credentials": [{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "trusted_authorities": [{"type": "aki", "values": ["s9tIpPmhxdiuNkHMEWNpYim8S8Y"]}], "claims": [{"path": ["org.iso.18013.5.1", "age_over_18"]}]}, {"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}, "trusted_authorities": [{"type": "aki", "values": ["s9tIpPmhxdiuNkHMEWNpYim8S8Y"]}]}]}"#
        let query = try DCQLQuery(parsing: try JSONDecoder().decode(RawJSON.self, from: Data(text.utf8)))
        #expect(query.credentials[0].document.issuerKeyIdentifiers == [example])
        #expect(query.credentials[1].sdJwtVc?.trustedAuthorities == [example])
        let other = #"{"credentials": [{"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": "x"}, "trusted_authorities": [{"type": "openid_federation", "values": ["https://fed.example"]}], "claims": [{"path": ["n", "e"]}]}]}"#
        let raw = try JSONDecoder().decode(RawJSON.self, from: Data(other.utf8))
        do throws(DCQLQuery.Refusal) {
            _ = try DCQLQuery(parsing: raw)
            Issue.record("openid_federation accepted")
        } catch {
            #expect(error.kind == .trustedAuthorityNotSupported)
        }
    }
}
