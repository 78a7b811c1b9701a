import Foundation
import Testing
import TestSupport

/// The independent Python holder (`TestVectors/generator/proximity_holder.py`: cbor2, cryptography) against the
/// running service, once per `readerAuth.mode`: a QR engagement with a fresh eDeviceKey, the SessionEstablishment
/// read and its DeviceRequest's reader signatures checked by the holder, answers by device signature and by device
/// MAC (both verified), and a tampered ciphertext, a wrong counter, SKReader instead of SKDevice, an unsupported
/// cipher suite and an unrequested element, each refused with its own code.
@Suite(.serialized)
struct ProximityHolderInteropTests {
    static let holder = Fixtures.testVectors.appendingPathComponent("generator/proximity_holder.py")
    static let scenarios = ["signature", "mac", "tampered-ciphertext", "wrong-counter", "reader-key",
                            "unsupported-cipher-suite", "element-not-requested"]

    @Test(arguments: ["readerAuth", "readerAuthAll", "both"])
    func theHolderPassesEveryScenario(mode: String) async throws {
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")]) { config in
            WebFlowTests.configure(mode: mode)(&config)
            config["proximity"] = ["sessionTTLSeconds": 300]
        }
        defer { Task { await harness.stop() } }
        let outcome = try WebWalletInteropTests.runWallet(port: harness.server.port, mode: mode, script: Self.holder)
        #expect(outcome.status == 0, "holder output:\n\(outcome.output)")
        for name in Self.scenarios {
            #expect(outcome.scenarios[name]?["ok"] as? Bool == true, "\(name): \(outcome.scenarios[name] ?? [:])")
        }
        await harness.stop()
    }
}
