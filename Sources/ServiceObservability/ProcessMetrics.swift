import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The conventional Prometheus process metrics, read from `/proc/self` when `/metrics` is scraped (never per
/// request): CPU time, resident and virtual memory, open and most file descriptors, and the start time. What cannot
/// be read (no `/proc`, as in an empty chroot) is left out; the scrape still answers.
public struct ProcessMetrics: Sendable {
    /// Where procfs is mounted; tests point it at an empty folder.
    public let procRoot: String
    /// Unix seconds when the process started: from procfs when it can be read, else when this value was made (at
    /// service start).
    public let startTime: Double

    public init(procRoot: String = "/proc") {
        self.procRoot = procRoot
        startTime = Self.processStartTime(procRoot: procRoot) ?? Date().timeIntervalSince1970
    }

    /// The figures of one scrape; nil where they could not be read.
    struct Sample: Equatable {
        var cpuSeconds: Double?
        var residentBytes: Double?
        var virtualBytes: Double?
        var openFDs: Double?
        var maxFDs: Double?
    }

    /// Reads the figures now: one small file, one directory listing and one system call.
    func sample() -> Sample {
        var sample = Sample()
        if let bytes = Self.readSmallFile("\(procRoot)/self/stat"), let stat = Self.Stat(parsing: bytes) {
            let ticks = Self.clockTicksPerSecond
            sample.cpuSeconds = ticks > 0 ? Double(stat.userTicks + stat.systemTicks) / ticks : nil
            sample.virtualBytes = Double(stat.virtualBytes)
            sample.residentBytes = Double(stat.residentPages) * Self.pageSize
        }
        sample.openFDs = Self.countOpenFDs("\(procRoot)/self/fd").map(Double.init)
        var limit = rlimit()
        if getrlimit(resourceLimitNoFile, &limit) == 0 { sample.maxFDs = Double(limit.rlim_cur) }
        return sample
    }

    /// Appends the families in the text format, each with its `# HELP` and `# TYPE` lines; a figure that could not
    /// be read leaves its family out.
    public func emit(into buffer: inout [UInt8]) {
        let sample = sample()
        let figures: [(MetricFamily, Double?)] = [
            (.processCPUSeconds, sample.cpuSeconds),
            (.processResidentMemory, sample.residentBytes),
            (.processVirtualMemory, sample.virtualBytes),
            (.processOpenFDs, sample.openFDs),
            (.processMaxFDs, sample.maxFDs),
            (.processStartTime, startTime),
        ]
        for case let (family, value?) in figures {
            buffer.append(contentsOf: "# HELP \(family.name) \(family.help)\n# TYPE \(family.name) \(family.type)\n".utf8)
            buffer.append(contentsOf: "\(family.name) \(Self.format(value))\n".utf8)
        }
    }

    /// Whole numbers without a fraction (as other clients write byte and descriptor counts), others as Swift writes
    /// them; both are valid Prometheus floats.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return value.description
    }

    // MARK: Reading procfs

    /// The fields of `/proc/self/stat` used here (proc(5): utime, stime, starttime, vsize, rss).
    struct Stat: Equatable {
        var userTicks: UInt64
        var systemTicks: UInt64
        var startTicks: UInt64
        var virtualBytes: UInt64
        var residentPages: UInt64
    }

    /// Unix seconds of the process start: its start in clock ticks after boot (`/proc/self/stat`) plus the boot time,
    /// which is now on the wall clock less the time since boot (the clock `starttime` counts on).
    static func processStartTime(procRoot: String) -> Double? {
        guard let bytes = readSmallFile("\(procRoot)/self/stat"), let stat = Stat(parsing: bytes) else { return nil }
        let ticks = clockTicksPerSecond
        #if os(Linux)
        var wall = timespec()
        var sinceBoot = timespec()
        guard ticks > 0, clock_gettime(CLOCK_REALTIME, &wall) == 0, clock_gettime(CLOCK_BOOTTIME, &sinceBoot) == 0
        else { return nil }
        let bootTime = Double(wall.tv_sec - sinceBoot.tv_sec) + Double(wall.tv_nsec - sinceBoot.tv_nsec) / 1e9
        return bootTime + Double(stat.startTicks) / ticks
        #else
        return nil
        #endif
    }

    /// Reads a file of procfs into a fixed-size buffer; nil when it cannot be opened, read, or does not fit.
    static func readSmallFile(_ path: String, capacity: Int = 4096) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: capacity)
        var filled = 0
        while filled < capacity {
            let count = buffer.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress! + filled, capacity - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return Array(buffer[..<filled]) }
            filled += count
        }
        return nil
    }

    /// The entries of the process's descriptor folder, less the one open on the folder while it is listed.
    static func countOpenFDs(_ path: String) -> Int? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        let own = dirfd(folder)
        var count = 0
        while let entry = readdir(folder) {
            // Entries are descriptor numbers, plus "." and "..".
            let descriptor: Int32? = withUnsafeBytes(of: entry.pointee.d_name) { name in
                var value: Int32 = 0
                for byte in name {
                    if byte == 0 { break }
                    guard (0x30...0x39).contains(byte), value < 100_000_000 else { return nil }
                    value = value * 10 + Int32(byte - 0x30)
                }
                return name.first == 0 ? nil : value
            }
            if let descriptor, descriptor != own { count += 1 }
        }
        return count
    }

    static let clockTicksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    static let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
}

#if canImport(Glibc)
private let resourceLimitNoFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
private let resourceLimitNoFile = RLIMIT_NOFILE
#endif

extension ProcessMetrics.Stat {
    /// Parses the line. The command name (field 2) is in parentheses and may hold spaces and parentheses, so
    /// fields are counted from the last `)`.
    init?(parsing bytes: [UInt8]) {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After ") ": field 3 (state) is at index 0, so field n is at index n - 3.
        let fields = bytes[bytes.index(after: close)...].split(whereSeparator: { $0 == 0x20 || $0 == 0x0A })
        guard fields.count >= 22 else { return nil }
        func number(_ field: Int) -> UInt64? {
            let digits = fields[field - 3]
            guard !digits.isEmpty, digits.count <= 19 else { return nil }
            var value: UInt64 = 0
            for digit in digits {
                guard (0x30...0x39).contains(digit) else { return nil }
                value = value * 10 + UInt64(digit - 0x30)
            }
            return value
        }
        guard let user = number(14), let system = number(15), let start = number(22), let virtual = number(23),
              let resident = number(24) else { return nil }
        self.init(userTicks: user, systemTicks: system, startTicks: start, virtualBytes: virtual,
                  residentPages: resident)
    }
}
