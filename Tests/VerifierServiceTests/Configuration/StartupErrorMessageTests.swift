import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Start-up errors name the setting, the file and the fix, never a Foundation error dump; and a start that fails has
/// written nothing. Permission cases run the executable as uid/gid 65534 (through `setpriv` when the tests run as
/// root, where every permission check would pass).
@Suite(.serialized)
struct StartupErrorMessageTests {
    static let demo = Fixtures.testVectors.appendingPathComponent("demo")
    static let nobody: UInt32 = 65534

    /// A fresh folder everyone may enter.
    static func folder() throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("verifierd-startup-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        return folder
    }

    /// Copies `source` (a file or a folder of files) to `destination`, readable by everyone, for a process run as
    /// another user: it gets everything it needs in a folder it can read.
    static func copyReadable(_ source: URL, to destination: URL) throws {
        try FileManager.default.copyItem(at: source, to: destination)
        let paths = [destination.path] + (FileManager.default.subpaths(atPath: destination.path) ?? [])
            .map { destination.appendingPathComponent($0).path }
        for path in paths {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            chmod(path, isDirectory.boolValue ? 0o755 : 0o644)
        }
    }

    /// The executable run as an unprivileged user: itself when the tests are not root, `setpriv` to 65534 when
    /// they are (a copy of the binary in /tmp, so the build folder's permissions do not matter).
    static func runUnprivileged(_ arguments: [String], in folder: URL) throws -> ProcessRunner.Result {
        guard getuid() == 0 else { return try CommandLineTests.run(arguments) }
        let binary = folder.appendingPathComponent("verifierd")
        if !FileManager.default.fileExists(atPath: binary.path) {
            try FileManager.default.copyItem(at: CommandLineTests.locate(), to: binary)
        }
        return try ProcessRunner.run(["setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", binary.path]
                                     + arguments)
    }

    static func write(_ json: String, to url: URL) throws {
        try Data(json.utf8).write(to: url)
    }

    @Test func aTrustDirectoryThatCannotBeCreatedNamesTheFolderAndThePermission() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o555])
        // The seed goes into the folder the unprivileged user can read: the checkout may be in a folder only root can
        // enter (a 0700 temporary folder, /root), where the service would report the seed instead of the permission.
        try Self.copyReadable(Self.demo.appendingPathComponent("trusted-iaca"), to: folder.appendingPathComponent("seed"))
        let config = folder.appendingPathComponent("verifierd.json")
        try Self.write(#"{"server": {"port": 0}, "trust": {"iacaDirectory": "locked/trust", "seedDirectory": "seed", "pollSeconds": 0}}"#, to: config)

        let run = try Self.runUnprivileged(["serve", "--config", config.path], in: folder)
        #expect(run.status == 78)
        #expect(run.error.contains("trust.iacaDirectory: cannot create \(locked.path)/trust: permission denied"), "\(run.error)")
        #expect(run.error.contains("\(locked.path) is not writable for uid"), "\(run.error)")
        #expect(!run.error.contains("NSCocoaErrorDomain") && !run.error.contains("trusted-iaca: cannot seed"), "\(run.error)")

        // Writable: the same configuration starts and seeds (as the same user).
        chmod(locked.path, 0o777)
        let started = try Self.runUnprivileged(["iaca", "list", "--config", config.path], in: folder)
        #expect(started.status == 0, "\(started.error)")
        #expect(FileManager.default.fileExists(atPath: locked.appendingPathComponent("trust/current").path))
    }

    @Test func anUnreadableKeySaysPermissionDeniedAndAMissingOneNoSuchFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("merchant.pem")
        try FileManager.default.copyItem(at: Self.demo.appendingPathComponent("keys/merchant-encryption.pem"), to: key)
        chmod(key.path, 0o600)
        let trust = folder.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        let config = folder.appendingPathComponent("verifierd.json")
        try Self.write(#"{"server": {"port": 0}, "apple": {"merchantId": "m", "teamId": "t", "encryptionKeys": ["merchant.pem"]}, "trust": {"iacaDirectory": "trust", "pollSeconds": 0}}"#, to: config)
        if getuid() == 0 { chown(key.path, 0, 0) }

        let denied = try Self.runUnprivileged(["serve", "--config", config.path], in: folder)
        #expect(denied.status == 78)
        #expect(denied.error.contains("apple.encryptionKeys[0]: cannot read \(key.path): permission denied"), "\(denied.error)")

        try FileManager.default.removeItem(at: key)
        let missing = try CommandLineTests.run(["serve", "--config", config.path])
        #expect(missing.status == 78)
        #expect(missing.error.contains("apple.encryptionKeys[0]: cannot read \(key.path): no such file"), "\(missing.error)")
        #expect(!missing.error.contains("permission"), "\(missing.error)")
    }

    /// The key is read before the trust directory is seeded: a start that stops on the key leaves no directory.
    @Test func aFailedStartLeavesNothingBehind() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trust = folder.appendingPathComponent("trust")
        let config = folder.appendingPathComponent("verifierd.json")
        try Self.write(#"{"server": {"port": 0}, "apple": {"merchantId": "m", "teamId": "t", "encryptionKeys": ["absent.pem"]}, "readerTokens": {"brandId": "b", "keyId": "k", "signingKey": "absent-token.pem", "clientTokens": ["client-token-0123456789"]}, "trust": {"iacaDirectory": "trust", "seedDirectory": "\#(Self.demo.path)/trusted-iaca", "pollSeconds": 0}}"#, to: config)

        let run = try CommandLineTests.run(["serve", "--config", config.path])
        #expect(run.status == 78)
        #expect(run.error.contains("apple.encryptionKeys[0]"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: trust.path), "a failed start seeded \(trust.path)")

        // With the keys in place the same configuration seeds the directory.
        try FileManager.default.copyItem(at: Self.demo.appendingPathComponent("keys/merchant-encryption.pem"),
                                         to: folder.appendingPathComponent("absent.pem"))
        try FileManager.default.copyItem(at: Self.demo.appendingPathComponent("keys/reader-token.pem"),
                                         to: folder.appendingPathComponent("absent-token.pem"))
        let serve = try ServeProcess(config: config)
        _ = try serve.port()
        #expect(FileManager.default.fileExists(atPath: trust.appendingPathComponent("current").path))
    }

    @Test func aMissingSeedFolderNamesSeedDirectory() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("verifierd.json")
        try Self.write(#"{"server": {"port": 0}, "trust": {"iacaDirectory": "trust", "seedDirectory": "no-such-seed", "pollSeconds": 0}}"#, to: config)
        let run = try CommandLineTests.run(["serve", "--config", config.path])
        #expect(run.status == 78)
        #expect(run.error.contains("trust.seedDirectory: \(folder.path)/no-such-seed is not a directory"), "\(run.error)")
        #expect(run.error.contains("trust.iacaDirectory \(folder.path)/trust, which does not exist yet"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("trust").path))
    }

    @Test func iacaAddIntoAMissingDirectorySaysHowToCreateIt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trust = folder.appendingPathComponent("trust")
        let config = folder.appendingPathComponent("verifierd.json")
        try Self.write(#"{"trust": {"iacaDirectory": "trust", "pollSeconds": 0}}"#, to: config)
        let anchor = Self.demo.appendingPathComponent("trusted-iaca/demo-iaca.pem").path

        let run = try CommandLineTests.run(["iaca", "add", "--config", config.path, anchor])
        #expect(run.status == 78)
        #expect(run.error.contains("trust.iacaDirectory: \(trust.path) does not exist"), "\(run.error)")
        #expect(run.error.contains("mkdir -p \(trust.path)") && run.error.contains("trust.seedDirectory"), "\(run.error)")

        // Done as the message says, the same command works.
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        let added = try CommandLineTests.run(["iaca", "add", "--config", config.path, anchor])
        #expect(added.status == 0, "\(added.error)")
    }
}
