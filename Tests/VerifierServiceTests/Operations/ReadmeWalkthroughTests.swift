#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// The documentation's walk-throughs (README.md and docs/), run exactly as written. A block meant to be pasted is
/// marked on the line before its fence:
/// `<!-- walkthrough: NAME step N -->`, optionally with `expect: TEXT` (once or more) naming what that step prints.
/// Per walk-through the marked blocks are joined in order and run in one `bash -euo pipefail` from the repository
/// root, with a temporary HOME, against the demo configuration (`config/verifierd.json`) served on 127.0.0.1:8080 by
/// the built binary, as README tells a reader to start it. Each step's standard output must hold its expectations;
/// whatever a walk-through started must have stopped when it ends, and what it wrote (under `workFolder`) is removed.
@Suite(.serialized)
struct ReadmeWalkthroughTests {
    static let demoConfig = Fixtures.repositoryRoot.appendingPathComponent("config/verifierd.json")
    /// Where the walk-throughs write; the test removes it before and after each run.
    static let workFolder = "/tmp/verifierd-walkthrough"
    static let demoPort = 8080
    static let names = ["web", "oid4vp", "presentations", "proximity", "tls", "zk", "eu-trust"]
    /// The binary README's TLS walk-through starts (the one `swift build -c release` makes).
    static let readmeBinary = ".build/release/verifierd"

    struct Step {
        let walkthrough: String
        let number: Int
        let expectations: [String]
        let code: String
        /// The document (relative to the repository root) and the line of the marker (1-based).
        let file: String
        let line: Int
    }

    /// Every marked block of `text`, in README order. A marker not followed by a fence, or a fence left open, is an
    /// error naming the line.
    static func steps(in text: String, file: String) throws -> [Step] {
        let lines = text.components(separatedBy: "\n")
        let prefix = "<!-- walkthrough: "
        var steps: [Step] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix(prefix) else { index += 1; continue }
            let marker = index + 1
            guard line.hasSuffix("-->") else { throw WalkthroughError("\(file):\(marker): the marker does not end in -->") }
            let body = line.dropFirst(prefix.count).dropLast(3).trimmingCharacters(in: .whitespaces)
            var parts = body.components(separatedBy: " expect: ")
            let head = parts.removeFirst().split(separator: " ")
            guard head.count == 3, head[1] == "step", let number = Int(head[2]) else {
                throw WalkthroughError("\(file):\(marker): the marker is not `<!-- walkthrough: NAME step N [expect: TEXT]… -->`")
            }
            let expectations = parts.map { $0.trimmingCharacters(in: .whitespaces) }
            guard expectations.allSatisfy({ !$0.isEmpty }) else { throw WalkthroughError("\(file):\(marker): an empty expect:") }
            guard index + 1 < lines.count, lines[index + 1].hasPrefix("```") else {
                throw WalkthroughError("\(file):\(marker): the marker is not followed by a code fence")
            }
            var end = index + 2
            while end < lines.count && lines[end] != "```" { end += 1 }
            guard end < lines.count else { throw WalkthroughError("\(file):\(marker): the code block is not closed") }
            steps.append(Step(walkthrough: String(head[0]), number: number, expectations: expectations,
                              code: lines[(index + 2)..<end].joined(separator: "\n"), file: file, line: marker))
            index = end + 1
        }
        return steps
    }

    /// Every marked block of the documentation (README.md and docs/), file by file.
    static func allSteps() throws -> [Step] {
        try Fixtures.documentationFiles.flatMap { try steps(in: try Fixtures.documentation($0), file: $0) }
    }

    static func steps(of name: String) throws -> [Step] {
        try allSteps().filter { $0.walkthrough == name }
    }

    /// The markers are well formed, each walk-through's steps are numbered 1, 2, … in README order, its blocks are
    /// shell, and no line a reader pastes holds a placeholder (`...`, `…`, `<sessionId>`): only comments may.
    @Test func theWalkthroughsAreMarkedAndHoldNoPlaceholders() throws {
        let steps = try Self.allSteps()
        #expect(Set(steps.map(\.walkthrough)) == Set(Self.names), "walk-throughs in the documentation: \(Set(steps.map(\.walkthrough)).sorted())")
        let placeholder = try Regex(#"<[A-Za-z][A-Za-z0-9 _.-]*>"#)
        for name in Self.names {
            let mine = steps.filter { $0.walkthrough == name }
            #expect(mine.map(\.number) == Array(1...max(1, mine.count)), "\(name): steps \(mine.map(\.number)) are not 1...\(mine.count) in order")
            #expect(Set(mine.map(\.file)).count == 1, "\(name): its steps are in one document, not \(Set(mine.map(\.file)).sorted())")
            #expect(mine.first?.code.contains(Self.workFolder) == true, "\(name) step 1 does not create its folder under \(Self.workFolder)")
            #expect(mine.contains { !$0.expectations.isEmpty }, "\(name): no step says what it prints")
        }
        for step in steps {
            for (offset, line) in step.code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("#") else { continue }
                let at = "\(step.file):\(step.line + 2 + offset) (\(step.walkthrough) step \(step.number))"
                #expect(!code.contains("...") && !code.contains("…"), "\(at) holds a placeholder: \(code)")
                #expect(code.firstMatch(of: placeholder) == nil, "\(at) holds a placeholder: \(code)")
            }
        }
        // The fences after the markers are shell.
        for step in steps {
            let lines = try Fixtures.documentation(step.file).components(separatedBy: "\n")
            #expect(lines[step.line] == "```sh", "\(step.file):\(step.line + 1): a walk-through block opens with `\(lines[step.line])`, not ```sh")
        }
    }

    @Test(arguments: names)
    func theWalkthroughRunsAsWritten(_ name: String) throws {
        let steps = try Self.steps(of: name)
        try #require(!steps.isEmpty, "the documentation has no walk-through \(name)")
        let binary = CommandLineTests.locate()
        // Ports: the demo service's, and any a step starts a service on itself (`--port N`).
        let stepPorts = steps.flatMap { $0.code.matches(of: /--port (\d+)/).compactMap { Int($0.output.1) } }
        for port in [Self.demoPort] + stepPorts {
            let user = port == Self.demoPort ? "the demo service README starts" : "a service the walk-through starts"
            try #require(Self.portIsFree(port),
                         "127.0.0.1:\(port) is taken: README's \(name) walk-through needs it for \(user). Stop whatever listens there and run again.")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("verifierd-readme-\(UUID().uuidString)")
        let home = scratch.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: Self.workFolder)
        defer {
            try? FileManager.default.removeItem(atPath: Self.workFolder)
            try? FileManager.default.removeItem(at: scratch)
        }

        let service = try Self.startDemoService(binary: binary, log: scratch.appendingPathComponent("demo-service.log"))
        defer { Self.stop(service) }

        // README runs `.build/release/verifierd`; on another build configuration the test runs the binary it was built with.
        let sameBinary = URL(fileURLWithPath: Self.readmeBinary, relativeTo: Fixtures.repositoryRoot).resolvingSymlinksInPath().path
            == binary.resolvingSymlinksInPath().path
        // On failure: which command, and nothing left running.
        var script = "trap 'echo \"README walk-through command failed (exit $?): $BASH_COMMAND\" >&2' ERR\n"
            + "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n"
        for step in steps {
            let code = sameBinary ? step.code : step.code.replacingOccurrences(of: Self.readmeBinary, with: binary.path)
            script += "printf '\\n@@walkthrough step \(step.number)@@\\n'\n\(code)\n"
        }
        // What a walk-through starts, it stops: give it a few seconds to exit, then fail if anything still runs.
        script += """
            for _ in $(seq 50); do [ -z "$(jobs -pr)" ] && break; sleep 0.2; done
            if [ -n "$(jobs -pr)" ]; then echo "the walk-through left running: $(jobs -pr)" >&2; exit 97; fi
            printf '\\n@@walkthrough end@@\\n'

            """
        let started = Date()
        let run = try Self.bash(script, home: home, scratch: scratch, timeout: 180)
        let seconds = Date().timeIntervalSince(started)
        let ranThrough = run.status == 0 && run.output.contains("@@walkthrough end@@")
        #expect(ranThrough, """
            README's \(name) walk-through failed (bash exit \(run.status) after \(String(format: "%.1f", seconds)) s)
            --- stdout:
            \(run.output.suffix(6000))
            --- stderr:
            \(run.error.suffix(4000))
            """)
        let outputs = Self.stepOutputs(run.output)
        for step in steps {
            let printed = outputs[step.number] ?? ""
            for expected in step.expectations {
                let found = printed.contains(expected)
                #expect(found, """
                    \(step.file):\(step.line): \(name) step \(step.number) should print \(expected); it printed:
                    \(printed.suffix(3000))
                    --- stderr of the walk-through:
                    \(run.error.suffix(2000))
                    """)
            }
        }
        for port in stepPorts {
            #expect(Self.portIsFree(port), "\(name): something still listens on \(port) after the walk-through")
        }
        #expect(Self.isRunning(service), "the demo service stopped during the \(name) walk-through: \(Self.log(service))")
    }

    // MARK: - Running

    struct WalkthroughError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Standard output per step, split at the lines the runner printed before each step.
    static func stepOutputs(_ output: String) -> [Int: String] {
        var result: [Int: String] = [:]
        var current: Int?
        for line in output.components(separatedBy: "\n") {
            if line.hasPrefix("@@walkthrough step "), line.hasSuffix("@@") {
                current = Int(line.dropFirst("@@walkthrough step ".count).dropLast(2))
                continue
            }
            if line == "@@walkthrough end@@" { current = nil; continue }
            if let current { result[current, default: ""] += line + "\n" }
        }
        return result
    }

    struct Service {
        let process: Process
        let log: URL
    }

    /// `verifierd serve --config config/verifierd.json`, its output in `log`, once it says it listens on 8080.
    static func startDemoService(binary: URL, log: URL) throws -> Service {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--config", demoConfig.path]
        process.currentDirectoryURL = Fixtures.repositoryRoot
        process.environment = cleanEnvironment()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
        let service = Service(process: process, log: log)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && process.isRunning && !Self.log(service).contains("\"listening\"") {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard process.isRunning, Self.log(service).contains("\"listening\"") else {
            stop(service)
            throw WalkthroughError("the demo service did not start on config/verifierd.json:\n\(Self.log(service))")
        }
        guard Self.log(service).contains("\"port\":\(demoPort)") else {
            stop(service)
            throw WalkthroughError("the demo service does not listen on \(demoPort):\n\(Self.log(service))")
        }
        return service
    }

    static func log(_ service: Service) -> String {
        (try? String(contentsOf: service.log, encoding: .utf8)) ?? ""
    }

    static func isRunning(_ service: Service) -> Bool { service.process.isRunning }

    static func stop(_ service: Service) {
        guard service.process.isRunning else { return }
        service.process.terminate()
        service.process.waitUntilExit()
    }

    /// This process's environment without `VERIFIERD_*` overrides, so that only what README sets applies.
    static func cleanEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VERIFIERD_") }
    }

    /// `bash -euo pipefail -c script` from the repository root with HOME = `home`; output through files (a
    /// background child keeping a pipe open cannot stall the test); killed after `timeout` seconds.
    struct Run {
        let status: Int32
        let output: String
        let error: String
    }

    static func bash(_ script: String, home: URL, scratch: URL, timeout: TimeInterval) throws -> Run {
        let out = scratch.appendingPathComponent("stdout"), err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-euo", "pipefail", "-c", script]
        process.currentDirectoryURL = Fixtures.repositoryRoot
        var environment = cleanEnvironment()
        environment["HOME"] = home.path
        process.environment = environment
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? outHandle.close()
        try? errHandle.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        var timedOut = false
        if process.isRunning {
            timedOut = true
            process.terminate()
        }
        process.waitUntilExit()
        let error = ((try? String(contentsOf: err, encoding: .utf8)) ?? "")
            + (timedOut ? "\n(the walk-through ran longer than \(Int(timeout)) s and was stopped)" : "")
        return Run(status: timedOut ? -1 : process.terminationStatus,
                   output: (try? String(contentsOf: out, encoding: .utf8)) ?? "", error: error)
    }

    /// Whether a listener could bind 127.0.0.1:`port` now (SO_REUSEADDR, as servers bind).
    static func portIsFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = RawHTTPClient.loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return bound == 0
    }
}
