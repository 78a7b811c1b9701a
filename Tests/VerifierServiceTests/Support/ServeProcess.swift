import Foundation
import Testing

/// `verifierd serve` as a child process, started and read up to its "listening" log line.
final class ServeProcess {
    let process = Process()
    /// Standard output up to and including the "listening" line.
    private(set) var startLog = ""
    private let output = Pipe()

    /// Starts the service on `config` and waits (up to about 10 s) for it to say where it listens. `environment`
    /// is added to this process's own.
    init(config: URL, arguments: [String] = [], environment: [String: String] = [:]) throws {
        process.executableURL = CommandLineTests.locate()
        process.arguments = ["serve", "--config", config.path] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        process.standardOutput = output
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !startLog.contains("\"listening\"") && process.isRunning && Date() < deadline {
            startLog += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// A numeric field of the listening line (a JSON number), such as `port` or `plainHealthPort`.
    func number(_ field: String) -> Int? {
        guard let range = startLog.range(of: "\"\(field)\":") else { return nil }
        return Int(startLog[range.upperBound...].prefix { $0.isNumber })
    }

    /// The main listener's port.
    func port() throws -> Int { try #require(number("port"), "no listening line in: \(startLog)") }

    /// SIGKILL (no clean-up of any kind, as a crash or an OOM kill), then waits for the exit.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then whether it exited 0 and what it wrote to standard output after the start log.
    func terminateAndReadRest() -> (clean: Bool, rest: String) {
        process.terminate()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationReason == .exit && process.terminationStatus == 0, String(decoding: rest, as: UTF8.self))
    }

    /// SIGTERM, then whether it exited 0.
    func terminate() -> Bool {
        process.terminate()
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}
