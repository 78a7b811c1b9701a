import Foundation
import Testing
import TestSupport
import TrustStore
@testable import MDoc

/// Mutated real documents never crash the parser or the verifier, and never verify.
struct MutationRobustnessTests {
    static func mutate(_ input: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let position = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1: bytes[position] = UInt8.random(in: 0...255, using: &rng)
            case 2: bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...16, using: &rng)))
            case 3: bytes.insert(contentsOf: [0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], at: position)
            default: bytes = Array(bytes.prefix(position))
            }
            if bytes.isEmpty { bytes = [0] }
        }
        return bytes
    }

    @Test func mutatedDocumentsNeverCrashOrVerify() throws {
        let folder = Fixtures.testVectors.appendingPathComponent("mdoc/cases")
        let names = ["valid-p256-sha256-signature", "valid-device-mac", "valid-x5chain-protected",
                     "valid-device-signed-keyauth-dataelements", "mso-status-unresolved"]
        let trust = try TrustFixtures.anchors([Fixtures.testVectors.appendingPathComponent("pki/iaca-p256.pem")])
        var options = VerificationOptions(verificationTime: TestClock.date("2030-01-01T00:00:00Z"))
        options.readerKey = try EphemeralReaderKey(rawScalar: [UInt8](repeating: 7, count: 32))
        var rng = SeededGenerator(seed: 0xfeed)
        var verified = 0
        var malformed = 0
        for name in names {
            let original = try Fixtures.hexFile(folder.appendingPathComponent("\(name).deviceresponse.hex"))
            let transcript = try Fixtures.hexFile(folder.appendingPathComponent("\(name).transcript.hex"))
            for _ in 0..<400 {
                let mutated = Self.mutate(original, using: &rng)
                let report = MDocVerifier(trust: trust).verify(deviceResponse: mutated, sessionTranscript: transcript, options: options)
                if report.verified { verified += 1 }
                if report.failureCode == .deviceResponseMalformed { malformed += 1 }
            }
        }
        // A mutation can land in bytes nothing checks (e.g. an unknown map key's value); it must never be in a
        // signed or digested part. Those few are allowed, the rest must fail.
        #expect(verified <= 5, "\(verified) of 2000 mutated documents verified")
        #expect(malformed > 1000)
    }
}
