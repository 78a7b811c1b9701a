import Foundation

/// Runs a program to completion and captures what it printed.
public enum ProcessRunner {
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
        public let error: String

        /// The last line of output parsed as a JSON object (empty when it is not one).
        public var json: [String: Any] {
            let line = output.split(separator: "\n").last.map(String.init) ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
    }

    /// Runs `executable` with `arguments` from the repository root; without an executable, `arguments[0]` is looked
    /// up on the PATH (through `/usr/bin/env`).
    public static func run(_ arguments: [String], executable: URL? = nil,
                           environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes at once so neither fills up and blocks the child.
        let errorData = LockedData()
        let reader = Thread { errorData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.done { Thread.sleep(forTimeInterval: 0.005) }
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                      error: String(decoding: errorData.value, as: UTF8.self))
    }

    /// Runs it in the background on a thread of its own (never blocking a thread of the cooperative pool, which the
    /// server under test needs for its handlers); await the task's value for the result.
    public static func start(_ arguments: [String]) -> Task<Result, any Error> {
        Task {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                Thread { continuation.resume(with: Swift.Result { try run(arguments) }) }.start()
            }
        }
    }
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var finished = false
    func set(_ value: Data) { lock.lock(); data = value; finished = true; lock.unlock() }
    var done: Bool { lock.lock(); defer { lock.unlock() }; return finished }
    var value: Data { lock.lock(); defer { lock.unlock() }; return data }
}
