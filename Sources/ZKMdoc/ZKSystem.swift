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
}
