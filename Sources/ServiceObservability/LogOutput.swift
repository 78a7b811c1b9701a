#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Synchronization

/// Where JSON log lines go: standard output or standard error (one `write` per line under a lock, so lines from
/// different threads never interleave), or a closure (tests, tools).
public final class LogOutput: Sendable {
    private enum Destination {
        case fileDescriptor(Int32)
        case closure(@Sendable (String) -> Void)
    }

    private let destination: Destination
    private let lock = Mutex(())

    /// Lines to standard output (the service's access and event log).
    public static let standardOutput = LogOutput(destination: .fileDescriptor(1))
    /// Lines to standard error (CLI commands whose standard output is their result).
    public static let standardError = LogOutput(destination: .fileDescriptor(2))

    private init(destination: Destination) {
        self.destination = destination
    }

    /// Lines handed to `sink`, one call per line, without the newline.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        destination = .closure(sink)
    }

    /// A swift-log logger whose handlers write here.
    public func logger(label: String) -> Logger {
        Logger(label: label) { JSONLogHandler(label: $0, output: self) }
    }

    /// Writes one line (the bytes of a JSON object, without the newline).
    public func emit(line: [UInt8]) {
        switch destination {
        case .closure(let sink):
            sink(String(decoding: line, as: UTF8.self))
        case .fileDescriptor(let fd):
            var bytes = line
            bytes.append(0x0a)
            lock.withLock { _ in
                bytes.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count, let base = buffer.baseAddress {
                        let written = write(fd, base + offset, buffer.count - offset)
                        if written > 0 {
                            offset += written
                        } else if written < 0 && errno == EINTR {
                            continue
                        } else {
                            return  // a closed or full log stream drops the line; it never blocks a request
                        }
                    }
                }
            }
        }
    }
}
