import Longfellow

/// A proof system verifierd accepts: the id documents name it by (Google uses the circuit hash), its published
/// parameters, and its circuit, loaded and identified by content.
public struct ZKSystem: Sendable {
    public let id: String
    public let spec: LongfellowSystemSpec
    public let circuit: CircuitFile

    /// Nil unless the circuit is the spec's (its content gives the spec's hash).
    public init?(id: String? = nil, spec: LongfellowSystemSpec, circuit: CircuitFile) {
        guard circuit.circuitHashHex == spec.circuitHash else { return nil }
        self.id = id ?? spec.circuitHash
        self.spec = spec
        self.circuit = circuit
    }

    /// Whether this system's proofs cover every element `document` discloses: a circuit proves a fixed number of
    /// attributes, and an element it does not prove is not vouched for.
    public func provesEveryElement(of document: ZkDocument) -> Bool {
        spec.attributeCount == document.elements.count
    }
}
