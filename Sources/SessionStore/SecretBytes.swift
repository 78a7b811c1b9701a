#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes that must not outlive their use: a private key or a session record holding one.
///
/// The storage is allocated once, never copied by Swift's copy-on-write, zeroed when the last reference goes, and
/// never printed: `description` and `debugDescription` say only how long it is.
public final class SecretBytes: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    // Written only in init and deinit; read-only in between, so sharing across threads is safe.
    private let storage: UnsafeMutableBufferPointer<UInt8>

    /// Copies `bytes` in. The caller should clear its own copy when it can.
    public init(_ bytes: some Collection<UInt8>) {
        storage = .allocate(capacity: max(bytes.count, 1))
        _ = storage.initialize(from: bytes)
        count = bytes.count
    }

    /// Moves `bytes` in and clears the caller's array.
    public convenience init(consuming bytes: inout [UInt8]) {
        self.init(bytes)
        bytes.withUnsafeMutableBufferPointer { Self.clear($0) }
        bytes = []
    }

    deinit {
        Self.clear(storage)
        storage.deallocate()
    }

    /// The number of bytes held.
    public let count: Int

    /// Reads the bytes without copying them out.
    public func withUnsafeBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(rebasing: storage[0..<count]))
    }

    /// A copy as an array; the caller owns clearing it.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    public var description: String { "SecretBytes(\(count) bytes)" }
    public var debugDescription: String { description }

    /// Overwrites memory with zeros in a way the optimizer does not remove.
    static func clear(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let volatileBase = UnsafeMutableRawPointer(base)
        for offset in 0..<buffer.count {
            volatileBase.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
        }
        // A compiler barrier: the zeroed memory is "used" by an opaque call.
        withExtendedLifetime(buffer) { _ = memchr(volatileBase, 1, buffer.count) }
    }
}
