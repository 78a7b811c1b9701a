import CBOR
import Foundation
import Testing
import TestSupport
@testable import Longfellow
@testable import ZKMdoc

/// A ZkDocument read strictly: each departure from ZkDocumentData's shape refused before any verification, and the
/// verifier's own rule that a system proves exactly as many elements as are disclosed.
struct ZkDocumentStrictnessTests {
    static let der = Array(repeating: UInt8(0x30), count: 8)

    static func document(_ fields: [CBOR.Pair], proof: [UInt8] = [1, 2, 3]) -> CBORItem {
        let data = CBOREncoder().encode(.map(fields))
        let bytes = CBOREncoder().encode(.map([.init("documentData", .tagged(24, .bytes(data))), .init("proof", .bytes(proof))]))
        return try! CBORDecoder().decode(bytes)
    }

    static func element(_ identifier: String, _ value: CBOR) -> CBOR {
        .map([.init("elementIdentifier", .text(identifier)), .init("elementValue", value)])
    }

    static func fields(replacing name: String? = nil, with value: CBOR? = nil, adding extra: CBOR.Pair? = nil) -> [CBOR.Pair] {
        var fields: [CBOR.Pair] = [
            .init("docType", "org.iso.18013.5.1.mDL"),
            .init("zkSystemId", "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"),
            .init("timestamp", .tagged(0, "2026-11-27T23:59:59Z")),
            .init("issuerSigned", .map([.init("org.iso.18013.5.1", .array([element("age_over_18", true)]))])),
            .init("msoX5chain", .bytes(der)),
        ]
        if let name {
            fields.removeAll { $0.key == .text(name) }
            if let value { fields.append(.init(.text(name), value)) }
        }
        if let extra { fields.append(extra) }
        return fields
    }

    @Test func theShapeIsReadStrictly() throws {
        let good = try ZkDocument(Self.document(Self.fields()))
        #expect(good.elements.map(\.identifier) == ["age_over_18"] && good.elements[0].value == [0xF5] && good.certificates == [Self.der])
        // deviceSigned: absent or empty only (the circuits fix DeviceNameSpaces to {}).
        #expect(throws: Never.self) { try ZkDocument(Self.document(Self.fields(adding: .init("deviceSigned", .map([]))))) }
        let refused: [(String, [CBOR.Pair])] = [
            ("deviceSigned with elements", Self.fields(adding: .init("deviceSigned", .map([.init("org.iso.18013.5.1", .array([Self.element("x", 1)]))])))),
            ("an unknown key", Self.fields(adding: .init("status", 0))),
            ("no zkSystemId", Self.fields(replacing: "zkSystemId")),
            ("a timestamp without tag 0", Self.fields(replacing: "timestamp", with: "2026-11-27T23:59:59Z")),
            ("fractional seconds", Self.fields(replacing: "timestamp", with: .tagged(0, "2026-11-27T23:59:59.5Z"))),
            ("two namespaces", Self.fields(replacing: "issuerSigned", with: .map([
                .init("org.iso.18013.5.1", .array([Self.element("age_over_18", true)])),
                .init("org.iso.18013.5.1.aamva", .array([Self.element("DHS_compliance", "F")]))]))),
            ("five elements", Self.fields(replacing: "issuerSigned", with: .map([.init("org.iso.18013.5.1",
                .array((0..<5).map { Self.element("age_over_\(18 + $0)", true) }))]))),
            ("no elements", Self.fields(replacing: "issuerSigned", with: .map([.init("org.iso.18013.5.1", .array([]))]))),
            ("an element with a digestID", Self.fields(replacing: "issuerSigned", with: .map([.init("org.iso.18013.5.1", .array([
                .map([.init("digestID", 1), .init("elementIdentifier", "age_over_18"), .init("elementValue", true)])]))]))),
            ("msoX5chain of text", Self.fields(replacing: "msoX5chain", with: "certificate")),
            ("msoX5chain of nine", Self.fields(replacing: "msoX5chain", with: .array(Array(repeating: .bytes(Self.der), count: 9)))),
        ]
        for (what, fields) in refused {
            #expect(throws: ZkDocumentError.self, "\(what)") { try ZkDocument(Self.document(fields)) }
        }
        #expect(throws: ZkDocumentError.self, "a proof over 1 MiB") {
            try ZkDocument(Self.document(Self.fields(), proof: Array(repeating: 0, count: ZkDocument.maximumProofBytes + 1)))
        }
    }

    /// A system that proves another number of elements than the document discloses is refused before the proof.
    @Test(.enabled(if: LongfellowCircuits.folder != nil)) func theSystemMustProveEveryDisclosedElement() throws {
        let circuit = try Circuits.circuit("google-v7-1attr")
        let spec = try #require(LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex))
        let system = try #require(ZKSystem(spec: spec, circuit: circuit))
        let two = try ZkDocument(Self.document(Self.fields(replacing: "issuerSigned", with: .map([.init("org.iso.18013.5.1",
            .array([Self.element("age_over_18", true), Self.element("age_over_21", true)]))]))))
        #expect(!system.provesEveryElement(of: two))
        #expect(system.provesEveryElement(of: try ZkDocument(Self.document(Self.fields()))))
    }
}
