import CBOR
import Longfellow

/// A `zkRequest` (ISO/IEC 18013-5 second edition, in an ItemsRequest's `requestInfo`): the proof systems a reader
/// accepts for one document, and whether it accepts nothing but a proof (`zkRequired`).
public struct ZKRequest: Sendable, Equatable {
    /// One accepted system as a request names it: its id and published parameters.
    public struct System: Sendable, Equatable {
        public let id: String
        public let spec: LongfellowSystemSpec

        public init(id: String, spec: LongfellowSystemSpec) {
            self.id = id
            self.spec = spec
        }

        /// `ZkSystemSpec = {"zkSystemId", "system": "longfellow-libzk-v1", "params": {circuit_hash, num_attributes,
        /// version, block_enc_hash, block_enc_sig}}`.
        public var cbor: CBOR {
            .map([
                .init("zkSystemId", .text(id)),
                .init("system", .text(ZKRequest.systemName)),
                .init("params", .map([
                    .init("circuit_hash", .text(spec.circuitHash)),
                    .init("num_attributes", .unsigned(UInt64(spec.attributeCount))),
                    .init("version", .unsigned(UInt64(spec.version))),
                    .init("block_enc_hash", .unsigned(UInt64(spec.blockEncodedHash))),
                    .init("block_enc_sig", .unsigned(UInt64(spec.blockEncodedSignature))),
                ])),
            ])
        }
    }

    /// The only proof system verifierd knows.
    public static let systemName = "longfellow-libzk-v1"

    public let systems: [System]
    public let required: Bool

    public init(systems: [System], required: Bool) {
        self.systems = systems
        self.required = required
    }

    /// As session stores keep it: `[required, [[id, circuit hash]…]]`.
    public var storageForm: CBOR {
        .array([.bool(required), .array(systems.map { .array([.text($0.id), .text($0.spec.circuitHash)]) })])
    }

    /// Nil when `item` is not in ``storageForm`` or names a circuit hash no published system has.
    public init?(storageForm item: CBORItem) {
        guard let parts = item.arrayValue, parts.count == 2, let required = parts[0].boolValue,
              let entries = parts[1].arrayValue, !entries.isEmpty else { return nil }
        var systems: [System] = []
        for entry in entries {
            guard let pair = entry.arrayValue, pair.count == 2, let id = pair[0].textValue, let hash = pair[1].textValue,
                  let spec = LongfellowSystemSpec.published(circuitHash: hash) else { return nil }
            systems.append(System(id: id, spec: spec))
        }
        self.init(systems: systems, required: required)
    }

    /// `{"systemSpecs": [ZkSystemSpec], "zkRequired": bool}`.
    public var cbor: CBOR {
        .map([.init("systemSpecs", .array(systems.map(\.cbor))), .init("zkRequired", .bool(required))])
    }
}

extension ZkDocumentVerifier {
    /// The request for a document of `elementCount` elements: every accepted system that proves that many, newest
    /// version first; nil when none does.
    public func request(elementCount: Int, required: Bool) -> ZKRequest? {
        let systems = systems.filter { $0.spec.attributeCount == elementCount }
            .sorted { $0.spec.version > $1.spec.version }
            .map { ZKRequest.System(id: $0.id, spec: $0.spec) }
        return systems.isEmpty ? nil : ZKRequest(systems: systems, required: required)
    }
}
