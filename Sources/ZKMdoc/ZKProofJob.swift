import Longfellow

/// One proof check, ready to run: the proof, the statement it must prove and the accepted system whose circuit it
/// is checked against. About half a second of CPU on the published circuits: callers run it where that is fine
/// (``ZKProofPool``, or inline in a test).
public struct ZKProofJob: Sendable {
    public let proof: [UInt8]
    public let statement: MdocZKStatement
    public let system: ZKSystem

    public init(proof: [UInt8], statement: MdocZKStatement, system: ZKSystem) {
        self.proof = proof
        self.statement = statement
        self.system = system
    }

    /// Nil when the proof proves the statement under the system's circuit; otherwise why not.
    public func run() -> String? {
        do throws(MdocZKVerifier.Failure) {
            try MdocZKVerifier.verify(proof, statement: statement, circuit: system.circuit, spec: system.spec)
            return nil
        } catch {
            return error.description
        }
    }
}
