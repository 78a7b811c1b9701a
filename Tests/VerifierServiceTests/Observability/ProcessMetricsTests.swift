import Foundation
import Testing
import TestSupport
@testable import ServiceObservability
@testable import VerifierService

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process metrics at `/metrics`: read from `/proc/self` at each scrape, they are this process's figures, follow
/// what it does, and are left out (without failing the scrape) where `/proc` cannot be read.
@Suite(.serialized)
struct ProcessMetricsTests {
    /// A `/proc/self/stat` line whose command name holds spaces and parentheses; fields 14, 15, 22, 23, 24 are
    /// utime 250, stime 50, starttime 12345, vsize 1048576 and rss 256.
    static let statLine = "4242 (we) ird (name)) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 9 0 12345 1048576 256 "
        + "18446744073709551615 1 1 0 0 0 0 0 4096 1260 0 0 0 17 1 0 0 0 0 0\n"

    @Test func theStatLineIsCountedFromTheLastParenthesis() throws {
        let stat = try #require(ProcessMetrics.Stat(parsing: Array(Self.statLine.utf8)))
        #expect(stat == ProcessMetrics.Stat(userTicks: 250, systemTicks: 50, startTicks: 12345, virtualBytes: 1_048_576,
                                            residentPages: 256))
    }

    @Test func aStatLineThatIsNotOneIsRefused() {
        for line in ["", "4242 no parenthesis 1 2 3", "4242 (short) S 1 2 3",
                     Self.statLine.replacingOccurrences(of: " 250 50 ", with: " 2x0 50 "),
                     Self.statLine.replacingOccurrences(of: " 12345 ", with: " 123456789012345678901 ")] {
            #expect(ProcessMetrics.Stat(parsing: Array(line.utf8)) == nil, "\(line)")
        }
    }

    /// Files are read into a fixed buffer: one that does not fit, or is not there, gives nothing.
    @Test func smallFilesAreReadWithinTheirBuffer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("process-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("small"), large = folder.appendingPathComponent("large")
        try Data(Self.statLine.utf8).write(to: small)
        try Data(repeating: 0x31, count: 5_000).write(to: large)
        #expect(ProcessMetrics.readSmallFile(small.path) == Array(Self.statLine.utf8))
        #expect(ProcessMetrics.readSmallFile(large.path) == nil)
        #expect(ProcessMetrics.readSmallFile(large.path, capacity: 8_192)?.count == 5_000)
        #expect(ProcessMetrics.readSmallFile(folder.appendingPathComponent("absent").path) == nil)
    }

    static func scrape(_ harness: ServiceHarness) async throws -> PrometheusExposition {
        try PrometheusExposition(try await harness.request("GET", "/metrics").text)
    }

    /// Opening files raises `process_open_fds` by as many; closing them brings it back.
    @Test func openFileDescriptorsFollowOpenFiles() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        let before = try #require(try await Self.scrape(harness).value("process_open_fds"))
        let opened = (0..<64).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        #expect(opened.allSatisfy { $0 >= 0 })
        let during = try #require(try await Self.scrape(harness).value("process_open_fds"))
        for descriptor in opened where descriptor >= 0 { close(descriptor) }
        let after = try #require(try await Self.scrape(harness).value("process_open_fds"))
        // Sockets of the scrapes themselves may come and go: a few either way.
        #expect(during >= before + 56, "before \(before), with 64 more open \(during)")
        #expect(after <= during - 56, "with 64 more open \(during), after closing them \(after)")
        #expect(during < (try #require(try await Self.scrape(harness).value("process_max_fds"))))
        await harness.stop()
    }

    /// The figures are this process's: the soft descriptor limit, memory that is there, CPU time that grows with
    /// work, and a start time in the past that agrees with the kernel's boot time and never moves.
    @Test func theFiguresAreThoseOfThisProcess() async throws {
        let harness = try ServiceHarness()
        defer { Task { await harness.stop() } }
        let first = try await Self.scrape(harness)
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(first.value("process_max_fds") == Double(limit.rlim_cur))
        let resident = try #require(first.value("process_resident_memory_bytes"))
        let virtual = try #require(first.value("process_virtual_memory_bytes"))
        #expect(resident > 1_000_000 && resident <= virtual, "resident \(resident), virtual \(virtual)")

        let cpuBefore = try #require(first.value("process_cpu_seconds_total"))
        #expect(cpuBefore > 0)
        let deadline = Date().addingTimeInterval(20)
        var spin: UInt64 = 1
        while (ProcessMetrics().sample().cpuSeconds ?? 0) < cpuBefore + 0.1, Date() < deadline {
            for index in 0..<200_000 { spin = spin &* 6_364_136_223_846_793_005 &+ UInt64(index) }
        }
        let second = try await Self.scrape(harness)
        let cpuAfter = try #require(second.value("process_cpu_seconds_total"))
        #expect(cpuAfter >= cpuBefore + 0.1, "CPU \(cpuBefore) s, after work \(cpuAfter) s (\(spin & 1))")

        let start = try #require(first.value("process_start_time_seconds"))
        let now = Date().timeIntervalSince1970
        #expect(start <= now && start > now - 7 * 86_400, "start \(start), now \(now)")
        #expect(second.value("process_start_time_seconds") == start)
        let kernel = try #require(Self.startTimeFromBootTime())
        #expect(abs(start - kernel) < 2, "start \(start), from /proc/stat btime \(kernel)")
        await harness.stop()
    }

    /// The start time the other way: `/proc/stat`'s `btime` (whole seconds) plus the process's start after boot.
    static func startTimeFromBootTime() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let bootLine = system.split(separator: "\n").first { $0.hasPrefix("btime ") }
        guard fields.count > 19, let ticks = Double(fields[19]),
              let boot = bootLine.flatMap({ Double($0.dropFirst("btime ".count)) }) else { return nil }
        return boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// With nothing at the procfs root (an empty chroot), the scrape still answers: the figures it cannot read are
    /// left out, family lines and all; the descriptor limit and the start time (when the service started) remain.
    @Test func withoutProcfsTheScrapeLeavesOutWhatItCannotRead() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let made = Date().timeIntervalSince1970
        let metrics = ServiceMetrics(process: ProcessMetrics(procRoot: empty.path))
        metrics.trustAnchors(count: 0, secondsUntilSoonestExpiry: nil, directoryLoads: true)
        let text = String(decoding: metrics.render(), as: UTF8.self)
        let exposition = try PrometheusExposition(text)
        #expect(MetricsExpositionTests.problems(exposition) == [], "\(text)")
        for absent in ["process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
                       "process_open_fds"] {
            #expect(!text.contains(absent), "\(absent) in \(text)")
        }
        #expect(exposition.value("process_max_fds") != nil)
        let start = try #require(exposition.value("process_start_time_seconds"))
        #expect(start >= made - 1 && start <= Date().timeIntervalSince1970 + 1, "\(start) vs \(made)")
        #expect(exposition.value("verifierd_trust_anchors") == 0)
        // The real procfs gives every figure.
        #expect(ProcessMetrics().sample().cpuSeconds != nil && ProcessMetrics().sample().openFDs != nil)
    }

    /// Whole figures are written without a fraction, others as Swift writes them; both parse back.
    @Test func figuresAreWrittenAsPrometheusNumbers() {
        #expect(ProcessMetrics.format(1_048_576) == "1048576")
        #expect(ProcessMetrics.format(0.53) == "0.53")
        #expect(ProcessMetrics.format(1.8446744073709552e19) == "1.8446744073709552e+19")
        for value in [0, 0.01, 1_712_345_678.25, 1e300] { #expect(Double(ProcessMetrics.format(value)) == value) }
    }
}
