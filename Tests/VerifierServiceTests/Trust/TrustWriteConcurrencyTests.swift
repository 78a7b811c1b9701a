import Foundation
import Logging
import Testing
import TestSupport
import TrustStore
@testable import TrustManagement
@testable import VerifierService

/// Trust-directory writers in several processes, and layouts whose changes arrive through symlinks.
@Suite(.serialized)
struct TrustWriteConcurrencyTests {
    /// 12 concurrent `verifierd iaca add` runs plus 6 admin API adds against one running service: every anchor
    /// ends up in force (writers hold an exclusive flock on the directory across read, change and write).
    @Test func concurrentCLIAndAdminWritesAreAllKept() async throws {
        let harness = try ServiceHarness(anchors: [ServiceHarness.pki.appendingPathComponent("iaca-p256.pem")])
        defer { Task { await harness.stop() } }
        let certificates = harness.folder.appendingPathComponent("new")
        try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
        var files: [URL] = []
        for index in 0..<18 {
            let file = certificates.appendingPathComponent("iaca-\(index).pem")
            try TestIACA.pem(commonName: "Concurrent IACA \(index)").write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let config = harness.folder.appendingPathComponent("verifierd.json")
        let processes = try files.prefix(12).map { file in
            let process = Process()
            process.executableURL = CommandLineTests.locate()
            process.arguments = ["iaca", "add", "--config", config.path, file.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for file in files.suffix(6) {
                let body = try Data(contentsOf: file)
                group.addTask { try await harness.admin("POST", "/v1/admin/iaca", body: body).status }
            }
            for try await status in group { #expect(status == 201) }
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let onDisk = try TrustDirectory(url: harness.folder.appendingPathComponent("trusted-iaca")).load().anchors
        #expect(onDisk.count == 19)
        #expect(try await harness.admin("POST", "/v1/admin/iaca/reload").status == 200)
        #expect(harness.service.iacaTrust.snapshot.anchors.count == 19)
        await harness.stop()
    }

    /// A Kubernetes config map: `iaca.pem -> ..data/iaca.pem`, `..data -> ..v1`, and an update swaps `..data` to a
    /// new folder with rename(2). Neither the directory nor the links change their dates; the content does.
    @Test func configMapSwapThroughSymlinksIsReloaded() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-cm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("..v1"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("..v2"), withIntermediateDirectories: true)
        try TestIACA.pem(commonName: "Map IACA 1").write(to: root.appendingPathComponent("..v1/iaca.pem"), atomically: true, encoding: .utf8)
        try TestIACA.pem(commonName: "Map IACA 2").write(to: root.appendingPathComponent("..v2/iaca.pem"), atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("..data").path, withDestinationPath: "..v1")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("iaca.pem").path, withDestinationPath: "..data/iaca.pem")

        let manager = try LiveTrustSet(directory: TrustDirectory(url: root), logger: Logger(label: "test"))
        #expect(manager.snapshot.anchors.map(\.subject).contains { $0.contains("Map IACA 1") })
        manager.reloadIfChanged(actor: "poll")
        let version = manager.snapshot.version
        #expect(version == 1)

        // The kubelet's swap: a new ..data link renamed over the old one.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("..data_tmp").path, withDestinationPath: "..v2")
        #expect(rename(root.appendingPathComponent("..data_tmp").path, root.appendingPathComponent("..data").path) == 0)
        manager.reloadIfChanged(actor: "poll")
        #expect(manager.snapshot.version == version + 1)
        #expect(manager.snapshot.anchors.map(\.subject).contains { $0.contains("Map IACA 2") })
    }
}
