import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for the tests: `initdb` into a temporary folder, `pg_ctl start` on a free
/// loopback port, trust authentication for the user `verifierd`, stopped and deleted when the test process ends.
///
/// The binaries come from the PATH or Debian's `/usr/lib/postgresql/<version>/bin`. When none is found the tests
/// that need a database are skipped with that note, unless `REQUIRE_POSTGRES_TESTS=1` (set by `.ci/run`), in
/// which case they fail. As root (CI containers), the server runs as the `postgres` user through `runuser`.
///
/// Where the checkout lives does not matter: the tools run from `/` (never the test process's directory, which the
/// `postgres` user may not be allowed to enter: a 0700 home or `mktemp -d` folder), the cluster's folder is in a
/// temporary directory `postgres` can enter (`/tmp` when the configured one is not), and only a tool's standard
/// output is its result (its standard error goes into error messages only).
public final class PostgresTestCluster: @unchecked Sendable {
    public let port: Int
    public let folder: URL
    let binaries: URL
    public static let user = "verifierd"
    private var databaseCounter = 0
    private let lock = NSLock()

    /// Where `initdb` and `pg_ctl` are, or nil.
    public static let binaryFolder: URL? = {
        var candidates: [URL] = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map {
            URL(fileURLWithPath: String($0))
        }
        let debian = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: debian.path)) ?? []).sorted { $0.compare($1, options: .numeric) == .orderedDescending }
        candidates += versions.map { debian.appendingPathComponent($0).appendingPathComponent("bin") }
        return candidates.first { folder in
            ["initdb", "pg_ctl", "postgres"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent($0).resolvingSymlinksInPath().path)
            }
        }.map { $0.appendingPathComponent("pg_ctl").resolvingSymlinksInPath().deletingLastPathComponent() }
    }()

    /// Whether the database tests run here (true when a binary exists, or when CI requires them: they then fail
    /// loudly instead of being skipped).
    public static var enabled: Bool {
        binaryFolder != nil || ProcessInfo.processInfo.environment["REQUIRE_POSTGRES_TESTS"] == "1"
    }

    /// One server for the whole test process (each test takes its own database with ``makeDatabase()``).
    public static let shared: Result<PostgresTestCluster, any Error> = Result { try PostgresTestCluster() }

    public static func sharedCluster() throws -> PostgresTestCluster { try shared.get() }

    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// Server settings (`-c name=value`) beyond the defaults, given to every start.
    let settings: [String]

    /// Creates and starts a new server. `files` are written into its folder first (names relative to it, private
    /// to the server's user: a TLS key and certificate), and `settings` are passed as `-c` options (`ssl=on`, ...).
    public init(settings: [String] = [], files: [String: [UInt8]] = [:]) throws {
        guard let binaries = Self.binaryFolder else {
            throw SetupError(description: "no PostgreSQL binaries (initdb, pg_ctl) on the PATH or in /usr/lib/postgresql; "
                             + "install Debian's postgresql package")
        }
        self.binaries = binaries
        self.settings = settings
        folder = Self.parentFolder().appendingPathComponent("verifierd-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, bytes) in files {
            let file = folder.appendingPathComponent(name)
            try Data(bytes).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
        if geteuid() == 0 {
            _ = try Self.run(URL(fileURLWithPath: "/bin/chown"), ["-R", "postgres:postgres", folder.path], asPostgres: false)
        }
        port = Self.freePort()
        let data = folder.appendingPathComponent("data").path
        try Self.check(try Self.run(binaries.appendingPathComponent("initdb"),
                                    ["-D", data, "-A", "trust", "-U", Self.user, "--no-sync", "-E", "UTF8"]), "initdb")
        try start()
        atexit_register(self)
    }

    /// Starts (or restarts) the server on the same port and data folder, and waits until it accepts connections.
    public func start() throws {
        let data = folder.appendingPathComponent("data").path
        let options = (["-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"]
                       + settings.map { "-c \($0)" }).joined(separator: " ")
        try Self.check(try Self.run(binaries.appendingPathComponent("pg_ctl"),
                                    ["-D", data, "-o", options, "-l", folder.appendingPathComponent("server.log").path,
                                     "-w", "-t", "30", "start"]), "pg_ctl start")
    }

    /// Stops the server at once (`immediate`: like a crash; committed transactions survive in the WAL).
    public func kill() throws {
        let data = folder.appendingPathComponent("data").path
        try Self.check(try Self.run(binaries.appendingPathComponent("pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]),
                       "pg_ctl stop")
    }

    /// Stops the server and every process it started with SIGSTOP, so that connections stay open and nothing
    /// answers (a hung host or a network partition, not a refused connection); ``thaw()`` lets them go on.
    public func freeze() throws { try signalServerProcesses(SIGSTOP) }

    /// Undoes ``freeze()``.
    public func thaw() throws { try signalServerProcesses(SIGCONT) }

    private func signalServerProcesses(_ signal: Int32) throws {
        let pidFile = folder.appendingPathComponent("data/postmaster.pid")
        guard let first = try String(contentsOf: pidFile, encoding: .utf8).split(separator: "\n").first,
              let postmaster = Int32(first) else {
            throw SetupError(description: "no postmaster.pid in \(folder.path)")
        }
        var targets: [Int32] = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (name) ": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == postmaster { targets.append(pid) }
        }
        for pid in targets { _ = Glibc.kill(pid, signal) }
    }

    /// A new empty database; returns its `postgres://` URL.
    public func makeDatabase() throws -> String {
        let name: String = lock.withLock {
            databaseCounter += 1
            return "test_\(getpid())_\(databaseCounter)"
        }
        try Self.check(try Self.run(binaries.appendingPathComponent("createdb"),
                                    ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, name]), "createdb")
        return url(database: name)
    }

    public func url(database: String) -> String { "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)" }

    /// Runs SQL through psql and returns its unaligned output (standard output only: notices, warnings and
    /// anything else psql prints to standard error are not part of it).
    public func psql(_ database: String, _ sql: String) throws -> String {
        let result = try Self.run(binaries.appendingPathComponent("psql"),
                                  ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", database, "-At", "-c", sql])
        try Self.check(result, "psql")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func stopAndDelete() {
        try? thaw()
        _ = try? kill()
        try? FileManager.default.removeItem(at: folder)
    }

    static func check(_ result: ProcessRunner.Result, _ what: String) throws {
        guard result.status == 0 else {
            throw SetupError(description: "\(what) exited \(result.status): \(result.error)\(result.output)")
        }
    }

    /// The folder the cluster's folder goes into: the temporary directory when the user the server runs as can
    /// enter it, else `/tmp` (TMPDIR may point into a home folder only its owner can enter).
    static func parentFolder() -> URL {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
        guard geteuid() == 0 else { return temporary }
        let enterable = (try? run(URL(fileURLWithPath: "/usr/bin/test"), ["-x", temporary.path]))?.status == 0
        return enterable ? temporary : URL(fileURLWithPath: "/tmp")
    }

    /// Runs a command to its end with posix_spawn and waitpid, its standard output and standard error in two files
    /// (not pipes: `pg_ctl start` leaves a server behind that must not hold our end open, and Foundation's Process
    /// does not notice the exit of a child whose grandchild daemonized). The command runs from `/`, a folder every
    /// user may enter: PostgreSQL's tools complain on standard error when they cannot enter their working directory.
    static func run(_ executable: URL, _ arguments: [String], asPostgres: Bool = true) throws -> ProcessRunner.Result {
        var argv = [executable.path] + arguments
        if asPostgres && geteuid() == 0 { argv = ["/sbin/runuser", "-u", "postgres", "--"] + argv }
        // From `/` (posix_spawn_file_actions_addchdir_np is not visible to Swift here): the shell, still as the
        // test's user, moves there and becomes the command.
        argv = ["/bin/sh", "-c", "cd / && exec \"$@\"", "sh"] + argv
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pgtest-\(UUID().uuidString)")
        let output = base.appendingPathExtension("out"), errors = base.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw SetupError(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let errorText = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ProcessRunner.Result(status: exited, output: text, error: errorText)
    }

    /// A loopback port nobody listens on now.
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Clusters to stop when the test process exits.
private let clustersToStop = NSLock()
nonisolated(unsafe) private var registered: [PostgresTestCluster] = []

private func atexit_register(_ cluster: PostgresTestCluster) {
    clustersToStop.withLock {
        if registered.isEmpty {
            atexit {
                let all = clustersToStop.withLock { registered }
                for cluster in all { cluster.stopAndDelete() }
            }
        }
        registered.append(cluster)
    }
}
